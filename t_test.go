package gfz_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// execOnce runs fn once on data through the fuzz-binary executor.
func execOnce(fn func(*gfz.T), data []byte) engine.Outcome {
	return gfz.NewExecutor(fn).Exec(data, 0)
}

// at is the message t.Error or t.Fatal gives msg when called delta lines
// from the line calling at, in this file (so that the cases do not depend
// on where they are).
func at(delta int, msg string) string {
	_, _, line, _ := runtime.Caller(1)
	return fmt.Sprintf("t_test.go:%d: %s", line+delta, msg)
}

func TestResults(t *testing.T) {
	afterError := false
	cases := []struct {
		name string
		fn   func(*gfz.T)
		want engine.Result
		kind string
		msg  string
	}{
		{"return", func(t *gfz.T) { gen.Int().Draw(t) }, engine.Valid, "", ""},
		{"Assume(true)", func(t *gfz.T) { t.Assume(true) }, engine.Valid, "", ""},
		{"Log", func(t *gfz.T) { t.Log("x"); t.Logf("%d", 1) }, engine.Valid, "", ""},
		{"Assume(false)", func(t *gfz.T) { t.Assume(false); panic("not reached") }, engine.Invalid, "", ""},
		{"Skip", func(t *gfz.T) { t.Skip("no"); panic("not reached") }, engine.Invalid, "", ""},
		{"Skipf", func(t *gfz.T) { t.Skipf("no %d", 1); panic("not reached") }, engine.Invalid, "", ""},
		{"SkipNow", func(t *gfz.T) { t.SkipNow(); panic("not reached") }, engine.Invalid, "", ""},
		{"exhausted", func(t *gfz.T) {
			for {
				gen.Int().Draw(t)
			}
		}, engine.Invalid, "", ""},
		{"Fatal", func(t *gfz.T) { t.Fatal("bad", 1); panic("not reached") }, engine.Failure, "t.Fatal", at(0, "bad 1")},
		{"Fatalf", func(t *gfz.T) { t.Fatalf("bad %d", 2); panic("not reached") }, engine.Failure, "t.Fatal", at(0, "bad 2")},
		{"FailNow", func(t *gfz.T) { t.FailNow(); panic("not reached") }, engine.Failure, "t.Fatal", ""},
		{"Error continues", func(t *gfz.T) {
			t.Error("e1")
			t.Errorf("e%d", 2)
			afterError = t.Failed()
		}, engine.Failure, "t.Error", at(-3, "e1") + "\n" + at(-2, "e2")},
		{"Fail", func(t *gfz.T) { t.Fail() }, engine.Failure, "t.Error", ""},
		{"panic string", func(t *gfz.T) { panic("boom 42") }, engine.Failure, "panic: string: boom N", "boom 42"},
		{"panic error", func(t *gfz.T) { panic(errors.New("e")) }, engine.Failure, "panic: *errors.errorString: e", "e"},
		{"nil map", func(t *gfz.T) {
			var m map[int]int
			//lint:ignore SA5000 the panic under test
			m[gen.Int().Draw(t)] = 1
		}, engine.Failure, "panic: assignment to entry in nil map", "assignment to entry in nil map"},
		{"Error then panic", func(t *gfz.T) { t.Error("first"); panic(fmt.Sprint("p", 1)) }, engine.Failure, "panic: string: pN", "p1\n" + at(0, "first")},
	}
	for _, c := range cases {
		out := execOnce(c.fn, nil)
		if out.Result != c.want {
			t.Errorf("%s: result %v, want %v", c.name, out.Result, c.want)
			continue
		}
		if (out.Failure != nil) != (c.want == engine.Failure) {
			t.Errorf("%s: failure info %+v with result %v", c.name, out.Failure, out.Result)
			continue
		}
		if out.Failure == nil {
			continue
		}
		if out.Failure.Kind != c.kind || out.Failure.Message != c.msg {
			t.Errorf("%s: kind %q message %q, want %q %q", c.name, out.Failure.Kind, out.Failure.Message, c.kind, c.msg)
		}
		if out.Failure.Signature == "" || out.Failure.Stack == "" {
			t.Errorf("%s: empty signature or stack: %+v", c.name, out.Failure)
		}
	}
	if !afterError {
		t.Error("execution did not continue after Error, or Failed() was false")
	}
}

func TestFailedAndSkipped(t *testing.T) {
	var states []bool
	execOnce(func(t *gfz.T) {
		states = append(states, t.Failed(), t.Skipped())
		t.Error("x")
		states = append(states, t.Failed())
	}, nil)
	if fmt.Sprint(states) != "[false false true]" {
		t.Errorf("Failed/Skipped sequence %v", states)
	}
	// State does not leak from one execution to the next.
	ex := gfz.NewExecutor(func(t *gfz.T) {
		if gen.Bool().Draw(t) {
			t.Fatal("x")
		}
	})
	if r := ex.Exec([]byte{1}, 0).Result; r != engine.Failure {
		t.Fatalf("first execution %v", r)
	}
	out := ex.Exec([]byte{0}, 0)
	if out.Result != engine.Valid || out.Failure != nil {
		t.Fatalf("second execution %v %+v, want VALID", out.Result, out.Failure)
	}
}

// bug1 and bug2 are two distinct planted bugs.
func bug1(xs []int) int { return xs[len(xs)] }

func bug2(xs []int) int {
	var m map[int]int
	//lint:ignore SA5000 the planted panic
	m[xs[0]] = 1
	return 0
}

var xsGen = gen.SliceOf(gen.IntRange(0, 9), 1, 8).Named("xs")

func buggy(t *gfz.T) {
	xs := xsGen.Draw(t)
	switch {
	case xs[0] == 1:
		bug1(xs)
	case xs[0] == 2:
		bug2(xs)
	case xs[0] == 3:
		t.Fatalf("three: %v", xs)
	case xs[0] == 4:
		helperFatal(t, xs)
	}
}

func helperFatal(t *gfz.T, xs []int) {
	t.Helper()
	t.Fatalf("four: %v", xs)
}

func TestSignatures(t *testing.T) {
	sig := func(data ...byte) string {
		out := execOnce(buggy, data)
		if out.Failure == nil {
			t.Fatalf("input %v did not fail", data)
		}
		return out.Failure.Signature
	}
	// The same bug at different inputs (different lengths, so different
	// numbers in the panic message) has one signature.
	a, b := sig(2, 1, 5, 6), sig(5, 1, 0, 0, 0, 0, 9)
	if a != b {
		t.Errorf("same bug, different signatures:\n%s\n%s", a, b)
	}
	if !strings.HasPrefix(a, "panic: runtime error: index out of range [N] with length N\n") ||
		!strings.Contains(a, "bug1 t_test.go:") || !strings.Contains(a, "buggy t_test.go:") {
		t.Errorf("unexpected signature %q", a)
	}
	if n := strings.Count(a, "\n"); n != 3 {
		t.Errorf("signature has %d lines, want kind + 2 user frames:\n%s", n, a)
	}
	c := sig(1, 2)
	if c == a || !strings.HasPrefix(c, "panic: assignment to entry in nil map\n") {
		t.Errorf("different bug, signature %q (bug1: %q)", c, a)
	}
	f1, f2 := sig(1, 3), sig(3, 3, 9, 9)
	if f1 != f2 || !strings.HasPrefix(f1, "fatal\n") || !strings.Contains(f1, "buggy t_test.go:") {
		t.Errorf("Fatalf signatures %q %q", f1, f2)
	}
	// Helper frames are skipped: the signature points at the caller.
	h := sig(0, 4)
	if strings.Contains(h, "helperFatal") || h == f1 || !strings.Contains(h, "buggy t_test.go:") {
		t.Errorf("helper signature %q", h)
	}
	ex := gfz.NewExecutor(buggy)
	out := ex.Exec([]byte{0, 4}, 0)
	if !strings.HasPrefix(out.Failure.Message, "t_test.go:") || !strings.Contains(out.Failure.Message, "four: [4]") {
		t.Errorf("helper message %q", out.Failure.Message)
	}
	if v, ok := ex.DescribeValues([]byte{0, 4}, 0, out.Failure.Signature); !ok || v != "xs = []int{4}\n" {
		t.Errorf("value %q (ok %v)", v, ok)
	}
}

// TestReplay checks that saving the consumed bytes of a failing execution
// (through the corpus file format) and replaying them reproduces the
// failure byte for byte, even when the first execution read PRNG extension
// bytes.
func TestReplay(t *testing.T) {
	ex := gfz.NewExecutor(buggy)
	found := 0
	for seed := uint64(0); seed < 200; seed++ {
		out := ex.Exec(nil, seed) // everything comes from the PRNG extension
		if out.Result != engine.Failure {
			continue
		}
		found++
		saved := workdir.EncodeInput(out.Consumed)
		fi := *out.Failure
		data, err := workdir.DecodeInput(saved)
		if err != nil {
			t.Fatal(err)
		}
		again := gfz.NewExecutor(buggy).Exec(data, seed+12345)
		if again.Result != engine.Failure || !bytes.Equal(again.Consumed, data) {
			t.Fatalf("replay of %x: %v consumed %x", data, again.Result, again.Consumed)
		}
		if again.Failure.Signature != fi.Signature || again.Failure.Message != fi.Message {
			t.Fatalf("replay differs:\n%+v\n%+v", fi, *again.Failure)
		}
		v1, ok1 := ex.DescribeValues(out.Consumed, seed, fi.Signature)
		v2, ok2 := gfz.NewExecutor(buggy).DescribeValues(data, seed+12345, fi.Signature)
		if !ok1 || !ok2 || v1 != v2 || !strings.HasPrefix(v1, "xs = []int{") {
			t.Fatalf("replay values differ: %q (%v), %q (%v)", v1, ok1, v2, ok2)
		}
	}
	if found < 50 {
		t.Fatalf("only %d of 200 random inputs failed", found)
	}
}

func TestNewT(t *testing.T) {
	// Values printed in Go syntax, one per top-level draw, with labels.
	ex := gfz.NewExecutor(func(t *gfz.T) {
		gen.Bool().Named("b").Draw(t)
		gen.String().Draw(t)
		gen.Custom(func(t *gfz.T) []int { return []int{gen.IntRange(0, 9).Draw(t)} }).Named("c").Draw(t)
		t.Fatal("x")
	})
	in := []byte{1, 2, 'h', 'i', 7}
	out := ex.Exec(in, 0)
	want := "b = true\nString = \"hi\"\nc = []int{7}\n"
	if out.Failure == nil {
		t.Fatalf("result %v, want FAILURE", out.Result)
	}
	if v, ok := ex.DescribeValues(in, 0, out.Failure.Signature); !ok || v != want {
		t.Fatalf("values %q (ok %v), want %q", v, ok, want)
	}
}

// A failure report shows the values as they were drawn, even when the target
// modified them before failing: the engine asks the executor to describe a
// new failure, which re-runs it formatting values as they are drawn.
func TestFailureValueAsDrawn(t *testing.T) {
	ex := gfz.NewExecutor(func(t *gfz.T) {
		xs := gen.SliceOf(gen.IntRange(1, 9), 3, 3).Draw(t)
		xs[0] = 0 // modify the drawn value
		t.Fatal("boom")
	})
	out := ex.Exec([]byte{2, 3, 4}, 0)
	if out.Result != engine.Failure {
		t.Fatalf("result %v, want FAILURE", out.Result)
	}
	value, ok := ex.DescribeValues([]byte{2, 3, 4}, 0, out.Failure.Signature)
	if !ok || !strings.Contains(value, "3, 4, 5") || strings.Contains(value, "0, 4, 5") {
		t.Errorf("described value %q (ok %v), want the drawn []int{3, 4, 5}", value, ok)
	}
	if _, ok := ex.DescribeValues([]byte{2, 3, 4}, 0, "another signature"); ok {
		t.Error("DescribeValues accepted a re-run with a different signature")
	}
}

// With brief repeats on, only the first failure of each signature is
// formatted in full; repeats carry Kind and Signature only, DescribeValues
// still describes them, and turning brief repeats on again forgets the
// signatures reported.
func TestBriefRepeats(t *testing.T) {
	ex := gfz.NewExecutor(buggy)
	ex.SetBriefRepeats(true)
	full := func(in []byte) *engine.FailureInfo {
		t.Helper()
		out := ex.Exec(in, 0)
		if out.Failure == nil || out.Failure.Message == "" || out.Failure.Stack == "" {
			t.Fatalf("input %v: failure %+v, want it in full", in, out.Failure)
		}
		if strings.Contains(out.Failure.Stack, "panicFailure") || strings.Contains(out.Failure.Stack, "runtime/debug.Stack") {
			t.Errorf("stack shows the recovery frames:\n%s", out.Failure.Stack)
		}
		return out.Failure
	}
	brief := func(in []byte, like *engine.FailureInfo) {
		t.Helper()
		out := ex.Exec(in, 0)
		fi := out.Failure
		if fi == nil || fi.Signature != like.Signature || fi.Kind != like.Kind {
			t.Fatalf("input %v: failure %+v, want signature %q", in, fi, like.Signature)
		}
		if fi.Message != "" || fi.Stack != "" || fi.Value != "" {
			t.Errorf("input %v: repeat formatted in full: %+v", in, fi)
		}
	}
	idx := full([]byte{2, 1, 5, 6}) // bug1: index out of range
	brief([]byte{5, 1, 0, 0, 0, 0, 9}, idx)
	fatal := full([]byte{1, 3}) // t.Fatalf: a new signature
	brief([]byte{3, 3, 9, 9}, fatal)
	if v, ok := ex.DescribeValues([]byte{3, 3, 9, 9}, 0, fatal.Signature); !ok || !strings.HasPrefix(v, "xs = []int{3, 9, 9") {
		t.Errorf("DescribeValues of a repeat: %q (ok %v)", v, ok)
	}
	brief([]byte{1, 3}, fatal) // DescribeValues did not reset anything
	ex.SetBriefRepeats(true)
	full([]byte{5, 1, 0, 0, 0, 0, 9})
	ex.SetBriefRepeats(false)
	full([]byte{2, 1, 5, 6})
	full([]byte{2, 1, 5, 6})
}

// The executor's fast path allocates nothing for scalar draws from
// generators built inline: their closures stay on the stack (Draw does
// not retain the generator) and top-level values are not boxed (T.Note is
// off).
func TestExecScalarsNoAllocs(t *testing.T) {
	ex := gfz.NewExecutor(func(t *gfz.T) {
		for range 10 {
			gen.IntRange(0, 1000).Draw(t)
		}
		gen.IntRange(0, 1<<20).Named("big").Draw(t)
	})
	in := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}
	ex.Exec(in, 0) // warm up (label copies, buffers)
	if n := testing.AllocsPerRun(100, func() { ex.Exec(in, 0) }); n != 0 {
		t.Errorf("%v allocations per execution, want 0", n)
	}
}

// The draw/span record is off unless asked for; then it holds the spans
// of the execution, with their depths.
func TestExecRecording(t *testing.T) {
	ex := gfz.NewExecutor(func(t *gfz.T) {
		gen.SliceOf(gen.IntRange(0, 9), 2, 2).Draw(t)
	})
	if out := ex.Exec([]byte{1, 2}, 0); out.Record != nil {
		t.Errorf("record %+v with recording off", out.Record)
	}
	ex.SetRecording(true)
	out := ex.Exec([]byte{1, 2}, 0)
	if out.Record == nil || len(out.Record.Spans) != 3 || out.Record.Spans[2].Depth != 1 || len(out.Record.Draws) != 3 {
		t.Fatalf("record %+v, want a slice span and two element spans, a length draw and two element draws", out.Record)
	}
}

func maybeHelper(t *gfz.T, mark bool) {
	if mark {
		t.Helper()
	}
	t.Fatal("x")
}

// Signatures are remembered per call stack; marking a helper forgets them,
// so a failure at the same place no longer names the helper.
func TestSignatureAfterHelper(t *testing.T) {
	ex := gfz.NewExecutor(func(t *gfz.T) { maybeHelper(t, gen.Bool().Draw(t)) })
	first := ex.Exec([]byte{0}, 0).Failure.Signature
	again := ex.Exec([]byte{0}, 0).Failure.Signature
	if first != again || !strings.Contains(first, "maybeHelper") {
		t.Fatalf("signatures %q, %q, want the same, naming maybeHelper", first, again)
	}
	marked := ex.Exec([]byte{1}, 0).Failure.Signature
	if strings.Contains(marked, "maybeHelper") {
		t.Errorf("signature after Helper %q names the helper", marked)
	}
	if after := ex.Exec([]byte{0}, 0).Failure.Signature; after != marked {
		t.Errorf("signature %q, want %q (the helper stays marked)", after, marked)
	}
}

// TestErrorFromGoroutines: t.Error from goroutines the fuzz function
// starts and waits for, as a testing.T allows, keeps every message (the
// failure state is locked: unlocked appends lost messages or crashed the
// report's formatting).
func TestErrorFromGoroutines(t *testing.T) {
	const workers, each = 8, 2000
	out := execOnce(func(t *gfz.T) {
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for i := range each {
					t.Errorf("worker %d message %d", w, i)
					_ = t.Failed()
				}
			}()
		}
		close(start)
		wg.Wait()
	}, nil)
	if out.Result != engine.Failure || out.Failure == nil {
		t.Fatalf("result %v", out.Result)
	}
	if n := strings.Count(out.Failure.Message, " message "); n != workers*each {
		t.Errorf("%d messages, want %d", n, workers*each)
	}
}
