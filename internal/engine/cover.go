package engine

import (
	"math/bits"
	"unsafe"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// Coverage keys are (edge, class) pairs. An edge is one byte of the probe
// map (a hashed (previous probe, current probe) pair, see
// docs/INSTRUMENT.md): what JQF's Coverage calls a covered branch, one index
// of its counter map. An execution's raw 8-bit hit counts are classified
// into eight classes, each a single bit of a byte, by one of two tables:
//
//	count        1    2    3    4-7  8-15 16-31 32-63 64-127 128+
//	aflClasses   0x01 0x02 0x04 0x08 0x10 0x20  0x40  0x40   0x80
//	hobClasses   0x01 0x02 0x02 0x04 0x08 0x10  0x20  0x40   0x80
//
// aflClasses are AFL's (runtime.Bucket); hobClasses keep the highest set
// bit of the count, as JQF's Coverage.updateBits does (the engine "zest").
// The accumulated maps (total and valid coverage) hold, per edge, the OR of
// the class bits seen so far: AFL's virgin map, inverted. The key of class
// bit b (0..7) on edge e is e*8+b; an edge is covered iff its byte is
// non-zero.

// aflClasses is runtime.Bucket as a table, indexed directly in the hot loop.
var aflClasses = func() (t [256]uint8) {
	for c := range t {
		t[c] = gfzrt.Bucket(uint8(c))
	}
	return t
}()

// hobClasses maps a count to its highest set bit (JQF's hob).
var hobClasses = func() (t [256]uint8) {
	for c := 1; c < 256; c++ {
		t[c] = uint8(1) << (bits.Len8(uint8(c)) - 1)
	}
	return t
}()

// mapWords is the number of 8-byte words in the probe map.
const mapWords = gfzrt.MapSize / 8

// liveMap views the probe map as 64-bit words so that zero regions can be
// skipped eight counters at a time.
func liveMap() *[mapWords]uint64 {
	return (*[mapWords]uint64)(unsafe.Pointer(&gfzrt.Map))
}

// classifyWord maps eight raw hit counters (one per byte) to their class
// bits with table t.
func classifyWord(t *[256]uint8, w uint64) uint64 {
	return uint64(t[uint8(w)]) | uint64(t[uint8(w>>8)])<<8 |
		uint64(t[uint8(w>>16)])<<16 | uint64(t[uint8(w>>24)])<<24 |
		uint64(t[uint8(w>>32)])<<32 | uint64(t[uint8(w>>40)])<<40 |
		uint64(t[uint8(w>>48)])<<48 | uint64(t[uint8(w>>56)])<<56
}

// group is the number of map words tested for zero at once (one 64-byte
// cache line).
const group = 8

// coverage holds the accumulated total and valid coverage.
type coverage struct {
	total, valid         [mapWords]uint64
	totalKeys, validKeys int
	// classes is the hit-count classification (aflClasses or hobClasses).
	classes *[256]uint8
	// lines lists the map cache lines (word index of their first word)
	// that the last check found non-zero, in ascending order; scanned tells
	// whether lines describes the map's current contents.
	lines   []int32
	scanned bool
	// trace is the hash of the set of edges (non-zero map bytes, counts
	// ignored) of the last check: the sum of traceWord over its non-zero
	// words (each word's index and which of its bytes are non-zero). A
	// sum of independent mixes is order-free and costs one multiplication
	// per non-zero word inside the scan that finds them anyway
	// (diversity.go).
	trace uint64
	// words lists the indexes of the non-zero words of the last check,
	// for diversity.observe.
	words []int32
	// edges counts the edges (map bytes) with any class in total (JQF's
	// totalCoverage.getNonZeroCount()); validEdges those in valid.
	edges, validEdges int
	// unstable marks (0xff per byte) the edges whose class differed
	// between two executions of the same input; unstableEdges counts them
	// (including edges never merged into total: see unstableCovered).
	unstable      [mapWords]uint64
	unstableEdges int
	// clearLaps makes a full clear of the map clear runtime.Laps too
	// (-feedback perf reads and clears the laps of the edges it visits;
	// the others are cleared here).
	clearLaps bool
}

func newCoverage() *coverage {
	return newCoverageWith(&aflClasses)
}

// newCoverageWith returns an empty coverage classifying counts with
// classes.
func newCoverageWith(classes *[256]uint8) *coverage {
	return &coverage{classes: classes}
}

// novelty tells what an execution covered that the accumulated coverage
// does not hold (a set of the bits below).
type novelty uint8

const (
	newKey       novelty = 1 << iota // a class bit not in total: JQF's +count
	newEdge                          // an edge not in total: +cov
	newValidKey                      // a valid execution: a class bit not in valid
	newValidEdge                     // a valid execution: an edge not in valid (JQF's +valid)
)

// byteFlags has the low bit of each byte of x set iff that byte is
// non-zero.
func byteFlags(x uint64) uint64 {
	x |= x >> 4
	x |= x >> 2
	x |= x >> 1
	return x & 0x0101_0101_0101_0101
}

// check reports what the execution just finished (whose counters are in
// gfzrt.Map) covers that the total coverage, and, when valid, the valid
// coverage does not hold. It does not change anything. This is the
// per-execution hot path, written around the branch predictor: an
// execution's few hundred non-zero bytes fall at random map offsets, so
// "is this line (word) zero" is a coin toss it mostly loses. A first pass
// ORs each cache line and writes its index to c.lines unconditionally,
// advancing only past a non-zero one; the second visits those lines, finds
// their non-zero words from a bit mask and classifies only their non-zero
// bytes; only words with a new class bit cost more than an AND-NOT.
func (c *coverage) check(valid bool) novelty {
	n, _ := c.checkCounting(valid, nil)
	return n
}

// checkCounting is check that also adds the execution to counts (edgeHits'
// count of executions per edge), when counts is not nil, inside the same
// pass over the non-zero words (a second pass over a parser's few hundred
// words cost auto about 5% of its time on json), and reports whether one
// of its edges had no count before.
func (c *coverage) checkCounting(valid bool, counts *edgeCounts) (novelty, bool) {
	m := liveMap()
	t := c.classes
	if cap(c.lines) < mapWords/group {
		c.lines = make([]int32, mapWords/group)
	}
	c.lines = c.lines[:scanLines(m, c.lines[:mapWords/group])]
	var n novelty
	var h uint64
	first := false
	words := c.words[:0]
	for _, i := range c.lines {
		i &= mapWords - group
		w := (*[group]uint64)(m[i : i+group])
		// Bit k of nz: word k of the line is not zero.
		nz := nonZero(w[0]) | nonZero(w[1])<<1 | nonZero(w[2])<<2 | nonZero(w[3])<<3 |
			nonZero(w[4])<<4 | nonZero(w[5])<<5 | nonZero(w[6])<<6 | nonZero(w[7])<<7
		for ; nz != 0; nz &= nz - 1 {
			k := bits.TrailingZeros64(nz) & (group - 1)
			j := int(i) + k
			bf := byteFlags(w[k])
			h += traceWord(j, bf)
			words = append(words, int32(j))
			if counts != nil {
				nw, full := counts.addWord(j, bf)
				if full {
					counts.spill(j)
				}
				first = first || nw
			}
			// Most non-zero words hold one non-zero byte: classify only
			// those bytes (classifyWord does eight lookups).
			cl := uint64(0)
			for b, x := bf, w[k]; b != 0; b &= b - 1 {
				s := bits.TrailingZeros64(b)
				cl |= uint64(t[uint8(x>>s)]) << s
			}
			if cl&^c.total[j] != 0 {
				n |= newKey
				if byteFlags(cl)&^byteFlags(c.total[j]) != 0 {
					n |= newEdge
				}
			}
			if valid && cl&^c.valid[j] != 0 {
				n |= newValidKey
				if byteFlags(cl)&^byteFlags(c.valid[j]) != 0 {
					n |= newValidEdge
				}
			}
		}
	}
	c.scanned = true
	c.trace, c.words = h, words
	return n, first
}

// scanLinesGo writes the word index of each non-zero cache line of m to
// lines (one entry per line), in order, and returns how many it wrote:
// every line's index is written and the count advances only past a
// non-zero one, so that there is no branch to mispredict (scanLines uses
// an AVX2 version of the same loop where the CPU has it).
func scanLinesGo(m *[mapWords]uint64, lines []int32) int {
	lines = lines[:mapWords/group]
	nl := 0
	for i := 0; i < mapWords; i += group {
		w := (*[group]uint64)(m[i : i+group])
		lines[nl&(mapWords/group-1)] = int32(i)
		nl += int(nonZero(w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]))
	}
	return nl
}

// nonZero is 1 if w is not zero, else 0, without a branch.
func nonZero(w uint64) uint64 { return (w | -w) >> 63 }

// traceWord is the trace hash's term for non-zero word j whose non-zero
// bytes are flagged in flags (byteFlags): the two halves of a 128-bit
// product of the two, each offset by a constant, XORed; distinct
// (j, flags) pairs give well-spread, independent terms.
func traceWord(j int, flags uint64) uint64 {
	hi, lo := bits.Mul64(flags^0x9e3779b97f4a7c15, uint64(j)^0xd1b54a32d192ed03)
	return hi ^ lo
}

// clearMap prepares the probe map for the next execution. After a check,
// only the cache lines it found non-zero are cleared; otherwise (the last
// execution failed and was not scanned, or every fullResetEvery executions,
// to drop counts written by goroutines a target left running) the whole map
// is.
func (c *coverage) clearMap(n int64) {
	if !c.scanned || n%fullResetEvery == 0 {
		gfzrt.Reset()
		if c.clearLaps {
			gfzrt.ClearLaps()
		}
	} else {
		m := liveMap()
		for _, i := range c.lines {
			// An array assignment: eight inline stores, where clear
			// calls memclr for each line.
			*(*[group]uint64)(m[i&(mapWords-group) : i&(mapWords-group)+group]) = [group]uint64{}
		}
		gfzrt.ResetPrev()
	}
	c.scanned = false
	c.lines = c.lines[:0]
}

// fullResetEvery is how often (in executions) clearMap clears the whole map.
const fullResetEvery = 64

// saveReason tells why an input was saved.
type saveReason uint8

const (
	reasonNone  saveReason = iota
	reasonCov              // +cov: a new edge
	reasonCount            // +count: a new hit-count class on a known edge
	reasonValid            // +valid: a valid input covering what no valid input covered
)

func (r saveReason) String() string {
	switch r {
	case reasonCov:
		return "+cov"
	case reasonCount:
		return "+count"
	case reasonValid:
		return "+valid"
	}
	return ""
}

// reason is the save reason an execution with novelty n is counted under:
// +cov before +count before +valid.
func (n novelty) reason() saveReason {
	switch {
	case n&newEdge != 0:
		return reasonCov
	case n&newKey != 0:
		return reasonCount
	case n&(newValidKey|newValidEdge) != 0:
		return reasonValid
	}
	return reasonNone
}

// merged describes an execution merged into the accumulated coverage.
type merged struct {
	// keys are the execution's (edge, class) keys, fresh the edges it
	// newly covered: not in total, or (a valid execution) not in valid.
	// Both alias buffers of the coverage, valid until the next merge.
	keys, fresh []uint32
	edges       int     // edges the execution hit (JQF's nonZeroCoverage)
	novelty     novelty // what it added (as check reported)
}

// merge (called after check, whose line list it reuses) adds the execution
// in gfzrt.Map to the total coverage (and to the valid coverage when
// valid). It returns the execution's keys, the edges it newly covered and
// what it added; the key lists are collected only if collect is set.
func (c *coverage) merge(valid, collect bool, buf *merged) {
	buf.keys, buf.fresh = buf.keys[:0], buf.fresh[:0]
	buf.edges, buf.novelty = 0, 0
	t := c.classes
	m := liveMap()
	for _, i := range c.lines {
		for j := int(i); j < int(i)+group; j++ {
			w := m[j]
			if w == 0 {
				continue
			}
			cl := classifyWord(t, w)
			newT := byteFlags(cl) &^ byteFlags(c.total[j])
			var newV uint64
			if nb := cl &^ c.total[j]; nb != 0 {
				buf.novelty |= newKey
				if newT != 0 {
					buf.novelty |= newEdge
					c.edges += bits.OnesCount64(newT)
				}
				c.total[j] |= cl
				c.totalKeys += bits.OnesCount64(nb)
			}
			if nv := cl &^ c.valid[j]; valid && nv != 0 {
				buf.novelty |= newValidKey
				if newV = byteFlags(cl) &^ byteFlags(c.valid[j]); newV != 0 {
					buf.novelty |= newValidEdge
					c.validEdges += bits.OnesCount64(newV)
				}
				c.valid[j] |= cl
				c.validKeys += bits.OnesCount64(nv)
			}
			buf.edges += bits.OnesCount64(byteFlags(cl))
			if !collect {
				continue
			}
			fresh := newT | newV
			for s := 0; s < 64; s += 8 {
				if b := uint8(cl >> s); b != 0 {
					edge := uint32(j*8 + s/8)
					buf.keys = append(buf.keys, edge*8+uint32(bits.TrailingZeros8(b)))
					if fresh>>s&1 != 0 {
						buf.fresh = append(buf.fresh, edge)
					}
				}
			}
		}
	}
	// Saving runs engine code (file writes, formatting) that may itself
	// be instrumented (-cover of std packages): have clearMap clear the
	// whole map before the next execution.
	c.scanned = false
}

// classWord is one non-zero map word of an execution, classified.
type classWord struct {
	idx int32
	cl  uint64
}

// snapshot appends the classified non-zero words of the execution just
// checked (the map must not have been cleared since check) to buf.
func (c *coverage) snapshot(buf []classWord) []classWord {
	m := liveMap()
	for _, i := range c.lines {
		for j := int(i); j < int(i)+group; j++ {
			if w := m[j]; w != 0 {
				buf = append(buf, classWord{int32(j), classifyWord(c.classes, w)})
			}
		}
	}
	return buf
}

// markUnstable compares two snapshots of executions of the same input
// (both in ascending word order) and marks every edge whose class differs
// as unstable. It returns the number of edges newly marked.
func (c *coverage) markUnstable(a, b []classWord) int {
	n := 0
	mark := func(j int32, diff uint64) {
		for s := 0; s < 64; s += 8 {
			if uint8(diff>>s) != 0 && uint8(c.unstable[j]>>s) == 0 {
				c.unstable[j] |= 0xff << s
				n++
			}
		}
	}
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].idx < b[0].idx:
			mark(a[0].idx, a[0].cl)
			a = a[1:]
		case len(a) == 0 || b[0].idx < a[0].idx:
			mark(b[0].idx, b[0].cl)
			b = b[1:]
		default:
			mark(a[0].idx, a[0].cl^b[0].cl)
			a, b = a[1:], b[1:]
		}
	}
	c.unstableEdges += n
	return n
}

// unstableCovered counts the covered edges (in total) marked unstable;
// an edge seen only in a discarded first run is not covered.
func (c *coverage) unstableCovered() int {
	if c.unstableEdges == 0 {
		return 0
	}
	n := 0
	for j, u := range c.unstable {
		if u == 0 {
			continue
		}
		for s := 0; s < 64; s += 8 {
			if uint8(u>>s) != 0 && uint8(c.total[j]>>s) != 0 {
				n++
			}
		}
	}
	return n
}

// stability is the percentage of covered edges not marked unstable.
func (c *coverage) stability() float64 {
	if c.edges == 0 {
		return 100
	}
	return 100 * float64(c.edges-c.unstableCovered()) / float64(c.edges)
}
