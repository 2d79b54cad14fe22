package engine

import (
	"math"
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// TestHillNumbers checks B0, B1 and B2 on abundances worked by hand.
func TestHillNumbers(t *testing.T) {
	d := newDiversity()
	if b0, b1, b2 := d.hill(); b0 != 0 || b1 != 0 || b2 != 0 {
		t.Errorf("empty: %v %v %v", b0, b1, b2)
	}
	// Four branches, equally abundant: every Hill number is 4 (two of
	// them in one map word, one with a count past the 8-bit part).
	d.abundance.setAll(0, 300, 1, 300, 77, 300, 65535, 300)
	if b0, b1, b2 := d.hill(); b0 != 4 || math.Abs(b1-4) > 1e-9 || math.Abs(b2-4) > 1e-9 {
		t.Errorf("even: %v %v %v, want 4 4 4", b0, b1, b2)
	}
	// Abundances 2 and 1 and 1: p = 1/2, 1/4, 1/4.
	d = newDiversity()
	d.abundance.setAll(0, 2, 1, 1, 9, 1)
	b0, b1, b2 := d.hill()
	wantB1 := math.Exp(-(0.5*math.Log(0.5) + 2*0.25*math.Log(0.25)))
	if b0 != 3 || math.Abs(b1-wantB1) > 1e-9 || math.Abs(b2-1/(0.25+2*0.0625)) > 1e-9 {
		t.Errorf("uneven: %v %v %v, want 3 %v %v", b0, b1, b2, wantB1, 1/(0.25+2*0.0625))
	}
}

// TestUniqueTraces: the same branch set with other hit counts is the same
// trace; a new set is unique and adds one to the abundance of each of its
// branches.
func TestUniqueTraces(t *testing.T) {
	c := newCoverage()
	d := newDiversity()
	execute := func(counts map[int]uint8) bool {
		c.clearMap(1)
		gfzrt.Reset()
		for e, n := range counts {
			gfzrt.Map[e] = n
		}
		c.check(true)
		return d.observe(c)
	}
	if !execute(map[int]uint8{10: 1, 500: 2}) {
		t.Error("first trace not unique")
	}
	if execute(map[int]uint8{10: 7, 500: 1}) {
		t.Error("same branches, other counts: counted unique")
	}
	if !execute(map[int]uint8{10: 1}) {
		t.Error("subset not unique")
	}
	if !execute(map[int]uint8{10: 1, 500: 1, 60000: 1}) {
		t.Error("superset not unique")
	}
	a := d.abundance.count
	if d.unique != 3 || a(10) != 3 || a(500) != 2 || a(60000) != 1 || a(11) != 0 {
		t.Errorf("unique %d, abundance %d %d %d", d.unique, a(10), a(500), a(60000))
	}
	var s traceSet
	for i := uint64(0); i < 5000; i++ {
		if !s.add(i * 7919) {
			t.Fatalf("%d not new", i)
		}
	}
	for i := uint64(0); i < 5000; i++ {
		if s.add(i * 7919) {
			t.Fatalf("%d new twice", i)
		}
	}
}

// TestTraceHashReference: the trace hash check computes while it scans
// equals the sum over every non-zero word of the whole map of traceWord of
// the word's index and its non-zero bytes' flags, counts ignored.
func TestTraceHashReference(t *testing.T) {
	c := newCoverage()
	rng := uint64(7)
	for round := range 20 {
		c.clearMap(0)
		for range 1 + round*17 {
			rng = traceMix(rng + 1)
			gfzrt.Map[rng%uint64(len(gfzrt.Map))] = uint8(rng>>32) | 1
		}
		c.check(round%2 == 0)
		m := liveMap()
		var want uint64
		for j, w := range m {
			if w != 0 {
				want += traceWord(j, byteFlags(w))
			}
		}
		if c.traceHash() != want {
			t.Fatalf("round %d: trace hash %#x, want %#x", round, c.traceHash(), want)
		}
	}
	// Distinct words and distinct byte sets of one word give distinct terms.
	seen := map[uint64]bool{}
	for j := range 512 {
		for _, flags := range []uint64{1, 1 << 8, 1 << 56, 0x0101010101010101, 0x0100000000000001} {
			v := traceWord(j, flags)
			if seen[v] {
				t.Fatalf("traceWord(%d, %#x) repeats an earlier term", j, flags)
			}
			seen[v] = true
		}
	}
}

// traceMix (SplitMix64's finaliser) steps the tests' pseudo-random map
// offsets and counts.
func traceMix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// TestTraceSetBounded: up to three quarters of its bound a traceSet is
// exact; past that it keeps its size, still calls every new hash new and
// still knows the hash it just added.
func TestTraceSetBounded(t *testing.T) {
	s := traceSet{max: 1024}
	for i := uint64(1); i <= 768; i++ {
		if !s.add(traceMix(i)) {
			t.Fatalf("hash %d not new", i)
		}
	}
	for i := uint64(1); i <= 768; i++ {
		if s.add(traceMix(i)) {
			t.Fatalf("below the bound: hash %d new twice", i)
		}
	}
	forgotten := 0
	for i := uint64(769); i <= 20000; i++ {
		h := traceMix(i)
		// The one case a full set does not remember a new hash: its home
		// slot is empty and seven eighths of the slots are used.
		mayForget := s.slots[h&1023] == 0 && s.n*8 >= 1024*7
		if !s.add(h) {
			t.Fatalf("hash %d not new", i)
		}
		if s.add(h) {
			if !mayForget {
				t.Fatalf("hash %d forgotten at once", i)
			}
			forgotten++
		}
		if s.n*8 > 1024*7 {
			t.Fatalf("%d of 1024 slots used", s.n)
		}
	}
	if forgotten > 20000/4 {
		t.Errorf("%d hashes of 19232 forgotten at once", forgotten)
	}
	if len(s.slots) != 1024 {
		t.Errorf("%d slots, want the bound 1024", len(s.slots))
	}
	if d := (traceSet{}); d.max != 0 || maxTraceSlots != 1<<21 {
		t.Error("default bound changed")
	}
}
