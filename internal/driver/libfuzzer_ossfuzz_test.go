package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
)

// The command lines of OSS-Fuzz's base-runner scripts, as they were run
// against a gfz fuzz binary (docs/CLUSTERFUZZ.md, "Run against OSS-Fuzz's
// own scripts").

// TestLibFuzzerDoubleDash: run_fuzzer and bad_build_check write "--"
// before the flags ($OUT/fuzzer -- $FUZZER_ARGS ... CORPUS). libFuzzer
// skips it; Go's flag package would stop there and take every flag after
// it for a fuzz target name ("unknown fuzz target \"-rss_limit_mb=2560\"").
func TestLibFuzzerDoubleDash(t *testing.T) {
	corpus := t.TempDir()
	var out, errb bytes.Buffer

	// run_fuzzer's fuzzing command line, the options file's flags after
	// the corpus directory. (The target is named here: the test binary's
	// name does not select one.)
	cfg, code := parseArgs(testInfo, []string{"--", "-rss_limit_mb=2560", "-timeout=25", "-max_total_time=30", "FuzzB", corpus, "-use_value_profile=1"}, &out, &errb)
	if code != -1 {
		t.Fatalf("run_fuzzer's command line: code %d: %s", code, errb.String())
	}
	if cfg.lf == nil || !reflect.DeepEqual(cfg.lf.corpus, []string{corpus}) || cfg.run.Timeout != 25*time.Second ||
		cfg.run.Time != 30*time.Second || cfg.rssLimitMB != 2560 || cfg.run.Target != "FuzzB" {
		t.Errorf("run_fuzzer's command line: config %+v, libFuzzer part %+v", cfg, cfg.lf)
	}

	// bad_build_check's check_engine: $FUZZER -- -seed=1337 -runs=4, which
	// has no other libFuzzer-only argument.
	errb.Reset()
	cfg, code = parseArgs(testInfo, []string{"--", "-seed=1337", "-runs=4", "FuzzA"}, &out, &errb)
	if code != -1 {
		t.Fatalf("bad_build_check's command line: code %d: %s", code, errb.String())
	}
	if cfg.lf == nil || cfg.run.Seed != 1337 || cfg.run.Runs != 4 || cfg.run.ReplayOnly || cfg.workers != 1 {
		t.Errorf("bad_build_check's command line: config %+v (libFuzzer mode %v)", cfg, cfg.lf != nil)
	}

	// reproduce: -- $FUZZER_ARGS -runs=100 TESTCASE.
	input := filepath.Join(t.TempDir(), "testcase")
	if err := os.WriteFile(input, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	cfg, code = parseArgs(testInfo, []string{"--", "-rss_limit_mb=2560", "-timeout=25", "-runs=100", input, "FuzzA"}, &out, &errb)
	if code != -1 || cfg.lf == nil || !reflect.DeepEqual(cfg.repro, []string{input}) {
		t.Fatalf("reproduce's command line: code %d, config %+v: %s", code, cfg, errb.String())
	}
}

// TestLibFuzzerDone: a run that ends without a failure prints libFuzzer's
// "Done N runs in S second(s)", which bad_build_check's check_startup_crash
// greps for after -runs=4 ("seems to have either startup crash or exit"
// without it).
func TestLibFuzzerDone(t *testing.T) {
	var errb bytes.Buffer
	cfg := &config{stderr: &errb, summary: &engine.Summary{Execs: 4, Elapsed: 2500 * time.Millisecond}}
	(&libFuzzer{}).done(cfg)
	if got, want := errb.String(), "Done 4 runs in 2 second(s)\n"; got != want {
		t.Errorf("done printed %q, want %q", got, want)
	}
}

// TestLibFuzzerGoCoverage parses the command line of OSS-Fuzz's coverage
// script for Go fuzzers: FUZZ_CORPUS_DIR=DIR/ fuzzer -test.run=^T$
// -test.coverprofile FILE.
func TestLibFuzzerGoCoverage(t *testing.T) {
	corpus := t.TempDir()
	prof := filepath.Join(t.TempDir(), "fuzzer.profdata")
	t.Setenv(goCoverEnv, corpus+"/")
	var out, errb bytes.Buffer
	cfg, code := parseArgs(testInfo, []string{"-test.run=^FuzzB$", "-test.coverprofile", prof}, &out, &errb)
	if code != -1 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	if cfg.lf == nil || !cfg.lf.goCover || !reflect.DeepEqual(cfg.lf.corpus, []string{corpus + "/"}) || cfg.run.Target != "FuzzB" ||
		!cfg.run.ReplayOnly || cfg.coverprofile != prof || cfg.workers != 1 {
		t.Errorf("config %+v, libFuzzer part %+v", cfg, cfg.lf)
	}

	// No corpus directory: the target's seeds only.
	t.Setenv(goCoverEnv, filepath.Join(corpus, "missing")+"/")
	cfg, code = parseArgs(testInfo, []string{"-test.run=^FuzzA$", "-test.coverprofile=" + prof}, &out, &errb)
	if code != -1 || cfg.lf == nil || len(cfg.lf.corpus) != 0 || cfg.run.Target != "FuzzA" || !cfg.run.ReplayOnly {
		t.Errorf("without a corpus directory: code %d, config %+v: %s", code, cfg, errb.String())
	}

	// What the script passes when fuzzer_function_names.json lacks the
	// binary: a clear error, not a run of another target.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-test.run=^Error: File '/out/fuzzer_function_names.json' does not exist or is empty.$", "-test.coverprofile", prof}, "names no fuzz target of this binary"},
		{[]string{"-test.run=^FuzzA$", "-test.coverprofile"}, "-test.coverprofile needs a value"},
	} {
		errb.Reset()
		if _, code := parseArgs(testInfo, c.args, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: code %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestClusterFuzzStack: frames get "(...)" for an argument list, which
// ClusterFuzz's Go frame pattern needs (it refuses "0x1?" arguments and a
// function line without a list, as gfz's own stacks have), and the
// goroutine running the fuzz target leads a dump of all goroutines.
func TestClusterFuzzStack(t *testing.T) {
	in := strings.Join([]string{
		"SIGQUIT: quit",
		"",
		"goroutine 18 [running]:",
		"github.com/gfz-dev/gfz/internal/engine.allStacks()",
		"\t/src/gfz/internal/engine/timeout.go:186 +0x65",
		"created by github.com/gfz-dev/gfz/internal/engine.dumpOnQuit in goroutine 8",
		"\t/src/gfz/internal/engine/hangdump_unix.go:28 +0xb8",
		"",
		"goroutine 8 [runnable]:",
		"example.com/p.Spin(...)",
		"\t/src/p/p.go:32",
		"example.com/p.FuzzHang.func1(0x37c293f1e008?)",
		"\t/src/p/p_test.go:37 +0x131",
		"github.com/gfz-dev/gfz.(*executor).Exec(0x37c293efa6c0, {0x37c29401c038?, 0x0?}, 0x611115?)",
		"\t/src/gfz/exec.go:55 +0xdd",
	}, "\n")
	want := strings.Join([]string{
		"SIGQUIT: quit",
		"",
		"goroutine 8 [runnable]:",
		"example.com/p.Spin(...)",
		"\t/src/p/p.go:32",
		"example.com/p.FuzzHang.func1(...)",
		"\t/src/p/p_test.go:37 +0x131",
		"github.com/gfz-dev/gfz.(*executor).Exec(...)",
		"\t/src/gfz/exec.go:55 +0xdd",
		"",
		"goroutine 18 [running]:",
		"github.com/gfz-dev/gfz/internal/engine.allStacks(...)",
		"\t/src/gfz/internal/engine/timeout.go:186 +0x65",
		"created by github.com/gfz-dev/gfz/internal/engine.dumpOnQuit in goroutine 8",
		"\t/src/gfz/internal/engine/hangdump_unix.go:28 +0xb8",
	}, "\n")
	if got := clusterFuzzStack(in); got != want {
		t.Errorf("clusterFuzzStack:\n%s\nwant:\n%s", got, want)
	}
	// A native target's hang: the engine's goroutine waits in
	// nativeExec.Exec (a frame of gfz's root package) for the goroutine
	// running the target, which comes first (every native hang had the
	// engine's frames for its crash state, one ClusterFuzz bug for all).
	in = strings.Join([]string{
		"goroutine 1 [chan receive]:",
		"github.com/gfz-dev/gfz.(*nativeExec).Exec(0x1, {0x2, 0x3})",
		"\t/src/gfz/native_exec.go:120 +0x1",
		"github.com/gfz-dev/gfz/internal/engine.(*fuzzer).execExt(0x4)",
		"\t/src/gfz/internal/engine/engine.go:500 +0x2",
		"",
		"goroutine 9 [runnable]:",
		"example.com/p.Check(0x5)",
		"\t/src/p/p.go:7 +0x3",
		"example.com/p.FuzzNative.func1(0x6)",
		"\t/src/p/p_test.go:12 +0x4",
		"github.com/gfz-dev/gfz.runNativeJob(0x7)",
		"\t/src/gfz/native_exec.go:200 +0x5",
	}, "\n")
	if got := clusterFuzzStack(in); !strings.HasPrefix(got, "goroutine 9 [runnable]:\nexample.com/p.Check(...)\n") ||
		!strings.Contains(got, "\n\ngoroutine 1 [chan receive]:\n") {
		t.Errorf("native hang: the target's goroutine is not first:\n%s", got)
	}
	// An in-process failure's stack: function lines without arguments.
	in = "example.com/p.(*T).check\n\t/src/p/p.go:9\nexample.com/p.FuzzX.func1\n\t/src/p/p_test.go:38"
	want = "example.com/p.(*T).check(...)\n\t/src/p/p.go:9\nexample.com/p.FuzzX.func1(...)\n\t/src/p/p_test.go:38"
	if got := clusterFuzzStack(in); got != want {
		t.Errorf("clusterFuzzStack:\n%s\nwant:\n%s", got, want)
	}
}

// TestCrashBlockOrder: the stack comes after libFuzzer's ERROR line, as
// libFuzzer prints it; ClusterFuzz's parser resets the crash state at that
// line, so a t.Fatal's or a hang's frames printed before it were lost
// (crash state NULL).
func TestCrashBlockOrder(t *testing.T) {
	cfg := &config{}
	for _, c := range []struct {
		kind  string
		r     failureReport
		error string
	}{
		{"crash", failureReport{kind: "t.Fatal", message: "p_test.go:38: bad", stack: "example.com/p.FuzzX.func1\n\t/src/p/p_test.go:38"}, "ERROR: libFuzzer: deadly signal"},
		{"timeout", failureReport{result: "TIMEOUT", kind: "timeout", message: "ran for more than 3s",
			stack: "SIGQUIT: quit\n\ngoroutine 8 [runnable]:\nexample.com/p.Spin(...)\n\t/src/p/p.go:32"}, "ERROR: libFuzzer: timeout after 3 seconds"},
		// os.Exit in the target: libFuzzer's "fuzz target exited" (it was
		// a deadly signal, another ClusterFuzz crash type).
		{"crash", failureReport{kind: "exit status 3", message: "worker 0 died (exit status 3)"}, "ERROR: libFuzzer: fuzz target exited"},
	} {
		var b strings.Builder
		writeCrashBlock(&b, c.r, c.kind, cfg)
		out := b.String()
		e, g, s := strings.Index(out, c.error), strings.Index(out, "\ngoroutine "), strings.Index(out, "SUMMARY: libFuzzer:")
		if e < 0 || g < 0 || s < 0 || !(e < g && g < s) {
			t.Errorf("%s block: want the ERROR line, then the goroutine stack, then SUMMARY:\n%s", c.kind, out)
		}
	}
}

// TestLibFuzzerDefaultSeed: without -seed a libFuzzer-mode run takes a new
// seed, as libFuzzer's -seed=0 default does (ClusterFuzzLite's batch runs
// and ClusterFuzz's fuzzing sessions pass no -seed; with gfz's fixed
// default 1 every session and bot fuzzed the same corpus the same way);
// gfz's own command line keeps its default.
func TestLibFuzzerDefaultSeed(t *testing.T) {
	old := lfClockSeed
	lfClockSeed = func() int64 { return 424242 }
	t.Cleanup(func() { lfClockSeed = old })
	corpus := t.TempDir()
	var out, errb bytes.Buffer
	for _, c := range []struct {
		args []string
		want int64
	}{
		{[]string{"-timeout=25", "-max_total_time=60", "FuzzA", corpus}, 424242},
		{[]string{"-seed=0", "FuzzA", corpus}, 424242},
		{[]string{"-seed", "0", "FuzzA", corpus}, 424242}, // gfz's spelling, libFuzzer's meaning
		{[]string{"-seed", "7", "FuzzA", corpus}, 7},
		{[]string{"-seed=7", "FuzzA", corpus}, 7},
		{[]string{"-runs=100", "FuzzA"}, 1}, // gfz mode
	} {
		cfg, code := parseArgs(testInfo, c.args, &out, &errb)
		if code != -1 || cfg.run.Seed != c.want {
			t.Errorf("%q: code %d, seed %d; want %d (%s)", c.args, code, cfg.run.Seed, c.want, errb.String())
		}
	}
}

// TestLibFuzzerTargetByExeInChildren: a target chosen by the executable's
// name (P_T) is passed on to the worker and merge processes, which are
// started as os.Executable() and so may not carry that name: run through a
// wrapper script P_T that executes P_T.bin (as the recorded ClusterFuzzLite
// run did), the workers of a binary with several targets refused to start
// ("this binary has 2 fuzz targets").
func TestLibFuzzerTargetByExeInChildren(t *testing.T) {
	corpus := t.TempDir()
	oldArgs := os.Args
	t.Cleanup(func() { os.Args = oldArgs })
	var out, errb bytes.Buffer

	os.Args = []string{"/out/lfz_FuzzB", "-timeout=25", corpus}
	cfg, code := parseArgs(testInfo, os.Args[1:], &out, &errb)
	if code != -1 || cfg.run.Target != "FuzzB" {
		t.Fatalf("by the executable's name: code %d: %s", code, errb.String())
	}
	child := append(cfg.lfChildBase(), "-workdir="+t.TempDir())

	os.Args = append([]string{"/out/lfz_FuzzB.bin"}, child...)
	cfg, code = parseArgs(testInfo, child, &out, &errb)
	if code != -1 || cfg.run.Target != "FuzzB" {
		t.Fatalf("child %q: code %d: %s", child, code, errb.String())
	}

	// Without a libFuzzer argument too (no arguments, -runs=4: gfz's
	// command line), and its workers are told the target.
	for _, args := range [][]string{{}, {"-runs=4", "-seed=3"}} {
		os.Args = append([]string{"/out/lfz_FuzzB"}, args...)
		cfg, code = parseArgs(testInfo, os.Args[1:], &out, &errb)
		if code != -1 || cfg.run.Target != "FuzzB" || cfg.lf != nil || !reflect.DeepEqual(cfg.childArgs, append(args, "FuzzB")) {
			t.Fatalf("%q by the executable's name: code %d, config %+v: %s", args, code, cfg, errb.String())
		}
	}

	// A target named on the command line is not passed twice, and may
	// stand before the flags, as libFuzzer allows.
	os.Args = []string{"/out/fuzzer", "FuzzA", corpus, "-max_total_time=5"}
	cfg, code = parseArgs(testInfo, os.Args[1:], &out, &errb)
	if code != -1 || cfg.run.Target != "FuzzA" || cfg.run.Time != 5*time.Second {
		t.Fatalf("target before the flags: code %d: %s", code, errb.String())
	}
	if got := cfg.lfChildBase(); !reflect.DeepEqual(got, os.Args[1:]) {
		t.Errorf("child arguments %q, want %q", got, os.Args[1:])
	}
}

// TestGoCrashReport: the Go runtime's report at the end of a -repro
// child's stderr is found after what the target printed, so that a
// reproduced failure's block after the ERROR line has its stacks.
func TestGoCrashReport(t *testing.T) {
	tail := "target output\npanic: not this line, no goroutines follow\nmore\nSIGQUIT: quit\nPC=0x1 m=0\n\ngoroutine 8 [runnable]:\nexample.com/p.Spin()\n\t/src/p/p.go:32 +0x1\n"
	if got := goCrashReport(tail); !strings.HasPrefix(got, "SIGQUIT: quit\n") || !strings.Contains(got, "goroutine 8 [runnable]:") {
		t.Errorf("goCrashReport = %q", got)
	}
	// An earlier input's failure block in the same child, then the
	// death's: the death's.
	two := "panic: first\n\ngoroutine 1 [running]:\nexample.com/p.A()\n\nfatal error: concurrent map writes\n\ngoroutine 5 [running]:\nexample.com/p.B()\n"
	if got := goCrashReport(two); !strings.HasPrefix(got, "fatal error: concurrent map writes") {
		t.Errorf("goCrashReport = %q, want the last report", got)
	}
	if got := goCrashReport("exit status 3\n"); got != "" {
		t.Errorf("no Go report: %q", got)
	}
}
