//go:build go1.25

package gfz

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/gfz-dev/gfz/internal/engine"
)

// t.Run and t.Deadline in native targets: each execution's T shares the
// test state of the target's F (here, of the test's own T, which has the
// same type), so subtests run as under go test.

// nativeExecRunning returns an executor for fn whose T can run subtests:
// it is named after the test (so that the -test.run filter of this test
// binary, if any, matches its subtests) and shares the test's state.
func nativeExecRunning(t *testing.T, fn any) *nativeExec {
	t.Helper()
	if !testTFields.running {
		t.Fatalf("testing.T lacks fields: %s", testTFieldsProblem())
	}
	ts, err := nativeTypes(fn)
	if err != nil {
		t.Fatal(err)
	}
	return newNativeExec(&nativeTarget{name: t.Name(), fn: reflect.ValueOf(fn), types: ts, tstate: testStateOfT(t)})
}

// testStateOfT is testStateOf for a test's T.
func testStateOfT(t *testing.T) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(t), testTFields.tstate))
}

// here returns the line it is called from.
func here() int {
	_, _, line, _ := runtime.Caller(1)
	return line
}

// TestNativeSubtests: t.Run runs the subtest, returns whether it passed,
// and a subtest's failure fails the execution, named by the subtest's
// message and line, with the subtest's output in the log as go test
// prints it (without durations); t.Skip in a subtest does not make the
// execution INVALID.
func TestNativeSubtests(t *testing.T) {
	const file = "native_subtest_internal_test.go"
	var ran []string
	var ok bool
	var line int
	cases := []struct {
		name string
		fn   func(t *testing.T)
		ran  string // the subtest names that ran (Name), in order
		ok   bool   // what the last t.Run returned
		res  engine.Result
		kind string
		sig  string // the failure's signature (%d: line)
		msg  string // the failure's message (%[1]s: the subtest's name prefix, %[2]d: line)
	}{
		{"pass", func(t *testing.T) {
			ok = t.Run("sub", func(t *testing.T) { ran = append(ran, t.Name()); t.Log("quiet") })
		}, "sub", true, engine.Valid, "", "", ""},
		{"Errorf", func(t *testing.T) {
			t.Log("before")
			ok = t.Run("sub", func(t *testing.T) {
				ran = append(ran, t.Name())
				t.Log("in the subtest")
				line = here() + 1
				t.Errorf("bad\nsecond line")
			})
			t.Log("the function goes on")
		}, "sub", false, engine.Failure, "subtest failed", "fatal\n" + file + ":%d\n",
			file + ":%[2]d: bad\nsecond line\nlog:\n" + file + ":%[3]d: before\n--- FAIL: %[1]s/sub\n    " + file + ":%[4]d: in the subtest\n    " + file + ":%[2]d: bad\n        second line\n" + file + ":%[5]d: the function goes on"},
		{"Fatal", func(t *testing.T) {
			ok = t.Run("sub", func(t *testing.T) {
				ran = append(ran, t.Name())
				line = here() + 1
				t.Fatal("stop")
				panic("not reached")
			})
		}, "sub", false, engine.Failure, "subtest failed", "fatal\n" + file + ":%d\n",
			file + ":%[2]d: stop\nlog:\n--- FAIL: %[1]s/sub\n    " + file + ":%[2]d: stop"},
		{"FailNow", func(t *testing.T) {
			ok = t.Run("sub", func(t *testing.T) { ran = append(ran, t.Name()); t.FailNow() })
		}, "sub", false, engine.Failure, "subtest failed", "fatal\nsubtest %s/sub\n", "--- FAIL: %[1]s/sub"},
		{"Skip", func(t *testing.T) {
			ok = t.Run("sub", func(t *testing.T) { ran = append(ran, t.Name()); t.Skip("not this one") })
		}, "sub", true, engine.Valid, "", "", ""},
		{"nested", func(t *testing.T) {
			ok = t.Run("a", func(t *testing.T) {
				ran = append(ran, t.Name())
				t.Run("b", func(t *testing.T) {
					ran = append(ran, t.Name())
					line = here() + 1
					t.Error("deep")
				})
				t.Run("c", func(t *testing.T) { ran = append(ran, t.Name()) })
			})
		}, "a a/b a/c", false, engine.Failure, "subtest failed", "fatal\n" + file + ":%d\n",
			file + ":%[2]d: deep\nlog:\n--- FAIL: %[1]s/a\n    --- FAIL: %[1]s/a/b\n        " + file + ":%[2]d: deep"},
		{"second fails", func(t *testing.T) {
			t.Run("a", func(t *testing.T) { ran = append(ran, t.Name()) })
			ok = t.Run("b", func(t *testing.T) {
				ran = append(ran, t.Name())
				line = here() + 1
				t.Error("b is bad")
			})
		}, "a b", false, engine.Failure, "subtest failed", "fatal\n" + file + ":%d\n", file + ":%[2]d: b is bad\nlog:\n--- FAIL: %[1]s/b\n"},
		{"same name twice", func(t *testing.T) {
			t.Run("x", func(t *testing.T) { ran = append(ran, t.Name()) })
			ok = t.Run("x", func(t *testing.T) { ran = append(ran, t.Name()); t.Fail() })
		}, "x x#01", false, engine.Failure, "subtest failed", "fatal\nsubtest %s/x\n", "--- FAIL: %[1]s/x#01"},
		{"parent Fatal", func(t *testing.T) {
			if ok = t.Run("sub", func(t *testing.T) { ran = append(ran, t.Name()); t.Fail() }); !ok {
				line = here() + 1
				t.Fatal("sub failed")
			}
		}, "sub", false, engine.Failure, "t.Fatal", "fatal\n", file + ":%[2]d: sub failed\nlog:\n--- FAIL: %[1]s/sub\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex := nativeExecRunning(t, func(t *testing.T, _ []byte) { c.fn(t) })
			for i := range 3 { // same names, results and signatures each time
				ran, ok, line = nil, !c.ok, 0
				out := ex.Exec(nil, 0)
				for j, n := range ran {
					ran[j] = strings.TrimPrefix(n, t.Name()+"/")
				}
				if got := strings.Join(ran, " "); got != c.ran || ok != c.ok || out.Result != c.res {
					t.Fatalf("execution %d: subtests %q, t.Run returned %v, result %v; want %q, %v, %v (%+v)", i, got, ok, out.Result, c.ran, c.ok, c.res, out.Failure)
				}
				if c.res != engine.Failure {
					continue
				}
				fi := out.Failure
				sig := c.sig
				if strings.Contains(sig, "%d") {
					sig = fmt.Sprintf(sig, line)
				} else if strings.Contains(sig, "%s") {
					sig = fmt.Sprintf(sig, t.Name())
				}
				if fi.Kind != c.kind || !strings.HasPrefix(fi.Signature, sig) {
					t.Errorf("execution %d: kind %q, signature %q; want %q, %q", i, fi.Kind, fi.Signature, c.kind, sig)
				}
				msg := fmt.Sprintf(c.msg, t.Name(), line, line-5, line-2, line+2)
				if !strings.HasPrefix(fi.Message, msg) {
					t.Errorf("execution %d: message\n%s\nwant it to start with\n%s", i, fi.Message, msg)
				}
				if strings.Contains(fi.Message, "0.00s") {
					t.Errorf("message has a duration:\n%s", fi.Message)
				}
			}
		})
	}
}

// TestNativeSubtestOrder: a subtest's cleanups run when it ends, before
// t.Run returns, and the T's own after the function; t.Parallel in a
// subtest of the fuzz function's T has no effect (the subtest runs to its
// end inside t.Run), and one level deeper runs the subtest after its
// parent's function, as go test does; t.Deadline answers.
func TestNativeSubtestOrder(t *testing.T) {
	var order []string
	log := func(s string) { order = append(order, s) }
	wantDeadline, wantOK := t.Deadline()
	ex := nativeExecRunning(t, func(t *testing.T, _ []byte) {
		t.Cleanup(func() { log("top cleanup") })
		t.Run("a", func(t *testing.T) {
			t.Cleanup(func() { log("a cleanup") })
			t.Parallel()
			log("a")
		})
		log("after a")
		t.Run("b", func(t *testing.T) {
			t.Run("c", func(t *testing.T) {
				t.Parallel()
				log("c")
			})
			log("b after c's Run")
		})
		log("after b")
		if d, ok := t.Deadline(); d != wantDeadline || ok != wantOK {
			t.Errorf("t.Deadline() = %v, %v; want %v, %v", d, ok, wantDeadline, wantOK)
		}
		t.Run("d", func(t *testing.T) {
			if d, ok := t.Deadline(); d != wantDeadline || ok != wantOK {
				t.Errorf("a subtest's t.Deadline() = %v, %v; want %v, %v", d, ok, wantDeadline, wantOK)
			}
		})
	})
	for i := range 2 {
		order = nil
		if out := ex.Exec(nil, 0); out.Result != engine.Valid {
			t.Fatalf("execution %d: %v %+v", i, out.Result, out.Failure)
		}
		want := "a,a cleanup,after a,b after c's Run,c,after b,top cleanup"
		if got := strings.Join(order, ","); got != want {
			t.Errorf("execution %d: order\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestNativeSubtestParallelTop: t.Parallel on the fuzz function's own T
// has no effect, as under go test -fuzz: the function goes on at once,
// execution after execution (a second call on one T would panic), its
// failures are the target's, and a later t.Setenv is not refused as in a
// parallel test; with or without the running tests' state.
func TestNativeSubtestParallelTop(t *testing.T) {
	var msg string
	old := unsupportedHook
	unsupportedHook = func(m string) { msg = m }
	defer func() { unsupportedHook = old }()
	fn := func(t *testing.T, b []byte) {
		t.Parallel()
		t.Setenv("GFZ_PARALLEL_TEST", "1")
		if len(b) > 0 && b[0] == 'x' {
			t.Fatal("after Parallel")
		}
	}
	for _, ex := range []*nativeExec{nativeExecRunning(t, fn), nativeExecOf(t, fn)} {
		for i := range 3 {
			if out := ex.Exec(nil, 0); out.Result != engine.Valid {
				t.Fatalf("execution %d: %v %+v", i, out.Result, out.Failure)
			}
		}
		out := ex.Exec(params(t, []byte("x")), 0)
		if out.Result != engine.Failure || out.Failure == nil || !strings.Contains(out.Failure.Message, "after Parallel") {
			t.Errorf("a failure after t.Parallel: %v %+v", out.Result, out.Failure)
		}
	}
	if msg != "" {
		t.Errorf("t.Parallel stopped the run: %s", msg)
	}
}

// TestNativeSubtestNamesBounded: the testing package's count of subtest
// names, kept for the process's lifetime under go test, is forgotten
// before each execution, as go test -fuzz does: over many executions with
// new subtest names each time it holds one execution's names, not all of
// them, and a subtest's name does not grow a "#NN" counter from one
// execution to the next.
func TestNativeSubtestNamesBounded(t *testing.T) {
	var names []string
	ex := nativeExecRunning(t, func(t *testing.T, n uint32) {
		t.Run(fmt.Sprint("n", n), func(t *testing.T) {})
		t.Run("same", func(t *testing.T) { names = append(names, t.Name()) })
	})
	const execs = 2000
	for i := range uint32(execs) {
		if out := ex.Exec(params(t, i), 0); out.Result != engine.Valid {
			t.Fatalf("execution %d: %v %+v", i, out.Result, out.Failure)
		}
	}
	if m := subNamesOf(ex.tg.tstate); len(m) > 2 {
		t.Errorf("after %d executions the matcher holds %d subtest names", execs, len(m))
	}
	for i, n := range names {
		if n != t.Name()+"/same" {
			t.Fatalf("execution %d: subtest named %q", i, n)
		}
	}
}

// subNamesOf returns the testing package's map of subtest names of the
// test state tstate.
func subNamesOf(tstate unsafe.Pointer) map[string]int32 {
	m := *(*unsafe.Pointer)(unsafe.Add(tstate, testTFields.match))
	return *(*map[string]int32)(unsafe.Add(m, testTFields.matchNames))
}

// TestNativeSubtestReport: through the engine, a failing subtest's report
// and status line name the subtest's message (not the function's later
// log lines), the message's log shows the subtest's block, and the
// signature is the subtest's line.
func TestNativeSubtestReport(t *testing.T) {
	var line int
	ex := nativeExecRunning(t, func(t *testing.T, b []byte) {
		t.Run("ReadToken", func(t *testing.T) {
			if len(b) > 2 {
				line = here() + 1
				t.Errorf("ReadToken of %d bytes", len(b))
			}
		})
		t.Log("checked")
	})
	_, rep, status, _ := runNativeExecSeed(t, ex, []byte("some bytes"))
	site := fmt.Sprintf("native_subtest_internal_test.go:%d", line)
	if !strings.Contains(status, "gfz: new failure (subtest failed): "+site+": ReadToken of 3 bytes …\n") {
		t.Errorf("status:\n%s", status)
	}
	if !strings.Contains(rep, `signature: "fatal\n`+site+`\n"`) {
		t.Errorf("report's signature:\n%s", rep)
	}
	msg := section(rep, "message")
	want := site + ": ReadToken of 3 bytes\nlog:\n--- FAIL: " + t.Name() + "/ReadToken\n    " + site + ": ReadToken of 3 bytes\n"
	if !strings.HasPrefix(msg, want) || !strings.Contains(msg, ": checked") {
		t.Errorf("message section\n%s\nwant it to start with\n%s", msg, want)
	}
}

// BenchmarkNativeExecRun measures one execution of a native target whose
// function runs one subtest, next to BenchmarkNativeExecState's (none).
func BenchmarkNativeExecRun(b *testing.B) {
	benchNativeState(b, func(t *testing.T, _ []byte, _ int) { t.Run("sub", func(*testing.T) {}) })
}

// BenchmarkNativeExecState is BenchmarkNativeExec with the T's test state
// set, as in a fuzz binary (what making t.Run possible costs a target that
// does not call it).
func BenchmarkNativeExecState(b *testing.B) {
	benchNativeState(b, func(*testing.T, []byte, int) {})
}

func benchNativeState(b *testing.B, fn func(*testing.T, []byte, int)) {
	ts, _ := nativeTypes(fn)
	ex := newNativeExec(&nativeTarget{name: "FuzzBench", fn: reflect.ValueOf(fn), types: ts, tstate: benchTestState(b)})
	data := []byte("some input bytes and an int")
	b.ReportAllocs()
	for b.Loop() {
		ex.Exec(data, 0)
	}
}

// benchTestState returns a test state for a benchmark, which has none of
// its own: that of a test run by testing.RunTests with a matcher that
// matches every name.
func benchTestState(b *testing.B) unsafe.Pointer {
	var ts unsafe.Pointer
	all := func(string, string) (bool, error) { return true, nil }
	testing.RunTests(all, []testing.InternalTest{{Name: "FuzzBench", F: func(t *testing.T) { ts = testStateOfT(t) }}})
	if ts == nil || !testTFields.running {
		b.Fatal("no test state")
	}
	return ts
}
