package engine

import (
	"slices"
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// TestScanLines: scanLines (AVX2 on amd64 CPUs that have it) lists the
// same lines as the portable loop: an empty map, a full one, single bytes
// at each end of a line's two halves, and random maps.
func TestScanLines(t *testing.T) {
	m := liveMap()
	got := make([]int32, mapWords/group)
	want := make([]int32, mapWords/group)
	check := func(name string) {
		t.Helper()
		ng, nw := scanLines(m, got), scanLinesGo(m, want)
		if ng != nw || !slices.Equal(got[:ng], want[:nw]) {
			t.Fatalf("%s: scanLines found %d lines %v, the portable loop %d %v", name, ng, got[:min(ng, 8)], nw, want[:min(nw, 8)])
		}
	}
	gfzrt.Reset()
	check("empty")
	if n := scanLinesGo(m, want); n != 0 {
		t.Fatalf("empty map: %d lines", n)
	}
	for _, off := range []int{0, 31, 32, 63, gfzrt.MapSize - 64, gfzrt.MapSize - 1} {
		gfzrt.Reset()
		gfzrt.Map[off] = 1
		check("one byte")
		if n := scanLinesGo(m, want); n != 1 || want[0] != int32(off/64*8) {
			t.Fatalf("byte %d: lines %v", off, want[:n])
		}
	}
	for i := range gfzrt.Map {
		gfzrt.Map[i] = 1
	}
	check("full")
	rng := uint64(1)
	for round := range 50 {
		gfzrt.Reset()
		for range round * 13 {
			rng = traceMix(rng + 1)
			gfzrt.Map[rng%gfzrt.MapSize] = uint8(rng>>40) | 1
		}
		check("random")
	}
	gfzrt.Reset()
}

// BenchmarkScanLines compares the portable loop with scanLines on a map
// with json-like 400 non-zero bytes.
func BenchmarkScanLines(b *testing.B) {
	p := jsonLikePattern(400)
	gfzrt.Reset()
	p.write()
	m := liveMap()
	lines := make([]int32, mapWords/group)
	for _, impl := range []string{"go", "scanLines"} {
		b.Run(impl, func(b *testing.B) {
			for range b.N {
				if impl == "go" {
					scanLinesGo(m, lines)
				} else {
					scanLines(m, lines)
				}
			}
		})
	}
	gfzrt.Reset()
}
