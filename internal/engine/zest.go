package engine

// The engine "zest": Zest as published (Algorithm 2 of the Zest paper with
// the parameters and rules of JQF's ZestGuidance; docs/ENGINE.md).

// Published Zest parameters (JQF ZestGuidance).
const (
	childrenBaseline   = 50 // children per parent at maximal coverage
	childrenFavoredMul = 20 // multiplier for favored parents
)

// zestTurns visits the queue round robin and makes children by Zest's
// mutation (mutateZest). A parent's turn ends when the number of children
// made from it reaches zestChildren, evaluated before every child (so a
// save during the turn that takes the parent's last responsibility or
// grows the total coverage shortens it), as JQF does.
type zestTurns struct {
	env  strategyEnv
	qi   int // the current parent
	made int // children made from it in this turn
}

func (s *zestTurns) next(dst []byte) []byte {
	p := s.advance().data
	if c, ok := s.env.domainChild(dst, p); ok {
		return c
	}
	return mutateZest(s.env.rand(), dst, p)
}

// advance counts one more child of the current turn, first moving the
// turn to the next parent when this one has had its children, and returns
// the parent. The child made right after a turn change is made whatever
// the new parent's target: a parent whose target is 0 gets one child, and
// the loop never spins without executing. The structure-aware engines
// (ei, bediv, zeugma) take their turns from it too.
func (s *zestTurns) advance() *entry {
	q := s.env.queue()
	if s.made >= zestChildren(q[s.qi], s.env.totalEdges()) {
		s.qi = (s.qi + 1) % len(q)
		s.made = 0
	}
	s.made++
	return q[s.qi]
}

// zestChildren is the number of children Zest makes from p in one turn:
// 50 * nonZeroCoverage(p) / maxCoverage (integer division), times 20 if p
// is favored. maxCoverage is the number of edges in the total coverage
// (JQF's maxCoverage: the largest totalCoverage.getNonZeroCount() seen,
// and the total only grows); 50 while nothing is covered. It may be 0.
func zestChildren(p *entry, totalEdges int) int {
	n := childrenBaseline
	if totalEdges > 0 {
		n = childrenBaseline * p.edges / totalEdges
	}
	if p.resp > 0 {
		n *= childrenFavoredMul
	}
	return n
}

// zestFeedback is ZestGuidance's saving and responsibility rules. Keys
// handed out are edges: an input saved for a new edge, or valid and
// covering an edge no valid input covered, becomes responsible for those
// edges (taking them from their previous owner: a valid input takes its
// new valid edges from invalid inputs); an input saved only for a new
// hit-count class is responsible for nothing. Favored iff responsible for
// at least one edge. (STEAL_RESPONSIBILITY, off by default in JQF, is not
// implemented.)
type zestFeedback struct{ owners owners }

// keep: "+count" (a new class bit in the total coverage, which includes
// "+cov", a new edge) or "+valid" (a valid execution covering an edge no
// valid execution covered).
func (*zestFeedback) keep(n novelty, valid bool) bool {
	return n&(newKey|newValidEdge) != 0
}

func (fb *zestFeedback) credit(q []*entry, idx int, m *merged) {
	fb.owners.assign(q, idx, m.fresh)
}
