package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/build"
)

// TestMagicCmpFindsZestDoesNot is the cmp domain's acceptance test on the
// planted example testdata/examples/magic (a 4-byte magic number, then a
// keyword): with a fixed execution budget and fixed seeds, -feedback cmp
// on a gfz-build -cmp binary finds the bug (under zest, the engine
// -feedback without -engine runs), and plain zest (coverage only) does not
// pass the magic number. A binary built without -cmp
// warns when run with -feedback cmp.
func TestMagicCmpFindsZestDoesNot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the magic example twice and fuzzes it")
	}
	const budget = 50000
	t.Chdir("../..")
	dir := t.TempDir()
	bins := map[bool]string{}
	for _, cmp := range []bool{false, true} {
		var errb bytes.Buffer
		res, err := build.Build(context.Background(), build.Options{
			Patterns: []string{"./testdata/examples/magic"}, Output: filepath.Join(dir, "magic"+strconv.FormatBool(cmp)+".gfz"),
			Cmp: cmp, Stdout: &errb, Stderr: &errb,
		})
		if err != nil {
			t.Fatalf("build (cmp %v): %v\n%s", cmp, err, errb.String())
		}
		bins[cmp] = res.Binaries[0].Output
	}
	run := func(bin, wd string, seed int, args ...string) (found int, valid bool, stderr string) {
		args = append([]string{"-workers", "1", "-runs", strconv.Itoa(budget), "-seed", strconv.Itoa(seed), "-workdir", wd}, args...)
		cmd := exec.Command(bin, append(args, "FuzzHandle")...)
		cmd.Dir = filepath.Join("testdata", "examples", "magic")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*.txt"))
			if len(reports) != 1 {
				t.Fatalf("%s: %d failure reports, want 1\n%s", wd, len(reports), out)
			}
			rep, _ := os.ReadFile(reports[0])
			m := foundAt.FindSubmatch(rep)
			if m == nil || !strings.Contains(string(rep), "index out of range [4]") {
				t.Fatalf("%s: unexpected report:\n%s", wd, rep)
			}
			found, _ = strconv.Atoi(string(m[1]))
		} else if err != nil {
			t.Fatalf("%s: %v\n%s", wd, err, out)
		}
		return found, !strings.Contains(string(out), "valid 0.0%"), string(out)
	}
	for _, seed := range []int{1, 2} {
		n, _, out := run(bins[true], filepath.Join(dir, "cmp"+strconv.Itoa(seed)), seed, "-feedback", "cmp")
		if n == 0 {
			t.Errorf("-feedback cmp, seed %d: bug not found in %d executions\n%s", seed, budget, out)
		}
		if strings.Contains(out, "WARNING") {
			t.Errorf("-feedback cmp on a -cmp binary warned:\n%s", out)
		}
		n, valid, out := run(bins[false], filepath.Join(dir, "zest"+strconv.Itoa(seed)), seed, "-engine", "zest")
		if n != 0 || valid {
			t.Errorf("zest, seed %d: passed the magic number (found at %d)\n%s", seed, n, out)
		}
	}
	// The binary without comparison probes says how to get them.
	_, _, out := run(bins[false], filepath.Join(dir, "warn"), 1, "-runs", "10", "-feedback", "cmp")
	if !strings.Contains(out, "WARNING: -feedback cmp: this binary has no comparison probes") || !strings.Contains(out, "gfz-build -cmp") {
		t.Errorf("no warning for -feedback cmp without comparison probes:\n%s", out)
	}
}

// gfz-run -feedback forwards the domains to the fuzz binaries, and cmp
// also builds them with comparison probes; -feedback none is forwarded
// too; another name is a usage error.
func TestRunFeedbackFlag(t *testing.T) {
	var errb bytes.Buffer
	o, code := parse([]string{"-feedback", "cmp,perf", "./x"}, &errb)
	if code != -1 || !o.build.Cmp || !strings.Contains(strings.Join(o.run, " "), "-feedback cmp,perf") {
		t.Errorf("code %d, options %+v, stderr %q", code, o, errb.String())
	}
	if o, _ := parse([]string{"./x"}, &errb); o.build.Cmp || strings.Contains(strings.Join(o.run, " "), "-feedback") {
		t.Errorf("default: %+v", o)
	}
	// none is passed on, so that native targets drop their default (cmp).
	if o, _ := parse([]string{"-feedback", "none", "./x"}, &errb); o.build.Cmp || !strings.Contains(strings.Join(o.run, " "), "-feedback none") {
		t.Errorf("-feedback none: %+v", o)
	}
	errb.Reset()
	if _, code := parse([]string{"-feedback", "fast", "./x"}, &errb); code != 2 || !strings.Contains(errb.String(), `unknown feedback "fast"`) {
		t.Errorf("code %d, stderr %q", code, errb.String())
	}
}
