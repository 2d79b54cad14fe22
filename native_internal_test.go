//go:build go1.25

package gfz

import (
	"context"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/param"
)

// nativeExecOf returns an executor for fn (a native fuzz function).
func nativeExecOf(t *testing.T, fn any) *nativeExec {
	t.Helper()
	ts, err := nativeTypes(fn)
	if err != nil {
		t.Fatal(err)
	}
	return newNativeExec(&nativeTarget{name: "FuzzTest", fn: reflect.ValueOf(fn), types: ts})
}

// params encodes argument values into a parameter sequence.
func params(t *testing.T, vals ...any) []byte {
	t.Helper()
	var ts native.Types
	var args []native.Arg
	for _, v := range vals {
		a, ok := native.ArgOf(v)
		if !ok {
			t.Fatalf("unsupported %T", v)
		}
		ts, args = append(ts, a.Kind), append(args, a)
	}
	data, err := ts.Encode(args)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestNativeTypesChecked: the fuzz function's type is checked as the
// testing package does, naming the bad argument.
func TestNativeTypesChecked(t *testing.T) {
	for _, c := range []struct {
		fn   any
		want string
	}{
		{func(*testing.T, []byte, complex128) {}, "argument 2 of the fuzz function has type complex128"},
		{func(*testing.T) {}, "at least one argument"},
		{func(string) {}, "*testing.T"},
		{func(*testing.T, int) int { return 0 }, "must not return"},
		{42, "needs a function"},
	} {
		if _, err := nativeTypes(c.fn); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("nativeTypes(%T) = %v, want an error containing %q", c.fn, err, c.want)
		}
	}
	ts, err := nativeTypes(func(*testing.T, []byte, string, bool, byte, rune, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64) {
	})
	if err != nil || len(ts) != 17 {
		t.Errorf("every accepted type: %v, %v", ts, err)
	}
}

// TestNativeArgsDecoded: the function receives the decoded arguments.
func TestNativeArgsDecoded(t *testing.T) {
	var got []any
	ex := nativeExecOf(t, func(t *testing.T, s string, n int, b []byte, f float64, r rune) {
		got = []any{s, n, string(b), f, r}
	})
	out := ex.Exec(params(t, "héllo", -42, []byte("xyz"), 2.5, 'é'), 0)
	want := []any{"héllo", -42, "xyz", 2.5, 'é'}
	if out.Result != engine.Valid || !reflect.DeepEqual(got, want) {
		t.Errorf("result %v, args %#v, want VALID %#v", out.Result, got, want)
	}
}

// TestNativeOutcomes: each testing.T method behaves as in a test, and
// the executor keeps working after executions that end the goroutine.
func TestNativeOutcomes(t *testing.T) {
	for _, c := range []struct {
		name   string
		fn     func(t *testing.T)
		result engine.Result
		kind   string
		msg    string
	}{
		{"return", func(t *testing.T) {}, engine.Valid, "", ""},
		{"Log", func(t *testing.T) { t.Log("a"); t.Logf("b%d", 1) }, engine.Valid, "", ""},
		{"Error", func(t *testing.T) { t.Log("before"); t.Error("bad", 1) }, engine.Failure, "t.Error", "before\n"},
		{"Errorf", func(t *testing.T) { t.Errorf("bad %d", 2) }, engine.Failure, "t.Error", "bad 2"},
		{"Fail", func(t *testing.T) { t.Fail() }, engine.Failure, "t.Error", ""},
		{"Fatal", func(t *testing.T) { t.Fatal("stop"); panic("not reached") }, engine.Failure, "t.Fatal", "stop"},
		{"Fatalf", func(t *testing.T) { t.Fatalf("stop %d", 3); panic("not reached") }, engine.Failure, "t.Fatal", "stop 3"},
		{"FailNow", func(t *testing.T) { t.FailNow(); panic("not reached") }, engine.Failure, "t.Fatal", ""},
		{"Skip", func(t *testing.T) { t.Skip("no"); panic("not reached") }, engine.Invalid, "", ""},
		{"Skipf", func(t *testing.T) { t.Skipf("no %d", 1); panic("not reached") }, engine.Invalid, "", ""},
		{"SkipNow", func(t *testing.T) { t.SkipNow(); panic("not reached") }, engine.Invalid, "", ""},
		{"ErrorThenSkip", func(t *testing.T) { t.Error("x"); t.SkipNow() }, engine.Failure, "t.Fatal", "x"},
		{"panic", func(t *testing.T) { t.Log("ctx"); panic("boom") }, engine.Failure, "panic: string: boom", "boom\n"},
		{"index", func(t *testing.T) { var a []int; _ = a[len(t.Name())] }, engine.Failure, "panic: runtime error: index out of range", "index out of range"},
		{"Goexit", func(t *testing.T) { runtime.Goexit() }, engine.Failure, "runtime.Goexit", "runtime.Goexit"},
		{"Helper", func(t *testing.T) { t.Helper(); t.Helper() }, engine.Valid, "", ""},
		{"Output", func(t *testing.T) { fmt.Fprintln(t.Output(), "out"); t.Fail() }, engine.Failure, "t.Error", "out"},
		{"Attr", func(t *testing.T) { t.Attr("key", "value") }, engine.Valid, "", ""},
		{"FailedSkipped", func(t *testing.T) {
			if t.Failed() || t.Skipped() {
				panic("fresh T failed or skipped")
			}
			t.Fail()
			if !t.Failed() {
				panic("Failed after Fail")
			}
		}, engine.Failure, "t.Error", ""},
		{"Name", func(t *testing.T) {
			if t.Name() != "FuzzTest" {
				panic("name " + t.Name())
			}
		}, engine.Valid, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ex := nativeExecOf(t, func(t *testing.T, _ []byte) { c.fn(t) })
			for i := range 3 { // the runner survives (or is replaced)
				out := ex.Exec(nil, 0)
				if out.Result != c.result {
					t.Fatalf("execution %d: result %v, want %v (%+v)", i, out.Result, c.result, out.Failure)
				}
				if c.kind == "" {
					continue
				}
				if out.Failure == nil || !strings.HasPrefix(out.Failure.Kind, c.kind) || !strings.Contains(out.Failure.Message, c.msg) {
					t.Fatalf("failure %+v, want kind %q and message containing %q", out.Failure, c.kind, c.msg)
				}
				if !strings.Contains(out.Failure.Value, "arg0 []byte = []byte(\"\")") {
					t.Errorf("failure values %q", out.Failure.Value)
				}
			}
		})
	}
}

// TestNativeFatalSignature: a t.Fatal failure has the stack of the call;
// a t.Error one's signature names the line of its message.
func TestNativeFatalSignature(t *testing.T) {
	ex := nativeExecOf(t, func(t *testing.T, n uint8) {
		if n == 1 {
			t.Fatal("one")
		}
		t.Errorf("other %d", n)
	})
	fatal := ex.Exec([]byte{1}, 0).Failure
	other := ex.Exec([]byte{2}, 0).Failure
	// (This test's own frames count as gfz's, not the user's, in
	// signatures: the e2e test checks a t.Fatal signature's frames.)
	if !strings.HasPrefix(fatal.Signature, "fatal\n") || !strings.Contains(fatal.Stack, "TestNativeFatalSignature.func1\n\t") || !strings.Contains(fatal.Stack, "native_internal_test.go:") {
		t.Errorf("t.Fatal signature %q, stack %q, want the stack at the call", fatal.Signature, fatal.Stack)
	}
	if !strings.HasPrefix(other.Signature, "fatal\nnative_internal_test.go:") || other.Signature == fatal.Signature {
		t.Errorf("t.Errorf signature %q (fatal %q)", other.Signature, fatal.Signature)
	}
	if again := ex.Exec([]byte{7}, 0).Failure; again.Signature != other.Signature {
		t.Errorf("same t.Errorf line, signatures %q and %q", again.Signature, other.Signature)
	}
}

// TestNativePanicStack: a native target's panic is reported with the
// goroutine trace taken while it unwinds, as a gfz target's: the header,
// the panic frame, the panicking function and the fuzz function, without
// the recover's frames or the reflect call below; a brief repeat (after
// SetBriefRepeats) carries no stack.
func TestNativePanicStack(t *testing.T) {
	ex := nativeExecOf(t, func(t *testing.T, n uint8) { nativePanicker(n) })
	f := ex.Exec([]byte{1}, 0).Failure
	if f == nil {
		t.Fatal("no failure")
	}
	for _, want := range []string{"goroutine ", "\npanic(", "gfz.nativePanicker(", "TestNativePanicStack.func1(", "native_internal_test.go:"} {
		if !strings.Contains(f.Stack, want) {
			t.Errorf("stack lacks %q:\n%s", want, f.Stack)
		}
	}
	for _, bad := range []string{"reflect.", "debug.Stack", "runNativeJob"} {
		if strings.Contains(f.Stack, bad) {
			t.Errorf("stack has %q:\n%s", bad, f.Stack)
		}
	}
	ex.SetBriefRepeats(true)
	ex.Exec([]byte{1}, 0)
	if again := ex.Exec([]byte{1}, 0).Failure; again == nil || again.Stack != "" || ex.job.stack != nil {
		t.Errorf("brief repeat: %+v, job stack %d bytes; want no stack taken", again, len(ex.job.stack))
	}
}

//go:noinline
func nativePanicker(n uint8) {
	var a []int
	_ = a[n]
}

// TestNativeCleanupContextTempDirSetenv: cleanups run after the input,
// last first, also after t.Fatal; the context is live during the input
// and canceled after; TempDir is removed and Setenv restored.
func TestNativeCleanupContextTempDirSetenv(t *testing.T) {
	const key = "GFZ_NATIVE_TEST_ENV"
	os.Unsetenv(key)
	var order []string
	var ctx context.Context
	var dir string
	ex := nativeExecOf(t, func(t *testing.T, fatal bool) {
		ctx = t.Context()
		if ctx.Err() != nil {
			panic("context canceled during the input")
		}
		dir = t.TempDir()
		if _, err := os.Stat(dir); err != nil {
			panic(err)
		}
		t.Setenv(key, "set")
		t.Cleanup(func() { order = append(order, "first") })
		t.Cleanup(func() {
			order = append(order, "second")
			if ctx.Err() == nil {
				panic("context not canceled before cleanups")
			}
		})
		order = append(order, "body")
		if fatal {
			t.Fatal("stop")
		}
	})
	for _, fatal := range []bool{false, true} {
		order = nil
		out := ex.Exec(params(t, fatal), 0)
		want := engine.Valid
		if fatal {
			want = engine.Failure
		}
		if out.Result != want {
			t.Fatalf("fatal=%v: result %v, want %v (%+v)", fatal, out.Result, want, out.Failure)
		}
		if strings.Join(order, ",") != "body,second,first" {
			t.Errorf("fatal=%v: order %v, want body, then the cleanups last first", fatal, order)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("TempDir %s not removed: %v", dir, err)
		}
		if _, set := os.LookupEnv(key); set {
			t.Errorf("Setenv not restored")
		}
	}
}

// TestNativeUnsupported: a method that needs a running test ends the run
// with a message naming it rather than a mysterious crash.
func TestNativeUnsupported(t *testing.T) {
	var msg string
	old := unsupportedHook
	unsupportedHook = func(m string) { msg = m }
	defer func() { unsupportedHook = old }()
	for name, fn := range map[string]func(*testing.T){
		"Run":      func(t *testing.T) { t.Run("sub", func(*testing.T) {}) },
		"Deadline": func(t *testing.T) { t.Deadline() },
	} {
		msg = ""
		ex := nativeExecOf(t, func(t *testing.T, _ []byte) { fn(t) })
		out := ex.Exec(nil, 0)
		if out.Result != engine.Failure || !strings.Contains(msg, "testing.(*T)."+name) || !strings.Contains(msg, "does not support") {
			t.Errorf("t.%s: result %v, message %q", name, out.Result, msg)
		}
	}
}

// TestNativeRecordSpans: each argument is one span of the record, named
// "argN type", for the structure-aware engines and the shrinker.
func TestNativeRecordSpans(t *testing.T) {
	ex := nativeExecOf(t, func(*testing.T, string, int16, []byte) {})
	ex.SetRecording(true)
	out := ex.Exec(params(t, "ab", int16(3), []byte("cde")), 0)
	var names []string
	for _, sp := range out.Record.Spans {
		names = append(names, sp.Name)
	}
	if strings.Join(names, ",") != "arg0 string,arg1 int16,arg2 []byte" {
		t.Errorf("spans %v", names)
	}
}

// BenchmarkNativeExec measures one execution of a trivial native target
// (decode, fresh testing.T, runner round trip).
func BenchmarkNativeExec(b *testing.B) {
	ts, _ := nativeTypes(func(*testing.T, []byte, int) {})
	ex := newNativeExec(&nativeTarget{name: "FuzzBench", fn: reflect.ValueOf(func(*testing.T, []byte, int) {}), types: ts})
	data := []byte("some input bytes and an int")
	b.ReportAllocs()
	for b.Loop() {
		ex.Exec(data, 0)
	}
}

// TestNativeFloat32SignalingNaN: a float32 argument keeps its bits, a
// signalling NaN included, from a seed's value to the encoding and from
// the encoding to the fuzz function, as go test passes them (widening to
// float64 on the way would quiet it).
func TestNativeFloat32SignalingNaN(t *testing.T) {
	const snan = 0x7f800001
	var got uint32
	ex := nativeExecOf(t, func(t *testing.T, f float32) { got = math.Float32bits(f) })
	data, err := native.Types{native.Float32}.Encode([]native.Arg{{Kind: native.Float32, U: snan}})
	if err != nil {
		t.Fatal(err)
	}
	if out := ex.Exec(data, 0); out.Result != engine.Valid || got != snan {
		t.Errorf("input bits %#x: the fuzz function got %#x (%v)", snan, got, out.Result)
	}
	if a, _ := native.ArgOf(math.Float32frombits(snan)); a.U != snan {
		t.Errorf("seed f.Add(math.Float32frombits(%#x)) encoded as %#x", snan, a.U)
	}
}

// TestNativeEmptyBytesNotNil: an empty []byte argument reaches the fuzz
// function as a non-nil empty slice, as under go test (which replays the
// []byte("") of gfz's files so).
func TestNativeEmptyBytesNotNil(t *testing.T) {
	ex := nativeExecOf(t, func(t *testing.T, b []byte, s string) {
		if b == nil {
			t.Fatal("nil []byte")
		}
	})
	if out := ex.Exec(params(t, []byte{}, "x"), 0); out.Result != engine.Valid {
		t.Errorf("an empty []byte argument: %v, want valid (a nil slice?)", out.Result)
	}
}

// TestNativeLongSeed: a native input longer than the size limit of
// children (a seed of real data) runs whole: cut at the limit, its string
// lost its end and the int after it was read from the string's bytes.
func TestNativeLongSeed(t *testing.T) {
	var gotLen, gotN int
	ex := nativeExecOf(t, func(t *testing.T, s string, n int) { gotLen, gotN = len(s), n })
	data := params(t, strings.Repeat("a", 3*param.DefaultMaxSize), 5)
	if out := ex.Exec(data, 0); out.Result != engine.Valid || len(out.Consumed) != len(data) {
		t.Fatalf("%v, consumed %d of %d bytes", out.Result, len(out.Consumed), len(data))
	}
	if gotLen != 3*param.DefaultMaxSize || gotN != 5 {
		t.Errorf("(a string of %d bytes, 5) ran as (a string of %d bytes, %d)", 3*param.DefaultMaxSize, gotLen, gotN)
	}
	// The codec's extension (a crash's input as the supervisor saves it)
	// keeps it whole too.
	c := native.Codec{Types: native.Types{native.String, native.Int}}
	if ext := c.ExtendInput(data, 7, param.DefaultMaxSize); len(ext) != len(data) {
		t.Errorf("ExtendInput: %d bytes of %d", len(ext), len(data))
	}
	if args, err := c.Types.DecodeBytes(data); err != nil || len(args[0].B) != 3*param.DefaultMaxSize || args[1].U != 5 {
		t.Errorf("DecodeBytes: %v", err)
	}
}
