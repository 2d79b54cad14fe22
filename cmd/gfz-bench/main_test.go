package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/bench"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-contenders", "gfz-zest,afl"},
		{"-target", "nodir"},
		{"extra"},
		{"-nosuchflag"},
		{"-bugs", "testdata/bugs"}, // no -results
		{"-bugs", "testdata/bugs", "-results", "x.jsonl", "-contenders", "zest,afl"},
		{"-bugs", "testdata/bugs", "-results", "x.jsonl", "-plot-format", "gif"},
		{"-target-report", "x.jsonl", "-rank", "x.jsonl"},
		{"-bugs", "testdata/bugs", "-rank", "x.jsonl"},
		{"-target-report", "x.jsonl", "-results", "y.jsonl"},
	} {
		var out, errs strings.Builder
		if code := run(args, &out, &errs); code != 2 {
			t.Errorf("run(%q) = %d, want 2 (stderr %q)", args, code, errs.String())
		}
	}
}

// TestBugReport renders saved results without running anything.
func TestBugReport(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "runs.jsonl")
	line := `{"Bug":"b","Contender":"gfz-zest","Rep":0,"BudgetS":10,"Found":true,"TimeToBugS":1.5,"Reached":true,"TimeToReachS":1,"Execs":100,"TotalStmts":50,"CoveredStmts":20,"Coverage":[{"T":0,"Stmts":0},{"T":10,"Stmts":20}]}` + "\n"
	if err := os.WriteFile(results, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	if code := run([]string{"-bug-report", results, "-plots", filepath.Join(dir, "plots")}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "| `b` | gfz-zest | 1/1 | 1.50s |") {
		t.Errorf("report:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "plots", "b.svg")); err != nil {
		t.Error(err)
	}
}

// writeResults writes runs (BugRun or bench.Result values) as a results
// file: one JSON line each.
func writeResults(t *testing.T, path string, runs ...any) {
	t.Helper()
	var b []byte
	for _, r := range runs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, line...), '\n')
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// targetRun is a target-mode run of c covering cov statements of
// example.com/p's 40.
func targetRun(c string, rep, cov int) bench.Result {
	return bench.Result{Target: "p.FuzzP", Contender: c, Rep: rep, ExecsPerSec: 100, ValidPct: -1, FoundExec: -1, CorpusValidPct: -1,
		Covered: map[string]int{"example.com/p": cov}, TimeS: 10, Measured: []string{"example.com/p"},
		Totals: map[string]int{"example.com/p": 40}, Start: time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)}
}

// TestTargetReport renders saved target-mode runs without running
// anything, the bug-mode runs of the same files left out.
func TestTargetReport(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	writeResults(t, a, targetRun("gfz-zest", 0, 30), targetRun("native", 0, 10),
		bench.BugRun{Bug: "b", Contender: "gfz-zest", BudgetS: 10, Found: true, TimeToBugS: 1})
	writeResults(t, b, targetRun("gfz-zest", 1, 32), targetRun("native", 1, 12))
	var out, errs strings.Builder
	if code := run([]string{"-target-report", a + "," + b}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{
		"(4 runs, started from 2026-11-28 06:00 UTC to 2026-11-28 06:00 UTC)",
		"2 runs per target and contender, time budget 10s, one worker each.",
		"| contender | example.com/p (of 40) | corpus size | corpus valid % |",
		"| gfz-zest | 31 (30–32) |",
		"| native | 11 (10–12) |",
		"| p.FuzzP | gfz-zest (31) | native | 11 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	// A file without target-mode runs is an error.
	bugs := filepath.Join(dir, "bugs.jsonl")
	writeResults(t, bugs, bench.BugRun{Bug: "b", Contender: "gfz-zest", BudgetS: 10})
	errs.Reset()
	if code := run([]string{"-target-report", bugs}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "no target-mode runs") {
		t.Errorf("bug-mode file: exit %d, stderr %q", code, errs.String())
	}
}

// TestRank ranks over a bug-mode file and a target-mode file together:
// gfz-zest first on the bug (1 s against a miss) and on the target (30
// statements against 10): mean rank 1, native 2; go-fuzz, on the bug
// alone, is left out.
func TestRank(t *testing.T) {
	dir := t.TempDir()
	bugs, targets := filepath.Join(dir, "bugs.jsonl"), filepath.Join(dir, "targets.jsonl")
	writeResults(t, bugs,
		bench.BugRun{Bug: "b", Contender: "gfz-zest", BudgetS: 10, Found: true, TimeToBugS: 1},
		bench.BugRun{Bug: "b", Contender: "native", BudgetS: 10},
		bench.BugRun{Bug: "b", Contender: "go-fuzz", BudgetS: 10, Found: true, TimeToBugS: 2})
	writeResults(t, targets, targetRun("gfz-zest", 0, 30), targetRun("native", 0, 10))
	out := filepath.Join(dir, "rank.md")
	var stdout, errs strings.Builder
	if code := run([]string{"-rank", bugs + "," + targets, "-o", out}, &stdout, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| gfz-zest | 1.00 | 2 of 2 |",
		"| native | 2.00 | 0 of 2 |",
		"| bug `b` | 1 (1.00s, 1/1) | 2 (> 10s, 0/1) |",
		"| target p.FuzzP | 1 (30) | 2 (10) |",
		"Left out of the ranking, without a score on every benchmark: go-fuzz (no score on target p.FuzzP).",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("ranking lacks %q:\n%s", want, md)
		}
	}
}

// TestTargetResults: target mode with -results whose file holds every run
// of the configuration runs nothing (the target's directory does not
// exist, so building it would fail) and prints the report of the file.
func TestTargetResults(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "runs.jsonl")
	writeResults(t, results, targetRun("gfz-zest", 0, 30), targetRun("native", 0, 10))
	var out, errs strings.Builder
	args := []string{"-target", filepath.Join(dir, "p") + ":FuzzP", "-contenders", "gfz-zest,native", "-reps", "1", "-time", "10s",
		"-results", results, "-work", filepath.Join(dir, "work")}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "| p.FuzzP | gfz-zest (30) | native | 10 |") {
		t.Errorf("report:\n%s", out.String())
	}
}
