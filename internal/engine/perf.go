package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// -feedback perf: PerfFuzz's multi-dimensional objective. The keys are the
// edges of the probe map and one more, the total path length (the sum of
// every edge's hit count); the value of an edge is its hit count in one
// execution, reduced with max. An execution that raises the maximum count
// of any edge, or the longest path, is saved, so the queue keeps, for each
// edge, an input that runs it most: mutating those drives loops and
// recursions further (docs/ENGINE.md, "Feedback domains").
//
// Exact counts past 255 need a binary built with gfz-build -counts
// (runtime.CountLaps): probe counters are 8 bits and otherwise wrap. Without
// it counts are read modulo 256 and Run warns.

type perfDomain struct {
	cov      *coverage
	max      []uint64 // per edge, the largest count of a saved input
	maxTotal uint64   // the longest path of a saved input

	// The last checked execution: its non-zero edges and their counts,
	// ascending by edge, and its path length.
	edges  []uint32
	counts []uint64
	total  uint64

	// Every committed input's counts, for the report's corpus medians;
	// slowest indexes the one with the longest path.
	inputs  []perfInput
	slowest int

	// PerfFuzz's favoring: owners maps each edge (and perfTotalKey, the
	// path length) to the queued input holding its largest count; won
	// holds the keys the input committed last took the maximum of.
	owners owners
	won    []uint32
}

// perfTotalKey is the owners key of the path length (edges are below
// gfzrt.MapSize).
const perfTotalKey = ^uint32(0)

// perfInput is one saved input as the report describes it.
type perfInput struct {
	name   string
	total  uint64
	edges  []uint32
	counts []uint32 // saturated at 2^32-1
}

func newPerfDomain() domain { return &perfDomain{slowest: -1} }

func (p *perfDomain) name() string { return "perf" }

func (p *perfDomain) start(f *fuzzer) error {
	if !gfzrt.CountLaps && !f.cfg.QuietSetup {
		f.warnf("-feedback perf: this binary counts edge hits modulo 256; build it with gfz-build -counts for exact counts")
	}
	f.cov.clearLaps = true
	p.cov, p.max, p.owners = f.cov, make([]uint64, gfzrt.MapSize), owners{}
	return nil
}

// check reads the counts of the execution's non-zero edges (the lines
// coverage.check found; with CountLaps a count of 256 or more never leaves
// its byte zero) and clears the laps it read. It reads Laps whatever
// CountLaps (a load per non-zero edge, only with perf on), so that tests
// can set counts past 255 without a -counts build.
func (p *perfDomain) check(out *Outcome, valid bool) bool {
	p.edges, p.counts, p.total = p.edges[:0], p.counts[:0], 0
	m := liveMap()
	improved := false
	for _, i := range p.cov.lines {
		i &= mapWords - group
		for j := int(i); j < int(i)+group; j++ {
			w := m[j]
			for s := 0; w != 0; s, w = s+8, w>>8 {
				b := uint8(w)
				if b == 0 {
					continue
				}
				e := uint32(j*8 + s/8)
				c := gfzrt.Count(e) // Laps is 0 without CountLaps
				gfzrt.Laps[e] = 0
				p.edges = append(p.edges, e)
				p.counts = append(p.counts, c)
				p.total += c
				if c > p.max[e] {
					improved = true
				}
			}
		}
	}
	return improved || p.total > p.maxTotal
}

func (p *perfDomain) commit(name string) {
	p.won = p.won[:0]
	for k, e := range p.edges {
		if p.counts[k] > p.max[e] {
			p.won = append(p.won, e)
		}
		p.max[e] = max(p.max[e], p.counts[k])
	}
	if p.total > p.maxTotal {
		p.won = append(p.won, perfTotalKey)
	}
	in := perfInput{name: name, total: p.total, edges: slices.Clone(p.edges), counts: make([]uint32, len(p.counts))}
	for k, c := range p.counts {
		in.counts[k] = uint32(min(c, 1<<32-1))
	}
	p.inputs = append(p.inputs, in)
	if p.total > p.maxTotal || p.slowest < 0 {
		p.maxTotal = max(p.maxTotal, p.total)
		p.slowest = len(p.inputs) - 1
	}
}

// credit makes the input just queued responsible for the maxima it took
// (favored, as PerfFuzz favors every input holding some edge's largest
// count), taking each from the input that held it.
func (p *perfDomain) credit(q []*entry, idx int) {
	p.owners.assign(q, idx, p.won)
	p.won = p.won[:0]
}

// maxEdge returns the largest count of any edge.
func (p *perfDomain) maxEdge() uint64 {
	var m uint64
	for _, c := range p.max {
		m = max(m, c)
	}
	return m
}

// report describes the slowest input: its path length and its top edges
// against the median over the saved inputs (an input that does not hit an
// edge counts 0 for it).
func (p *perfDomain) report(top int) (name string, total, medTotal uint64, edges string) {
	if p.slowest < 0 {
		return "", 0, 0, ""
	}
	s := &p.inputs[p.slowest]
	totals := make([]uint64, len(p.inputs))
	for i := range p.inputs {
		totals[i] = p.inputs[i].total
	}
	idx := make([]int, len(s.edges))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.counts[idx[a]] > s.counts[idx[b]] })
	var b strings.Builder
	for n, k := range idx {
		if n == top {
			break
		}
		e := s.edges[k]
		vals := make([]uint64, len(p.inputs))
		for i := range p.inputs {
			in := &p.inputs[i]
			if j, ok := slices.BinarySearch(in.edges, e); ok {
				vals[i] = uint64(in.counts[j])
			}
		}
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "edge %#x %d (median %d)", e, s.counts[k], medianU64(vals))
	}
	return s.name, s.total, medianU64(totals), b.String()
}

// medianU64 returns the median of v (the lower middle one; 0 when empty). It
// sorts v.
func medianU64(v []uint64) uint64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return v[(len(v)-1)/2]
}

// perfTop is how many edges the report lists.
const perfTop = 5

func (p *perfDomain) stats(kv func(string, any)) {
	kv("perf_max_path", p.maxTotal)
	kv("perf_max_edge", p.maxEdge())
	if name, total, med, edges := p.report(perfTop); name != "" {
		kv("perf_slowest", "corpus/"+name)
		kv("perf_slowest_path", total)
		kv("perf_median_path", med)
		kv("perf_slowest_edges", edges)
	}
}

// summary: the slowest input and its top edges against the corpus median.
func (p *perfDomain) summary(get func(string) string) []string {
	s := get("perf_slowest")
	if s == "" {
		return nil
	}
	return []string{
		fmt.Sprintf("perf: slowest input %s: path length %s (corpus median %s), max edge count %s",
			s, get("perf_slowest_path"), get("perf_median_path"), get("perf_max_edge")),
		"perf: its top edges, hits (corpus median): " + get("perf_slowest_edges"),
	}
}

// mergeKey: the worker with the longest path reports.
func (p *perfDomain) mergeKey() string { return "perf_max_path" }
