package driver

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/cover"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// encodeWorkerSpec and decodeWorkerSpec carry a worker's assignment in
// its environment.
func encodeWorkerSpec(w engine.WorkerSpec) string {
	v := url.Values{}
	v.Set("id", strconv.Itoa(w.ID))
	v.Set("inc", strconv.Itoa(w.Incarnation))
	v.Set("shm", w.SharedMem)
	v.Set("seed", strconv.FormatInt(w.Seed, 10))
	v.Set("runs", strconv.FormatInt(w.Runs, 10))
	v.Set("time", strconv.FormatInt(int64(w.Time), 10))
	v.Set("sync", strconv.FormatBool(w.Sync))
	if len(w.Skip) > 0 {
		v.Set("skip", strings.Join(w.Skip, ","))
	}
	for _, a := range w.Avoid {
		v.Add("avoid", base64.RawURLEncoding.EncodeToString(a))
	}
	if w.Resume != 0 {
		v.Set("resume", strconv.FormatUint(w.Resume, 10))
	}
	return v.Encode()
}

func decodeWorkerSpec(s string) (*engine.WorkerSpec, error) {
	v, err := url.ParseQuery(s)
	if err != nil {
		return nil, fmt.Errorf("malformed %s: %w", workerEnv, err)
	}
	w := &engine.WorkerSpec{SharedMem: v.Get("shm")}
	var t int64
	for _, f := range []struct {
		key string
		dst any
	}{{"id", &w.ID}, {"inc", &w.Incarnation}, {"seed", &w.Seed}, {"runs", &w.Runs}, {"time", &t}, {"sync", &w.Sync}} {
		if _, err := fmt.Sscan(v.Get(f.key), f.dst); err != nil {
			return nil, fmt.Errorf("malformed %s: %s: %w", workerEnv, f.key, err)
		}
	}
	w.Time = time.Duration(t)
	if s := v.Get("skip"); s != "" {
		w.Skip = strings.Split(s, ",")
	}
	for _, a := range v["avoid"] {
		b, err := base64.RawURLEncoding.DecodeString(a)
		if err != nil {
			return nil, fmt.Errorf("malformed %s: avoid: %w", workerEnv, err)
		}
		w.Avoid = append(w.Avoid, b)
	}
	if s := v.Get("resume"); s != "" {
		r, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("malformed %s: resume: %w", workerEnv, err)
		}
		w.Resume = r
	}
	if w.SharedMem == "" {
		return nil, fmt.Errorf("malformed %s: no shared memory file", workerEnv)
	}
	return w, nil
}

// parentSetup is what the process the user started checks before it
// starts children: its own executable (the children run it) and the
// target's seed files. It prints the problem and returns false if one
// fails.
func (c *config) parentSetup() (exe string, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: cannot find own executable: %v\n", err)
		return "", false
	}
	if err := checkSeedFiles(c.run.Target, c.codec()); err != nil {
		fmt.Fprintf(c.stderr, "gfz: %v\n", err)
		return "", false
	}
	if c.pkgSeeds != "" && len(c.repro) == 0 {
		fmt.Fprintf(c.stderr, "gfz: note: seeding from %s too: the package's seed corpus, which go test reads in the package directory (this binary runs in another)\n", c.pkgSeeds)
	}
	if src := c.inertSeeds(); src != "" && len(c.repro) == 0 {
		fmt.Fprintf(c.stderr, "gfz: note: the seeds of %s: the default engine, %s, runs them but does not mutate them; -engine zest (or zeugma) builds on them\n", src, c.run.Engine)
	}
	return exe, true
}

// inertSeeds names the seed sources the default engine will run but not
// build on (engineInert): -seedcorpus when given, and the package's seed
// corpus when it holds a file (the one gfz-build recorded, or
// testdata/fuzz/<target> in the current directory, where the testing
// package reads it); "" when there are none, or the engine mutates. The
// target's f.Add seeds are not known here and are not named.
func (c *config) inertSeeds() string {
	if !c.engineInert {
		return ""
	}
	var srcs []string
	if len(c.seedDirs) > 0 && (c.pkgSeeds == "" || len(c.seedDirs) > 1) { // pkgSeeds is appended to the flag's directories
		srcs = append(srcs, "-seedcorpus")
	}
	for _, d := range []string{c.pkgSeeds, filepath.Join("testdata", "fuzz", c.run.Target)} {
		if d != "" && c.run.Target != "" && hasFile(d) {
			srcs = append(srcs, d)
			break // the recorded directory is set only when the current one is another
		}
	}
	return strings.Join(srcs, " and ")
}

// hasFile reports whether dir holds a regular file (not looking into
// subdirectories, as the testing package reads its seed corpus).
func hasFile(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			return true
		}
	}
	return false
}

// generatorsDict returns the dictionary the target's generators draw from
// (userdict.All), which a failure's input needs to replay under plain go
// test; nil for a native target, whose arguments do not depend on it.
func (c *config) generatorsDict() []string {
	if c.codec() != nil {
		return nil
	}
	return userdict.All()
}

// superviseWorkers runs the fuzzing campaign in cfg.workers worker
// processes (this executable again, with GFZ_CHILD and GFZ_WORKER set)
// under engine.Supervise, and maps its result to the exit status.
func superviseWorkers(cfg *config) int {
	exe, ok := cfg.parentSetup()
	if !ok {
		return ExitUsage
	}
	var newFailure func(string) (string, error)
	if cfg.regress != "" {
		if err := checkRegressDir(cfg.regress, cfg.run.Target); err != nil {
			fmt.Fprintf(cfg.stderr, "gfz: %v\n", err)
			return ExitUsage
		}
		newFailure = func(input string) (string, error) {
			return exportRegression(cfg.regress, cfg.run.Target, input, cfg.generatorsDict())
		}
	}
	if cfg.onNewFailure != nil {
		newFailure = chainNewFailure(newFailure, cfg.onNewFailure)
	}
	base := cfg.ctx
	if base == nil {
		base = context.Background()
	}
	ctx, stop := signal.NotifyContext(base, os.Interrupt, syscall.SIGTERM)
	defer stop()
	args := os.Args[1:]
	if cfg.childArgs != nil {
		args = cfg.childArgs
	}
	status, stdout := cfg.outputs()
	if cfg.workdirDefault {
		fmt.Fprintf(status, "gfz: %s: work directory %s (the default, in gfz's cache; -workdir DIR puts it elsewhere)\n", cfg.run.Target, cfg.run.Workdir)
	}
	for _, w := range engine.FeedbackWarnings(cfg.run.Feedback) {
		fmt.Fprintf(cfg.stderr, "gfz: WARNING: %s\n", w)
	}
	run := cfg.run
	run.Status = status
	sum, err := engine.Supervise(ctx, engine.SupervisorConfig{
		Config:         run,
		DictionaryFile: dictionaryFile(cfg.generatorsDict()),
		RSSLimitMB:     cfg.rssLimitMB, Workers: cfg.workers,
		Verbose: cfg.verbose, ErrorExit: childExitBase + ExitUsage,
		Command: func(w engine.WorkerSpec) *exec.Cmd {
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), childEnv+"=1", workerEnv+"="+encodeWorkerSpec(w))
			cmd.Stdout = stdout
			return cmd
		},
		Describe:   cfg.describer(exe),
		NewFailure: newFailure,
		Inited:     cfg.onInited,
		Codec:      cfg.codec(),
		Probe:      cfg.prober(exe),
	})
	cfg.summary = sum
	switch {
	case errors.Is(err, engine.ErrNoEngine):
		// Tell a target that does not call gfz.Fuzz from one whose seeds
		// the testing package refused (f.Add of another type than
		// []byte): a -repro child says which on its status pipe.
		var testOut bytes.Buffer
		st, perr := runChild(exe, childOptions{args: []string{"-repro", os.DevNull, cfg.run.Target}, stdout: &testOut,
			timeout: reproDefaultTimeout, env: []string{childTestV + "=1"}})
		if reason, ok := skipped(testOut.String(), cfg.run.Target); perr == nil && ok {
			// f.Skip before fuzzing: go test -fuzz passes such a target;
			// nothing to fuzz is not a setup error.
			fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s %s%s: nothing fuzzed\n", cfg.run.Target, engine.SkippedText, reason)
			return ExitOK
		}
		if perr == nil && st.seedsFailed {
			if cfg.codec() != nil {
				fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s: its seed corpus was refused (see the message above)\n", cfg.run.Target)
				return ExitUsage
			}
			fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s: the testing package refused its seed corpus (see its message above): seeds added with f.Add must be single []byte values\n", cfg.run.Target)
			return ExitUsage
		}
		var ne *engine.NoEngineError
		out, exit := "", ""
		if errors.As(err, &ne) {
			if !cfg.verbose {
				out = unforwarded(ne.Output)
			}
			if ne.Exit != "" {
				exit = " (its worker process ended: " + ne.Exit + ")"
			}
		}
		if out != "" {
			fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s ended without running gfz's engine%s; what it printed:\n%s\n", cfg.run.Target, exit, out)
			fmt.Fprintf(cfg.stderr, "gfz: %s; if it does, it failed before that call (above)\n", cfg.mustCall())
			return ExitUsage
		}
		fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s ended without running gfz's engine%s: %s (see the testing output above, if any, for errors before that call: an os.Exit in its setup prints none)\n", cfg.run.Target, exit, cfg.mustCall())
		return ExitUsage
	case err != nil:
		fmt.Fprintf(cfg.stderr, "gfz: %s: %v\n", cfg.run.Target, err)
		return ExitUsage
	case len(sum.Errors) > 0:
		return ExitUsage // printed loudly by the supervisor
	case sum.NewFailures > 0:
		return ExitFailure
	}
	if sum.Failures > 0 {
		fmt.Fprintf(cfg.stderr, "gfz: no new failure; %d failure(s) found by earlier runs are in %s\n", sum.Failures, filepath.Join(cfg.run.Workdir, "failures"))
	}
	return ExitOK
}

// checkSeedFiles checks that every file of the target's seed corpus
// directory, testdata/fuzz/<target> (relative to the current directory, as
// the testing package reads it), holds an input of the target (codec's
// format: one []byte value for a gfz target). The testing package would
// refuse such a file in every child before gfz.Fuzz gets control, which
// looks like a target that does not call gfz.Fuzz. Like go test, it
// names every bad file with its reason, not only the first.
func checkSeedFiles(target string, codec workdir.Codec) error {
	dir := filepath.Join("testdata", "fuzz", target)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("seed corpus of %s: %w", target, err)
	}
	var bad []error
	for _, e := range entries {
		if e.IsDir() {
			continue // the testing package skips directories too
		}
		if _, err := workdir.ReadFileWith(codec, filepath.Join(dir, e.Name())); err != nil {
			bad = append(bad, err)
		}
	}
	what := "a gfz target's seeds hold one []byte value, as gfz and go test -fuzz write them"
	if codec != nil {
		what = "a native target's seed files hold its argument values, one per line, in its own types"
	}
	switch len(bad) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("seed file %w (%s)", bad[0], what)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d seed files of %s are not inputs of the target (%s); fix or remove them:", len(bad), target, what)
	for _, err := range bad {
		fmt.Fprintf(&b, "\n\tseed file %v", err)
	}
	return errors.New(b.String())
}

// fuzz is gfz.Fuzz in the child process: collect the seed corpus, run the
// engine or the repro, exit.
func (c *config) fuzz(f *testing.F, t Target) {
	if c.called {
		f.Fatal("gfz: Fuzz called more than once")
	}
	c.called = true
	status := &statusWriter{f: statusPipe}
	var seeds [][]byte
	returned := false
	defer func() {
		if !returned {
			// f.Fuzz ended the test (runtime.Goexit) before running
			// anything: the testing package refused a seed.
			if _, ok := t.(SeedCollector); ok {
				fmt.Fprintf(os.Stderr, "gfz: fuzz target %s: the testing package refused its seed corpus before gfz could run (its message follows): the values of f.Add and of the files in testdata/fuzz/%s must match the fuzz function's arguments\n", c.run.Target, c.run.Target)
				status.line("seeds", "")
				return
			}
			fmt.Fprintf(os.Stderr, "gfz: fuzz target %s: the testing package refused its seed corpus before gfz could run (its message follows): gfz seeds, added with f.Add or in testdata/fuzz/%s, hold a single []byte value\n", c.run.Target, c.run.Target)
			status.line("seeds", "")
		}
	}()
	if sc, ok := t.(SeedCollector); ok {
		var err error
		seeds, err = sc.CollectSeeds(f)
		if err != nil {
			returned = true
			fmt.Fprintf(os.Stderr, "gfz: fuzz target %s: %v\n", c.run.Target, err)
			status.line("seeds", "")
			ExitChild(ExitUsage)
		}
	} else {
		f.Fuzz(func(_ *testing.T, data []byte) {
			seeds = append(seeds, bytes.Clone(data))
		})
	}
	returned = true
	if f.Failed() {
		status.line("seeds", "")
		return // the testing package reports why; the parent exits 2
	}
	status.line("start", "")
	if c.run.StackLimitMB > 0 {
		debug.SetMaxStack(c.run.StackLimitMB << 20) // -repro and -merge children too, not only engine.Run
	}
	if p := gcPercent(os.Getenv); p > 0 {
		// The same in -repro children as in the fuzzing run that found
		// the input (an out-of-memory death depends on the headroom).
		debug.SetGCPercent(p)
	}
	code := c.runTarget(t, seeds, status)
	status.line("done", strconv.Itoa(code))
	if (c.worker != nil || statusPipe != nil) && code != ExitUsage {
		// A worker's end is in its shared memory (phase done), a -repro
		// child's in its "done" line: let the testing package end the
		// process, as under go test, so that the F's cleanups run
		// (f.Cleanup, f.TempDir's directory: a shrink runs up to a hundred
		// children). Its PASS line is not the child's to print.
		if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
			os.Stdout = null
		}
		return
	}
	os.Exit(childExitBase + code)
}

// runTarget runs the engine or the repro and returns the exit status.
func (c *config) runTarget(t Target, seeds [][]byte, status *statusWriter) int {
	if c.lf != nil && c.lf.merge {
		return c.mergeChild(t, status)
	}
	if len(c.repro) > 0 {
		// A hang's stacks as a worker prints them, so that its signature
		// is the one the supervisor saved (shrinking compares them).
		defer engine.DumpOnQuit()()
		return repro(c.stdout, c.stderr, t, c.repro, c.verbose, status)
	}
	if len(c.seedDirs) > 0 {
		var warn io.Writer // one worker says what it skipped
		if c.worker == nil || c.worker.ID == 0 {
			warn = c.stderr
		}
		more, err := readSeedDirs(c.seedDirs, func(path string) ([]byte, error) { return readInputFor(t, path) }, warn)
		if err != nil {
			fmt.Fprintf(c.stderr, "gfz: %v\n", err)
			return ExitUsage
		}
		seeds = append(seeds, more...)
	}
	c.mixFormat(t, seeds)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ecfg := c.run
	ecfg.Seeds = seeds
	ecfg.Status = c.stderr
	ecfg.Dictionary = c.dictionary() // native targets' raw arguments get the code's literals
	if w := c.worker; w != nil {
		ecfg.Seed, ecfg.Runs, ecfg.Time = w.Seed, w.Runs, w.Time
		ecfg.SharedMem, ecfg.Sync = w.SharedMem, w.Sync
		ecfg.Restarted = w.Incarnation > 0
		ecfg.QuietSetup = w.ID != 0 || w.Incarnation > 0
		ecfg.SkipInputs, ecfg.AvoidInputs = w.Skip, w.Avoid
		ecfg.ResumeAfter = w.Resume
		// No debug.SetMemoryLimit soft guard: near the limit the garbage
		// collector runs continuously, which turns a runaway allocation
		// into a slow hang (measured: a timeout before the RSS limit).
		// The supervisor enforces -rss_limit_mb.
	}
	c.seedgen.apply(&ecfg, c.worker, c.workers)
	if c.verbose && (c.worker == nil || c.worker.ID == 0 && c.worker.Incarnation == 0) {
		fmt.Fprintf(c.stderr, "gfz: target %s, engine %s, seed %d, %d seed inputs, workdir %s, %d workers, build %s\n",
			c.run.Target, c.run.Engine, c.run.Seed, len(seeds), c.run.Workdir, c.workers, buildInfo)
	}
	sum, err := engine.Run(ctx, ecfg, t.Executor())
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: %s: %v\n", c.run.Target, err)
		return ExitUsage
	}
	if prof := c.profilePath(); prof != "" && (c.worker == nil || c.worker.ID == 0) {
		if sum.Partial && fileExists(prof) {
			// An earlier run's profile of the same work directory stands
			// for more of the corpus than this one's would.
			fmt.Fprintf(c.stderr, "gfz: -coverprofile: %s is left as an earlier run wrote it: this run ended before replaying its whole corpus, so its own profile would cover less\n", prof)
		} else if err := c.writeCoverage(prof); err != nil {
			fmt.Fprintf(c.stderr, "gfz: %v\n", err)
			return ExitUsage
		}
	}
	if sum.NewFailures > 0 {
		return ExitFailure // the engine has printed where the failures are
	}
	if sum.Failures > 0 && c.worker == nil {
		fmt.Fprintf(c.stderr, "gfz: no new failure; %d failure(s) found by earlier runs are in %s\n", sum.Failures, filepath.Join(c.run.Workdir, "failures"))
	}
	return ExitOK
}

// fileExists reports whether path names an existing file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// writeProfile writes the coverage profile of the instrumented packages
// (a variable for tests).
var writeProfile = cover.WriteProfile

// writeCoverProfile writes the go tool cover profile to path atomically.
func writeCoverProfile(path string) error {
	var buf bytes.Buffer
	if err := writeProfile(&buf); err != nil {
		return fmt.Errorf("-coverprofile %s: %w", path, err)
	}
	if err := workdir.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("-coverprofile: %w", err)
	}
	return nil
}

// unforwarded returns the lines of a worker's stderr that the supervisor
// did not forward (proc.Unforwarded), indented by a tab, or "" if there
// are none.
func unforwarded(output string) string {
	lines := proc.Unforwarded(strings.TrimRight(output, "\n"))
	if len(lines) == 0 {
		return ""
	}
	return "\t" + strings.Join(lines, "\n\t")
}

// skipped reports whether the testing output of a -test.v run (out) says
// that target skipped itself ("--- SKIP: FuzzX (0.00s)"), and what it
// logged, as ": message" ("" if nothing): the indented lines after its
// "=== RUN" line (-test.v prints a log as it happens, before the SKIP line).
func skipped(out, target string) (reason string, ok bool) {
	var logged []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "=== RUN   "+target) && strings.TrimSpace(strings.TrimPrefix(l, "=== RUN   ")) == target:
			logged = logged[:0]
		case strings.HasPrefix(l, "    "):
			logged = append(logged, strings.TrimSpace(l))
		case strings.HasPrefix(l, "--- SKIP: "+target+" ("):
			if len(logged) > 0 {
				reason = ": " + strings.Join(logged, "; ")
			}
			return reason, true
		}
	}
	return "", false
}

// mustCall says what a fuzz target must call for gfz's engine to run.
func (c *config) mustCall() string {
	if c.codec() != nil {
		return "it must reach its f.Fuzz call"
	}
	return "it must call gfz.Fuzz(f, ...)"
}

// fuzzGCPercent is the garbage collector's percentage in the processes
// that run the target (workers, -repro and -merge children) when the user
// has not set GOGC: the heap may grow to three times the live heap between
// collections, where Go's default is twice. A fuzzing process keeps a
// small live heap (the queue, the engine's state) while each execution of
// a parser makes garbage, so at Go's default the collector runs often for
// little: on five real bugs' targets of the suite (testdata/bugs,
// `random`, fixed executions, pairs run one after the other on one core)
// 200 took 0.69 of the CPU time of 100 on the allocation-heavy TIFF
// decoder and 0.94-0.98 on the other four, for 7-16 MB more resident
// memory (docs/BENCHMARKS.md, "The garbage collector's percentage in
// fuzzing runs"). No debug.SetMemoryLimit goes with it (see runTarget).
const fuzzGCPercent = 200

// gcPercent is the garbage collector's percentage of a process that runs
// the target: fuzzGCPercent, unless the user set GOGC, which the Go runtime
// has applied (0: leave it).
func gcPercent(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return 0
	}
	return fuzzGCPercent
}
