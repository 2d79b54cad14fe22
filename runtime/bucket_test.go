package runtime

import (
	"os"
	"testing"
)

func TestBucket(t *testing.T) {
	cases := map[uint8]uint8{0: 0, 1: 1, 2: 2, 3: 4, 4: 8, 7: 8, 8: 16, 15: 16, 16: 32, 31: 32, 32: 64, 127: 64, 128: 128, 255: 128}
	for c, want := range cases {
		if got := Bucket(c); got != want {
			t.Errorf("Bucket(%d) = %d, want %d", c, got, want)
		}
	}
	// Monotone, one-hot, and each class boundary exactly where AFL has it.
	prev := uint8(0)
	changes := 0
	for c := 0; c < 256; c++ {
		b := Bucket(uint8(c))
		if b < prev || (b != 0 && b&(b-1) != 0) {
			t.Fatalf("Bucket(%d) = %d after %d", c, b, prev)
		}
		if b != prev {
			changes++
		}
		prev = b
	}
	if changes != 8 {
		t.Errorf("%d class changes, want 8", changes)
	}
}

func TestHitAndReset(t *testing.T) {
	Reset()
	var b [2]uint8
	Hit(5, &b[0])
	Hit(5, &b[0])
	if !HitE(9, &b[1]) {
		t.Fatal("HitE returned false")
	}
	if b != [2]uint8{1, 1} {
		t.Errorf("blocks %v", b)
	}
	// Edges: 5^0, 5^(5>>1), 9^(5>>1).
	for _, e := range []uint32{5, 5 ^ 2, 9 ^ 2} {
		if Map[e] != 1 {
			t.Errorf("Map[%d] = %d, want 1", e, Map[e])
		}
	}
	Reset()
	for i, c := range Map {
		if c != 0 {
			t.Fatalf("Map[%d] = %d after Reset", i, c)
		}
	}
}

var sink uint8

func BenchmarkHit(b *testing.B) {
	var blk uint8
	for i := 0; i < b.N; i++ {
		Hit(uint32(i)*0x9e3779b1, &blk)
	}
	sink = blk
}

// hitNeverZero is the AFL++ "NeverZero" variant of Hit (a counter that
// wraps from 255 skips 0), kept here to measure its cost against Hit.
func hitNeverZero(cur uint32, block *uint8) {
	i := (cur ^ prev) & (MapSize - 1)
	v := Map[i] + 1
	if v == 0 {
		v = 1
	}
	Map[i] = v
	prev = cur >> 1
	*block = 1
}

// The two benchmarks below run the same 16-probe straight-line pattern
// (IDs spread over the map, as real probe IDs are) with each variant.
func BenchmarkProbeWrap(b *testing.B) {
	var blk [16]uint8
	for range b.N {
		for j := uint32(0); j < 16; j++ {
			Hit(j*0x9e3779b1, &blk[j])
		}
	}
}

func BenchmarkProbeNeverZero(b *testing.B) {
	var blk [16]uint8
	for range b.N {
		for j := uint32(0); j < 16; j++ {
			hitNeverZero(j*0x9e3779b1, &blk[j])
		}
	}
}

// TestCount: an edge's count is its byte plus 128 per lap (what a probe
// built with gfz-build -counts leaves), and ClearLaps clears the laps.
func TestCount(t *testing.T) {
	Reset()
	Map[5], Laps[5] = 200, 3
	if c := Count(5); c != 200+3*128 {
		t.Errorf("Count = %d, want %d", c, 200+3*128)
	}
	ClearLaps()
	if c := Count(5); c != 200 {
		t.Errorf("after ClearLaps: Count = %d, want 200", c)
	}
	Reset()
}

// TestHitCountsLaps: with CountLaps (gfz-build -counts) 1000 hits of one
// edge count 1000; without it the 8-bit counter wraps (1000 mod 256).
func TestHitCountsLaps(t *testing.T) {
	if os.Getenv("GFZ_WANT_COUNTLAPS") == "1" && !CountLaps {
		t.Fatal("GFZ_WANT_COUNTLAPS=1 but this build has CountLaps false (the -counts overlay was not applied)")
	}
	Reset()
	ClearLaps()
	var blk uint8
	for range 1000 {
		Hit(8, &blk)
		prev = 0 // the same edge every time
	}
	want := uint64(1000 % 256)
	if CountLaps {
		want = 1000
	}
	if c := Count(8); c != want {
		t.Errorf("CountLaps %v: Count = %d after 1000 hits, want %d", CountLaps, c, want)
	}
	Reset()
	ClearLaps()
}
