package driver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/internal/workdir"
)

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
//	dict       the input drew from the fuzz binary's dictionary (it
//	           replays under go test only with it)
//	end N      the execution returned (the child prints its result); it
//	           read N bytes
//	done S     the child is about to end with status childExitBase+S (or
//	           0, ended by the testing package, the F's cleanups run)
//	merge T    a -merge=1 child's totals so far, "FILES FEATURES KEPT"
//	           (mergeBaseEnv), handed to the child that follows it
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
	dict        bool      // "dict" for the current input
	doneSeen    bool      // "done"
	done        int       // its status
	merge       string    // last "merge" (a -merge=1 child's totals so far)

	ps          *os.ProcessState
	waitErr     error
	kill        string        // signature.KindTimeout, signature.KindOutOfMemory or ""
	ranFor      time.Duration // the input's running time when killed for a timeout
	rss         int64         // resident bytes at the watchdog's last look (the one that killed it, for memory)
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
			c.inputAt, c.running, c.read, c.values, c.dict = time.Now(), true, 0, nil, false
		case "read":
			c.read, _ = strconv.Atoi(arg)
		case "value":
			if v, err := strconv.Unquote(arg); err == nil {
				c.values = append(c.values, v)
			}
		case "dict":
			c.dict = true
		case "end":
			c.read, _ = strconv.Atoi(arg)
			c.running = false
		case "merge":
			c.merge = arg
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
	return signature.CrashKind(c.tail, c.ps)
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
	env        []string // more environment
}

// Limits of runChild.
const (
	reproDefaultTimeout = 10 * time.Second // -repro without -timeout
	stderrTailSize      = 256 << 10
)

// runChild runs exe as a -repro child with o.args and watches it: it
// enforces the timeout per input (SIGQUIT, so that the Go runtime prints
// every goroutine's stack, then SIGKILL after proc.QuitGrace) and the memory
// limit (SIGKILL), and returns what the status pipe and the end of the
// process told. The error is for a child that could not be started.
func runChild(exe string, o childOptions) (*childState, error) {
	cmd := exec.Command(exe, o.args...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), o.env...)
	tail := &proc.Tail{Fwd: o.stderr, All: true, Max: stderrTailSize}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.stdin, o.stdout, tail
	cmd.WaitDelay = time.Second // a process the child started may hold its output
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("status pipe: %w", err)
	}
	defer pr.Close()
	cmd.ExtraFiles = []*os.File{pw} // descriptor 3 in the child
	proc.SetDeathSignal(cmd)
	if o.stdin == nil {
		// A group of its own, ended with the child (KillGroup below). Not
		// for an interactive -repro, which passes the terminal's input: a
		// child outside the terminal's foreground group that reads it
		// would be stopped (SIGTTIN).
		proc.OwnGroup(cmd)
	}
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
	dog := proc.Watchdog{Timeout: o.timeout, RSSLimit: int64(o.rssLimitMB) << 20}
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
			dog.Tick(cmd.Process, now, running, at)
		}
	}
	if o.stdin == nil {
		proc.KillGroup(cmd.Process.Pid) // what the target started and left running
	}
	c.kill, c.ranFor, c.rss = dog.Kill, dog.RanFor, dog.RSS
	// What the child wrote before it ended is in the pipe; the deadline
	// only matters if a process the child started holds the pipe open.
	_ = pr.SetReadDeadline(time.Now().Add(time.Second))
	<-readDone
	c.ps = cmd.ProcessState
	c.tail = tail.String()
	return c, nil
}

// reproTimeout is the per-input timeout of -repro and of describing a
// failure: -timeout when set, reproDefaultTimeout for "auto", none for 0.
func (c *config) reproTimeout() time.Duration {
	switch {
	case c.run.Timeout == engine.NoTimeout:
		return 0
	case c.run.Timeout <= 0:
		return reproDefaultTimeout
	}
	return c.run.Timeout
}

// childArgsBase are the flags every -repro child gets from its parent (a
// -repro run, or a run describing and shrinking failures): libFuzzer
// mode's (lfChildArgs) and the goroutine stack limit, which a child takes
// from its own command line (a stack overflow found with -stack_limit_mb
// 16 replayed as VALID under the child's default).
func (c *config) childArgsBase() []string {
	return append(c.lfChildArgs(), "-stack_limit_mb", strconv.Itoa(c.run.StackLimitMB))
}

// reproArgs returns the arguments of a -repro child running files.
func (c *config) reproArgs(files []string) []string {
	var args []string
	if c.verbose {
		args = append(args, "-v")
	}
	args = append(args, c.childArgsBase()...)
	for _, f := range files {
		args = append(args, "-repro", f)
	}
	return append(args, c.run.Target)
}

// superviseRepro runs the -repro files in a child process (this executable
// with GFZ_CHILD=1) and maps its end to the exit status. When the child
// dies while running an input (a crash, os.Exit, a timeout, memory above
// -rss_limit_mb), it reports that input as a failure with the values drawn
// so far and what killed the process, and runs the remaining files in a
// new child.
func superviseRepro(cfg *config) int {
	exe, ok := cfg.parentSetup()
	if !ok {
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
			if ec := c.ps.ExitCode(); ec != childExitBase+c.done && ec != 0 { // (0: the testing package ended it after "done")
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
func (c *config) reportDeath(st *childState, path string) {
	kind := st.crashKind()
	result := engine.Failure
	var msg string
	switch st.kill {
	case signature.KindTimeout:
		result = engine.Timeout
		msg = fmt.Sprintf("the input ran for more than %v (-timeout %v); the goroutine stacks the process printed on SIGQUIT are above", st.ranFor.Round(time.Millisecond), c.reproTimeout())
	case signature.KindOutOfMemory:
		msg = fmt.Sprintf("resident memory %d MiB exceeded -rss_limit_mb %d", st.rss>>20, c.rssLimitMB)
	default:
		msg = fmt.Sprintf("the process running the input ended (%s); its output is above", st.ps)
	}
	w := c.stdout
	fmt.Fprintf(w, "result: %s\n", result)
	if c.verbose {
		if data, err := workdir.ReadFileWith(c.codec(), path); err == nil {
			fmt.Fprintf(w, "consumed: %d of %d bytes\n", st.read, len(data))
		}
	}
	vals := st.valuesText()
	if vals == "" {
		vals = "(none drawn)\n"
	}
	fmt.Fprintf(w, "values:\n%s", Indent(vals))
	fmt.Fprintf(w, "kind: %s\n", kind)
	fmt.Fprintf(w, "message:\n%s", Indent(msg+"\n"))
	if st.kill == signature.KindTimeout {
		fmt.Fprintf(c.stderr, "gfz: %s: timeout: the input ran for more than %v\n", path, c.reproTimeout())
	} else {
		fmt.Fprintf(c.stderr, "gfz: %s: the fuzz process crashed while running the input (%s)\n", path, oneLine(kind))
	}
	if c.lf != nil {
		c.lf.reproDeath(c, st)
	}
}

// setupFailure maps the end of a -repro child that never got to run an
// input to the exit status.
func (c *config) setupFailure(st *childState) int {
	code := st.ps.ExitCode()
	switch {
	case st.seedsFailed:
		fmt.Fprintf(c.stderr, "gfz: fuzz target %s: the testing package refused its seed corpus (see its message above): seeds added with f.Add must be single []byte values\n", c.run.Target)
	case code >= childExitBase && code <= childExitBase+ExitUsage:
		return code - childExitBase // the child printed why
	case code == 0 || code == 1:
		fmt.Fprintf(c.stderr, "gfz: fuzz target %s ended without running gfz's engine: %s, or it skipped itself (f.Skip) or failed before that call (see the testing output above)\n", c.run.Target, c.mustCall())
	default:
		fmt.Fprintf(c.stderr, "gfz: fuzz target %s: the fuzz process died (%s) before running any input (see its output above)\n", c.run.Target, oneLine(st.crashKind()))
	}
	return ExitUsage
}

// oneLine returns the first line of s.
func oneLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// describer returns the engine's SupervisorConfig.Describe: it re-runs one
// input in a -repro child and returns the values it drew, as drawn, how
// many bytes it read, whatever ended the process, and whether it ran past
// the timeout.
func (c *config) describer(exe string) func(ctx context.Context, input []byte, timeout time.Duration) (engine.Rerun, error) {
	return func(ctx context.Context, input []byte, timeout time.Duration) (engine.Rerun, error) {
		f, err := os.CreateTemp("", "gfz-describe-*.input")
		if err != nil {
			return engine.Rerun{}, fmt.Errorf("describe: %w", err)
		}
		defer os.Remove(f.Name())
		_, err = f.Write(c.encodeInput(input))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return engine.Rerun{}, fmt.Errorf("describe: %w", err)
		}
		if timeout <= 0 {
			timeout = c.reproTimeout()
			if timeout <= 0 {
				timeout = reproDefaultTimeout // a description must end
			}
		}
		st, err := runChild(exe, childOptions{
			args: append(c.childArgsBase(), "-repro", f.Name(), c.run.Target), stdout: io.Discard,
			timeout: timeout, rssLimitMB: c.rssLimitMB, ctx: ctx,
		})
		if err != nil {
			return engine.Rerun{}, fmt.Errorf("describe: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return engine.Rerun{}, fmt.Errorf("describe: %w", err)
		}
		if st.input < 0 {
			return engine.Rerun{}, fmt.Errorf("describe: the process ended (%s) before running the input:\n%s", st.ps, strings.TrimSpace(st.tail))
		}
		r := engine.Rerun{Values: st.valuesText(), Consumed: st.read, TimedOut: st.kill == signature.KindTimeout, Dictionary: st.dict}
		if r.TimedOut {
			r.Trace = st.tail // the stacks it printed on SIGQUIT
		}
		if st.kill != "" || !st.doneSeen && st.running {
			kind, stack, framed := signature.Classify(st.tail, st.ps, st.kill)
			r.Signature = signature.OfDeath(kind, stack, framed) // as the prober computes it
			if !r.TimedOut {
				r.Kind, r.Stack = kind, stack
			}
		}
		r.Failed = st.doneSeen && st.done == ExitFailure
		return r, nil
	}
}

// repro re-runs each file once and prints what happened. It returns 1 if
// any input failed, 2 if a file cannot be read. It streams its progress on
// status (see statusWriter): each input's start, the bytes it reads and the
// values it draws, as they happen.
func repro(stdout, stderr io.Writer, t Target, files []string, verbose bool, status *statusWriter) int {
	var onRead func(int)
	var onValue func(label, text string)
	if status != nil && status.f != nil {
		onRead = func(pos int) { status.line("read", strconv.Itoa(pos)) }
		onValue = func(label, text string) { status.line("value", strconv.Quote(label+" = "+text)) }
		userdict.SetConsultHook(func() { status.line("dict", "") })
		defer userdict.SetConsultHook(nil)
	}
	ex := t.Repro(onRead, onValue)
	result := ExitOK
	for i, path := range files {
		readInput := readInputFile
		if readInput == nil {
			readInput = func(path string) ([]byte, error) { return readInputFor(t, path) }
		}
		data, err := readInput(path)
		if err != nil {
			fmt.Fprintf(stderr, "gfz: %v\n", err)
			return ExitUsage
		}
		fmt.Fprintf(stdout, "=== %s\n", path)
		status.line("input", strconv.Itoa(i))
		userdict.ResetConsulted()
		out := ex.Exec(data)
		status.line("end", strconv.Itoa(len(out.Consumed)))
		fmt.Fprintf(stdout, "result: %s\n", out.Result)
		if verbose {
			fmt.Fprintf(stdout, "consumed: %d of %d bytes\n", len(out.Consumed), len(data))
		}
		fmt.Fprintf(stdout, "values:\n%s", Indent(ex.Values()))
		if logs := ex.Logs(); len(logs) > 0 {
			fmt.Fprintf(stdout, "log:\n%s", Indent(strings.Join(logs, "\n")+"\n"))
		}
		if fi := out.Failure; fi != nil {
			result = ExitFailure
			fmt.Fprintf(stdout, "kind: %s\n", fi.Kind)
			fmt.Fprintf(stdout, "message:\n%s", Indent(fi.Message+"\n"))
			fmt.Fprintf(stdout, "signature:\n%s", Indent(fi.Signature))
			fmt.Fprintf(stdout, "stack:\n%s", Indent(fi.Stack))
			if mode != nil && mode.lf != nil {
				reproFailure(stderr, fi, out.Result)
			}
		}
	}
	return result
}

// Indent prefixes every line of s with a tab.
func Indent(s string) string {
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
