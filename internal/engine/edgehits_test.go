package engine

import (
	"fmt"
	"math"
	"math/bits"
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// observe counts the execution just checked in a pass of its own over
// c.words (the map must not have been cleared since), as the loop did
// before coverage.checkCounting: the reference the tests compare with.
func (h *edgeHits) observe(c *coverage) {
	h.counted(c, h.add(c))
}

// set makes edge e's count v.
func (ec *edgeCounts) set(e int, v uint32) {
	e &= gfzrt.MapSize - 1
	lane := uint64(v)
	ec.hi[e] = 0
	if v >= laneFull {
		lane = laneFull - laneSpill
		ec.hi[e] = uint64(v) - lane
	}
	sh := 8 * (e % 8)
	ec.lo[e/8] = ec.lo[e/8]&^(0xff<<sh) | lane<<sh
}

// setAll sets the counts of edges: pairs of an edge and its count.
func (ec *edgeCounts) setAll(kv ...uint32) {
	for i := 0; i+1 < len(kv); i += 2 {
		ec.set(int(kv[i]), kv[i+1])
	}
}

// TestEdgeHitsCounts: the packed counters count exactly what one 32-bit
// saturating counter per edge would, across the spills of the 8-bit
// counters (every 127 hits past the first 254), for edges that share a
// map word and edges hit in every execution; min falls to 1 when an edge
// is hit for the first time and is exact after refresh. The counting that
// coverage.checkCounting does inside its scan (the loop's) counts the same.
func TestEdgeHitsCounts(t *testing.T) {
	m := liveMap()
	clear(m[:])
	defer clear(m[:])
	h := newEdgeHits()
	hc, cov := newEdgeHits(), newCoverage() // counted by checkCounting
	ref := make([]uint32, gfzrt.MapSize)
	r := newPRNG(3)
	// Edges 0-15 (two map words) are hit often, 1000-1099 now and then.
	var c coverage
	for run := range 3000 {
		clear(m[:])
		for e := range 16 {
			if r.below(8) != 0 {
				m[e/8] |= uint64(1+r.below(200)) << (8 * (e % 8))
			}
		}
		if run%7 == 0 {
			e := 1000 + r.below(100)
			m[e/8] |= 3 << (8 * (e % 8))
		}
		c.words = c.words[:0]
		for j := range m {
			if m[j] != 0 {
				c.words = append(c.words, int32(j))
			}
		}
		newEdge := false
		for e := range 1104 { // the edges above
			if m[e/8]>>(8*(e%8))&0xff != 0 {
				newEdge = newEdge || ref[e] == 0
				ref[e]++
			}
		}
		h.min = 77
		h.observe(&c)
		if newEdge != (h.min == 1) {
			t.Fatalf("run %d: an edge hit first %v, min %d", run, newEdge, h.min)
		}
		_, first := cov.checkCounting(run%2 == 0, &hc.edgeCounts)
		if first != newEdge {
			t.Fatalf("run %d: checkCounting: an edge hit first %v, want %v", run, first, newEdge)
		}
	}
	if *h.lo != *hc.lo || *h.hi != *hc.hi {
		t.Fatal("checkCounting's counts differ from observe's")
	}
	low := uint32(math.MaxUint32)
	for e, want := range ref {
		if got := h.count(e); got != want {
			t.Fatalf("edge %d: count %d, want %d", e, got, want)
		}
		if want != 0 {
			low = min(low, want)
		}
	}
	if ref[0] < 1000 {
		t.Fatalf("edge 0 hit %d times: the spills were not exercised", ref[0])
	}
	h.refresh()
	if h.min != low {
		t.Errorf("min after refresh %d, want %d", h.min, low)
	}
	if e, n := h.rarest([]uint32{0, 1, 5, 9}); n != min(ref[0], ref[1], ref[5], ref[9]) || ref[e] != n {
		t.Errorf("rarest: edge %d with %d", e, n)
	}
}

// TestEdgeHitsSaturate: a count stops at 2^32-1, as a 32-bit saturating
// counter does, and set stores any count exactly.
func TestEdgeHitsSaturate(t *testing.T) {
	m := liveMap()
	clear(m[:])
	defer clear(m[:])
	h := newEdgeHits()
	for _, v := range []uint32{0, 1, 254, 255, 256, 1 << 20, math.MaxUint32 - 300, math.MaxUint32} {
		h.set(42, v)
		if got := h.count(42); got != v {
			t.Errorf("set %d: count %d", v, got)
		}
	}
	h.set(42, math.MaxUint32-300)
	m[42/8] = 1 << (8 * (42 % 8))
	c := coverage{words: []int32{42 / 8}}
	for range 1000 {
		h.observe(&c)
	}
	if got := h.count(42); got != math.MaxUint32 {
		t.Errorf("count %d after 1000 hits from 2^32-301, want 2^32-1", got)
	}
	if got := h.count(43); got != 0 {
		t.Errorf("neighbouring edge counted %d", got)
	}
}

// naiveHits is the straightforward counting edgeHits replaced: one 32-bit
// saturating counter per edge, incremented edge by edge (the benchmark's
// reference).
type naiveHits struct {
	n   *[gfzrt.MapSize]uint32
	min uint32
}

func (h *naiveHits) observe(c *coverage) {
	m := liveMap()
	for _, j := range c.words {
		j &= mapWords - 1
		for f := byteFlags(m[j]); f != 0; f &= f - 1 {
			e := (int(j)*8 + bits.TrailingZeros64(f)/8) & (gfzrt.MapSize - 1)
			v := h.n[e]
			if v == 0 {
				h.min = 1
			}
			if v != math.MaxUint32 {
				h.n[e] = v + 1
			}
		}
	}
}

// benchMap fills the map with words non-zero map words at random places,
// each with 1 to 4 non-zero bytes (a parser's execution: hundreds of
// words), and returns the coverage listing them.
func benchMap(words int) *coverage {
	m := liveMap()
	clear(m[:])
	r := newPRNG(1)
	c := &coverage{}
	for len(c.words) < words {
		j := r.below(mapWords)
		if m[j] != 0 {
			continue
		}
		for range 1 + r.below(4) {
			m[j] |= uint64(1+r.below(5)) << (8 * r.below(8))
		}
		c.words = append(c.words, int32(j))
	}
	return c
}

// BenchmarkEdgeHits: observe of one execution, packed counters against
// the naive ones, side by side, for a small target (8 words) and a parser
// (430 words, the json target's typical execution).
func BenchmarkEdgeHits(b *testing.B) {
	defer clear(liveMap()[:])
	for _, words := range []int{8, 430} {
		c := benchMap(words)
		b.Run(fmt.Sprintf("packed/words=%d", words), func(b *testing.B) {
			h := newEdgeHits()
			for range b.N {
				h.observe(c)
			}
		})
		b.Run(fmt.Sprintf("naive/words=%d", words), func(b *testing.B) {
			h := &naiveHits{n: new([gfzrt.MapSize]uint32)}
			for range b.N {
				h.observe(c)
			}
		})
	}
}

// TestRarestReadsCounts: rarest, which reads an edge's 64-bit part only
// while no count below 128 has been seen, picks the edge that a plain scan
// of the counts picks (the first of the smallest non-zero counts), on
// counts on both sides of the spill.
func TestRarestReadsCounts(t *testing.T) {
	h := newEdgeHits()
	r := newPRNG(9)
	for round := range 300 {
		edges := make([]uint32, 1+r.below(40))
		for i := range edges {
			edges[i] = uint32(r.below(gfzrt.MapSize))
			var v uint32
			switch r.below(4) {
			case 0: // never hit
			case 1:
				v = uint32(1 + r.below(127))
			case 2:
				v = uint32(128 + r.below(400))
			default:
				v = uint32(1 + r.below(100000))
			}
			h.set(int(edges[i]), v)
		}
		want, wn := -1, uint32(math.MaxUint32)
		for _, e := range edges {
			if v := h.count(int(e)); v > 0 && v < wn {
				want, wn = int(e), v
			}
		}
		if got, n := h.rarest(edges); got != want || n != wn {
			t.Fatalf("round %d: rarest %d (%d), want %d (%d)", round, got, n, want, wn)
		}
		for _, e := range edges {
			h.set(int(e), 0)
		}
	}
}
