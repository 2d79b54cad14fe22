package main

// The scheduled run (docs/CLI.md, "How gfz-run shares the time"): all
// targets of the packages share the cores within one budget. The rule
// (cmd/internal/sched) decides, round by round, how many cores each target
// gets; this file runs it: one fuzz binary process per target that has
// cores (its -workers = its cores), which keeps running across rounds
// while its share stays the same and is stopped (SIGINT: it saves its
// state) when it changes; the next process of that target resumes its
// work directory. It measures what each target found from its work
// directory's stats, stops every process by the end of the budget, and
// keeps what the live board, the report's index, the schedule log and
// the summary show.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/sched"
	"github.com/gfz-dev/gfz/internal/report"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// Schedules (-schedule).
const (
	scheduleAdaptive = "adaptive" // by recent yield (sched's rule)
	scheduleEqual    = "equal"    // the same runner, equal shares
	scheduleRounds   = "rounds"   // one run per target: one after the other, with -ci in parallel rounds
)

// Timing of the scheduled run.
const (
	// stopMargin is how much sooner than the end of the budget a process
	// is told to stop (its -time), for its shutdown: the final stats,
	// the coverage profile; reportMargin is added with -report.
	stopMargin   = 300 * time.Millisecond
	reportMargin = 400 * time.Millisecond
	// minSlice is the least -time a process is started with.
	minSlice = 300 * time.Millisecond
	// lateInterrupt and lateKill are how long after the end of the budget
	// a process still running gets SIGINT, then SIGKILL (with all its
	// children): the run never ends more than about a second late.
	lateInterrupt = 200 * time.Millisecond
	lateKill      = 650 * time.Millisecond
	// stopWait is how long a process stopped between rounds may take
	// before it is killed (a fuzz binary gives its workers 3 s); killWait
	// how long the runner then waits for it before going on without it
	// (its exit is handled when it comes).
	stopWait = 4 * time.Second
	killWait = 250 * time.Millisecond
	// redraw is how often the live board is redrawn.
	redraw = time.Second
	// lastRound is the least time a round leaves to the next one: less,
	// and the round lasts to the end of the budget.
	lastRound = time.Second
	// explorePhase is the rule's ExploreTime without a budget (with one,
	// a third of it).
	explorePhase = time.Minute
)

// jobRun is a target's scheduled run so far.
type jobRun struct {
	state     string // waiting, running, stopping, ended, error, not run
	procs     int    // processes started
	coreSec   float64
	cpu       float64 // CPU seconds of its ended processes, measured
	execs     int64   // executions of its ended processes
	liveExecs int64   // of its running process, as of its last stats
	cov       int64   // latest coverage, corpus and unique failures
	corpus    int64
	fails     int64
	best      [3]int64 // the most coverage, corpus, failures seen: gains are beyond them
	// covHere: cov is of a process that had replayed its corpus, of this
	// run or the one before (a process still replaying, or stopped before
	// the end of its replay, writes stats marked partial, whose coverage is
	// of part of the corpus: cov keeps the figure before it).
	covHere bool
	// perExec is how long one execution of the target takes a worker, in
	// seconds, as its last process of this run measured it (0: unknown).
	perExec   float64
	prevStart int64  // start_time of the stats its previous process owned
	maxCov    int64  // the most coverage any of its stats said (the summary's figure)
	reported  bool   // one of its processes has written its stats: its warm-up is over
	refused   bool   // it exited 2 before any of its processes wrote stats: a usage or setup error
	message   string // then its last gfz: line on stderr
	spans     []report.ScheduleSpan
	samples   []report.ScheduleSample
}

// slice is one process of a target.
type slice struct {
	job      int
	cores    int // in the rule's units
	workers  int
	seed     int64
	limit    time.Duration // its -time (0: none)
	cmd      *exec.Cmd
	start    time.Time
	end      time.Time
	lastObs  time.Time
	cpuSeen  float64 // CPU seconds told to the rule so far
	stopping bool    // asked to stop (SIGINT) by the runner
	kept     bool    // kept with more cores than the rule planned for the round that runs (keep)
	killed   bool    // killed by the runner
	code     int
	cpu      float64
	execs    int64
	gain     sched.Yield // what it found, in the CPU time it used
	out, err *lineWriter
}

// runner runs the jobs under the rule.
type runner struct {
	ctx      context.Context
	o        *options
	jobs     []*ciJob
	runs     []*jobRun
	rule     *sched.Scheduler
	mode     string
	units    int // cores, in units of unit worker processes
	unit     int
	budget   time.Duration
	perRuns  int64 // -runs of each target in all (0: none)
	seed     int64
	margin   time.Duration
	start    time.Time
	deadline time.Time // zero without a budget
	stdout   io.Writer
	stderr   io.Writer
	mu       sync.Mutex // serialises output lines
	view     *view      // the live board, nil when the output is not a terminal
	running  []*slice   // by job
	all      []*slice   // every process, in start order
	exits    chan *slice
	cpuTotal float64
	logPath  string
	live     sync.WaitGroup // the background writes of writeLive
	liveBusy atomic.Bool
}

// newRunner prepares the scheduled run of jobs on procs worker processes
// (-workers W: each core unit is W workers) within budget (0: until
// interrupted or every target reached -runs).
func newRunner(ctx context.Context, o *options, jobs []*ciJob, procs, workers int, budget time.Duration, runs, seed int64, stdout, stderr io.Writer) *runner {
	r := &runner{ctx: ctx, o: o, jobs: jobs, mode: o.schedule, budget: budget, perRuns: runs, seed: seed,
		stdout: stdout, stderr: stderr, exits: make(chan *slice, len(jobs)), running: make([]*slice, len(jobs)),
		unit: 1, units: max(procs, 1), logPath: o.schedLog}
	if workers > 0 {
		r.unit, r.units = workers, max(procs/workers, 1)
	}
	// Explore first: equal shares at the start, by yield from a third of
	// the budget on (a minute without a budget).
	p := sched.Params{ExploreTime: explorePhase.Seconds()}
	if budget > 0 {
		p.ExploreTime = budget.Seconds() / 3
	}
	if r.mode == scheduleEqual {
		p.Explore = 1
	}
	r.rule = sched.New(len(jobs), r.units, seed, p)
	r.margin = stopMargin
	if o.report.dir != "" {
		r.margin += reportMargin
	}
	for range jobs {
		r.runs = append(r.runs, &jobRun{state: "waiting"})
	}
	return r
}

// describe is the line that says how the run shares its budget.
func (r *runner) describe() string {
	if r.budget <= 0 {
		return fmt.Sprintf("no time limit, %s schedule (rounds of %v after a first round of %v each)",
			r.mode, sched.Round(0), sched.FirstRound(0, len(r.jobs), r.units))
	}
	return fmt.Sprintf("budget %v shared by the %s schedule: a first round of %v each, then rounds of %v",
		r.budget, r.mode, sched.FirstRound(r.budget, len(r.jobs), r.units), sched.Round(r.budget))
}

// shortWarning is a warning when the budget cannot give every target
// its first round ("": it can): the targets beyond what fits are marked
// "not run" in the summary, so the user learns it before the run, not
// after.
func (r *runner) shortWarning() string {
	if r.budget <= 0 {
		return ""
	}
	n := len(r.jobs)
	fits := firstPassFits(r.budget, r.margin, n, r.units)
	if fits >= n {
		return ""
	}
	// The least budget, in whole seconds, that runs them all, found by
	// trying: the first round grows with the budget (up to 2 s: 3 s a
	// round always does).
	need := r.budget.Truncate(time.Second) + time.Second
	for most := time.Duration((n+r.units-1)/r.units)*3*time.Second + 2*lastRound; need < most && firstPassFits(need, r.margin, n, r.units) < n; {
		need += time.Second
	}
	return fmt.Sprintf("gfz-run: warning: -time %v is too short for %d targets on %d core(s) (a first round of %v each, the last one lasting to the end): "+
		"about %d will run and the others are reported as \"not run\": give -time %v or more, or fewer packages\n",
		r.budget, n, r.units, sched.FirstRound(r.budget, n, r.units), fits, need)
}

// nextRound is the length d of the next round of a run with budget
// (0: none) when rem of it is left, in the first pass or not, for n
// targets on units core units; last: it is the last round (it takes the
// rest: a shorter one after it would only stop processes that could have
// gone on); end: no process can start any more (less than its shutdown
// margin and minSlice is left).
func nextRound(budget, rem, margin time.Duration, firstPass bool, n, units int) (d time.Duration, last, end bool) {
	if budget > 0 && rem < margin+minSlice {
		return 0, false, true
	}
	d = sched.Round(budget)
	if firstPass {
		d = sched.FirstRound(budget, n, units)
	}
	if budget > 0 && rem-d < lastRound {
		d, last = rem, true
	}
	return d, last, false
}

// firstPassFits is how many of n targets get their first round within
// budget on units core units, following nextRound as run does: each
// first-pass round starts units new targets, the rounds one after the
// other, each roundDelay after the previous one's end (roundDelay after
// the budget's start for the first), until the end of the budget or the
// last round, which starts new targets only if it is the first (in the
// last round no process is stopped, so no core is free for another).
func firstPassFits(budget, margin time.Duration, n, units int) int {
	units = max(units, 1)
	rem, started := budget-roundDelay, 0
	for started < n {
		d, last, end := nextRound(budget, rem, margin, true, n, units)
		if end || last && started > 0 {
			break
		}
		started += units
		if last {
			break
		}
		rem -= d + roundDelay
	}
	return min(started, n)
}

// roundDelay is firstPassFits' estimate of how much later than the
// previous one's end a round starts: the processes stopped at the end of
// a round exit and the next ones start (measured: about 20 ms on a small
// target; more on a target whose shutdown takes longer).
const roundDelay = 50 * time.Millisecond

// run runs the schedule to its end: the budget, an interrupt, or every
// target ended.
func (r *runner) run() {
	r.start = time.Now()
	if r.budget > 0 {
		r.deadline = r.start.Add(r.budget)
	}
	for i, j := range r.jobs {
		j.snapshot()
		// What the work directory held before: gains are beyond it.
		if st, _, err := workdir.ReadStats(filepath.Join(j.wd, workdir.StatsFile)); err == nil {
			jr := r.runs[i]
			jr.cov, jr.corpus, jr.fails = statInt(st, "total_cov"), statInt(st, "corpus"), statInt(st, "unique_failures")
			jr.maxCov = jr.cov
			jr.best = [3]int64{jr.cov, jr.corpus, jr.fails}
			jr.prevStart = statInt(st, "start_time")
			// A complete figure of the previous run stands over this run's
			// partial ones (a process stopped while it replays).
			jr.covHere = statInt(st, "partial") != 1
		}
	}
	r.writeLive()
	var roundStart time.Time
	for r.ctx.Err() == nil {
		now := time.Now()
		if !roundStart.IsZero() {
			// A round that ended early (a process ended by itself) is
			// owed and charged for the time it lasted.
			r.rule.EndRound(now.Sub(roundStart).Seconds())
		}
		roundStart = now
		d, last, end := nextRound(r.budget, r.deadline.Sub(now), r.margin, r.rule.FirstPass(), len(r.jobs), r.units)
		if end || !r.anyActive() {
			break
		}
		r.observe(now)
		plan := r.rule.Next(d.Seconds())
		free := r.units
		for _, sl := range r.running {
			if sl == nil {
				continue
			}
			keep := plan[sl.job] != sl.cores && !last && r.keep(sl, plan[sl.job], d)
			sl.kept = keep
			if plan[sl.job] != sl.cores && !last && !keep {
				r.stop(sl)
			} else {
				// In the last round nothing is stopped: a new process
				// would have less time than its start costs.
				free -= sl.cores
			}
		}
		r.waitStopped()
		can := func(i int) bool { return r.running[i] == nil && r.rule.Active(i) }
		for i, k := range starts(plan, free, last, can, r.worthStarting) {
			if k > 0 && r.ctx.Err() == nil {
				r.startSlice(i, k)
			}
		}
		r.writeLive()
		r.waitRound(roundEnd(now, time.Now(), d, r.deadline))
	}
	r.finish()
}

// roundEnd is when a round of length d planned at now ends, its processes
// started at started: d after now, or, when the processes stopped for it
// took more than a quarter of d to exit (an input that holds its process
// for seconds after the stop), d after started, so that the processes
// started late get their round (they were stopped a few milliseconds
// after their start, having run no input); never past the deadline (zero:
// none).
func roundEnd(now, started time.Time, d time.Duration, deadline time.Time) time.Time {
	end := now.Add(d)
	if started.Sub(now) > d/4 {
		end = started.Add(d)
	}
	if !deadline.IsZero() {
		end = minTime(end, deadline)
	}
	return end
}

// starts is how many cores each job's new process gets in a round: its
// planned cores, within the free ones (kept processes may hold more cores
// than planned, leaving fewer), for the jobs that have no process and may
// start (can). In the last round a job whose start would not pay (worth
// false: its earlier process's figures stand) is not started, and the
// cores left go, one at a time in turn, to the jobs started in that round,
// or, when none is, to the jobs the plan left out that can start and
// would pay, in job order: the last round is often the longest, and the
// cores would idle in it.
func starts(plan []int, free int, last bool, can, worth func(int) bool) []int {
	out := make([]int, len(plan))
	for i, k := range plan {
		if k <= 0 || !can(i) || last && !worth(i) {
			continue
		}
		k = min(k, free)
		if k <= 0 {
			break
		}
		out[i], free = k, free-k
	}
	if !last || free == 0 {
		return out
	}
	var takers []int
	for i, k := range out {
		if k > 0 {
			takers = append(takers, i)
		}
	}
	if len(takers) == 0 {
		for i := range plan {
			if can(i) && worth(i) && len(takers) < free {
				takers = append(takers, i)
			}
		}
	}
	for n := 0; free > 0 && len(takers) > 0; n++ {
		out[takers[n%len(takers)]]++
		free--
	}
	return out
}

// startCost is how long a fuzz binary's process takes to start its
// workers, about, before it runs its first input.
const startCost = 300 * time.Millisecond

// restartCost estimates how long a new process of job i spends before it
// fuzzes: its start, and each worker's replay of the work directory's
// corpus at the execution time its last process measured.
func (r *runner) restartCost(i int) time.Duration {
	jr := r.runs[i]
	return startCost + time.Duration(float64(jr.corpus)*jr.perExec*float64(time.Second))
}

// worthStarting reports whether a process of job i started in the last
// round would fuzz: the target has not run yet, or its start and replay
// take at most half of the time left (else its earlier process's figures
// and profile stand).
func (r *runner) worthStarting(i int) bool {
	return r.runs[i].procs == 0 || r.restartCost(i) <= time.Until(r.deadline)/2
}

// keep reports whether the running process sl stays as it is for the next
// round, of length d, although the rule plans k cores for its target
// instead of its own: its target keeps some but fewer cores (0 < k <
// sl.cores), a new process would spend more than a quarter of the round
// starting and replaying the corpus (a slow target with a large corpus),
// which a restart at every change of its share would spend again and
// again, and it was not kept the round before. Its cores count as used:
// the targets started after it get what is left, for that round only (the
// rule, which debits what it planned, plans the same again: a process
// kept round after round starved another target for the rest of a run).
// A target whose share grows is restarted whatever the cost: keeping it
// would leave the cores it was planned idle.
func (r *runner) keep(sl *slice, k int, d time.Duration) bool {
	return k > 0 && k < sl.cores && !sl.kept && r.restartCost(sl.job) > d/4
}

func (r *runner) anyActive() bool {
	for i := range r.jobs {
		if r.rule.Active(i) {
			return true
		}
	}
	return false
}

// startSlice starts a process of job i on k core units.
func (r *runner) startSlice(i, k int) {
	j, jr := r.jobs[i], r.runs[i]
	now := time.Now()
	sl := &slice{job: i, cores: k, workers: k * r.unit, start: now, lastObs: now, seed: r.seed}
	if jr.procs > 0 {
		sl.seed = mixSeed(r.seed, i, jr.procs)
	}
	if r.budget > 0 {
		sl.limit = r.deadline.Sub(now) - r.margin
		if sl.limit < minSlice {
			return
		}
		sl.limit = sl.limit.Truncate(time.Millisecond)
	}
	args := slices.Clone(j.args)
	if s := slices.Index(args, "-seed"); s >= 0 && s+1 < len(args) {
		args[s+1] = strconv.FormatInt(sl.seed, 10)
	}
	args = append(args, "-workers", strconv.Itoa(sl.workers))
	if sl.limit > 0 {
		args = append(args, "-time", sl.limit.String())
	}
	if r.perRuns > 0 {
		left := r.perRuns - jr.execs
		if left <= 0 {
			r.rule.Remove(i)
			jr.state = "ended"
			return
		}
		args = append(args, "-runs", strconv.FormatInt(left, 10))
	}
	args = append(args, j.target)
	if r.view == nil || r.o.verbose {
		r.printf(r.stdout, "gfz-run: %s %s (in %s)\n", filepath.Base(j.bin.Output), strings.Join(args, " "), j.bin.Dir)
	}
	prefix := "[" + j.label() + "] "
	first := jr.procs == 0
	sl.out = &lineWriter{mu: &r.mu, w: r.stdout, prefix: prefix}
	sl.err = &lineWriter{mu: &r.mu, w: r.stderr, prefix: prefix}
	if r.view != nil {
		sl.out.w, sl.err.w = r.view.stream, r.view.stream
		sl.out.keep = childLineFilter(first, r.o.verbose)
		sl.err.keep = sl.out.keep
	}
	cmd := exec.Command(j.bin.Output, args...)
	cmd.Dir = j.bin.Dir
	cmd.Stdout, cmd.Stderr = sl.out, sl.err
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		r.printf(r.stderr, "gfz-run: starting %s: %v\n", j.bin.Output, err)
		j.code = 2
		jr.state = "error"
		r.rule.Remove(i)
		return
	}
	sl.cmd = cmd
	j.ran = true
	jr.procs++
	jr.state = "running"
	r.running[i] = sl
	r.all = append(r.all, sl)
	go func() {
		_ = cmd.Wait()
		r.exits <- sl
	}()
}

// mixSeed is the seed of a target's later processes: a new one each, so
// that a resumed run does not repeat its mutations, derived from the run's
// seed, the target and the process number.
func mixSeed(seed int64, job, n int) int64 {
	x := uint64(seed) ^ uint64(job+1)*0x9e3779b97f4a7c15 ^ uint64(n)*0xbf58476d1ce4e5b9
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return int64(x>>33) + 1 // positive, at most 2^31
}

// stop asks a process to stop: it saves its state and exits.
func (r *runner) stop(sl *slice) {
	if sl.stopping {
		return
	}
	sl.stopping = true
	r.runs[sl.job].state = "stopping"
	interrupt(sl.cmd)
}

// waitStopped waits for the processes asked to stop to exit: those still
// running after stopWait, or at the end of the budget's grace, are
// killed, and killWait later the runner goes on without them (their
// targets do not run until they have exited).
func (r *runner) waitStopped() {
	limit := time.Now().Add(stopWait)
	if !r.deadline.IsZero() {
		limit = minTime(limit, r.deadline.Add(lateKill))
	}
	timer := time.NewTimer(time.Until(limit))
	defer timer.Stop()
	killed := false
	for {
		waiting := false
		for _, sl := range r.running {
			if sl != nil && sl.stopping && !sl.killed {
				waiting = true
			}
		}
		if !waiting {
			return
		}
		select {
		case sl := <-r.exits:
			r.ended(sl)
		case <-timer.C:
			if killed {
				return
			}
			for _, sl := range r.running {
				if sl != nil && sl.stopping {
					sl.killed = true
					kill(sl.cmd)
				}
			}
			killed = true
			timer.Reset(killWait)
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// waitRound waits until end, handling the processes that exit meanwhile;
// it returns early when a process ended by itself (its cores are free) or
// the run is interrupted.
func (r *runner) waitRound(end time.Time) {
	timer := time.NewTimer(time.Until(end))
	defer timer.Stop()
	tick := time.NewTicker(redraw)
	defer tick.Stop()
	for {
		select {
		case sl := <-r.exits:
			r.ended(sl)
			return
		case <-timer.C:
			return
		case <-r.ctx.Done():
			return
		case <-tick.C:
			r.observeLive()
			r.draw()
		}
	}
}

// finish waits for the running processes: they end by themselves at the
// end of the budget (their -time); one still running lateInterrupt after
// it gets SIGINT, and lateKill after it is killed with its children. On
// an interrupt every process gets SIGINT at once.
func (r *runner) finish() {
	interrupted := false
	var lateInt, lateK <-chan time.Time
	if !r.deadline.IsZero() {
		t1 := time.NewTimer(time.Until(r.deadline.Add(lateInterrupt)))
		t2 := time.NewTimer(time.Until(r.deadline.Add(lateKill)))
		defer t1.Stop()
		defer t2.Stop()
		lateInt, lateK = t1.C, t2.C
	}
	var killAfter, giveUp, giveUpKilled <-chan time.Time
	if !r.deadline.IsZero() {
		// Killed and not reaped by then: gfz-run ends without them.
		t3 := time.NewTimer(time.Until(r.deadline.Add(lateKill + killWait)))
		defer t3.Stop()
		giveUp = t3.C
	}
	tick := time.NewTicker(redraw)
	defer tick.Stop()
	stopWaiting := func() {
		if giveUpKilled == nil {
			giveUpKilled = time.After(killWait)
		}
	}
wait:
	for {
		if r.ctx.Err() != nil && !interrupted {
			interrupted = true
			for _, sl := range r.running {
				if sl != nil {
					r.stop(sl)
				}
			}
			t := time.NewTimer(stopWait)
			defer t.Stop()
			killAfter = t.C
		}
		if r.count() == 0 {
			break
		}
		done := r.ctx.Done()
		if interrupted {
			done = nil
		}
		select {
		case sl := <-r.exits:
			r.ended(sl)
		case <-done:
		case <-lateInt:
			for _, sl := range r.running {
				if sl != nil {
					r.stop(sl)
				}
			}
		case <-lateK:
			r.killAll()
			stopWaiting()
		case <-killAfter:
			r.killAll()
			stopWaiting()
		case <-giveUp:
			r.abandonAll()
			break wait
		case <-giveUpKilled:
			r.abandonAll()
			break wait
		case <-tick.C:
			r.observeLive()
			r.draw()
		}
	}
	for i, jr := range r.runs {
		if jr.procs == 0 && jr.state != "error" {
			jr.state = "not run"
		} else if jr.state == "waiting" || jr.state == "running" || jr.state == "stopping" {
			jr.state = "done"
		}
		j := r.jobs[i]
		j.stats, _, _ = workdir.ReadStats(filepath.Join(j.wd, workdir.StatsFile))
		j.coreSec, j.cpu, j.execs, j.sliced = jr.coreSec, jr.cpu, jr.execs, true
		j.cov = max(jr.maxCov, statInt(j.stats, "total_cov"))
	}
	r.live.Wait()
	r.writeLog()()
	if r.o.report.dir != "" {
		r.o.report.sched = r.schedule(false)
	}
}

// abandonAll gives up waiting for the processes still running, killed
// and not reaped (stuck in the kernel, say on a slow disk): gfz-run ends
// without them.
func (r *runner) abandonAll() {
	for _, sl := range r.running {
		if sl != nil {
			sl.killed = true
			kill(sl.cmd)
			r.abandon(sl)
		}
	}
}

// abandon records a killed process that has not exited as ended now, its
// CPU time as last read.
func (r *runner) abandon(sl *slice) {
	now := time.Now()
	sl.end, sl.cpu, sl.code = now, sl.cpuSeen, -1
	jr := r.runs[sl.job]
	jr.coreSec += float64(sl.workers) * now.Sub(sl.lastObs).Seconds()
	jr.cpu += sl.cpu
	jr.execs += sl.execs
	jr.liveExecs = 0
	jr.spans = append(jr.spans, report.ScheduleSpan{From: sl.start.Sub(r.start), To: now.Sub(r.start), Cores: sl.workers})
	r.running[sl.job] = nil
}

// refusal returns, when the fuzz binary of every target refused to fuzz
// it (its first process exited 2 before writing any stats: a usage or
// setup error, the same for all as a rule), what to say instead of a
// summary of rows that never ran; "" otherwise (and after an interrupt).
func (r *runner) refusal() string {
	if len(r.runs) == 0 || r.ctx.Err() != nil {
		return ""
	}
	var msgs []string
	for _, jr := range r.runs {
		if !jr.refused {
			return ""
		}
		if !slices.Contains(msgs, jr.message) {
			msgs = append(msgs, jr.message)
		}
	}
	s := "gfz-run: nothing fuzzed: the fuzz binary of every target exited with status 2 before fuzzing (a usage or setup error, see above)"
	if len(msgs) == 1 && msgs[0] != "" {
		s += ": " + msgs[0]
	}
	return s + "\n"
}

// close erases the live board: the summary follows in plain lines.
func (r *runner) close() {
	if r.view != nil {
		r.view.board.Close()
	}
}

func (r *runner) killAll() {
	for _, sl := range r.running {
		if sl != nil {
			sl.killed = true
			kill(sl.cmd)
		}
	}
}

func (r *runner) count() int {
	n := 0
	for _, sl := range r.running {
		if sl != nil {
			n++
		}
	}
	return n
}

// observe tells the rule what each running process found since the last
// observation, in the CPU time it used since then.
func (r *runner) observe(now time.Time) {
	for _, sl := range r.running {
		if sl != nil && !sl.stopping {
			r.observeSlice(sl, now, false)
		}
	}
}

// observeLive refreshes the live figures of the running processes (for
// the board) without telling the rule.
func (r *runner) observeLive() {
	for _, sl := range r.running {
		if sl != nil {
			r.readFigures(sl, false, false)
		}
	}
}

// observeSlice reads sl's work directory and tells the rule what sl found
// since its last observation, in the time it cost meanwhile: the cores'
// time it held, or its CPU time when more (final: it has exited, and
// sl.cpu is its CPU time in all).
func (r *runner) observeSlice(sl *slice, now time.Time, final bool) {
	jr := r.runs[sl.job]
	// Up to and including the first report of its own, what a target
	// finds is its warm-up.
	warm := !jr.reported
	y := r.readFigures(sl, final, true)
	y.WarmUp = warm
	// The rule is told the cores' time the process held (worker
	// processes x time), or its CPU time when more (a target running
	// goroutines of its own): a target that sleeps or waits holds its
	// cores all the same, and ranked by its CPU time alone it would look
	// cheap and get every core to idle on.
	held := float64(sl.workers) * now.Sub(sl.lastObs).Seconds()
	cpu, ok := sl.cpu, final
	if !final {
		cpu, ok = groupCPU(sl.cmd.Process.Pid)
	}
	if ok {
		y.CPU = max(cpu-sl.cpuSeen, 0, held)
		sl.cpuSeen = max(cpu, sl.cpuSeen)
	} else {
		// No CPU time to read.
		y.CPU = held
		sl.cpuSeen += y.CPU
	}
	jr.coreSec += held
	sl.lastObs = now
	sl.gain.CPU += y.CPU
	sl.gain.Coverage += y.Coverage
	sl.gain.Corpus += y.Corpus
	sl.gain.Failures += y.Failures
	r.rule.Observe(sl.job, y)
	r.sample(sl.job, now)
}

// readFigures reads the stats of sl's work directory and, if gains, returns
// what is beyond the most seen so far (and counts it as seen). Stats
// written by an earlier process (this one has not written its own yet)
// add nothing: their figures are no more than those seen.
func (r *runner) readFigures(sl *slice, final, gains bool) sched.Yield {
	jr := r.runs[sl.job]
	st, _, err := workdir.ReadStats(filepath.Join(r.jobs[sl.job].wd, workdir.StatsFile))
	if err != nil {
		return sched.Yield{}
	}
	partial, own := statInt(st, "partial") == 1, statInt(st, "start_time") >= r.start.Unix()
	if !partial || !jr.covHere {
		jr.cov = statInt(st, "total_cov")
		jr.covHere = !partial
	}
	jr.maxCov = max(jr.maxCov, jr.cov)
	jr.corpus, jr.fails = statInt(st, "corpus"), statInt(st, "unique_failures")
	if execs := statInt(st, "execs"); own && execs > 0 {
		if el, ok := st.Float("elapsed_s"); ok {
			jr.perExec = el * float64(max(statInt(st, "workers"), 1)) / float64(execs)
		}
	}
	start := statInt(st, "start_time")
	mine := start >= sl.start.Unix() && start != jr.prevStart
	if pid := statInt(st, "fuzzer_pid"); pid != 0 && sl.cmd != nil && sl.cmd.Process != nil {
		// The process that wrote them: a process restarted within the
		// second its predecessor started has its start_time, and its
		// executions were taken for the predecessor's (not counted).
		mine = int(pid) == sl.cmd.Process.Pid
	}
	if mine {
		sl.execs = statInt(st, "execs")
		jr.liveExecs = sl.execs
		if gains && !partial {
			jr.reported = true // its warm-up ends with its first report after its replay
		}
		if final {
			jr.prevStart = start
		}
	}
	var y sched.Yield
	if !gains || partial {
		return y // a process still replaying its corpus finds nothing new
	}
	y.Coverage = max(0, jr.cov-jr.best[0])
	y.Corpus = max(0, jr.corpus-jr.best[1])
	y.Failures = max(0, jr.fails-jr.best[2])
	jr.best = [3]int64{max(jr.best[0], jr.cov), max(jr.best[1], jr.corpus), max(jr.best[2], jr.fails)}
	return y
}

// ended handles the exit of a process.
func (r *runner) ended(sl *slice) {
	now := time.Now()
	sl.end = now
	sl.out.flush()
	sl.err.flush()
	r.jobs[sl.job].skip = r.jobs[sl.job].skip || sl.err.skipped
	ps := sl.cmd.ProcessState
	sl.cpu = (ps.UserTime() + ps.SystemTime()).Seconds()
	r.cpuTotal += sl.cpu
	r.observeSlice(sl, now, true)
	i := sl.job
	j, jr := r.jobs[i], r.runs[i]
	r.running[i] = nil
	jr.cpu += sl.cpu
	jr.execs += sl.execs
	jr.liveExecs = 0
	jr.spans = append(jr.spans, report.ScheduleSpan{From: sl.start.Sub(r.start), To: now.Sub(r.start), Cores: sl.workers})
	code := ps.ExitCode()
	sl.code = code
	byItself := !sl.stopping && !sl.killed && r.ctx.Err() == nil &&
		(sl.limit == 0 || now.Before(sl.start.Add(sl.limit-time.Second)))
	switch {
	case sl.killed:
		// Killed by the runner at the end: not the target's doing.
		jr.state = "waiting"
	case code < 0 && sl.stopping && diedOfInterrupt(ps):
		// Asked to stop before its handler was set up (it had just
		// started): it had nothing to save, and it stopped as asked.
		sl.code = 0
		jr.state = "waiting"
	case code < 0:
		// Killed by a signal the runner did not send (its own are the
		// cases above): an error, as an exit status 2 is, and not run
		// again (an out-of-memory kill would likely recur).
		r.printf(r.stderr, "gfz-run: %s %s: %s; not run again\n", j.bin.Package, j.target, signalDeath(ps))
		j.code = max(j.code, 2)
		jr.state = "error"
		r.rule.Remove(i)
		return
	case code >= 2:
		r.printf(r.stderr, "gfz-run: %s %s exited with status %d; not run again\n", j.bin.Package, j.target, code)
		j.code = max(j.code, code)
		jr.state = "error"
		// Gone before any of its processes wrote stats (earlier ones
		// may have been stopped at once, between rounds): the binary
		// refused its command line or its setup (a usage error).
		jr.refused = code == 2 && !jr.reported
		jr.message = sl.err.lastGfz
		r.rule.Remove(i)
		return
	default:
		j.code = max(j.code, code)
		jr.state = "waiting"
	}
	if r.perRuns > 0 && jr.execs >= r.perRuns {
		byItself = true
	}
	if byItself && jr.state != "error" {
		// It ended before its time: every worker gave up, or -runs is
		// reached. It is not run again.
		jr.state = "ended"
		r.rule.Remove(i)
	}
}

// sample records job i's figures now, for the report's charts.
func (r *runner) sample(i int, now time.Time) {
	jr := r.runs[i]
	s := report.ScheduleSample{At: now.Sub(r.start), Coverage: jr.cov, Corpus: jr.corpus, Failures: jr.fails, Share: r.share(i, now)}
	if n := len(jr.samples); n > 0 && jr.samples[n-1].At > s.At-500*time.Millisecond {
		jr.samples[n-1] = s
		return
	}
	jr.samples = append(jr.samples, s)
}

// coreSeconds is job i's core-seconds so far (its running process
// counted to now).
func (r *runner) coreSeconds(i int, now time.Time) float64 {
	c := r.runs[i].coreSec
	if sl := r.running[i]; sl != nil {
		c += float64(sl.workers) * now.Sub(sl.lastObs).Seconds()
	}
	return c
}

// share is job i's part of all core-seconds so far (0-1).
func (r *runner) share(i int, now time.Time) float64 {
	var all float64
	for k := range r.jobs {
		all += r.coreSeconds(k, now)
	}
	if all <= 0 {
		return 0
	}
	return r.coreSeconds(i, now) / all
}

// printf writes a line under the output lock, above the board if there
// is one.
func (r *runner) printf(w io.Writer, format string, args ...any) {
	if r.view != nil {
		w = r.view.stream
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(w, format, args...)
}

// draw redraws the live board.
func (r *runner) draw() {
	if r.view == nil {
		return
	}
	r.view.draw(r)
}

// writeLive redraws the board and rewrites the report's index and the
// schedule log while the run goes on, in the background: a slow disk
// never holds up the schedule (a write still going on is not started
// again).
func (r *runner) writeLive() {
	r.draw()
	if r.o.report.dir == "" && r.logPath == "" {
		return
	}
	if !r.liveBusy.CompareAndSwap(false, true) {
		return
	}
	var sch *report.Schedule
	if r.o.report.dir != "" {
		sch = r.schedule(true)
	}
	entries := r.liveEntries()
	writeLog := r.writeLog()
	r.live.Add(1)
	go func() {
		defer r.live.Done()
		defer r.liveBusy.Store(false)
		if sch != nil {
			if _, err := report.WriteIndexSchedule(r.o.report.dir, entries, sch, time.Time{}); err != nil {
				r.printf(r.stderr, "gfz-run: -report: %v\n", err)
			}
		}
		writeLog()
	}()
}

// liveEntries is the report index's entries while the run goes on: each
// target's run column says what it is doing now (waiting for cores,
// running, stopping, ended), not "running" for all.
func (r *runner) liveEntries() []report.IndexEntry {
	entries := slices.Clone(r.o.report.entries)
	for i, j := range r.jobs {
		if j.report >= 0 && j.report < len(entries) {
			entries[j.report].Status = r.runs[i].state
		}
	}
	return entries
}

// schedule is the report's view of the run.
func (r *runner) schedule(running bool) *report.Schedule {
	now := time.Now()
	s := &report.Schedule{Mode: r.mode, Start: r.start, Elapsed: now.Sub(r.start), Budget: r.budget,
		Cores: r.units * r.unit, Running: running}
	for i := range r.jobs {
		if r.jobs[i].report < 0 {
			continue
		}
		jr := r.runs[i]
		t := report.ScheduleTarget{State: jr.state, Share: r.share(i, now), CPU: jr.cpu, Execs: jr.execs + jr.liveExecs,
			Coverage: jr.cov, Corpus: jr.corpus, NewFailures: len(newFailureInputs(r.jobs[i])),
			Spans: slices.Clone(jr.spans), Samples: slices.Clone(jr.samples)}
		if sl := r.running[i]; sl != nil {
			t.Spans = append(t.Spans, report.ScheduleSpan{From: sl.start.Sub(r.start), To: now.Sub(r.start), Cores: sl.workers})
			t.Cores = sl.workers
		}
		s.Targets = append(s.Targets, t)
	}
	return s
}

// newFailureInputs lists the failures in j's work directory that were not
// there before the run, but those whose input was already in the
// package's testdata/fuzz (j.refound's).
func newFailureInputs(j *ciJob) []string {
	fresh, _ := j.addedFailures()
	return fresh
}

// logRecord is one process in the schedule log (-schedlog).
type logRecord struct {
	Package  string  `json:"package"`
	Target   string  `json:"target"`
	Start    float64 `json:"start_s"` // seconds since the run's start
	End      float64 `json:"end_s"`   // -1: still running
	Limit    float64 `json:"limit_s"` // its -time (0: none)
	Workers  int     `json:"workers"`
	Seed     int64   `json:"seed"`
	CPU      float64 `json:"cpu_s"` // measured, at its end
	Execs    int64   `json:"execs"`
	Coverage int64   `json:"coverage_gain"`
	Corpus   int64   `json:"corpus_gain"`
	Failures int64   `json:"failures_gain"`
	Exit     int     `json:"exit"`
	Stopped  bool    `json:"stopped"` // by the runner, before its time
}

type logFile struct {
	Schedule string      `json:"schedule"`
	Start    time.Time   `json:"start"`
	Budget   float64     `json:"budget_s"`
	Cores    int         `json:"cores"`
	Elapsed  float64     `json:"elapsed_s"`
	Slices   []logRecord `json:"slices"`
}

// writeLog returns the function that rewrites the schedule log
// (-schedlog) as it is now (nothing without -schedlog).
func (r *runner) writeLog() func() {
	if r.logPath == "" {
		return func() {}
	}
	var recs []logRecord
	for _, sl := range r.all {
		j := r.jobs[sl.job]
		rec := logRecord{Package: j.bin.Package, Target: j.target, Start: sl.start.Sub(r.start).Seconds(), End: -1,
			Limit: sl.limit.Seconds(), Workers: sl.workers, Seed: sl.seed, CPU: sl.cpu, Execs: sl.execs, Coverage: sl.gain.Coverage,
			Corpus: sl.gain.Corpus, Failures: sl.gain.Failures, Exit: sl.code, Stopped: sl.stopping && !sl.end.IsZero()}
		if !sl.end.IsZero() {
			rec.End = sl.end.Sub(r.start).Seconds()
		}
		recs = append(recs, rec)
	}
	mode, start, budget, cores, path := r.mode, r.start, r.budget, r.units*r.unit, r.logPath
	elapsed := time.Since(start)
	return func() {
		if err := writeSchedLog(path, mode, start, elapsed, budget, cores, recs); err != nil {
			r.printf(r.stderr, "gfz-run: -schedlog: %v\n", err)
		}
	}
}

// writeSchedLog writes the schedule log to path ("": none), atomically
// (not synced: it is rewritten all along).
func writeSchedLog(path, mode string, start time.Time, elapsed, budget time.Duration, cores int, recs []logRecord) error {
	if path == "" {
		return nil
	}
	lf := logFile{Schedule: mode, Start: start, Budget: budget.Seconds(), Cores: cores,
		Elapsed: elapsed.Seconds(), Slices: recs}
	if lf.Slices == nil {
		lf.Slices = []logRecord{}
	}
	data, err := json.MarshalIndent(lf, "", " ")
	if err != nil {
		return err
	}
	return writeCopy(filepath.Dir(path), filepath.Base(path), append(data, '\n'))
}

// statInt is an integer of a stats file (0 if absent or malformed).
func statInt(st *workdir.Stats, key string) int64 {
	n, _ := st.Int(key)
	return n
}

// childLineFilter says which lines of a target's process are shown above
// the live board: not its status lines (the board shows its figures), and
// after its first process not the lines every run prints at its start and
// end (with -v, all but the status lines).
func childLineFilter(first, verbose bool) func(string) bool {
	return func(line string) bool {
		if strings.HasPrefix(line, "gfz: elapsed ") {
			return false
		}
		if first || verbose {
			return true
		}
		for _, p := range routinePrefixes {
			if strings.HasPrefix(line, p) {
				return false
			}
		}
		return !strings.HasPrefix(line, "gfz: ") || !strings.Contains(line, "; work directory ")
	}
}

// routinePrefixes start the lines a fuzz binary prints at the start and
// end of every run.
var routinePrefixes = []string{"gfz: resuming from ", "gfz: done: ", "gfz: metrics: ", "gfz: report: ", "gfz: per-input timeout "}

// fmtShare formats a share (0-1) as a percentage.
func fmtShare(x float64) string {
	if x <= 0 {
		return "-"
	}
	return strconv.FormatFloat(math.Round(x*1000)/10, 'f', 1, 64) + "%"
}

// fmtCPU formats CPU seconds.
func fmtCPU(s float64) string {
	if s <= 0 {
		return "-"
	}
	return (time.Duration(s * float64(time.Second))).Round(100 * time.Millisecond).String()
}

// runShared is gfz-run without -ci on a shared budget (-schedule adaptive
// or equal): build, run the schedule, print the summary.
func runShared(ctx context.Context, o *options, stdout, stderr io.Writer) int {
	b, code := buildJobs(ctx, o, stdout, stderr)
	if code >= 0 {
		return code
	}
	workBase, jobs, buildErr, cwd := b.workBase, b.jobs, b.buildErr, b.cwd
	if len(jobs) == 0 {
		fmt.Fprintf(stderr, "gfz-run: no fuzz target named %q\n", o.only)
		return 2
	}
	procs := max(runtime.GOMAXPROCS(0), 1)
	r := newRunner(ctx, o, jobs, procs, o.workers, o.budget, o.runs, o.seed, stdout, stderr)
	fmt.Fprintf(stdout, "gfz-run: %d target(s), %d worker process(es) (GOMAXPROCS), %s; seed %d; work directories under %s\n",
		len(jobs), procs, r.describe(), o.seed, workBase)
	fmt.Fprint(stderr, r.shortWarning())
	r.view = newView(stdout, stderr)
	r.run()
	r.close()
	if msg := r.refusal(); msg != "" {
		fmt.Fprint(stderr, msg)
		return 2
	}
	code, ran, failed := 0, 0, 0
	for _, j := range jobs {
		if !j.ran {
			continue
		}
		ran++
		j.sortFailures()
		if len(j.newFails) > 0 || j.result() == 1 {
			failed++
		}
		o.report.setJob(j)
		if j.code >= 2 || j.ranNoInput() && ctx.Err() == nil {
			code = 2 // an error, or a target of which nothing was fuzzed
		}
	}
	for _, j := range jobs {
		if !j.ran && j.report >= 0 {
			o.report.entries[j.report].Status = "not run"
		}
	}
	fmt.Fprint(stdout, "\n"+summaryText(jobs, o.regress, "", cwd))
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "gfz-run: interrupted")
	}
	fmt.Fprintf(stdout, "gfz-run: %d target(s) run, %d found a new failure\n", ran, failed)
	switch {
	case code == 2:
		return 2
	case buildErr != nil:
		fmt.Fprintln(stderr, "gfz-run: some packages did not build (see above)")
		return 1
	}
	return exitFor(failed)
}
