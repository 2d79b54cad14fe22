package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// An engine is a strategy (what to execute next) plus a feedback (what is
// worth keeping), registered by name in engines. The loop (fuzzer.loop,
// fuzzer.handle) is shared: it executes strategy.next's input, checks its
// coverage, asks feedback.keep, rechecks and saves, and hands a queued
// input to feedback.credit. Both are built from a strategyEnv, what they
// see of the fuzzer. Adding an engine is one file defining its strategy
// and feedback (or reusing some) plus one line in engines.

// A strategy makes the inputs the loop executes: for a mutation-based
// engine it picks the parent in the queue, decides how many children each
// parent gets, and makes each child.
type strategy interface {
	// next returns the input to execute next, written into dst's storage,
	// or nil to execute empty parameters (every byte then comes from the
	// executor's PRNG). It is called once per execution of the fuzzing
	// loop; for an engine that queues inputs the queue is not empty.
	next(dst []byte) []byte
}

// A feedback decides which executions are saved and what a queued input
// is credited with.
type feedback interface {
	// keep reports whether a VALID or INVALID execution that covered n
	// (coverage.check's report; valid tells the result) is saved. It is
	// called after every such execution: it must be cheap.
	keep(n novelty, valid bool) bool
	// credit is called when q[idx], saved with coverage m, has just been
	// appended to the queue (a feedback that favors inputs sets resp).
	credit(q []*entry, idx int, m *merged)
}

// A guidedStrategy makes (some of) its children as guided executions
// (guide.go): nextGuide returns the guide of the next execution, or nil to
// execute next's bytes instead; executed reports the outcome (and the
// queue entry, if the child was queued) before the next call.
type guidedStrategy interface {
	strategy
	nextGuide() *childGuide
	executed(g *childGuide, out Outcome, queued *entry)
}

// A learningStrategy learns from what the inputs it makes find: found is
// called after every execution of the loop's fuzzing phase (after
// executed, for a guided child) with what it found. A child the loop
// skips as a zero mutation is not executed: found is not called for it.
type learningStrategy interface {
	strategy
	found(y yield)
}

// yield is what one execution of the loop found.
type yield struct {
	result Result
	// queued is the entry the execution was saved as (nil: not saved);
	// novelty what it added to the coverage when the coverage feedback
	// kept it (0 with queued set: saved for a feedback domain alone).
	queued  *entry
	novelty novelty
	// failure tells whether it was a failure this run had not seen.
	failure bool
	// consumed is how many parameter bytes the execution read.
	consumed int
}

// A reportingStrategy has stats of its own (auto's arms, fairfuzz's
// masks): written to the stats file with the feedback domains' keys (and
// by a worker to its feedback file, which the supervisor merges).
type reportingStrategy interface {
	stats(kv func(string, any))
}

// A strategyEnv is what an engine's strategy and feedback see of the
// fuzzer: the random source, the queue, the inputs' size limit, guides
// for guided children, the sources of bytes a mutation may insert, the
// structure labels, and the execution being handled. They do not see the
// loop's counters and bookkeeping, the executor, the work directory,
// shared memory or the watchdog: the loop executes what they return (and
// publishes it to the watchdog or the supervisor), saves, and counts.
//
// An engine is built before Run has set everything up (the size limit,
// the feedback domains): a strategy asks for a value when it needs it
// rather than keep it from its build. Only rand is the same for the
// whole run.
type strategyEnv interface {
	// rand is the engine's random source, the run's one PRNG (its draws,
	// in order, are what makes a run reproducible).
	rand() *prng
	// queue is the queue, oldest first. It only grows (the loop appends
	// saved inputs; feedback.credit sets their resp). A strategy reads
	// it; it may drop a parent's draw index (entry.byIndex) after its
	// turn.
	queue() []*entry
	// holdParent makes p the parent whose record (entry.rec) is at hand,
	// making it again if it was dropped; the previous parent's may be
	// dropped (tree.go). Call it before reading a new parent's record.
	holdParent(p *entry)
	// peekRecord returns e's record, made again (and not kept in e) if it
	// was dropped; nil without a recorder.
	peekRecord(e *entry) *param.Record
	// totalEdges is the number of edges in the total coverage (JQF's
	// maxCoverage: zestChildren).
	totalEdges() int
	// maxSize is the inputs' size limit (Config.MaxInputSize).
	maxSize() int
	// newGuide returns a new guide for guided children (guide.go) of up
	// to maxSize bytes, or nil if the executor cannot run guided
	// executions (the strategy then makes bytes with next). The loop
	// runs the guides nextGuide returns.
	newGuide() *childGuide
	// sites are the structure labels of the choice sites (structure.go),
	// which single-choice guided children teach.
	sites() *siteKinds
	// dictionary is the literal dictionary (Config.Dictionary; may be
	// empty).
	dictionary() [][]byte
	// otherInput returns a queued input at random (nil while the queue
	// is empty), for splicing.
	otherInput() []byte
	// domainChild makes, on some calls, a child of parent in dst's
	// storage from a mutating feedback domain's tokens (cmp.go: a
	// comparison operand replaced by the value it was compared with); ok
	// is false when it made none (always without such a domain, e.g.
	// without -feedback cmp).
	domainChild(dst, parent []byte) (child []byte, ok bool)
	// handled is the execution feedback.keep is deciding on (its record,
	// if any, and consumed bytes); it is the stability recheck's
	// execution when keep is called again after one.
	handled() *Outcome
	// uniqueTrace reports whether the last VALID or INVALID execution
	// handled had a trace (set of branches, diversity.go) not seen
	// before.
	uniqueTrace() bool
	// execNumber is the number of executions so far: the same for an
	// execution and its stability recheck, so keep can tell that it is
	// asked again about the same execution.
	execNumber() int64
	// hits are the per-edge and per-path execution counts (fairfuzz.go),
	// nil unless the engine asks for them (engineDef.hits).
	hits() *edgeHits
	// lastHit reports whether the execution last run hit edge (a byte
	// of the probe map; read before the next execution).
	lastHit(edge int) bool
	// tokens is the number of mutation tokens of the mutating feedback
	// domains (-feedback cmp's operands); tokenChild makes a child of
	// parent in dst's storage with one of them (ok false: no token).
	tokens() int
	tokenChild(dst, parent []byte) (child []byte, ok bool)
}

// bookkeepingPauser is implemented by strategies that for a while make
// only fresh children and read nothing of the queue: while paused says
// so, the loop neither counts hits (engineDef.hits) nor keeps records of
// the inputs it queues (tree.go: a record is made when the input is
// first read, holdParent and peekRecord), nor calls queued. That is auto
// during generation first, which makes random's children: counting cost
// it about a quarter of its time on x/net/html, and copying records and
// indexing zeugma's donors 15% on raymond-niloptions; the strategy
// catches up with the queue when the pause ends (autoTurns.advance).
type bookkeepingPauser interface{ paused() bool }

func (s *autoTurns) paused() bool { return s.warm }

// queueWatcher is implemented by strategies that read an input's record
// when it is queued (zeugma's donor index): the loop calls queued right
// after an input is queued with a record and credited, while the record
// is at hand (past the record budget it is dropped next: tree.go).
type queueWatcher interface{ queued() }

func (s *zeugmaTurns) queued() { s.indexNew() }
func (s *autoTurns) queued()   { s.zg.indexNew() }

// loopView is the fuzzer's strategyEnv.
type loopView struct{ f *fuzzer }

func (v loopView) rand() *prng         { return v.f.r }
func (v loopView) queue() []*entry     { return v.f.queue }
func (v loopView) holdParent(p *entry) { v.f.holdParent(p) }

func (v loopView) peekRecord(e *entry) *param.Record { return v.f.peekRecord(e) }

func (v loopView) totalEdges() int      { return v.f.cov.edges }
func (v loopView) maxSize() int         { return v.f.max }
func (v loopView) sites() *siteKinds    { return v.f.sites }
func (v loopView) dictionary() [][]byte { return v.f.cfg.Dictionary }
func (v loopView) otherInput() []byte   { return v.f.randomEntry() }
func (v loopView) handled() *Outcome    { return &v.f.handled }
func (v loopView) uniqueTrace() bool    { return v.f.lastUnique }
func (v loopView) execNumber() int64    { return v.f.execs }
func (v loopView) hits() *edgeHits      { return v.f.hits }
func (v loopView) lastHit(e int) bool   { return gfzrt.Map[e&(gfzrt.MapSize-1)] != 0 }
func (v loopView) tokens() int          { return v.f.tokens() }

func (v loopView) tokenChild(dst, parent []byte) ([]byte, bool) { return v.f.tokenChild(dst, parent) }

func (v loopView) newGuide() *childGuide {
	if v.f.gex == nil {
		return nil
	}
	return newChildGuide(v.f.max)
}

func (v loopView) domainChild(dst, parent []byte) ([]byte, bool) { return v.f.domainChild(dst, parent) }

// engineDef describes a registered engine.
type engineDef struct {
	// queue tells whether saved inputs are queued (and mutated); if not,
	// they are only written to corpus/.
	queue bool
	// records tells whether queued inputs keep their draw/span record
	// (entry.rec): the structure-aware engines read them.
	records bool
	// classes is the hit-count classification of coverage keys.
	classes *[256]uint8
	// hits tells whether the loop counts the executions that hit each
	// edge and path (edgeHits: fairfuzz, auto) and keeps each queued
	// input's edges (entry.hit).
	hits bool
	// build makes the engine's strategy and feedback, which see the
	// fuzzer through env only.
	build func(env strategyEnv) (strategy, feedback)
}

// engines is the engine registry, by -engine name.
var engines = map[string]engineDef{
	// Zest as published (JQF ZestGuidance), zest.go.
	"zest": {queue: true, classes: &hobClasses, build: func(env strategyEnv) (strategy, feedback) {
		return &zestTurns{env: env}, &zestFeedback{owners: owners{}}
	}},
	// Zest_V: gfz's earlier Zest loop with AFL-style byte mutations,
	// classic.go. (That loop with Zest's mutation, gfz's zest before it
	// followed JQF, found the bugs of the examples more slowly than zest:
	// docs/ENGINE.md.)
	"bytes": {queue: true, classes: &aflClasses, build: func(env strategyEnv) (strategy, feedback) {
		other := env.otherInput
		return &classicTurns{env: env, mutate: withDictionary(env, func(dst, parent []byte) []byte { return mutateBytes(env.rand(), dst, parent, env.maxSize(), other) })},
			&classicFeedback{owners: owners{}}
	}},
	// Execution-indexed mutation on the call tree, ei.go.
	"ei": {queue: true, records: true, classes: &hobClasses, build: func(env strategyEnv) (strategy, feedback) {
		return newEITurns(env), &zestFeedback{owners: owners{}}
	}},
	// BeDivFuzz: adaptive structure-changing and structure-preserving
	// mutation, one queued valid input per structure, bediv.go.
	"bediv": {queue: true, records: true, classes: &hobClasses, build: func(env strategyEnv) (strategy, feedback) {
		t := newBedivTurns(env)
		return t, newBedivFeedback(env, t)
	}},
	// Linked crossover on the call tree with Zest's mutations, zeugma.go.
	"zeugma": {queue: true, records: true, classes: &hobClasses, build: func(env strategyEnv) (strategy, feedback) {
		return newZeugmaTurns(env), &zestFeedback{owners: owners{}}
	}},
	// RLCheck: blackbox generation guided by Q-learning over the
	// generator's choice points, rl.go.
	"rl": {queue: false, classes: &aflClasses, build: func(env strategyEnv) (strategy, feedback) {
		t := newRLTurns(env)
		return t, newRLFeedback(env, t)
	}},
	// The adaptive engine: on a gfz target fresh random generation alone
	// until it plateaus, then half of the children's cost fresh random
	// generation; for the others bandits choose the operator among the
	// other engines' and each turn's parent schedule, auto.go.
	"auto": {queue: true, hits: true, classes: &hobClasses, build: func(env strategyEnv) (strategy, feedback) {
		return newAutoTurns(env), &zestFeedback{owners: owners{}}
	}},
	// FairFuzz: parents hitting rare edges, mutation masks that keep
	// the rare edge hit, fairfuzz.go.
	"fairfuzz": {queue: true, hits: true, classes: &hobClasses, build: func(env strategyEnv) (strategy, feedback) {
		return newFairTurns(env), &zestFeedback{owners: owners{}}
	}},
	// Typed mutation of a native target's arguments, Go-like schedule and
	// trimming, args.go.
	"args": {queue: true, classes: &aflClasses, build: func(env strategyEnv) (strategy, feedback) {
		t := newArgsTurns(env)
		return argsStrategy(t), &argsFeedback{classicFeedback: classicFeedback{owners: owners{}}, t: t}
	}},
	// The QuickCheck baseline, classic.go.
	"random": {queue: false, classes: &aflClasses, build: func(env strategyEnv) (strategy, feedback) {
		return newRandomStrategy(env), &classicFeedback{}
	}},
}

// DefaultEngine is the engine used when none is named (native targets
// have their own, driver.NativeDefaultEngine): fresh generation. On the 35
// benchmarks of docs/BENCHMARKS.md (real bugs and growing targets,
// budgets of 1-5 minutes) it had the best mean rank of every engine, auto
// included, and was never significantly worse than zest, the default
// before it; the rule that chose it was written before its last round
// ("The default after the third held-out set"). It does not mutate the
// corpus: engines that build on one (zest, zeugma, auto) stay a flag away.
const DefaultEngine = "random"

// Engines returns the names of the registered engines, the default first,
// then in alphabetical order.
func Engines() []string {
	names := []string{DefaultEngine}
	for name := range engines {
		if name != DefaultEngine {
			names = append(names, name)
		}
	}
	slices.Sort(names[1:])
	return names
}

// EngineList is the registered engine names for messages: "a, b or c".
func EngineList() string {
	n := Engines()
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// Mutates reports whether the named engine ("" is DefaultEngine) mutates
// the inputs it keeps: false for random and rl, which run the seeds and
// the corpus but make every input afresh, so that feedback domains, the
// target's waypoints, seed generation and seed corpora cannot steer them.
func Mutates(name string) bool { return engines[engineName(name)].queue }

// engineName is the engine a configuration names: DefaultEngine for "".
func engineName(name string) string {
	if name == "" {
		return DefaultEngine
	}
	return name
}

// setEngine selects the named engine ("" is DefaultEngine) and makes its
// coverage, strategy and feedback.
func (f *fuzzer) setEngine(name string) error {
	name = engineName(name)
	def, ok := engines[name]
	if !ok {
		return fmt.Errorf("engine: unknown engine %q (want %s)", name, EngineList())
	}
	if def.records && f.recorder == nil {
		return fmt.Errorf("engine: engine %q needs an executor that records its draws (engine.Recorder)", name)
	}
	f.def = def
	f.recBudget = f.cfg.RecordBudget
	if f.recBudget == 0 {
		f.recBudget = DefaultRecordBudget
	}
	f.sites = newSiteKinds()
	f.div = newDiversity()
	f.cov = newCoverageWith(def.classes)
	f.hits = nil
	if def.hits {
		f.hits = newEdgeHits()
	}
	f.strat, f.fb = def.build(loopView{f})
	f.pauser, _ = f.strat.(bookkeepingPauser)
	return nil
}

// entry is a saved input of the in-memory corpus (the queue).
type entry struct {
	data  []byte // the trimmed parameter sequence
	edges int    // number of edges it hit (JQF's nonZeroCoverage)
	resp  int    // number of keys it is responsible for; favored iff > 0
	valid bool   // its saved execution was VALID

	// For engines with records (engineDef.records; tree.go): its call
	// tree, the hash of its shape, and an index of its draws by execution
	// index (built when first needed, dropped after its turn).
	// rec may be nil (dropped; tree.go): holdParent or peekRecord make it
	// again. recKept: the record budget keeps it for the run. recGen
	// counts the records made for it: what a strategy derives from a
	// record (indexes into its draws) is keyed by entry and recGen, since
	// a record made again may differ (a target that is not deterministic).
	rec     *param.Record
	shape   uint64
	byIndex map[uint64]int32
	recKept bool
	recGen  uint32

	// trace is the hash of its saved execution's set of edges
	// (diversity.go); hit lists those edges when the engine counts hits
	// (engineDef.hits).
	trace uint64
	hit   []uint32
}

// owners records, for each coverage key a feedback hands out, the index in
// the queue of the input responsible for it. It is only touched when an
// input is queued, and never iterated.
type owners map[uint32]int32

// assign makes q[idx] responsible for keys, taking each from its previous
// owner.
func (o owners) assign(q []*entry, idx int, keys []uint32) {
	e := q[idx]
	for _, k := range keys {
		if old, ok := o[k]; ok {
			q[old].resp--
		}
		o[k] = int32(idx)
		e.resp++
	}
}
