package runtime

import "testing"

func TestCmpScores(t *testing.T) {
	for _, c := range []struct {
		w    uint8
		a, b uint64
		want uint8
	}{
		{64, 0xdeadbeef, 0xdeadbeef, 65},
		{32, 0xdeadbeef, 0xdeadbeee, 32},             // one bit differs
		{32, 0, 0xffffffff, 1},                       // none match
		{8, 0xff00, 0x0000, 9},                       // bits above the width do not count
		{16, uint64(0xffffffffffffffff), 0xffff, 17}, // sign-extended -1 vs 0xffff
		{64, 0, 1 << 63, 64},
	} {
		if got := CmpIntScore(c.w, c.a, c.b); got != c.want {
			t.Errorf("CmpIntScore(%d, %#x, %#x) = %d, want %d", c.w, c.a, c.b, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		want uint8
	}{
		{"frobnicate", "frobnicate", 11},
		{"frob", "frobnicate", 5},
		{"xrob", "frobnicate", 1},
		{"", "", 1},
		{"frobnicatex", "frobnicate", 11},
	} {
		if got := CmpStrScore(c.a, c.b); got != c.want {
			t.Errorf("CmpStrScore(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	for x, want := range map[uint64]int{0: 0, 1: 1, 0x8001: 2, 0xdeadbeef: 24, ^uint64(0): 64} {
		if got := popcount64(x); got != want {
			t.Errorf("popcount64(%#x) = %d, want %d", x, got, want)
		}
	}
}

// A site keeps its best score; operands are recorded only when the score
// rises, and CmpReset clears both.
func TestCmpRecord(t *testing.T) {
	CmpReset()
	CmpInt(5, 32, 0, 0xdeadbeef)
	CmpInt(5, 32, 0xdeadbe00, 0xdeadbeef) // better
	CmpInt(5, 32, 0, 0xdeadbeef)          // worse: not recorded
	CmpStr(7, "fro", "frobnicate")
	CmpStr(7+CmpSize, "f", "frobnicate") // same site (masked), worse
	if got := CmpMap[5]; got != CmpIntScore(32, 0xdeadbe00, 0xdeadbeef) {
		t.Errorf("CmpMap[5] = %d", got)
	}
	if CmpMap[7] != 4 {
		t.Errorf("CmpMap[7] = %d, want 4", CmpMap[7])
	}
	ints, strs := CmpOperands()
	if len(ints) != 2 || ints[1] != (CmpIntOp{A: 0xdeadbe00, B: 0xdeadbeef, Width: 32}) {
		t.Errorf("ints %+v", ints)
	}
	if len(strs) != 1 || string(strs[0].A[:strs[0].LenA]) != "fro" || string(strs[0].B[:strs[0].LenB]) != "frobnicate" {
		t.Errorf("strs %+v", strs)
	}
	for i := range CmpRing + 10 {
		CmpInt(uint32(100+i), 64, 1, 1)
	}
	if ints, _ := CmpOperands(); len(ints) != CmpRing {
		t.Errorf("%d operands recorded, want the table's %d", len(ints), CmpRing)
	}
	CmpReset()
	if ints, strs := CmpOperands(); len(ints)+len(strs) != 0 || CmpMap[5] != 0 {
		t.Error("CmpReset left data")
	}
}

func BenchmarkCmpIntOn(b *testing.B) {
	CmpReset()
	for i := 0; i < b.N; i++ {
		CmpInt(uint32(i)&1023, 32, uint64(i), 0xdeadbeef)
	}
}

// BenchmarkCmpIntSaturated: a site compared again and again after its
// operands were equal once (a tokenizer's byte tests), against one whose
// score is still rising, side by side.
func BenchmarkCmpIntSaturated(b *testing.B) {
	b.Run("saturated", func(b *testing.B) {
		CmpReset()
		CmpInt(7, 8, 'x', 'x')
		for i := 0; i < b.N; i++ {
			CmpInt(7, 8, uint64(i), 'x')
		}
	})
	b.Run("rising", func(b *testing.B) {
		CmpReset()
		for i := 0; i < b.N; i++ {
			CmpInt(7, 8, uint64(i)&0x70, 'x')
		}
	})
}
