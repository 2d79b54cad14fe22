package gfz

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/intern"
	"github.com/gfz-dev/gfz/param"
)

// T is the handle a fuzz function receives. It gives generators their
// parameter source and reports the outcome of one execution, much like
// testing.T does for a test.
//
// A T is valid during the execution of the fuzz function it was passed
// to. Error, Errorf, Fail, Log and Logf may be called from goroutines the
// function starts, as on a testing.T, while the function waits for them:
// a call after the function returned is counted for whichever execution
// runs then (the T is reused). Fatal, FailNow, Assume and Skip stop the
// execution by unwinding the goroutine that runs the function; called in
// another goroutine they end the process with a panic that says so (a
// crash of the target, with the Fatal's message).
type T struct {
	src *param.Source
	tt  *testing.T // set under plain go test and go test -fuzz

	// mu guards failed, fatal, msgs, failPCs and logs against the
	// goroutines a fuzz function starts, which may call Error and Log as
	// they may on a testing.T.
	mu      sync.Mutex
	failed  bool
	skipped bool
	msgs    []failMsg // Error/Fatal messages (fuzz-binary mode), located lazily (see messages)
	failPCs []uintptr // call stack of the first Error/Fatal (fuzz-binary mode)
	fatal   bool      // stopped by Fatal/FailNow

	keepLogs bool     // keep Log output (repro mode)
	logs     []string // Log output when keepLogs

	eager  bool                     // format recorded values when recorded (repro mode, plain go test)
	onNote func(label, text string) // called for each value recorded when eager (-repro streams them)
	values []value                  // top-level generated values
	// quiet: Note keeps nothing (the fuzz-binary executor's fast path; a
	// failure it reports in full is re-run eagerly to describe its values).
	quiet bool

	repeats map[string]bool   // signatures reported in full (brief repeats on), else nil
	frames  map[string]string // userFrames of a call stack (key: its PCs), cleared by Helper
	brief   bool              // the last failure was a brief repeat

	helpers map[string]bool // functions marked by Helper

	// topDepth is the source depth at which a generator's Draw is top
	// level (TopLevel): 0, or inside a Repeat step or check, the depth of
	// its span. indent is the Repeat nesting level of the values noted.
	topDepth int
	indent   int
	wpOn     bool              // record waypoints (fuzz-binary executor; feedback.go)
	wps      []engine.Waypoint // this execution's waypoints when wpOn
}

// value is one top-level generated value recorded for failure reports,
// or the header of a Repeat step.
type value struct {
	label  string
	v      any
	text   string // set when formatted eagerly; a header's action name
	header bool   // a Repeat step: printed "label: text"
	indent int    // Repeat nesting level (tabs before the line)
}

// sentinel values unwind the fuzz function, whose executor recovers them.
// One escapes only when a T method that stops the execution was called in
// another goroutine (or outside gfz.Fuzz): the panic ends the process, and
// its text says why, with the message of a Fatal.
type sentinel struct {
	skip bool   // SkipNow (Assume, Skip); else FailNow (Fatal)
	msg  string // a Fatal's message
}

var (
	errSkipNow = &sentinel{skip: true}
	errFailNow = &sentinel{}
)

// isSkip and isFail tell the sentinels apart (a Fatal's carries its
// message: another value).
func isSkip(r any) bool { s, ok := r.(*sentinel); return ok && s.skip }
func isFail(r any) bool { s, ok := r.(*sentinel); return ok && !s.skip }

func (s *sentinel) String() string {
	what := "t.FailNow (or t.Fatal)"
	if s.skip {
		what = "t.SkipNow (or t.Assume(false), t.Skip)"
	}
	text := "gfz: " + what + " stops an execution only in the goroutine running the fuzz function, and was called in another one (or outside gfz.Fuzz); in a goroutine of your own, report with t.Error and return"
	if s.msg != "" {
		text += "; the message: " + s.msg
	}
	return text
}

// NewT returns a T drawing from src, outside any fuzz target. It is meant
// for testing generators and for drawing values in benchmarks or examples:
// Fatal, FailNow, Assume(false) and Skip panic with values private to
// package gfz, so call them only under Fuzz.
func NewT(src *param.Source) *T {
	return &T{src: src}
}

// reset prepares t for a new execution, keeping its buffers.
func (t *T) reset() {
	t.failed, t.skipped, t.fatal, t.brief = false, false, false, false
	t.topDepth, t.indent = 0, 0
	t.msgs = t.msgs[:0]
	t.failPCs = t.failPCs[:0]
	t.logs = t.logs[:0]
	clear(t.values)
	t.values = t.values[:0]
	t.wps = t.wps[:0]
}

// Source returns the parametric source generators draw from. It is the
// low-level API for generator authors; fuzz functions normally use the
// generators package instead.
func (t *T) Source() *param.Source { return t.src }

// Note records a generated value for failure reports under label. The
// generators package calls it for every top-level Draw (one made while no
// other generator is drawing); generator authors rarely need it. Values are
// printed in Go syntax, as they were when noted: the fuzz binary describes
// a failing input's values by running it again, formatting each value as
// it is noted (so does -repro), and plain go test formats them as they are
// noted. Only under go test -fuzz, which formats them when an input fails
// (to keep executions cheap), is a value the target modified after drawing
// it shown modified.
//
// When Noting reports false, Note does nothing; generators check it first,
// so that a value is not converted to an interface only to be discarded.
func (t *T) Note(label string, v any) {
	if t.quiet && !t.eager {
		return
	}
	l := t.label(label) // a copy: label itself is never retained
	val := value{label: l, v: v, indent: t.indent}
	if t.eager {
		val.text = formatValue(v)
		val.v = nil
		if t.onNote != nil {
			t.onNote(indentString(t.indent)+l, val.text)
		}
	}
	t.values = append(t.values, val)
}

// Noting reports whether Note keeps values in this execution. The
// fuzz-binary executor runs the fuzz function with Note off (a failing
// input's values are described by running it again); under go test, in
// -repro and for a T from NewT it is on.
func (t *T) Noting() bool { return !t.quiet || t.eager }

// TopLevel reports whether a generator drawing now draws at the top level
// of the fuzz function, so that its value is recorded with Note: no other
// generator is drawing (param.Source.Depth is 0), or, inside an action or
// the invariant of Repeat, no other generator of that action is. The
// generators package calls it in Draw.
func (t *T) TopLevel() bool { return t.src.Depth() == t.topDepth }

// label returns a copy of a Note label, made once per distinct label:
// Note never retains its argument, so a generator's label does not escape
// through Note and generators built inline can stay on the stack.
func (t *T) label(l string) string { return intern.String(l) }

// Assume marks the input invalid and stops the execution when ok is false.
// Invalid inputs are not failures: the engine counts them as INVALID and
// steers away from them.
func (t *T) Assume(ok bool) {
	if !ok {
		t.SkipNow()
	}
}

// Skip logs args and stops the execution like Assume(false).
func (t *T) Skip(args ...any) {
	t.log(fmt.Sprintln(args...))
	t.SkipNow()
}

// Skipf formats its arguments like fmt.Sprintf, logs the result and stops
// the execution like Assume(false).
func (t *T) Skipf(format string, args ...any) {
	t.log(fmt.Sprintf(format, args...))
	t.SkipNow()
}

// SkipNow stops the execution like Assume(false).
func (t *T) SkipNow() {
	t.skipped = true
	panic(errSkipNow)
}

// Skipped reports whether the execution was skipped (an assumption failed).
func (t *T) Skipped() bool { return t.skipped }

// Log records its arguments, formatted like fmt.Sprintln. Under go test
// the text goes to testing.T.Log; in fuzz-binary mode it is shown by -repro.
func (t *T) Log(args ...any) {
	if t.tt != nil {
		t.tt.Helper()
		t.tt.Log(args...)
		return
	}
	if t.keepLogs {
		t.log(fmt.Sprintln(args...))
	}
}

// Logf is Log with fmt.Sprintf formatting.
func (t *T) Logf(format string, args ...any) {
	if t.tt != nil {
		t.tt.Helper()
		t.tt.Logf(format, args...)
		return
	}
	if t.keepLogs {
		t.log(fmt.Sprintf(format, args...))
	}
}

// log keeps a message in repro mode, or passes it to testing.T.
func (t *T) log(s string) {
	s = strings.TrimSuffix(s, "\n")
	if t.tt != nil {
		t.tt.Helper()
		t.tt.Log(s)
		return
	}
	if t.keepLogs {
		loc := t.location()
		t.mu.Lock()
		if len(t.logs) < maxLogs {
			t.logs = append(t.logs, loc+s)
		}
		t.mu.Unlock()
	}
}

const maxLogs = 1000

// Error records a failure with its arguments formatted like fmt.Sprintln;
// the execution continues.
func (t *T) Error(args ...any) {
	if t.tt != nil {
		t.tt.Helper()
		t.tt.Error(args...)
		return
	}
	t.fail(strings.TrimSuffix(fmt.Sprintln(args...), "\n"), false)
}

// Errorf is Error with fmt.Sprintf formatting.
func (t *T) Errorf(format string, args ...any) {
	if t.tt != nil {
		t.tt.Helper()
		t.tt.Errorf(format, args...)
		return
	}
	t.fail(fmt.Sprintf(format, args...), false)
}

// Fatal is Error followed by FailNow.
func (t *T) Fatal(args ...any) {
	if t.tt != nil {
		t.tt.Helper()
		t.tt.Fatal(args...)
		return
	}
	msg := strings.TrimSuffix(fmt.Sprintln(args...), "\n")
	t.fail(msg, true)
	panic(&sentinel{msg: msg})
}

// Fatalf is Errorf followed by FailNow.
func (t *T) Fatalf(format string, args ...any) {
	if t.tt != nil {
		t.tt.Helper()
		t.tt.Fatalf(format, args...)
		return
	}
	msg := fmt.Sprintf(format, args...)
	t.fail(msg, true)
	panic(&sentinel{msg: msg})
}

// Fail marks the execution failed without a message; it continues.
func (t *T) Fail() {
	if t.tt != nil {
		t.tt.Fail()
		return
	}
	t.fail("", false)
}

// FailNow marks the execution failed and stops it.
func (t *T) FailNow() {
	if t.tt != nil {
		t.tt.FailNow()
		return
	}
	t.fail("", true)
	panic(errFailNow)
}

// Failed reports whether the execution has failed.
func (t *T) Failed() bool {
	if t.tt != nil {
		return t.tt.Failed() // goroutine-safe, and what go test reports
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

// Helper marks the calling function as a helper: failure locations and
// signatures skip it and report its caller instead. Under plain go test the
// testing package attributes messages to the caller of the T method, which
// may be the helper itself.
func (t *T) Helper() {
	if t.tt != nil {
		return
	}
	var pc [1]uintptr
	if runtime.Callers(2, pc[:]) == 0 {
		return
	}
	fr, _ := runtime.CallersFrames(pc[:]).Next()
	if t.helpers[fr.Function] {
		return
	}
	if t.helpers == nil {
		t.helpers = make(map[string]bool)
	}
	t.helpers[fr.Function] = true
	clear(t.frames) // signatures skip helpers
}

// fail records a failure in fuzz-binary mode. The first failure fixes the
// call stack used for the signature.
//
// A message keeps the call stack it was reported from; its "file.go:line: "
// location is only worked out when the failure is reported in full
// (messages), not for a brief repeat of a known failure.
func (t *T) fail(msg string, fatal bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fatal = t.fatal || fatal
	first := !t.failed
	if first {
		t.failed = true
		var pcs [64]uintptr
		n := runtime.Callers(3, pcs[:]) // skip Callers, fail, the T method
		t.failPCs = append(t.failPCs[:0], pcs[:n]...)
	}
	if msg == "" {
		return
	}
	m := failMsg{text: msg, pcs: t.failPCs}
	if !first {
		var pcs [32]uintptr
		n := runtime.Callers(3, pcs[:])
		m.pcs = append([]uintptr(nil), pcs[:n]...)
	}
	t.msgs = append(t.msgs, m)
}

// failMsg is an Error/Fatal message and the call stack it came from
// (starting at the caller of the T method).
type failMsg struct {
	text string
	pcs  []uintptr
}

// messages returns the execution's failure messages, each prefixed with
// its location (see location).
func (t *T) messages() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, len(t.msgs))
	for i, m := range t.msgs {
		out[i] = t.locate(m.pcs) + m.text
	}
	return out
}

// location returns "file.go:line: " for the first user frame that called
// into T, skipping gfz's own frames and functions marked by Helper.
func (t *T) location() string {
	var pcs [32]uintptr
	n := runtime.Callers(2, pcs[:])
	return t.locate(pcs[:n])
}

// locate is location for the call stack pcs.
func (t *T) locate(pcs []uintptr) string {
	if len(pcs) == 0 {
		return ""
	}
	frames := runtime.CallersFrames(pcs)
	for {
		fr, more := frames.Next()
		if !isInternalFrame(fr.Function) && !t.helpers[fr.Function] {
			return fmt.Sprintf("%s:%d: ", baseName(fr.File), fr.Line)
		}
		if !more {
			return ""
		}
	}
}

func baseName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}
