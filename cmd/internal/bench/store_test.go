package bench

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeResult is a finished target-mode run as Run saves it with a results
// file: budget 10 s, coverage cov of example.com/p's 200 statements.
func fakeResult(target, c string, rep int, cov int) Result {
	return Result{Target: target, Contender: c, Rep: rep, Execs: 1000, ExecsPerSec: 100, ValidPct: -1, FoundExec: -1,
		CorpusSize: 3, CorpusValidPct: 50, Covered: map[string]int{"example.com/p": cov},
		TimeS: 10, Measured: []string{"example.com/p"}, Totals: map[string]int{"example.com/p": 200},
		Start: time.Date(2026, 11, 28, 6, 10+rep, 0, 0, time.UTC), Machine: "test machine", Command: "gfz-bench -results r.jsonl"}
}

// TestTargetStore: target-mode runs saved in a results file read back
// whole; the key is target, contender, repetition, time and execution
// budget; a later line with the key of an earlier one replaces it; failed
// runs are not done; bug-mode and target-mode lines are told apart.
func TestTargetStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	s := &runStore{path: path}
	done, err := s.load()
	if err != nil || len(done) != 0 {
		t.Fatalf("load of a missing file = %v, %v", done, err)
	}
	a := fakeResult("p.FuzzP", GfzZest, 0, 20)
	a.ExecsPerSec = math.NaN() // not measured: must still be saved
	a.Engine = map[string]float64{"hill_b0": 12, "hill_b1": math.Inf(1)}
	b := fakeResult("p.FuzzP", Native, 0, 10)
	runs := fakeResult("p.FuzzP", Native, 0, 11) // another execution budget: another run
	runs.Runs = 5000
	long := fakeResult("p.FuzzP", Native, 0, 12) // another time budget
	long.TimeS = 60
	kept := fakeResult("p.FuzzP", Native, 0, 13) // kept going past a failure
	kept.KeepGoing = true
	failed := fakeResult("p.FuzzP", GfzZest, 1, 0)
	failed.Err = "no executions counted"
	bug := fakeRun("b1", GfzZest, 0, true, 3, 10)
	for _, r := range []any{a, b, runs, long, kept, failed, bug} {
		if err := s.add(r); err != nil {
			t.Fatal(err)
		}
	}
	done, err = s.load()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Result{a, b, runs, long, kept} {
		if !done[targetKey(r)] {
			t.Errorf("%s rep %d (time %g, runs %d) not done", r.Contender, r.Rep, r.TimeS, r.Runs)
		}
	}
	if done[targetKey(failed)] || !done[bugKey(bug)] || len(done) != 6 {
		t.Errorf("done = %v: want the 5 finished target runs and the bug run, not the failed one", done)
	}

	bugs, got, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) != 1 || bugs[0].Bug != "b1" || len(got) != 6 {
		t.Fatalf("read %d bug runs, %d target runs: want 1 and 6", len(bugs), len(got))
	}
	if !math.IsNaN(got[0].ExecsPerSec) || !reflect.DeepEqual(got[0].Engine, map[string]float64{"hill_b0": 12}) {
		t.Errorf("NaN rate and infinite engine value read back as %v, %v; want NaN and the finite value alone", got[0].ExecsPerSec, got[0].Engine)
	}
	got[0].ExecsPerSec, got[0].Engine = a.ExecsPerSec, a.Engine
	if want := []Result{a, b, runs, long, kept, failed}; !reflect.DeepEqual(got[1:], want[1:]) {
		t.Errorf("read back\n%+v\nwant\n%+v", got[1:], want[1:])
	}

	// The run again, successful: its line replaces the failed one.
	again := fakeResult("p.FuzzP", GfzZest, 1, 30)
	if err := s.add(again); err != nil {
		t.Fatal(err)
	}
	got, err = ReadTargetResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 || got[5].Err != "" || got[5].Covered["example.com/p"] != 30 {
		t.Errorf("after the run again: %d runs, last %+v", len(got), got[len(got)-1])
	}
	if bugs, _ := ReadBugRuns(path); len(bugs) != 1 {
		t.Errorf("ReadBugRuns: %d runs, want the bug run alone", len(bugs))
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(m) != 0 {
		t.Errorf("temporary files left: %q", m)
	}

	// A line of neither kind is an error naming its file and line.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"Target\":\"p.FuzzP\"}\n\n{\"Contender\":\"native\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTargetResults(bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl line 3") {
		t.Errorf("line of neither kind: err = %v, want one naming line 3", err)
	}
}

// TestReportJSONCompatible: report.json keeps ExecsPerSec as a string
// (it may be NaN), as before Result encoded itself, and reads back.
func TestReportJSONCompatible(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report.json")
	rep := &Report{Results: []Result{{Target: "p.FuzzP", Contender: Native, ExecsPerSec: math.NaN()}, {Target: "p.FuzzP", Contender: GfzZest, ExecsPerSec: 2.5}}}
	if err := rep.WriteJSON(file); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), `"ExecsPerSec": "NaN"`) || !strings.Contains(string(b), `"ExecsPerSec": "2.5"`) {
		t.Errorf("report.json:\n%s", b)
	}
	again, err := ReadJSON(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Results) != 2 || !math.IsNaN(again.Results[0].ExecsPerSec) || again.Results[1].ExecsPerSec != 2.5 {
		t.Errorf("read back %+v", again.Results)
	}
}
