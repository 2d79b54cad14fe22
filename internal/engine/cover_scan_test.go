package engine

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// scanPattern is one execution's map contents: edge -> raw count.
type scanPattern struct {
	edges  []int
	counts []uint8
}

// jsonLikePattern mimics what an encoding/json execution leaves in the
// map (measured on testdata/targets/jsonorder with -cover encoding/json,
// MapBits 16): about 400 non-zero bytes in about 350 of the 1024 cache
// lines, 40% of them with counts above 2.
func jsonLikePattern(nonZero int) scanPattern {
	r := rand.New(rand.NewPCG(1, 2))
	p := scanPattern{}
	for range nonZero {
		p.edges = append(p.edges, r.IntN(gfzrt.MapSize))
		c := uint8(1 + r.IntN(2))
		if r.IntN(10) < 4 {
			c = uint8(3 + r.IntN(60))
		}
		p.counts = append(p.counts, c)
	}
	return p
}

func (p scanPattern) write() {
	for i, e := range p.edges {
		gfzrt.Map[e] = p.counts[i]
	}
}

// evict is a buffer several times the L1 data cache that a benchmark walks
// between executions, as a real target's work does, so the scan does not
// run on a warm cache.
var evict = make([]uint64, 1<<15) // 256 KiB

func walkEvict() {
	for i := 0; i < len(evict); i += 8 {
		evict[i]++
	}
}

// BenchmarkCoverageScan is the per-execution map work of the engine
// (clearMap, the target's writes, check) for a json-like execution in
// steady state (nothing new), with a warm cache and with the target's own
// memory traffic in between ("cold", which includes that traffic:
// subtract BenchmarkCoverageScanEvict). "ref" is the previous scan
// (checkRef), "new" check. In isolation the two are within the noise of
// the shared test VM (about 3 us at 40 and 9-10 us at 400 non-zero bytes,
// warm, on 2026-11-23); in a fuzz binary, where the target's own branches
// share the predictor, the new one saved about 10% of a json worker's CPU
// (docs/BENCHMARKS.md).
func BenchmarkCoverageScan(b *testing.B) {
	for _, cold := range []bool{false, true} {
		name := "warm"
		if cold {
			name = "cold"
		}
		for _, nz := range []int{40, 400} {
			for _, impl := range []string{"ref", "new"} {
				b.Run(impl+"/"+name+"/"+strconv.Itoa(nz), func(b *testing.B) {
					check := (*coverage).check
					if impl == "ref" {
						check = (*coverage).checkRef
					}
					p := jsonLikePattern(nz)
					c := newCoverage()
					gfzrt.Reset()
					p.write()
					c.check(true)
					c.merge(true, false, &merged{})
					var n int64 = 1
					for range b.N {
						c.clearMap(n)
						n++
						p.write()
						if cold {
							walkEvict()
						}
						if check(c, true) != 0 {
							b.Fatal("novelty in steady state")
						}
					}
				})
			}
		}
	}
}

// BenchmarkCoverageScanEvict is the cost of walkEvict alone.
func BenchmarkCoverageScanEvict(b *testing.B) {
	for range b.N {
		walkEvict()
	}
}

// checkRef is check as it was before it found non-zero lines and words
// without branches (2026-11-23),
// kept as the reference TestCheckMatchesReference compares against and as
// the baseline of BenchmarkCoverageScan.
func (c *coverage) checkRef(valid bool) novelty {
	m := liveMap()
	t := c.classes
	c.lines = c.lines[:0]
	var n novelty
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
			cl := classifyWord(t, w)
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
	return n
}

// TestCheckMatchesReference compares check with checkRef (the scan before
// it) on random maps, from sparse to dense, with counts of every class, and
// random accumulated coverage: the same novelty and the same non-zero line
// list (which merge, snapshot and clearMap use), and clearMap leaves a zero
// map behind.
func TestCheckMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 400 {
		for _, classes := range []*[256]uint8{&aflClasses, &hobClasses} {
			c, ref := newCoverageWith(classes), newCoverageWith(classes)
			// Accumulated coverage: random classes on random edges, the
			// same in both.
			for range r.IntN(2000) {
				j := r.IntN(mapWords)
				tb, vb := r.Uint64()&r.Uint64()&r.Uint64(), r.Uint64()&r.Uint64()&r.Uint64()
				c.total[j], ref.total[j] = tb, tb
				c.valid[j], ref.valid[j] = vb, vb
			}
			gfzrt.Reset()
			density := []int{0, 1, 3, 40, 400, 5000, gfzrt.MapSize / 2}[round%7]
			for range density {
				e := r.IntN(gfzrt.MapSize)
				if r.IntN(8) == 0 {
					e = gfzrt.MapSize - 1 - r.IntN(16) // the map's last line
				}
				gfzrt.Map[e] = uint8(1 + r.IntN(255))
			}
			valid := r.IntN(2) == 0
			want := ref.checkRef(valid)
			if got := c.check(valid); got != want {
				t.Fatalf("round %d, %d edges, valid %v: check = %04b, reference %04b", round, density, valid, got, want)
			}
			if !slices.Equal(c.lines, ref.lines) {
				t.Fatalf("round %d: lines %v, reference %v", round, c.lines, ref.lines)
			}
			c.clearMap(1)
			if i := slices.IndexFunc(gfzrt.Map[:], func(b uint8) bool { return b != 0 }); i >= 0 {
				t.Fatalf("round %d: Map[%d] = %d after clearMap", round, i, gfzrt.Map[i])
			}
		}
	}
}
