package engine

import (
	"math"
	"math/bits"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// edgeHits counts, for every edge, the executions that hit it (FairFuzz's
// numHits), and for every trace hash slot the executions with that trace
// (AFLFast's path frequency, for the fast schedule). The loop has one when
// the engine asks for it (engineDef.hits) and counts every VALID or
// INVALID execution (not its stability recheck) in its coverage check
// (coverage.checkCounting, then counted).
//
// Counting is the per-execution cost of fairfuzz and auto that grows with
// the target: an execution of a parser hits hundreds to thousands of
// edges. So the counts are kept in two parts. lo holds one 8-bit counter
// per edge, eight to a word as the map holds its bytes: the scan
// (edgeCounts.addWord) adds a map word's hit flags (0 or 1 per byte) to
// the word of lo in one addition, eight edges at a time. A counter is 0 until its edge is first
// hit and then stays between 1 and 255: when one reaches 255 it gives 127
// to the edge's hi, a 64-bit counter, and goes back to 128. An edge's
// count is hi + its counter, capped at 2^32-1: exactly what one 32-bit
// saturating counter per edge would hold.
type edgeHits struct {
	edgeCounts          // per edge: the executions that hit it
	min        uint32   // a lower bound of the smallest non-zero count (exact after refresh)
	seen       int64    // observations
	paths      []uint32 // per trace-hash slot
}

// edgeCounts is one count per edge kept in the two parts described above
// (edgeHits counts executions with it, diversity the unique traces).
type edgeCounts struct {
	lo *[mapWords]uint64      // 8 counters a word, one per map byte
	hi *[gfzrt.MapSize]uint64 // the rest of each edge's count
}

func newEdgeCounts() edgeCounts {
	return edgeCounts{lo: new([mapWords]uint64), hi: new([gfzrt.MapSize]uint64)}
}

// Lane masks of the 8-bit counters of a word.
const (
	lanesHigh = 0x8080_8080_8080_8080
	lanesRest = 0x7f7f_7f7f_7f7f_7f7f
)

// A counter that reaches laneFull gives laneSpill to hi.
const (
	laneFull  = 0xff
	laneSpill = 0x7f
)

func newEdgeHits() *edgeHits {
	return &edgeHits{edgeCounts: newEdgeCounts(), paths: make([]uint32, 1<<pathSlotBits)}
}

// zeroLanes returns the high bit of every byte of x that is zero.
func zeroLanes(x uint64) uint64 {
	return ^((x&lanesRest + lanesRest) | x) & lanesHigh
}

// fullLanes returns the high bit of every byte of x that is laneFull
// (0xff): its low seven bits plus one carry into the high bit, which x
// also has.
func fullLanes(x uint64) uint64 {
	return (x&lanesRest + 0x0101_0101_0101_0101) & x & lanesHigh
}

// counted records the execution just checked, whose edges
// coverage.checkCounting added to h's counts (first: one of them had none
// before): its path, and the refresh of min.
func (h *edgeHits) counted(c *coverage, first bool) {
	if first {
		h.min = 1 // an edge hit for the first time
	}
	if p := &h.paths[c.trace&(1<<pathSlotBits-1)]; *p < math.MaxUint32 {
		*p++ // saturating: a wrapped count would make the most exercised path look new
	}
	if h.seen++; h.seen%hitsRefresh == 0 {
		h.refresh()
	}
}

// add adds one to the count of every edge of the execution just checked
// (c.words lists its non-zero words; the map must not have been cleared
// since) and reports whether one of them had none.
func (ec *edgeCounts) add(c *coverage) (first bool) {
	m := liveMap()
	for _, j := range c.words {
		j &= mapWords - 1
		nw, full := ec.addWord(int(j), byteFlags(m[j]))
		if full {
			ec.spill(int(j))
		}
		first = first || nw
	}
	return first
}

// addWord adds f, the hit flags of map word j (byteFlags), to its eight
// counters and reports whether one of the edges flagged had none, and
// whether a counter is now full, which the caller then spills (apart, so
// that addWord inlines into the scans that call it).
func (ec *edgeCounts) addWord(j int, f uint64) (first, full bool) {
	j &= mapWords - 1
	x := ec.lo[j]
	first = zeroLanes(x)&(f<<7) != 0
	x += f // no carry: every counter is below laneFull
	ec.lo[j] = x
	return first, fullLanes(x) != 0
}

// spill moves laneSpill of every full counter of map word j to hi (rare:
// once in 127 hits of an edge).
func (ec *edgeCounts) spill(j int) {
	j &= mapWords - 1
	x := ec.lo[j]
	for full := fullLanes(x); full != 0; full &= full - 1 {
		b := bits.TrailingZeros64(full) / 8
		ec.hi[j*8+b] += laneSpill
		x -= laneSpill << (8 * b)
	}
	ec.lo[j] = x
}

// count is edge e's count, at most 2^32-1.
func (ec *edgeCounts) count(e int) uint32 {
	e &= gfzrt.MapSize - 1
	v := ec.hi[e] + (ec.lo[e/8]>>(8*(e%8)))&0xff
	return uint32(min(v, math.MaxUint32))
}

// each calls fn with every edge whose count is not zero, in order, and
// its count.
func (ec *edgeCounts) each(fn func(e int, n uint32)) {
	for j, x := range ec.lo {
		for f := byteFlags(x); f != 0; f &= f - 1 {
			e := j*8 + bits.TrailingZeros64(f)/8
			fn(e, ec.count(e))
		}
	}
}

// refresh recomputes min (it only grows between new edges).
func (h *edgeHits) refresh() {
	least := uint32(math.MaxUint32)
	h.each(func(_ int, v uint32) { least = min(least, v) })
	if least == math.MaxUint32 {
		least = 0
	}
	h.min = least
}

// cutoff is the rarity cut-off: the power of two 2^i with 2^(i-1) < min
// <= 2^i (1 when min <= 1).
func (h *edgeHits) cutoff() uint32 {
	switch {
	case h.min <= 1:
		return 1
	case h.min > 1<<31:
		return math.MaxUint32 // 2^32 does not fit: every count up to the cap
	}
	return 1 << bits.Len32(h.min-1)
}

// rarest returns the edge of edges with the fewest hits and its count
// (-1 for no edge). An edge with none is left out: an input's edges are
// those of its stability recheck, which is not counted, so such an edge
// was hit by the recheck alone (unstable), and a mask for it would find
// it hit by no mutant.
//
// An edge's 8-bit counter below laneSpill+1 means it never spilled (its hi
// is zero: a counter that spilled stays at 128 or more), so its count is
// the counter; one at 128 or more counts at least 128 and cannot beat a
// best below that, so hi (a random read of a 512 KiB array) is read only
// while no edge below 128 has been seen.
func (h *edgeHits) rarest(edges []uint32) (int, uint32) {
	best, n := -1, uint32(math.MaxUint32)
	for _, e := range edges {
		lane := uint32(h.lo[e/8&(mapWords-1)] >> (8 * (e % 8)) & 0xff)
		switch {
		case lane == 0:
		case lane <= laneSpill:
			if lane < n {
				best, n = int(e), lane
			}
		case n > laneSpill:
			if v := h.count(int(e)); v < n {
				best, n = int(e), v
			}
		}
	}
	return best, n
}

// rareTarget returns p's rarest edge if it is rare (ok false: p hits no
// rare edge, or its edges are unknown).
func (h *edgeHits) rareTarget(p *entry) (edge int, ok bool) {
	e, n := h.rarest(p.hit)
	if e < 0 || n > h.cutoff() {
		return -1, false
	}
	return e, true
}

// path is the number of executions whose trace hash fell in the slot of
// t (the fast schedule's f(i)).
func (h *edgeHits) path(t uint64) uint32 { return h.paths[t&(1<<pathSlotBits-1)] }
