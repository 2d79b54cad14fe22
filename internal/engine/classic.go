package engine

// gfz's earlier Zest rules, kept for the engine "bytes" (and the saving
// rule of "random"); docs/ENGINE.md compares them with Zest as published.

// classicTurns visits the queue round robin. Each parent's turn makes
// classicChildren children, fixed when the turn starts; mutate makes a
// child of parent in dst's storage.
type classicTurns struct {
	env     strategyEnv
	mutate  func(dst, parent []byte) []byte
	qi      int  // the current parent
	left    int  // children still to make in its turn
	started bool // the first turn has started
	maxCov  int  // the most edges any queued input hit
	seen    int  // queue entries included in maxCov
}

func (s *classicTurns) next(dst []byte) []byte {
	q := s.env.queue()
	if s.left == 0 {
		if s.started {
			s.qi = (s.qi + 1) % len(q)
		}
		s.started = true
		for ; s.seen < len(q); s.seen++ {
			s.maxCov = max(s.maxCov, q[s.seen].edges)
		}
		s.left = classicChildren(q[s.qi], s.maxCov)
	}
	s.left--
	return s.mutate(dst, q[s.qi].data)
}

// classicChildren is 50 * nonZeroCov(p) / maxCov, times 20 if p is
// favored, at least one, where maxCov is the most edges any single queued
// input hit (50 if none hit any).
func classicChildren(p *entry, maxCov int) int {
	return max(zestChildren(p, maxCov), 1) // the same formula over another denominator
}

// classicFeedback saves an execution that covers an (edge, class) key not
// in the total coverage, or, valid, a key not in the valid coverage (a new
// hit-count class of an edge valid inputs already covered counts). A
// queued input becomes responsible for every key it covers (the newest
// input covering a key owns it).
type classicFeedback struct{ owners owners }

func (*classicFeedback) keep(n novelty, valid bool) bool {
	return n&(newKey|newValidKey) != 0
}

func (fb *classicFeedback) credit(q []*entry, idx int, m *merged) {
	fb.owners.assign(q, idx, m.keys)
}

// randomStrategy executes empty parameters every time: the generator is
// fed by the PRNG only. A native target's arguments take the lengths of
// their []byte and string values from the input's bytes, so for one the
// strategy executes fresh random arguments instead (ArgRandomizer).
type randomStrategy struct {
	args ArgRandomizer // nil: not a native target
	rand func() uint64
	max  func() int
	buf  []byte
}

// ArgRandomizer is implemented by the ArgMutator of a native target
// (native.Mutator): RandomArgs writes into dst the parameter sequence of
// fresh random arguments, at most maxSize bytes, drawing from rand.
type ArgRandomizer interface {
	RandomArgs(rand func() uint64, dst []byte, maxSize int) []byte
}

func newRandomStrategy(env strategyEnv) *randomStrategy {
	s := &randomStrategy{}
	if r, ok := nativeMutator(env, nil).(ArgRandomizer); ok {
		s.args, s.rand, s.max = r, env.rand().next, env.maxSize
	}
	return s
}

func (s *randomStrategy) next([]byte) []byte {
	if s.args == nil {
		return nil
	}
	s.buf = s.args.RandomArgs(s.rand, s.buf, s.max())
	return s.buf
}
