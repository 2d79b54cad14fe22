package gfz

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// A native target's function takes a *testing.T. The testing package
// creates its T values only inside t.Run, which costs a goroutine, a
// subtest name kept for the process's lifetime and output per failure.
// gfz instead gives every execution a fresh testing.T and sets the few
// unexported fields its methods need that the zero value lacks, found by
// reflection (testTFields), so that each method behaves as in a test:
//
//   - o, the output writer, so that Log, Error, Fatal, Skip and their
//     formatted forms record their lines (read back from output);
//   - name, so that Name, TempDir and messages name the target;
//   - ctx and cancelCtx, so that Context returns a context that is
//     canceled just before the cleanups run;
//   - cleanups is read after the execution to run the functions
//     registered with Cleanup (TempDir and Setenv use it too);
//   - tstate, the testing package's state of the running tests (the
//     -test.run matcher, the -test.timeout deadline, the parallelism),
//     which Run and Deadline read: it is the target's *testing.F's own
//     (FuzzNative reads it from the F), so t.Run runs subtests as go test
//     does, each on its own goroutine through the testing package's
//     tRunner, named "FuzzX/sub";
//   - level 1, as a fuzz function's T has under go test, so that subtest
//     names get the target's name as their prefix;
//   - w, where a finished subtest that failed writes its output (its
//     "--- FAIL: FuzzX/sub" line and its log): subtestWriter, which
//     indents it into the T's output as the testing package does, so that
//     it joins the execution's log (see nativeT.logs).
//
//   - parent, a testing.common of gfz's (nativeParent, shared by every
//     execution, never read) without a barrier, so that Parallel on the
//     fuzz function's T has no effect, as under go test -fuzz (the
//     testing package returns at once when the parent has no barrier).
//
// Fail, FailNow, SkipNow, Helper, Failed, Skipped, Output, Attr, Chdir
// and ArtifactDir need nothing more. Parallel called in a subtest of the
// fuzz function's T has no effect for the same reason (the subtest runs
// to its end inside t.Run); deeper, it works as in go test. If a future
// Go release renames a field, the affected method degrades (logs not
// recorded, nil context, Run and Deadline unsupported, Parallel on the
// fuzz function's T ending the run with a message saying so: see
// unsupportedCall) and the missing fields are reported once by
// testTFieldsProblem.

// testTFieldSet locates the unexported fields of testing.T gfz sets, by
// their offsets in testing.T (-1: not found).
type testTFieldSet struct {
	o, name, ctx, cancelCtx, output, cleanups uintptr
	parent                                    uintptr      // common.parent (*testing.common)
	outputWriter                              reflect.Type // testing.outputWriter
	outputWriterC                             uintptr      // offset of its c field (*testing.common)
	common                                    uintptr      // offset of the embedded testing.common
	// For Run and Deadline: the offsets of T.tstate, F.tstate (the same
	// type), common.level and common.w, and in the testing package's
	// testState and matcher types, of testState.match, matcher.mu and
	// matcher.subNames. running is false unless all were found.
	tstate, fTstate, level, w  uintptr
	match, matchMu, matchNames uintptr
	running                    bool
	missing                    []string
}

const noField = ^uintptr(0)

var testTFields = func() *testTFieldSet {
	s := &testTFieldSet{outputWriterC: noField}
	tt := reflect.TypeFor[testing.T]()
	field := func(name string, want reflect.Type, kind reflect.Kind) uintptr {
		f, ok := tt.FieldByName(name)
		if !ok || want != nil && f.Type != want || kind != reflect.Invalid && f.Type.Kind() != kind {
			s.missing = append(s.missing, name)
			return noField
		}
		off := uintptr(0)
		t := tt
		for _, i := range f.Index {
			off += t.Field(i).Offset
			t = t.Field(i).Type
		}
		return off
	}
	s.common = field("common", nil, reflect.Struct)
	s.o = field("o", nil, reflect.Pointer)
	s.name = field("name", reflect.TypeFor[string](), 0)
	s.ctx = field("ctx", reflect.TypeFor[context.Context](), 0)
	s.cancelCtx = field("cancelCtx", reflect.TypeFor[context.CancelFunc](), 0)
	s.output = field("output", reflect.TypeFor[[]byte](), 0)
	s.cleanups = field("cleanups", reflect.TypeFor[[]func()](), 0)
	if cf, ok := tt.FieldByName("common"); ok {
		s.parent = field("parent", reflect.PointerTo(cf.Type), 0)
	}
	if s.o != noField && s.common != noField {
		ft, _ := tt.FieldByName("o")
		s.outputWriter = ft.Type.Elem()
		cf, _ := tt.FieldByName("common")
		if f, ok := s.outputWriter.FieldByName("c"); ok && f.Type == reflect.PointerTo(cf.Type) {
			s.outputWriterC = f.Offset
		}
	}
	if s.outputWriterC == noField {
		s.missing = append(s.missing, "outputWriter.c")
	}
	s.findRunning()
	return s
}()

// findRunning locates the fields that t.Run and t.Deadline need (see
// testTFieldSet) and sets running when all are there.
func (s *testTFieldSet) findRunning() {
	n := len(s.missing)
	tt := reflect.TypeFor[testing.T]()
	// offset finds the field name of t (label in the list of missing
	// fields), whose type passes ok.
	offset := func(t reflect.Type, label, name string, ok func(reflect.Type) bool) (uintptr, reflect.Type) {
		f, found := t.FieldByName(name)
		if !found || len(f.Index) > 2 || !ok(f.Type) {
			s.missing = append(s.missing, label)
			return noField, nil
		}
		off := uintptr(0)
		for _, i := range f.Index {
			off += t.Field(i).Offset
			t = t.Field(i).Type
		}
		return off, f.Type
	}
	isPtrStruct := func(t reflect.Type) bool { return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct }
	var stateType reflect.Type
	s.tstate, stateType = offset(tt, "tstate", "tstate", isPtrStruct)
	s.level, _ = offset(tt, "level", "level", func(t reflect.Type) bool { return t == reflect.TypeFor[int]() })
	s.w, _ = offset(tt, "w", "w", func(t reflect.Type) bool { return t == reflect.TypeFor[io.Writer]() })
	if stateType == nil {
		return
	}
	s.fTstate, _ = offset(reflect.TypeFor[testing.F](), "F.tstate", "tstate", func(t reflect.Type) bool { return t == stateType })
	var matcherType reflect.Type
	s.match, matcherType = offset(stateType.Elem(), "testState.match", "match", isPtrStruct)
	if matcherType == nil {
		return
	}
	s.matchMu, _ = offset(matcherType.Elem(), "matcher.mu", "mu", func(t reflect.Type) bool { return t == reflect.TypeFor[sync.Mutex]() })
	s.matchNames, _ = offset(matcherType.Elem(), "matcher.subNames", "subNames", func(t reflect.Type) bool { return t == reflect.TypeFor[map[string]int32]() })
	s.running = len(s.missing) == n && s.output != noField && s.common != noField
}

// testStateOf returns the testing package's test state of f (nil if this
// Go release's testing package does not have the fields gfz needs).
func testStateOf(f *testing.F) unsafe.Pointer {
	if !testTFields.running || f == nil {
		return nil
	}
	return *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(f), testTFields.fTstate))
}

// testTFieldsProblem describes the testing.T fields gfz could not find
// ("" when all were found).
func testTFieldsProblem() string {
	if len(testTFields.missing) == 0 {
		return ""
	}
	return "this Go release's testing package lacks the fields " + strings.Join(testTFields.missing, ", ") + " gfz sets: some testing.T methods of a native target will not behave as in a test"
}

// at returns the address of the field at offset off of *t.
func at(t *testing.T, off uintptr) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(t), off) }

// nativeT is the testing.T of one execution.
type nativeT struct {
	t   *testing.T
	ctx *execContext
}

// newNativeT returns a testing.T named name, ready for one execution;
// with tstate (testStateOf the target's F, not nil), a T whose Run and
// Deadline work.
func newNativeT(name string, tstate unsafe.Pointer) nativeT {
	t := new(testing.T)
	s := testTFields
	if s.name != noField {
		*(*string)(at(t, s.name)) = name
	}
	if s.parent != noField && s.common != noField {
		*(*unsafe.Pointer)(at(t, s.parent)) = at(&nativeParent, s.common)
	}
	if tstate != nil && s.running {
		*(*unsafe.Pointer)(at(t, s.tstate)) = tstate
		*(*int)(at(t, s.level)) = 1
		*(*io.Writer)(at(t, s.w)) = (*subtestWriter)(t)
	}
	if s.outputWriterC != noField {
		w := reflect.New(s.outputWriter).UnsafePointer()
		*(*unsafe.Pointer)(unsafe.Add(w, s.outputWriterC)) = at(t, s.common)
		*(*unsafe.Pointer)(at(t, s.o)) = w
	}
	ctx := &execContext{}
	if s.ctx != noField && s.cancelCtx != noField {
		*(*context.Context)(at(t, s.ctx)) = ctx
		*(*context.CancelFunc)(at(t, s.cancelCtx)) = ctx.cancel
	}
	return nativeT{t: t, ctx: ctx}
}

// nativeParent holds the testing.common every native execution's T has as
// its parent: without a barrier, so that t.Parallel has no effect. The
// testing package's Fail and setRan mark it too (under its own lock);
// nothing reads it.
var nativeParent testing.T

// subtestWriter is the w of a native execution's testing.T, where each
// subtest that failed writes its "--- FAIL: FuzzX/sub (0.00s)" line and
// its output when it ends (common.flushToParent, with the T's lock held):
// it appends them to the T's output indented once, as the testing
// package's indenter does.
type subtestWriter testing.T

func (w *subtestWriter) Write(b []byte) (int, error) {
	n := len(b)
	out := (*[]byte)(at((*testing.T)(w), testTFields.output))
	for len(b) > 0 {
		end := bytes.IndexByte(b, '\n') + 1
		if end == 0 {
			end = len(b)
		}
		*out = append(*out, logIndent...)
		*out = append(*out, b[:end]...)
		b = b[end:]
	}
	return n, nil
}

// subtestNames forgets the names of the subtests the last executions ran
// (the testing package's matcher keeps a count per name to make names
// unique, for the process's lifetime), as go test -fuzz does before each
// input: memory stays bounded over any number of executions, and a
// subtest's name ("FuzzX/sub", "FuzzX/sub#01" for the second of that name)
// depends on the input only, not on how many executions ran before.
func subtestNames(tstate unsafe.Pointer) {
	s := testTFields
	m := *(*unsafe.Pointer)(unsafe.Add(tstate, s.match))
	if m == nil {
		return
	}
	mu := (*sync.Mutex)(unsafe.Add(m, s.matchMu))
	names := (*map[string]int32)(unsafe.Add(m, s.matchNames))
	mu.Lock()
	if len(*names) > 0 {
		clear(*names)
	}
	mu.Unlock()
}

// logs returns the entries logged so far (Log, Error, Fatal, Skip, ...),
// each "file.go:line: message" as go test prints them, without the
// indentation. A message of several lines is one entry, its lines joined
// by newlines: the testing package indents the lines after a message's
// first once more than the first, which is how they are told apart. A
// subtest that failed adds its "--- FAIL: FuzzX/sub" line (without its
// duration, which varies from run to run) and then its own entries,
// indented once more (every line of each: see parseLog), as go test
// prints them.
func (n nativeT) logs() (entries []string, depths []int) {
	if testTFields.output == noField {
		return nil, nil
	}
	out := *(*[]byte)(at(n.t, testTFields.output))
	if len(out) == 0 {
		return nil, nil
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, logIndent)
	}
	p := logParser{}
	p.parse(lines, 0)
	return p.entries, p.depths
}

// logParser splits a test's output into log entries.
type logParser struct {
	entries []string
	depths  []int // of each entry: 0 for the fuzz function's T, 1 in its subtests' blocks, ...
}

// parse appends the entries of lines, the output of a test without its
// own indentation, at depth (each line of an entry is prefixed with depth
// indentations). A subtest's block (its "--- FAIL: name (0.00s)" line,
// then its output indented once more) is an entry without the duration,
// then the subtest's entries, parsed in turn one level deeper.
func (p *logParser) parse(lines []string, depth int) {
	indent := strings.Repeat(logIndent, depth)
	last := -1 // the entry of this level that indented lines continue
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if isSubtestLine(l) {
			p.add(indent+trimDuration(l), depth)
			j := i + 1
			for j < len(lines) && (strings.HasPrefix(lines[j], logIndent) || lines[j] == "") {
				lines[j] = strings.TrimPrefix(lines[j], logIndent)
				j++
			}
			p.parse(lines[i+1:j], depth+1)
			i, last = j-1, -1
			continue
		}
		if rest, ok := strings.CutPrefix(l, logIndent); ok && last >= 0 {
			p.entries[last] += "\n" + indent + rest
			continue
		}
		if l != "" {
			p.add(indent+l, depth)
			last = len(p.entries) - 1
		}
	}
}

func (p *logParser) add(entry string, depth int) {
	p.entries = append(p.entries, entry)
	p.depths = append(p.depths, depth)
}

// isSubtestLine reports whether l is the line a subtest's output starts
// with ("--- FAIL: FuzzX/sub (0.00s)"; PASS and SKIP under -test.v).
func isSubtestLine(l string) bool {
	return strings.HasPrefix(l, "--- FAIL: ") || strings.HasPrefix(l, "--- SKIP: ") || strings.HasPrefix(l, "--- PASS: ")
}

// trimDuration removes the " (0.00s)" from a subtest's line.
func trimDuration(l string) string {
	if i := strings.LastIndex(l, " ("); i > 0 && strings.HasSuffix(l, "s)") {
		return l[:i]
	}
	return l
}

// unindent removes depth indentations from every line of a log entry.
func unindent(entry string, depth int) string {
	if depth == 0 {
		return entry
	}
	indent := strings.Repeat(logIndent, depth)
	lines := strings.Split(entry, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, indent)
	}
	return strings.Join(lines, "\n")
}

// subtestName is the name of the subtest whose line ("--- FAIL: name")
// is l, without the "#NN" suffixes the testing package adds to the names
// of subtests run more than once.
func subtestName(l string) string {
	_, name, _ := strings.Cut(strings.TrimLeft(l, " "), ": ")
	elems := strings.Split(name, "/")
	for i, el := range elems {
		if j := strings.LastIndexByte(el, '#'); j > 0 && j < len(el)-1 && strings.Trim(el[j+1:], "0123456789") == "" {
			elems[i] = el[:j]
		}
	}
	return strings.Join(elems, "/")
}

// logIndent is the testing package's indentation of a test's output, and
// of the lines after the first of a message once more.
const logIndent = "    "

// finish cancels the context and runs the cleanups, last registered
// first (cleanups registered by cleanups too), as the testing package does
// at the end of a test.
func (n nativeT) finish() {
	n.ctx.cancel()
	if testTFields.cleanups == noField {
		return
	}
	cl := (*[]func())(at(n.t, testTFields.cleanups))
	for len(*cl) > 0 {
		last := (*cl)[len(*cl)-1]
		*cl = (*cl)[:len(*cl)-1]
		last()
	}
}

// execContext is the context of one execution (t.Context()): it makes its
// Done channel only when asked for one, which a context.WithCancel per
// execution would always cost.
type execContext struct {
	mu   sync.Mutex
	done chan struct{}
	err  error
}

func (c *execContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *execContext) Value(any) any               { return nil }

func (c *execContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		if c.err != nil {
			close(c.done)
		}
	}
	return c.done
}

func (c *execContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *execContext) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = context.Canceled
	if c.done != nil {
		close(c.done)
	}
}
