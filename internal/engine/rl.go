package engine

// The engine "rl": RLCheck (Reddy, Lemieux, Padhye, Sen, ICSE 2020;
// Lemieux's thesis, chapter 7), blackbox generation guided by
// reinforcement learning over the generator's choice points.
//
// Every execution is a guided execution (guide.go) in which the engine
// chooses each draw's value as the generator asks for it (param.DrawGuide):
// one Monte Carlo Control learner per choice point picks the value from
// the draw's domain, ε-greedily (ε = 0.25) over its table Q[state][value],
// where the state is the last rlWindow (5) choices of the execution. At
// the end of the execution every (state, value) the learners chose is
// credited with the execution's reward, a running average (the thesis's
// Algorithm 8: one reward per episode, no discount): 20 for a unique
// valid input, 0 for a valid input seen before, -1 for an invalid one
// (or a failure). Coverage plays no part in the choices.
//
// Choice point: a draw's Site (call site and generator of its span, and
// its ordinal among the span's draws) and its domain size N: the same
// place in the generators' code drawing from the same domain. Actions:
// the N values of the domain when N <= rlMaxActions (a Bool is N = 2, an
// IntRange(0, 63) is N = 64, a one-byte Uint is 256); a larger domain
// gets random bytes and is no choice (the thesis first made every domain
// finite). The bytes written for value v are v itself (little-endian),
// so the consumed sequence decodes to exactly the chosen values.
//
// State abstraction: the thesis's "Sequence" abstraction, the last w
// choices of the execution, each abstracted as (Site, value); draws of
// large domains are left out. The thesis's better "Tree L/R" abstraction
// needs the generator to say which earlier choices are a node's parents;
// gfz's generators draw each value in a span of its own (gen.Bool().Draw
// inside a user function), so the span tree does not show that.
//
// Uniqueness (the reward's "unique"): an input is identified by its
// decoded choices, the sequence of (Site, value) of every draw (a hash of
// the bytes for draws wider than 8 bytes), hashed to 64 bits; two
// parameter sequences that decode to the same values make the same input.
//
// Saved to corpus/ (nothing is queued): the first rlCorpusCap unique valid
// inputs, and any input that adds coverage (the random engine's rule), so
// a later campaign starts from them.

import "github.com/gfz-dev/gfz/param"

// RLCheck's parameters (the thesis's evaluation) and gfz's bounds.
const (
	rlEpsilon       = 0.25
	rlWindow        = 5
	rlRewardUnique  = 20
	rlRewardValid   = 0
	rlRewardInvalid = -1
	// rlMaxActions is the largest domain a learner chooses from.
	rlMaxActions = 256
	// rlMaxCells bounds the Q-table cells of all learners together
	// (12 bytes each: 48 MiB); a state first seen after that acts at
	// random.
	rlMaxCells = 1 << 22
	// rlSeenCap bounds the set of identities of valid inputs seen (about
	// 40 bytes each); when it is full it is emptied, so an input first
	// seen more than rlSeenCap unique inputs ago counts as unique again.
	rlSeenCap = 1 << 20
	// rlCorpusCap is how many unique valid inputs are written to
	// corpus/ (besides the ones that add coverage).
	rlCorpusCap = 100
)

// rlRow is one state's row of a learner's table.
type rlRow struct {
	q   []float64
	cnt []uint32
}

// rlLearner is one choice point's Monte Carlo Control learner.
type rlLearner struct {
	n    int               // the number of actions (domain values)
	rows map[uint64]*rlRow // by state
}

type rlStep struct {
	row *rlRow
	a   int32
}

// rlWin is the state window: the last rlWindow choices.
type rlWin struct {
	v [rlWindow]uint64
	n int
}

func (w *rlWin) push(x uint64) {
	if w.n < rlWindow {
		w.v[w.n] = x
		w.n++
		return
	}
	copy(w.v[:], w.v[1:])
	w.v[rlWindow-1] = x
}

func (w *rlWin) state() uint64 {
	h := uint64(w.n)
	for _, x := range w.v[:w.n] {
		h = param.Mix(h, x)
	}
	return h
}

// rlTurns is the rl strategy: the learners and the running episode.
type rlTurns struct {
	env      strategyEnv
	r        *prng
	guide    *childGuide
	learners map[uint64]*rlLearner // by mix(Site, N)
	cells    int
	episode  []rlStep
	win      rlWin
	// reward of the execution just handled, set by rlFeedback.keep;
	// rewarded tells it was (a failure is not handed to keep).
	reward   float64
	rewarded bool
	// Executions rewarded as unique valid and as valid seen before.
	unique, validSeen int64
}

func newRLTurns(env strategyEnv) *rlTurns {
	return &rlTurns{env: env, r: env.rand(), learners: map[uint64]*rlLearner{}}
}

// next is used when the executor cannot run guided executions: random
// generation.
func (*rlTurns) next([]byte) []byte { return nil }

func (s *rlTurns) nextGuide() *childGuide {
	if s.guide == nil {
		if s.guide = s.env.newGuide(); s.guide == nil {
			return nil
		}
		s.guide.pick = s.pick
	}
	s.episode = s.episode[:0]
	s.win = rlWin{}
	s.rewarded = false
	s.guide.reset(nil, nil, s.r.next())
	return s.guide
}

// rlDomain returns the number of values a learner chooses from for d (0:
// none, d gets random bytes).
func rlDomain(d *param.Draw) int {
	n := d.N
	if n == 0 && d.Width == 1 {
		n = 256
	}
	if d.Width == 0 || n < 2 || n > rlMaxActions {
		return 0
	}
	return int(n)
}

// pick chooses the value of draw d into dst (d.Width bytes).
func (s *rlTurns) pick(d *param.Draw, _ *param.Record, dst []byte) bool {
	n := rlDomain(d)
	if n == 0 {
		return false
	}
	key := param.Mix(d.Site, uint64(n))
	l := s.learners[key]
	if l == nil {
		l = &rlLearner{n: n, rows: map[uint64]*rlRow{}}
		s.learners[key] = l
	}
	st := s.win.state()
	row := l.rows[st]
	if row == nil && s.cells+n <= rlMaxCells {
		row = &rlRow{q: make([]float64, n), cnt: make([]uint32, n)}
		l.rows[st] = row
		s.cells += n
	}
	var a int
	if row == nil || float64(s.r.next()>>11)/(1<<53) < rlEpsilon {
		a = s.r.below(n)
	} else {
		a = argmaxRandTies(s.r, row.q)
	}
	if row != nil {
		s.episode = append(s.episode, rlStep{row: row, a: int32(a)})
	}
	v := uint64(a)
	for i := range dst {
		dst[i] = byte(v)
		v >>= 8
	}
	s.win.push(param.Mix(d.Site, uint64(a)))
	return true
}

// argmaxRandTies returns the index of a largest q: the first one found
// scanning cyclically from a random start (ties broken arbitrarily, as
// Algorithm 8 allows, with one random number per choice).
func argmaxRandTies(r *prng, q []float64) int {
	n := len(q)
	start := r.below(n)
	best, bv := start, q[start]
	for i := start + 1; i < start+n; i++ {
		j := i
		if j >= n {
			j -= n
		}
		if q[j] > bv {
			best, bv = j, q[j]
		}
	}
	return best
}

// executed ends the episode: every (state, value) chosen gets the
// execution's reward into its running average.
func (s *rlTurns) executed(_ *childGuide, out Outcome, _ *entry) {
	r := float64(rlRewardInvalid)
	if s.rewarded {
		r = s.reward
	}
	s.update(r)
}

func (s *rlTurns) update(r float64) {
	for _, st := range s.episode {
		c := float64(st.row.cnt[st.a])
		st.row.q[st.a] = (r + st.row.q[st.a]*c) / (c + 1)
		st.row.cnt[st.a]++
	}
	s.episode = s.episode[:0]
}

// inputID is the identity of the input rec (of data) generates: a hash
// of its decoded choices.
func inputID(rec *param.Record, data []byte) uint64 {
	h := uint64(len(rec.Draws))
	for i := range rec.Draws {
		d := &rec.Draws[i]
		if d.Width == 0 {
			continue
		}
		h = param.Mix(h, param.Mix(d.Site, drawValue(d, data)))
	}
	return h
}

// rlFeedback computes the reward of each execution (uniqueness of valid
// inputs) and saves unique valid inputs (the first rlCorpusCap) and
// inputs that add coverage.
type rlFeedback struct {
	env   strategyEnv
	t     *rlTurns
	seen  map[uint64]struct{}
	saved int
	// The decision for execution number at (keep is called again for
	// the recheck of an input about to be saved).
	at     int64
	unique bool
}

func newRLFeedback(env strategyEnv, t *rlTurns) *rlFeedback {
	return &rlFeedback{env: env, t: t, seen: map[uint64]struct{}{}, at: -1}
}

func (fb *rlFeedback) keep(n novelty, valid bool) bool {
	if at := fb.env.execNumber(); fb.at != at {
		fb.at = at
		fb.unique = false
		out := fb.env.handled()
		switch {
		case !valid:
			fb.t.reward = rlRewardInvalid
		case out.Record == nil:
			fb.t.reward = rlRewardValid // cannot tell (no record): no reward
		default:
			id := inputID(out.Record, out.Consumed)
			if _, ok := fb.seen[id]; ok {
				fb.t.reward = rlRewardValid
				fb.t.validSeen++
			} else {
				if len(fb.seen) >= rlSeenCap {
					clear(fb.seen)
				}
				fb.seen[id] = struct{}{}
				fb.t.reward = rlRewardUnique
				fb.t.unique++
				fb.unique = true
			}
		}
		fb.t.rewarded = true
		if fb.unique && fb.saved < rlCorpusCap {
			fb.saved++
		} else {
			fb.unique = false // saved only for coverage, if at all
		}
	} else if fb.unique && !valid {
		// The recheck of an input kept as unique and valid was invalid:
		// not saved as such, and its place under the cap is given back.
		fb.unique = false
		fb.saved--
	}
	return fb.unique || n&(newKey|newValidKey) != 0
}

func (*rlFeedback) credit([]*entry, int, *merged) {}

// ChooseDraw implements param.DrawGuide: with pick set (the rl engine)
// pick chooses each draw's bytes, else Choice does.
func (g *childGuide) ChooseDraw(d *param.Draw, rec *param.Record) ([]byte, bool) {
	w := int(d.Width)
	if g.pick == nil {
		return g.Choice(d.Index, w)
	}
	start := g.len
	end := start + w
	if end > len(g.log) {
		return nil, false
	}
	b := g.log[start:end]
	if !g.pick(d, rec, b) {
		for i := range b {
			if i%8 == 0 {
				v := g.rng.next()
				for k := i; k < len(b) && k < i+8; k++ {
					b[k] = byte(v)
					v >>= 8
				}
			}
		}
	}
	g.publish(start, end)
	return b, true
}

var _ param.DrawGuide = (*childGuide)(nil)
