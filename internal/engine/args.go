package engine

import (
	"math/bits"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// The engine "args": mutation of a native target's typed arguments, for
// native fuzz targets (f.Fuzz(func(t *testing.T, a A, b B, ...))). The
// executor's codec (native.Codec) decodes a parent into its arguments,
// edits a few of them as values of their types and re-encodes the child
// (ArgMutator); the strategy schedules parents as go test -fuzz does
// (short turns that end at the first child saved, the inputs in a queue
// that new inputs join at its end) and trims each input it queues as it
// is saved, keeping a candidate iff it still covers every coverage key
// the input was queued for (ArgTrimmer). docs/ENGINE.md, "args", has the rules and the
// measurements behind them.

// ArgMutation is implemented by the codec of a native target's executor
// (native.Codec, through CodecExecutor): NewArgMutator returns its
// ArgMutator, as an any so that the codec's package need not import this
// one.
type ArgMutation interface {
	NewArgMutator(dict [][]byte) any
}

// ArgMutator makes children and trimming candidates of a native target's
// parameter sequences.
type ArgMutator interface {
	// MutateArgs writes into dst (reusing its storage) a child of parent
	// made by edits edits to its arguments, at most maxSize bytes long,
	// drawing every random choice from rand; other returns another input
	// (nil when there is none) for splicing.
	MutateArgs(rand func() uint64, dst, parent []byte, edits, maxSize int, other func() []byte) []byte
	// TrimArgs returns an ArgTrimmer of data proposing at most budget
	// candidates, or nil when there is nothing to trim.
	TrimArgs(data []byte, budget int) any
}

// ArgTokens is implemented by an ArgMutator that can apply a comparison
// token (-feedback cmp, cmp.go) to a native target's arguments, so that a
// []byte or string argument changes length with it (native.Mutator).
type ArgTokens interface {
	// TokenArgs writes into dst (reusing its storage) parent with from
	// replaced by to inside a []byte or string argument that holds from
	// (with shift, the byte before it shifted by the difference of their
	// lengths), or, when none does and place is set, to put into one at a
	// random place (inserted or written over), drawing from rand; the
	// child is at most maxSize bytes long; ok is false when it made none.
	TokenArgs(rand func() uint64, dst, parent, from, to []byte, place, shift bool, maxSize int) (child []byte, ok bool)
}

// ArgGenerator is implemented by an ArgMutator that can also make
// children whose []byte or string argument is a document of a format
// generator (native.Mutator with a native.Mix: the format of a native
// target's seeds, see docs/ENGINE.md, "Native targets", "Children from a
// format generator").
type ArgGenerator interface {
	// Generates reports whether GenerateArgs makes children.
	Generates() bool
	// GenerateArgs writes into dst (reusing its storage) parent with
	// the generator's argument replaced by a new document, drawn from a
	// source seeded by one call of rand, the child at most maxSize
	// bytes long; ok is false when it made none.
	GenerateArgs(rand func() uint64, dst, parent []byte, maxSize int) (child []byte, ok bool)
}

// ArgTrimmer proposes smaller versions of one input, one at a time.
type ArgTrimmer interface {
	// Next returns the next candidate (valid until the next call); ok is
	// false when there is none left.
	Next() (cand []byte, ok bool)
	// Kept tells whether the last candidate was kept.
	Kept(kept bool)
	// Current is the smallest input kept so far.
	Current() []byte
}

// argMutationOf returns the ArgMutation of ex's codec, or nil.
func argMutationOf(ex Executor) ArgMutation {
	m, _ := codecOf(ex).(ArgMutation)
	return m
}

// argMutation is the loop's codec's ArgMutation (nil without one: args
// then mutates the parameter sequence as one []byte argument).
func (v loopView) argMutation() ArgMutation { return argMutationOf(v.f.ex) }

// nativeMutator returns the mutator of a native target's arguments made
// with dict (nil for any other target or an environment without one).
func nativeMutator(env strategyEnv, dict [][]byte) any {
	if am, ok := env.(interface{ argMutation() ArgMutation }); ok {
		if m := am.argMutation(); m != nil {
			return m.NewArgMutator(dict)
		}
	}
	return nil
}

// The schedule of args.
const (
	// argsTurn is the number of children of a parent's turn, which ends
	// earlier when a child is saved.
	argsTurn = 256
	// argsMaxEdits bounds the edits of a child: 1 to argsMaxEdits,
	// uniform.
	argsMaxEdits = 5
	// argsTrimBudget bounds the trimming candidates of one input.
	argsTrimBudget = 256
	// argsGenEvery: with a format generator (ArgGenerator), one child in
	// argsGenEvery is generated.
	argsGenEvery = 8
)

// argsTurns is the strategy of args. Parents take their turns from a
// pass, a first-in first-out list of queue entries (go test -fuzz's input
// queue): argsTurn children each, a turn ending after a child that was
// saved; an input saved is trimmed at once and joins the end of the pass;
// an empty pass is refilled with every queue entry, in order. A turn cut
// short is not resumed: its input comes again in the next pass. The bytes
// a parent's children are made from are its trimmed form (data), which
// its queue entry and corpus file do not replace.
type argsTurns struct {
	env  strategyEnv
	mut  ArgMutator
	rand func() uint64
	// gen makes the generated children (nil without a format
	// generator); sinceGen counts the children made since the last one.
	gen      ArgGenerator
	sinceGen int
	// grim generalises queued inputs and recombines them (nil without
	// Config.Grimoire, args_grimoire.go); sinceGrim counts the children
	// since the last recombined one, generalizing tells that trim is a
	// generalisation, lastGrim that the last child was recombined.
	grim         ArgGeneralizer
	sinceGrim    int
	generalizing bool
	genSeed      bool       // ... of a seed
	seedGen      []seedKeys // seeds waiting for their generalisation
	lastGrim     bool
	gst          grimStats

	data    [][]byte // per queue entry: its children's parent
	fresh   []int    // queue entries saved by the loop, waiting for their trimming
	pass    []int    // queue entries whose turns come next, in order
	started bool
	qi      int // the current parent
	// resumeFrom is where the first pass over the queue starts
	// (resumeAfter; 0: at the start).
	resumeFrom int
	left       int // children left in the turn

	// Trimming (the feedback reads trimKeys and sets kept).
	trim     ArgTrimmer
	trimIdx  int
	trimKeys []uint32
	trying   bool // the last input next returned was a trimming candidate
	kept     bool // ... and its execution covered every key of trimKeys
	newKeys  map[int][]uint32
}

func newArgsTurns(env strategyEnv) *argsTurns {
	s := &argsTurns{env: env, newKeys: map[int][]uint32{}}
	r := env.rand()
	s.rand = r.next
	s.mut, s.gen = nativeArgs(env)
	if s.mut == nil {
		s.mut = rawArgs{r}
	}
	s.grim = argsGrimoire(env, s.mut)
	return s
}

func (s *argsTurns) next(dst []byte) []byte {
	q := s.env.queue()
	if !s.started {
		// Seeds and resumed inputs are not trimmed (go test -fuzz does
		// not minimize its seed corpus either).
		s.started = true
		seeds := s.grim != nil && generalizesSeeds(s.env)
		for i, e := range q {
			s.data = append(s.data, e.data)
			if keys := s.newKeys[i]; seeds && len(keys) > 0 && len(s.seedGen) < argsGrimSeeds {
				s.seedGen = append(s.seedGen, seedKeys{i, keys})
			}
			delete(s.newKeys, i)
		}
	}
	if s.trying {
		s.trying = false
		s.trim.Kept(s.kept)
	}
	if len(s.data) < len(q) && s.lastGrim {
		s.gst.saved += int64(len(q) - len(s.data))
	}
	s.lastGrim = false
	if len(s.data) < len(q) {
		// Children were saved: the turn ends (unless a trimming is under
		// way, which finishes first) and they wait for their trimming.
		for i := len(s.data); i < len(q); i++ {
			s.data = append(s.data, q[i].data)
			s.fresh = append(s.fresh, i)
		}
		s.left = 0
	}
	for {
		if s.trim != nil {
			if cand, ok := s.trim.Next(); ok {
				s.trying, s.kept = true, false
				if s.generalizing {
					s.gst.execs++
				}
				return append(dst[:0], cand...)
			}
			if s.genSeed {
				// A seed's generalisation: its children's parent stays
				// the seed as given.
				s.trim, s.genSeed, s.generalizing = nil, false, false
				continue
			}
			s.data[s.trimIdx] = append([]byte(nil), s.trim.Current()...)
			s.trim = nil
			if s.grim != nil && !s.generalizing {
				// The trimmed input is generalised before its turn.
				if g, ok := s.grim.GeneralizeArgs(s.data[s.trimIdx], argsGrimBudget).(ArgTrimmer); ok {
					s.trim, s.generalizing = g, true
					continue
				}
			}
			s.generalizing = false
			s.pass = append(s.pass, s.trimIdx)
		}
		if len(s.seedGen) > 0 {
			// With generalisation, the seeds are generalised first
			// (with the keys each brought), one after the other.
			sk := s.seedGen[0]
			s.seedGen = s.seedGen[1:]
			if g, ok := s.grim.GeneralizeArgs(s.data[sk.idx], argsGrimBudget).(ArgTrimmer); ok {
				s.trim, s.trimIdx, s.trimKeys = g, sk.idx, sk.keys
				s.generalizing, s.genSeed = true, true
			}
			continue
		}
		if s.left > 0 {
			break
		}
		if len(s.fresh) > 0 {
			idx := s.fresh[0]
			s.fresh = s.fresh[1:]
			keys := s.newKeys[idx]
			delete(s.newKeys, idx)
			if len(keys) > 0 {
				if t, ok := s.mut.TrimArgs(s.data[idx], argsTrimBudget).(ArgTrimmer); ok {
					s.trim, s.trimIdx, s.trimKeys = t, idx, keys
					continue
				}
			}
			s.pass = append(s.pass, idx)
			continue
		}
		if len(s.pass) == 0 {
			if s.resumeFrom >= len(q) {
				s.resumeFrom = 0
			}
			for i := s.resumeFrom; i < len(q); i++ {
				s.pass = append(s.pass, i)
			}
			s.resumeFrom = 0
		}
		s.qi, s.left = s.pass[0], argsTurn
		s.pass = s.pass[1:]
	}
	s.left--
	if s.gen != nil {
		// A generated child replaces every argsGenEvery-th mutated one
		// (no random draw decides it: without a generator the run is
		// the same as before).
		if s.sinceGen++; s.sinceGen >= argsGenEvery {
			s.sinceGen = 0
			if c, ok := generateArgs(s.gen, s.rand, dst, s.data[s.qi], s.env.maxSize()); ok {
				return c
			}
		}
	}
	if s.grim != nil {
		// One child in argsGrimEvery is recombined from the
		// generalised inputs (once there are any).
		if s.sinceGrim++; s.sinceGrim >= argsGrimEvery {
			s.sinceGrim = 0
			if c, ok := s.grim.GrimoireArgs(s.rand, dst, s.data[s.qi], s.env.maxSize()); ok {
				s.lastGrim = true
				s.gst.children++
				return c
			}
		}
	}
	if c, ok := s.env.domainChild(dst, s.data[s.qi]); ok {
		return c // a mutating domain's child (cmp's operand tokens)
	}
	return mutateArgs(s.env, s.mut, s.rand, dst, s.data[s.qi])
}

// nativeArgs returns the argument mutator of env's native target and its
// format generator when it generates (nil, nil for a gfz target; a nil
// generator without a format).
func nativeArgs(env strategyEnv) (ArgMutator, ArgGenerator) {
	m, ok := nativeMutator(env, env.dictionary()).(ArgMutator)
	if !ok {
		return nil, nil
	}
	if g, ok := m.(ArgGenerator); ok && g.Generates() {
		return m, g
	}
	return m, nil
}

// mutateArgs makes a child of parent by 1 to argsMaxEdits (uniform) edits
// of its arguments with m.
func mutateArgs(env strategyEnv, m ArgMutator, rand func() uint64, dst, parent []byte) []byte {
	edits := 1 + int((rand()>>32)*argsMaxEdits>>32)
	return m.MutateArgs(rand, dst, parent, edits, env.maxSize(), env.otherInput)
}

// argsFeedback saves as classicFeedback does; while a trimming candidate
// runs it also tells the strategy whether the execution covered every key
// the trimmed input was queued for, and on credit it records the keys a
// newly queued input brought (those no queued input covered).
type argsFeedback struct {
	classicFeedback
	t *argsTurns
}

func (fb *argsFeedback) keep(n novelty, valid bool) bool {
	if fb.t.trying {
		fb.t.kept = coversKeys(&aflClasses, fb.t.trimKeys)
	}
	return fb.classicFeedback.keep(n, valid)
}

func (fb *argsFeedback) credit(q []*entry, idx int, m *merged) {
	var fresh []uint32
	for _, k := range m.keys {
		if _, ok := fb.owners[k]; !ok {
			fresh = append(fresh, k)
		}
	}
	if len(fresh) > 0 {
		fb.t.newKeys[idx] = fresh
	}
	fb.classicFeedback.credit(q, idx, m)
}

// coversKeys reports whether the execution in gfzrt.Map has every
// (edge, class) key of keys under the classification t.
func coversKeys(t *[256]uint8, keys []uint32) bool {
	for _, k := range keys {
		if t[gfzrt.Map[k/8]]&(1<<(k%8)) == 0 {
			return false
		}
	}
	return true
}

// rawArgs is the ArgMutator of an executor without typed arguments (a gfz
// target, whose generators draw from the parameter sequence): the
// sequence is one []byte argument, edited with the bytes engine's
// operators (mutate.go) and trimmed as a native []byte argument is.
type rawArgs struct{ r *prng }

func (m rawArgs) MutateArgs(_ func() uint64, dst, parent []byte, edits, maxSize int, other func() []byte) []byte {
	dst = append(dst[:0], parent...)
	for range edits {
		dst = byteOp(m.r, dst, maxSize, other)
	}
	return dst[:min(len(dst), maxSize)]
}

func (m rawArgs) TrimArgs(data []byte, budget int) any {
	if len(data) == 0 || budget <= 0 {
		return nil
	}
	t := &rawTrim{cur: append([]byte(nil), data...), budget: budget}
	t.n = 1 << (bits.Len(uint(len(data))) - 1)
	if t.n == len(data) {
		t.n /= 2
	}
	return t
}

// rawTrim trims one byte sequence: its tail cut by halving amounts (each
// repeated while kept), then single bytes removed from the front.
type rawTrim struct {
	cur, cand []byte
	n, i      int // the amount cut (0: cutting is over), the byte removed
	budget    int
}

func (t *rawTrim) Next() ([]byte, bool) {
	for t.budget > 0 {
		if t.n > 0 {
			if len(t.cur) <= t.n {
				t.n /= 2
				continue
			}
			t.budget--
			t.cand = t.cur[:len(t.cur)-t.n]
			return t.cand, true
		}
		if t.i >= len(t.cur)-1 {
			return nil, false
		}
		t.budget--
		t.cand = append(append(t.cand[:0:0], t.cur[:t.i]...), t.cur[t.i+1:]...)
		return t.cand, true
	}
	return nil, false
}

func (t *rawTrim) Kept(kept bool) {
	switch {
	case kept:
		t.cur = t.cand
	case t.n > 0:
		t.n /= 2
	default:
		t.i++
	}
}

func (t *rawTrim) Current() []byte { return t.cur }

// generateArgs makes a child of parent with the format generator g. The
// generator runs standard-library code, which may be instrumented (-cover
// of std packages): its probe hits must not count as the child's, so the
// map is cleared after it, whether or not it made a child.
func generateArgs(g ArgGenerator, rand func() uint64, dst, parent []byte, max int) ([]byte, bool) {
	c, ok := g.GenerateArgs(rand, dst, parent, max)
	gfzrt.Reset()
	return c, ok
}
