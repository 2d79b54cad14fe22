package gfz

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// nativeExec runs a native fuzz function on parameter sequences for the
// engine: it decodes the arguments (each one span of the source's record)
// and calls the function on a runner goroutine with a fresh testing.T.
//
// The function runs on a goroutine of its own (nativeRunner) because
// t.FailNow, t.Fatal, t.SkipNow and t.Skip end the calling goroutine with
// runtime.Goexit, as in a test: the runner notices, reports the execution
// and ends, and the next execution starts a new runner. Executions that
// return (the common case) reuse the runner, at the cost of a goroutine
// switch each way.
type nativeExec struct {
	tg      *nativeTarget
	dec     *native.Decoder
	src     *param.Source
	srcMax  int // src's size limit: param.DefaultMaxSize, or the longest input run so far
	args    []native.Arg
	slots   []reflect.Value // one settable value per argument
	in      []reflect.Value // the call's arguments: the T, then the slots
	job     nativeJob
	runner  bool // a runner goroutine is waiting for jobs
	jobs    chan *nativeJob
	repeats map[string]bool
	logs    []string
	depths  []int // of each entry of logs (see nativeT.logs)
	onValue func(label, text string)
	// drawn, when not nil, receives the arguments' description as decoded,
	// before the fuzz function can modify them (DescribeValues).
	drawn *string
}

func newNativeExec(tg *nativeTarget) *nativeExec {
	src := param.New(nil, 0)
	src.SetRecording(false)
	e := &nativeExec{
		tg: tg, dec: native.NewDecoder(tg.types), src: src, srcMax: param.DefaultMaxSize,
		args: make([]native.Arg, len(tg.types)),
		in:   make([]reflect.Value, len(tg.types)+1),
		jobs: make(chan *nativeJob),
	}
	for i, k := range tg.types {
		e.slots = append(e.slots, reflect.New(k.Type()).Elem())
		e.in[i+1] = e.slots[i]
	}
	e.job.done = make(chan struct{})
	return e
}

// SetRecording implements engine.Recorder.
func (e *nativeExec) SetRecording(on bool) { e.src.SetRecording(on) }

// SetBriefRepeats implements engine.BriefRepeater (see executor).
func (e *nativeExec) SetBriefRepeats(on bool) {
	e.repeats = nil
	if on {
		e.repeats = make(map[string]bool)
	}
}

// Codec implements engine.CodecExecutor: inputs are written as native
// corpus files of the target's types.
func (e *nativeExec) Codec() workdir.Codec { return native.Codec{Types: e.tg.types, Mix: e.tg.mix} }

// Exec implements engine.Executor.
func (e *nativeExec) Exec(params []byte, extSeed uint64) engine.Outcome {
	if len(params) > e.srcMax {
		// A native input runs whole, however long (a seed or a corpus
		// file longer than the size limit of children; cut, its later
		// arguments would change).
		e.srcMax = len(params)
		e.src.SetMax(e.srcMax)
	}
	e.src.Reset(params, extSeed)
	e.logs, e.depths = nil, nil
	if !e.decode(len(params)) {
		return engine.Outcome{Result: engine.Invalid, Consumed: e.src.Consumed()}
	}
	if e.drawn != nil {
		*e.drawn = native.Describe(e.args)
	}
	if e.onValue != nil {
		for i, a := range e.args {
			e.onValue(native.SpanName(i, a.Kind), formatArgValue(a))
		}
	}
	for i, a := range e.args {
		a.Set(e.slots[i])
	}
	j := &e.job
	if e.tg.tstate != nil {
		subtestNames(e.tg.tstate)
	}
	j.reset(newNativeT(e.tg.name, e.tg.tstate), e.known)
	e.in[0] = reflect.ValueOf(j.nt.t)
	j.fn, j.in = e.tg.fn, e.in
	if !e.runner {
		go runNative(e.jobs)
		e.runner = true
	}
	e.jobs <- j
	<-j.done
	if j.exited {
		e.runner = false
	}
	res, fi := e.classify(j)
	out := engine.Outcome{Result: res, Consumed: e.src.Consumed(), Failure: fi}
	if e.src.Recording() {
		out.Record = e.src.Record()
	}
	j.in = nil
	return out
}

// DescribeValues implements engine.ValueDescriber: it runs params again
// and describes the arguments as they were decoded, before the fuzz
// function could modify them (a []byte argument is the function's to
// change), if the run fails with signature sig.
func (e *nativeExec) DescribeValues(params []byte, extSeed uint64, sig string) (string, bool) {
	var drawn string
	e.drawn = &drawn
	out := e.Exec(params, extSeed)
	e.drawn = nil
	if out.Result != engine.Failure || out.Failure == nil || out.Failure.Signature != sig || drawn == "" {
		return "", false
	}
	return drawn, true
}

// formatArgValue is an argument's value as the corpus file writes it.
func formatArgValue(a native.Arg) string {
	s := native.Describe([]native.Arg{a})
	_, v, _ := strings.Cut(strings.TrimSuffix(s, "\n"), " = ")
	return v
}

// decode decodes the arguments; false when they do not fit the cap.
func (e *nativeExec) decode(n int) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok2 := r.(param.Exhausted); !ok2 {
				panic(r)
			}
			ok = false
		}
	}()
	e.dec.Decode(e.src, n, e.args)
	return true
}

// nativeJob is one execution handed to the runner goroutine, and what
// happened.
type nativeJob struct {
	fn   reflect.Value
	in   []reflect.Value
	nt   nativeT
	done chan struct{}

	returned bool      // fn returned
	panicked bool      // fn panicked (panicVal)
	panicVal any       //
	goexit   bool      // fn ended its goroutine (t.FailNow, t.SkipNow, runtime.Goexit)
	exited   bool      // the runner goroutine ended
	pcs      []uintptr // the stack of a panic or Goexit
	cleanup  any       // a panic of a cleanup function
	// stack is the goroutine's traceback taken while a panic unwinds (as
	// a gfz target's report has it), unless known says the panic's
	// signature was reported already (brief repeats).
	stack []byte
	known func(sig string) bool
}

func (j *nativeJob) reset(nt nativeT, known func(string) bool) {
	*j = nativeJob{done: j.done, nt: nt, pcs: j.pcs[:0], known: known}
}

// runNative is the runner goroutine: it runs jobs until one ends it.
func runNative(jobs chan *nativeJob) {
	var cur *nativeJob
	defer func() {
		// Reached only when a job ended the goroutine (runtime.Goexit
		// from the function or from a cleanup).
		if cur != nil {
			cur.exited = true
			cur.done <- struct{}{}
		}
	}()
	for j := range jobs {
		cur = j
		runNativeJob(j)
		cur = nil
		j.done <- struct{}{}
	}
}

// runNativeJob calls the function, then (whatever ended it) cancels the
// test's context and runs its cleanups.
func runNativeJob(j *nativeJob) {
	defer func() {
		r := recover()
		switch {
		case r != nil:
			j.panicked, j.panicVal = true, r
			j.pcs = callers(j.pcs)
			// The executor is blocked on j.done: reading its set of
			// reported signatures here does not race.
			if j.known == nil || !j.known(panicSignature(r, j.pcs)) {
				j.stack = debug.Stack()
			}
		case !j.returned:
			j.goexit = true
			if t := j.nt.t; t.Failed() || !t.Skipped() {
				j.pcs = callers(j.pcs) // a failure: its stack is reported
			}
		}
		j.cleanup = runCleanups(j.nt)
	}()
	j.fn.Call(j.in)
	j.returned = true
}

func callers(buf []uintptr) []uintptr {
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:])
	return append(buf[:0], pcs[:n]...)
}

// runCleanups runs the test's cleanups and returns the value of a panic
// in one (nil if none).
func runCleanups(nt nativeT) (p any) {
	defer func() { p = recover() }()
	nt.finish()
	return nil
}

// unsupportedMethods are the testing.T methods a native execution's T
// cannot run on a Go release whose testing package lacks the fields gfz
// sets for them: Run and Deadline, which need the running tests' state
// (testTFields.running), and Parallel, which needs a parent
// (testTFields.parent).
func unsupportedMethods(running bool) []string {
	var ms []string
	if !running {
		ms = append(ms, "testing.(*T).Run", "testing.(*T).Deadline")
	}
	if testTFields.parent == noField || testTFields.common == noField {
		ms = append(ms, "testing.(*T).Parallel")
	}
	return ms
}

// unsupportedHook reports a call of an unsupported testing.T method: in a
// fuzz binary it prints msg and ends the run with a usage error, which is
// clearer than a failure of the target; tests replace it.
var unsupportedHook = func(msg string) {
	fmt.Fprintln(os.Stderr, msg)
	driver.ExitChild(ExitUsage)
}

// unsupportedCall returns the method of methods on the stack of a panic,
// "" if none.
func unsupportedCall(pcs []uintptr, methods []string) string {
	frames := runtime.CallersFrames(pcs)
	for {
		fr, more := frames.Next()
		for _, m := range methods {
			if fr.Function == m {
				return m
			}
		}
		if !more {
			return ""
		}
	}
}

// unsupportedMessage is the message that ends the run when the fuzz
// function called the unsupported method m (a panic with value v).
func (e *nativeExec) unsupportedMessage(m string, v any) string {
	why := "an execution has no running test"
	switch {
	case m == "testing.(*T).Parallel":
		why = testTFieldsProblem() + "; go test -fuzz ignores this call: remove it"
	case e.tg.tstate == nil && testTFields.running:
		why = "the target's *testing.F has no test state"
	case !testTFields.running:
		why = testTFieldsProblem()
	}
	return fmt.Sprintf("gfz: fuzz target %s: the fuzz function called %s, which gfz does not support in native targets (%s); the call panicked with: %v", e.tg.name, m, why, v)
}

// classify turns what happened to the job into the execution's result.
func (e *nativeExec) classify(j *nativeJob) (engine.Result, *engine.FailureInfo) {
	t := j.nt.t
	e.logs, e.depths = j.nt.logs()
	if j.panicked {
		if m := unsupportedCall(j.pcs, unsupportedMethods(e.tg.tstate != nil)); m != "" {
			msg := e.unsupportedMessage(m, j.panicVal)
			unsupportedHook(msg)
			return engine.Failure, &engine.FailureInfo{Kind: "unsupported", Signature: "unsupported\n" + m, Message: msg}
		}
		fi := &engine.FailureInfo{
			Kind:      "panic: " + panicKind(j.panicVal),
			Signature: panicSignature(j.panicVal, j.pcs),
		}
		if !e.repeat(fi.Signature) {
			fi.Message = fmt.Sprint(j.panicVal) + e.logText()
			fi.Stack = formatNativeStack(j.pcs)
			if j.stack != nil {
				fi.Stack = trimNativeStack(string(j.stack))
			}
			fi.Value = native.Describe(e.args)
		}
		return engine.Failure, fi
	}
	failed, skipped := t.Failed(), t.Skipped()
	if j.cleanup != nil {
		fi := &engine.FailureInfo{Kind: "panic: " + panicKind(j.cleanup), Signature: signature.PanicKind(j.cleanup) + "\ncleanup\n"}
		if !e.repeat(fi.Signature) {
			fi.Message = fmt.Sprint(j.cleanup) + e.logText()
			fi.Value = native.Describe(e.args)
		}
		return engine.Failure, fi
	}
	switch {
	case !failed && skipped:
		return engine.Invalid, nil
	case !failed && !j.goexit:
		return engine.Valid, nil
	}
	fi := &engine.FailureInfo{}
	switch {
	case failed && j.goexit:
		fi.Kind = "t.Fatal"
		fi.Signature = "fatal\n" + userFrames(j.pcs, nil)
	case failed:
		fi.Kind = "t.Error"
		i := e.failingEntry(false)
		if i >= 0 && (e.depths[i] > 0 || isSubtestLine(e.logs[i])) {
			fi.Kind = "subtest failed"
		}
		fi.Signature = "fatal\n" + e.logSite(i)
	default:
		fi.Kind = "runtime.Goexit"
		fi.Signature = "runtime.Goexit\n" + userFrames(j.pcs, nil)
	}
	if !e.repeat(fi.Signature) {
		fi.Message = e.failureLog(e.failingEntry(j.goexit))
		if fi.Kind == "runtime.Goexit" {
			fi.Message = "the fuzz function called runtime.Goexit without failing or skipping" + e.logText()
		}
		if j.goexit {
			fi.Stack = formatNativeStack(j.pcs)
		}
		fi.Value = native.Describe(e.args)
	}
	return engine.Failure, fi
}

// panicSignature is the failure signature of a panic with value v at the
// call stack pcs.
func panicSignature(v any, pcs []uintptr) string {
	return signature.PanicKind(v) + "\n" + userFrames(pcs, nil)
}

// known reports whether sig is a signature repeat would call a repeat,
// without recording it.
func (e *nativeExec) known(sig string) bool { return e.repeats != nil && e.repeats[sig] }

// repeat is T.repeat for a native executor (see executor.SetBriefRepeats).
func (e *nativeExec) repeat(sig string) bool {
	if e.repeats == nil {
		return false
	}
	if e.repeats[sig] {
		return true
	}
	if len(e.repeats) < maxRepeats {
		e.repeats[sig] = true
	}
	return false
}

// failureLog is the message of a t.Fatal or t.Error failure: entry i of
// the log (failingEntry: the message of the call that failed, usually),
// all its lines (the first is the failure's headline; a subtest's without
// its indentation), then the whole log when there is more.
func (e *nativeExec) failureLog(i int) string {
	switch {
	case i < 0:
		return ""
	case len(e.logs) == 1:
		return e.logs[0]
	}
	return unindent(e.logs[i], e.depths[i]) + "\nlog:" + e.logText()
}

// failingEntry is the index of the log entry that says why the execution
// failed (-1 if nothing was logged): the last one, unless a subtest
// failed and the function went on (goexit false): then the last entry of
// the last subtest that failed (of its last failed subtest, if it has
// one, and so on), even if the function logged more after it (t.Run does
// not stop the function, which may log what it checked next), or that
// subtest's "--- FAIL" line if it logged nothing.
func (e *nativeExec) failingEntry(goexit bool) int {
	n := len(e.logs)
	if goexit || n == 0 {
		return n - 1
	}
	lo, hi, depth := 0, n, 0 // the block searched: entries [lo, hi) of depth and deeper
	for {
		sub := -1
		for i := lo; i < hi; i++ {
			if e.depths[i] == depth && isSubtestLine(strings.TrimLeft(e.logs[i], " ")) {
				sub = i
			}
		}
		if sub < 0 {
			if depth == 0 {
				return n - 1 // no subtest failed
			}
			return hi - 1 // the last entry of the block, or its --- FAIL line
		}
		lo, depth = sub+1, depth+1
		for hi = lo; hi < n && e.depths[hi] >= depth; hi++ {
		}
		if lo == hi {
			return sub
		}
	}
}

// logText is the execution's log entries, each on a line of its own after
// a newline, the further lines of an entry indented ("" when there are
// none).
func (e *nativeExec) logText() string {
	if len(e.logs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range e.logs {
		b.WriteString("\n" + strings.ReplaceAll(l, "\n", "\n"+logIndent))
	}
	return b.String()
}

// logSite is the "file.go:line" of log entry i (t.Error logs its message
// where it fails) or, if it has none, of the closest entry before it of
// its own test (not of a subtest of that test), the signature of a
// failure by t.Error, Errorf or Fail, and of a subtest's failure (t.Run
// does not stop the function); "subtest NAME" when the entry is, or comes
// after nothing but, the "--- FAIL: NAME" line of a subtest that logged
// no site; "(no message)" when nothing was logged.
func (e *nativeExec) logSite(i int) string {
	for k := i; k >= 0; k-- {
		if e.depths[k] > e.depths[i] {
			continue
		}
		l, _, _ := strings.Cut(strings.TrimLeft(e.logs[k], " "), "\n")
		if isSubtestLine(l) {
			if k == i || e.depths[k] < e.depths[i] {
				return "subtest " + subtestName(l) + "\n"
			}
			continue
		}
		if site, _, ok := strings.Cut(l, ": "); ok && strings.Contains(site, ".go:") {
			return site + "\n"
		}
	}
	return "(no message)\n"
}

// trimNativeStack removes from a debug.Stack trace taken in runNativeJob's
// deferred function the frames of the recover (debug.Stack and that
// function), gfz's instrumentation frames, and everything from the
// reflect call of the fuzz function down: what is left is the goroutine
// header, the panic and the frames down to the fuzz function, as in a gfz
// target's report (trimStack).
func trimNativeStack(s string) string {
	return trimFrames(s, func(fn string) bool {
		return strings.HasPrefix(fn, "reflect.") || fn == runNativeJobFunc
	}, func(fn string) bool {
		return fn == "runtime/debug.Stack" || strings.HasPrefix(fn, runNativeJobFunc+".func")
	})
}

// runNativeJobFunc is the name of runNativeJob.
const runNativeJobFunc = "github.com/gfz-dev/gfz.runNativeJob"

// formatNativeStack prints pcs like a goroutine trace from the innermost
// user frame down to the fuzz function (without the runtime's and the
// testing package's frames, which a panic or t.Fatal adds on top).
func formatNativeStack(pcs []uintptr) string {
	var b strings.Builder
	frames := runtime.CallersFrames(pcs)
	for {
		fr, more := frames.Next()
		if strings.HasPrefix(fr.Function, "reflect.") || strings.HasPrefix(fr.Function, "github.com/gfz-dev/gfz.runNative") {
			break
		}
		if fr.Function != "" && !signature.IsInstrumentationFrame(fr.Function) && !strings.HasPrefix(fr.Function, "runtime.") && !strings.HasPrefix(fr.Function, "testing.") {
			fmt.Fprintf(&b, "%s\n\t%s:%d\n", fr.Function, fr.File, fr.Line)
		}
		if !more {
			break
		}
	}
	return b.String()
}
