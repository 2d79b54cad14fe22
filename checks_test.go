package gfz_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checksFixture is added to a copy of testdata/apitest by the tests below.
const checksFixture = `package apitest

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// FuzzAnyRandom fails on every input but its seed (eight zero bytes).
func FuzzAnyRandom(f *testing.F) {
	f.Add(make([]byte, 8))
	gfz.Fuzz(f, func(t *gfz.T) {
		if x := gen.Int().Named("x").Draw(t); x != 0 {
			t.Fatalf("x is %d", x)
		}
	})
}

// FuzzQueue: its invariant fails once the queue holds two values; the
// seed pushes 7 and 8.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{3, 1, 7, 1, 8})
	gfz.Fuzz(f, func(t *gfz.T) {
		var q []int
		t.Repeat(map[string]func(*gfz.T){
			"Push": func(t *gfz.T) { q = append(q, gen.IntRange(0, 99).Named("v").Draw(t)) },
			"Pop":  func(t *gfz.T) { t.Assume(len(q) > 0); q = q[1:] },
			"": func(t *gfz.T) {
				if len(q) == 2 {
					t.Fatalf("queue holds %v", q)
				}
			},
		})
	})
}

// FuzzDiff: its two implementations differ on every input.
func FuzzDiff(f *testing.F) {
	f.Add([]byte{1})
	gfz.Fuzz(f, func(t *gfz.T) {
		t.DiffWithin("sum", 1, 2, 0.5) // the line reported
	})
}
`

// checksEnviron is the environment without GFZ_CHECKS and GFZ_SEED (a CI
// may set them) plus extra.
func checksEnviron(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GFZ_CHECKS=") && !strings.HasPrefix(kv, "GFZ_SEED=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// runChecksBin runs the compiled test binary in dir with exactly the
// environment env and returns its combined output and exit code.
func runChecksBin(t *testing.T, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "api.test"), args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("api.test %q: %v", args, err)
	}
	return string(out), 0
}

var (
	checkValue = regexp.MustCompile(`x = -?\d+`)
	checkFile  = regexp.MustCompile(`save these two lines as (testdata/fuzz/FuzzAnyRandom/gfz-check-[0-9a-f]+):\n\s*(go test fuzz v1)\n\s*(\[\]byte\(.*\))\n`)
)

// TestChecksUnderGoTest: -gfz.checks=N (or GFZ_CHECKS) runs N random inputs
// after the seeds, reproducibly from -gfz.seed (or GFZ_SEED), and reports a
// failing one with its values and a testdata/fuzz file that replays it;
// without them, nothing random runs.
func TestChecksUnderGoTest(t *testing.T) {
	dir := copyFixture(t)
	if err := os.WriteFile(filepath.Join(dir, "checks_test.go"), []byte(checksFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := run(t, dir, nil, "go", "test", "-c", "-o", "api.test", ".")
	if code != 0 {
		t.Fatalf("go test -c: exit %d\n%s", code, out)
	}
	env := checksEnviron()

	// Not asked: the seed passes and nothing random runs.
	out, code = runChecksBin(t, dir, env, "-test.run=^FuzzAnyRandom$", "-test.v")
	wantOutput(t, "no -gfz.checks", out, code, 0, "--- PASS: FuzzAnyRandom")
	if strings.Contains(out, "random check") {
		t.Errorf("random checks ran without -gfz.checks:\n%s", out)
	}

	// Asked: the first random input fails, with its values and its file.
	out, code = runChecksBin(t, dir, env, "-test.run=^FuzzAnyRandom$", "-gfz.checks=5", "-gfz.seed=7")
	wantOutput(t, "-gfz.checks=5 -gfz.seed=7", out, code, 1,
		"random check 1 of 5 failed (seed 7)", "x is ", "-gfz.checks=5 -gfz.seed=7")
	value := checkValue.FindString(out)
	file := checkFile.FindStringSubmatch(out)
	if value == "" || file == nil {
		t.Fatalf("report lacks the value or the testdata file:\n%s", out)
	}

	// The same seed gives the same input, from the flags or the environment;
	// another seed another.
	out, code = runChecksBin(t, dir, env, "-test.run=^FuzzAnyRandom$", "-gfz.checks=5", "-gfz.seed=7")
	if got := checkValue.FindString(out); code != 1 || got != value {
		t.Errorf("seed 7 again: exit %d, value %q, want %q", code, got, value)
	}
	out, code = runChecksBin(t, dir, checksEnviron("GFZ_CHECKS=5", "GFZ_SEED=7"), "-test.run=^FuzzAnyRandom$")
	if got := checkValue.FindString(out); code != 1 || got != value {
		t.Errorf("GFZ_CHECKS=5 GFZ_SEED=7: exit %d, value %q, want %q\n%s", code, got, value, out)
	}
	out, code = runChecksBin(t, dir, env, "-test.run=^FuzzAnyRandom$", "-gfz.checks=5", "-gfz.seed=8")
	if got := checkValue.FindString(out); code != 1 || got == value || got == "" {
		t.Errorf("seed 8: exit %d, value %q, want another failure than seed 7's %q", code, got, value)
	}

	// The printed file, saved where it says, replays the failure under
	// plain go test.
	path := filepath.Join(dir, filepath.FromSlash(file[1]))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(file[2]+"\n"+file[3]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runChecksBin(t, dir, env, "-test.run=^FuzzAnyRandom$")
	wantOutput(t, "replaying the saved check", out, code, 1, filepath.Base(path), value)

	// A target that passes: the checks run, and say so in the log.
	out, code = runChecksBin(t, dir, env, "-test.run=^FuzzPass$", "-test.v", "-gfz.checks=20", "-gfz.seed=1")
	wantOutput(t, "FuzzPass -gfz.checks=20", out, code, 0, "20 random checks passed", "seed 1")

	// A bad setting is an error that names it.
	out, code = runChecksBin(t, dir, checksEnviron("GFZ_CHECKS=many"), "-test.run=^FuzzPass$")
	wantOutput(t, "GFZ_CHECKS=many", out, code, 1, `GFZ_CHECKS="many" is not a number`)
}

// TestChecksNotUnderFuzz: go test -fuzz ignores -gfz.checks.
func TestChecksNotUnderFuzz(t *testing.T) {
	dir := copyFixture(t)
	out, code := run(t, dir, checksEnviron(), "go", "test", "-v", "-run=^$", "-fuzz=^FuzzPass$", "-fuzztime=50x", "-parallel=1", ".", "-args", "-gfz.checks=5")
	wantOutput(t, "go test -fuzz -gfz.checks=5", out, code, 0, "PASS")
	if strings.Contains(out, "random check") {
		t.Errorf("random checks ran under -fuzz:\n%s", out)
	}
}

// TestDiffWithinLineUnderGoTest: under plain go test a failing DiffWithin
// is reported at the user's line, not at gfz's (DiffWithin is a helper).
func TestDiffWithinLineUnderGoTest(t *testing.T) {
	dir := copyFixture(t)
	if err := os.WriteFile(filepath.Join(dir, "checks_test.go"), []byte(checksFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(checksFixture[:strings.Index(checksFixture, "// the line reported")], "\n")
	out, code := run(t, dir, checksEnviron(), "go", "test", "-run=^FuzzDiff$", ".")
	want := fmt.Sprintf("checks_test.go:%d: sum: implementations differ", line)
	if code != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d; want 1 and %q:\n%s", code, want, out)
	}
}

// TestRepeatReportUnderGoTest: under plain go test a failing Repeat logs
// its steps, each with its values indented under it.
func TestRepeatReportUnderGoTest(t *testing.T) {
	dir := copyFixture(t)
	if err := os.WriteFile(filepath.Join(dir, "checks_test.go"), []byte(checksFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := run(t, dir, checksEnviron(), "go", "test", "-run=^FuzzQueue$", ".")
	steps := regexp.MustCompile(`step 1: Push\n\s*\tv = 7\n\s*step 2: Push\n\s*\tv = 8\n`)
	if code != 1 || !strings.Contains(out, "queue holds [7 8]") || !steps.MatchString(out) {
		t.Errorf("exit %d; want 1, the message and the steps with their values:\n%s", code, out)
	}
}
