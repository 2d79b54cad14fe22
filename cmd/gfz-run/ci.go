package main

// gfz-run -ci: the CI mode (docs/CLI.md, "gfz-run -ci"). Every target of
// the patterns (./... by default) shares one time budget and GOMAXPROCS
// worker processes, under the shared schedule (schedule.go) or, with
// -schedule rounds, in parallel rounds (runRounds); the work directories
// live under a directory a CI cache restores between runs; one summary
// table at the end; exit status 1 only for a failure that the restored
// work directories did not already hold, 2 for a setup error.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/build"
	gfzengine "github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/workdir"
)

const (
	// ciWorkdir is -workdir's default with -ci: the directory to cache.
	// Inside the checkout (GitLab caches only paths there) and hidden, so
	// that ./... never matches anything in it.
	ciWorkdir = ".gfz-cache"
	// ciBin is -o's default with -ci: the binaries stay out of the cache.
	ciBin = ".gfz-bin"
	// ciFailures is -failures' default: the directory to upload as an
	// artefact. Not hidden: upload-artifact skips hidden files.
	ciFailures = "gfz-failures"
	// ciDefaultTime is the budget of -ci without -time or -runs.
	ciDefaultTime = 5 * time.Minute
	// ciMinTime is the least time a target is given when there are so
	// many targets that the budget would give each less.
	ciMinTime = 10 * time.Second
	// ciSummary is the summary's file name in the -failures directory.
	ciSummary = "SUMMARY.txt"
)

// ciOptions are the settings of -ci.
type ciOptions struct {
	on       bool
	failures string        // -failures DIR
	total    time.Duration // -time: the total budget (0: none, -runs bounds each target)
	workers  int           // -workers if given (per target), else 0
	procs    int           // worker processes in all (GOMAXPROCS)
	seed     int64
	seedSet  bool // -seed was given
}

func addCIFlags(fs *flag.FlagSet, c *ciOptions) {
	fs.BoolVar(&c.on, "ci", false, "CI mode: fuzz every target of the packages (default ./...) in parallel within one total -time (default 5m), work directories under -workdir (default "+ciWorkdir+", cache it), one summary table; exit 1 only for a new failure, 2 for a setup error")
	fs.StringVar(&c.failures, "failures", "", "with -ci: write the summary and each new failure, laid out as <package dir>/testdata/fuzz/<FuzzTarget>/<name>, to `DIR` (default "+ciFailures+"; upload it as an artefact)")
}

// setDefaults applies -ci's defaults to the flags not given on the
// command line and records the budget.
func (c *ciOptions) setDefaults(fs *flag.FlagSet, o *options, total time.Duration, runs int64, workers int, seed *int64) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["workdir"] {
		o.workdir = ciWorkdir
	}
	if !set["o"] {
		o.keep = ciBin
	}
	if c.failures == "" {
		c.failures = ciFailures
	}
	if len(o.build.Patterns) == 0 {
		o.build.Patterns = []string{"./..."}
	}
	if total == 0 && runs == 0 {
		total = ciDefaultTime
	}
	c.total, c.workers = total, workers
	c.procs = max(runtime.GOMAXPROCS(0), 1)
	c.seedSet = set["seed"]
	if !c.seedSet {
		// A new seed each run: the restored corpus is explored along new
		// paths. It is printed, so a run can be repeated.
		*seed = rand.Int64N(1 << 31)
	}
	c.seed = *seed
}

// ciPlan is how -ci runs n targets on procs worker processes: in rounds,
// each round's targets at once for per, sharing the processes.
type ciPlan struct {
	rounds  [][]int // indices of the targets of each round, in order
	workers []int   // -workers of each target
	per     time.Duration
	short   bool // per was raised to ciMinTime: the run takes longer than the budget
}

// planCI divides the budget. Without -workers, a round holds up to procs
// targets and divides the procs worker processes among its targets (the
// first ones get one more when they do not divide evenly); with -workers
// W, a round holds procs/W targets (at least one) of W workers each. The
// targets are dealt to the rounds in turn, so that rounds differ by at
// most one target, and each round lasts total/rounds (at least
// ciMinTime, or total if less).
func planCI(n, procs, workers int, total time.Duration) ciPlan {
	procs = max(procs, 1)
	capacity := procs
	if workers > 0 {
		capacity = max(procs/workers, 1)
	}
	nr := max((n+capacity-1)/capacity, 1)
	p := ciPlan{rounds: make([][]int, nr), workers: make([]int, n)}
	for i := range n {
		p.rounds[i%nr] = append(p.rounds[i%nr], i)
	}
	for _, r := range p.rounds {
		for j, i := range r {
			if workers > 0 {
				p.workers[i] = workers
				continue
			}
			p.workers[i] = procs / len(r)
			if j < procs%len(r) {
				p.workers[i]++
			}
		}
	}
	if total > 0 {
		p.per = (total / time.Duration(nr)).Truncate(time.Millisecond)
		if floor := min(total, ciMinTime); p.per < floor {
			p.per, p.short = floor, true
		}
	}
	return p
}

// ciJob is one target's run.
type ciJob struct {
	bin    build.Binary
	target string
	relDir string // the package directory relative to the current one (or its import path)
	wd     string
	args   []string // all but -workers, -time and the target
	report int      // index of its -report entry, or -1
	skip   bool     // its binary said the target skipped itself (f.Skip)
	known  []string // failures/*.input before the run
	// testdata holds the files of the package's testdata/fuzz/<FuzzTarget>/
	// before the run, by the name -regress gives their content
	// (regressNameOf): committed regression inputs.
	testdata map[string]string
	ran      bool
	code     int
	newFails []string // failures/*.input paths this run added, but the refound ones
	// refound are the failures/*.input paths this run added whose input
	// was already in testdata (a committed regression input, failing
	// again: say, from a fresh work directory): known, not new.
	refound []string
	stats   *workdir.Stats // its stats file after the run (nil if unreadable)
	// What the run gave it: core-seconds (worker processes x time), CPU
	// seconds measured, executions summed over its processes (sliced:
	// it ran in several processes, so its stats hold only the last one's).
	coreSec, cpu float64
	execs        int64
	sliced       bool
	cov          int64 // sliced: the most coverage its processes reported (the last one may have run nothing)
	// unconfirmed holds the unconfirmed/*.input files before the run, by
	// name, with their modification times: a hang or memory death the run
	// could not confirm replaces its signature's file.
	unconfirmed map[string]time.Time
}

func (j *ciJob) label() string { return j.relDir + " " + j.target }

// snapshot records, before the run, the failures the work directory holds
// and the regression inputs the package's testdata/fuzz holds: the run's
// new failures are the others.
func (j *ciJob) snapshot() {
	j.known = failureInputs(j.wd)
	j.testdata = testdataInputs(j.bin.Dir, j.target)
	j.unconfirmed = unconfirmedInputs(j.wd)
}

// newUnconfirmed lists the unconfirmed/*.input files the run wrote (new or
// rewritten since snapshot): hangs and memory deaths a process could not
// re-run alone (it was stopping, say at the end of its round), reported
// by no failure count.
func (j *ciJob) newUnconfirmed() []string {
	var out []string
	for name, mt := range unconfirmedInputs(j.wd) {
		if old, ok := j.unconfirmed[name]; !ok || !mt.Equal(old) {
			out = append(out, filepath.Join(j.wd, "unconfirmed", name))
		}
	}
	slices.Sort(out)
	return out
}

// unconfirmedInputs maps the names of a work directory's unconfirmed
// inputs to their modification times.
func unconfirmedInputs(wd string) map[string]time.Time {
	paths, _ := workdir.Glob(filepath.Join(wd, "unconfirmed", "*.input"))
	m := map[string]time.Time{}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			m[filepath.Base(p)] = fi.ModTime()
		}
	}
	return m
}

// sortFailures sorts, after the run, the failures it added to the work
// directory into newFails and refound.
func (j *ciJob) sortFailures() {
	j.newFails, j.refound = j.addedFailures()
}

// addedFailures lists the failures in j's work directory that were not
// there before the run: new ones (fresh), and those whose input was
// already in the package's testdata/fuzz before the run (refound).
func (j *ciJob) addedFailures() (fresh, refound []string) {
	for _, f := range failureInputs(j.wd) {
		if slices.Contains(j.known, f) {
			continue
		}
		path := filepath.Join(j.wd, "failures", f)
		if j.committed(path) != "" {
			refound = append(refound, path)
		} else {
			fresh = append(fresh, path)
		}
	}
	return fresh, refound
}

// committed returns the file of the package's testdata/fuzz that held the
// content of the failure input before the run ("": none).
func (j *ciJob) committed(input string) string {
	if len(j.testdata) == 0 {
		return ""
	}
	name := regressName(input)
	if name == "" {
		return ""
	}
	return j.testdata[name]
}

// result is the exit status that counts for j: its binary's, but 0 for a
// status 1 (new failures, for the binary: new to its work directory) when
// each of them was already a regression input in testdata/fuzz before the
// run. Such a failure is known: plain go test already fails on it.
func (j *ciJob) result() int {
	if j.code == 1 && len(j.newFails) == 0 && len(j.refound) > 0 {
		return 0
	}
	return j.code
}

// refoundNote says that j's failures were found again from its committed
// regression inputs.
func refoundNote(j *ciJob) string {
	var files []string
	for _, in := range j.refound {
		files = append(files, j.committed(in))
	}
	return fmt.Sprintf("%d failure(s) found again whose input is already in testdata/fuzz (%s): known, not new (plain go test fails on it until it is fixed)",
		len(j.refound), strings.Join(files, ", "))
}

// testdataInputs maps the name -regress would give each file of the
// package's testdata/fuzz/<target>/ (the hash of its content) to its path,
// nil when there is none. A failure whose input is one of them was
// committed before the run.
func testdataInputs(pkgDir, target string) map[string]string {
	dir := filepath.Join(pkgDir, "testdata", "fuzz", target)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var m map[string]string
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if name := regressName(path); name != "" {
			if m == nil {
				m = map[string]string{}
			}
			if _, ok := m[name]; !ok || e.Name() == name {
				m[name] = path // the file named by its content first
			}
		}
	}
	return m
}

func runCI(ctx context.Context, o *options, stdout, stderr io.Writer) int {
	c := &o.ci
	workBase, err := filepath.Abs(o.workdir)
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: -workdir: %v\n", err)
		return 2
	}
	if err := checkWritable(workBase); err != nil {
		fmt.Fprintf(stderr, "gfz-run: -workdir %s: %v; give a writable -workdir\n", o.workdir, err)
		return 2
	}
	failDir, err := filepath.Abs(c.failures)
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: -failures: %v\n", err)
		return 2
	}
	if err := checkWritable(failDir); err != nil {
		fmt.Fprintf(stderr, "gfz-run: -failures %s: %v; give a writable -failures directory\n", c.failures, err)
		return 2
	}
	outDir, err := filepath.Abs(o.keep)
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: -o: %v\n", err)
		return 2
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "gfz-run: creating the binary directory: %v\n", err)
		return 2
	}
	o.build.Output = outDir + string(filepath.Separator)
	o.build.Stdout, o.build.Stderr = stderr, stderr
	res, err := build.Build(ctx, o.build)
	if ctx.Err() != nil {
		// Interrupted during the build: the job was stopped, and what
		// did not build was stopped, not broken.
		return interruptedBuild(stderr)
	}
	if err != nil {
		// In CI a package that does not build is a broken job, not a
		// finding: stop before fuzzing.
		fmt.Fprintf(stderr, "gfz-run: %v\n", strings.TrimPrefix(err.Error(), "gfz-build: "))
		var be *build.BuildError
		if !errors.As(err, &be) && res != nil && res.Prepared != nil && len(res.TargetOrder) == 0 {
			// Everything built, and there is nothing to fuzz.
			fmt.Fprintln(stderr, "gfz-run: -ci: nothing fuzzed: there is no fuzz target to run (exit status 2)")
			return 2
		}
		fmt.Fprintln(stderr, "gfz-run: -ci: nothing fuzzed: fix the build (exit status 2)")
		return 2
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: %v\n", err)
		return 2
	}
	jobs, err := collectJobs(o, res.Binaries, workBase, cwd, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: %v\n", err)
		return 2
	}
	if len(jobs) == 0 {
		fmt.Fprintf(stderr, "gfz-run: no fuzz target named %q\n", o.only)
		return 2
	}
	if o.schedule == scheduleRounds {
		runRounds(ctx, o, jobs, workBase, stdout, stderr)
	} else {
		r := newRunner(ctx, o, jobs, c.procs, c.workers, c.total, o.runs, c.seed, stdout, stderr)
		fmt.Fprintf(stdout, "gfz-run: -ci: %d target(s), %d worker process(es) (GOMAXPROCS), %s; seed %d; work directories under %s\n",
			len(jobs), c.procs, r.describe(), c.seed, workBase)
		fmt.Fprint(stderr, r.shortWarning())
		r.view = newView(stdout, stderr)
		r.run()
		r.close()
		if msg := r.refusal(); msg != "" {
			fmt.Fprint(stderr, msg)
			return 2
		}
	}
	for _, j := range jobs {
		if !j.ran {
			continue
		}
		j.sortFailures()
		if !j.sliced {
			j.stats, _, _ = workdir.ReadStats(filepath.Join(j.wd, "stats"))
		}
		o.report.setJob(j)
	}
	interrupted := ctx.Err() != nil
	for _, j := range jobs {
		if !j.ran && j.report >= 0 {
			o.report.entries[j.report].Status = "not run"
		}
	}
	code := ciExit(jobs, interrupted)
	summary := summaryText(jobs, o.regress, failDir, cwd)
	fmt.Fprint(stdout, "\n"+summary)
	if interrupted {
		fmt.Fprintln(stderr, "gfz-run: interrupted: the targets not run are marked so")
	}
	if err := writeCIFailures(failDir, jobs, summary); err != nil {
		fmt.Fprintf(stderr, "gfz-run: -failures: %v\n", err)
		return 2
	}
	return code
}

// collectJobs makes a job of every target of the binaries (with -target,
// of that one), saying what was built.
func collectJobs(o *options, bins []build.Binary, workBase, cwd string, stdout, stderr io.Writer) ([]*ciJob, error) {
	names, total := countTargets(bins)
	var jobs []*ciJob
	for _, b := range bins {
		fmt.Fprintf(stdout, "gfz-run: built %s (%s): %s\n", b.Package, b.ProbeCount(), strings.Join(b.Targets, ", "))
		rel := b.Package // outside the current directory: its import path
		if r, err := filepath.Rel(cwd, b.Dir); err == nil && r == "." {
			rel = "."
		} else if err == nil && filepath.IsLocal(r) {
			rel = "./" + filepath.ToSlash(r)
		}
		for _, target := range b.Targets {
			if o.only != "" && target != o.only {
				continue
			}
			j := &ciJob{bin: b, target: target, relDir: rel, wd: workDir(workBase, b.Package, target), report: -1}
			if old := filepath.Join(workBase, target); old != j.wd {
				if fi, err := os.Stat(filepath.Join(old, "corpus")); err == nil && fi.IsDir() {
					fmt.Fprintf(stderr, "gfz-run: note: %s looks like a work directory of an older gfz-run; this target now uses %s (move the old one there to resume it)\n", old, j.wd)
				}
			}
			var err error
			j.args, err = o.targetArgs(b, target, j.wd, names[target] > 1, total > 1)
			if err != nil {
				return nil, err
			}
			if o.report.dir != "" {
				j.report = len(o.report.entries) - 1
			}
			jobs = append(jobs, j)
		}
	}
	return jobs, nil
}

// runRounds is -ci -schedule rounds: planCI's rounds, each target run
// once.
func runRounds(ctx context.Context, o *options, jobs []*ciJob, workBase string, stdout, stderr io.Writer) {
	c := &o.ci
	plan := planCI(len(jobs), c.procs, c.workers, c.total)
	budget := "no time limit (-runs)"
	if c.total > 0 {
		budget = fmt.Sprintf("budget %v: %d round(s) of %v", c.total, len(plan.rounds), plan.per)
	}
	fmt.Fprintf(stdout, "gfz-run: -ci: %d target(s), %d worker process(es) (GOMAXPROCS), %s; seed %d; work directories under %s\n",
		len(jobs), c.procs, budget, c.seed, workBase)
	if plan.short {
		fmt.Fprintf(stderr, "gfz-run: note: %d targets on %d worker processes: each target gets %v, so the run takes about %v, more than -time %v\n",
			len(jobs), c.procs, plan.per, plan.per*time.Duration(len(plan.rounds)), c.total)
	}
	start := time.Now()
	var recs []logRecord
	var mu sync.Mutex // serialises the children's lines and recs
	for _, round := range plan.rounds {
		if ctx.Err() != nil {
			break
		}
		var wg sync.WaitGroup
		for _, i := range round {
			j := jobs[i]
			args := append(slices.Clone(j.args), "-workers", strconv.Itoa(plan.workers[i]))
			if plan.per > 0 {
				args = append(args, "-time", plan.per.String())
			}
			args = append(args, j.target)
			j.snapshot()
			j.ran = true
			fmt.Fprintf(stdout, "gfz-run: %s %s (in %s)\n", filepath.Base(j.bin.Output), strings.Join(args, " "), j.bin.Dir)
			wg.Add(1)
			go func() {
				defer wg.Done()
				prefix := "[" + j.label() + "] "
				out := &lineWriter{mu: &mu, w: stdout, prefix: prefix}
				errw := &lineWriter{mu: &mu, w: stderr, prefix: prefix}
				t0 := time.Now()
				code, cpu := runBinaryCPU(ctx, j.bin.Output, j.bin.Dir, args, out, errw)
				t1 := time.Now()
				out.flush()
				errw.flush()
				mu.Lock()
				defer mu.Unlock()
				j.skip = j.skip || errw.skipped
				j.code, j.cpu = code, cpu
				j.coreSec = float64(plan.workers[i]) * t1.Sub(t0).Seconds()
				st, _, _ := workdir.ReadStats(filepath.Join(j.wd, workdir.StatsFile))
				recs = append(recs, logRecord{Package: j.bin.Package, Target: j.target, Start: t0.Sub(start).Seconds(),
					End: t1.Sub(start).Seconds(), Limit: plan.per.Seconds(), Workers: plan.workers[i], Seed: c.seed, CPU: cpu, Execs: statInt(st, "execs"), Exit: code})
			}()
		}
		wg.Wait()
		if err := writeSchedLog(o.schedLog, scheduleRounds, start, time.Since(start), c.total, c.procs, recs); err != nil {
			fmt.Fprintf(stderr, "gfz-run: -schedlog: %v\n", err)
		}
	}
}

// ciExit is -ci's exit status: 1 for a new failure; 2 for an error, which
// takes precedence, or for a target that ran but ran no input to its end
// (its setup took its whole share, or its first input never ended: the
// job fuzzed nothing of it and must not pass), unless the job was
// interrupted; else 0.
func ciExit(jobs []*ciJob, interrupted bool) int {
	code := 0
	for _, j := range jobs {
		switch r := j.result(); {
		case !j.ran:
		case j.ranNoInput() && !interrupted:
			code = 2
		case r == 0 && len(j.newFails) == 0:
		case r == 0 || r == 1:
			code = max(code, 1)
		default:
			code = 2
		}
	}
	return code
}

// execsText is j's executions as the summary shows them: of its stats,
// or, for a target run in several processes, their sum.
func (j *ciJob) execsText() string {
	if j.sliced {
		return strconv.FormatInt(j.execs, 10)
	}
	if v, ok := j.stats.Get("execs"); ok && v != "" {
		return v
	}
	return "-"
}

// skipped reports whether j's target skipped itself (f.Skip before
// gfz.Fuzz: its binary said so on stderr, j.skip) and ended without an
// error.
func (j *ciJob) skipped() bool { return j.ran && j.skip && j.code == 0 }

// ranNoInput reports whether j ran, without an error or a failure, but
// ran no input to its end; not a target that skipped itself, nor one whose
// every input failed (a known failure: its executions died before they
// were counted).
func (j *ciJob) ranNoInput() bool {
	if !j.ran || j.code < 0 || j.code >= 2 || len(j.newFails) > 0 || j.result() == 1 || j.skipped() || j.execsText() != "0" {
		return false
	}
	for _, k := range []string{"failing", "crashes", "timeouts", "ooms"} {
		if n, ok := j.stats.Int(k); ok && n > 0 {
			return false
		}
	}
	return true
}

// summaryText is the summary table, then each new failure with its
// reproduce commands. failDir is -ci's -failures directory ("": not
// -ci).
func summaryText(jobs []*ciJob, regress bool, failDir, cwd string) string {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "PACKAGE\tTARGET\tRESULT\tSHARE\tCPU\tEXECS\tCOVERAGE\tCORPUS\tNEW FAILURES\tKNOWN FAILURES")
	nnew, nknown, nrefound := 0, 0, 0
	var noInput []*ciJob
	var all float64
	for _, j := range jobs {
		all += j.coreSec
	}
	for _, j := range jobs {
		res := "ok"
		switch {
		case !j.ran:
			res = "not run"
		case j.code >= 2 || j.code < 0:
			res = fmt.Sprintf("error (exit status %d)", j.code)
		case len(j.newFails) > 0 || j.result() == 1:
			res = "NEW FAILURE"
		case j.skipped():
			res = "skipped" // f.Skip before gfz.Fuzz: the binary said so above
		}
		stat := func(k string) string {
			if v, ok := j.stats.Get(k); ok && v != "" {
				return v
			}
			return "-"
		}
		execs := j.execsText()
		if j.ranNoInput() {
			res = "NO INPUT RUN" // its setup took its whole share, or its first input hung: the binary's warning says which
			noInput = append(noInput, j)
		}
		share := "-"
		if all > 0 {
			share = fmtShare(j.coreSec / all)
		}
		cov := stat("total_cov")
		if j.sliced && j.cov > 0 {
			cov = strconv.FormatInt(j.cov, 10)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", j.bin.Package, j.target, res, share, fmtCPU(j.cpu),
			execs, cov, stat("corpus"), len(j.newFails), len(j.known)+len(j.refound))
		nnew += len(j.newFails)
		nknown += len(j.known)
		nrefound += len(j.refound)
	}
	tw.Flush()
	for _, j := range noInput {
		if len(j.newUnconfirmed()) > 0 {
			fmt.Fprintf(&b, "\n%s %s: ran no input to its end: an input hung or exhausted memory, kept as unconfirmed (below); run its reproduce command (exit status 2 unless the run was interrupted: nothing of it was fuzzed)\n", j.bin.Package, j.target)
			continue
		}
		fmt.Fprintf(&b, "\n%s %s: ran no input: the target was still starting (its setup before gfz.Fuzz, or loading its seeds) or its first input still running when its time was up (see its warning above); give the run more -time, or make its setup faster (exit status 2 unless the run was interrupted: nothing of it was fuzzed)\n", j.bin.Package, j.target)
	}
	for _, j := range jobs {
		if un := j.newUnconfirmed(); j.ran && len(un) > 0 {
			fmt.Fprintf(&b, "\n%s %s: %d hang(s) or out-of-memory death(s) not confirmed (the input could not be re-run alone, or did not fail again alone), not counted as failures; run the reproduce command of each report to see whether it repeats:\n", j.bin.Package, j.target, len(un))
			for _, p := range un {
				fmt.Fprintf(&b, "  %s\n", strings.TrimSuffix(p, ".input")+".txt")
			}
		}
	}
	for _, j := range jobs {
		if j.ran && j.result() == 1 && len(j.newFails) == 0 {
			fmt.Fprintf(&b, "\n%s %s: exit status 1 but no new file in %s (see its output above)\n", j.bin.Package, j.target, filepath.Join(j.wd, "failures"))
		}
	}
	if nrefound > 0 {
		fmt.Fprintf(&b, "\n%d known failure(s), found again from a regression input already in testdata/fuzz (plain go test fails on it until it is fixed), not new:\n", nrefound)
	}
	for _, j := range jobs {
		for _, in := range j.refound {
			kind, msg, _ := failureHeadline(strings.TrimSuffix(in, ".input") + ".txt")
			fmt.Fprintf(&b, "\n%s %s: %s: %s\n", j.bin.Package, j.target, kind, msg)
			fmt.Fprintf(&b, "  report:    %s\n", strings.TrimSuffix(in, ".input")+".txt")
			fmt.Fprintf(&b, "  in testdata: %s\n", j.committed(in))
		}
	}
	if nnew > 0 {
		fmt.Fprintf(&b, "\n%d new failure(s):\n", nnew)
	}
	for _, j := range jobs {
		for _, in := range j.newFails {
			txt := strings.TrimSuffix(in, ".input") + ".txt"
			kind, msg, repro := failureHeadline(txt)
			fmt.Fprintf(&b, "\n%s %s: %s: %s\n", j.bin.Package, j.target, kind, msg)
			fmt.Fprintf(&b, "  report:    %s\n", txt)
			if repro != "" {
				fmt.Fprintf(&b, "  reproduce: %s\n", repro)
			}
			name := regressName(in)
			if name == "" {
				continue
			}
			reg := filepath.Join(j.bin.Dir, "testdata", "fuzz", j.target, name)
			art := filepath.Join(failDir, filepath.FromSlash(j.relDir), "testdata", "fuzz", j.target, name)
			_, regErr := os.Stat(reg)
			switch {
			case regress && regErr == nil:
				fmt.Fprintf(&b, "  written:   %s (commit it: plain go test then replays it)\n", reg)
			case regress:
				// Not written (the run was stopped before the binary
				// exported it): say so rather than name a missing file.
				fmt.Fprintf(&b, "  not written: %s (copy %s there: plain go test then replays it)\n", reg, in)
			case failDir == "":
				fmt.Fprintf(&b, "  keep it:   copy %s to %s (or run with -regress)\n", in, reg)
			default:
				fmt.Fprintf(&b, "  artefact:  %s (copy it to %s)\n", art, reg)
			}
			fmt.Fprintf(&b, "  go test:   go test -run=%s/%s %s\n", j.target, name, j.relDir)
		}
	}
	switch {
	case nknown > 0 && failDir != "":
		fmt.Fprintf(&b, "\n%d failure(s) known from earlier runs (in the work directories' failures/) do not fail the job.\n", nknown)
	case nknown > 0:
		fmt.Fprintf(&b, "\n%d failure(s) known from earlier runs (in the work directories' failures/) are not new.\n", nknown)
	}
	if all > 0 {
		fmt.Fprintf(&b, "\nSHARE: each target's part of the worker-process time; CPU: the CPU time its processes used.\n")
	}
	return b.String()
}

// writeCIFailures writes the summary and, for each new failure, its input
// as failDir/<package dir>/testdata/fuzz/<FuzzTarget>/<name>, named as
// -regress names it, with the fuzz binary's dictionary (its work
// directory's copy, if it has one) when the input drew from it, as
// failDir/<package dir>/testdata/gfzdict/<FuzzTarget>/<name>, as -regress
// writes them, and its report next to the summary.
func writeCIFailures(failDir string, jobs []*ciJob, summary string) error {
	var reports bytes.Buffer
	for _, j := range jobs {
		for _, in := range j.newFails {
			data, err := os.ReadFile(in)
			if err != nil {
				return fmt.Errorf("reading a new failure: %w", err)
			}
			name := regressNameOf(data)
			pkgDir := filepath.Join(failDir, filepath.FromSlash(j.relDir))
			// The dictionary first, as -regress: the input does not
			// replay without it.
			if !workdir.NeedsDictionary(in, data) {
				// Its values drew nothing from the dictionary.
			} else if dict, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(in)), workdir.DictionaryFileName)); err == nil {
				if err := writeCopy(filepath.Join(pkgDir, "testdata", "gfzdict", j.target), name, dict); err != nil {
					return err
				}
			} else if !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("reading the fuzz binary's dictionary: %w", err)
			}
			if err := writeCopy(filepath.Join(pkgDir, "testdata", "fuzz", j.target), name, data); err != nil {
				return err
			}
			txt, err := os.ReadFile(strings.TrimSuffix(in, ".input") + ".txt")
			if err != nil {
				txt = []byte(fmt.Sprintf("(report unreadable: %v)\n", err))
			}
			fmt.Fprintf(&reports, "\n==== %s %s: %s\n%s", j.bin.Package, j.target, in, txt)
		}
	}
	if reports.Len() > 0 {
		summary += "\nReports of the new failures:\n" + reports.String()
	}
	if err := writeCopy(failDir, ciSummary, []byte(summary)); err != nil {
		return err
	}
	return nil
}

// writeCopy writes data to dir/name atomically (a temporary file renamed),
// creating dir, unless the file already holds exactly data. It does not
// sync: what it writes are copies and summaries of what the work
// directories hold durably, and a sync on a busy disk can take a second,
// which the end of the budget cannot spare (the run must end within a
// second of it).
func writeCopy(dir, name string, data []byte) error {
	path := filepath.Join(dir, name)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+name+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644) // as -regress and go test write them (CreateTemp's are 0600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// regressName is the name -regress gives the file in testdata/fuzz: the
// first 16 hex digits of the SHA-256 of its content ("" if unreadable).
func regressName(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return regressNameOf(data)
}

func regressNameOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:16]
}

// failureInputs lists the base names of wd/failures/*.input, sorted (the
// directory taken literally: workdir.Glob).
func failureInputs(wd string) []string {
	paths, _ := workdir.Glob(filepath.Join(wd, "failures", "*.input"))
	var m []string
	for _, p := range paths {
		m = append(m, filepath.Base(p))
	}
	return m
}

// failureHeadline reads a failure report's kind ("failure" if it has
// none), the first line of its message, and its reproduce command, as
// workdir.ParseReport reads them. A report that cannot be read, or is not a
// gfz failure report, gives the kind "failure" and the reason as message.
func failureHeadline(txt string) (kind, msg, repro string) {
	data, err := os.ReadFile(txt)
	if err != nil {
		return "failure", fmt.Sprintf("(report unreadable: %v)", err), ""
	}
	rf, err := workdir.ParseReport(data)
	if rf == nil {
		return "failure", fmt.Sprintf("(report unreadable: %v)", err), ""
	}
	// A line too long to read ends the report early (err): what was read
	// before it is used.
	kind = rf.Get("kind")
	if kind == "" {
		kind = "failure"
	}
	// (the summary a terminal and SUMMARY.txt show)
	return workdir.Printable(kind), workdir.Printable(workdir.Headline(rf.Sections["message"])), rf.Get("reproduce")
}

// checkWritable creates dir if needed and checks that a file can be
// created in it.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".gfz-probe*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// lineWriter writes whole lines to w, each with prefix, under mu: the
// output of targets running at once stays readable line by line.
type lineWriter struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
	keep   func(line string) bool // nil: every line
	// lastGfz is the last line written that starts with "gfz: " (the
	// fuzz binary's messages), shown or not.
	lastGfz string
	// skipped: the binary said its target skipped itself (f.Skip before
	// gfz.Fuzz).
	skipped bool
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.emit(l.buf[:i+1])
		l.buf = l.buf[i+1:]
	}
	return len(p), nil
}

// flush writes a last unterminated line.
func (l *lineWriter) flush() {
	if len(l.buf) > 0 {
		l.emit(append(l.buf, '\n'))
		l.buf = nil
	}
}

func (l *lineWriter) emit(line []byte) {
	if strings.HasPrefix(string(line), "gfz: ") {
		l.lastGfz = strings.TrimSuffix(string(line), "\n")
		l.skipped = l.skipped || strings.HasPrefix(l.lastGfz, "gfz: fuzz target ") && strings.Contains(l.lastGfz, " "+gfzengine.SkippedText)
	}
	if l.keep != nil && !l.keep(strings.TrimSuffix(string(line), "\n")) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, l.prefix)
	_, _ = l.w.Write(line)
}
