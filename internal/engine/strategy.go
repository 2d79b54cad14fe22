package engine

import (
	"fmt"

	"slices"
	"strings"

	"github.com/gfz-dev/gfz/param"
)

// An engine is a strategy (what to execute next) plus a feedback (what is
// worth keeping), registered by name in engines. The loop (fuzzer.loop,
// fuzzer.handle) is shared: it executes strategy.next's input, checks its
// coverage, asks feedback.keep, rechecks and saves, and hands a queued
// input to feedback.credit. Adding an engine is one file defining its
// strategy and feedback (or reusing some) plus one line in engines.

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
	// build makes the engine's parts for f (f.r, f.max, f.queue and
	// f.cov are the state they may use).
	build func(f *fuzzer) (strategy, feedback)
}

// engines is the engine registry, by -engine name.
var engines = map[string]engineDef{
	// Zest as published (JQF ZestGuidance), zest.go.
	"zest": {queue: true, classes: &hobClasses, build: func(f *fuzzer) (strategy, feedback) {
		return &zestTurns{f: f}, &zestFeedback{owners: owners{}}
	}},
	// Zest_V: gfz's earlier Zest loop with AFL-style byte mutations,
	// classic.go. (That loop with Zest's mutation, gfz's zest before it
	// followed JQF, found the bugs of the examples more slowly than zest:
	// docs/ENGINE.md.)
	"bytes": {queue: true, classes: &aflClasses, build: func(f *fuzzer) (strategy, feedback) {
		return &classicTurns{f: f, mutate: withDictionary(f, func(dst, parent []byte) []byte { return mutateBytes(f.r, dst, parent, f.max, f.other) })},
			&classicFeedback{owners: owners{}}
	}},
	// Execution-indexed mutation on the call tree, ei.go.
	"ei": {queue: true, records: true, classes: &hobClasses, build: func(f *fuzzer) (strategy, feedback) {
		return newEITurns(f), &zestFeedback{owners: owners{}}
	}},
	// BeDivFuzz: adaptive structure-changing and structure-preserving
	// mutation, one queued valid input per structure, bediv.go.
	"bediv": {queue: true, records: true, classes: &hobClasses, build: func(f *fuzzer) (strategy, feedback) {
		t := newBedivTurns(f)
		return t, newBedivFeedback(f, t)
	}},
	// Linked crossover on the call tree with Zest's mutations, zeugma.go.
	"zeugma": {queue: true, records: true, classes: &hobClasses, build: func(f *fuzzer) (strategy, feedback) {
		return newZeugmaTurns(f), &zestFeedback{owners: owners{}}
	}},
	// RLCheck: blackbox generation guided by Q-learning over the
	// generator's choice points, rl.go.
	"rl": {queue: false, classes: &aflClasses, build: func(f *fuzzer) (strategy, feedback) {
		t := newRLTurns(f)
		return t, newRLFeedback(f, t)
	}},
	// The QuickCheck baseline, classic.go.
	"random": {queue: false, classes: &aflClasses, build: func(f *fuzzer) (strategy, feedback) {
		return randomStrategy{}, &classicFeedback{}
	}},
}

// DefaultEngine is the engine used when none is named.
const DefaultEngine = "zest"

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

// setEngine selects the named engine ("" is DefaultEngine) and makes its
// coverage, strategy and feedback.
func (f *fuzzer) setEngine(name string) error {
	if name == "" {
		name = DefaultEngine
	}
	def, ok := engines[name]
	if !ok {
		return fmt.Errorf("engine: unknown engine %q (want %s)", name, EngineList())
	}
	if def.records && f.recorder == nil {
		return fmt.Errorf("engine: engine %q needs an executor that records its draws (engine.Recorder)", name)
	}
	f.def = def
	f.sites = newSiteKinds()
	f.div = newDiversity()
	f.cov = newCoverageWith(def.classes)
	f.strat, f.fb = def.build(f)
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
	rec     *param.Record
	shape   uint64
	byIndex map[uint64]int32
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
