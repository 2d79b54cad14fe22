package gfz

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"unsafe"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/param"
)

// executor runs a fuzz function on parameter sequences for the engine. It
// reuses one Source and one T across executions.
//
// Its fast path keeps nothing an execution does not need: the source's
// draw/span record is off (SetRecording turns it on), T.Note keeps no
// values (DescribeValues runs a failing input again to describe them), and
// with SetBriefRepeats a failure whose signature it already reported is
// not formatted again.
type executor struct {
	fn  func(*T)
	src *param.Source
	t   *T
	// dict: the last DescribeValues run drew from the fuzz binary's
	// dictionary (DescribedDictionary).
	dict bool
}

func newExecutor(fn func(*T), maxSize int) *executor {
	src := param.New(nil, 0)
	src.SetMax(maxSize)
	src.SetRecording(false)
	return &executor{fn: fn, src: src, t: &T{src: src, quiet: true, wpOn: true}}
}

// Exec implements engine.Executor. It runs the fuzz function in the calling
// goroutine; a panic in a goroutine the function starts is not recovered
// here and ends the process.
//
// Outcome.Record is nil unless SetRecording(true) was called.
// FailureInfo.Value is empty: the fuzz function runs with T.Note off, and
// the engine asks DescribeValues for the values of each new failure (-repro
// runs with values on). With SetBriefRepeats, a failure whose signature was
// already reported in full has only Kind and Signature: no message or
// stack is formatted.
func (e *executor) Exec(params []byte, extSeed uint64) engine.Outcome {
	e.src.Reset(params, extSeed)
	e.t.reset()
	res, fi := run(e.t, e.fn)
	out := engine.Outcome{Result: res, Consumed: e.src.Consumed(), Failure: fi, Waypoints: e.t.wps}
	if e.src.Recording() {
		out.Record = e.src.Record()
	}
	return out
}

// ExecGuided implements engine.GuidedExecutor: Exec with every draw's
// bytes taken from g by execution index.
func (e *executor) ExecGuided(g param.Guide, extSeed uint64) engine.Outcome {
	recording := e.src.Recording()
	e.src.ResetGuided(g, extSeed)
	e.t.reset()
	res, fi := run(e.t, e.fn)
	out := engine.Outcome{Result: res, Consumed: e.src.Consumed(), Failure: fi, Record: e.src.Record(), Waypoints: e.t.wps}
	e.src.SetRecording(recording)
	return out
}

// SetRecording turns the source's draw/span record on or off (default
// off); with it on, Outcome.Record holds each execution's record. An
// engine that reads spans or draws (structure-aware mutation) turns it on
// before its first execution; see param.Source.SetRecording for its cost.
func (e *executor) SetRecording(on bool) { e.src.SetRecording(on) }

// SetBriefRepeats turns brief repeats on or off and forgets the signatures
// reported so far. With it on, Exec formats a failure in full (message,
// stack, values) only the first time its signature occurs; later failing
// executions with that signature get a FailureInfo with Kind and Signature
// only. An engine turns it on at the start of a run when it handles every
// failure it receives (saving it or finding its signature already known),
// so that it never needs a repeat's details: failing inputs of a known bug
// then cost little more than passing ones. DescribeValues is not affected.
func (e *executor) SetBriefRepeats(on bool) {
	e.t.repeats = nil
	if on {
		e.t.repeats = make(map[string]bool)
	}
}

// DescribeValues implements engine.ValueDescriber. It re-runs the input
// formatting each value as it is drawn (a value the target modified
// afterwards is shown as drawn) and returns them if the re-run fails with
// signature sig.
func (e *executor) DescribeValues(params []byte, extSeed uint64, sig string) (string, bool) {
	recording, repeats := e.src.Recording(), e.t.repeats
	e.src.SetRecording(false)
	e.t.repeats = nil
	e.src.Reset(params, extSeed)
	e.t.reset()
	e.t.eager = true
	defer func() {
		e.t.eager = false
		e.t.repeats = repeats
		e.src.SetRecording(recording)
	}()
	userdict.ResetConsulted()
	res, fi := run(e.t, e.fn)
	e.dict = userdict.Consulted()
	if res != engine.Failure || fi.Signature != sig {
		return "", false
	}
	return fi.Value, true
}

// DescribedDictionary implements engine.DictionaryReporter: whether the
// last DescribeValues run drew from the fuzz binary's dictionary.
func (e *executor) DescribedDictionary() bool { return e.dict }

// run executes fn(t) and classifies the execution. t must be reset.
func run(t *T, fn func(*T)) (res engine.Result, fi *engine.FailureInfo) {
	returned := false
	defer func() {
		r := recover()
		switch {
		case r == nil && !returned:
			// fn called runtime.Goexit (directly, or through a testing.T
			// it reached): the goroutine is ending and cannot be saved.
			goexitHook(debug.Stack())
		case r == nil:
			// Normal return.
		case isSkip(r):
			res = engine.Invalid
			return
		case isFail(r):
			// fall through to the failure report below
		default:
			if _, ok := r.(param.Exhausted); ok {
				res = engine.Invalid
				return
			}
			res = engine.Failure
			fi = panicFailure(t, r)
			return
		}
		if t.failed {
			res = engine.Failure
			fi = fatalFailure(t)
			return
		}
		res = engine.Valid
	}()
	fn(t)
	returned = true
	return engine.Valid, nil
}

// goexitHook reports a runtime.Goexit called by the fuzz target. In a fuzz
// binary it writes signature.GoexitMarker and the stack on stderr and exits
// the process, so that the supervisor saves the input as a
// "runtime.Goexit" failure (or -repro reports it); elsewhere (tests) it
// returns and the goroutine ends.
var goexitHook = func(stack []byte) {
	if buildInfo == "" {
		return
	}
	fmt.Fprintf(os.Stderr, "%s\n%s", signature.GoexitMarker, stack)
	driver.ExitChild(ExitFailure)
}

// panicFailure describes a panic recovered by run. It is called from run's
// deferred function, so the stack still holds the panicking frames. Its
// signature starts with the panic as the Go runtime would print it
// (signature.PanicKind), so that the same panic in a goroutine the
// target started, caught by the supervisor from the crash output, gets
// the same signature. A brief repeat (see executor.SetBriefRepeats) has
// only Kind and Signature.
func panicFailure(t *T, r any) *engine.FailureInfo {
	kind := panicKind(r)
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:]) // Callers, panicFailure, the deferred func
	fi := &engine.FailureInfo{
		Kind:      "panic: " + kind,
		Signature: signature.PanicKind(r) + "\n" + t.userFrames(pcs[:n]),
	}
	if t.repeat(fi.Signature) {
		return fi
	}
	msg := fmt.Sprint(r)
	if len(t.msgs) > 0 {
		msg += "\n" + strings.Join(t.messages(), "\n")
	}
	fi.Message = msg
	fi.Stack = trimStack(string(debug.Stack()))
	fi.Value = t.Values()
	return fi
}

// fatalFailure describes an execution failed by Error/Fatal/Fail/FailNow.
// Its kind is t.Fatal when the execution was stopped by Fatal/FailNow; its
// signature is "fatal" and the user frames of the first failing call. A
// brief repeat has only Kind and Signature.
func fatalFailure(t *T) *engine.FailureInfo {
	kind := "t.Error"
	if t.fatal {
		kind = "t.Fatal"
	}
	fi := &engine.FailureInfo{Kind: kind, Signature: "fatal\n" + t.userFrames(t.failPCs)}
	if t.repeat(fi.Signature) {
		return fi
	}
	fi.Message = strings.Join(t.messages(), "\n")
	fi.Stack = formatStack(t.failPCs)
	fi.Value = t.Values()
	return fi
}

// maxRepeats bounds the signatures remembered for brief repeats.
const maxRepeats = 1 << 14

// repeat reports whether a failure with signature sig is a brief repeat:
// brief repeats are on and sig was reported in full before. Otherwise it
// remembers sig as reported. It sets t.brief accordingly.
func (t *T) repeat(sig string) bool {
	t.brief = false
	if t.repeats == nil {
		return false
	}
	if t.repeats[sig] {
		t.brief = true
		return true
	}
	if len(t.repeats) < maxRepeats {
		t.repeats[sig] = true
	}
	return false
}

// panicKind describes a panic value without the numbers that vary from one
// input to the next: "runtime error: index out of range [N] with length N",
// "string: bad node N", "*errors.errorString: ...".
func panicKind(r any) string {
	var text string
	switch v := r.(type) {
	case runtime.Error:
		return normalize(v.Error())
	case error:
		text = reflect.TypeOf(r).String() + ": " + v.Error()
	case string:
		text = "string: " + v
	case fmt.Stringer:
		text = reflect.TypeOf(r).String() + ": " + v.String()
	default:
		text = reflect.TypeOf(r).String() + ": " + fmt.Sprint(r)
	}
	return normalize(text)
}

// normalize replaces every run of decimal digits and every 0x... number by
// N, keeps the first line and caps the length, so that messages differing
// only in numbers match (signature.NormalizeMessage, shared with the
// supervisor).
func normalize(s string) string { return signature.NormalizeMessage(s) }

// isInternalFrame reports whether a function belongs to the Go runtime, the
// testing machinery, gfz itself or gfz's instrumentation (never the user's
// code); the rule is the supervisor's (signature.IsInternalFrame).
func isInternalFrame(fn string) bool { return signature.IsInternalFrame(fn) }

// maxFrameKeys bounds the call stacks whose user frames a T remembers.
const maxFrameKeys = 4096

// userFrames is userFrames(pcs, t.helpers), remembered per call stack: a
// failure that recurs at the same place costs a map lookup, not a walk of
// the stack's frames.
func (t *T) userFrames(pcs []uintptr) string {
	if len(pcs) == 0 {
		return userFrames(pcs, t.helpers)
	}
	key := unsafe.Slice((*byte)(unsafe.Pointer(&pcs[0])), len(pcs)*int(unsafe.Sizeof(pcs[0])))
	if s, ok := t.frames[string(key)]; ok {
		return s
	}
	s := userFrames(pcs, t.helpers)
	if t.frames == nil {
		t.frames = make(map[string]string)
	}
	if len(t.frames) < maxFrameKeys {
		t.frames[string(key)] = s
	}
	return s
}

// userFrames returns the signature frames of pcs (signature.FrameLines):
// the top signature.Frames frames inside the user's code, starting at the
// innermost one that is not a standard-library helper, one
// "function file.go:line" per line. Frames from gfz's run down (the fuzz
// harness and the function that called Fuzz) do not count, nor do the
// functions marked by Helper.
func userFrames(pcs []uintptr, helpers map[string]bool) string {
	var buf [64]signature.Frame
	fs := buf[:0]
	frames := runtime.CallersFrames(pcs)
	for {
		fr, more := frames.Next()
		if signature.IsBoundaryFrame(fr.Function) {
			break
		}
		if fr.Function != "" {
			fs = append(fs, signature.Frame{Func: fr.Function, File: fr.File, Line: fr.Line})
		}
		if !more {
			break
		}
	}
	var skip func(string) bool
	if len(helpers) > 0 {
		skip = func(fn string) bool { return helpers[fn] }
	}
	return signature.FrameLines(fs, skip, false)
}

// runFunc is the name of run, where the fuzz function's frames end.
const runFunc = "github.com/gfz-dev/gfz.run"

// panicFailureFunc is the name of panicFailure, which takes the stack.
const panicFailureFunc = "github.com/gfz-dev/gfz.panicFailure"

// trimStack removes from a debug.Stack trace the frames of the recover
// (debug.Stack, panicFailure and run's deferred function), gfz's instrumentation frames
// (_gfzHit, ...) and everything from run down.
func trimStack(s string) string {
	return trimFrames(s, func(fn string) bool { return fn == runFunc }, func(fn string) bool {
		return fn == "runtime/debug.Stack" || fn == panicFailureFunc || strings.HasPrefix(fn, runFunc+".func")
	})
}

// trimFrames keeps the first line of a goroutine trace and its frames
// (function line and file line) up to the first whose function stop
// accepts, leaving out those skip accepts and gfz's instrumentation
// frames.
func trimFrames(s string, stop, skip func(fn string) bool) string {
	lines := strings.Split(s, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i == 0 || !strings.HasPrefix(l, "\t") && l != "" {
			fn := l
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j]
			}
			switch {
			case i > 0 && stop(fn):
				return b.String()
			case i > 0 && (skip(fn) || signature.IsInstrumentationFrame(fn)):
				i++ // skip the file:line line too
				continue
			}
		}
		if l != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// formatStack prints pcs like a goroutine trace (without arguments), from
// the innermost frame down to run, without gfz's instrumentation frames.
func formatStack(pcs []uintptr) string {
	var b strings.Builder
	frames := runtime.CallersFrames(pcs)
	for {
		fr, more := frames.Next()
		if fr.Function == runFunc {
			break
		}
		if fr.Function != "" && !signature.IsInstrumentationFrame(fr.Function) {
			fmt.Fprintf(&b, "%s\n\t%s:%d\n", fr.Function, fr.File, fr.Line)
		}
		if !more {
			break
		}
	}
	return b.String()
}

// Values returns the top-level generated values recorded so far (see Note),
// printed as failure reports print them: one "label = value" line each, the
// value in Go syntax; the steps of Repeat as "step N: Action" lines, the
// values drawn in a step indented by a tab under it.
func (t *T) Values() string {
	var b strings.Builder
	for _, v := range t.values {
		b.WriteString(indentString(v.indent))
		if v.header {
			fmt.Fprintf(&b, "%s: %s\n", v.label, v.text)
			continue
		}
		text := v.text
		if v.v != nil || text == "" {
			text = formatValue(v.v)
		}
		fmt.Fprintf(&b, "%s = %s\n", v.label, text)
	}
	return b.String()
}
