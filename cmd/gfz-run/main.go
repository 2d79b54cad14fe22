// Command gfz-run is the one-command path to fuzzing with gfz: it builds the
// instrumented fuzz binaries of the named packages (as gfz-build does) and
// fuzzes every fuzz target they contain within one budget.
//
// Usage:
//
//	gfz-run [flags] [packages]
//
// For example, from the root of the gfz repository:
//
//	gfz-run -time 30s ./testdata/examples/...
//
// Each binary runs in its package's directory (so testdata/fuzz seeds are
// found); each target's work directory is <-workdir>/<import path>/<FuzzTarget>,
// unique per package and target. The targets share GOMAXPROCS worker
// processes and the -time budget under the adaptive schedule
// (schedule.go, cmd/internal/sched): a short first round each, then the
// cores to the targets that currently find the most per CPU-second;
// -schedule rounds runs them one after the other instead, as -runs alone
// does. A package that fails to build does not stop the others: the
// targets that built are run and the exit status is 1. Exit status: 0
// when no target failed, 1 when a target found a new failure or a build
// failed, 2 for usage errors, when there is no go.mod and when a fuzz
// binary exited 2 or was killed by a signal gfz-run did not send.
//
// With -ci (ci.go) it is a CI step: the targets of ./... share one total
// -time, their work directories under .gfz-cache for a CI cache, with one
// summary table at the end; the exit status is 1 only for a new failure
// and 2 for any setup error, a build failure included.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/build"
	"github.com/gfz-dev/gfz/internal/cliflag"
	gfzengine "github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/formatreg"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are gfz-run's flags.
type options struct {
	build   build.Options
	keep    string // -o: keep binaries in this directory
	workdir string
	only    string // -target: run only this target
	run     []string
	// coverprofile is passed to every binary, suffixed with .<FuzzTarget>
	// when several targets run.
	coverprofile string
	// regress passes -regress=<package directory> to every binary.
	regress bool
	report  reports // -report
	ci      ciOptions
	// schedule is -schedule: adaptive, equal or rounds (schedule.go).
	schedule string
	schedLog string // -schedlog FILE
	verbose  bool
	budget   time.Duration // -time
	runs     int64         // -runs
	workers  int           // -workers
	seed     int64
}

func parse(args []string, stderr io.Writer) (*options, int) {
	fs := flag.NewFlagSet("gfz-run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	var (
		dur       cliflag.Duration
		runs      int64
		seed      int64
		engine    string
		timeout   = cliflag.Duration{Auto: true, IsAuto: true}
		verbose   bool
		coverprof string
		workers   int
		rssLimit  int
		feedback  string
		format    string
		grimoire  bool
	)
	o.build.AddFlags(fs)
	fs.StringVar(&o.keep, "o", "", "put the built fuzz binaries in this `directory` (default: <workdir>/bin, so that the reproduce commands in failure reports keep working)")
	fs.StringVar(&o.workdir, "workdir", workdir.DefaultRoot(""), "parent `directory` of the targets' work directories (each is <directory>/<import path>/<FuzzTarget>); the default is in gfz's cache ($GFZCACHE), one per module, outside the source tree")
	fs.StringVar(&o.only, "target", "", "run only the fuzz target with this `name`")
	fs.Var(&dur, "time", "the total fuzzing budget `D` shared by all targets, a duration with a unit such as 30s or 5m (0: until interrupted, or every target reached -runs); with -schedule rounds without -ci, each target's time")
	fs.Int64Var(&runs, "runs", 0, "stop each target after this many executions in all (0: no limit); with -runs and no -time the targets run one after the other (-schedule rounds), reproducibly")
	fs.StringVar(&o.schedule, "schedule", "", "how the targets share the cores and the budget: adaptive (by what each found recently), equal (equal shares), rounds (one run per target: one after the other, with -ci in parallel rounds); default adaptive, rounds with -runs and no -time")
	fs.StringVar(&o.schedLog, "schedlog", "", "write the schedule to `FILE` as JSON (every process: target, start, end, worker processes, CPU time, what it found), rewritten as the run goes")
	fs.Int64Var(&seed, "seed", 1, "seed of every random choice")
	fs.StringVar(&engine, "engine", gfzengine.DefaultEngine, "fuzzing engine: "+gfzengine.EngineList()+"; a native target's default is args (passed to the binaries only when given)")
	fs.StringVar(&feedback, "feedback", "", "feedback beside coverage, a comma-separated `list` of "+gfzengine.FeedbackList()+", or none (the fuzz binaries' -feedback; perf also builds with -counts, cmp with -cmp; default: the binaries' own, cmp for native targets)")
	fs.StringVar(&format, "format", "auto", "native targets: the format generator whose near misses are mixed into the run (the fuzz binaries' -format: auto, none or one of "+strings.Join(formatreg.Names, ", ")+"); passed only when given")
	fs.BoolVar(&grimoire, "grimoire", false, "native targets under -engine args: Grimoire-style generalisation and recombined children (the fuzz binaries' -grimoire); passed only when given")
	fs.Var(&timeout, "timeout", "per-input timeout `D`, a duration with a unit such as 2s; auto: calibrated by the fuzz binary from measured execution times; 0: no timeout")
	fs.IntVar(&workers, "workers", 0, "worker processes per target (0: chosen so that all targets together use GOMAXPROCS; with -schedule rounds without -ci, the fuzz binary's default, one per CPU); W > 0: the shared schedules deal cores in units of W, so a process gets a multiple of W; with -schedule rounds, every process gets exactly W (1 with -runs and -seed: reproducible runs)")
	fs.IntVar(&rssLimit, "rss_limit_mb", 2048, "kill a worker whose resident memory exceeds this many MiB and save its input as a failure (0: no limit)")
	fs.StringVar(&coverprof, "coverprofile", "", "write a go tool cover profile per target to `FILE` (suffixed with .<FuzzTarget> when there are several, .<import_path>.<FuzzTarget> when two packages share a target name)")
	fs.BoolVar(&o.regress, "regress", false, "also write each new failure into its package's testdata/fuzz/<FuzzTarget>/, where plain go test replays it (the fuzz binaries' -regress)")
	fs.StringVar(&o.report.dir, "report", "", "write an HTML report per target to `DIR`/<import path>/<FuzzTarget>/index.html and an index of them to DIR/index.html")
	var shrinkTime cliflag.Duration
	fs.Var(&shrinkTime, "shrinktime", "passed to every fuzz binary: time bound `D` of shrinking each new failure (a duration; 0: no shrinking; default: the binary's)")
	shrinkRuns := fs.Int64("shrinkruns", 0, "passed to every fuzz binary: execution bound of shrinking each new failure (0: no shrinking; default: the binary's)")
	fs.BoolVar(&verbose, "v", false, "verbose build and run output")
	addCIFlags(fs, &o.ci)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gfz-run [flags] [packages]\n\n"+
			"Builds the gfz fuzz binaries of the packages and runs each of their fuzz targets.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	if err := o.build.CheckFlags(); err != nil {
		fmt.Fprintf(stderr, "gfz-run: %v\n", err)
		return nil, 2
	}
	fb, err := gfzengine.ParseFeedback(feedback)
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: -feedback: %v\n", err)
		return nil, 2
	}
	if slices.Contains(fb, "perf") {
		o.build.Counts = true // exact hit counts past 255
	}
	if slices.Contains(fb, "cmp") {
		o.build.Cmp = true // comparison probes
	}
	if format != "auto" && format != "none" && !formatreg.Known(format) {
		fmt.Fprintf(stderr, "gfz-run: -format %q: want auto, none or one of %s\n", format, strings.Join(formatreg.Names, ", "))
		return nil, 2
	}
	if runs < 0 || workers < 0 || rssLimit < 0 || *shrinkRuns < 0 {
		fmt.Fprintln(stderr, "gfz-run: -runs, -workers, -rss_limit_mb and -shrinkruns must not be negative")
		return nil, 2
	}
	// The fuzz binaries' own checks of the flags passed on, made before
	// the build: a value they refuse would make every target exit 2.
	if !slices.Contains(gfzengine.Engines(), engine) {
		fmt.Fprintf(stderr, "gfz-run: -engine %q: unknown engine (want %s)\n", engine, gfzengine.EngineList())
		return nil, 2
	}
	if seed < 0 {
		fmt.Fprintf(stderr, "gfz-run: -seed %d: the seed must be 0 or more\n", seed)
		return nil, 2
	}
	// (Without -mapbits gfz-build chooses at most build.MaxMapBits, 17:
	// the floor is then the smallest.)
	if floor := cliflag.RSSFloorMB(o.build.MapBits); rssLimit > 0 && rssLimit < floor {
		fmt.Fprintf(stderr, "gfz-run: -rss_limit_mb %d is below a worker's own footprint: use at least %d (MiB), or 0 for no limit\n", rssLimit, floor)
		return nil, 2
	}
	switch o.schedule {
	case "":
		o.schedule = scheduleAdaptive
		if runs > 0 && dur.D == 0 {
			o.schedule = scheduleRounds
		}
	case scheduleAdaptive, scheduleEqual, scheduleRounds:
	default:
		fmt.Fprintf(stderr, "gfz-run: -schedule %q: want adaptive, equal or rounds\n", o.schedule)
		return nil, 2
	}
	o.budget, o.runs, o.workers, o.verbose = dur.D, runs, workers, verbose
	if o.schedLog != "" && o.schedule == scheduleRounds && !o.ci.on {
		fmt.Fprintln(stderr, "gfz-run: -schedlog goes with -ci or a shared budget (-schedule adaptive or equal)")
		return nil, 2
	}
	if !o.ci.on && dur.D == 0 && runs == 0 && fs.NArg() > 0 && strings.HasSuffix(fs.Arg(fs.NArg()-1), "...") {
		fmt.Fprintln(stderr, "gfz-run: note: without -time or -runs the targets share the machine until interrupted (Ctrl-C)")
	}
	o.build.Patterns = fs.Args()
	o.build.Verbose = verbose
	if !o.ci.on && o.ci.failures != "" {
		fmt.Fprintln(stderr, "gfz-run: -failures goes with -ci")
		return nil, 2
	}
	if o.ci.on {
		// -ci: -time is the total budget and -workers is chosen per
		// target (ci.go); both are added to each target's arguments.
		o.ci.setDefaults(fs, o, dur.D, runs, workers, &seed)
	}
	o.seed = seed
	rounds := o.schedule == scheduleRounds
	o.run = []string{"-seed", strconv.FormatInt(seed, 10), "-timeout", timeout.String(),
		"-rss_limit_mb", strconv.Itoa(rssLimit)}
	// -engine only when given: each binary then picks its targets' default
	// (native targets have their own).
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "engine":
			o.run = append(o.run, "-engine", engine)
		case "shrinktime":
			o.run = append(o.run, "-shrinktime", shrinkTime.String())
		case "shrinkruns":
			o.run = append(o.run, "-shrinkruns", strconv.FormatInt(*shrinkRuns, 10))
		case "format":
			o.run = append(o.run, "-format", format)
		case "grimoire":
			o.run = append(o.run, "-grimoire="+strconv.FormatBool(grimoire))
		}
	})
	if workers > 0 && !o.ci.on && rounds {
		o.run = append(o.run, "-workers", strconv.Itoa(workers))
	}
	if len(fb) > 0 {
		o.run = append(o.run, "-feedback", strings.Join(fb, ","))
	} else if strings.TrimSpace(feedback) == "none" {
		o.run = append(o.run, "-feedback", "none") // not even native targets' default
	}
	if dur.D > 0 && !o.ci.on && rounds {
		o.run = append(o.run, "-time", dur.String())
	}
	if runs > 0 && rounds {
		o.run = append(o.run, "-runs", strconv.FormatInt(runs, 10))
	}
	if verbose {
		o.run = append(o.run, "-v")
	}
	o.coverprofile = coverprof
	if o.report.dir != "" {
		abs, err := filepath.Abs(o.report.dir)
		if err != nil {
			fmt.Fprintf(stderr, "gfz-run: -report: %v\n", err)
			return nil, 2
		}
		o.report.dir = abs
	}
	return o, -1
}

// built is what buildJobs made.
type built struct {
	workBase, cwd string
	jobs          []*ciJob
	res           *build.Result
	buildErr      error // some packages did not build (the others did)
}

// buildJobs builds the binaries (buildAll) and makes every target's job,
// with its arguments: a path that cannot be written is found before
// anything runs. code >= 0 is the exit status to end with.
func buildJobs(ctx context.Context, o *options, stdout, stderr io.Writer) (b built, code int) {
	b.workBase, b.res, code, b.buildErr = buildAll(ctx, o, stderr)
	if code >= 0 {
		return b, code
	}
	var err error
	if b.cwd, err = os.Getwd(); err != nil {
		fmt.Fprintf(stderr, "gfz-run: %v\n", err)
		return b, 2
	}
	if b.jobs, err = collectJobs(o, b.res.Binaries, b.workBase, b.cwd, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "gfz-run: %v\n", err)
		return b, 2
	}
	return b, -1
}

// buildAll builds the fuzz binaries of gfz-run without -ci: into -o (default
// <workdir>/bin), named after their packages. It returns the absolute work
// directory base, the build's result, an exit status to end
// with (-1: go on, with the binaries that built when buildErr is not nil)
// and the build's error.
func buildAll(ctx context.Context, o *options, stderr io.Writer) (workBase string, res *build.Result, code int, buildErr error) {
	workBase, err := filepath.Abs(o.workdir)
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: -workdir: %v\n", err)
		return "", nil, 2, nil
	}
	if err := checkWritable(workBase); err != nil {
		fmt.Fprintf(stderr, "gfz-run: -workdir %s: %v; give a writable -workdir\n", o.workdir, err)
		return "", nil, 2, nil
	}
	outDir := o.keep
	if outDir == "" {
		outDir = filepath.Join(workBase, "bin")
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "gfz-run: creating the binary directory: %v; give a writable -o (or -workdir)\n", err)
		return "", nil, 2, nil
	}
	// A directory output makes build name each binary after its package.
	o.build.Output = outDir + string(filepath.Separator)
	o.build.Stdout, o.build.Stderr = stderr, stderr
	res, buildErr = build.Build(ctx, o.build)
	if ctx.Err() != nil {
		// Interrupted during the build: what failed to build was
		// stopped, not broken. Nothing is fuzzed, and an interrupt is
		// no failure (exit status 0).
		return "", nil, interruptedBuild(stderr), nil
	}
	if buildErr != nil {
		fmt.Fprintf(stderr, "gfz-run: %v\n", strings.TrimPrefix(buildErr.Error(), "gfz-build: "))
		if errors.Is(buildErr, build.ErrNoModule) {
			return "", nil, 2, buildErr
		}
		if res == nil || len(res.Binaries) == 0 {
			return "", nil, 1, buildErr
		}
		fmt.Fprintf(stderr, "gfz-run: running the %d package(s) that built\n", len(res.Binaries))
	}
	return workBase, res, -1, buildErr
}

// interruptedBuild says that the run was interrupted during the build
// and returns the exit status of an interrupt, 0.
func interruptedBuild(stderr io.Writer) int {
	fmt.Fprintln(stderr, "gfz-run: interrupted during the build: nothing fuzzed")
	return 0
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	o, code := parse(args, stderr)
	if o == nil {
		return code
	}
	if code := checkOutputs(o, stderr); code >= 0 {
		return code
	}
	defer o.report.write(stdout, stderr, &code)
	if o.ci.on {
		return runCI(ctx, o, stdout, stderr)
	}
	if o.schedule != scheduleRounds {
		return runShared(ctx, o, stdout, stderr)
	}
	b, code := buildJobs(ctx, o, stdout, stderr)
	if code >= 0 {
		return code
	}
	jobs, buildErr := b.jobs, b.buildErr
	defer func() {
		for _, j := range jobs {
			if !j.ran && j.report >= 0 {
				o.report.entries[j.report].Status = "not run"
			}
		}
	}()
	ran, failed := 0, 0
	for _, j := range jobs {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "gfz-run: interrupted")
			if buildErr != nil {
				return 1
			}
			return exitFor(failed)
		}
		args := append(slices.Clone(j.args), j.target)
		fmt.Fprintf(stdout, "gfz-run: %s %s (in %s)\n", filepath.Base(j.bin.Output), strings.Join(args, " "), j.bin.Dir)
		j.snapshot()
		ran++
		j.ran = true
		t0 := time.Now().Unix()
		j.code, j.cpu = runBinaryCPU(ctx, j.bin.Output, j.bin.Dir, args, stdout, stderr) // the terminal itself: the binary's live status
		// A binary that exits 0 without writing its stats never ran the
		// engine: its target skipped itself (f.Skip before gfz.Fuzz).
		j.stats, _, _ = workdir.ReadStats(filepath.Join(j.wd, workdir.StatsFile))
		if started, ok := j.stats.Int("start_time"); j.code == 0 && ctx.Err() == nil && (!ok || started < t0) {
			j.skip = true
		}
		j.sortFailures()
		c := j.result()
		o.report.setJob(j)
		switch c {
		case 0:
			if j.code == 1 {
				fmt.Fprintf(stderr, "gfz-run: %s %s: %s\n", j.bin.Package, j.target, refoundNote(j))
			}
		case 1:
			failed++
		default:
			fmt.Fprintf(stderr, "gfz-run: %s %s exited with status %d\n", j.bin.Package, j.target, c)
			return 2
		}
	}
	if ran == 0 {
		fmt.Fprintf(stderr, "gfz-run: no fuzz target named %q\n", o.only)
		return 2
	}
	noInput := false
	for _, j := range jobs {
		noInput = noInput || j.ranNoInput() && ctx.Err() == nil
	}
	fmt.Fprint(stdout, "\n"+summaryText(jobs, o.regress, "", b.cwd))
	fmt.Fprintf(stdout, "gfz-run: %d target(s) run, %d found a new failure\n", ran, failed)
	if noInput {
		return 2 // a target of which nothing was fuzzed
	}
	if buildErr != nil {
		fmt.Fprintln(stderr, "gfz-run: some packages did not build (see above)")
		return 1
	}
	return exitFor(failed)
}

// checkOutputs checks, before the build, the paths the fuzz binaries will
// write to, as -workdir, -o and -failures are checked: otherwise each
// binary would find out only at the end of its first process (exit
// status 2), and every target would be dropped after its first round.
// -coverprofile FILE: every binary writes FILE (or FILE.<suffix>) at the
// end, atomically through a temporary file beside it, and does not
// create its directory, which must therefore exist and take new files.
// -report DIR: each binary creates DIR/<import path>/<FuzzTarget> and
// gfz-run writes DIR/index.html, so DIR must be a directory or
// creatable (it is created now). It returns the exit status to end with
// (-1: go on).
func checkOutputs(o *options, stderr io.Writer) int {
	if o.coverprofile != "" {
		abs, err := filepath.Abs(o.coverprofile)
		if err == nil {
			err = checkProfileDir(filepath.Dir(abs))
		}
		if err != nil {
			fmt.Fprintf(stderr, "gfz-run: -coverprofile %s: %v\n", o.coverprofile, err)
			return 2
		}
	}
	if o.report.dir != "" {
		if err := checkWritable(o.report.dir); err != nil {
			fmt.Fprintf(stderr, "gfz-run: -report %s: %v; give a directory gfz-run can create or write to\n", o.report.dir, err)
			return 2
		}
	}
	return -1
}

// checkProfileDir checks that dir, the directory of a coverage profile,
// is an existing directory where a file can be created.
func checkProfileDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist (the fuzz binaries do not create it)", dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".gfz-probe*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// targetArgs returns the fuzz binary's arguments for target of binary b
// with work directory wd, all but the target name: o.run, -coverprofile
// (suffixed when there are several targets), -regress and -report.
// shared says another package has a target of the same name.
func (o *options) targetArgs(b build.Binary, target, wd string, shared, several bool) ([]string, error) {
	args := append([]string{"-workdir", wd}, o.run...)
	if o.coverprofile != "" {
		prof := o.coverprofile
		if several && o.only == "" {
			if shared {
				prof += "." + strings.ReplaceAll(b.Package, "/", "_")
			}
			prof += "." + target
		}
		prof, err := filepath.Abs(prof)
		if err != nil {
			return nil, fmt.Errorf("-coverprofile: %w", err)
		}
		if fi, err := os.Stat(prof); err == nil && fi.IsDir() {
			return nil, fmt.Errorf("-coverprofile: %s is a directory: the profile cannot be written there", prof)
		}
		args = append(args, "-coverprofile", prof)
	}
	args = append(args, o.regressArgs(b.Dir)...)
	args = append(args, o.report.args(b.Package, target, wd)...)
	return args, nil
}

// regressArgs returns the fuzz binary flag that -regress passes on for a
// package in directory dir (none without -regress).
func (o *options) regressArgs(dir string) []string {
	if !o.regress {
		return nil
	}
	return []string{"-regress=" + dir}
}

// workDir returns the work directory of target in package pkg (an import
// path) under base: base/<import path>/<target>, so that packages with the
// same name, or targets with the same name in different packages, never
// share one.
func workDir(base, pkg, target string) string {
	return filepath.Join(base, filepath.FromSlash(pkg), target)
}

func exitFor(failed int) int {
	if failed > 0 {
		return 1
	}
	return 0
}

// runBinary runs one fuzz binary and returns its exit status. An interrupt
// reaches the child through the terminal's process group (or is forwarded
// when there is none); the child stops cleanly and saves its state. A
// child killed by any other signal is an error (status 2, signalDeath).
func runBinary(ctx context.Context, bin, dir string, args []string, stdout, stderr io.Writer) int {
	code, _ := runBinaryCPU(ctx, bin, dir, args, stdout, stderr)
	return code
}

// runBinaryCPU is runBinary that also returns the CPU seconds the binary
// and its workers used.
func runBinaryCPU(ctx context.Context, bin, dir string, args []string, stdout, stderr io.Writer) (int, float64) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "gfz-run: starting %s: %v\n", bin, err)
		return 2, 0
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			_ = cmd.Process.Signal(os.Interrupt)
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	var cpu float64
	if ps := cmd.ProcessState; ps != nil {
		cpu = (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ctx.Err() != nil && diedOfInterrupt(cmd.ProcessState) {
			// Interrupted before its handler was set up (it had just
			// started): it stopped as asked, with nothing to save.
			return 0, cpu
		}
		if ee.ExitCode() < 0 { // killed by a signal gfz-run did not send
			target := "" // the last of args, as the callers build them
			if len(args) > 0 {
				target = args[len(args)-1]
			}
			fmt.Fprintf(stderr, "gfz-run: %s %s: %s\n", bin, target, signalDeath(cmd.ProcessState))
			return 2, cpu
		}
		return ee.ExitCode(), cpu
	}
	if err != nil {
		fmt.Fprintf(stderr, "gfz-run: %s: %v\n", bin, err)
		return 2, cpu
	}
	return 0, cpu
}

// signalDeath describes the death of a fuzz binary by a signal gfz-run did
// not send (its SIGINT to stop one, its SIGKILL at the end of the budget
// are the callers' to tell apart). It is an error, not a failure of the
// target: the process gfz-run starts is the binary's supervisor, which
// catches its target's crashes in its workers and saves them; its own
// death leaves no failing input. The kernel's OOM killer is the usual
// sender, of SIGKILL.
func signalDeath(ps *os.ProcessState) string {
	kind := signature.CrashKind("", ps) // "signal SIGKILL"
	s := "killed by " + kind + ", which gfz-run did not send"
	if kind == "signal SIGKILL" {
		s += ": out of memory? (the kernel's OOM killer sends it; see dmesg)"
	}
	return s
}

// countTargets counts, over the binaries, the packages having each target
// name (names) and all targets (total), for targetArgs' shared and several.
func countTargets(bins []build.Binary) (names map[string]int, total int) {
	names = map[string]int{}
	for _, b := range bins {
		for _, t := range b.Targets {
			names[t]++
			total++
		}
	}
	return names, total
}
