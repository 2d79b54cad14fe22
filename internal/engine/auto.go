package engine

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/param"
)

// The engine "auto": one loop that chooses, for every child, how to make
// it (an operator arm) and, for every parent's turn, how to pick the
// parent and its number of children (a parent arm), each by a bandit
// (bandit.go: discounted Thompson sampling) that credits every execution
// of a child it decided to the arms that made it, with what it found per
// execution, and charges each decision the executions it committed; half
// of the children's cost is spent outside the bandits (the generation
// share, below).
//
// Operator arms (a child of the turn's parent P; an arm is offered only
// when it can make a child of P):
//
//	zest      Zest's byte runs (mutateZest)
//	bytes     AFL-style havoc, with splicing (mutateBytes, the bytes engine's)
//	ei        typed choice mutation of 1 + Geometric(1/2) choices, guided (ei.go)
//	struct    the same, structural choices only (BeDivFuzz's structure-changing)
//	value     the same, value choices only (BeDivFuzz's structure-preserving)
//	zeugma    linked splices of same-generator calls, with Zest's runs (zeugma.go)
//	random    fresh random generation (empty parameters, or a native target's
//	          random arguments: randomStrategy; no parent)
//	cmp       one comparison token (-feedback cmp's operands; cmp.go)
//	dict      one dictionary token (Config.Dictionary: native targets; dict.go)
//	args      a native target's typed argument mutation, 1 to argsMaxEdits
//	          edits (the args engine's ArgMutator: native targets only)
//	format    a native target's child whose []byte or string argument is
//	          a new document of the format of its seeds (the args engine's
//	          ArgGenerator: native targets with a format generator only)
//	fairfuzz  FairFuzz's masked havoc for P's rare edge (fairfuzz.go); the
//	          mask's 3 executions a byte are this arm's executions
//
// Parent arms (at each turn's start):
//
//	turns     Zest's round robin and children formula (zestChildren,
//	          evaluated before every child, as zest does), times the
//	          turn's size factor (see below)
//	fast      AFLFast's FAST power schedule: the parent of a tournament of
//	          4 queued inputs with the least-exercised path (f(i): executions
//	          whose trace fell in its trace's slot; ties: picked least
//	          often), and energy zestChildren(P) * 2^s(i) / f(i), s(i) the
//	          times it was picked before, between 1 and 1000, times the
//	          size factor (so up to 3000)
//	rare      FairFuzz's selection: the next queued input whose rarest edge is
//	          rare, with Zest's children formula times the size factor
//	          (falls back to turns when no input looked at is rare)
//
// Reward of an execution (rewardOf): 1 for a new failure, or for an input
// saved for a new edge (+cov) or a new valid edge (+valid); 0.5 for one
// saved for a new hit-count class only (+count) or for a feedback domain
// alone; 0 otherwise. Cost: the executions a decision commits (one for a
// child; a fairfuzz mask's 3 a byte for the decision that starts it; a
// parent arm's turn, its children), which the bandits learn per arm and
// divide its weight by (bandit.go, "Charging by cost"), so that each arm's
// share of the executions, not of the decisions, follows its reward per
// execution; a fairfuzz decision's cost is known before it is made (offer)
// and replaces the learned one. Executions, not CPU time (a guided child, which records, costs
// more engine time on a cheap target): the same seed makes the same
// choices.
//
// Saving is Zest's (zestFeedback), hit-count classes Zest's.
//
// The generation share: half of the cost of the children is spent on
// fresh random generation made outside the bandits, whatever they have
// learned; the other half on the bandits' children. Random generation's
// worth lies in the generator's distribution, not in the coverage it adds:
// late in a campaign it rarely adds an edge, so a bandit paid in coverage
// gives it next to nothing, while on the real bugs it was the best engine
// on more bugs than any other (BENCHMARKS.md). Half is the split that
// minimises the worst slowdown against either family alone (a share g of
// the time makes a way at most 1/g times slower: max(1/g, 1/(1-g)) is
// least at g = 1/2); it was not tuned. The split is of the cost, not of
// the executions: a child's cost is the parameter bytes its execution read
// plus autoCostBase (autoCost), a deterministic stand-in for its time (on
// gomarkdown-deflist the bandits' children read 2.1 times the bytes of
// generated ones, and zest's executions took 2.1 times random's CPU, so
// half of the executions gave generation about a third of the time). The next child is generated when
// generation's cost so far is at most the bandits' (costs counted from the
// end of generation first; a child never executed costs nothing, one that
// times out its bytes). The share's children are credited to the
// random arm's posterior (they are its executions) but not to its
// decisions' cost, nor to a parent arm, and do not count towards the
// turn's children.
//
// Parent energy by size (autoEnergyMin, autoEnergyMax): a turn's children
// (Zest's formula, or fast's energy) are multiplied by the queue's mean
// cost over the parent's (autoCost of its bytes), clamped to [0.1, 3]: a
// parent twice the mean cost gets half the children. Zest's formula gives a
// parent children in proportion to the edges it covers, which grow with its
// size, and a child costs about what its parent does: unscaled, the
// bandits' children read 2.1 times the bytes of generated ones (above).
// The idea and the range are AFL's performance score, which scales a
// queue entry's energy by the mean execution time over the entry's between
// 0.1 and 3; gfz divides by size, not time, so that the same seed makes
// the same run.
//
// Generation first (autoWarmMin): on a gfz target, auto's first children
// are all fresh random generation, until generation plateaus: its
// children have gone max(autoWarmMin, n) executions without a new edge or
// a new valid edge, n being the number of them made at the last one (the
// gap since the last find has grown to the whole history before it: the
// finds per doubling of the executions have fallen below about one).
// From then on auto runs as above, for good (the switch is one-way and
// counted in executions: the same seed makes the same run). The round
// of the share showed fresh generation first on most bugs and the share
// costing it about 2x on them, mostly bugs found within seconds; while
// generation still finds edges at that rate, the mutation arms are not
// needed to make progress. A native target's random children are random
// arguments, not a generator's inputs: it has no warm-up.

// Operator arms.
const (
	armZest = iota
	armBytes
	armEI
	armStruct
	armValue
	armZeugma
	armRandom
	armCmp
	armDict
	armArgs
	armFormat
	armFair
	numArms
)

var armNames = []string{"zest", "bytes", "ei", "struct", "value", "zeugma", "random", "cmp", "dict", "args", "format", "fairfuzz"}

// Parent arms.
const (
	schedTurns = iota
	schedFast
	schedRare
)

var schedNames = []string{"turns", "fast", "rare"}

const (
	// autoCostBase is what an execution costs beyond the bytes it reads
	// (autoCost), in bytes: the engine's and the target's fixed work. Not
	// tuned.
	autoCostBase = 32
	// autoEnergyMin and autoEnergyMax clamp the size factor of a turn's
	// energy (see above; AFL's performance score's range).
	autoEnergyMin = 0.1
	autoEnergyMax = 3

	fastTournament = 4
	fastMaxEnergy  = childrenBaseline * childrenFavoredMul
	// autoWarmMin is the least number of executions without a new edge
	// that ends generation first (see above): about a second of a
	// typical target's executions, so that the plateau is not declared
	// on the first inputs' luck. Not tuned.
	autoWarmMin = 10_000

	// autoZeroCost is what a child skipped as a zero mutation costs its
	// arms, in executions without a reward: no execution, but the
	// mutation and the check (on a cheap target, a sizeable part of an
	// execution's time; without a cost an arm making only zero mutations
	// would look free).
	autoZeroCost = 0.1
)

// autoArmsEnv restricts the arms of a run, for measurements: a list of
// arm names ("zest,ei,turns"); the operator and parent arms not named are
// never chosen (zest and turns stay available when no arm of their kind is
// named), and generation first runs only if "first" is named (with the
// random arm). Read when the engine is built.
const autoArmsEnv = "GFZ_AUTO_ARMS"

// autoFirstMaxEnv caps generation first, for measurements: it ends after
// at most this many children (the worker slot's, restarts included) even
// if generation has not plateaued (a steady trickle of new edges keeps the
// plateau from coming: BENCHMARKS.md, "Generation first on a hard bug over
// ten minutes"). Unset, 0 or not a number: no cap. Read when the engine
// is built.
const autoFirstMaxEnv = "GFZ_AUTO_FIRST_MAX"

// autoTurns is the auto strategy.
type autoTurns struct {
	env   strategyEnv
	ops   *bandit
	sched *bandit
	// allowed arms (autoArmsEnv).
	opsMask, schedMask uint64

	// The turn: its parent arm, parent, children made, and target (for
	// fast; turns and rare evaluate Zest's formula, times the turn's size
	// factor, before each child).
	sch    int
	parent *entry
	made   int
	target int
	qi     int // the turns schedule's round robin
	// zc is zestChildren of the parent for zcEdges total edges and
	// favour zcFav, scaled by energy (zcEdges -1: not computed for this
	// parent).
	zc, zcEdges int
	zcFav       bool
	picks       []int32 // fast: s(i) by queue index
	rare        rareParents

	// What each queued input offers as a parent (autoInfo), and the
	// current parent's choices (for ei; made when first needed).
	info       map[*entry]*autoInfo
	infoP      *entry // the parent of infoLast (a turn asks for one parent's again and again)
	infoLast   *autoInfo
	choices    []int32
	choicesFor *entry
	choicesGen uint32 // choicesFor.recGen when made
	fairEdge   int

	// The arms' machinery.
	bd  *bedivTurns // struct/value (and, through bd.ei, ei's typed mutation and guide)
	zg  *zeugmaTurns
	fm  *fairMasks
	rnd *randomStrategy // fresh random arguments of a native target (else empty parameters)
	am  ArgMutator      // a native target's argument mutator (args), or nil
	ag  ArgGenerator    // ... its format generator (format), or nil

	// The decision in flight: its operator arm, whether it awaits found
	// (else, at the next decision, it was skipped as a zero mutation),
	// whether next was planned by nextGuide, and whether the child is
	// the generation share's (no bandit decision).
	arm      int
	pending  bool
	planned  bool
	generate bool
	// generated counts the generation share's children executed (there
	// is no share when autoArmsEnv leaves random out: hasShare); genCost
	// and mutCost are the cost (autoCost) of the share's children and of
	// the bandits' since generation first ended.
	generated        int64
	genCost, mutCost int64
	// energy is the turn's size factor (see above); qCost and qSeen the
	// summed cost of the first qSeen queued inputs.
	energy float64
	qCost  int64
	qSeen  int
	// warm tells whether generation first is on (see above), noFirst
	// whether autoArmsEnv left it out; warmNew is generated at
	// generation's last new edge, warmEnd generated when it ended (0: not
	// ended).
	warm, noFirst    bool
	warmChecked      bool // whether a restarted worker's inheritance was checked
	warmNew, warmEnd int64
	// A worker replacing a dead one of its slot during generation first
	// goes on with the slot's count (a target that kills its worker more
	// often than the plateau takes would otherwise start it again at every
	// death): warmBase is the children the dead workers made, warmLast the
	// slot's count at their last new edge. warmNew is then counted from
	// warmBase (warmLast - warmBase until this worker finds an edge).
	warmBase, warmLast int64
	// firstMax is autoFirstMaxEnv's cap (0: none).
	firstMax int64
	// reindex tells that generation first has ended and the next parent
	// catches zeugma's index up with the queue (endFirst).
	reindex bool
}

// endFirst ends generation first: from the next parent on, auto runs its
// share and bandits, the inputs queued meanwhile indexed first.
func (s *autoTurns) endFirst() { s.warm, s.reindex = false, true }

func newAutoTurns(env strategyEnv) *autoTurns {
	s := &autoTurns{
		env: env, ops: newBandit(armNames...), sched: newBandit(schedNames...),
		rare: rareParents{env: env}, qi: -1,
		bd: newBedivTurns(env), zg: newZeugmaTurns(env), fm: newFairMasks(env),
		rnd: newRandomStrategy(env), info: map[*entry]*autoInfo{},
	}
	s.am, s.ag = nativeArgs(env)
	ops, sched, first := autoArms(os.Getenv(autoArmsEnv))
	s.noFirst = !first
	s.restrict(ops, sched)
	if n, err := strconv.ParseInt(os.Getenv(autoFirstMaxEnv), 10, 64); err == nil && n > 0 {
		s.firstMax = n
	}
	return s
}

// restrict allows only the operator and parent arms of the masks; without
// the random arm there is no generation share and no generation first
// either.
func (s *autoTurns) restrict(ops, sched uint64) {
	s.opsMask, s.schedMask = ops, sched
	s.warm = s.hasShare() && s.am == nil && !s.noFirst && s.warmEnd == 0
}

// autoArms parses autoArmsEnv's value into the masks of allowed operator
// and parent arms, and whether generation first is allowed (the name
// "first"; always without a list).
func autoArms(v string) (ops, sched uint64, first bool) {
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		first = first || name == "first"
		for i, n := range armNames {
			if n == name {
				ops |= 1 << i
			}
		}
		for i, n := range schedNames {
			if n == name {
				sched |= 1 << i
			}
		}
	}
	switch {
	case v == "":
		ops, sched, first = 1<<numArms-1, 1<<len(schedNames)-1, true
	case ops == 0:
		ops = 1 << armZest
	}
	if sched == 0 {
		sched = 1 << schedTurns
	}
	return ops, sched, first
}

// nextGuide decides the next child: its parent (advancing the turn) and
// its operator arm; it returns the guide of a guided arm's child, else nil
// (next makes the child).
func (s *autoTurns) nextGuide() *childGuide {
	s.settle()
	s.planned = true
	if s.fm.busy() {
		s.arm, s.pending = armFair, true
		return nil
	}
	if s.generateNext() {
		return nil
	}
	r := s.env.rand()
	p := s.advance()
	s.arm = s.ops.choose(r, s.offer(p))
	s.fairEdge = s.infoLast.fairEdge
	s.pending = true
	switch s.arm {
	case armStruct, armValue:
		t := mutStructure
		if s.arm == armValue {
			t = mutValue
		}
		if s.bd.splitChoices(p); len(s.bd.cand[t]) > 0 {
			s.bd.ei.mutate(p, s.bd.cand[t])
			break
		}
		// P has no choice of that kind (labels learned since its arms were
		// checked): an ei child, the decision and its credit ei's.
		s.arm = armEI
		s.ops.reassign(armEI)
		fallthrough
	case armEI:
		s.bd.ei.mutate(p, s.eiChoices(p))
	default:
		return nil
	}
	g := s.bd.ei.guide
	g.reset(p, s.bd.ei.over, r.next())
	return g
}

// eiChoices returns p's choices (indexes into its record's draws), kept
// while p and its record stay the same.
func (s *autoTurns) eiChoices(p *entry) []int32 {
	if s.choicesFor != p || s.choicesGen != p.recGen {
		s.choices, s.choicesFor, s.choicesGen = choicesOf(p.rec, s.choices), p, p.recGen
	}
	return s.choices
}

// next makes the child nextGuide planned (or plans one without guided
// arms when called alone).
func (s *autoTurns) next(dst []byte) []byte {
	if !s.planned {
		s.settle()
		if s.fm.busy() {
			s.arm, s.pending = armFair, true
		} else if !s.generateNext() {
			p := s.advance()
			s.arm = max(s.ops.choose(s.env.rand(), s.offer(p)&^(1<<armEI|1<<armStruct|1<<armValue)), armZest)
			s.fairEdge = s.infoLast.fairEdge
			s.pending = true
		}
	}
	s.planned = false
	r := s.env.rand()
	p := s.parent
	switch s.arm {
	case armBytes:
		return mutateBytes(r, dst, p.data, s.env.maxSize(), s.env.otherInput)
	case armZeugma:
		s.zg.pointsOf(p)
		return s.zg.child(dst, p)
	case armRandom:
		return s.rnd.next(dst)
	case armCmp:
		if c, ok := s.env.tokenChild(dst, p.data); ok {
			return c
		}
	case armDict:
		c := append(dst[:0], p.data...)
		return dictOp(r, c, s.env.maxSize(), s.env.dictionary())
	case armFormat:
		if c, ok := generateArgs(s.ag, r.next, dst, p.data, s.env.maxSize()); ok {
			return c
		}
		return mutateArgs(s.env, s.am, r.next, dst, p.data)
	case armArgs:
		return mutateArgs(s.env, s.am, r.next, dst, p.data)
	case armFair:
		if s.fm.busy() {
			return s.fm.probe(dst)
		}
		m := s.fm.maskFor(p, s.fairEdge)
		if !m.done {
			return s.fm.probe(dst)
		}
		return s.fm.child(dst, p, m)
	}
	return mutateZest(r, dst, p.data)
}

// generateNext decides whether the next child is the generation share's
// (a fresh random child outside the bandits, half of the cost) and if so
// plans it.
func (s *autoTurns) generateNext() bool {
	if s.warm && !s.warmChecked {
		// A worker replacing a dead one whose generation first had ended
		// does not start it again (a target that kills its worker more
		// often than the plateau takes would keep auto random).
		s.warmChecked = true
		if i, ok := s.env.(interface{ inherited(string) int64 }); ok {
			if i.inherited("arm_random_first_ended") > 0 {
				s.endFirst()
			} else {
				s.warmBase, s.warmLast = i.inherited("arm_random_first"), i.inherited("arm_random_first_last")
				s.warmNew = s.warmLast - s.warmBase
			}
		}
	}
	if !s.warm && (!s.hasShare() || s.genCost > s.mutCost) {
		return false
	}
	s.arm, s.pending, s.generate = armRandom, true, true
	return true
}

// settle closes a decision whose child was never executed (the loop
// skipped it as a zero mutation): no execution, nothing to credit. A
// generation share's child skipped (a killer input) was no decision and
// costs nothing.
func (s *autoTurns) settle() {
	if s.pending {
		s.pending = false
		if !s.generate {
			s.ops.charge(s.arm, autoZeroCost)
			s.sched.charge(s.sch, autoZeroCost)
		}
	}
	s.generate = false
	s.fm.settle()
}

// advance counts one more child of the turn, first starting a new turn
// when this one has had its children, and returns the parent.
func (s *autoTurns) advance() *entry {
	if s.reindex {
		// The inputs queued during generation first (bookkeepingPauser)
		// become zeugma's donors, their records made again (and kept
		// within the budget) in the order they were queued.
		s.reindex = false
		s.zg.indexNew()
	}
	if s.parent == nil || s.made >= s.turnTarget() {
		s.startTurn()
	}
	s.made++
	return s.parent
}

// turnTarget is the turn's number of children: fast's energy, or Zest's
// formula for the parent times the turn's size factor, evaluated again
// when the total coverage or the parent's favour changes.
func (s *autoTurns) turnTarget() int {
	if s.sch == schedFast {
		return s.target
	}
	if e, fav := s.env.totalEdges(), s.parent.resp > 0; e != s.zcEdges || fav != s.zcFav {
		s.zcEdges, s.zcFav, s.zc = e, fav, scaleEnergy(zestChildren(s.parent, e), s.energy)
	}
	return s.zc
}

// hasShare tells whether the run has a generation share: the random arm
// is allowed.
func (s *autoTurns) hasShare() bool { return s.opsMask&(1<<armRandom) != 0 }

// startTurn picks the parent arm and, by it, the next parent, whose
// record it then holds, and the turn's size factor (fast's energy scaled
// by it; turns and rare scale Zest's formula in turnTarget).
func (s *autoTurns) startTurn() {
	s.pickParent()
	s.energy = s.sizeFactor(s.parent)
	if s.sch == schedFast {
		s.target = scaleEnergy(s.target, s.energy)
	}
	s.env.holdParent(s.parent)
}

func (s *autoTurns) pickParent() {
	if s.parent != nil {
		s.parent.byIndex = nil // its guided children's draw index: rebuilt if it is a parent again
	}
	q := s.env.queue()
	r := s.env.rand()
	s.made, s.zcEdges = 0, -1
	s.sch = s.sched.choose(r, s.schedMask)
	switch s.sch {
	case schedFast:
		for len(s.picks) < len(q) {
			s.picks = append(s.picks, 0)
		}
		h := s.env.hits()
		best, bf, bs := -1, uint32(0), int32(0)
		for range fastTournament {
			i := r.below(len(q))
			f, n := h.path(q[i].trace), s.picks[i]
			if best < 0 || f < bf || f == bf && n < bs {
				best, bf, bs = i, f, n
			}
		}
		p := q[best]
		s.picks[best]++
		e := float64(zestChildren(p, s.env.totalEdges())) * float64(uint64(1)<<min(bs, 16)) / float64(max(bf, 1))
		s.parent, s.target = p, int(min(max(e, 1), fastMaxEnergy))
		return
	case schedRare:
		if p, _, ok := s.rare.next(); ok {
			s.parent = p
			return
		}
		// No rare input: a turn of the round robin, whose decision and
		// credit it is.
		s.sch = schedTurns
		s.sched.reassign(schedTurns)
	}
	s.qi = (s.qi + 1) % len(q)
	s.parent = q[s.qi]
}

// autoCost is the cost of an execution that read n parameter bytes (see
// the package comment).
func autoCost(n int) int64 { return int64(n) + autoCostBase }

// sizeFactor is p's energy factor: the queue's mean cost over p's,
// clamped to [autoEnergyMin, autoEnergyMax].
func (s *autoTurns) sizeFactor(p *entry) float64 {
	q := s.env.queue()
	for ; s.qSeen < len(q); s.qSeen++ {
		s.qCost += autoCost(len(q[s.qSeen].data))
	}
	mean := float64(s.qCost) / float64(max(s.qSeen, 1))
	return min(max(mean/float64(autoCost(len(p.data))), autoEnergyMin), autoEnergyMax)
}

// scaleEnergy multiplies a turn's children n by the size factor f,
// rounding to the nearest and keeping at least one child where n had one.
func scaleEnergy(n int, f float64) int {
	if n <= 0 {
		return n
	}
	return max(int(float64(n)*f+0.5), 1)
}

// autoInfo is what a queued input offers as a parent: the operator arms
// that need something of it (a record with choices: ei; with structural,
// or value, choices: struct, value; application points: zeugma; a rare
// edge: fairfuzz). It is computed when the input is first a parent, and
// again when the queue has grown (new donors) or a structural site has been
// learned, or, for the rare edge, after autoRareEvery more executions. The
// whole set of arms available (with cmp's tokens, the dictionary and the
// fairfuzz mask's state) is kept for autoAvailEvery executions: an arm that
// becomes available is offered from the next check on.
type autoInfo struct {
	at       int    // queue length when computed
	avail    uint64 // armEI, armStruct, armValue, armZeugma
	rareAt   int64  // edgeHits.seen when the rare edge was computed (-1: never)
	rare     bool
	fairEdge int
	learned  int    // structural sites learned when avail was computed
	recGen   uint32 // the parent's recGen when avail was last checked

	all     uint64 // every arm available, as of checkAt
	checkAt int64  // execNumber when all was computed (-1: never)
	masks   int64  // fairMasks.made then
}

const (
	autoRareEvery  = 1024
	autoAvailEvery = 64
)

// available returns the operator arms that can make a child of p.
func (s *autoTurns) available(p *entry) uint64 {
	in := s.infoLast
	if p != s.infoP {
		if in = s.info[p]; in == nil {
			in = &autoInfo{at: -1, rareAt: -1, checkAt: -1}
			s.info[p] = in
		}
		s.infoP, s.infoLast = p, in
	}
	if in.recGen != p.recGen && in.at >= 0 {
		// p's record was made again (tree.go). A deterministic target's
		// is the same, and so are the arms it offers, until the next
		// check as before; another target's may have no choice left,
		// and ei, struct and value could not make a child.
		in.recGen = p.recGen
		if p.rec == nil || !hasChoice(p.rec) {
			const choiceArms = 1<<armEI | 1<<armStruct | 1<<armValue
			in.avail &^= choiceArms
			in.all &^= choiceArms
		}
	}
	now := s.env.execNumber()
	q := len(s.env.queue())
	if in.at == q && in.checkAt >= 0 && now-in.checkAt < autoAvailEvery && in.masks == s.fm.made {
		return in.all
	}
	in.checkAt, in.masks = now, s.fm.made
	learned := 0
	if k := s.env.sites(); k != nil {
		learned = len(k.structural)
	}
	if in.at != q || in.learned != learned {
		in.at, in.learned, in.recGen, in.avail = q, learned, p.recGen, 0
		if p.rec != nil && len(p.data) > 0 {
			if hasChoice(p.rec) && s.bd.ei.guided() {
				in.avail |= 1 << armEI
				// struct and value only for a parent with choices of their
				// kind (an arm offered but never able to make its child
				// would never be credited, and keep its prior).
				if s.bd.splitChoices(p); len(s.bd.cand[mutStructure]) > 0 {
					in.avail |= 1 << armStruct
				}
				if len(s.bd.cand[mutValue]) > 0 {
					in.avail |= 1 << armValue
				}
			}
			s.zg.indexNew()
			if len(s.zg.pointsOf(p)) > 0 {
				in.avail |= 1 << armZeugma
			}
		}
	}
	a := in.avail | 1<<armZest | 1<<armBytes | 1<<armRandom
	if h := s.env.hits(); h != nil {
		if in.rareAt < 0 || h.seen-in.rareAt >= autoRareEvery {
			in.rareAt = h.seen
			in.fairEdge, in.rare = h.rareTarget(p)
		}
		if in.rare {
			if m := s.fm.masks[p]; m == nil || m.edge != in.fairEdge || !m.none {
				a |= 1 << armFair
			}
		}
	}
	if len(s.env.dictionary()) > 0 {
		a |= 1 << armDict
	}
	if len(p.data) > 0 && s.env.tokens() > 0 {
		a |= 1 << armCmp
	}
	if s.am != nil {
		a |= 1 << armArgs
	}
	if s.ag != nil {
		a |= 1 << armFormat
	}
	if a&s.opsMask == 0 {
		in.all = 1 << armZest
	} else {
		in.all = a & s.opsMask
	}
	return in.all
}

// offer returns the operator arms available for a child of p and tells
// the bandit what a fairfuzz decision would cost: the mask's executions
// (3 a byte of p, at most fairMaskMax bytes) when p has no mask for its
// rare edge yet, one execution (a masked child) when it has.
func (s *autoTurns) offer(p *entry) uint64 {
	a := s.available(p)
	c := 0.0
	if a&(1<<armFair) != 0 {
		c = 1
		if m := s.fm.masks[p]; m == nil || m.edge != s.infoLast.fairEdge {
			c = float64(3 * min(len(p.data), fairMaskMax))
		}
	}
	s.ops.hint(armFair, c)
	return a
}

// hasChoice reports whether rec has a draw that consumed bytes.
func hasChoice(rec *param.Record) bool {
	for i := range rec.Draws {
		if rec.Draws[i].Width > 0 {
			return true
		}
	}
	return false
}

func (s *autoTurns) lastParent() *entry {
	switch {
	case s.arm == armRandom:
		return nil
	case s.fm.busy():
		return s.fm.jobP
	}
	return s.parent
}

// executed learns structure labels from a guided child that changed one
// choice (as ei does).
func (s *autoTurns) executed(g *childGuide, out Outcome, queued *entry) {
	if i := s.bd.ei.single; i >= 0 {
		s.env.sites().learn(g.parent, &g.parent.rec.Draws[i], out.Record, out.Result)
	}
}

// found credits the execution of the decision in flight to its arms.
func (s *autoTurns) found(y yield) {
	if !s.pending {
		return
	}
	s.pending = false
	r := rewardOf(y)
	if s.generate {
		s.generate = false
		s.generated++
		s.ops.creditOutside(armRandom, r)
		if s.warm {
			s.warmUp(y)
		} else {
			s.genCost += autoCost(y.consumed)
		}
		return
	}
	s.mutCost += autoCost(y.consumed)
	if s.arm == armFair && s.fm.busy() && s.fm.out {
		s.fm.probed((y.result == Valid || y.result == Invalid) && s.env.lastHit(s.fm.job.edge))
	}
	s.ops.credit(s.arm, r)
	s.sched.credit(s.sch, r)
}

// warmUp counts a generated child of generation first, ending it when
// generation has plateaued (see above).
func (s *autoTurns) warmUp(y yield) {
	if s.firstMax > 0 && s.warmBase+s.generated >= s.firstMax {
		s.endFirst()
		s.warmEnd = s.generated
		return
	}
	if y.queued != nil && y.novelty&(newEdge|newValidEdge) != 0 {
		s.warmNew = s.generated
		return
	}
	if s.generated-s.warmNew >= max(autoWarmMin, s.warmBase+s.warmNew) {
		s.endFirst()
		s.warmEnd = s.generated
	}
}

// rewardOf is an execution's reward (see the package comment above).
func rewardOf(y yield) float64 {
	switch {
	case y.failure:
		return 1
	case y.queued == nil:
		return 0
	case y.novelty&(newEdge|newValidEdge) != 0:
		return 1
	}
	return 0.5 // +count, or a feedback domain alone
}

// stats: the arms' decisions, executions and finds (executions with a
// reward), operator arms then parent arms ("arms" and "arms_parents" list
// them), and the fairfuzz arm's masks.
func (s *autoTurns) stats(kv func(string, any)) {
	kv("arms", strings.Join(armNames, ","))
	kv("arms_parents", strings.Join(schedNames, ","))
	for _, b := range []*bandit{s.ops, s.sched} {
		for i, n := range b.names {
			kv("arm_"+n+"_chosen", b.chosen[i])
			kv("arm_"+n+"_execs", b.execs[i])
			kv("arm_"+n+"_finds", b.finds[i])
			kv("arm_"+n+"_zero", b.zero[i])
		}
	}
	kv("arm_fairfuzz_masks", s.fm.made)
	kv("arm_random_share", s.generated) // the generation share's children
	// The cost (autoCost) of the share's children and of the bandits'
	// since generation first ended: about equal.
	kv("arm_random_share_cost", s.genCost)
	kv("arm_bandits_cost", s.mutCost)
	// Generation first: the share's children made before it ended (all of
	// them while it lasts), and 1 if it ended in this worker (summed: the
	// worker slots where it ended; a restarted worker inherits the end).
	warm, ended := s.warmEnd, 0
	if s.warm {
		warm = s.generated
	}
	if s.warmEnd > 0 {
		ended = 1
	}
	kv("arm_random_first", warm)
	kv("arm_random_first_ended", ended)
	// The slot's generation-first child at its last new edge, less what
	// the dead workers of the slot left (summed with theirs: the slot's;
	// summed over the slots it means nothing).
	kv("arm_random_first_last", s.warmBase+s.warmNew-s.warmLast)
}

// armsSummary makes the final summary's lines about the arms from the
// stats keys (this run's or the workers' merged): each arm's share of the
// executions and its finds, the arms never used left out.
func armsSummary(kvs []kvPair) []string {
	list := lookup(kvs, "arms")
	if list == "" {
		return nil
	}
	line := func(names string) string {
		var total int64
		type arm struct {
			name                string
			execs, finds, share int64
		}
		var arms []arm
		for _, n := range strings.Split(names, ",") {
			e, _ := strconv.ParseInt(lookup(kvs, "arm_"+n+"_execs"), 10, 64)
			f, _ := strconv.ParseInt(lookup(kvs, "arm_"+n+"_finds"), 10, 64)
			g, _ := strconv.ParseInt(lookup(kvs, "arm_"+n+"_share"), 10, 64)
			total += e
			if e > 0 {
				arms = append(arms, arm{n, e, f, g})
			}
		}
		var parts []string
		for _, a := range arms {
			gen := ""
			if a.share > 0 {
				gen = fmt.Sprintf(", %.1f%% the generation share", 100*float64(a.share)/float64(total))
			}
			parts = append(parts, fmt.Sprintf("%s %.1f%% (%s%s)", a.name, 100*float64(a.execs)/float64(total), signature.Plural(int(a.finds), "find"), gen))
		}
		return strings.Join(parts, ", ")
	}
	out := "arms: executions and finds by operator: " + line(list)
	if p := lookup(kvs, "arms_parents"); p != "" {
		if l := line(p); l != "" { // no parent arm ran while generation first made every child
			out += "; by parent schedule: " + l
		}
	}
	if n, _ := strconv.ParseInt(lookup(kvs, "arm_random_first"), 10, 64); n > 0 {
		what := "children"
		if n == 1 {
			what = "child"
		}
		out += fmt.Sprintf("; generation first made the first %d %s", n, what)
		if lookup(kvs, "arm_random_first_ended") == "0" {
			out += " (it had not ended)"
		}
	}
	return []string{out}
}
