//go:build unix

package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Supervision constants.
const (
	stopGrace = 3 * time.Second
	// doneGrace is how long a worker may take to end after its engine
	// finished: the testing package then runs the fuzz target's cleanups
	// (f.Cleanup, f.TempDir), which must not hold the run for ever.
	doneGrace      = 10 * time.Second
	crashLoopLimit = 5 // deaths of one slot in a row on the same execution of the same input before it is given up
	tailSize       = 64 << 10
)

// counters are a worker's execution counters (from shared memory).
type counters struct {
	execs, valid, invalid, failing, rechecks int64
}

func (c *counters) add(o counters) {
	c.execs += o.execs
	c.valid += o.valid
	c.invalid += o.invalid
	c.failing += o.failing
	c.rechecks += o.rechecks
}

func readCounters(s *shm) counters {
	return counters{
		execs: int64(s.load(offExecs)), valid: int64(s.load(offValid)), invalid: int64(s.load(offInvalid)),
		failing: int64(s.load(offFailing)), rechecks: int64(s.load(offRechecks)),
	}
}

// slot is one worker position; it runs one process (incarnation) at a time.
type slot struct {
	// The watchdog of the running process: why the supervisor is killing
	// it (Kill: "timeout", "out of memory", "stop", killSetup), since when,
	// and its resident memory at the last tick (RSS, bytes).
	proc.Watchdog
	id          int
	shm         *shm
	path        string
	quota       int64 // executions assigned (0: no limit)
	dead        counters
	incarnation int
	resume      uint64 // WorkerSpec.Resume of the next incarnation
	tickExecs   int64  // its executions as read at the last tick
	cmd         *exec.Cmd
	tail        *proc.Tail
	running     bool
	finished    bool
	everStarted bool
	lastState   uint64
	lastSeq     uint64 // offSeq at lastState: the state repeats after a recheck, seq does not
	stateSince  time.Time
	crashStreak int
	lastCrash   string    // the input of the last crash
	stuckStreak int       // of those, in a row at the same execution
	lastCrashN  uint64    // the execution number of the last crash
	doneSince   time.Time // when the supervisor first saw its engine finished (zero: not yet)
}

type supervisor struct {
	// cutInput is the longest an input had run in a worker the run's stop
	// ended (0: none was running).
	cutInput time.Duration
	flood    signature.Flood // deaths not saved past signature.MaxMessagesPerFrames
	cfg      SupervisorConfig
	wd       *workdir.Dir
	known    map[string]string
	before   int // unique failures known at start
	newFiles []string
	// pending are the failures workers saved that are not yet announced
	// (by signature: their input paths), until their shrink is done or
	// the run has ended (workerFailure).
	pending  map[string]string
	ended    bool
	slots    []*slot
	exits    chan *slot
	start    time.Time
	max      int
	outMu    sync.Mutex
	errs     []string
	setupErr error
	ctx      context.Context

	// The per-input timeout in effect (0: none) and how it was chosen;
	// confirmTimeout is the one a new hang's re-run gets (calibrated:
	// CalibratedTimeout, above the detection's DetectionTimeout); slowest
	// is the slowest start execution the workers reported.
	timeout        time.Duration
	confirmTimeout time.Duration
	timeoutRule    string
	slowest        time.Duration

	// skip are the inputs workers no longer replay at start
	// (Config.SkipInputs): each killed a worker twice in a row.
	skip []string
	// killers are inputs the workers died on with a saved failure, which
	// the workers started from then on do not run (WorkerSpec.Avoid);
	// killersSize is their total length.
	killers     [][]byte
	killersSize int

	restarts, crashes, timeouts, ooms int
	// unconfirmed counts the timeouts that re-running their input did not
	// repeat (supervisor_crash.go, unconfirmedTimeout).
	unconfirmed    int
	unconfirmedOOM int // the same for deaths by -rss_limit_mb
	// hangPoints maps the point where a dump of a hang was interrupted
	// (signature.HangPoint) to its loop (mergeHang), learned from
	// re-runs; hangLoops are the loops of the run's hangs.
	hangPoints          map[string]signature.Loop
	hangLoops           []signature.Loop
	maxCov, maxValidCov int64
	// replayed: some worker ran all of its seeds and corpus entries (its
	// loop word's loopReplayed), so the coverage is the corpus's.
	replayed bool
	met      supMetrics // supervisor_stats.go
	stopping bool
	stopAt   time.Time
}

// Supervise runs a fuzzing campaign in cfg.Workers worker processes. Each
// worker runs the engine (Run in worker mode) on its own share of the
// executions; all share the work directory, and with several workers each
// imports the corpus entries the others save. Supervise restarts a worker
// that dies (a panic in a goroutine, a runtime fatal error, os.Exit or
// runtime.Goexit in the target, a signal), hangs for cfg.Timeout in one
// execution or exceeds cfg.RSSLimitMB, and saves a failure for the input it
// was running (read from the worker's shared memory), deduplicated by a
// signature made of the crash kind and the top user frames of the crash
// trace. It aggregates the workers' counters into the status line, stats
// and plot_data, and returns when every worker has ended (budget reached,
// ctx cancelled).
//
// The error is non-nil for setup errors (ErrNoEngine, unusable work
// directory, a worker reporting an error at start); problems during the
// run (a failure that could not be saved) are in Summary.Errors.
func Supervise(ctx context.Context, cfg SupervisorConfig) (*Summary, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.StatusInterval <= 0 {
		cfg.StatusInterval = defaultStatusEvery
	}
	s := &supervisor{cfg: cfg, exits: make(chan *slot, cfg.Workers), start: time.Now(), max: cfg.MaxInputSize, ctx: ctx}
	if s.max <= 0 {
		s.max = param.DefaultMaxSize
	}
	switch {
	case cfg.Timeout > 0:
		s.timeout, s.confirmTimeout, s.timeoutRule = cfg.Timeout, cfg.Timeout, "fixed"
	case cfg.Timeout == 0:
		s.timeout, s.confirmTimeout, s.timeoutRule = maxCalibratedTimeout, maxCalibratedTimeout, "calibrating"
	default:
		s.timeoutRule = "none"
	}
	wd, err := workdir.Open(cfg.Workdir)
	if err != nil {
		return nil, err
	}
	s.wd = wd
	wd.Codec = cfg.Codec
	// One run per work directory: two would share (and truncate) the
	// workers' shared memory files and mix their findings.
	lock, err := workdir.Lock(wd.Root)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	wd.RemoveOrphanInputs(s.warnf)
	removeFeedbackFiles(wd.Root)
	if s.known, err = wd.KnownFailures(s.warnf); err != nil {
		return nil, err
	}
	s.before = len(s.known)
	if len(cfg.DictionaryFile) > 0 {
		if err := workdir.WriteFileAtomic(filepath.Join(wd.Root, workdir.DictionaryFileName), cfg.DictionaryFile); err != nil {
			return nil, fmt.Errorf("writing the work directory's dictionary: %w", err)
		}
	}
	s.checkCorpus()
	// Shared memory files an earlier run left (killed before it could
	// remove them; the run holds the directory's lock, so none is in use).
	if stale, err := filepath.Glob(filepath.Join(wd.Root, ".gfz-worker-*.shm")); err == nil {
		for _, p := range stale {
			os.Remove(p)
		}
	}
	for i := 0; i < cfg.Workers; i++ {
		path := filepath.Join(wd.Root, fmt.Sprintf(".gfz-worker-%d.shm", i))
		m, err := createShm(path, max(s.max, MaxNativeInput)) // a native target's workers may raise their limit to its seeds
		if err != nil {
			s.closeSlots()
			return nil, err
		}
		sl := &slot{id: i, shm: m, path: path}
		if cfg.Runs > 0 {
			sl.quota = cfg.Runs / int64(cfg.Workers)
			if int64(i) < cfg.Runs%int64(cfg.Workers) {
				sl.quota++
			}
		}
		s.slots = append(s.slots, sl)
	}
	defer s.closeSlots()
	for _, sl := range s.slots {
		if sl.quota == 0 && cfg.Runs > 0 {
			sl.finished = true
			continue
		}
		s.startWorker(sl)
	}
	s.run(ctx)
	if s.setupErr != nil {
		return nil, s.setupErr
	}
	s.ended = true // every worker has exited: what they saved is final
	if err := s.writeStats("done"); err != nil {
		s.errorf("%v", err)
	}
	s.printFinal()
	return s.summary(), nil
}

func (s *supervisor) closeSlots() {
	for _, sl := range s.slots {
		sl.shm.close()
		os.Remove(sl.path)
	}
}

func (s *supervisor) printf(format string, args ...any) {
	if s.cfg.Status == nil {
		return
	}
	s.outMu.Lock()
	fmt.Fprintf(s.cfg.Status, format, args...)
	s.outMu.Unlock()
}

func (s *supervisor) warnf(format string, args ...any) {
	s.printf("gfz: warning: "+format+"\n", args...)
}

// errorf reports a problem that makes the run incomplete (the fuzz binary
// exits non-zero).
func (s *supervisor) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.errs = append(s.errs, msg)
	s.printf("gfz: ERROR: %s\n", msg)
}

// checkCorpus reports the corpus files the workers will skip.
func (s *supervisor) checkCorpus() {
	files, err := s.wd.CorpusFiles()
	if err != nil {
		s.warnf("%v", err)
		return
	}
	good := 0
	for _, p := range files {
		if _, err := s.wd.ReadInput(p); err != nil {
			s.warnf("%s", skippedCorpusText(err))
			continue
		}
		good++
	}
	if good > 0 {
		s.printf("gfz: resuming from %d corpus files in %s\n", good, s.wd.Corpus)
	}
}

// workerSeed is the seed of a worker process: cfg.Seed for worker 0's
// first process (so that one worker reproduces an in-process run), a
// mix of it with the slot and incarnation otherwise (a restarted worker
// must not replay the mutations that led to its crash).
func workerSeed(seed int64, id, incarnation int) int64 {
	if id == 0 && incarnation == 0 {
		return seed
	}
	return int64(extSeed(seed^int64(id)<<32, int64(incarnation)+1<<40))
}

func (s *supervisor) startWorker(sl *slot) {
	spec := WorkerSpec{
		ID: sl.id, Incarnation: sl.incarnation, SharedMem: sl.path,
		Seed: workerSeed(s.cfg.Seed, sl.id, sl.incarnation), Sync: s.cfg.Workers > 1,
		Skip: s.skip, Resume: sl.resume, Avoid: s.killers,
	}
	if sl.quota > 0 {
		spec.Runs = sl.quota - sl.dead.execs
		if spec.Runs <= 0 {
			sl.finished = true
			return
		}
	}
	if s.cfg.Time > 0 {
		spec.Time = s.cfg.Time - time.Since(s.start)
		if spec.Time <= 0 {
			sl.finished = true
			return
		}
	}
	sl.shm.reset()
	sl.shm.store(offWorkerID, uint64(sl.id))
	sl.shm.store(offRunStart, uint64(s.start.UnixNano()))
	sl.shm.store(offOthers, uint64(s.totals().execs)) // sl is not running: everything else
	sl.tail = &proc.Tail{Fwd: s.cfg.Status, Mu: &s.outMu, All: s.cfg.Verbose, Max: tailSize}
	cmd := s.cfg.Command(spec)
	cmd.Stderr = sl.tail
	proc.SetDeathSignal(cmd)
	proc.OwnGroup(cmd)
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		s.errorf("start worker %d: %v", sl.id, err)
		sl.finished = true
		return
	}
	sl.cmd, sl.running, sl.Kill, sl.KillAt = cmd, true, "", time.Time{}
	sl.lastState, sl.lastSeq, sl.stateSince, sl.doneSince = 0, 0, time.Now(), time.Time{}
	go func() {
		_ = cmd.Wait()
		proc.KillGroup(cmd.Process.Pid) // what the target started and left running
		s.exits <- sl
	}()
}

// run is the supervision loop.
func (s *supervisor) run(ctx context.Context) {
	tick := time.NewTicker(s.period())
	defer tick.Stop()
	lastStatus := s.start
	ctxDone := ctx.Done()
	for s.anyRunning() {
		select {
		case <-ctxDone:
			ctxDone = nil
			s.stop("stop")
		case sl := <-s.exits:
			s.exited(sl)
		case now := <-tick.C:
			if s.cfg.Time > 0 && now.Sub(s.start) >= s.cfg.Time+stopGrace && !s.stopping {
				s.stop("stop") // workers should have ended by themselves
			}
			s.calibrate()
			// What a worker needs to say when it finds a failure: the
			// executions of every other process, each live worker's
			// count read once (sl.tickExecs) for the total and for
			// what is taken out of it.
			var total int64
			for _, sl := range s.slots {
				total += sl.dead.execs
				if sl.running {
					sl.tickExecs = int64(sl.shm.load(offExecs))
					total += sl.tickExecs
				}
			}
			for _, sl := range s.slots {
				if sl.running {
					sl.shm.store(offOthers, uint64(total-sl.tickExecs))
					s.watch(sl, now)
				}
			}
			if now.Sub(lastStatus) >= s.cfg.StatusInterval {
				lastStatus = now
				s.status()
			}
		}
	}
}

// calibrate sets the calibrated timeout (Timeout 0) from the slowest start
// execution the workers published (the largest so far: it only grows).
func (s *supervisor) calibrate() {
	if s.cfg.Timeout != 0 {
		return
	}
	slowest := s.slowest
	for _, sl := range s.slots {
		slowest = max(slowest, time.Duration(sl.shm.load(offSlowest)))
	}
	if slowest == s.slowest {
		return
	}
	s.slowest = slowest
	s.timeout, s.confirmTimeout = DetectionTimeout(slowest), CalibratedTimeout(slowest)
	s.timeoutRule = fmt.Sprintf("calibrated: %d x the slowest start execution of the workers (%v), at least %v, at most %v; a new hang is confirmed by re-running its input with %v",
		calibrationFactor, slowest.Round(time.Microsecond), minDetectionTimeout, maxCalibratedTimeout, s.confirmTimeout)
	if s.cfg.Verbose {
		s.printf("gfz: per-input timeout %v (%s)\n", s.timeout, s.timeoutRule)
	}
}

// period is how often the supervisor looks at its workers.
func (s *supervisor) period() time.Duration {
	period := 50 * time.Millisecond
	if s.cfg.Timeout > 0 {
		period = max(min(period, s.cfg.Timeout/4), 5*time.Millisecond)
	}
	return period
}

func (s *supervisor) anyRunning() bool {
	for _, sl := range s.slots {
		if sl.running {
			return true
		}
	}
	return false
}

// stop asks every worker to stop (SIGINT: the engine finishes cleanly) and
// kills those still running after stopGrace.
func (s *supervisor) stop(why string) {
	if s.stopping {
		return
	}
	s.stopping, s.stopAt = true, time.Now()
	for _, sl := range s.slots {
		if sl.running {
			_ = sl.cmd.Process.Signal(os.Interrupt)
		}
	}
}

// watch checks one running worker for a hang, its memory and the stop
// deadline.
func (s *supervisor) watch(sl *slot, now time.Time) {
	if s.overAtStart(sl, now) {
		s.rssSetupError(sl, int64(sl.shm.load(offStartRSS)))
	}
	s.watchExec(sl, now)
	if sl.shm.load(offPhase) == phaseDone && sl.Kill == "" {
		if sl.doneSince.IsZero() {
			sl.doneSince = now
		} else if now.Sub(sl.doneSince) >= doneGrace {
			s.warnf("worker %d did not end %v after its engine finished: killed (a cleanup of the fuzz target, f.Cleanup, that does not return?)", sl.id, doneGrace)
			sl.Stop(sl.cmd.Process, now, "stop")
		}
	}
}

// overAtStart kills a worker that needed more than -rss_limit_mb before
// running any input, and reports whether it did.
func (s *supervisor) overAtStart(sl *slot, now time.Time) bool {
	if limit := uint64(s.cfg.RSSLimitMB) << 20; limit > 0 && sl.shm.load(offStartRSS) > limit && sl.Kill == "" {
		sl.Stop(sl.cmd.Process, now, killSetup)
		return true
	}
	return false
}

// watchExec checks one running worker's execution for a hang, its memory
// and the stop deadline. It writes only the slot, so that attend can run
// it while the supervision loop is busy elsewhere.
func (s *supervisor) watchExec(sl *slot, now time.Time) {
	st, seq := sl.shm.load(offState), sl.shm.load(offSeq)
	if st != sl.lastState || seq != sl.lastSeq {
		sl.lastState, sl.lastSeq, sl.stateSince = st, seq, now
	}
	sl.Timeout, sl.RSSLimit = s.timeout, int64(s.cfg.RSSLimitMB)<<20
	sl.Tick(sl.cmd.Process, now, st&1 != 0, sl.stateSince)
	if s.stopping && now.Sub(s.stopAt) >= stopGrace {
		sl.Stop(sl.cmd.Process, now, "stop")
	}
}

// attend runs f, a step of the supervision loop that takes long (a
// worker's death is described and shrunk by running its input in -repro
// processes: up to minutes for a hang), with a goroutine watching the
// other running workers meanwhile, so that an input hanging or a worker
// exceeding -rss_limit_mb is stopped when it happens rather than after f.
// The ends of the workers it stops are handled when f has returned (they
// wait in s.exits). f must not touch the running workers' slots.
func (s *supervisor) attend(f func()) {
	done, watcher := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watcher)
		tick := time.NewTicker(s.period())
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				for _, sl := range s.slots {
					if sl.running {
						s.overAtStart(sl, now) // the setup error is reported when it has exited
						s.watchExec(sl, now)
					}
				}
			}
		}
	}()
	defer func() {
		close(done)
		<-watcher
	}()
	f()
}

// exited handles the end of a worker process.
func (s *supervisor) exited(sl *slot) {
	sl.running = false
	c := readCounters(sl.shm)
	sl.dead.add(c)
	s.noteCov(sl)
	ps := sl.cmd.ProcessState
	code := ps.ExitCode()
	phase := sl.shm.load(offPhase)
	if s.stopping && sl.lastState&1 != 0 {
		s.cutInput = max(s.cutInput, time.Since(sl.stateSince))
	}
	if limit := uint64(s.cfg.RSSLimitMB) << 20; limit > 0 && sl.shm.load(offStartRSS) > limit && !s.stopping {
		// Ended (whatever of) before the supervisor saw that it started
		// above the limit: the limit is still unusable.
		sl.finished = true
		s.rssSetupError(sl, int64(sl.shm.load(offStartRSS)))
		return
	}
	switch {
	case phase == phaseDone:
		sl.finished = true
		if s.cfg.StopOnFailure {
			// A worker that stopped at a failure it found: announce it now,
			// not at the next status line, before another worker's death
			// can be taken for the run's first failure.
			s.refreshKnown()
		}
		if code == s.cfg.ErrorExit {
			s.errorf("worker %d ended with an error (see above)", sl.id)
			s.stop("error")
		}
		return
	case sl.Kill == killSetup:
		sl.finished = true
		return
	case sl.Kill == signature.KindOutOfMemory && sl.shm.load(offState) == 0 && !s.stopping:
		// Over the limit before running a single input: the limit is
		// below what the worker needs to start, not a failure of the
		// target.
		sl.finished = true
		s.rssSetupError(sl, sl.RSS)
		return
	case s.stopping && (phase != phaseRunning || sl.Kill == "" && !crashTrace(sl.tail.String(), ps)):
		// Stopped before or after its engine ran, or ended by the stop
		// forwarded to it in the middle of an execution: the target's
		// own interrupt handling (a signal.Notify that exits, a
		// signal.Reset), not a failure. A panic or fatal error with its
		// trace is still one.
		sl.finished = true
		return
	case phase == phaseNone && !sl.everStarted && sl.Kill == "":
		sl.finished = true
		if s.setupErr == nil {
			if code == s.cfg.ErrorExit {
				s.setupErr = fmt.Errorf("worker %d failed to start:\n%s", sl.id, strings.TrimSpace(sl.tail.String()))
			} else {
				s.setupErr = &NoEngineError{Output: strings.TrimSpace(sl.tail.String()), Exit: describeExit(ps, sl.Kill)}
			}
		}
		s.stop("setup")
		return
	case sl.Kill == "stop":
		sl.finished = true // killed while stopping: not the target's fault
		return
	}
	sl.everStarted = true
	if phase == phaseRunning {
		s.attend(func() { s.crash(sl, ps) })
	}
	if cur, _, n, _ := sl.shm.current(); s.deathStreak(sl, cur, n, sl.shm.load(offLoop)&loopStarted == 0) {
		sl.finished = true
		return
	}
	if s.stopping {
		sl.finished = true
		return
	}
	sl.incarnation++
	s.restarts++
	if p := sl.shm.load(offParent); p != 0 { // (0: it died before its first child)
		sl.resume = p // the next incarnation's turns start after its parent
	}
	s.startWorker(sl)
}

// crashTrace reports whether a worker's end (its stderr tail and exit
// state) is a Go crash with a trace (a panic, a fatal error, a fault), as
// opposed to an exit status or a signal.
func crashTrace(tail string, ps *os.ProcessState) bool {
	_, _, framed := signature.Classify(tail, ps, "")
	return framed
}

// deathStreak counts the deaths of slot sl in a row on the same input
// (cur, at the worker's execution n; atStart: before its fuzzing loop
// began) and reports whether the slot is to be given up. A worker dying
// twice in a row on one input, the second time at start, is replaying it
// (a seed or a corpus entry): the workers skip it from then on
// (killerInput). Twice in the loop is a child made again (likely where
// the inputs are small): nothing to skip or warn about. The execution
// number is not part of that match: with several workers the corpus grows
// between incarnations, and an entry's place in the replay (its n) with
// it. A slot dying crashLoopLimit times in a row on the same input at the
// same execution makes no progress (the skip did not help): it is given up
// with a warning; the failure is saved (the run exits 1). (A fuzzer that
// makes one small killing input again and again dies on it at ever later
// executions: that is progress.)
func (s *supervisor) deathStreak(sl *slot, cur []byte, n uint64, atStart bool) (giveUp bool) {
	switch {
	case string(cur) != sl.lastCrash:
		sl.lastCrash, sl.lastCrashN, sl.crashStreak, sl.stuckStreak = string(cur), n, 1, 1
	case n != sl.lastCrashN:
		sl.lastCrashN, sl.crashStreak, sl.stuckStreak = n, sl.crashStreak+1, 1
	default:
		sl.crashStreak++
		sl.stuckStreak++
	}
	if sl.crashStreak >= 2 && atStart {
		s.killerInput(sl, cur, n)
	}
	if sl.stuckStreak >= crashLoopLimit {
		s.warnf("worker %d died %d times in a row at its execution %d on the same input (a seed or corpus entry?); not restarting it", sl.id, sl.stuckStreak, n)
		return true
	}
	return false
}

// killerInput handles an input a worker died on twice in a row: one it
// replays at start (a seed or a corpus entry),
// which would kill every incarnation of the slot. Its failure is saved;
// from now on the workers skip it (WorkerSpec.Skip).
func (s *supervisor) killerInput(sl *slot, input []byte, n uint64) {
	h := skipKey(input)
	if slices.Contains(s.skip, h) {
		return
	}
	s.skip = append(s.skip, h)
	what := "a seed, or an entry of " + s.wd.Corpus
	if files, err := s.wd.CorpusFiles(); err == nil {
		for _, f := range files {
			if data, err := s.wd.ReadInput(f); err == nil && skipKey(data) == h {
				what = "the corpus entry " + f
				break
			}
		}
	}
	s.warnf("worker %d died twice in a row on the same input (the second time at its execution %d), which it replays at start "+
		"(%s; a new failure is reported above, a known one is in "+s.wd.Failures+", an unconfirmed hang or memory death in "+s.wd.Unconfirmed+"): the workers skip it from now on; "+
		"fix the target, or remove the input from the corpus", sl.id, n, what)
}

// killSetup marks a worker killed because of a setup error.
const killSetup = "setup error"

// rssSetupError stops the run: the worker needs more memory than
// -rss_limit_mb before running any input.
func (s *supervisor) rssSetupError(sl *slot, rss int64) {
	if s.setupErr == nil {
		s.setupErr = fmt.Errorf("worker %d used %d MiB of resident memory before running any input, above -rss_limit_mb %d: "+
			"set -rss_limit_mb above what the target needs to start (or 0 for no limit)", sl.id, rss>>20, s.cfg.RSSLimitMB)
	}
	s.stop("setup")
}
