package gfz

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/engine"
)

// Fuzz-binary mode.
//
// A fuzz binary is a test binary built by gfz-build with buildInfo set. Its
// command line is
//
//	./x.gfz [flags] [FuzzTarget]
//
// The process started by the user parses and checks the flags, handles -h
// and -list, and becomes the supervisor (engine.Supervise): it never runs
// the target itself but starts -workers worker processes, the same
// executable with the same arguments and GFZ_CHILD=1 plus GFZ_WORKER=<the
// worker's assignment> in the environment. A child's init rewrites os.Args
// to "-test.run=^FuzzTarget$" so that the testing package runs exactly that
// target; gfz.Fuzz then collects the seed corpus and runs engine.Run in
// worker mode, publishing every input in the shared memory the supervisor
// created before running it, and exits with childExitBase + status. The
// supervisor restarts a worker that dies (whatever the target did to its
// process), records the failure, aggregates the workers' counters and maps
// the outcome to the exit status; a worker that never reaches gfz.Fuzz
// means the target does not call it (exit 2).
//
// With -repro there is no supervisor: one child runs the inputs and writes
// a byte on a status pipe (descriptor 3) when it reached gfz.Fuzz, so that
// the parent can tell a target without gfz.Fuzz from a crash of the child.

// Exit statuses of a fuzz binary.
const (
	ExitOK      = 0 // nothing failed
	ExitFailure = 1 // a failure was found (or a -repro input failed)
	ExitUsage   = 2 // usage or setup error
)

// childEnv marks the child process; workerEnv (with childEnv) marks a
// worker process and holds its engine.WorkerSpec; childExitBase offsets
// the child's exit status; childStatusFD is the status pipe's descriptor
// in a -repro child.
const (
	childEnv      = "GFZ_CHILD"
	workerEnv     = "GFZ_WORKER"
	childExitBase = 80 // above 66, the race detector's exit status
	childStatusFD = 3
)

// statusPipe is the child's end of the status pipe.
var statusPipe *os.File

// binaryConfig is the parsed command line of a fuzz binary.
type binaryConfig struct {
	info         url.Values
	targets      []string
	target       string
	list         bool
	time         time.Duration
	runs         int64
	workdir      string
	seed         int64
	repro        []string
	engine       string
	timeout      time.Duration
	coverprofile string
	verbose      bool
	workers      int
	rssLimitMB   int
	worker       *engine.WorkerSpec // set in a worker process

	stdout, stderr io.Writer
	called         bool
}

// binaryMode is non-nil in the child process of a fuzz binary.
var binaryMode *binaryConfig

func init() {
	if buildInfo == "" {
		return
	}
	cfg, code := parseBinaryArgs(buildInfo, os.Args[1:], os.Stdout, os.Stderr)
	if code >= 0 {
		os.Exit(code)
	}
	if os.Getenv(childEnv) == "1" {
		os.Unsetenv(childEnv)
		binaryMode = cfg
		if w := os.Getenv(workerEnv); w != "" {
			os.Unsetenv(workerEnv)
			spec, err := decodeWorkerSpec(w)
			if err != nil {
				fmt.Fprintf(os.Stderr, "gfz: %v\n", err)
				os.Exit(childExitBase + ExitUsage)
			}
			cfg.worker = spec
		} else {
			statusPipe = os.NewFile(childStatusFD, "gfz-status")
		}
		os.Args = []string{os.Args[0], "-test.run=^" + cfg.target + "$", "-test.timeout=0"}
		return
	}
	if len(cfg.repro) > 0 {
		os.Exit(superviseChild(cfg))
	}
	os.Exit(superviseWorkers(cfg))
}

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
	if w.SharedMem == "" {
		return nil, fmt.Errorf("malformed %s: no shared memory file", workerEnv)
	}
	return w, nil
}

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

flags:
`

// parseBinaryArgs parses a fuzz binary's command line. It returns the exit
// status to end with (>= 0) after printing usage, the target list or an
// error, or -1 to go on.
func parseBinaryArgs(info string, args []string, stdout, stderr io.Writer) (*binaryConfig, int) {
	cfg := &binaryConfig{stdout: stdout, stderr: stderr}
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
	fs.DurationVar(&cfg.time, "time", 0, "stop after this much time (0: no limit)")
	fs.Int64Var(&cfg.runs, "runs", 0, "stop after this many executions (0: no limit)")
	fs.StringVar(&cfg.workdir, "workdir", "", "work directory (corpus/, failures/, plot_data, stats); default ./gfzwork/<FuzzTarget>; resumed if it exists")
	fs.Int64Var(&cfg.seed, "seed", 1, "seed of every random choice: with -workers 1, the same seed, binary and -runs give the same run")
	fs.Var(&repro, "repro", "re-run the input `FILE` (and the files named after the flags), print the generated values, result and stack")
	fs.StringVar(&cfg.engine, "engine", "zest", "fuzzing engine: zest, bytes or random")
	fs.DurationVar(&cfg.timeout, "timeout", 5*time.Second, "per-input timeout")
	fs.StringVar(&cfg.coverprofile, "coverprofile", "", "write a go tool cover profile of the instrumented packages to `FILE` at the end")
	fs.BoolVar(&cfg.verbose, "v", false, "verbose output (also: forward everything workers print on stderr)")
	fs.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "number of worker processes; -workers 1 with -seed and -runs is exactly reproducible")
	fs.IntVar(&cfg.rssLimitMB, "rss_limit_mb", 2048, "kill a worker whose resident memory exceeds this many MiB and save its input as an \"out of memory\" failure (0: no limit)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, ExitOK
		}
		return nil, ExitUsage // the flag package printed the error and usage
	}
	if cfg.list {
		for _, name := range cfg.targets {
			fmt.Fprintln(stdout, name)
		}
		return nil, ExitOK
	}
	switch cfg.engine {
	case "zest", "bytes", "random":
	default:
		fmt.Fprintf(stderr, "gfz: unknown engine %q (want zest, bytes or random)\n", cfg.engine)
		return nil, ExitUsage
	}
	if cfg.time < 0 || cfg.runs < 0 || cfg.timeout < 0 || cfg.rssLimitMB < 0 {
		fmt.Fprintln(stderr, "gfz: -time, -runs, -timeout and -rss_limit_mb must not be negative")
		return nil, ExitUsage
	}
	if cfg.workers < 1 {
		fmt.Fprintln(stderr, "gfz: -workers must be at least 1")
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
	switch {
	case len(named) > 1:
		fmt.Fprintf(stderr, "gfz: name one fuzz target, not %d (%s)\n", len(named), strings.Join(named, ", "))
		return nil, ExitUsage
	case len(named) == 1:
		cfg.target = named[0]
	case len(cfg.targets) == 1:
		cfg.target = cfg.targets[0]
	case len(cfg.targets) == 0:
		fmt.Fprintln(stderr, "gfz: this binary has no fuzz targets")
		return nil, ExitUsage
	default:
		fmt.Fprintf(stderr, "gfz: this binary has %d fuzz targets; name one of: %s\n", len(cfg.targets), strings.Join(cfg.targets, ", "))
		return nil, ExitUsage
	}
	if cfg.workdir == "" {
		cfg.workdir = filepath.Join("gfzwork", cfg.target)
	}
	return cfg, -1
}

// isTarget reports whether name is one of the binary's fuzz targets. When
// the build info lists none, any FuzzXxx name is accepted.
func (c *binaryConfig) isTarget(name string) bool {
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

// superviseWorkers runs the fuzzing campaign in cfg.workers worker
// processes (this executable again, with GFZ_CHILD and GFZ_WORKER set)
// under engine.Supervise, and maps its result to the exit status.
func superviseWorkers(cfg *binaryConfig) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: cannot find own executable: %v\n", err)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	args := os.Args[1:]
	sum, err := engine.Supervise(ctx, engine.SupervisorConfig{
		Target: cfg.target, Engine: cfg.engine, Seed: cfg.seed, Runs: cfg.runs, Time: cfg.time,
		Timeout: cfg.timeout, RSSLimitMB: cfg.rssLimitMB, Workers: cfg.workers, Workdir: cfg.workdir,
		Status: cfg.stderr, Verbose: cfg.verbose, ErrorExit: childExitBase + ExitUsage,
		Command: func(w engine.WorkerSpec) *exec.Cmd {
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), childEnv+"=1", workerEnv+"="+encodeWorkerSpec(w))
			cmd.Stdout = cfg.stdout
			return cmd
		},
	})
	switch {
	case errors.Is(err, engine.ErrNoEngine):
		fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s ended without running gfz's engine: it must call gfz.Fuzz(f, ...) (see the testing output above for errors before that call)\n", cfg.target)
		return ExitUsage
	case err != nil:
		fmt.Fprintf(cfg.stderr, "gfz: %s: %v\n", cfg.target, err)
		return ExitUsage
	case len(sum.Errors) > 0:
		return ExitUsage // printed loudly by the supervisor
	case sum.NewFailures > 0:
		return ExitFailure
	}
	if sum.Failures > 0 {
		fmt.Fprintf(cfg.stderr, "gfz: no new failure; %d failure(s) found by earlier runs are in %s\n", sum.Failures, filepath.Join(cfg.workdir, "failures"))
	}
	return ExitOK
}

// superviseChild runs this executable again as the child that does the
// work (-repro), and maps its exit to the fuzz binary's exit status.
func superviseChild(cfg *binaryConfig) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: cannot find own executable: %v\n", err)
		return ExitUsage
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	pr, pw, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: %v\n", err)
		return ExitUsage
	}
	defer pr.Close()
	cmd.ExtraFiles = []*os.File{pw} // descriptor 3 in the child
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: start %s: %v\n", exe, err)
		return ExitUsage
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s) // the child stops its engine and reports
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	// The status byte, if the child wrote it, is already in the pipe; the
	// deadline only matters if a process the child started holds the pipe.
	var b [1]byte
	_ = pr.SetReadDeadline(time.Now().Add(time.Second))
	n, _ := pr.Read(b[:])
	return childStatus(cfg, err, cmd.ProcessState, n == 1)
}

// childStatus maps the child's exit to the fuzz binary's exit status;
// started tells whether the child reached the engine or repro.
func childStatus(cfg *binaryConfig, waitErr error, ps *os.ProcessState, started bool) int {
	if ps == nil {
		fmt.Fprintf(cfg.stderr, "gfz: running %s: %v\n", cfg.target, waitErr)
		return ExitUsage
	}
	code := ps.ExitCode()
	switch {
	case code >= childExitBase && code <= childExitBase+ExitUsage:
		return code - childExitBase
	case started && code == 1:
		return ExitFailure // the engine exits 1 after a timeout
	case code == 0 || code == 1:
		fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s ended without running gfz's engine: it must call gfz.Fuzz(f, ...) (see the testing output above for errors before that call)\n", cfg.target)
		return ExitUsage
	case code == 2:
		fmt.Fprintf(cfg.stderr, "gfz: the fuzz process crashed while running the input (see the trace above)\n")
		return ExitFailure
	default:
		fmt.Fprintf(cfg.stderr, "gfz: the fuzz process ended abnormally: %v\n", waitErr)
		return ExitUsage
	}
}

// fuzz is gfz.Fuzz in the child process: collect the seed corpus, run the
// engine or the repro, exit.
func (c *binaryConfig) fuzz(f *testing.F, fn func(*T)) {
	if c.called {
		f.Fatal("gfz: Fuzz called more than once")
	}
	c.called = true
	var seeds [][]byte
	f.Fuzz(func(_ *testing.T, data []byte) {
		seeds = append(seeds, bytes.Clone(data))
	})
	if f.Failed() {
		return // the testing package reports why; the parent exits 2
	}
	if statusPipe != nil {
		_, _ = statusPipe.Write([]byte{1})
		statusPipe.Close()
		statusPipe = nil
	}
	os.Exit(childExitBase + c.runTarget(fn, seeds))
}

// runTarget runs the engine or the repro and returns the exit status.
func (c *binaryConfig) runTarget(fn func(*T), seeds [][]byte) int {
	if len(c.repro) > 0 {
		return repro(c.stdout, c.stderr, fn, c.repro, c.verbose)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ecfg := engine.Config{
		Target:  c.target,
		Engine:  c.engine,
		Seed:    c.seed,
		Runs:    c.runs,
		Time:    c.time,
		Timeout: c.timeout,
		Workdir: c.workdir,
		Seeds:   seeds,
		Status:  c.stderr,
	}
	if w := c.worker; w != nil {
		ecfg.Seed, ecfg.Runs, ecfg.Time = w.Seed, w.Runs, w.Time
		ecfg.SharedMem, ecfg.Sync = w.SharedMem, w.Sync
		// No debug.SetMemoryLimit soft guard: near the limit the garbage
		// collector runs continuously, which turns a runaway allocation
		// into a slow hang (measured: a timeout before the RSS limit).
		// The supervisor enforces -rss_limit_mb.
	}
	if c.verbose && (c.worker == nil || c.worker.ID == 0 && c.worker.Incarnation == 0) {
		fmt.Fprintf(c.stderr, "gfz: target %s, engine %s, seed %d, %d seed inputs, workdir %s, %d workers, build %s\n",
			c.target, c.engine, c.seed, len(seeds), c.workdir, c.workers, buildInfo)
	}
	sum, err := engine.Run(ctx, ecfg, newExecutor(fn, 0))
	if err != nil {
		fmt.Fprintf(c.stderr, "gfz: %s: %v\n", c.target, err)
		return ExitUsage
	}
	if c.coverprofile != "" && (c.worker == nil || c.worker.ID == 0) {
		if err := writeCoverProfile(c.coverprofile); err != nil {
			fmt.Fprintf(c.stderr, "gfz: %v\n", err)
			return ExitUsage
		}
	}
	if sum.NewFailures > 0 {
		return ExitFailure // the engine has printed where the failures are
	}
	if sum.Failures > 0 && c.worker == nil {
		fmt.Fprintf(c.stderr, "gfz: no new failure; %d failure(s) found by earlier runs are in %s\n", sum.Failures, filepath.Join(c.workdir, "failures"))
	}
	return ExitOK
}

// repro re-runs each file once and prints what happened. It returns 1 if
// any input failed, 2 if a file cannot be read.
func repro(stdout, stderr io.Writer, fn func(*T), files []string, verbose bool) int {
	ex := newExecutor(fn, 0)
	ex.t.eager = true
	ex.t.keepLogs = true
	status := ExitOK
	for _, path := range files {
		data, err := engine.ReadInputFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "gfz: %v\n", err)
			return ExitUsage
		}
		out := ex.Exec(data, 0)
		fmt.Fprintf(stdout, "=== %s\n", path)
		fmt.Fprintf(stdout, "result: %s\n", out.Result)
		if verbose {
			fmt.Fprintf(stdout, "consumed: %d of %d bytes\n", len(out.Consumed), len(data))
		}
		fmt.Fprintf(stdout, "values:\n%s", indent(ex.t.Values()))
		if len(ex.t.logs) > 0 {
			fmt.Fprintf(stdout, "log:\n%s", indent(strings.Join(ex.t.logs, "\n")+"\n"))
		}
		if fi := out.Failure; fi != nil {
			status = ExitFailure
			fmt.Fprintf(stdout, "kind: %s\n", fi.Kind)
			fmt.Fprintf(stdout, "message:\n%s", indent(fi.Message+"\n"))
			fmt.Fprintf(stdout, "signature:\n%s", indent(fi.Signature))
			fmt.Fprintf(stdout, "stack:\n%s", indent(fi.Stack))
		}
	}
	return status
}

// indent prefixes every line of s with a tab.
func indent(s string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("\t" + l)
		}
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}
