//go:build go1.23

package gfz_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// The tests below run the fixture module testdata/apitest in the three
// modes. Each copies the module to a temporary directory (so that go test
// -fuzz and the fuzz binary never write into the source tree) and points
// its replace directive at this checkout.

// copyFixture copies testdata/apitest to a temporary directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "apitest")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(root, "testdata", "apitest"))); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("=> ../.."), []byte("=> "+root), 1)
	if err := os.WriteFile(mod, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs a command in dir and returns its combined output and exit code.
func run(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%s %q: %v", name, args, err)
		}
		code = ee.ExitCode()
	}
	return string(out), code
}

func writeInput(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, workdir.EncodeInput(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantOutput(t *testing.T, what, out string, code, wantCode int, subs ...string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("%s: exit %d, want %d; output:\n%s", what, code, wantCode, out)
		return
	}
	for _, s := range subs {
		if !strings.Contains(out, s) {
			t.Errorf("%s: output lacks %q:\n%s", what, s, out)
		}
	}
}

// TestModeGoTest: plain go test replays f.Add seeds and testdata/fuzz files.
func TestModeGoTest(t *testing.T) {
	dir := copyFixture(t)
	// {1, 7}: one element, 7: FuzzPanic's bug. {1, 2}: flag set, n == 2.
	writeInput(t, filepath.Join(dir, "testdata", "fuzz", "FuzzPanic", "crash"), []byte{1, 7})
	writeInput(t, filepath.Join(dir, "testdata", "fuzz", "FuzzFatal", "fatal"), []byte{1, 2})
	writeInput(t, filepath.Join(dir, "testdata", "fuzz", "FuzzFatal", "fine"), []byte{1, 3})

	out, code := run(t, dir, nil, "go", "test", "-v", "-run=^(FuzzPass|FuzzFatal)$", ".")
	wantOutput(t, "go test FuzzPass FuzzFatal", out, code, 1,
		"--- PASS: FuzzPass/seed#0", "sum=6", "--- PASS: FuzzPass/seed#1",
		"--- FAIL: FuzzFatal/fatal", "n is 2", "flag set and n == 2", "--- PASS: FuzzFatal/fine")
	out, code = run(t, dir, nil, "go", "test", "-run=^FuzzPanic$", ".")
	wantOutput(t, "go test FuzzPanic", out, code, 1, "FuzzPanic/crash", "index out of range [7] with length 1", "apitest.Pick")
}

// TestModeGoFuzz: go test -fuzz mutates the parameter bytes; a failure it
// finds becomes a regression test replayed by plain go test.
func TestModeGoFuzz(t *testing.T) {
	dir := copyFixture(t)
	out, code := run(t, dir, nil, "go", "test", "-run=^$", "-fuzz=^FuzzPass$", "-fuzztime=200x", "-parallel=2", ".")
	wantOutput(t, "go test -fuzz FuzzPass", out, code, 0, "PASS")

	// Go's fuzzer cannot be seeded: FuzzAnyChange fails on any mutation of
	// its seed, so the failure is found whatever the fuzzer's choices.
	out, code = run(t, dir, nil, "go", "test", "-run=^$", "-fuzz=^FuzzAnyChange$", "-fuzztime=5000x", "-parallel=2", ".")
	wantOutput(t, "go test -fuzz FuzzAnyChange", out, code, 1, "index out of range", "testdata/fuzz/FuzzAnyChange/")
	files, _ := filepath.Glob(filepath.Join(dir, "testdata", "fuzz", "FuzzAnyChange", "*"))
	if len(files) != 1 {
		t.Fatalf("go test -fuzz saved %v", files)
	}
	out, code = run(t, dir, nil, "go", "test", "-run=^FuzzAnyChange$", ".")
	wantOutput(t, "go test replaying the -fuzz finding", out, code, 1, "FuzzAnyChange/", "index out of range", "apitest.Pick")
}

// TestModeFuzzBinary builds the fixture as a fuzz binary the way gfz-build
// does (without instrumentation) and runs it.
func TestModeFuzzBinary(t *testing.T) {
	dir := copyFixture(t)
	bin := filepath.Join(dir, "api.gfz")
	info := "v=1&targets=FuzzPass,FuzzPanic,FuzzFatal,FuzzNoGfz,FuzzGoPanic&mapbits=16&probes=0"
	if out, code := run(t, dir, nil, "go", "test", "-c", "-o", bin, "-ldflags", "-X github.com/gfz-dev/gfz.buildInfo="+info, "."); code != 0 {
		t.Fatalf("go test -c: %s", out)
	}
	work := t.TempDir() // the binary runs here, away from the package's testdata
	// Default work directories go to gfz's cache: this test's.
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv(workdir.CacheEnv, cache)
	gfz := func(env []string, args ...string) (string, int) {
		return run(t, work, append([]string{workdir.CacheEnv + "=" + cache}, env...), bin, args...)
	}

	out, code := gfz(nil, "-list")
	wantOutput(t, "-list", out, code, 0, "FuzzPass\nFuzzPanic\nFuzzFatal\nFuzzNoGfz\nFuzzGoPanic\n")
	out, code = gfz(nil, "-h")
	wantOutput(t, "-h", out, code, 0, "-workdir", "-repro")
	out, code = gfz(nil)
	wantOutput(t, "no target", out, code, 2, "name one of")
	out, code = gfz(nil, "-bogus", "FuzzPass")
	wantOutput(t, "bad flag", out, code, 2, "-bogus")
	out, code = gfz(nil, "FuzzNope")
	wantOutput(t, "unknown target", out, code, 2, "unknown fuzz target")
	out, code = gfz(nil, "FuzzNoGfz")
	wantOutput(t, "target without gfz.Fuzz", out, code, 2, "must call gfz.Fuzz")
	// A panic before gfz.Fuzz is shown (the supervisor forwards only
	// gfz's lines of a worker's output).
	out, code = gfz([]string{"APITEST_PREPANIC=1"}, "FuzzNoGfz")
	wantOutput(t, "panic before gfz.Fuzz", out, code, 2, "what it printed:\n\tpanic: setup failed before gfz.Fuzz", "must call gfz.Fuzz")
	// A target that skips itself (f.Skip) passes, as under go test -fuzz:
	// nothing to fuzz is not a setup error.
	// gfz-run reads the line to show the target skipped
	// (lineWriter.skipped).
	out, code = gfz([]string{"APITEST_SKIP=1"}, "FuzzNoGfz")
	wantOutput(t, "f.Skip before gfz.Fuzz", out, code, 0, "gfz: fuzz target FuzzNoGfz skipped itself before fuzzing (f.Skip): apitest_test.go:", "APITEST_SKIP is set: nothing fuzzed")
	if err := os.WriteFile(filepath.Join(work, "blocker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = gfz(nil, "-runs", "10", "-workdir", "blocker/wd", "FuzzPass")
	wantOutput(t, "unusable workdir", out, code, 2, "blocker")

	// A passing run, with one more seed from testdata/fuzz in the working
	// directory; the default workdir is in gfz's cache ($GFZCACHE), keyed
	// by the working directory (this binary records no package
	// directory), never in the working directory, and the first status
	// line names it.
	writeInput(t, filepath.Join(work, "testdata", "fuzz", "FuzzPass", "extra"), []byte{5, 9, 9, 9, 9, 9})
	def := workdir.DefaultDir(work, "FuzzPass")
	out, code = gfz(nil, "-runs", "300", "-v", "FuzzPass")
	wantOutput(t, "FuzzPass", out, code, 0, "3 seed inputs", "execs 300", "gfz: FuzzPass: work directory "+def+" (the default")
	for _, p := range []string{"corpus", "failures", "plot_data", "stats"} {
		if _, err := os.Stat(filepath.Join(def, p)); err != nil {
			t.Errorf("workdir: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "gfzwork")); err == nil {
		t.Errorf("the run created gfzwork in its working directory")
	}
	// Without instrumentation the profile is empty, but it is written.
	out, code = gfz(nil, "-runs", "50", "-workdir", "wc", "-coverprofile", "c.out", "FuzzPass")
	wantOutput(t, "-coverprofile", out, code, 0)
	if prof, err := os.ReadFile(filepath.Join(work, "c.out")); err != nil || !strings.HasPrefix(string(prof), "mode: set\n") {
		t.Errorf("coverprofile %q, %v", prof, err)
	}
	// A run that ends before replaying its seeds and corpus says so, and
	// leaves the earlier run's profile as it was.
	if err := os.WriteFile(filepath.Join(work, "c.out"), []byte("mode: set\nearlier\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = gfz(nil, "-runs", "1", "-workdir", "wc", "-coverprofile", "c.out", "FuzzPass")
	wantOutput(t, "-runs 1 -coverprofile", out, code, 0, "ended before it had run all of its seeds and corpus entries", "c.out is left as an earlier run wrote it")
	if prof, _ := os.ReadFile(filepath.Join(work, "c.out")); string(prof) != "mode: set\nearlier\n" {
		t.Errorf("a partial run rewrote the profile: %q", prof)
	}
	if st, _ := os.ReadFile(filepath.Join(work, "wc", "stats")); !strings.Contains(string(st), "\npartial: 1\n") {
		t.Errorf("stats of a partial run lack partial: 1:\n%s", st)
	}
	for _, eng := range []string{"bytes", "random"} {
		out, code = gfz(nil, "-runs", "100", "-engine", eng, "-workdir", "wd-"+eng, "FuzzPass")
		wantOutput(t, "-engine "+eng, out, code, 0)
	}

	// A failing run, twice with the same seed: the same failure files.
	out, code = gfz(nil, "-runs", "300", "-workdir", "wp1", "FuzzPanic")
	wantOutput(t, "FuzzPanic", out, code, 1, "index out of range")
	gfz(nil, "-runs", "300", "-workdir", "wp2", "FuzzPanic")
	f1, _ := filepath.Glob(filepath.Join(work, "wp1", "failures", "*.input"))
	f2, _ := filepath.Glob(filepath.Join(work, "wp2", "failures", "*.input"))
	if len(f1) != 1 || len(f2) != 1 || filepath.Base(f1[0]) != filepath.Base(f2[0]) {
		t.Fatalf("failures of two runs with the same seed: %v, %v", f1, f2)
	}
	report, err := os.ReadFile(strings.TrimSuffix(f1[0], ".input") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(report, []byte("xs = []int{7")) {
		t.Errorf("report lacks the generated value:\n%s", report)
	}

	// -repro reproduces the saved failure byte for byte, with the same
	// signature as the report.
	data, err := workdir.ReadInputFile(f1[0])
	if err != nil {
		t.Fatal(err)
	}
	out, code = gfz(nil, "-repro", f1[0], "-v", "FuzzPanic")
	n := strconv.Itoa(len(data))
	wantOutput(t, "-repro", out, code, 1, "result: FAILURE", "consumed: "+n+" of "+n+" bytes", "xs = []int{7",
		"kind: panic: runtime error: index out of range [N] with length N", "apitest.Pick(...)")
	if sig := reportSignature(t, report); !strings.Contains(out, "signature:\n"+indentLines(sig)) {
		t.Errorf("repro signature differs from the report's %q:\n%s", sig, out)
	}

	// Several files: a passing one and the failing one.
	ok := filepath.Join(work, "ok.input")
	writeInput(t, ok, []byte{1, 3})
	out, code = gfz(nil, "-repro", ok, "FuzzPanic")
	wantOutput(t, "-repro passing input", out, code, 0, "result: VALID", "xs = []int{3}")
	out, code = gfz(nil, "-repro", ok, f1[0], "FuzzPanic")
	wantOutput(t, "-repro two inputs", out, code, 1, "result: VALID", "result: FAILURE")
	out, code = gfz(nil, "-repro", filepath.Join(work, "missing.input"), "FuzzPanic")
	wantOutput(t, "-repro missing file", out, code, 2, "missing.input")

	// t.Fatal through a helper, then a crash in a goroutine the target started.
	out, code = gfz(nil, "-runs", "300", "-workdir", "wf", "FuzzFatal")
	wantOutput(t, "FuzzFatal", out, code, 1, "(t.Fatal): apitest_test.go:45: n is 2")
	out, code = gfz([]string{"APITEST_GOPANIC=1"}, "-runs", "100", "-workdir", "wg", "FuzzGoPanic")
	wantOutput(t, "FuzzGoPanic", out, code, 1, "new failure (panic: boom in a goroutine)")
	if reports, _ := filepath.Glob(filepath.Join(work, "wg", "failures", "*.txt")); len(reports) != 1 {
		t.Errorf("FuzzGoPanic: %d failure reports, want 1 (deduplicated)", len(reports))
	}
}

// reportSignature extracts the quoted signature from an engine report.
func reportSignature(t *testing.T, report []byte) string {
	t.Helper()
	for _, line := range strings.Split(string(report), "\n") {
		if q, ok := strings.CutPrefix(line, "signature: "); ok {
			s, err := strconv.Unquote(q)
			if err != nil {
				t.Fatalf("signature line %q: %v", line, err)
			}
			return s
		}
	}
	t.Fatalf("no signature in report:\n%s", report)
	return ""
}

func indentLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	lines = slices.DeleteFunc(lines, func(l string) bool { return l == "" })
	for i := range lines {
		lines[i] = "\t" + lines[i]
	}
	return strings.Join(lines, "")
}
