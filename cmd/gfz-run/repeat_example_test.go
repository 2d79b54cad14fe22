package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/build"
)

// TestLRUExample: the fuzz binary of the stateful example
// (testdata/examples/lru, a T.Repeat test) finds its planted bug with a
// fixed seed and execution budget, and the failure report and -repro show
// the sequence of steps with the values each drew.
func TestLRUExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes the lru example")
	}
	const budget = 30000 // zest found it at execution 493 when this was written
	t.Chdir("../..")
	dir := t.TempDir()
	var errb bytes.Buffer
	res, err := build.Build(context.Background(), build.Options{
		Patterns: []string{"./testdata/examples/lru"}, Output: filepath.Join(dir, "lru.gfz"),
		Stdout: &errb, Stderr: &errb,
	})
	if err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	bin := res.Binaries[0].Output
	wd := filepath.Join(dir, "work")
	cmd := exec.Command(bin, "-workers", "1", "-runs", strconv.Itoa(budget), "-seed", "1", "-engine", "zest", "-workdir", wd, "FuzzCache")
	cmd.Dir = filepath.Join("testdata", "examples", "lru")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("fuzz binary: %v, want exit status 1 (bug found within %d executions)\n%s", err, budget, out)
	}
	reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*.txt"))
	if len(reports) != 1 {
		t.Fatalf("%d failure reports, want 1", len(reports))
	}
	rep, err := os.ReadFile(reports[0])
	if err != nil {
		t.Fatal(err)
	}
	// The steps, numbered from 1, each followed by its indented values.
	steps := regexp.MustCompile(`(?m)^\tstep 1: (Put|Get|Delete)\n(\t\tkey = \d+\n)(\t\tval = \d+\n)?(\tstep 2: )`)
	if !steps.Match(rep) || !strings.Contains(string(rep), "keys [") {
		t.Errorf("report lacks the step sequence or the message:\n%s", rep)
	}
	input := strings.TrimSuffix(reports[0], ".txt") + ".input"
	repro := exec.Command(bin, "-repro", input, "FuzzCache")
	repro.Dir = cmd.Dir
	b, err := repro.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("repro: %v, want exit status 1\n%s", err, b)
	}
	if !steps.Match(b) {
		t.Errorf("repro output lacks the step sequence:\n%s", b)
	}
}
