//go:build unix

package signature

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A SIGQUIT dump of a worker hung in hangA (through an instrumentation
// frame), with the fuzz function's goroutine not first.
const hangDumpA = `SIGQUIT: quit
PC=0x491041 m=0 sigcode=0

goroutine 0 gp=0x83c700 m=0 mp=0x83d700 [idle]:
runtime.futex(0x83d858, 0x80, 0x0, 0x0, 0x0, 0x0)
	/usr/local/go/src/runtime/sys_linux_amd64.s:569 +0x21 fp=0x7ffd sp=0x7ffd pc=0x491041

goroutine 7 gp=0xc000102000 m=nil [select]:
github.com/gfz-dev/gfz/internal/engine.(*fuzzer).watch(0xc00012a000, {0x6b1f68, 0xc000100000}, 0xc000104000)
	/gfz/engine/engine.go:700 +0x1c5 fp=0xc0 sp=0xc0 pc=0x4a
created by github.com/gfz-dev/gfz/internal/engine.Run in goroutine 6
	/gfz/engine/engine.go:170 +0x4f0

goroutine 6 gp=0xc000007a40 m=2 mp=0xc000100008 [running]:
runtime.asyncPreempt()
	/usr/local/go/src/runtime/preempt_amd64.s:124 +0x28b fp=0xc0 sp=0xc0 pc=0x48060b
example.com/t._gfzHit(...)
	/tmp/gfz-build/t/zz_gfz_probes.go:8
example.com/t.hangA(0x7)
	/src/t/t.go:` + "%d" + ` fp=0xc0 sp=0xc0 pc=0x49e440
example.com/t.FuzzT.func1(0xc000124000)
	/src/t/t_test.go:35 +0x1c fp=0xc0 sp=0xc0 pc=0x49e55c
github.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)
	/gfz/exec.go:95 +0x6b fp=0xc0 sp=0xc0 pc=0x4a
github.com/gfz-dev/gfz/internal/engine.(*fuzzer).execExt(0xc00012a000, {0xc0, 0x1, 0x1}, 0x5, 0x1)
	/gfz/engine/engine.go:300 +0x6b fp=0xc0 sp=0xc0 pc=0x4a
`

// TestHangSignatures: hangs get their signature from the stack of the
// goroutine running the fuzz function (the innermost frame without its
// line, which varies from one dump to the next); distinct hangs are
// distinct failures; instrumentation frames appear nowhere.
func TestHangSignatures(t *testing.T) {
	a1 := OfDeath(KindTimeout, fmt.Sprintf(hangDumpA, 10), false)
	a2 := OfDeath(KindTimeout, fmt.Sprintf(hangDumpA, 12), false)
	b := OfDeath(KindTimeout, strings.ReplaceAll(fmt.Sprintf(hangDumpA, 10), "hangA", "hangB"), false)
	if want := "timeout\nexample.com/t.hangA\nexample.com/t.FuzzT.func1 t_test.go:35\n"; a1 != want {
		t.Errorf("hang signature %q, want %q", a1, want)
	}
	if a1 != a2 {
		t.Errorf("one hang loop, two signatures: %q %q", a1, a2)
	}
	if a1 == b || SiteOf(a1) == SiteOf(b) {
		t.Errorf("two hang sites, one signature or site: %q", a1)
	}
	if s := OfDeath(KindTimeout, "SIGQUIT: quit\n", false); s != KindTimeout {
		t.Errorf("no trace: %q", s)
	}
	// The in-process watchdog's dump: the goroutine in the engine's
	// execution, whatever its position.
	inproc := "goroutine 1 [running]:\nexample.com/t.spin()\n\t/src/t/s.go:3 +0x1\ngithub.com/gfz-dev/gfz/internal/engine.(*fuzzer).execExt(0x1)\n\t/gfz/engine/engine.go:300 +0x6b\n"
	if s := Hang("goroutine 9 [select]:\nexample.com/t.other()\n\t/src/t/o.go:1 +0x1\n\n" + inproc); s != "timeout\nexample.com/t.spin\n" {
		t.Errorf("in-process hang signature %q", s)
	}
	// A native f.Fuzz target: the function runs in a goroutine of its own
	// (gfz.runNativeJob), the engine's goroutine waits for it; the hang
	// is where the former is, whatever the order of the goroutines.
	waiting := "goroutine 20 [chan receive]:\ngithub.com/gfz-dev/gfz.(*nativeExec).Exec(0x1)\n\t/gfz/native_exec.go:98 +0x551\ngithub.com/gfz-dev/gfz/internal/engine.(*fuzzer).execExt(0x1)\n\t/gfz/engine/engine.go:320 +0x3f6\n"
	native := "goroutine 39 [runnable]:\nexample.com/m.deepMatch(0x1)\n\t/src/m/match.go:25 +0x3a\nexample.com/m.deepMatch(0x1)\n\t/src/m/match.go:46 +0x3a5\nexample.com/t.FuzzNative.func1(0x1)\n\t/src/t/t_test.go:26 +0x1\nreflect.Value.call(0x1)\n\t/go/src/reflect/value.go:581 +0xca8\ngithub.com/gfz-dev/gfz.runNativeJob(0x1)\n\t/gfz/native_exec.go:199 +0x9b\ngithub.com/gfz-dev/gfz.runNative(0x1)\n\t/gfz/native_exec.go:170 +0x5d\n"
	if s := Hang("SIGQUIT: quit\n\n" + waiting + "\n" + native); s != "timeout\nexample.com/m.deepMatch\nexample.com/m.deepMatch match.go:46\nexample.com/t.FuzzNative.func1 t_test.go:26\n" {
		t.Errorf("native target's hang signature %q", s)
	}
	// A native target whose function waits in t.Run for a subtest (a
	// nested one here): the hang is where the innermost subtest's
	// goroutine is, whatever the order of the goroutines.
	inRun := "goroutine 23 [chan receive]:\ntesting.(*T).Run(0x1)\n\t/go/src/testing/testing.go:2109 +0x4e5\nexample.com/t.FuzzS.func1(0x1)\n\t/src/t/s_test.go:8 +0x8a\nreflect.Value.call(0x1)\n\t/go/src/reflect/value.go:586 +0xf0c\ngithub.com/gfz-dev/gfz.runNativeJob(0x1)\n\t/gfz/native_exec.go:226 +0x65\n"
	sub := "goroutine 24 [chan receive]:\ntesting.(*T).Run(0x1)\n\t/go/src/testing/testing.go:2109 +0x4e5\nexample.com/t.FuzzS.func1.1(0x1)\n\t/src/t/s_test.go:9 +0x8a\ntesting.tRunner(0x1)\n\t/go/src/testing/testing.go:2036 +0xea\ncreated by testing.(*T).Run in goroutine 23\n\t/go/src/testing/testing.go:2101 +0x4c5\n"
	inner := "goroutine 25 [running]:\nexample.com/t.spin()\n\t/src/t/s.go:3 +0x1\nexample.com/t.FuzzS.func1.1.1(0x1)\n\t/src/t/s_test.go:10 +0x5d\ntesting.tRunner(0x1)\n\t/go/src/testing/testing.go:2036 +0xea\ncreated by testing.(*T).Run in goroutine 24\n\t/go/src/testing/testing.go:2101 +0x4c5\n"
	other := "goroutine 26 [running]:\nexample.com/t.other()\n\t/src/t/o.go:1 +0x1\ntesting.tRunner(0x1)\n\t/go/src/testing/testing.go:2036 +0xea\ncreated by testing.(*T).Run in goroutine 7\n\t/go/src/testing/testing.go:2101 +0x4c5\n"
	for _, dump := range []string{inner + "\n" + other + "\n" + sub + "\n" + inRun, inRun + "\n" + other + "\n" + sub + "\n" + inner} {
		if s, want := Hang("SIGQUIT: quit\n\n"+waiting+"\n"+dump), "timeout\nexample.com/t.spin\nexample.com/t.FuzzS.func1.1.1 s_test.go:10\n"; s != want {
			t.Errorf("hang in a subtest: signature %q, want %q", s, want)
		}
	}
	// Instrumentation frames are trimmed from stacks shown, and never part
	// of a
	shown := TrimInstrumentation(fmt.Sprintf(hangDumpA, 10))
	if strings.Contains(shown, "_gfz") || !strings.Contains(shown, "example.com/t.hangA(0x7)\n\t/src/t/t.go:10") {
		t.Errorf("trimmed stack:\n%s", shown)
	}
	panicked := "panic: boom\n\ngoroutine 5 [running]:\nexample.com/t._gfzHitE(...)\n\t/x/zz_gfz_probes.go:9\nexample.com/t.f()\n\t/src/t/f.go:4 +0x1\n"
	if s := CrashSignature(panicked, exitState(t, "exit 2")); s != "panic: boom\nexample.com/t.f f.go:4\n" {
		t.Errorf("crash signature with an instrumentation frame: %q", s)
	}
}

// TestSignatureRules: the rules shared by the executor and the supervisor.
func TestSignatureRules(t *testing.T) {
	for in, want := range map[string]string{
		"index out of range [5] with length 3":   "index out of range [N] with length N",
		"bad pointer 0xc000012345 at 0x1f":       "bad pointer N at N",
		"x 0xZ":                                  "x NxZ",
		"first line 12\nsecond":                  "first line N",
		"abc123def":                              "abcNdef",
		strings.Repeat("a", 200):                 strings.Repeat("a", 120) + "...",
		"runtime error: slice bounds out of 0x0": "runtime error: slice bounds out of N",
		// Quoted input text: one signature whatever the quoted text.
		`BUG: Expected valid escape code after \, but got ','.`:  `BUG: Expected valid escape code after \, but got '_'.`,
		`BUG: Expected valid escape code after \, but got 'é'.`:  `BUG: Expected valid escape code after \, but got '_'.`,
		`got '\n' and '\'' and '\x41' and '\u00e9'`:              `got '_' and '_' and '_' and '_'`,
		`key "a b\"c" defined twice`:                             `key "_" defined twice`,
		`Expected key start but instead found "", around line 3`: `Expected key start but instead found "_", around line N`,
		// Not quotes: apostrophes, an unclosed string, a long 'literal'.
		`can't parse it's 'x'`: `can't parse it's '_'`,
		`unclosed "abc`:        `unclosed "abc`,
		`'ab' is not a rune`:   `'ab' is not a rune`,
		`trailing '`:           `trailing '`,
		`empty '' and "x\`:     `empty '' and "x\`,
	} {
		if got := NormalizeMessage(in); got != want {
			t.Errorf("NormalizeMessage(%q) = %q, want %q", in, got, want)
		}
	}
	type named int
	type strct struct{ a int }
	for _, c := range []struct {
		v    any
		want string
	}{
		{"boom 42", "panic: boom N"},
		{errors.New("err 0x1f"), "panic: err N"},
		{42, "panic: N"},
		{named(3), "panic: signature.named(N)"},
		{strct{1}, "panic: (signature.strct) N"},
	} {
		if got := PanicKind(c.v); got != c.want {
			t.Errorf("PanicKind(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
	for fn, want := range map[string]bool{
		"example.com/t._gfzHit": true, "example.com/t._gfzHitE": true, "strings._gfzHit": true,
		"github.com/gfz-dev/gfz/runtime.Hit": true, "sync.(*Once).doSlow": true, "os.Exit": true,
		"github.com/gfz-dev/gfz.run": true, "example.com/t.f": false, "example.com/t.(*T)._private": false,
		"github.com/gfz-dev/gfz_test.TestX": false, "os/exec.Command": false,
	} {
		if got := IsInternalFrame(fn); got != want {
			t.Errorf("IsInternalFrame(%q) = %v", fn, got)
		}
	}
}

func TestClassifyCrash(t *testing.T) {
	exit2 := exitState(t, "exit 2")
	cases := []struct {
		tail   string
		ps     *os.ProcessState
		kill   string
		kind   string
		frames string
		framed bool
	}{
		{goPanicTrace, exit2, "", "panic: boom N in a goroutine", "example.com/t.FuzzX.func1.1 x_test.go:34\n", true},
		{subtestPanicTrace, exit2, "", "panic: runtime error: index out of range [N] with length N", "example.com/t.check c.go:31\nexample.com/t.FuzzS.func1.2 s_test.go:22\n", true},
		{mapTrace, exit2, "", "fatal error: concurrent map writes",
			"example.com/t.writer x.go:12\nexample.com/t.run.func1 x.go:20\nexample.com/t.run.func2 x.go:21\n", true},
		{segvTrace, exit2, "", "signal SIGSEGV", "example.com/t.callC c.go:9\n", true},
		{goexitTrace, exitState(t, "exit 65"), "", KindGoexit, "example.com/t.FuzzG.func1 g_test.go:84\n", true},
		{"fatal error: runtime: out of memory\n", exit2, "", KindOutOfMemory, "", false},
		{"", exitState(t, "exit 3"), "", "exit status 3", "", false},
		{"", exitState(t, "kill -SEGV $$"), "", "signal SIGSEGV", "", false},
		{"SIGSEGV: segmentation violation\nPC=0x1 m=0\n\ngoroutine 5 [running]:\nexample.com/t.any()\n\t/src/t/a.go:1 +0x1\n", exit2, "",
			"signal SIGSEGV", "example.com/t.any a.go:1\n", false},
		{"SIGQUIT: quit\nPC=0x1 m=0\n\ngoroutine 1 [running]:\nexample.com/t.spin()\n\t/src/t/s.go:3 +0x1\n", exit2, KindTimeout, KindTimeout, "example.com/t.spin s.go:3\n", false},
		{"whatever", exitState(t, "kill -KILL $$"), KindOutOfMemory, KindOutOfMemory, "", false},
		// The tail holds earlier executions' output: lines a logger or a
		// recovery middleware printed before the crash are not the crash.
		{"panic: recovered in handler: index 3 out of range\nexample.com/t.fake()\n\t/src/t/f.go:1 +0x1\n" + goPanicTrace, exit2, "",
			"panic: boom N in a goroutine", "example.com/t.FuzzX.func1.1 x_test.go:34\n", true},
		{"fatal error: config file missing\n" + goPanicTrace, exit2, "", "panic: boom N in a goroutine", "example.com/t.FuzzX.func1.1 x_test.go:34\n", true},
		{"panic: logged, not a crash\n" + mapTrace, exit2, "", "fatal error: concurrent map writes",
			"example.com/t.writer x.go:12\nexample.com/t.run.func1 x.go:20\nexample.com/t.run.func2 x.go:21\n", true},
	}
	for i, c := range cases {
		kind, stack, framed := Classify(c.tail, c.ps, c.kill)
		if kind != c.kind {
			t.Errorf("case %d: kind %q, want %q", i, kind, c.kind)
		}
		fr := CrashFrames(stack)
		if fr != c.frames {
			t.Errorf("case %d: frames %q, want %q", i, fr, c.frames)
		}
		if framed != c.framed {
			t.Errorf("case %d: framed %v", i, framed)
		}
	}
}

func exitState(t *testing.T, script string) *os.ProcessState {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	_ = cmd.Run()
	return cmd.ProcessState
}

// Crash outputs as the Go runtime prints them (trimmed).
const (
	// A panic in a subtest of a native target, which the testing
	// package recovers and panics again: the runtime's panic frame is
	// in the middle of the trace, above the frames where it started.
	subtestPanicTrace = `panic: runtime error: index out of range [35] with length 0 [recovered, repanicked]

goroutine 6 [running]:
testing.tRunner.func1.2({0x78c0a0, 0xc3ac13a0a8})
	/usr/local/go/src/testing/testing.go:1974 +0x232
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1977 +0x349
panic({0x78c0a0?, 0xc3ac13a0a8?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/t.check({0xc3ac13c120?, 0x0?, 0xc3ac15ff50?})
	/src/t/c.go:31 +0xe
example.com/t.FuzzS.func1.2(0xc3ac292488?)
	/src/t/s_test.go:22 +0x5d
testing.tRunner(0xc3ac292488, 0xc3ac2940a0)
	/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 4
	/usr/local/go/src/testing/testing.go:2101 +0x4c5
`

	goPanicTrace = `gfz: some earlier message
panic: boom 42 in a goroutine

goroutine 21 [running]:
example.com/t.FuzzX.func1.1()
	/src/t/x_test.go:34 +0x51
created by example.com/t.FuzzX.func1 in goroutine 20
	/src/t/x_test.go:32 +0x66
`
	mapTrace = `fatal error: concurrent map writes

goroutine 8 [running]:
internal/runtime/maps.fatal({0x5e2a01?, 0x0?})
	/usr/local/go/src/runtime/panic.go:1046 +0x18
example.com/t.writer(0xc000012345)
	/src/t/x.go:12 +0x3c
example.com/t.run.func1()
	/src/t/x.go:20 +0x25
example.com/t.run.func2()
	/src/t/x.go:21 +0x25
created by example.com/t.run in goroutine 7
	/src/t/x.go:18 +0x9a
`
	segvTrace = `fatal error: unexpected signal during runtime execution
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]

runtime stack:
runtime.throw({0x5,0x1})
	/usr/local/go/src/runtime/panic.go:1023 +0x5c

goroutine 1 [syscall]:
example.com/t.callC()
	/src/t/c.go:9 +0x10
`
	goexitTrace = GoexitMarker + `
goroutine 6 [running]:
runtime/debug.Stack()
	/usr/local/go/src/runtime/debug/stack.go:26 +0x5e
github.com/gfz-dev/gfz.run.func1()
	/gfz/exec.go:70 +0x45
runtime.Goexit()
	/usr/local/go/src/runtime/panic.go:636 +0x5e
example.com/t.FuzzG.func1(0xc000)
	/src/t/g_test.go:84 +0x25
github.com/gfz-dev/gfz.run(0xc000, 0x1)
	/gfz/exec.go:90 +0x6b
example.com/t.FuzzG(0xc000)
	/src/t/g_test.go:82 +0x25
`
)

// dumpOf is a SIGQUIT dump whose fuzz-function goroutine has these frames
// ("function file.go:line"), innermost first, above gfz's executor.
func dumpOf(frames ...string) string {
	var b strings.Builder
	b.WriteString("SIGQUIT: quit\n\ngoroutine 9 [select]:\nexample.com/t.other()\n\t/src/t/o.go:1 +0x1\n\ngoroutine 6 [running]:\n")
	for _, f := range frames {
		fn, loc, _ := strings.Cut(f, " ")
		b.WriteString(fn + "(0x1)\n\t/src/html/" + loc + " +0x28\n")
	}
	b.WriteString("github.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)\n\t/gfz/exec.go:95 +0x6b\n")
	return b.String()
}

// TestHangOfLoopAcrossFunctions: a parser whose one reprocessing loop spans
// several functions is interrupted in a different one each time; HangOf
// gives every pair of its dumps one signature (the frames they share),
// while a single dump's Hang differs from one interruption to the next; a
// hang elsewhere keeps its own signature; a recursion interrupted at
// different depths is one hang; a loop in one function keeps Hang's
// signature.
func TestHangOfLoopAcrossFunctions(t *testing.T) {
	outer := []string{"golang.org/x/net/html.(*parser).parseCurrentToken parse.go:2100", "golang.org/x/net/html.(*parser).parse parse.go:2150", "golang.org/x/net/html.Parse parse.go:2200", "example.com/t.FuzzHTML.func1 t_test.go:20"}
	a := dumpOf(append([]string{"golang.org/x/net/html.inForeignContent parse.go:1900"}, outer...)...)
	b := dumpOf(append([]string{"golang.org/x/net/html.(*parser).indexOfElementInScope parse.go:120", "golang.org/x/net/html.inBodyIM parse.go:800"}, outer...)...)
	c := dumpOf(append([]string{"golang.org/x/net/html.(*parser).parseImpliedToken parse.go:2050", "golang.org/x/net/html.(*parser).parseCurrentToken parse.go:2090"}, outer[1:]...)...)
	if Hang(a) == Hang(b) || Hang(b) == Hang(c) {
		t.Fatalf("the single dumps already agree; the test shows nothing: %q %q", Hang(a), Hang(b))
	}
	want := "timeout\ngolang.org/x/net/html.(*parser).parseCurrentToken\ngolang.org/x/net/html.(*parser).parse parse.go:2150\ngolang.org/x/net/html.Parse parse.go:2200\n"
	for _, p := range [][2]string{{a, b}, {b, a}, {b, c}, {a, c}} {
		if got := HangOf(p[0], p[1]); got != want {
			t.Errorf("HangOf = %q, want %q", got, want)
		}
	}
	// Another loop (the tokenizer's), interrupted at two places: its own
	// signature.
	other := dumpOf("golang.org/x/net/html.(*Tokenizer).readRawOrRCDATA token.go:300", "golang.org/x/net/html.(*Tokenizer).Next token.go:900", "example.com/t.FuzzHTML.func1 t_test.go:24")
	other2 := dumpOf("golang.org/x/net/html.(*Tokenizer).readByte token.go:60", "golang.org/x/net/html.(*Tokenizer).readRawOrRCDATA token.go:310", "golang.org/x/net/html.(*Tokenizer).Next token.go:900", "example.com/t.FuzzHTML.func1 t_test.go:24")
	if got := HangOf(other, other2); got == want || got != "timeout\ngolang.org/x/net/html.(*Tokenizer).readRawOrRCDATA\ngolang.org/x/net/html.(*Tokenizer).Next token.go:900\nexample.com/t.FuzzHTML.func1 t_test.go:24\n" {
		t.Errorf("the tokenizer's loop: %q", got)
	}
	// Two stacks that share only the fuzz function: a loop in the fuzz
	// function itself.
	if got := HangOf(a, other); got != "timeout\nexample.com/t.FuzzHTML.func1\n" {
		t.Errorf("stacks sharing the fuzz function: %q", got)
	}
	if got := HangOf(a, dumpOf("x.y x.go:1")); got != Hang(a) {
		t.Errorf("stacks sharing nothing: %q, want Hang(a)", got)
	}
	// A recursion interrupted at two depths, and a loop in one function
	// interrupted at two lines: what Hang gives either dump.
	deep := dumpOf("m.rec m.go:2", "m.rec m.go:4", "m.rec m.go:4", "m.Run m.go:9", "example.com/t.F.func1 t_test.go:5")
	shallow := dumpOf("m.rec m.go:2", "m.rec m.go:4", "m.Run m.go:9", "example.com/t.F.func1 t_test.go:5")
	if got := HangOf(deep, shallow); got != Hang(shallow) {
		t.Errorf("recursion: HangOf %q, Hang %q", got, Hang(shallow))
	}
	l1, l2 := dumpOf("m.spin m.go:7", "m.Run m.go:9"), dumpOf("m.spin m.go:8", "m.Run m.go:9")
	if got := HangOf(l1, l2); got != Hang(l1) || Hang(l1) != Hang(l2) {
		t.Errorf("one-function loop: HangOf %q, Hang %q / %q", got, Hang(l1), Hang(l2))
	}
}

// TestLoopHolds: one dump holds a loop when the loop's innermost shared
// frame is on its stack and the calls outwards agree, wherever inside the
// loop it was interrupted; a dump interrupted further out (in a caller of
// the loop's frames, or in the fuzz function), in another loop, or with
// another call outwards does not. A loop without frames holds a dump of
// its signature.
func TestLoopHolds(t *testing.T) {
	outer := []string{"golang.org/x/net/html.(*parser).parseCurrentToken parse.go:2100", "golang.org/x/net/html.(*parser).parse parse.go:2150", "golang.org/x/net/html.Parse parse.go:2200", "example.com/t.FuzzHTML.func1 t_test.go:20"}
	a := dumpOf(append([]string{"golang.org/x/net/html.inForeignContent parse.go:1900"}, outer...)...)
	b := dumpOf(append([]string{"golang.org/x/net/html.inBodyIM parse.go:800"}, outer...)...)
	l := HangLoop(a, b)
	for _, c := range []struct {
		name string
		dump string
		want bool
	}{
		{"interrupted elsewhere in the loop", dumpOf(append([]string{"golang.org/x/net/html.(*parser).parseImpliedToken parse.go:2050"}, outer...)...), true},
		{"in the loop's innermost function", dumpOf(append([]string{"golang.org/x/net/html.(*parser).parseCurrentToken parse.go:2093"}, outer[1:]...)...), true},
		{"further out, in Parse", dumpOf("golang.org/x/net/html.Parse parse.go:2190", "example.com/t.FuzzHTML.func1 t_test.go:20"), false},
		{"in the fuzz function", dumpOf("example.com/t.FuzzHTML.func1 t_test.go:21"), false},
		{"another call outwards", dumpOf("golang.org/x/net/html.inBodyIM parse.go:800", "golang.org/x/net/html.(*parser).parseCurrentToken parse.go:2100", "golang.org/x/net/html.(*parser).parse parse.go:2160", "golang.org/x/net/html.Parse parse.go:2200", "example.com/t.FuzzHTML.func1 t_test.go:20"), false},
		{"another loop", dumpOf("golang.org/x/net/html.(*Tokenizer).readByte token.go:60", "golang.org/x/net/html.(*Tokenizer).Next token.go:900", "example.com/t.FuzzHTML.func1 t_test.go:24"), false},
		{"no stacks", "SIGQUIT: quit\n", false},
	} {
		if got := l.Holds(c.dump); got != c.want {
			t.Errorf("%s: Holds = %v, want %v", c.name, got, c.want)
		}
	}
	bare := HangLoop("no stacks", dumpOf("x.y x.go:1"))
	if !bare.Holds(dumpOf("x.y x.go:1")) || bare.Holds(dumpOf("x.z x.go:1")) {
		t.Errorf("a loop without frames holds the dumps of its signature only")
	}
}

// TestHangLoopsThroughOneHelper: two loops that call the same helper chain
// from different lines of one function (gomarkdown's paragraph calls list
// at two lines, and each path can loop for ever), interrupted in the
// helper, have one single-dump signature. Their loops and points tell them
// apart by the call entering the chain, and the second loop's signature
// names it (Apart); one loop reached from another context (a recursive
// parser's nesting) is the same loop.
func TestHangLoopsThroughOneHelper(t *testing.T) {
	outer := []string{"p.Block block.go:400", "p.Parse parser.go:300", "example.com/t.FuzzMD.func1 t_test.go:9"}
	nested := []string{"p.Block block.go:400", "p.listItem block.go:900", "p.list block.go:1290", "p.Block block.go:410", "p.Parse parser.go:300", "example.com/t.FuzzMD.func1 t_test.go:9"}
	path := func(inner string, caller int, context []string) string {
		return dumpOf(append([]string{inner, "p.finalizeList block.go:1344", "p.list block.go:1293", "p.paragraph block.go:" + strconv.Itoa(caller)}, context...)...)
	}
	a1, r1 := path("p.endsWithBlankLine block.go:100", 1742, outer), path("p.endsWithBlankLine block.go:105", 1742, outer)
	d2, r2 := path("p.endsWithBlankLine block.go:100", 1654, outer), path("p.endsWithBlankLine block.go:107", 1654, outer)
	if Hang(a1) != Hang(d2) {
		t.Fatalf("the single dumps differ; the test shows nothing: %q %q", Hang(a1), Hang(d2))
	}
	if HangPoint(a1) == HangPoint(d2) || HangPoint(a1) != HangPoint(r1) {
		t.Errorf("points: %q %q %q", HangPoint(a1), HangPoint(d2), HangPoint(r1))
	}
	l1, l2 := HangLoop(a1, r1), HangLoop(d2, r2)
	if l1.Sig != HangOf(a1, r1) || l1.Sig != "timeout\np.endsWithBlankLine\np.finalizeList block.go:1344\np.list block.go:1293\n" || l2.Sig != l1.Sig {
		t.Fatalf("loops' signatures %q, %q", l1.Sig, l2.Sig)
	}
	if l1.Same(l2) || l2.Same(l1) {
		t.Error("two loops entering the helper chain from different lines of paragraph are the same")
	}
	if in := HangLoop(path("p.endsWithBlankLine block.go:111", 1742, nested), path("p.endsWithBlankLine block.go:100", 1742, nested)); !l1.Same(in) {
		t.Error("the first loop reached inside a list item is another loop")
	}
	shallow := HangLoop(dumpOf(append([]string{"p.list block.go:1290", "p.paragraph block.go:1742"}, outer...)...), a1)
	if !l1.Same(shallow) || shallow.Same(l2) {
		t.Errorf("the first loop from a dump interrupted in list (%q)", shallow.Sig)
	}
	apart := l2.Apart([]Loop{l1})
	if want := "timeout\np.endsWithBlankLine\np.finalizeList block.go:1344\np.list block.go:1293\np.paragraph block.go:1654\n"; apart.Sig != want {
		t.Errorf("Apart: %q, want %q", apart.Sig, want)
	}
	if l1.Apart([]Loop{apart}).Sig != l1.Sig {
		t.Error("Apart changed a signature no other loop has")
	}
	// Loops without frames (dumps sharing nothing) are the same only with
	// the same signature.
	none := HangLoop(dumpOf("x.y x.go:1"), a1)
	if none.Sig == l1.Sig || none.Same(l1) || l1.Same(none) || !none.Same(HangLoop(dumpOf("x.y x.go:1"), r1)) {
		t.Errorf("a loop without frames (%q) and a loop with frames", none.Sig)
	}
}

// TestHangLoopThroughStdIterator: a loop in the body of a range over a
// std iterator, dumped twice with the iterator's yield at different lines
// (strings.SplitSeq yields at two): the two dumps share the frames down to
// the body, which is the loop's signature, and the loops of two such pairs
// are one loop.
func TestHangLoopThroughStdIterator(t *testing.T) {
	dump := func(body, yield string) string {
		return dumpOf("m.fields-range1 m.go:"+body, "strings.SplitSeq.splitSeq.func1 iter.go:"+yield, "m.fields m.go:20", "m.FuzzM.func1 m_test.go:9")
	}
	l1, l2 := HangLoop(dump("22", "54"), dump("23", "59")), HangLoop(dump("23", "59"), dump("22", "54"))
	if want := "timeout\nm.fields-range1\nstrings.SplitSeq.splitSeq.func1\nm.fields m.go:20\n"; l1.Sig != want || l2.Sig != want {
		t.Errorf("loop signatures %q, %q; want %q", l1.Sig, l2.Sig, want)
	}
	if !l1.Same(HangLoop(dump("22", "59"), dump("23", "59"))) {
		t.Error("one loop, dumped with the iterator's yield at another line, is another loop")
	}
}
