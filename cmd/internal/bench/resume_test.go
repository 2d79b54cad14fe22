package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRunSkipsSavedRuns: with every run of the configuration already in
// the results file, Run runs nothing and builds nothing (the target's
// directory does not exist: preparing it fails), and reports the runs of
// the file for its targets, contenders and budget alone. A failed run in
// the file is not done: Run then prepares the target to run it again.
func TestRunSkipsSavedRuns(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "runs.jsonl")
	s := &runStore{path: results}
	var mine []Result
	for rep := range 2 {
		for i, c := range []string{GfzZest, Native} {
			r := fakeResult("missing.FuzzP", c, rep, 10*(i+1)+rep)
			mine = append(mine, r)
			if err := s.add(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	otherBudget := fakeResult("missing.FuzzP", Native, 0, 99)
	otherBudget.TimeS = 20
	otherTarget := fakeResult("other.FuzzP", Native, 0, 99)
	otherContender := fakeResult("missing.FuzzP", GfzRandom, 0, 99)
	for _, r := range []Result{otherBudget, otherTarget, otherContender} {
		if err := s.add(r); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{
		Targets:    []Target{{Dir: filepath.Join(dir, "missing"), Name: "FuzzP"}},
		Contenders: []string{GfzZest, Native},
		Reps:       2,
		Time:       10 * time.Second,
		Work:       filepath.Join(dir, "work"),
		Results:    results,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run with every run saved: %v", err)
	}
	if len(rep.Results) != len(mine) || !slices.EqualFunc(rep.Results, mine, func(x, y Result) bool { return targetKey(x) == targetKey(y) }) {
		t.Errorf("report of %d runs, want the 4 of the configuration: %+v", len(rep.Results), rep.Results)
	}
	var b strings.Builder
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Results files: `" + results + "` (4 runs, started from 2026-11-28 06:10 UTC to 2026-11-28 06:11 UTC). Machine: test machine.",
		"2 runs per target and contender, time budget 10s, one worker each.",
		"| contender | example.com/p (of 200) | corpus size | corpus valid % |",
		"| gfz-zest | 10 (10–11) | 3 (3–3) | 50.0 (50.0–50.0) |",
		"| native | 20 (20–21) |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}

	failed := fakeResult("missing.FuzzP", Native, 1, 0)
	failed.Err = "no executions counted"
	if err := s.add(failed); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "missing.FuzzP") {
		t.Errorf("Run with a failed run in the file: err = %v, want the target's preparation to fail", err)
	}
}

// TestRunAllResumes: runAll runs exactly the runs not in the results file
// (a failed one included), in the alternating order, and saves each one
// as soon as it ends, its corpus replayed, with its budget and measured
// packages; a second pass runs nothing; an interrupted run is not saved.
func TestRunAllResumes(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "runs.jsonl")
	s := &runStore{path: results}
	cfg := Config{Contenders: []string{GfzZest, Native, GoFuzz}, Reps: 2, Time: 10 * time.Second, Runs: 5000, Results: results,
		Command: "gfz-bench test", Work: filepath.Join(dir, "work")}
	// Every run's corpus: two inputs, which the replay counts (the
	// prepared targets have no coverage binary, so it stops there).
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"in1", "in2"} {
		if err := os.WriteFile(filepath.Join(corpus, f), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg.defaults()
	preps := []*prepared{
		{t: Target{Dir: "/x/a", Name: "FuzzA"}, coverPkg: []string{"example.com/a"}},
		{t: Target{Dir: "/x/b", Name: "FuzzB"}, coverPkg: []string{"example.com/b", "go/parser"}},
	}
	saved := func(target, c string, rep int) Result {
		r := fakeResult(target, c, rep, 1)
		r.TimeS, r.Runs = 10, 5000
		return r
	}
	failed := saved("b.FuzzB", GfzZest, 1)
	failed.Err = "crashed"
	otherBudget := saved("a.FuzzA", Native, 1)
	otherBudget.Runs = 0
	for _, r := range []Result{saved("a.FuzzA", GfzZest, 0), saved("b.FuzzB", Native, 0), failed, otherBudget} {
		if err := s.add(r); err != nil {
			t.Fatal(err)
		}
	}
	lines := func() int {
		b, err := os.ReadFile(results)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), "\n")
	}
	pass := func(ctx context.Context, onRun func(n int)) ([]string, error) {
		done, err := s.load()
		if err != nil {
			t.Fatal(err)
		}
		rep := &Report{Machine: "m", Unavailable: map[string]string{GoFuzz + " b.FuzzB": "no go-fuzz"}, Totals: map[string]int{"example.com/a": 7, "go/parser": 9}}
		r := &runner{cfg: cfg, rep: rep}
		var ran []string
		before := lines()
		r.do = func(ctx context.Context, p *prepared, c string, i int) Result {
			if n := lines(); n != before+len(ran) {
				t.Errorf("run %d starts with %d lines in the file, want %d: every run saved as it ends", len(ran)+1, n, before+len(ran))
			}
			ran = append(ran, fmt.Sprintf("%s %s %d", p.t, c, i))
			if onRun != nil {
				onRun(len(ran))
			}
			return Result{Target: p.t.String(), Contender: c, Rep: i, ValidPct: -1, FoundExec: -1, CorpusValidPct: -1, Execs: 10, CorpusDir: corpus}
		}
		err = r.runAll(ctx, preps, done, s)
		return ran, err
	}
	ran, err := pass(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// Repetition 1 starts with gfz-zest; go-fuzz is unavailable on b.
		"a.FuzzA native 0", "a.FuzzA go-fuzz 0", "b.FuzzB gfz-zest 0",
		// Repetition 2 starts with native; the failed run is run again.
		"a.FuzzA native 1", "a.FuzzA go-fuzz 1", "a.FuzzA gfz-zest 1", "b.FuzzB native 1", "b.FuzzB gfz-zest 1",
	}
	if !slices.Equal(ran, want) {
		t.Errorf("ran\n%q\nwant\n%q", ran, want)
	}
	all, err := ReadTargetResults(results)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 11 { // 4 saved before (the failed one replaced), 8 new
		t.Errorf("%d runs in the file, want 11", len(all))
	}
	last := all[len(all)-1] // b.FuzzB native 1, the last new line
	if last.Target != "b.FuzzB" || last.Contender != Native || last.TimeS != 10 || last.Runs != 5000 ||
		!slices.Equal(last.Measured, []string{"example.com/b", "go/parser"}) || len(last.Totals) != 1 || last.Totals["go/parser"] != 9 ||
		last.Machine != "m" || last.Command != "gfz-bench test" || last.Start.IsZero() || last.CorpusSize != 2 {
		t.Errorf("saved run %+v: want its corpus replayed (2 inputs), its budget, measured packages and their totals, and the session", last)
	}

	if ran, err := pass(context.Background(), nil); err != nil || len(ran) != 0 {
		t.Errorf("second pass ran %q (err %v), want nothing", ran, err)
	}

	// Interrupted during its second run: the first is saved, the second
	// not.
	if err := os.Remove(results); err != nil {
		t.Fatal(err)
	}
	if err := s.add(saved("x.FuzzX", Native, 0)); err != nil { // the file must exist for lines()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran, err = pass(ctx, func(n int) {
		if n == 2 {
			cancel()
		}
	})
	if err == nil || !strings.Contains(err.Error(), "interrupted") || len(ran) != 2 {
		t.Errorf("interrupted pass: ran %q, err %v", ran, err)
	}
	if n := lines(); n != 2 {
		t.Errorf("%d lines after the interruption, want 2 (the earlier line and the first run)", n)
	}
}
