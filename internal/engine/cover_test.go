package engine

import (
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
		if bucketOf[c] != want(c) {
			t.Errorf("bucket(%d) = %#x, want %#x", c, bucketOf[c], want(c))
		}
	}
	if got := classifyWord(0x80_20_10_08_04_03_02_01); got != 0x80_40_20_10_08_04_02_01 {
		t.Errorf("classifyWord = %#x", got)
	}
}

func TestCoverageCheckMerge(t *testing.T) {
	c := newCoverage()
	exec := func(counts map[int]int) {
		gfzrt.Reset()
		for e, n := range counts {
			gfzrt.Map[e] = uint8(n)
		}
	}
	// An invalid execution with new edges: +cov, total only.
	exec(map[int]int{5: 1, 9000: 3})
	if nt, nv := c.check(false); !nt || nv {
		t.Fatalf("check = %v %v, want true false", nt, nv)
	}
	keys, r, edges := c.merge(false, nil)
	if r != reasonCov || edges != 2 || len(keys) != 2 || c.totalKeys != 2 || c.validKeys != 0 {
		t.Fatalf("merge: keys %v reason %v edges %d total %d valid %d", keys, r, edges, c.totalKeys, c.validKeys)
	}
	if keys[0] != 5*8+0 || keys[1] != 9000*8+2 {
		t.Fatalf("keys = %v", keys)
	}
	// The same coverage, valid: +valid.
	if nt, nv := c.check(true); nt || !nv {
		t.Fatalf("check = %v %v, want false true", nt, nv)
	}
	if _, r, _ = c.merge(true, nil); r != reasonValid || c.validKeys != 2 {
		t.Fatalf("merge reason %v valid %d", r, c.validKeys)
	}
	if nt, nv := c.check(true); nt || nv {
		t.Fatal("same coverage again reported as new")
	}
	// A new hit-count class on a known edge: +count.
	exec(map[int]int{5: 200})
	if nt, _ := c.check(false); !nt {
		t.Fatal("new count class not reported")
	}
	if _, r, _ = c.merge(false, nil); r != reasonCount || c.totalKeys != 3 {
		t.Fatalf("merge reason %v total %d", r, c.totalKeys)
	}
	// Counts in the same class are not new.
	exec(map[int]int{5: 150, 9000: 3})
	if nt, _ := c.check(false); nt {
		t.Fatal("same class reported as new")
	}
	// The last edge of the map is scanned too.
	exec(map[int]int{gfzrt.MapSize - 1: 1})
	if nt, _ := c.check(false); !nt {
		t.Fatal("last edge missed")
	}
}
