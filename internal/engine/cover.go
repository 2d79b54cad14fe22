package engine

import (
	"math/bits"
	"unsafe"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// Coverage keys are (edge, bucket) pairs. An execution's raw hit counts are
// classified into AFL's eight classes (runtime.Bucket), each a single bit
// of a byte:
//
//	count   1    2    3    4-7  8-15 16-31 32-127 128+
//	bit     0x01 0x02 0x04 0x08 0x10 0x20  0x40   0x80
//
// The accumulated maps (total and valid coverage) hold, per edge, the OR of
// the class bits seen so far: AFL's virgin map, inverted. The key of class
// bit b (0..7) on edge e is e*8+b.

// bucketOf is runtime.Bucket as a table, indexed directly in the hot loop.
var bucketOf = func() (t [256]uint8) {
	for c := range t {
		t[c] = gfzrt.Bucket(uint8(c))
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
// bits.
func classifyWord(w uint64) uint64 {
	t := &bucketOf
	return uint64(t[uint8(w)]) | uint64(t[uint8(w>>8)])<<8 |
		uint64(t[uint8(w>>16)])<<16 | uint64(t[uint8(w>>24)])<<24 |
		uint64(t[uint8(w>>32)])<<32 | uint64(t[uint8(w>>40)])<<40 |
		uint64(t[uint8(w>>48)])<<48 | uint64(t[uint8(w>>56)])<<56
}

// group is the number of map words tested for zero at once (one 64-byte
// cache line).
const group = 8

// coverage holds the accumulated total and valid coverage and the
// responsibility of saved inputs for coverage keys.
type coverage struct {
	total, valid         [mapWords]uint64
	totalKeys, validKeys int
	// resp[key] is the index of the saved input responsible for key (the
	// newest saved input that covered it). It is only touched when an input
	// is saved, and never iterated.
	resp map[uint32]int32
	// lines lists the map cache lines (word index of their first word)
	// that the last check found non-zero, in ascending order; scanned tells
	// whether lines describes the map's current contents.
	lines   []int32
	scanned bool
	// edges counts the edges (map bytes) with any class in total.
	edges int
	// unstable marks (0xff per byte) the edges whose class differed
	// between two executions of the same input; unstableEdges counts them
	// (including edges never merged into total: see unstableCovered).
	unstable      [mapWords]uint64
	unstableEdges int
}

func newCoverage() *coverage {
	return &coverage{resp: make(map[uint32]int32)}
}

// check reports whether the execution just finished (whose counters are in
// gfzrt.Map) covers a key not in the total coverage, and, when valid,
// a key not in the valid coverage. It does not change anything. This is the
// per-execution hot path: it skips zero words a cache line at a time.
func (c *coverage) check(valid bool) (newTotal, newValid bool) {
	m := liveMap()
	c.lines = c.lines[:0]
	for i := 0; i < mapWords; i += group {
		if m[i]|m[i+1]|m[i+2]|m[i+3]|m[i+4]|m[i+5]|m[i+6]|m[i+7] == 0 {
			continue
		}
		c.lines = append(c.lines, int32(i))
		for j := i; j < i+group; j++ {
			w := m[j]
			if w == 0 {
				continue
			}
			cl := classifyWord(w)
			if cl&^c.total[j] != 0 {
				newTotal = true
			}
			if valid && cl&^c.valid[j] != 0 {
				newValid = true
			}
		}
	}
	c.scanned = true
	return newTotal, newValid
}

// clearMap prepares the probe map for the next execution. After a check,
// only the cache lines it found non-zero are cleared; otherwise (the last
// execution failed and was not scanned, or every fullResetEvery executions,
// to drop counts written by goroutines a target left running) the whole map
// is.
func (c *coverage) clearMap(n int64) {
	if !c.scanned || n%fullResetEvery == 0 {
		gfzrt.Reset()
	} else {
		m := liveMap()
		for _, i := range c.lines {
			clear(m[i : i+group])
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
	reasonValid            // +valid: a valid input covering a key no valid input covered
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

// merge (called after check, whose line list it reuses) adds the execution
// in gfzrt.Map to the total coverage (and to the
// valid coverage when valid). It appends the execution's keys to keys and
// returns them with the reason the merge counts as new (reasonNone if it
// added nothing) and the number of edges the execution hit.
func (c *coverage) merge(valid bool, keys []uint32) ([]uint32, saveReason, int) {
	newEdge, newCount, newValid := false, false, false
	edges := 0
	m := liveMap()
	for _, i := range c.lines {
		for j := int(i); j < int(i)+group; j++ {
			w := m[j]
			if w == 0 {
				continue
			}
			cl := classifyWord(w)
			if nb := cl &^ c.total[j]; nb != 0 {
				if n := newBytes(cl, c.total[j]); n > 0 {
					newEdge = true
					c.edges += n
				} else {
					newCount = true
				}
				c.total[j] |= cl
				c.totalKeys += bits.OnesCount64(nb)
			}
			if nv := cl &^ c.valid[j]; valid && nv != 0 {
				newValid = true
				c.valid[j] |= cl
				c.validKeys += bits.OnesCount64(nv)
			}
			for s := 0; s < 64; s += 8 {
				if b := uint8(cl >> s); b != 0 {
					edges++
					edge := uint32(j*8 + s/8)
					keys = append(keys, edge*8+uint32(bits.TrailingZeros8(b)))
				}
			}
		}
	}
	// Saving runs engine code (file writes, formatting) that may itself
	// be instrumented (-cover of std packages): have clearMap clear the
	// whole map before the next execution.
	c.scanned = false
	r := reasonNone
	switch {
	case newEdge:
		r = reasonCov
	case newCount:
		r = reasonCount
	case newValid:
		r = reasonValid
	}
	return keys, r, edges
}

// newBytes counts the bytes (edges) that are non-zero in cl and zero in
// acc.
func newBytes(cl, acc uint64) int {
	n := 0
	for s := 0; s < 64; s += 8 {
		if uint8(cl>>s) != 0 && uint8(acc>>s) == 0 {
			n++
		}
	}
	return n
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
				buf = append(buf, classWord{int32(j), classifyWord(w)})
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
