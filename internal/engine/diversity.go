package engine

import "math"

// Behavioural diversity (BeDivFuzz): unique traces and the Hill numbers of
// the branches they execute.
//
// The behaviour of an execution is its trace: the set of branches (edges of
// the probe map) it executed, hit counts ignored. A trace is unique if no
// earlier execution of the run had the same set (compared by a 64-bit hash
// of the set). The abundance of branch b is the number of unique traces
// that executed b; with p_b = abundance(b) / sum of abundances, the Hill
// numbers of order 0, 1 and 2 are
//
//	B0 = the number of branches with abundance > 0
//	B1 = exp(-sum p_b ln p_b)      (exponential of Shannon entropy)
//	B2 = 1 / sum p_b^2             (inverse Simpson index)
//
// as the BeDivFuzz paper defines them. Every VALID or INVALID execution is
// observed; failing ones are not (their trace stops at the failure).

// diversity tracks the unique traces of a run and the branch abundances.
type diversity struct {
	seen      traceSet
	abundance edgeCounts // per edge (packed as edgeHits' counts: one addition per map word)
	unique    int64      // unique traces observed
}

func newDiversity() *diversity {
	return &diversity{abundance: newEdgeCounts()}
}

// traceHash returns the hash of the set of edges of the execution just
// checked, which check computes while it scans the map (coverage.trace).
func (c *coverage) traceHash() uint64 { return c.trace }

// observe records the trace of the execution just checked and reports
// whether it is unique so far. A unique trace adds one to the abundance
// of each of its edges: the non-zero bytes of the non-zero words check
// listed (the map must not have been cleared since the check).
func (d *diversity) observe(c *coverage) bool {
	if !d.seen.add(c.traceHash()) {
		return false
	}
	d.unique++
	d.abundance.add(c)
	return true
}

// hill returns the Hill numbers of order 0, 1 and 2 of the branch
// abundances (all 0 before the first trace).
func (d *diversity) hill() (b0, b1, b2 float64) {
	var total float64
	n := 0
	d.abundance.each(func(_ int, a uint32) {
		total += float64(a)
		n++
	})
	if n == 0 {
		return 0, 0, 0
	}
	var ent, simpson float64
	d.abundance.each(func(_ int, a uint32) {
		p := float64(a) / total
		ent -= p * math.Log(p)
		simpson += p * p
	})
	return float64(n), math.Exp(ent), 1 / simpson
}

// traceSet is a set of 64-bit trace hashes (open addressing, linear
// probing; 0 is stored out of band). It doubles at half load up to
// maxTraceSlots slots and is exact until its last size is three quarters
// full (about 1.5 million hashes). Past that it holds its memory (8 bytes a
// slot) and becomes a cache: a hash not found takes a slot of its probe
// sequence, evicting the trace there, and an evicted trace that recurs
// counts as unique again.
// Unique traces are most executions of a random search (and many of any),
// so an exact set grows without bound: at 20,000 executions per second it
// took a json worker to over 200 MiB in 5 minutes, and a long run would
// reach the memory limit.
type traceSet struct {
	slots []uint64
	n     int
	zero  bool
	max   int // the slot count at which the set stops growing (maxTraceSlots; tests lower it)
}

// maxTraceSlots bounds a traceSet: 2^21 slots, 16 MiB.
const maxTraceSlots = 1 << 21

// add inserts h and reports whether it was new.
func (s *traceSet) add(h uint64) bool {
	if h == 0 {
		if s.zero {
			return false
		}
		s.zero = true
		return true
	}
	if s.max == 0 {
		s.max = maxTraceSlots
	}
	if s.n*2 >= len(s.slots) && len(s.slots) < s.max {
		s.grow()
	}
	// At most seven eighths of the slots are ever used: a search always
	// meets an empty slot.
	mask := uint64(len(s.slots) - 1)
	home := h & mask
	for i := home; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return false
		case 0:
			switch {
			case s.n*4 < len(s.slots)*3:
				s.slots[i] = h
				s.n++
			case i != home:
				// Full: take the last slot of h's probe sequence before
				// the empty one, evicting its trace, so that h is found
				// and no slot empties (which would cut other sequences).
				s.slots[(i-1)&mask] = h
			case s.n*8 < len(s.slots)*7:
				s.slots[i] = h // an empty home slot: the only place h is found
				s.n++
			}
			// else: new, and not remembered.
			return true
		}
	}
}

func (s *traceSet) grow() {
	old := s.slots
	s.slots = make([]uint64, min(max(1024, 2*len(old)), max(s.max, 1024)))
	s.n = 0
	for _, h := range old {
		if h != 0 {
			s.add(h)
		}
	}
}
