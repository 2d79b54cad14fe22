package engine

// The engine "zeugma": linked crossover on the parametric call tree
// (Zeugma, as described in section 2.4 of the Havoc Paradox paper), mixed
// with Zest's random byte mutations.
//
// It keeps Zest's queue, turns, children formula and saving rules
// (zest.go); only the way a child is made differs. Every queued input
// keeps its call tree (entry.rec: each generator call with the byte
// interval [Start, End) of e.data it consumed, its generator identity and
// value type). An index maps (generator identity, value type) to the
// spans of the queue with that key. A child of parent P is a stack of
// edits, as many as Zest's mutations (Geometric, mean 8); each edit is,
// with probability 1/2, a linked splice: pick an application point of P
// (a span, see zeugmaPoints), pick uniformly among the indexed spans of
// the same generator identity and value type one whose bytes differ from
// the point's, and replace P's interval with the donor's bytes (the length
// may change). The other edits are Zest byte mutations. Splices are
// applied back to front, and a splice overlapping one already applied is
// dropped (its edit is lost, as in Zeugma); the byte mutations are then
// applied to the spliced child, as in Zeugma. An edit that chose to
// splice but found no donor (no other span of its key, or only spans with
// the same bytes) becomes a byte mutation, so a parent without donors gets
// exactly Zest's mutation. The child is executed as ordinary bytes, not
// guided: bytes after a splice are read as they come.

import (
	"bytes"
	"reflect"
	"slices"
)

// spanKey is what a donor span must share with the span it replaces.
type spanKey struct {
	gen uint64
	typ reflect.Type
}

// spanRef is a span of a queued input.
type spanRef struct {
	entry      int32 // index in the queue
	start, end int32 // the span's bytes in the entry's data (its record may be dropped: tree.go)
}

// donors are the indexed spans of one key, in queue order; starts holds
// the index in refs of each entry's first span (a donor entry is drawn
// uniformly, then one of its spans).
type donors struct {
	refs   []spanRef
	starts []int32
}

// splice replaces the parent's bytes [start, end) with from.
type splice struct {
	start, end int32
	from       []byte // aliases the donor's data (queue entries are immutable)
}

// zeugmaDonorTries is how many donors an edit draws before it gives up on
// finding one whose bytes differ from the point's and becomes a byte
// mutation.
const zeugmaDonorTries = 4

// zeugmaTurns is the zeugma strategy.
type zeugmaTurns struct {
	env  strategyEnv
	zest zestTurns // turn bookkeeping (qi, made)

	// index maps a key to the spans of queue entries [0, indexed) that
	// may donate (at least one byte consumed, inside the entry's data).
	index   map[spanKey]*donors
	indexed int

	// The current parent, its application points (indexes into its
	// spans that have a donor candidate), and the queue length when they
	// were computed (new entries may bring new donors).
	parent   *entry
	gen      uint32 // parent.recGen when its points were computed
	points   []int32
	pointsAt int
	draws    []int32 // scratch: draws per span

	splices []splice
	sorted  []splice

	// Counters (for tests and measurements): edits drawn, edits that
	// chose to splice and found a donor, splices applied (not dropped for
	// overlap or the input cap), byte mutations applied.
	edits, planned, applied, runs int64
}

func newZeugmaTurns(env strategyEnv) *zeugmaTurns {
	return &zeugmaTurns{env: env, zest: zestTurns{env: env}, index: map[spanKey]*donors{}}
}

// next makes the next child.
func (s *zeugmaTurns) next(dst []byte) []byte {
	s.indexNew()
	p := s.turn()
	return s.child(dst, p)
}

// turn advances the turn as zestTurns does and returns the parent.
func (s *zeugmaTurns) turn() *entry {
	p := s.zest.advance()
	s.env.holdParent(p)
	s.pointsOf(p)
	return p
}

// pointsOf makes p the current parent and returns its application points,
// recomputed when the parent changed or the queue has grown (the caller
// indexes new entries first: indexNew).
func (s *zeugmaTurns) pointsOf(p *entry) []int32 {
	q := s.env.queue()
	if p != s.parent || s.pointsAt != len(q) || s.gen != p.recGen {
		s.parent, s.gen = p, p.recGen
		s.pointsAt = len(q)
		s.points = s.zeugmaPoints(p, s.points)
	}
	return s.points
}

// indexNew adds the spans of the entries queued since the last call to
// the index. The queue only grows, so nothing is ever removed.
func (s *zeugmaTurns) indexNew() {
	q := s.env.queue()
	for ; s.indexed < len(q); s.indexed++ {
		e := q[s.indexed]
		rec := s.env.peekRecord(e)
		if rec == nil {
			continue
		}
		for i := range rec.Spans {
			sp := &rec.Spans[i]
			if sp.End <= sp.Start || int(sp.End) > len(e.data) {
				continue // consumed nothing: nothing to donate
			}
			k := spanKey{sp.Gen, sp.Type}
			d := s.index[k]
			if d == nil {
				d = &donors{}
				s.index[k] = d
			}
			if n := len(d.refs); n == 0 || d.refs[n-1].entry != int32(s.indexed) {
				d.starts = append(d.starts, int32(n))
			}
			d.refs = append(d.refs, spanRef{entry: int32(s.indexed), start: sp.Start, end: sp.End})
		}
	}
}

// zeugmaPoints returns the application points of p (indexes into its
// spans): the spans that contain at least two draws consuming bytes
// (Zeugma's "at least two leaves": a single draw is a value, left to the
// byte mutations), lie inside p's data, do not cover all of it (the
// child would be the donor's bytes) and whose key has another indexed
// span (a donor candidate).
func (s *zeugmaTurns) zeugmaPoints(p *entry, dst []int32) []int32 {
	dst = dst[:0]
	if p.rec == nil || len(p.rec.Spans) == 0 {
		return dst
	}
	spans := p.rec.Spans
	cnt := s.draws[:0]
	for range spans {
		cnt = append(cnt, 0)
	}
	for i := range p.rec.Draws {
		d := &p.rec.Draws[i]
		if d.Width > 0 && d.Span >= 0 {
			cnt[d.Span]++
		}
	}
	// Spans are in preorder (a parent before its children): add each
	// span's count to its parent's, last first.
	for i := len(spans) - 1; i >= 0; i-- {
		if par := spans[i].Parent; par >= 0 {
			cnt[par] += cnt[i]
		}
	}
	s.draws = cnt
	for i := range spans {
		sp := &spans[i]
		if cnt[i] < 2 || int(sp.End) > len(p.data) || (sp.Start == 0 && int(sp.End) == len(p.data)) {
			continue
		}
		if d := s.index[spanKey{sp.Gen, sp.Type}]; d == nil || len(d.refs) < 2 {
			continue // only itself
		}
		dst = append(dst, int32(i))
	}
	return dst
}

// child writes a child of p into dst: n edits (Zest's mutation count),
// each a linked splice with probability 1/2 when p has application
// points, else a Zest byte mutation (a run of Geometric(mean 4) bytes at a
// uniform offset, random or, for 1 child in 10, zeros).
func (s *zeugmaTurns) child(dst []byte, p *entry) []byte {
	r := s.env.rand()
	x := r.next()
	zero := uint64(uint32(x))*10>>32 == 0 // P = 0.1, as mutateZest
	n := geoMutations.sample32(uint32(x>>32), r)
	s.edits += int64(n)
	runs := s.plan(p, n)
	dst = s.apply(dst, p.data)
	s.runs += int64(runs)
	return zestRuns(r, dst, runs, zero)
}

// plan draws the kinds of n edits of a child of p: it fills s.splices
// with the splices and returns the number of byte mutations.
func (s *zeugmaTurns) plan(p *entry, n int) int {
	s.splices = s.splices[:0]
	if len(s.points) == 0 {
		return n
	}
	r := s.env.rand()
	runs := 0
	var coins uint64
	for i := range n {
		if i%64 == 0 {
			coins = r.next()
		}
		coin := coins & 1
		coins >>= 1
		if coin == 0 {
			runs++
			continue
		}
		sp, ok := s.donate(p)
		if !ok {
			runs++
			continue
		}
		s.splices = append(s.splices, sp)
	}
	s.planned += int64(len(s.splices))
	return runs
}

// donate picks an application point of p and a donor span of the same key
// whose bytes differ from the point's: a uniform point, a uniform entry
// among those with spans of its key (p included), a uniform span of that
// entry; up to zeugmaDonorTries times.
func (s *zeugmaTurns) donate(p *entry) (splice, bool) {
	r := s.env.rand()
	pt := &p.rec.Spans[s.points[r.below(len(s.points))]]
	old := p.data[pt.Start:pt.End]
	dn := s.index[spanKey{pt.Gen, pt.Type}]
	q := s.env.queue()
	for range zeugmaDonorTries {
		// A uniform donor entry, then a uniform span of it.
		i := r.below(len(dn.starts))
		lo, hi := int(dn.starts[i]), len(dn.refs)
		if i+1 < len(dn.starts) {
			hi = int(dn.starts[i+1])
		}
		ref := dn.refs[lo+r.below(hi-lo)]
		b := q[ref.entry].data[ref.start:ref.end]
		if !bytes.Equal(b, old) {
			return splice{start: pt.Start, end: pt.End, from: b}, true
		}
	}
	return splice{}, false
}

// apply writes into dst the parent with s.splices applied: back to front
// (by start, descending), dropping a splice that overlaps one already
// applied or that would make the child longer than the input cap.
// Intervals are the parent's: applying from the back keeps the earlier
// ones valid.
func (s *zeugmaTurns) apply(dst, parent []byte) []byte {
	dst = dst[:0]
	if len(s.splices) == 0 {
		return append(dst, parent...)
	}
	s.sorted = append(s.sorted[:0], s.splices...)
	slices.SortStableFunc(s.sorted, func(a, b splice) int { return int(b.start) - int(a.start) })
	keep := s.sorted[:0]
	lim := int32(len(parent)) // start of the last splice applied
	size := len(parent)
	for _, sp := range s.sorted {
		if sp.end > lim {
			continue // overlaps a splice applied after it
		}
		grown := size - int(sp.end-sp.start) + len(sp.from)
		if grown > s.env.maxSize() {
			continue
		}
		size, lim = grown, sp.start
		keep = append(keep, sp)
	}
	s.applied += int64(len(keep))
	// Build the child front to back from the kept splices (the same bytes
	// as applying them in place back to front).
	pos := int32(0)
	for i := len(keep) - 1; i >= 0; i-- {
		sp := keep[i]
		dst = append(dst, parent[pos:sp.start]...)
		dst = append(dst, sp.from...)
		pos = sp.end
	}
	return append(dst, parent[pos:]...)
}
