package driver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gfz-dev/gfz/internal/cliflag"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/formatreg"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, " ") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

const usageText = `usage: %s [flags] [FuzzTarget]
       %s -repro FILE [FILE...] [FuzzTarget]

Runs gfz's engine on one fuzz target of this binary (the only one, or the
one named) in -workers worker processes; a worker that crashes, hangs or
runs out of memory is restarted and the input it ran is saved as a failure.
Exit status: 0 nothing failed, 1 a failure was found, 2 usage or setup
error (or something found could not be saved).

It also accepts libFuzzer's command line (-max_total_time=S, -timeout=S,
-artifact_prefix=P, -dict=F, -merge=1, corpus directories, input files),
for ClusterFuzzLite and OSS-Fuzz; see docs/CLI.md, "libFuzzer command line".

flags:
`

// rssFloorMB is cliflag.RSSFloorMB for the map bits of the build info.
func rssFloorMB(mapbits string) int {
	b, _ := strconv.Atoi(mapbits)
	return cliflag.RSSFloorMB(b)
}

// parseArgs parses a fuzz binary's command line. It returns the exit
// status to end with (>= 0) after printing usage, the target list or an
// error, or -1 to go on.
func parseArgs(info string, args []string, stdout, stderr io.Writer) (*config, int) {
	cfg := &config{stdout: stdout, stderr: stderr}
	vals, err := url.ParseQuery(info)
	if err != nil {
		fmt.Fprintf(stderr, "gfz: malformed build info %q: %v\n", info, err)
		return nil, ExitUsage
	}
	if v := vals.Get("v"); v != "1" {
		fmt.Fprintf(stderr, "gfz: build info version %q not supported by this gfz (want 1); rebuild with the matching gfz-build\n", v)
		return nil, ExitUsage
	}
	cfg.info = vals
	for _, name := range strings.Split(vals.Get("targets"), ",") {
		if name != "" {
			cfg.targets = append(cfg.targets, name)
		}
	}

	prog := "fuzzbinary"
	if len(os.Args) > 0 {
		prog = filepath.Base(os.Args[0])
	}
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), usageText, prog, prog)
		fs.PrintDefaults()
	}
	var repro stringList
	fs.BoolVar(&cfg.list, "list", false, "list the fuzz targets of this binary and exit")
	timeFlag := cliflag.Duration{}
	timeoutFlag := cliflag.Duration{Auto: true, IsAuto: true}
	fs.Var(&timeFlag, "time", "stop after `D`, a duration with a unit such as 30s or 1h30m (0: no limit)")
	fs.Int64Var(&cfg.run.Runs, "runs", 0, "stop after this many executions (0: no limit)")
	fs.StringVar(&cfg.run.Workdir, "workdir", "", "work directory (corpus/, failures/, plot_data, stats); default: one per package and target in gfz's cache ($GFZCACHE, default "+filepath.Join(userCacheHint, "gfz")+"), outside the source tree, named in the first status line; resumed if it exists")
	fs.Int64Var(&cfg.run.Seed, "seed", 1, "seed of every random choice, 0 or more: with -workers 1, the same seed, binary and -runs give the same run for a target whose coverage is the same every time it runs an input (see the stability figure)")
	fs.Var(&repro, "repro", "re-run the input `FILE` (and the files named after the flags), print the generated values, result and stack")
	fs.StringVar(&cfg.run.Engine, "engine", engine.DefaultEngine, "fuzzing engine: "+engine.EngineList()+"; a native target's default is args")
	feedback := fs.String("feedback", "", "feedback beside coverage, a comma-separated `list` of "+engine.FeedbackList()+", or none; default: cmp for a native target under -engine args in a binary with comparison probes (gfz-build's default for native targets), else none (docs/CLI.md)")
	fs.Var(&timeoutFlag, "timeout", "per-input timeout `D`, a duration with a unit such as 2s or 500ms; auto: calibrated from the measured execution times (-repro: 10s); 0: no timeout")
	fs.StringVar(&cfg.coverprofile, "coverprofile", "", "write a go tool cover profile of the instrumented packages to `FILE` at the end")
	fs.StringVar(&cfg.report, "report", "", "after the run, write an HTML report of the work directory (charts, failures, source coverage) to `DIR`/index.html")
	fs.BoolVar(&cfg.verbose, "v", false, "verbose output (also: forward everything workers print on stderr)")
	fs.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "number of worker processes; -workers 1 with -seed and -runs is exactly reproducible")
	shrinkTime := cliflag.Duration{D: engine.DefaultShrinkTime}
	fs.Var(&shrinkTime, "shrinktime", "shrink each new failure for at most `D`, a duration with a unit such as 60s (0: do not shrink)")
	shrinkRuns := fs.Int64("shrinkruns", engine.DefaultShrinkRuns, "shrink each new failure in at most this many executions, each a new process for a failure that kills it (default there "+strconv.Itoa(engine.DefaultDeathShrinkRuns)+"); 0: do not shrink")
	fs.IntVar(&cfg.run.StackLimitMB, "stack_limit_mb", defaultStackLimitMB, "limit every goroutine's stack in the processes that run the target to this many MiB, so that an endless recursion is a stack overflow within milliseconds (0: Go's default, 1 GB)")
	fs.IntVar(&cfg.rssLimitMB, "rss_limit_mb", 2048, "kill a worker whose resident memory exceeds this many MiB and save its input as an \"out of memory\" failure (0: no limit; otherwise at least "+strconv.Itoa(cliflag.MinRSSLimitMB)+"; with a coverage map above 1 MiB, at least "+strconv.Itoa(cliflag.MinRSSLimitMB)+" plus 4 MiB per MiB of the whole map)")
	fs.Var(&cfg.seedDirs, "seedcorpus", "also seed the run with the inputs in `DIR` (repeatable), files in the target's corpus format, e.g. go test -fuzz's cache $(go env GOCACHE)/fuzz/<import path>/<FuzzTarget>")
	fs.StringVar(&cfg.format, "format", FormatAuto, "native targets: mix in children from the near-miss generator of `FORMAT` (auto: the format of the seeds, if most look like one; none: off; or one of "+strings.Join(formatreg.Names, ", ")+")")
	fs.BoolVar(&cfg.run.Grimoire, "grimoire", false, "native targets under -engine args: generalise the short []byte and string arguments of new inputs and recombine their fragments into one child kind (Grimoire; docs/ENGINE.md)")
	seedgenFlag := cliflag.Duration{}
	fs.Var(&seedgenFlag, "seedgen", "before fuzzing, generate seeds for `D` (a duration, counted in -time) with -seedgen-engine, keep the ones -seedgen-filter picks, and start -engine from them (off by default)")
	fs.Int64Var(&cfg.seedgen.runs, "seedgen-runs", 0, "like -seedgen, but for this many executions (counted in -runs, split among the workers); for reproducible runs")
	fs.StringVar(&cfg.seedgen.engine, "seedgen-engine", engine.DefaultSeedGenEngine, "seed generation engine: rl or random (a native target: random)")
	fs.StringVar(&cfg.seedgen.filter, "seedgen-filter", engine.DefaultSeedFilter, "seed filter: rnd (uniform), par (parameter-sequence prefixes), cho (choice bigrams) or cov (generator coverage)")
	var regress regressFlag
	fs.Var(&regress, "regress", "also write each new failure into the package's testdata/fuzz/<FuzzTarget>/ and print the go test command that replays it (off by default); -regress alone uses the package directory gfz-build recorded, -regress=DIR names it")
	lf, args, err := scanLibFuzzer(args, fs, cfg.isTarget)
	if err != nil {
		fmt.Fprintf(stderr, "gfz: %v\n", err)
		return nil, ExitUsage
	}
	cfg.lf = lf
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, ExitOK
		}
		return nil, ExitUsage // the flag package printed the error and usage
	}
	engineSet := false
	fs.Visit(func(f *flag.Flag) { engineSet = engineSet || f.Name == "engine" })
	if cfg.list {
		for _, name := range cfg.targets {
			fmt.Fprintln(stdout, name)
		}
		return nil, ExitOK
	}
	if !slices.Contains(engine.Engines(), cfg.run.Engine) {
		fmt.Fprintf(stderr, "gfz: unknown engine %q (want %s)\n", cfg.run.Engine, engine.EngineList())
		return nil, ExitUsage
	}
	if cfg.run.Feedback, err = engine.ParseFeedback(*feedback); err != nil {
		fmt.Fprintf(stderr, "gfz: -feedback: %v\n", err)
		return nil, ExitUsage
	}
	cfg.run.Time = timeFlag.D
	// -shrinkruns and -shrinktime in the engine's terms: not given, 0
	// (each bound's own default: a death's shrink runs fewer candidates,
	// each a process); 0 given, NoShrink.
	set := flagsSet(fs)
	if set["shrinkruns"] {
		cfg.run.ShrinkRuns = shrinkBound(*shrinkRuns)
	}
	if set["shrinktime"] {
		cfg.run.ShrinkTime = shrinkBound(shrinkTime.D)
	}
	cfg.seedgen.d = seedgenFlag.D
	if msg := cfg.seedgen.check(cfg.run.Time, cfg.run.Runs); msg != "" {
		fmt.Fprintln(stderr, "gfz: "+msg)
		return nil, ExitUsage
	}
	switch {
	case timeoutFlag.IsAuto:
		cfg.run.Timeout = 0 // the engine calibrates it
	case timeoutFlag.D == 0:
		cfg.run.Timeout = engine.NoTimeout
	default:
		cfg.run.Timeout = timeoutFlag.D
	}
	if cfg.run.Runs < 0 || cfg.rssLimitMB < 0 || *shrinkRuns < 0 || cfg.run.StackLimitMB < 0 {
		fmt.Fprintln(stderr, "gfz: -runs, -rss_limit_mb, -stack_limit_mb and -shrinkruns must not be negative")
		return nil, ExitUsage
	}
	if cfg.run.Seed < 0 {
		fmt.Fprintf(stderr, "gfz: -seed %d: the seed must be 0 or more (any such number is a different run; the same one repeats a run with -workers 1 and -runs)\n", cfg.run.Seed)
		return nil, ExitUsage
	}
	if cfg.run.StackLimitMB > maxStackLimitMB {
		fmt.Fprintf(stderr, "gfz: -stack_limit_mb %d is too large: at most %d (MiB), or 0 for Go's default\n", cfg.run.StackLimitMB, maxStackLimitMB)
		return nil, ExitUsage
	}
	if floor := rssFloorMB(vals.Get("mapbits")); cfg.rssLimitMB > 0 && cfg.rssLimitMB < floor {
		fmt.Fprintf(stderr, "gfz: -rss_limit_mb %d is below a worker's own footprint: use at least %d (MiB), or 0 for no limit\n", cfg.rssLimitMB, floor)
		return nil, ExitUsage
	}
	if cfg.regress, err = regress.regressDir(vals.Get("dir")); err != nil {
		fmt.Fprintf(stderr, "gfz: %v\n", err)
		return nil, ExitUsage
	}
	if err := checkFormat(cfg.format); err != nil {
		fmt.Fprintf(stderr, "gfz: %v\n", err)
		return nil, ExitUsage
	}
	if err := checkSeedDirs(cfg.seedDirs); err != nil {
		fmt.Fprintf(stderr, "gfz: %v\n", err)
		return nil, ExitUsage
	}
	if cfg.workers < 1 {
		fmt.Fprintln(stderr, "gfz: -workers must be at least 1")
		return nil, ExitUsage
	}
	if most := maxWorkers(runtime.NumCPU()); cfg.workers > most {
		fmt.Fprintf(stderr, "gfz: -workers %d is too many for %d CPU core(s): at most %d (each worker is a process with 1 MiB of shared memory; more workers than cores only share them)\n", cfg.workers, runtime.NumCPU(), most)
		return nil, ExitUsage
	}

	// Positional arguments: the target name, and more -repro files.
	cfg.repro = repro
	var named []string
	for _, a := range fs.Args() {
		if cfg.isTarget(a) {
			named = append(named, a)
		} else if len(cfg.repro) > 0 {
			cfg.repro = append(cfg.repro, a)
		} else {
			fmt.Fprintf(stderr, "gfz: unknown fuzz target %q (targets: %s)\n", a, strings.Join(cfg.targets, ", "))
			return nil, ExitUsage
		}
	}
	if cfg.lf != nil {
		if err := cfg.applyLibFuzzer(flagsSet(fs)); err != nil {
			fmt.Fprintf(stderr, "gfz: %v\n", err)
			return nil, ExitUsage
		}
	}
	switch {
	case len(named) > 1:
		fmt.Fprintf(stderr, "gfz: name one fuzz target, not %d (%s)\n", len(named), strings.Join(named, ", "))
		return nil, ExitUsage
	case len(named) == 1:
		cfg.run.Target = named[0]
	case len(cfg.targets) == 1:
		cfg.run.Target = cfg.targets[0]
	case len(cfg.targets) == 0:
		fmt.Fprintln(stderr, "gfz: this binary has no fuzz targets")
		return nil, ExitUsage
	case cfg.targetFromExe() != "":
		// A binary named P_T runs T, with libFuzzer's command line or
		// gfz's (OSS-Fuzz's scripts run it with no arguments, or -runs=N,
		// before anything libFuzzer-only). The children are told: they
		// run as os.Executable(), whose name may differ.
		cfg.run.Target = cfg.targetFromExe()
		if cfg.lf != nil {
			cfg.lf.targetByExe = true // lfChildBase
		} else {
			cfg.childArgs = append(append([]string(nil), args...), cfg.run.Target)
		}
	default:
		fmt.Fprintf(stderr, "gfz: this binary has %d fuzz targets; name one of: %s\n", len(cfg.targets), strings.Join(cfg.targets, ", "))
		return nil, ExitUsage
	}
	if cfg.run.Workdir == "" {
		// Never in the source tree: in gfz's cache, keyed by the package
		// directory gfz-build recorded (the current directory for a
		// binary without one), as gfz-run's default.
		// (libFuzzer's command line uses a temporary one instead.)
		cfg.run.Workdir = workdir.DefaultDir(vals.Get("dir"), cfg.run.Target)
		cfg.workdirDefault = cfg.lf == nil
	}
	if cfg.lf == nil { // the seeds of the package's testdata/fuzz, wherever the binary runs
		if d := packageSeedDir(vals.Get("dir"), cfg.run.Target); d != "" {
			cfg.seedDirs = append(cfg.seedDirs, d)
			cfg.pkgSeeds = d
		}
	}
	if !engineSet {
		cfg.run.Engine = cfg.defaultEngine(set["feedback"]) // native targets have their own, -feedback wants zest
	}
	cfg.engineInert = !engineSet && !engine.Mutates(cfg.run.Engine) && cfg.codec() == nil
	if !set["seedgen-engine"] && cfg.codec() != nil {
		cfg.seedgen.engine = "random" // rl has nothing to learn on a native target
	}
	if msg := cfg.nativeEngineProblem(); msg != "" {
		fmt.Fprintln(stderr, "gfz: "+msg)
		return nil, ExitUsage
	}
	if !set["feedback"] {
		cfg.run.Feedback = cfg.defaultFeedback() // and their own feedback
	}
	if err := cfg.absPaths(); err != nil {
		fmt.Fprintf(stderr, "gfz: %v\n", err)
		return nil, ExitUsage
	}
	if err := cfg.checkOutputs(); err != nil {
		fmt.Fprintf(stderr, "gfz: %v\n", err)
		return nil, ExitUsage
	}
	return cfg, -1
}

// checkOutputs checks, before the run, the paths the run writes only at
// its end (-coverprofile, -report): a directory that does not exist, or a
// file where a directory must be, would otherwise be found after the
// whole -time, the run's coverage or report lost. -repro writes neither.
func (cfg *config) checkOutputs() error {
	if len(cfg.repro) > 0 && cfg.lf == nil {
		for _, f := range []struct{ name, val string }{{"coverprofile", cfg.coverprofile}, {"report", cfg.report}} {
			if f.val != "" {
				return fmt.Errorf("-%s is not written with -repro (it describes a fuzzing run): drop it, or run the target without -repro", f.name)
			}
		}
		return nil
	}
	if len(cfg.repro) > 0 {
		return nil // libFuzzer's inputs to run: as -repro
	}
	if p := cfg.coverprofile; p != "" {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return fmt.Errorf("-coverprofile %s: is a directory (it names the profile's file)", p)
		}
		dir := filepath.Dir(p)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = errors.New("not a directory")
			}
			return fmt.Errorf("-coverprofile %s: its directory %s: %v (create it first)", p, dir, err)
		}
	}
	if p := cfg.report; p != "" {
		// Created with its parents at the end: every part that exists must
		// be a directory.
		// (A part below a file does not exist either: stat says "not a
		// directory"; the walk goes on up to the file.)
		for d := p; ; d = filepath.Dir(d) {
			fi, err := os.Stat(d)
			switch {
			case err == nil && !fi.IsDir():
				return fmt.Errorf("-report %s: %s is a file (the report is written into a directory, DIR/index.html)", p, d)
			case err == nil:
				return nil
			}
			if filepath.Dir(d) == d {
				return nil
			}
		}
	}
	return nil
}

// absPaths makes the paths the command line gave absolute, before any
// code of the target runs: a target may change the current directory
// (os.Chdir), after which a relative -coverprofile would be written, and
// the next -repro file read, somewhere else.
func (cfg *config) absPaths() error {
	paths := []*string{&cfg.run.Workdir, &cfg.coverprofile, &cfg.report}
	for i := range cfg.repro {
		paths = append(paths, &cfg.repro[i])
	}
	for i := range cfg.seedDirs {
		paths = append(paths, &cfg.seedDirs[i])
	}
	for _, p := range paths {
		if *p == "" || filepath.IsAbs(*p) {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("%s: %w", *p, err)
		}
		*p = abs
	}
	return nil
}

// isTarget reports whether name is one of the binary's fuzz targets. When
// the build info lists none, any FuzzXxx name is accepted.
func (c *config) isTarget(name string) bool {
	if len(c.targets) == 0 {
		return strings.HasPrefix(name, "Fuzz") && !strings.ContainsAny(name, "/.")
	}
	for _, t := range c.targets {
		if t == name {
			return true
		}
	}
	return false
}

// seedgenFlags are -seedgen, -seedgen-runs, -seedgen-engine and
// -seedgen-filter (engine.Config.SeedGen*).
type seedgenFlags struct {
	d              time.Duration
	runs           int64
	engine, filter string
}

// check returns what is wrong with the flags ("" if nothing), given -time
// and -runs.
func (s *seedgenFlags) check(total time.Duration, runs int64) string {
	switch {
	case s.runs < 0:
		return "-seedgen-runs must not be negative"
	case s.d > 0 && s.runs > 0:
		return "give -seedgen or -seedgen-runs, not both"
	case total > 0 && s.d >= total:
		return fmt.Sprintf("-seedgen %v leaves no time to fuzz within -time %v: make it shorter (the thesis used 1 minute of 60)", s.d, total)
	case runs > 0 && s.runs >= runs:
		return fmt.Sprintf("-seedgen-runs %d leaves no executions to fuzz within -runs %d: make it smaller", s.runs, runs)
	case !slices.Contains(engine.SeedGenEngines, s.engine):
		return fmt.Sprintf("unknown -seedgen-engine %q (want rl or random)", s.engine)
	case !slices.Contains(engine.SeedFilters, s.filter):
		return fmt.Sprintf("unknown -seedgen-filter %q (want rnd, par, cho or cov)", s.filter)
	}
	return ""
}

// apply sets the seed-generation fields of ecfg for worker w of workers
// (w nil: not a worker). Only a worker's first incarnation generates
// seeds (a restarted worker goes on fuzzing), and -seedgen-runs is split
// among the workers as -runs is.
func (s *seedgenFlags) apply(ecfg *engine.Config, w *engine.WorkerSpec, workers int) {
	if w != nil && w.Incarnation > 0 {
		return
	}
	ecfg.SeedGen, ecfg.SeedGenEngine, ecfg.SeedFilter = s.d, s.engine, s.filter
	ecfg.SeedGenRuns = s.runs
	if w != nil && workers > 1 && s.runs > 0 {
		ecfg.SeedGenRuns = s.runs / int64(workers)
		if int64(w.ID) < s.runs%int64(workers) {
			ecfg.SeedGenRuns++
		}
		if ecfg.SeedGenRuns == 0 {
			ecfg.SeedGenRuns = 1
		}
	}
}

// shrinkBound maps a -shrinkruns or -shrinktime value given on the command
// line to the engine's bound: 0 (do not shrink) is engine.NoShrink.
func shrinkBound[N int64 | time.Duration](v N) N {
	if v == 0 {
		return engine.NoShrink
	}
	return v
}

// userCacheHint names the user's cache directory in -workdir's help.
const userCacheHint = "<user cache dir>"

// maxWorkers bounds -workers on a machine of cpus cores: 8 per core, 64 at
// least (a typo's 100000 made 100,000 processes' shared memory files).
func maxWorkers(cpus int) int { return max(64, 8*cpus) }

// maxStackLimitMB bounds -stack_limit_mb: 1 TiB, far above Go's own
// 1 GB default; a larger value would overflow the byte count given to
// debug.SetMaxStack.
const maxStackLimitMB = 1 << 20

// defaultStackLimitMB is -stack_limit_mb's default: deep enough for any
// parser's legitimate recursion we know of (a frame of a few hundred bytes
// gives hundreds of thousands of levels), small enough that an endless
// recursion overflows in milliseconds.
const defaultStackLimitMB = 64
