package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gfz-dev/gfz/param"
)

// Engine defaults.
const (
	abortHintExecs     = 100_000 // invalid executions in a row with nothing saved before the hint
	defaultStatusEvery = 3 * time.Second
)

// The calibrated per-input timeout (Timeout 0), see CalibratedTimeout.
const (
	calibrationFactor    = 20
	minCalibratedTimeout = time.Second
	maxCalibratedTimeout = 5 * time.Second
)

// CalibratedTimeout is the per-input timeout used when none is given: 20
// times the slowest execution measured while the seeds and the corpus are
// replayed at start, at least 1s and at most 5s. Until that measurement
// is made, the cap applies. The factor leaves room for inputs slower than
// the seeds and for pauses that are not hangs (garbage collection, a
// loaded machine); the floor keeps such pauses of fast targets from being
// saved as hangs; the cap bounds what each recurrence of a known hang
// costs.
func CalibratedTimeout(slowest time.Duration) time.Duration {
	return min(max(calibrationFactor*slowest, minCalibratedTimeout), maxCalibratedTimeout)
}

// calibrationRule describes a calibrated timeout for stats and messages.
func calibrationRule(slowest time.Duration, execs int) string {
	return fmt.Sprintf("calibrated: %d x the slowest of %d start executions (%v), at least %v, at most %v",
		calibrationFactor, execs, slowest.Round(time.Microsecond), minCalibratedTimeout, maxCalibratedTimeout)
}

// exitProcess ends the process after a timeout; tests replace it.
var exitProcess = os.Exit

// Execution state word shared with the watchdog: bits 2.. hold the
// execution number, bit 0 is set while Exec runs, bit 1 is set by the
// watchdog when it claims the running execution as a timeout.
const (
	stInExec  = 1
	stClaimed = 2
)

type fuzzer struct {
	cfg   Config
	ex    Executor
	def   engineDef // the engine (strategy.go)
	strat strategy
	fb    feedback
	max   int
	r     *prng
	wd    *workdir
	cov   *coverage
	queue []*entry
	known map[string]string // signature -> input path
	start time.Time

	execs, valid, invalid, failing int64
	savedBy                        [4]int64 // saves by reason
	corpusSize                     int      // random engine: inputs written to corpus/
	newFailures                    []string
	invalidStreak                  int64
	hinted                         bool
	err                            error
	stopped                        bool
	timedOut                       bool // the watchdog handled a hung execution

	// The per-input timeout (0: none), read by the watchdog, and how it was
	// chosen; slowest and calibrated are the start measurements.
	timeout     atomic.Int64
	timeoutRule atomic.Pointer[string]
	slowest     time.Duration
	calibrated  int

	child []byte
	mbuf  merged // the last save's coverage (buffers reused)
	other func() []byte

	// Stability check (see recheck).
	snapA, snapB []classWord
	rechecks     int64

	// Worker mode (cfg.SharedMem).
	shm     *shm
	seen    map[string]bool // corpus file names this worker has (cfg.Sync)
	syncDue atomic.Bool
	ppid    int

	// Shared with the background goroutine (see watch).
	state     atomic.Uint64
	cur       []byte // the input being executed, published before state
	curExt    uint64
	stop      atomic.Bool
	statusDue atomic.Bool
	wdDone    chan struct{}
	outMu     sync.Mutex // serialises status output
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
	f := &fuzzer{cfg: cfg, ex: ex, r: newPRNG(cfg.Seed), wdDone: make(chan struct{})}
	if err := f.setEngine(cfg.Engine); err != nil {
		return nil, err
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
	wd, err := openWorkdir(cfg.Workdir)
	if err != nil {
		return nil, err
	}
	f.wd = wd
	if cfg.SharedMem == "" {
		// Worker processes run under their supervisor's lock.
		lock, err := lockWorkdir(wd.root)
		if err != nil {
			return nil, err
		}
		defer lock.unlock()
		wd.removeOrphanInputs()
	}
	warn := f.warnf
	if cfg.SharedMem != "" {
		warn = func(string, ...any) {} // the supervisor reports them
	}
	if f.known, err = wd.knownFailures(warn); err != nil {
		return nil, err
	}
	f.other = f.randomEntry
	f.start = time.Now()
	if cfg.SharedMem != "" {
		if f.shm, err = openShm(cfg.SharedMem); err != nil {
			return nil, err
		}
		defer f.shm.close()
		f.ppid = os.Getppid()
		// Before any execution: a -rss_limit_mb below this is a setup
		// error (the supervisor checks).
		f.shm.store(offStartRSS, uint64(selfRSS()))
		f.shm.store(offPhase, phaseRunning)
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

	f.init()
	f.calibrate()
	if !f.stopped && f.err == nil {
		f.loop()
	}
	close(done)
	wg.Wait()
	if f.timedOut {
		// The watchdog handled a timeout and wrote the final stats.
		return f.summary(), nil
	}
	if f.shm != nil {
		f.publish()
		f.shm.store(offPhase, phaseDone)
		return f.summary(), f.err
	}
	if err := f.writeStats("done"); err != nil && f.err == nil {
		f.err = err
	}
	f.printFinal()
	return f.summary(), f.err
}

// setTimeout sets the per-input timeout (0: none) and its description.
func (f *fuzzer) setTimeout(d time.Duration, rule string) {
	f.timeout.Store(int64(d))
	f.timeoutRule.Store(&rule)
}

// calibrate ends the start measurements: in worker mode it publishes the
// slowest start execution for the supervisor; in a run with the
// calibrated timeout (Timeout 0) it sets the timeout from it.
func (f *fuzzer) calibrate() {
	if f.shm != nil {
		f.shm.store(offSlowest, uint64(max(f.slowest, 1)))
		return
	}
	if f.cfg.Timeout != 0 || f.calibrated == 0 {
		return
	}
	d := CalibratedTimeout(f.slowest)
	rule := calibrationRule(f.slowest, f.calibrated)
	f.setTimeout(d, rule)
	f.printf("gfz: per-input timeout %v (%s)\n", d, rule)
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
	return f.execExt(params, extSeed(f.cfg.Seed, f.execs), true)
}

// execExt is exec with the extension seed given; a recheck (count false)
// does not count as an execution (it is counted in f.rechecks).
func (f *fuzzer) execExt(params []byte, ext uint64, count bool) Outcome {
	n := uint64(f.execs)
	f.cur, f.curExt = params, ext
	f.state.Store(n<<2 | stInExec)
	if f.shm != nil {
		f.shm.begin(n, params, ext)
	}
	f.cov.clearMap(f.execs)
	out := f.ex.Exec(params, ext)
	if old := f.state.Swap((n + 1) << 2); old&stClaimed != 0 {
		// The watchdog declared this execution hung; it owns the rest.
		<-f.wdDone
		f.stopped, f.timedOut = true, true
	}
	if count {
		f.execs++
	}
	if f.shm != nil {
		f.shm.end(n + 1)
		f.shm.store(offExecs, uint64(f.execs))
	}
	return out
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
	n := f.cov.check(valid)
	keep := f.fb.keep(n, valid)
	if keep && !f.cfg.NoRecheck {
		out, n = f.recheck(out)
		if out.Result != Valid && out.Result != Invalid {
			f.failing++
			f.failure(out)
			return nil
		}
		valid = out.Result == Valid
		keep = f.fb.keep(n, valid)
	}
	var e *entry
	if keep {
		e = f.save(out, valid, write)
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
		f.shm.store(offValid, uint64(f.valid))
		f.shm.store(offInvalid, uint64(f.invalid))
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
	f.savedBy[f.mbuf.novelty.reason()]++
	data := append([]byte{}, out.Consumed...)
	if write {
		path, err := f.wd.saveCorpus(data)
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
	return f.enqueue(data, &f.mbuf)
}

// enqueue appends a saved input, whose coverage m describes, to the queue
// and lets the feedback credit it.
func (f *fuzzer) enqueue(data []byte, m *merged) *entry {
	e := &entry{data: data, edges: m.edges}
	f.queue = append(f.queue, e)
	f.fb.credit(f.queue, len(f.queue)-1, m)
	return e
}

func (f *fuzzer) randomEntry() []byte {
	if len(f.queue) == 0 {
		return nil
	}
	return f.queue[f.r.below(len(f.queue))].data
}

// init executes the seeds and the work directory's corpus, then makes sure
// the queue holds at least one input.
func (f *fuzzer) init() {
	var first []byte
	haveFirst := false
	run := func(data []byte, write bool) {
		t0 := time.Now()
		out := f.exec(data)
		f.slowest = max(f.slowest, time.Since(t0))
		f.calibrated++
		if !haveFirst && (out.Result == Valid || out.Result == Invalid) {
			first, haveFirst = append([]byte{}, out.Consumed...), true
		}
		f.handle(out, write)
	}
	for _, s := range f.cfg.Seeds {
		if f.done() {
			return
		}
		run(s, true)
	}
	files, err := f.wd.corpusFiles()
	if err != nil {
		f.err = err
		return
	}
	loaded := 0
	for _, path := range files {
		if f.done() {
			return
		}
		if f.seen != nil {
			f.seen[filepath.Base(path)] = true
		}
		data, err := ReadInputFile(path)
		if err != nil {
			if f.shm == nil { // workers leave the report to the supervisor
				f.warnf("skipping corrupt corpus file: %v", err)
			}
			continue
		}
		loaded++
		run(data, false)
	}
	if loaded > 0 && f.shm == nil {
		f.printf("gfz: resumed from %d corpus files in %s (%d kept)\n", loaded, f.wd.corpus, f.corpusLen())
	}
	if !f.def.queue || len(f.queue) > 0 || f.done() {
		return
	}
	// Nothing added coverage (or there were no inputs): start from the
	// first input that ran, or from one random sequence (empty parameters
	// extended by the executor).
	if !haveFirst {
		run(nil, true)
		if len(f.queue) > 0 || f.stopped || f.err != nil {
			return
		}
	}
	if _, err := f.wd.saveCorpus(first); err != nil {
		f.err = err
		return
	}
	f.enqueue(first, &merged{})
}

// loop is the fuzzing loop: the engine's strategy makes each input.
func (f *fuzzer) loop() {
	for !f.done() {
		f.child = f.strat.next(f.child)
		f.handle(f.exec(f.child), true)
	}
}

// failure records a failing execution, saving it if its signature is new.
func (f *fuzzer) failure(out Outcome) {
	info := FailureInfo{Kind: strings.ToLower(out.Result.String())}
	if out.Failure != nil {
		info = *out.Failure
	}
	sig := signatureOf(info)
	if _, ok := f.known[sig]; ok {
		return
	}
	if f.shm != nil {
		// Another worker (or the supervisor) may have saved it already.
		if in, ok := f.wd.failureSaved(sig); ok {
			f.known[sig] = in
			return
		}
	}
	if d, ok := f.ex.(ValueDescriber); ok && out.Result == Failure {
		// The re-run writes the probe map; the next execution clears all
		// of it, as after every failure.
		if v, ok := d.DescribeValues(f.cur, f.curExt, sig); ok {
			info.Value = v
		}
	}
	rep := &failureReport{
		Target: f.cfg.Target, Result: out.Result, Info: info, Signature: sig,
		Input: append([]byte{}, out.Consumed...), Exec: f.execs,
	}
	f.stamp(rep)
	path, claimed, err := f.recordFailure(rep)
	if f.shm != nil {
		f.shm.store(offFailing, uint64(f.failing))
	}
	if err != nil {
		f.err = err
		return
	}
	if !claimed {
		return // another worker saved it first and announces it
	}
	f.printf("gfz: new failure (%s): %s\n\tinput: %s\n\treport: %s\n\treproduce: %s\n",
		oneLine(info.Kind), firstLine(info.Message), path, strings.TrimSuffix(path, ".input")+".txt", rep.Repro)
	if f.cfg.StopOnFailure {
		f.stopped = true
	}
}

// stamp fills in when and by whom a failure was found. A worker knows its
// own execution count exactly and the total over all workers only as of
// the supervisor's last tick, so it reports the total (exact with one
// worker, an estimate with several) and names its own count.
func (f *fuzzer) stamp(rep *failureReport) {
	now := time.Now()
	rep.Found, rep.Into = now, now.Sub(f.start)
	if f.shm == nil {
		return
	}
	if t := f.shm.load(offRunStart); t != 0 {
		rep.Into = now.Sub(time.Unix(0, int64(t)))
	}
	// Execution numbers count from 0, as in the supervisor's messages;
	// the totals count executions (so the failing one is included).
	id, n := f.shm.load(offWorkerID), max(f.execs-1, 0)
	rep.FoundBy = fmt.Sprintf("worker %d, in its execution %d", id, n)
	total := int64(f.shm.load(offTotal)) + f.execs - int64(f.shm.load(offOwnAt))
	rep.Exec = total
	rep.ExecNote = fmt.Sprintf("%d (over all workers, as of the supervisor's last count; worker %d at its execution %d)", total, id, n)
}

// recordFailure saves a new unique failure and marks its signature known.
// claimed is false when another process saved it first.
func (f *fuzzer) recordFailure(rep *failureReport) (path string, claimed bool, err error) {
	rep.Repro = reproCommand(f.wd.failures, failureName(rep.Signature), f.cfg.Target)
	path, claimed, err = f.wd.saveFailure(rep)
	if err != nil {
		return "", false, err
	}
	f.known[rep.Signature] = path
	if claimed {
		f.newFailures = append(f.newFailures, path)
	}
	return path, claimed, nil
}

// signatureOf is the deduplication key of a failure.
func signatureOf(info FailureInfo) string {
	if info.Signature != "" {
		return info.Signature
	}
	return info.Kind + "\n" + info.Message
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// reproCommand is the command that re-runs a saved failure, with absolute
// paths (dir is the work directory's, already absolute).
func reproCommand(dir, name, target string) string {
	exe := os.Args[0]
	if p, err := os.Executable(); err == nil {
		exe = p
	} else if p, err := filepath.Abs(exe); err == nil && strings.ContainsRune(exe, os.PathSeparator) {
		exe = p
	}
	cmd := exe + " -repro " + filepath.Join(dir, name+".input")
	if target != "" {
		cmd += " " + target
	}
	return cmd
}

// watch runs beside the fuzzing loop: it turns ctx cancellation and the
// time budget into the stop flag, raises statusDue every status interval,
// and is the timeout watchdog.
func (f *fuzzer) watch(ctx context.Context, done <-chan struct{}) {
	period := min(50*time.Millisecond, f.cfg.StatusInterval)
	if f.cfg.Timeout > 0 {
		period = min(period, f.cfg.Timeout/8)
	}
	period = max(period, time.Millisecond)
	tick := time.NewTicker(period)
	defer tick.Stop()
	lastStatus, lastSync := f.start, f.start
	var seen uint64
	var seenAt time.Time
	ctxDone := ctx.Done()
	for {
		select {
		case <-done:
			return
		case <-ctxDone:
			f.stop.Store(true)
			ctxDone = nil
		case now := <-tick.C:
			if f.cfg.Time > 0 && now.Sub(f.start) >= f.cfg.Time {
				f.stop.Store(true)
			}
			if now.Sub(lastStatus) >= f.cfg.StatusInterval {
				lastStatus = now
				f.statusDue.Store(true)
			}
			if f.cfg.Sync && now.Sub(lastSync) >= syncEvery {
				lastSync = now
				f.syncDue.Store(true)
			}
			if f.shm != nil {
				// The supervisor watches for hung executions. If it died
				// (this process was re-parented), stop at once: everything
				// found is already on disk.
				if os.Getppid() != f.ppid {
					exitProcess(1)
				}
				continue
			}
			st := f.state.Load()
			if st&stInExec == 0 || st != seen {
				seen, seenAt = st, now
				continue
			}
			if to := time.Duration(f.timeout.Load()); to > 0 && now.Sub(seenAt) >= to && f.state.CompareAndSwap(st, st|stClaimed) {
				f.onTimeout(now.Sub(seenAt))
				close(f.wdDone)
				return
			}
		}
	}
}

// onTimeout handles a hung execution (the fuzzing goroutine is blocked in
// Exec and will not touch the fuzzer's state until wdDone is closed).
func (f *fuzzer) onTimeout(after time.Duration) {
	// Save the input the execution was given, extended with the same PRNG
	// bytes the executor appends, up to the cap: whatever prefix the hung
	// execution read, a replay of this input reads the same bytes.
	input := extendedInput(f.cur, f.curExt, f.max)
	stacks := allStacks()
	info := FailureInfo{
		Kind:      KindTimeout,
		Message:   fmt.Sprintf("execution %d ran for more than %v (timeout %v)", f.execs, after.Round(time.Millisecond), time.Duration(f.timeout.Load())),
		Stack:     TrimInstrumentation(stacks),
		Signature: hangSignature(stacks),
	}
	f.failing++
	rep := &failureReport{Target: f.cfg.Target, Result: Timeout, Info: info, Signature: info.Signature, Input: input, Exec: f.execs}
	f.stamp(rep)
	path := ""
	if old, ok := f.known[info.Signature]; ok {
		path = old
		rep.Repro = reproCommand(f.wd.failures, failureName(rep.Signature), f.cfg.Target)
	} else {
		var err error
		if path, _, err = f.recordFailure(rep); err != nil {
			f.warnf("%v", err)
		}
	}
	w := f.cfg.Status
	if w == nil {
		w = os.Stderr
	}
	f.outMu.Lock()
	fmt.Fprintf(w, "gfz: TIMEOUT: %s\n\tinput: %s\n", info.Message, path)
	w.Write(rep.format())
	f.outMu.Unlock()
	if err := f.writeStats("timeout"); err != nil {
		f.warnf("%v", err)
	}
	f.printFinal()
	exitProcess(1)
}

// extendedInput is params extended with the PRNG bytes the executor
// appends for extension seed ext, up to max bytes: whatever prefix an
// execution of params read, a replay of the result reads the same bytes.
func extendedInput(params []byte, ext uint64, max int) []byte {
	src := param.New(params, ext)
	src.SetMax(max)
	src.SetRecording(false)
	return src.Bytes(max)
}

// syncEvery is how often a worker with cfg.Sync imports other workers'
// corpus entries.
const syncEvery = time.Second

// syncCorpus executes the corpus files this worker has not seen yet
// (written by other workers), keeping those that add coverage.
func (f *fuzzer) syncCorpus() {
	files, err := f.wd.corpusFiles()
	if err != nil {
		return // transient (the directory is only read); try again later
	}
	for _, path := range files {
		name := filepath.Base(path)
		if f.seen[name] {
			continue
		}
		f.seen[name] = true
		data, err := ReadInputFile(path)
		if err != nil {
			continue // corrupt: reported by the supervisor at start
		}
		if f.stopped || f.err != nil || f.stop.Load() || (f.cfg.Runs > 0 && f.execs >= f.cfg.Runs) {
			return
		}
		f.handle(f.exec(data), false)
	}
}

// allStacks returns the stacks of all goroutines.
func allStacks() string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// status prints a status line and rewrites stats and plot_data (in worker
// mode: publishes the counters).
func (f *fuzzer) status() {
	if f.shm != nil {
		f.publish()
		return
	}
	el := time.Since(f.start)
	f.printf("gfz: %s\n", f.statusText(el))
	if err := f.writeStats("running"); err != nil && f.err == nil {
		f.err = err
	}
}

func (f *fuzzer) statusText(el time.Duration) string {
	return fmt.Sprintf("elapsed %v, execs %d (%.0f/s), valid %.1f%%, corpus %d, cov %d (valid %d), %s",
		el.Round(time.Second), f.execs, rate(f.execs, el), pct(f.valid, f.execs), f.corpusLen(),
		f.cov.totalKeys, f.cov.validKeys, failuresText(f.known))
}

func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// writeStats appends a plot_data row and rewrites stats and plot_data.
func (f *fuzzer) writeStats(state string) error {
	r := runStats{
		target: f.cfg.Target, engine: f.cfg.Engine, state: state, seed: f.cfg.Seed,
		start: f.start, now: time.Now(),
		execs: f.execs, valid: f.valid, invalid: f.invalid, failing: f.failing, rechecks: f.rechecks,
		corpus: f.corpusLen(), totalCov: int64(f.cov.totalKeys), validCov: int64(f.cov.validKeys),
		uniqueFailures: len(f.known), newFailures: len(f.newFailures), stability: f.cov.stability(),
		failureSites: countSites(f.known), timeout: time.Duration(f.timeout.Load()), timeoutRule: *f.timeoutRule.Load(),
	}
	return f.wd.writeRunStats(r, func(kv func(string, any)) {
		kv("saved_cov", f.savedBy[reasonCov])
		kv("saved_count", f.savedBy[reasonCount])
		kv("saved_valid", f.savedBy[reasonValid])
	})
}

// printFinal prints the end-of-run summary.
func (f *fuzzer) printFinal() {
	el := time.Since(f.start)
	f.printf("gfz: done: %s\n", f.statusText(el))
	f.printf("gfz: %s; work directory %s\n", finalFailuresText(len(f.newFailures), f.known), f.wd.root)
	for _, p := range f.newFailures {
		f.printf("gfz:\tfailure: %s\n", p)
	}
}
