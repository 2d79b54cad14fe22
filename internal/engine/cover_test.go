package engine

import (
	"slices"
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

func TestBuckets(t *testing.T) {
	want := func(c int) uint8 {
		switch {
		case c == 0:
			return 0
		case c == 1:
			return 1
		case c == 2:
			return 2
		case c == 3:
			return 4
		case c <= 7:
			return 8
		case c <= 15:
			return 16
		case c <= 31:
			return 32
		case c <= 127:
			return 64
		}
		return 128
	}
	for c := 0; c < 256; c++ {
		if aflClasses[c] != want(c) {
			t.Errorf("bucket(%d) = %#x, want %#x", c, aflClasses[c], want(c))
		}
		// JQF's hob: the highest set bit.
		if hob := uint8(1) << (7 - min(7, bitsLeadingZeros8(uint8(c)))); c > 0 && hobClasses[c] != hob {
			t.Errorf("hob(%d) = %#x, want %#x", c, hobClasses[c], hob)
		}
	}
	if hobClasses[0] != 0 || hobClasses[3] != 2 || hobClasses[64] != 64 || hobClasses[255] != 128 {
		t.Errorf("hobClasses[0, 3, 64, 255] = %#x %#x %#x %#x", hobClasses[0], hobClasses[3], hobClasses[64], hobClasses[255])
	}
	if got := classifyWord(&aflClasses, 0x80_20_10_08_04_03_02_01); got != 0x80_40_20_10_08_04_02_01 {
		t.Errorf("classifyWord = %#x", got)
	}
}

func bitsLeadingZeros8(x uint8) int {
	n := 0
	for i := 7; i >= 0 && x&(1<<i) == 0; i-- {
		n++
	}
	return n
}

func TestCoverageCheckMerge(t *testing.T) {
	c := newCoverage()
	exec := func(counts map[int]int) {
		gfzrt.Reset()
		for e, n := range counts {
			gfzrt.Map[e] = uint8(n)
		}
	}
	var m merged
	// An invalid execution with new edges: +cov, total only.
	exec(map[int]int{5: 1, 9000: 3})
	if n := c.check(false); n != newKey|newEdge {
		t.Fatalf("check = %b, want new key and edge", n)
	}
	c.merge(false, true, &m)
	if m.novelty.reason() != reasonCov || m.edges != 2 || len(m.keys) != 2 || c.totalKeys != 2 || c.validKeys != 0 || c.edges != 2 {
		t.Fatalf("merge: %+v total %d valid %d", m, c.totalKeys, c.validKeys)
	}
	if m.keys[0] != 5*8+0 || m.keys[1] != 9000*8+2 || !slices.Equal(m.fresh, []uint32{5, 9000}) {
		t.Fatalf("keys = %v, fresh = %v", m.keys, m.fresh)
	}
	// The same coverage, valid: new valid edges.
	if n := c.check(true); n != newValidKey|newValidEdge {
		t.Fatalf("check = %b, want new valid key and edge", n)
	}
	if c.merge(true, true, &m); m.novelty.reason() != reasonValid || c.validKeys != 2 || c.validEdges != 2 || !slices.Equal(m.fresh, []uint32{5, 9000}) {
		t.Fatalf("merge %+v valid %d", m, c.validKeys)
	}
	if n := c.check(true); n != 0 {
		t.Fatal("same coverage again reported as new")
	}
	// A new hit-count class on a known edge: +count, and a new valid class
	// without a new valid edge.
	exec(map[int]int{5: 200})
	if n := c.check(true); n != newKey|newValidKey {
		t.Fatalf("check = %b, want new key and new valid key", n)
	}
	if c.merge(true, true, &m); m.novelty.reason() != reasonCount || c.totalKeys != 3 || len(m.fresh) != 0 {
		t.Fatalf("merge %+v total %d", m, c.totalKeys)
	}
	// Counts in the same class are not new.
	exec(map[int]int{5: 150, 9000: 3})
	if n := c.check(false); n != 0 {
		t.Fatal("same class reported as new")
	}
	// The last edge of the map is scanned too.
	exec(map[int]int{gfzrt.MapSize - 1: 1})
	if n := c.check(false); n&newEdge == 0 {
		t.Fatal("last edge missed")
	}
}
