package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Engine defaults.
const (
	abortHintExecs     = 100_000 // invalid executions in a row with nothing saved before the hint
	defaultStatusEvery = 3 * time.Second
)

// Execution state word shared with the watchdog: bits 2.. hold the
// execution number, bit 0 is set while Exec runs, bit 1 is set by the
// watchdog when it claims the running execution as a timeout.
const (
	stInExec  = 1
	stClaimed = 2
)

type fuzzer struct {
	cfg Config
	// replayCut: the run stopped before init ran every seed and corpus
	// entry (Summary.Partial); replayed: init ran all of them.
	replayCut, replayed bool
	killers             *killers // Config.AvoidInputs
	ex                  Executor
	def                 engineDef // the engine (strategy.go)
	strat               strategy
	fb                  feedback
	// The executor's optional abilities the structure-aware engines need
	// (nil when it has none; engines see gex as strategyEnv.newGuide).
	recorder Recorder
	gex      GuidedExecutor
	sites    *siteKinds // structure.go: what each choice site is learned to be
	hits     *edgeHits  // fairfuzz.go: executions per edge and path (engineDef.hits), or nil
	// pauser is the strategy when it may pause the counting of hits and
	// the keeping of records (a bookkeepingPauser), or nil.
	pauser bookkeepingPauser
	// Behavioural diversity (diversity.go): every VALID or INVALID
	// execution's trace is observed; lastUnique tells whether the last
	// one handled was a unique trace.
	div        *diversity
	lastUnique bool
	// fbBase are the summed stats keys (saved_*, arm_*) that the dead
	// workers of this slot left in its feedback file (domain_workers.go),
	// read at the first write when Config.Restarted.
	fbBase     []kvPair
	fbBaseRead bool
	handled    Outcome // what handle's feedback.keep is deciding on (strategyEnv.handled)
	keptCov    bool    // the coverage feedback kept the execution handle last decided on (not a domain alone)
	execSeq    uint64  // executions begun, rechecks and re-runs included (the watchdogs' clock: execExt)
	met        metrics // metrics.go: zero mutations, mutation distance
	lastParent *entry  // the parent of the last child (noteParent, resume.go)
	max        int
	r          *prng
	wd         *workdir.Dir
	cov        *coverage
	queue      []*entry
	known      map[string]string // signature -> input path
	flood      signature.Flood   // failures not saved past signature.MaxMessagesPerFrames
	start      time.Time

	execs, valid, invalid, failing int64
	savedBy                        [4]int64 // saves by reason
	corpusSize                     int      // random engine: inputs written to corpus/
	newFailures                    []string
	invalidStreak                  int64
	hinted                         bool
	err                            error
	stopped                        bool
	timedOut                       bool // the watchdog handled a hung execution
	// inertWarned tells whether the run has warned that an engine which
	// does not mutate (random, rl) kept an input for a feedback domain.
	inertWarned bool
	// extSalt is mixed into the seed of every extension seed after the
	// corpus a run resumes has been replayed (resumeSalt): 0 for a fresh
	// run.
	extSalt int64

	// The per-input timeout (0: none), read by the watchdog, and how it was
	// chosen; slowest and calibrated are the start measurements.
	timeout     atomic.Int64
	timeoutRule atomic.Pointer[string]
	slowest     time.Duration
	calibrated  int

	child []byte
	mbuf  merged // the last save's coverage (buffers reused)

	// Stability check (see recheck).
	snapA, snapB []classWord
	rechecks     int64
	// shrinkSeq numbers the candidates of the shrink under way (0: none):
	// added to the execution number execExt publishes, so that the hang
	// watchdog and the supervisor, which see a hang as the same number
	// published for longer than the timeout, see every candidate as a new
	// execution.
	shrinkSeq uint64

	// The queue's records (tree.go): the bytes kept for the run and the
	// budget for them, the parent whose record is held, and how many
	// records were dropped and made again.
	recKept, recBudget  int64
	recParent           *entry
	recDropped, recMade int64

	// Worker mode (cfg.SharedMem).
	shm     *shm
	seen    map[string]bool // corpus file names this worker has (cfg.Sync)
	syncDue atomic.Bool
	ppid    int

	// Shared with the background goroutine (see watch).
	state     atomic.Uint64
	cur       []byte // the input being executed, published before state
	curExt    uint64
	curGuide  atomic.Pointer[childGuide] // set while a guided execution runs (its input is drawn as it runs)
	stop      atomic.Bool
	statusDue atomic.Bool
	wdDone    chan struct{}
	outMu     sync.Mutex // serialises status output

	// Feedback domains (domain.go): doms[0] is the target's waypoints
	// (also waypoints); domSaved counts the inputs saved for each and not
	// for coverage; brackets and mutators are the domains with
	// per-execution hooks and those feeding mutation.
	doms      []domain
	domSaved  []int64
	waypoints *waypointDomain
	brackets  []bracketing
	mutators  []mutating
}

// Run fuzzes ex with the engine selected by cfg.Engine until ctx is
// cancelled, cfg.Runs executions or cfg.Time have passed, or (with
// cfg.StopOnFailure) a new unique failure is found. It works in
// cfg.Workdir, resuming from its corpus and known failures if present,
// and returns a summary of the run. Errors are setup errors (unknown
// engine, unusable work directory) or write errors during the run.
//
// If an execution exceeds cfg.Timeout, Run saves a TIMEOUT failure, prints
// its report, writes the final stats and exits the process with status 1:
// a hung goroutine cannot be stopped.
func Run(ctx context.Context, cfg Config, ex Executor) (*Summary, error) {
	if cfg.StackLimitMB > 0 {
		debug.SetMaxStack(cfg.StackLimitMB << 20)
	}
	f := &fuzzer{cfg: cfg, ex: ex, r: newPRNG(cfg.Seed), wdDone: make(chan struct{})}
	f.recorder, _ = ex.(Recorder)
	f.gex, _ = ex.(GuidedExecutor)
	if err := f.setEngine(cfg.Engine); err != nil {
		return nil, err
	}
	if err := f.setDomains(); err != nil {
		return nil, err
	}
	if b, ok := ex.(BriefRepeater); ok {
		b.SetBriefRepeats(true)
	}
	switch {
	case cfg.Timeout > 0:
		f.setTimeout(cfg.Timeout, "fixed")
	case cfg.Timeout == 0:
		f.setTimeout(maxCalibratedTimeout, "calibrating")
	default:
		f.setTimeout(0, "none")
	}
	if f.cfg.StatusInterval <= 0 {
		f.cfg.StatusInterval = defaultStatusEvery
	}
	f.max = cfg.MaxInputSize
	if f.max <= 0 {
		f.max = param.DefaultMaxSize
	}
	if argMutationOf(ex) != nil {
		// A native target's inputs run whole (a parameter sequence is
		// its arguments' encoding): as libFuzzer's -max_len, the size
		// limit of children grows to the longest seed, up to
		// MaxNativeInput, the room the supervisor keeps for the input
		// in flight.
		for i, s := range cfg.Seeds {
			if len(s) > MaxNativeInput && !cfg.QuietSetup {
				f.warnf("seed %d is %d bytes, above the %d-byte limit of a native target's inputs: it runs whole, but its children are cut to the limit and, should it crash the worker, the input saved is cut too", i+1, len(s), MaxNativeInput)
			}
			f.max = min(max(f.max, len(s)), MaxNativeInput)
		}
	}
	wd, err := workdir.Open(cfg.Workdir)
	if err != nil {
		return nil, err
	}
	f.wd = wd
	wd.Codec = codecOf(ex)
	// A domain that reads the process's counters (mem) needs the run
	// to have no goroutine beside the target: corpus entries are then
	// fsynced inline, not in the background.
	wd.SyncInline = f.processWide()
	if cfg.SharedMem == "" {
		// Worker processes run under their supervisor's lock.
		lock, err := workdir.Lock(wd.Root)
		if err != nil {
			return nil, err
		}
		defer lock.Unlock()
		wd.RemoveOrphanInputs(f.warnf)
	}
	warn := f.warnf
	if cfg.SharedMem != "" {
		warn = func(string, ...any) {} // the supervisor reports them
	}
	if f.known, err = wd.KnownFailures(warn); err != nil {
		return nil, err
	}
	f.start = time.Now()
	if cfg.SharedMem != "" {
		if f.shm, err = openShm(cfg.SharedMem); err != nil {
			return nil, err
		}
		defer f.shm.close()
		f.ppid = os.Getppid()
		// Before any execution: a -rss_limit_mb below this is a setup
		// error (the supervisor checks).
		f.shm.store(offStartRSS, uint64(proc.SelfRSS()))
		f.shm.store(offPhase, phaseRunning)
		liveShm.Store(f.shm)
		defer liveShm.Store(nil)
		defer dumpOnQuit()()
	}
	if cfg.Sync {
		f.seen = map[string]bool{}
	}

	if ctx.Err() != nil {
		f.stop.Store(true) // cancelled before it started: no execution
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.watch(ctx, done)
	}()

	if cfg.SeedGen > 0 || cfg.SeedGenRuns > 0 {
		f.seedPhase() // seedgen.go
	}
	f.killers = newKillers(cfg.AvoidInputs)
	f.init()
	f.replayed = !f.replayCut
	if f.replayed && f.shm != nil {
		f.shm.store(offLoop, loopReplayed)
	}
	f.calibrate()
	if !f.stopped && f.err == nil && !cfg.ReplayOnly {
		f.resumeTurns()
		f.loop()
	}
	close(done)
	wg.Wait()
	// The corpus entries are synced in the background (workdir's
	// bgsync.go): the run ends when they are durable.
	if err := f.wd.SyncCorpus(); err != nil && f.err == nil {
		f.err = err
	}
	if f.timedOut {
		// The watchdog handled a timeout and wrote the final stats.
		return f.summary(), nil
	}
	if f.shm != nil {
		f.publish()
		f.writeFeedbackFile()
		f.shm.store(offPhase, phaseDone)
		return f.summary(), f.err
	}
	if err := f.writeStats("done"); err != nil && f.err == nil {
		f.err = err
	}
	f.printFinal()
	return f.summary(), f.err
}

// publish copies the counters that change rarely to shared memory.
func (f *fuzzer) publish() {
	s := f.shm
	s.store(offCorpus, uint64(f.corpusLen()))
	s.store(offTotalCov, uint64(f.cov.totalKeys))
	s.store(offValidCov, uint64(f.cov.validKeys))
	s.store(offEdges, uint64(f.cov.edges))
	s.store(offUnstable, uint64(f.cov.unstableCovered()))
	s.store(offRechecks, uint64(f.rechecks))
	s.store(offFailing, uint64(f.failing))
}

func (f *fuzzer) summary() *Summary {
	s := &Summary{
		Execs:        f.execs,
		Valid:        f.valid,
		Invalid:      f.invalid,
		Corpus:       f.corpusLen(),
		TotalCov:     f.cov.totalKeys,
		ValidCov:     f.cov.validKeys,
		Failures:     len(f.known),
		NewFailures:  len(f.newFailures),
		Elapsed:      time.Since(f.start),
		FailureFiles: append([]string(nil), f.newFailures...),
		Stability:    f.cov.stability(),
		Partial:      f.replayCut,
	}
	if f.err != nil {
		s.Errors = append(s.Errors, f.err.Error())
	}
	return s
}

func (f *fuzzer) corpusLen() int {
	if !f.def.queue {
		return f.corpusSize
	}
	return len(f.queue)
}

// warnf reports a problem on the status writer.
func (f *fuzzer) warnf(format string, args ...any) {
	f.printf("gfz: warning: "+format+"\n", args...)
}

func (f *fuzzer) printf(format string, args ...any) {
	if f.cfg.Status == nil {
		return
	}
	f.outMu.Lock()
	fmt.Fprintf(f.cfg.Status, format, args...)
	f.outMu.Unlock()
}

// exec runs one input. It publishes the input for the watchdog, resets the
// probe map and calls the executor; the map then holds the execution's
// coverage.
func (f *fuzzer) exec(params []byte) Outcome {
	return f.execExt(params, f.ext(), true)
}

// ext is the extension seed of the execution about to run.
func (f *fuzzer) ext() uint64 { return extSeed(f.cfg.Seed^f.extSalt, f.execs) }

// execExt is exec with the extension seed given; a recheck (count false)
// does not count as an execution (it is counted in f.rechecks).
func (f *fuzzer) execExt(params []byte, ext uint64, count bool) Outcome {
	f.cur, f.curExt = params, ext
	n, seq := f.beginExec(params, ext)
	f.cov.clearMap(f.execs)
	for _, b := range f.brackets {
		b.begin()
	}
	var out Outcome
	if g := f.curGuide.Load(); g != nil {
		out = f.gex.ExecGuided(g, ext)
	} else {
		out = f.ex.Exec(params, ext)
	}
	for i := len(f.brackets) - 1; i >= 0; i-- {
		f.brackets[i].end()
	}
	f.endExec(n, seq, count)
	return out
}

// beginExec publishes an execution of params about to run. A worker
// publishes it in shared memory for the supervisor, which watches for
// hangs; a run without a supervisor publishes it in f.state for its own
// watchdog. Both watchdogs time an execution from the moment what they
// watch changes: seq, which every execution begun advances (n does not
// for a recheck, and a recheck and the execution after it would be timed
// as one).
func (f *fuzzer) beginExec(params []byte, ext uint64) (n, seq uint64) {
	n, seq = uint64(f.execs)+f.shrinkSeq, f.execSeq
	f.execSeq++
	if f.shm != nil {
		f.shm.begin(n, seq, params, ext)
	} else {
		f.state.Store(seq<<2 | stInExec)
	}
	return n, seq
}

// endExec publishes the end of the execution beginExec published,
// counting it when count is set; if the in-process watchdog declared it
// hung, the watchdog owns the rest and the loop stops.
func (f *fuzzer) endExec(n, seq uint64, count bool) {
	if f.shm == nil {
		if old := f.state.Swap((seq + 1) << 2); old&stClaimed != 0 {
			<-f.wdDone
			f.stopped, f.timedOut = true, true
		}
	}
	if count {
		f.execs++
	}
	if f.shm != nil {
		f.shm.end(n+1, uint64(f.execs))
	}
}

// watched runs fn, a run of the target on params outside the loop's
// executions (a failure's re-run that describes its values), watched by
// the hang watchdogs as an execution of params.
func (f *fuzzer) watched(params []byte, ext uint64, fn func()) {
	f.cur, f.curExt = params, ext
	n, seq := f.beginExec(params, ext)
	fn()
	f.endExec(n, seq, false)
}

// done reports whether the loop must end, and prints a due status line.
func (f *fuzzer) done() bool {
	if f.statusDue.Load() {
		f.statusDue.Store(false)
		f.status()
	}
	if f.syncDue.Load() {
		f.syncDue.Store(false)
		f.syncCorpus()
	}
	return f.stopped || f.err != nil || f.stop.Load() ||
		(f.cfg.Runs > 0 && f.execs >= f.cfg.Runs)
}

// handle processes the outcome of the execution just run: counts it,
// saves failures, and saves the inputs the engine's feedback keeps (queued
// by engines that queue; only written to corpus/ by random). write tells
// whether a saved input must be written to corpus/. It returns the queued
// entry, if any. Coverage an execution adds without being kept is merged
// too: the accumulated maps hold every VALID or INVALID execution's
// classes (a first run a recheck replaced excepted).
func (f *fuzzer) handle(out Outcome, write bool) *entry {
	if f.stopped {
		return nil
	}
	f.count(out.Result)
	if out.Result != Valid && out.Result != Invalid {
		f.failing++
		f.invalidStreak = 0
		f.failure(out)
		return nil
	}
	valid := out.Result == Valid
	var n novelty
	if f.hits != nil && !f.bookkeepingPaused() {
		var first bool
		n, first = f.cov.checkCounting(valid, &f.hits.edgeCounts)
		f.hits.counted(f.cov, first)
	} else {
		n = f.cov.check(valid)
	}
	f.lastUnique = f.div.observe(f.cov)
	f.handled = out
	keepCov := f.fb.keep(n, valid)
	imp := f.checkDomains(&f.handled, valid) // f.handled is out: &out would move out to the heap
	keep := keepCov || imp != 0
	if keep && !f.cfg.NoRecheck {
		out, n = f.recheck(out)
		if out.Result != Valid && out.Result != Invalid {
			f.failing++
			f.failure(out)
			return nil
		}
		valid = out.Result == Valid
		f.handled = out
		keepCov = f.fb.keep(n, valid)
		imp = f.checkDomains(&f.handled, valid)
		keep = keepCov || imp != 0
	}
	var e *entry
	f.keptCov = keepCov
	if keep {
		if imp != 0 && !f.inertWarned && !Mutates(f.cfg.Engine) {
			// The campaign's engine, not f.def: a seed generation phase
			// runs rl or random before a campaign that mutates.
			f.warnInert(imp)
		}
		f.commitDomains(out.Consumed, imp, keepCov)
		if e = f.save(out, valid, write); e != nil {
			f.creditDomains()
		}
	} else if n != 0 && !f.stopped {
		f.cov.merge(valid, false, &f.mbuf)
	}
	if e != nil || valid {
		f.invalidStreak = 0
	} else if f.invalidStreak++; f.invalidStreak == abortHintExecs && !f.hinted {
		f.hinted = true
		f.printf("gfz: %d executions in a row were invalid and saved nothing: likely all assumption violations "+
			"(check the target's t.Assume/t.Skip conditions and its generators); still fuzzing\n", abortHintExecs)
	}
	return e
}

// count counts a VALID or INVALID result.
func (f *fuzzer) count(r Result) {
	switch r {
	case Valid:
		f.valid++
	case Invalid:
		f.invalid++
	default:
		return
	}
	if f.shm != nil {
		f.shm.put(offValid, uint64(f.valid))
		f.shm.put(offInvalid, uint64(f.invalid))
	}
}

// recheck executes the input just run (about to be saved) a second time
// with the same extension seed and marks the edges whose class differs
// between the two runs as unstable. It returns the second outcome and its
// novelty; the map then holds the second run's coverage, which is what
// gets saved. The extra execution is counted in f.rechecks, not f.execs
// (so cfg.Runs counts distinct executions), and its result is not counted
// in valid/invalid.
func (f *fuzzer) recheck(first Outcome) (Outcome, novelty) {
	f.snapA = f.cov.snapshot(f.snapA[:0])
	params, ext := f.cur, f.curExt
	f.rechecks++
	if f.def.records && f.recorder != nil && !f.bookkeepingPaused() {
		// The second run also makes the record the queue entry keeps.
		f.recorder.SetRecording(true)
		defer f.recorder.SetRecording(false)
	}
	out := f.execExt(params, ext, false)
	if f.stopped {
		return first, 0
	}
	if out.Result != Valid && out.Result != Invalid {
		return out, 0 // a flaky failure: reported as a failure
	}
	n := f.cov.check(out.Result == Valid)
	f.snapB = f.cov.snapshot(f.snapB[:0])
	f.cov.markUnstable(f.snapA, f.snapB) // published with the save that follows
	return out, n
}

// save merges the execution's coverage and saves its consumed input.
func (f *fuzzer) save(out Outcome, valid, write bool) *entry {
	f.cov.merge(valid, f.def.queue, &f.mbuf)
	if r := f.mbuf.novelty.reason(); r != reasonNone && f.keptCov {
		f.savedBy[r]++ // an input saved for a feedback domain only is counted in f.domSaved
	}
	data := append([]byte{}, out.Consumed...)
	if write {
		path, err := f.wd.SaveCorpus(data)
		if err != nil {
			f.err = err
			return nil
		}
		if f.seen != nil {
			f.seen[filepath.Base(path)] = true
		}
	}
	if f.shm != nil {
		defer f.publish()
	}
	if !f.def.queue {
		if write {
			f.corpusSize++
		}
		return nil
	}
	return f.enqueue(data, &f.mbuf, out.Record, valid)
}

// enqueue appends a saved input, whose coverage m describes, to the queue
// and lets the feedback credit it. rec is the execution's record (may be
// nil); an engine that keeps records gets one by executing data again if
// it is missing.
func (f *fuzzer) enqueue(data []byte, m *merged, rec *param.Record, valid bool) *entry {
	e := &entry{data: data, edges: m.edges, valid: valid, trace: f.cov.trace}
	if f.hits != nil {
		e.hit = f.cov.hitEdges(nil) // before keepRecord, which may run it again
	}
	if f.def.records && !f.bookkeepingPaused() {
		f.keepRecord(e, rec)
	}
	f.queue = append(f.queue, e)
	f.fb.credit(f.queue, len(f.queue)-1, m)
	if w, ok := f.strat.(queueWatcher); ok && e.rec != nil {
		w.queued()
	}
	if e != f.recParent {
		f.releaseRecord(e) // kept within the budget, else made again when needed
	}
	return e
}

// bookkeepingPaused tells whether the strategy has paused the counting
// of hits and the keeping of records (bookkeepingPauser).
func (f *fuzzer) bookkeepingPaused() bool { return f.pauser != nil && f.pauser.paused() }

func (f *fuzzer) randomEntry() []byte {
	if len(f.queue) == 0 {
		return nil
	}
	return f.queue[f.r.below(len(f.queue))].data
}

// loop is the fuzzing loop: the engine's strategy makes each input. A
// child made by editing a parent's bytes that is a zero mutation is
// skipped (counted in the metrics, not executed); one executed child in
// distanceSampleEvery is sampled for the mutation distance, with its
// record (metrics.go).
func (f *fuzzer) loop() {
	if f.shm != nil {
		f.shm.store(offLoop, f.shm.load(offLoop)|loopStarted) // what dies from now on is not replayed at start
	}
	f.startMetrics()
	defer f.publishMetrics()
	gs, _ := f.strat.(guidedStrategy)
	bp, _ := f.strat.(byteParent)
	tp, _ := f.strat.(turnParent)
	ls, _ := f.strat.(learningStrategy)
	for !f.done() {
		nf := len(f.newFailures)
		if gs != nil {
			if g := gs.nextGuide(); g != nil {
				f.noteParent(g.parent)
				out := f.execGuided(g)
				if g.parent != nil { // rl's executions have no parent: no children
					f.met.children++
					if f.met.sampleDistance() {
						f.met.noteDistance(g.parent, out.Record, out.Consumed)
					}
				}
				e := f.handle(out, true)
				gs.executed(g, out, e)
				if ls != nil {
					ls.found(f.yieldOf(out, e, nf))
				}
				continue
			}
		}
		f.child = f.strat.next(f.child)
		var p *entry
		if bp != nil && f.def.queue {
			p = bp.lastParent()
			f.noteParent(p)
		} else if tp != nil {
			f.noteParent(tp.turnParent())
		}
		if f.skipZero(p, f.child) || f.killers != nil && f.killers.avoid(f.child) { // (the nil check keeps a call off the common path)
			continue
		}
		if p != nil && f.met.sampleDistance() && f.recorder != nil {
			f.recorder.SetRecording(true)
			out := f.exec(f.child)
			f.recorder.SetRecording(false)
			f.met.noteDistance(p, out.Record, out.Consumed)
			e := f.handle(out, true)
			if ls != nil {
				ls.found(f.yieldOf(out, e, nf))
			}
			continue
		}
		out := f.exec(f.child)
		e := f.handle(out, true)
		if ls != nil {
			ls.found(f.yieldOf(out, e, nf))
		}
	}
}

// yieldOf is what the execution whose outcome is out found: e is the
// entry handle queued (or nil), nf the number of new failures before it.
func (f *fuzzer) yieldOf(out Outcome, e *entry, nf int) yield {
	y := yield{result: out.Result, queued: e, failure: len(f.newFailures) > nf, consumed: len(out.Consumed)}
	if e != nil && f.keptCov {
		y.novelty = f.mbuf.novelty
	}
	return y
}

// execGuided runs a guided child: its parameters are drawn as it runs
// (published draw by draw for the watchdog or, in a worker, the
// supervisor: the one place a guide gets the shared memory).
func (f *fuzzer) execGuided(g *childGuide) Outcome {
	f.curGuide.Store(g)
	g.shm = f.shm
	out := f.execExt(nil, f.ext(), true)
	f.curGuide.Store(nil)
	f.cur = g.drawn() // what a recheck or DescribeValues replays
	return out
}
