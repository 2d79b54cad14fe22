package gfz

import (
	"bufio"
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
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/engine"
	"github.com/gfz-dev/gfz/internal/cliflag"
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
// With -repro there is no supervisor: the process started by the user runs
// the inputs in one child and watches it (superviseRepro). The child
// streams its progress on a status pipe (descriptor 3; see statusWriter):
// that it reached gfz.Fuzz (so that the parent can tell a target without
// gfz.Fuzz from a crash), which input it runs, the bytes read and the
// values drawn so far. The parent enforces -timeout (SIGQUIT for the
// goroutine stacks, then SIGKILL) and -rss_limit_mb, and when the child
// dies during an input it reports that input as a failure with the values
// drawn until then and what killed the process (engine.CrashKind), then
// runs the remaining files in a new child. The supervisor describes the
// inputs that killed a worker the same way (binaryConfig.describer).

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
		os.Exit(superviseRepro(cfg))
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

// minRSSLimitMB is the smallest -rss_limit_mb accepted (besides 0): a
// worker of a small target takes about 10 MiB before running anything
// (measured: 10.3 MiB resident for testdata/crashers), so a lower limit
// would kill every worker with a spurious out-of-memory failure.
const minRSSLimitMB = 32

// rssFloorMB is the smallest -rss_limit_mb for a binary whose coverage map
// has 2^mapbits bytes: minRSSLimitMB plus four times the map (the map and
// the engine's three copies of it are resident) when the map is larger
// than 1 MiB (-mapbits above 20).
func rssFloorMB(mapbits string) int {
	floor := minRSSLimitMB
	if b, err := strconv.Atoi(mapbits); err == nil && b > 20 && b < 40 {
		floor += 4 << (b - 20)
	}
	return floor
}

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
	timeFlag := cliflag.Duration{}
	timeoutFlag := cliflag.Duration{Auto: true, IsAuto: true}
	fs.Var(&timeFlag, "time", "stop after `D`, a duration with a unit such as 30s or 1h30m (0: no limit)")
	fs.Int64Var(&cfg.runs, "runs", 0, "stop after this many executions (0: no limit)")
	fs.StringVar(&cfg.workdir, "workdir", "", "work directory (corpus/, failures/, plot_data, stats); default ./gfzwork/<FuzzTarget>; resumed if it exists")
	fs.Int64Var(&cfg.seed, "seed", 1, "seed of every random choice: with -workers 1, the same seed, binary and -runs give the same run")
	fs.Var(&repro, "repro", "re-run the input `FILE` (and the files named after the flags), print the generated values, result and stack")
	fs.StringVar(&cfg.engine, "engine", "zest", "fuzzing engine: zest, bytes or random")
	fs.Var(&timeoutFlag, "timeout", "per-input timeout `D`, a duration with a unit such as 2s or 500ms; auto: calibrated from the measured execution times (-repro: 10s); 0: no timeout")
	fs.StringVar(&cfg.coverprofile, "coverprofile", "", "write a go tool cover profile of the instrumented packages to `FILE` at the end")
	fs.BoolVar(&cfg.verbose, "v", false, "verbose output (also: forward everything workers print on stderr)")
	fs.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "number of worker processes; -workers 1 with -seed and -runs is exactly reproducible")
	fs.IntVar(&cfg.rssLimitMB, "rss_limit_mb", 2048, "kill a worker whose resident memory exceeds this many MiB and save its input as an \"out of memory\" failure (0: no limit; otherwise at least "+strconv.Itoa(minRSSLimitMB)+", plus 4 MiB per MiB of a coverage map above 1 MiB)")
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
	cfg.time = timeFlag.D
	switch {
	case timeoutFlag.IsAuto:
		cfg.timeout = 0 // the engine calibrates it
	case timeoutFlag.D == 0:
		cfg.timeout = engine.NoTimeout
	default:
		cfg.timeout = timeoutFlag.D
	}
	if cfg.runs < 0 || cfg.rssLimitMB < 0 {
		fmt.Fprintln(stderr, "gfz: -runs and -rss_limit_mb must not be negative")
		return nil, ExitUsage
	}
	if floor := rssFloorMB(vals.Get("mapbits")); cfg.rssLimitMB > 0 && cfg.rssLimitMB < floor {
		fmt.Fprintf(stderr, "gfz: -rss_limit_mb %d is below a worker's own footprint: use at least %d (MiB), or 0 for no limit\n", cfg.rssLimitMB, floor)
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
	if err := checkSeedFiles(cfg.target); err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: %v\n", err)
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
		Describe: cfg.describer(exe),
	})
	switch {
	case errors.Is(err, engine.ErrNoEngine):
		// Tell a target that does not call gfz.Fuzz from one whose seeds
		// the testing package refused (f.Add of another type than
		// []byte): a -repro child says which on its status pipe.
		if st, perr := runChild(exe, childOptions{args: []string{"-repro", os.DevNull, cfg.target}, stdout: io.Discard, timeout: reproDefaultTimeout}); perr == nil && st.seedsFailed {
			fmt.Fprintf(cfg.stderr, "gfz: fuzz target %s: the testing package refused its seed corpus (see its message above): seeds added with f.Add must be single []byte values\n", cfg.target)
			return ExitUsage
		}
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

// checkSeedFiles checks that every file of the target's seed corpus
// directory, testdata/fuzz/<target> (relative to the current directory, as
// the testing package reads it), holds one []byte value. The testing
// package would refuse such a file in every child before gfz.Fuzz gets
// control, which looks like a target that does not call gfz.Fuzz.
func checkSeedFiles(target string) error {
	dir := filepath.Join("testdata", "fuzz", target)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("seed corpus of %s: %w", target, err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue // the testing package skips directories too
		}
		if _, err := engine.ReadInputFile(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("seed file %w (a gfz target's seeds hold one []byte value, as gfz and go test -fuzz write them)", err)
		}
	}
	return nil
}

// The -repro status pipe.
//
// A -repro child (this executable with GFZ_CHILD=1 and without GFZ_WORKER)
// reports its progress to its parent on descriptor 3, one line per event,
// each line written by one unbuffered write as the event happens, so that
// whatever the child wrote before it died (a crash, os.Exit, a kill after
// -timeout or -rss_limit_mb) reaches the parent:
//
//	start      gfz.Fuzz got control and collected the seed corpus
//	seeds      gfz.Fuzz failed before that: the testing package refused
//	           the seed corpus (it prints why)
//	input I    the child starts running -repro file number I (from 0)
//	read N     the execution has read N bytes of its input so far
//	value Q    a top-level value was drawn: Q is strconv.Quote of its
//	           "label = value" line, formatted when drawn, as reports show it
//	end N      the execution returned (the child prints its result); it
//	           read N bytes
//	done S     the child is about to exit with status childExitBase+S
//
// The parent trusts the child's exit status only after "done". A child
// that ends between "input" and "end" died of that input: the parent
// prints the values drawn so far and what killed the process.
type statusWriter struct{ f *os.File }

// line writes one event; errors (the parent is gone) are ignored.
func (w *statusWriter) line(event string, arg string) {
	if w == nil || w.f == nil {
		return
	}
	_, _ = w.f.Write([]byte(event + " " + arg + "\n"))
}

// childState is what the parent of a -repro child learned from its status
// pipe and from its end.
type childState struct {
	mu          sync.Mutex
	started     bool      // "start"
	seedsFailed bool      // "seeds"
	input       int       // last "input" (-1: none)
	inputAt     time.Time // when it began
	running     bool      // between "input" and "end"
	read        int       // last "read" or "end"
	values      []string  // "value" lines of the current input
	doneSeen    bool      // "done"
	done        int       // its status

	ps          *os.ProcessState
	waitErr     error
	kill        string        // engine.KindTimeout, engine.KindOutOfMemory or ""
	ranFor      time.Duration // the input's running time when killed for a timeout
	rss         int64         // resident bytes when killed for memory
	interrupted bool          // a SIGINT or SIGTERM was forwarded
	tail        string        // the end of the child's stderr
}

// readStatus parses the status pipe until EOF (or its read deadline).
func (c *childState) readStatus(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		l, err := br.ReadString('\n')
		if err != nil {
			return // a partial last line is dropped
		}
		event, arg, _ := strings.Cut(strings.TrimSuffix(l, "\n"), " ")
		c.mu.Lock()
		switch event {
		case "start":
			c.started = true
		case "seeds":
			c.seedsFailed = true
		case "input":
			c.input, _ = strconv.Atoi(arg)
			c.inputAt, c.running, c.read, c.values = time.Now(), true, 0, nil
		case "read":
			c.read, _ = strconv.Atoi(arg)
		case "value":
			if v, err := strconv.Unquote(arg); err == nil {
				c.values = append(c.values, v)
			}
		case "end":
			c.read, _ = strconv.Atoi(arg)
			c.running = false
		case "done":
			c.doneSeen = true
			c.done, _ = strconv.Atoi(arg)
		}
		c.mu.Unlock()
	}
}

// valuesText returns the values of the current input as reports print them.
func (c *childState) valuesText() string {
	var b strings.Builder
	for _, v := range c.values {
		b.WriteString(v + "\n")
	}
	return b.String()
}

// crashKind names what ended the child while it ran an input.
func (c *childState) crashKind() string {
	if c.kill != "" {
		return c.kill
	}
	return engine.CrashKind(c.tail, c.ps)
}

// childOptions configures runChild.
type childOptions struct {
	args       []string  // the child's arguments
	stdin      io.Reader // nil: none
	stdout     io.Writer
	stderr     io.Writer      // passed through; the parent keeps a tail too
	timeout    time.Duration  // per input, from its "input" event; <= 0: none
	rssLimitMB int            // 0: none
	signals    chan os.Signal // forwarded to the child (nil: none)
	ctx        context.Context
}

// Limits of runChild.
const (
	reproDefaultTimeout = 10 * time.Second // -repro without -timeout
	quitGrace           = 2 * time.Second  // from SIGQUIT to SIGKILL
	stderrTailSize      = 256 << 10
)

// runChild runs exe as a -repro child with o.args and watches it: it
// enforces the timeout per input (SIGQUIT, so that the Go runtime prints
// every goroutine's stack, then SIGKILL after quitGrace) and the memory
// limit (SIGKILL), and returns what the status pipe and the end of the
// process told. The error is for a child that could not be started.
func runChild(exe string, o childOptions) (*childState, error) {
	cmd := exec.Command(exe, o.args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	tail := &tailWriter{w: o.stderr, max: stderrTailSize}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.stdin, o.stdout, tail
	cmd.WaitDelay = time.Second // a process the child started may hold its output
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("status pipe: %w", err)
	}
	defer pr.Close()
	cmd.ExtraFiles = []*os.File{pw} // descriptor 3 in the child
	setDeathSignal(cmd)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", exe, err)
	}
	c := &childState{input: -1}
	readDone := make(chan struct{})
	go func() {
		c.readStatus(pr)
		close(readDone)
	}()
	waitDone := make(chan error, 1)
	go func() { waitDone <- cmd.Wait() }()

	poll := 50 * time.Millisecond
	if o.timeout > 0 {
		poll = min(poll, max(o.timeout/8, time.Millisecond))
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	var quitAt time.Time
	for waiting := true; waiting; {
		select {
		case c.waitErr = <-waitDone:
			waiting = false
		case s := <-o.signals:
			c.interrupted = true
			_ = cmd.Process.Signal(s)
		case <-ctx.Done():
			c.interrupted = true
			_ = cmd.Process.Kill()
		case now := <-tick.C:
			c.mu.Lock()
			running, at := c.running, c.inputAt
			c.mu.Unlock()
			switch {
			case c.kill == engine.KindTimeout:
				if now.Sub(quitAt) >= quitGrace {
					_ = cmd.Process.Kill()
				}
			case c.kill != "":
			case o.timeout > 0 && running && now.Sub(at) >= o.timeout:
				c.kill, c.ranFor, quitAt = engine.KindTimeout, now.Sub(at), now
				_ = cmd.Process.Signal(syscall.SIGQUIT)
			case o.rssLimitMB > 0:
				if rss := procRSS(cmd.Process.Pid); rss > int64(o.rssLimitMB)<<20 {
					c.kill, c.rss = engine.KindOutOfMemory, rss
					_ = cmd.Process.Kill()
				}
			}
		}
	}
	// What the child wrote before it ended is in the pipe; the deadline
	// only matters if a process the child started holds the pipe open.
	_ = pr.SetReadDeadline(time.Now().Add(time.Second))
	<-readDone
	c.ps = cmd.ProcessState
	c.tail = tail.String()
	return c, nil
}

// setDeathSignal makes the kernel kill the child when this process dies,
// even by SIGKILL, so that a hanging or allocating -repro child does not
// outlive it (Linux: SysProcAttr.Pdeathsig, set through reflection
// because the field exists only there; elsewhere nothing).
func setDeathSignal(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{}
	f := reflect.ValueOf(attr).Elem().FieldByName("Pdeathsig")
	if !f.IsValid() || !f.CanSet() || f.Type() != reflect.TypeOf(syscall.SIGKILL) {
		return
	}
	f.Set(reflect.ValueOf(syscall.SIGKILL))
	cmd.SysProcAttr = attr
}

// tailWriter passes writes through to w (if not nil) and keeps the last
// max bytes.
type tailWriter struct {
	w   io.Writer
	max int
	mu  sync.Mutex
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	t.mu.Unlock()
	if t.w != nil {
		_, _ = t.w.Write(p) // the user's terminal going away does not stop the child
	}
	return len(p), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// procRSS returns the resident set size of process pid in bytes (0 when
// unknown: not Linux, or the process is gone).
func procRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// reproTimeout is the per-input timeout of -repro and of describing a
// failure: -timeout when set, reproDefaultTimeout for "auto", none for 0.
func (c *binaryConfig) reproTimeout() time.Duration {
	switch {
	case c.timeout == engine.NoTimeout:
		return 0
	case c.timeout <= 0:
		return reproDefaultTimeout
	}
	return c.timeout
}

// reproArgs returns the arguments of a -repro child running files.
func (c *binaryConfig) reproArgs(files []string) []string {
	var args []string
	if c.verbose {
		args = append(args, "-v")
	}
	for _, f := range files {
		args = append(args, "-repro", f)
	}
	return append(args, c.target)
}

// superviseRepro runs the -repro files in a child process (this executable
// with GFZ_CHILD=1) and maps its end to the exit status. When the child
// dies while running an input (a crash, os.Exit, a timeout, memory above
// -rss_limit_mb), it reports that input as a failure with the values drawn
// so far and what killed the process, and runs the remaining files in a
// new child.
func superviseRepro(cfg *binaryConfig) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: cannot find own executable: %v\n", err)
		return ExitUsage
	}
	if err := checkSeedFiles(cfg.target); err != nil {
		fmt.Fprintf(cfg.stderr, "gfz: %v\n", err)
		return ExitUsage
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	status := ExitOK
	files := cfg.repro
	for len(files) > 0 {
		c, err := runChild(exe, childOptions{
			args: cfg.reproArgs(files), stdin: os.Stdin, stdout: cfg.stdout, stderr: cfg.stderr,
			timeout: cfg.reproTimeout(), rssLimitMB: cfg.rssLimitMB, signals: sigs,
		})
		if err != nil {
			fmt.Fprintf(cfg.stderr, "gfz: %v\n", err)
			return ExitUsage
		}
		switch {
		case c.doneSeen:
			if c.ps.ExitCode() != childExitBase+c.done {
				// Something the target left running ended the process
				// after the last input returned.
				fmt.Fprintf(cfg.stderr, "gfz: the fuzz process died (%s) after running its inputs (see its output above)\n", oneLine(c.crashKind()))
				return ExitFailure
			}
			return max(status, c.done)
		case c.running && c.input >= 0 && c.input < len(files):
			if c.interrupted && c.kill == "" {
				fmt.Fprintf(cfg.stderr, "gfz: interrupted while running %s\n", files[c.input])
				return status
			}
			cfg.reportDeath(c, files[c.input])
			status = ExitFailure
			if c.interrupted {
				return status
			}
			files = files[c.input+1:]
		case c.interrupted:
			return status
		case !c.started:
			return cfg.setupFailure(c)
		default:
			// Between two inputs: something the target left running (a
			// goroutine) ended the process after its input returned.
			last := "the first input"
			if c.input >= 0 && c.input < len(files) {
				last = files[c.input]
			}
			fmt.Fprintf(cfg.stderr, "gfz: the fuzz process died (%s) after running %s (see its output above)\n", oneLine(c.crashKind()), last)
			status = ExitFailure
			files = files[c.input+1:]
		}
	}
	return status
}

// reportDeath prints the report of an input whose execution ended the
// child process: the values drawn until then and what killed it.
func (c *binaryConfig) reportDeath(st *childState, path string) {
	kind := st.crashKind()
	result := engine.Failure
	var msg string
	switch st.kill {
	case engine.KindTimeout:
		result = engine.Timeout
		msg = fmt.Sprintf("the input ran for more than %v (-timeout %v); the goroutine stacks the process printed on SIGQUIT are above", st.ranFor.Round(time.Millisecond), c.reproTimeout())
	case engine.KindOutOfMemory:
		msg = fmt.Sprintf("resident memory %d MiB exceeded -rss_limit_mb %d", st.rss>>20, c.rssLimitMB)
	default:
		msg = fmt.Sprintf("the process running the input ended (%s); its output is above", st.ps)
	}
	w := c.stdout
	fmt.Fprintf(w, "result: %s\n", result)
	if c.verbose {
		if data, err := engine.ReadInputFile(path); err == nil {
			fmt.Fprintf(w, "consumed: %d of %d bytes\n", st.read, len(data))
		}
	}
	vals := st.valuesText()
	if vals == "" {
		vals = "(none drawn)\n"
	}
	fmt.Fprintf(w, "values:\n%s", indent(vals))
	fmt.Fprintf(w, "kind: %s\n", kind)
	fmt.Fprintf(w, "message:\n%s", indent(msg+"\n"))
	if st.kill == engine.KindTimeout {
		fmt.Fprintf(c.stderr, "gfz: %s: timeout: the input ran for more than %v\n", path, c.reproTimeout())
	} else {
		fmt.Fprintf(c.stderr, "gfz: %s: the fuzz process crashed while running the input (%s)\n", path, oneLine(kind))
	}
}

// setupFailure maps the end of a -repro child that never got to run an
// input to the exit status.
func (c *binaryConfig) setupFailure(st *childState) int {
	code := st.ps.ExitCode()
	switch {
	case st.seedsFailed:
		fmt.Fprintf(c.stderr, "gfz: fuzz target %s: the testing package refused its seed corpus (see its message above): seeds added with f.Add must be single []byte values\n", c.target)
	case code >= childExitBase && code <= childExitBase+ExitUsage:
		return code - childExitBase // the child printed why
	case code == 0 || code == 1:
		fmt.Fprintf(c.stderr, "gfz: fuzz target %s ended without running gfz's engine: it must call gfz.Fuzz(f, ...) (see the testing output above for errors before that call)\n", c.target)
	default:
		fmt.Fprintf(c.stderr, "gfz: fuzz target %s: the fuzz process died (%s) before running any input (see its output above)\n", c.target, oneLine(st.crashKind()))
	}
	return ExitUsage
}

// oneLine returns the first line of s.
func oneLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// describer returns the engine's SupervisorConfig.Describe: it re-runs one
// input in a -repro child and returns the values it drew, as drawn, and
// how many bytes it read, whatever ended the process.
func (c *binaryConfig) describer(exe string) func(ctx context.Context, input []byte, timeout time.Duration) (string, int, error) {
	return func(ctx context.Context, input []byte, timeout time.Duration) (string, int, error) {
		f, err := os.CreateTemp("", "gfz-describe-*.input")
		if err != nil {
			return "", -1, fmt.Errorf("describe: %w", err)
		}
		defer os.Remove(f.Name())
		_, err = f.Write(engine.EncodeInput(input))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", -1, fmt.Errorf("describe: %w", err)
		}
		if timeout <= 0 {
			timeout = c.reproTimeout()
			if timeout <= 0 {
				timeout = reproDefaultTimeout // a description must end
			}
		}
		st, err := runChild(exe, childOptions{
			args: []string{"-repro", f.Name(), c.target}, stdout: io.Discard,
			timeout: timeout, rssLimitMB: c.rssLimitMB, ctx: ctx,
		})
		if err != nil {
			return "", -1, fmt.Errorf("describe: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return "", -1, fmt.Errorf("describe: %w", err)
		}
		if st.input < 0 {
			return "", -1, fmt.Errorf("describe: the process ended (%s) before running the input:\n%s", st.ps, strings.TrimSpace(st.tail))
		}
		return st.valuesText(), st.read, nil
	}
}

// fuzz is gfz.Fuzz in the child process: collect the seed corpus, run the
// engine or the repro, exit.
func (c *binaryConfig) fuzz(f *testing.F, fn func(*T)) {
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
			fmt.Fprintf(os.Stderr, "gfz: fuzz target %s: the testing package refused its seed corpus before gfz could run (its message follows): gfz seeds, added with f.Add or in testdata/fuzz/%s, hold a single []byte value\n", c.target, c.target)
			status.line("seeds", "")
		}
	}()
	f.Fuzz(func(_ *testing.T, data []byte) {
		seeds = append(seeds, bytes.Clone(data))
	})
	returned = true
	if f.Failed() {
		status.line("seeds", "")
		return // the testing package reports why; the parent exits 2
	}
	status.line("start", "")
	code := c.runTarget(fn, seeds, status)
	status.line("done", strconv.Itoa(code))
	os.Exit(childExitBase + code)
}

// runTarget runs the engine or the repro and returns the exit status.
func (c *binaryConfig) runTarget(fn func(*T), seeds [][]byte, status *statusWriter) int {
	if len(c.repro) > 0 {
		return repro(c.stdout, c.stderr, fn, c.repro, c.verbose, status)
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

// repro re-runs each file once and prints what happened. It returns 1 if
// any input failed, 2 if a file cannot be read. It streams its progress on
// status (see statusWriter): each input's start, the bytes it reads and the
// values it draws, as they happen.
func repro(stdout, stderr io.Writer, fn func(*T), files []string, verbose bool, status *statusWriter) int {
	ex := newExecutor(fn, 0)
	ex.t.eager = true
	ex.t.keepLogs = true
	if status != nil && status.f != nil {
		ex.src.SetOnRead(func(pos int) { status.line("read", strconv.Itoa(pos)) })
		ex.t.onNote = func(label, text string) { status.line("value", strconv.Quote(label+" = "+text)) }
	}
	result := ExitOK
	for i, path := range files {
		data, err := engine.ReadInputFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "gfz: %v\n", err)
			return ExitUsage
		}
		fmt.Fprintf(stdout, "=== %s\n", path)
		status.line("input", strconv.Itoa(i))
		out := ex.Exec(data, 0)
		status.line("end", strconv.Itoa(len(out.Consumed)))
		fmt.Fprintf(stdout, "result: %s\n", out.Result)
		if verbose {
			fmt.Fprintf(stdout, "consumed: %d of %d bytes\n", len(out.Consumed), len(data))
		}
		fmt.Fprintf(stdout, "values:\n%s", indent(ex.t.Values()))
		if len(ex.t.logs) > 0 {
			fmt.Fprintf(stdout, "log:\n%s", indent(strings.Join(ex.t.logs, "\n")+"\n"))
		}
		if fi := out.Failure; fi != nil {
			result = ExitFailure
			fmt.Fprintf(stdout, "kind: %s\n", fi.Kind)
			fmt.Fprintf(stdout, "message:\n%s", indent(fi.Message+"\n"))
			fmt.Fprintf(stdout, "signature:\n%s", indent(fi.Signature))
			fmt.Fprintf(stdout, "stack:\n%s", indent(fi.Stack))
		}
	}
	return result
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
