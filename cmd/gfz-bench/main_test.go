package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
