package engine

// The engine "ei": execution-indexed mutation (JQF's EI, the Havoc
// Paradox paper's remedy), on gfz's call trees.
//
// It keeps Zest's queue, turns, children formula and saving rules
// (zest.go), and changes how a child is made: instead of overwriting bytes
// at byte offsets, it re-draws a few of the parent's choices by typed
// choice mutation (choice.go) and runs the child as a guided execution
// (guide.go), in which every draw takes the bytes its parent drew at the
// same execution index. A child that changes one structural choice (say,
// removes a node's left subtree) therefore keeps the values of every other
// generator call at the same execution index (the right subtree is the
// same), where a byte-offset mutation would re-read them from shifted
// bytes. Draws the parent never made get fresh random bytes.
//
// The number of choices re-drawn per child is 1 + Geometric(1/2) (mean 2;
// half of the children change exactly one choice, from which the
// structure labels are learned, structure.go).

// eiTurns is the ei strategy.
type eiTurns struct {
	env    strategyEnv
	zest   zestTurns // turn bookkeeping (its next is used for parents without choices)
	guide  *childGuide
	over   []override
	bufs   [][]byte
	picks  []int32
	parent *entry
	gen    uint32 // parent.recGen when its choices were made
	// choices of the current parent (indexes into its draws), and the
	// one choice a single-choice child changed (-1: several).
	choices []int32
	single  int32
}

func newEITurns(env strategyEnv) *eiTurns {
	return &eiTurns{env: env, zest: zestTurns{env: env}}
}

// next is used when a parent has no choice to mutate: a Zest child.
func (s *eiTurns) next(dst []byte) []byte { return s.zest.next(dst) }

// turn advances the turn as zestTurns does and returns the parent.
func (s *eiTurns) turn() *entry {
	p := s.zest.advance()
	s.env.holdParent(p)
	if p != s.parent || p.recGen != s.gen {
		if s.parent != nil && s.parent != p {
			s.parent.byIndex = nil // rebuilt if it is a parent again
		}
		s.parent, s.gen = p, p.recGen
		s.choices = choicesOf(p.rec, s.choices)
	}
	return p
}

func (s *eiTurns) nextGuide() *childGuide {
	if !s.guided() {
		return nil
	}
	p := s.turn()
	if len(s.choices) == 0 || p.rec == nil {
		s.zest.made-- // next counts it
		return nil
	}
	s.mutate(p, s.choices)
	s.guide.reset(p, s.over, s.env.rand().next())
	return s.guide
}

// guided reports whether children can be guided executions, making
// s.guide when it can.
func (s *eiTurns) guided() bool {
	if s.guide == nil {
		s.guide = s.env.newGuide()
	}
	return s.guide != nil
}

// mutate fills s.over with new bytes for 1 + Geometric(1/2) distinct
// choices among cand (indexes into p's draws).
func (s *eiTurns) mutate(p *entry, cand []int32) {
	r := s.env.rand()
	k := 1
	for k < len(cand) && k < 32 && r.next()&1 == 0 {
		k++
	}
	s.picks = s.picks[:0]
	for len(s.picks) < k {
		c := cand[r.below(len(cand))]
		dup := false
		for _, x := range s.picks {
			dup = dup || x == c
		}
		if !dup {
			s.picks = append(s.picks, c)
		}
	}
	for len(s.bufs) < k {
		s.bufs = append(s.bufs, nil)
	}
	s.over = s.over[:0]
	for i, c := range s.picks {
		d := &p.rec.Draws[c]
		b, _ := redraw(r, d, p.data[d.Offset:d.Offset+d.Width], s.bufs[i])
		s.bufs[i] = b
		s.over = append(s.over, override{index: d.Index, bytes: b})
	}
	s.single = -1
	if k == 1 {
		s.single = s.picks[0]
	}
}

func (s *eiTurns) executed(g *childGuide, out Outcome, queued *entry) {
	if s.single >= 0 {
		s.env.sites().learn(g.parent, &g.parent.rec.Draws[s.single], out.Record, out.Result)
	}
}
