package gfz

import (
	"context"
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
//     registered with Cleanup (TempDir and Setenv use it too).
//
// Fail, FailNow, SkipNow, Helper, Failed, Skipped, Output, Attr, Chdir
// and ArtifactDir need nothing more. The methods that need a running test
// (Run, Parallel, Deadline) are not supported: calling one ends the run
// with a message saying so (see unsupportedCall). If a future Go release renames
// a field, the affected method degrades (logs not recorded, nil context)
// and the missing fields are reported once by testTFieldsProblem.

// testTFieldSet locates the unexported fields of testing.T gfz sets, by
// their offsets in testing.T (-1: not found).
type testTFieldSet struct {
	o, name, ctx, cancelCtx, output, cleanups uintptr
	outputWriter                              reflect.Type // testing.outputWriter
	outputWriterC                             uintptr      // offset of its c field (*testing.common)
	common                                    uintptr      // offset of the embedded testing.common
	missing                                   []string
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
	return s
}()

// testTFieldsProblem describes the testing.T fields gfz could not find
// ("" when all were found).
func testTFieldsProblem() string {
	if len(testTFields.missing) == 0 {
		return ""
	}
	return "this Go release's testing.T lacks the fields " + strings.Join(testTFields.missing, ", ") + " gfz sets: some testing.T methods of a native target will not behave as in a test"
}

// at returns the address of the field at offset off of *t.
func at(t *testing.T, off uintptr) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(t), off) }

// nativeT is the testing.T of one execution.
type nativeT struct {
	t   *testing.T
	ctx *execContext
}

// newNativeT returns a testing.T named name, ready for one execution.
func newNativeT(name string) nativeT {
	t := new(testing.T)
	s := testTFields
	if s.name != noField {
		*(*string)(at(t, s.name)) = name
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

// logs returns the entries logged so far (Log, Error, Fatal, Skip, ...),
// each "file.go:line: message" as go test prints them, without the
// indentation. A message of several lines is one entry, its lines joined
// by newlines: the testing package indents the lines after a message's
// first once more than the first, which is how they are told apart.
func (n nativeT) logs() []string {
	if testTFields.output == noField {
		return nil
	}
	out := *(*[]byte)(at(n.t, testTFields.output))
	if len(out) == 0 {
		return nil
	}
	var entries []string
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		l = strings.TrimPrefix(l, logIndent)
		if rest, ok := strings.CutPrefix(l, logIndent); ok && len(entries) > 0 {
			entries[len(entries)-1] += "\n" + rest
			continue
		}
		if l != "" {
			entries = append(entries, l)
		}
	}
	return entries
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
