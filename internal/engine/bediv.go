package engine

import (
	"encoding/binary"

	"github.com/gfz-dev/gfz/param"
)

// The engine "bediv": BeDivFuzz (Nguyen and Grunske, ICSE 2022) on gfz's
// call trees.
//
// BeDivFuzz splits a generator's choices into structural ones (the
// generator branches on them) and values (structure.go labels them), and
// has two mutation types:
//
//   - structure-changing: typed choice mutation (choice.go) of structural
//     choices only;
//   - structure-preserving: typed choice mutation of value choices only.
//
// Either way a child re-draws 1 + Geometric(1/2) choices of the chosen
// kind (ei's count) and runs as a guided execution (guide.go), so every
// other choice keeps its parent's bytes at the same execution index: a
// structure-preserving child of a generator whose values steer nothing
// has its parent's call tree, only its values differ.
//
// Adaptive choice (the paper's Algorithm 2): with probability epsilon =
// 0.2 the type is picked uniformly at random; otherwise the type with the
// higher reward R_x = U_x / N_x, where N_x is the number of children of
// type x executed so far and U_x the number of them whose trace (set of
// branches, diversity.go) was unique when it ran (R_x = 0 while N_x = 0);
// equal rewards pick at random. A parent without a choice of the chosen
// type gets a child of the other type; a parent without any choice gets a
// Zest child (not counted in either type).
//
// Saving (the paper's BeDivFuzz-structure, Algorithm 1): Zest's rules
// (zestFeedback), except that a VALID execution Zest would save is saved
// only if its structural signature is new, i.e. differs from that of every
// VALID input already queued. An INVALID execution is saved by Zest's
// rules alone (the paper saves no invalid input; gfz keeps Zest's +cov
// for them, which targets whose first inputs are all invalid need to make
// progress). The structural signature sigma_s of an execution is a hash of
// its structural choices in order (each draw's Site and decoded value),
// with the kinds known when it is computed (sites learned structural later
// make later signatures differ from earlier ones: learning can let an
// input through, never reject one wrongly).
//
// Queue, turns and children per parent are Zest's (zest.go). bediv learns
// structure labels like ei: a child that changed a single choice reports
// whether it changed the shape (siteKinds.learn), so a value choice that
// turns out to steer the generator becomes structural. It learns before
// the child is judged: the child that reveals a structural site is saved
// for its new structure (judged with the old labels it would have its
// parent's signature, be dropped, and its new coverage, merged, be lost:
// on seed 9 of TestMazeMedians's valid-only maze the failure then took
// 89,859 executions instead of 867).

// bedivEpsilon is the probability of picking the mutation type at random
// (the paper's epsilon).
const bedivEpsilon = 0.2

// Mutation types.
const (
	mutStructure = 0 // structure-changing: structural choices only
	mutValue     = 1 // structure-preserving: value choices only
)

// bedivTurns is the bediv strategy. It composes ei's turns (parent,
// typed mutation of candidate choices, guide) with the adaptive choice of
// the candidates.
type bedivTurns struct {
	env strategyEnv
	ei  *eiTurns
	// cand are the current parent's choices (indexes into its draws) by
	// mutation type, made for split with nlearned sites learned structural
	// (learning only adds sites, so a change of the count means a stale
	// split).
	cand     [2][]int32
	split    *entry
	splitGen uint32 // split.recGen when made
	nlearned int
	// n[x] children of type x executed, u[x] of them with a unique trace.
	n, u [2]int64
	// last is the type of the child being executed; running tells
	// whether a child of nextGuide is being executed.
	last    int
	running bool
}

func newBedivTurns(env strategyEnv) *bedivTurns {
	return &bedivTurns{env: env, ei: newEITurns(env)}
}

// next is used when a parent has no choice to mutate: a Zest child.
func (s *bedivTurns) next(dst []byte) []byte { return s.ei.next(dst) }

func (s *bedivTurns) nextGuide() *childGuide {
	if !s.ei.guided() {
		return nil
	}
	p := s.ei.turn()
	if p.rec == nil {
		s.ei.zest.made-- // next counts it
		return nil
	}
	s.splitChoices(p)
	t := s.choose()
	if len(s.cand[t]) == 0 {
		t = 1 - t
	}
	if len(s.cand[t]) == 0 {
		s.ei.zest.made--
		return nil
	}
	s.last = t
	s.ei.mutate(p, s.cand[t])
	s.ei.guide.reset(p, s.ei.over, s.env.rand().next())
	s.running = true
	return s.ei.guide
}

// splitChoices sorts p's choices into s.cand by kind, unless they are
// sorted for p with the current labels.
func (s *bedivTurns) splitChoices(p *entry) {
	sites := s.env.sites()
	learned := len(sites.structural)
	if p == s.split && p.recGen == s.splitGen && learned == s.nlearned {
		return
	}
	s.split, s.splitGen, s.nlearned = p, p.recGen, learned
	s.cand[mutStructure] = s.cand[mutStructure][:0]
	s.cand[mutValue] = s.cand[mutValue][:0]
	for i := range p.rec.Draws {
		d := &p.rec.Draws[i]
		if d.Width == 0 {
			continue
		}
		t := mutValue
		if sites.kind(d) == param.Structure {
			t = mutStructure
		}
		s.cand[t] = append(s.cand[t], int32(i))
	}
}

// choose picks the mutation type of the next child (Algorithm 2).
func (s *bedivTurns) choose() int {
	r := s.env.rand()
	if float64(r.next()>>11)/(1<<53) < bedivEpsilon {
		return r.below(2)
	}
	rs, rv := s.reward(mutStructure), s.reward(mutValue)
	switch {
	case rs > rv:
		return mutStructure
	case rv > rs:
		return mutValue
	}
	return r.below(2)
}

// reward is R_x = U_x / N_x (0 before the first child of type x).
func (s *bedivTurns) reward(x int) float64 {
	if s.n[x] == 0 {
		return 0
	}
	return float64(s.u[x]) / float64(s.n[x])
}

// executed counts the child for its type's reward (handle has just
// observed the trace of a VALID or INVALID execution: env.uniqueTrace; a
// failing one ran no whole trace and is not unique) and learns structure
// labels from a single-choice child.
func (s *bedivTurns) executed(g *childGuide, out Outcome, queued *entry) {
	t := s.last
	s.n[t]++
	if (out.Result == Valid || out.Result == Invalid) && s.env.uniqueTrace() {
		s.u[t]++
	}
	s.learn(&out)
	s.running = false
}

// learn applies the labelling rule (siteKinds.learn) to the child being
// executed, whose outcome is out, if it changed a single choice. The
// feedback calls it before deciding on the child, so the child that shows
// a site to be structural is judged with that label (else it would be
// judged with its parent's signature, and its new coverage, merged,
// would be lost); executed calls it for every child.
func (s *bedivTurns) learn(out *Outcome) {
	if !s.running || s.ei.single < 0 {
		return
	}
	p := s.ei.guide.parent
	s.env.sites().learn(p, &p.rec.Draws[s.ei.single], out.Record, out.Result)
}

// bedivFeedback is Zest's feedback with BeDivFuzz-structure's rule for
// valid inputs: one queued valid input per structural signature.
//
// keep reads the record of the execution being decided on
// (strategyEnv.handled). A guided child has one. An execution of plain bytes
// (a seed, a corpus file, an imported input, a Zest child of a parent
// without choices) is recorded only by its stability recheck, so the
// first keep, before the recheck, has no record: it answers Zest's
// decision, and the second, after the recheck, applies the rule. With
// -norecheck such an input is saved on Zest's rules; its signature is
// still added when it is queued (credit reads the queued entry's record,
// which enqueue makes by a recording run if it has none).
type bedivFeedback struct {
	zest  zestFeedback
	env   strategyEnv
	turns *bedivTurns     // its strategy (learn), or nil
	seen  map[uint64]bool // signatures of the valid inputs queued
}

func newBedivFeedback(env strategyEnv, turns *bedivTurns) *bedivFeedback {
	return &bedivFeedback{zest: zestFeedback{owners: owners{}}, env: env, turns: turns, seen: map[uint64]bool{}}
}

func (fb *bedivFeedback) keep(n novelty, valid bool) bool {
	if z := fb.zest.keep(n, valid); !z || !valid {
		return z
	}
	out := fb.env.handled()
	if out.Record == nil || !recordFits(out.Record, len(out.Consumed)) {
		return true // no signature yet (see above)
	}
	if fb.turns != nil {
		fb.turns.learn(out)
	}
	return !fb.seen[structSig(fb.env.sites(), out.Record, out.Consumed)]
}

func (fb *bedivFeedback) credit(q []*entry, idx int, m *merged) {
	fb.zest.credit(q, idx, m)
	if e := q[idx]; e.valid && e.rec != nil {
		fb.seen[structSig(fb.env.sites(), e.rec, e.data)] = true
	}
}

// structSig is the structural signature sigma_s of the execution of data
// that rec records: a hash of its structural choices (kinds by k) in
// order, each as its Site and its decoded value (all its bytes for a draw
// of more than 8 bytes).
func structSig(k *siteKinds, rec *param.Record, data []byte) uint64 {
	h := uint64(0x5bd1e995)
	n := uint64(0)
	for i := range rec.Draws {
		d := &rec.Draws[i]
		if d.Width == 0 || k.kind(d) != param.Structure {
			continue
		}
		n++
		h = param.Mix(h, d.Site)
		if d.Width <= 8 {
			h = param.Mix(h, d.Decoded(data))
			continue
		}
		b := data[min(int(d.Offset), len(data)):min(int(d.Offset+d.Width), len(data))]
		for len(b) >= 8 {
			h = param.Mix(h, binary.LittleEndian.Uint64(b))
			b = b[8:]
		}
		var tail [8]byte
		copy(tail[:], b)
		h = param.Mix(h, binary.LittleEndian.Uint64(tail[:])^uint64(len(b))<<56)
	}
	return param.Mix(h, n)
}
