package bench

import (
	"slices"
	"strings"
	"testing"
)

// TestResultsReport: the report of results files takes the measured
// packages, their statements, the contenders, machines, commands and
// budgets from the runs, and prints the coverage table (by stage) and
// the coverage ranking as the report of one Run does.
func TestResultsReport(t *testing.T) {
	measured := []string{"example.com/p", "go/parser", "go/types"}
	var rs []Result
	add := func(c string, rep, parser, types int, f func(*Result)) {
		r := fakeResult("p.FuzzP", c, rep, 1)
		r.Measured = measured
		r.Totals = map[string]int{"example.com/p": 10, "go/parser": 100, "go/types": 1000}
		r.Covered = map[string]int{"example.com/p": 1, "go/parser": parser, "go/types": types}
		if f != nil {
			f(&r)
		}
		rs = append(rs, r)
	}
	// In the order of the file: native first; the report orders the
	// contenders as AllContenders does.
	add(Native, 0, 5, 50, nil)
	add(Native, 1, 7, 70, func(r *Result) { r.Machine, r.Command = "other machine", "gfz-bench -reps 3" })
	add(GfzZest, 0, 10, 100, func(r *Result) { r.KeepGoing = true })
	add(GfzZest, 1, 20, 200, nil)
	add(GfzZest, 2, 30, 300, func(r *Result) { r.TimeS, r.Runs = 60, 5000 })
	add(Limit, 0, 0, 0, func(r *Result) { r.Covered, r.Measured, r.Totals = nil, nil, nil })
	add(GfzZest, 3, 0, 0, func(r *Result) { r.Err = "no executions counted" })
	rep := ResultsReport(rs, "a.jsonl", "b.jsonl")
	if want := []string{GfzZest, Native, Limit}; !slices.Equal(rep.Config.Contenders, want) {
		t.Errorf("contenders %q, want %q", rep.Config.Contenders, want)
	}
	var b strings.Builder
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Results files: `a.jsonl`, `b.jsonl` (7 runs, started from 2026-11-28 06:10 UTC to 2026-11-28 06:13 UTC). Machine: test machine; other machine.\n",
		"Commands: `gfz-bench -results r.jsonl`; `gfz-bench -reps 3`.\n",
		"1–3 runs per target and contender, time budget 10s, 1m0s, execution budget 5000 (not go-fuzz), one worker each.\n",
		"Keep going (1 of the 7 runs): ",
		"- p.FuzzP gfz-zest rep 4: no executions counted",
		"| contender | syntax (of 100) | semantic (of 1000) | example.com/p (of 10) | corpus size | corpus valid % |",
		"| gfz-zest | 20 (10–30) | 200 (100–300) | 1 (1–1) |",
		"| native | 6 (5–7) | 60 (50–70) | 1 (1–1) |",
		"### Ranking by coverage",
		"| gfz-zest | 1.00 | 1 of 1 | — |",
		"| p.FuzzP | gfz-zest (221) | native | 67 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| limit | n/a") || strings.Contains(out, "Run 0001") {
		t.Errorf("limit in the coverage table, or the header of a single run:\n%s", out)
	}
}

// TestRankAll ranks three contenders over two bugs and a target: on b1
// gfz-zest (median 2 s) < native (20 s) < gfz-random (no find); on b2
// gfz-random (1 s) first, then gfz-zest and native at the budget, gfz-zest
// ahead by one run found; on t1 gfz-zest and native tie at 110
// statements, gfz-random last. Mean ranks 1.5, 2.17, 2.33. go-fuzz ran b1
// alone and limit has no coverage on t1: left out. b3, found by nobody,
// is left out; so is t2, without any coverage.
func TestRankAll(t *testing.T) {
	var bugs []BugRun
	for rep := range 3 {
		bugs = append(bugs,
			fakeRun("b1", GfzZest, rep, true, float64(rep+1), 10),
			fakeRun("b1", Native, rep, true, float64(10*(rep+1)), 10),
			fakeRun("b1", GfzRandom, rep, false, 0, 10),
			fakeRun("b1", GoFuzz, rep, true, 1, 10),
			fakeRun("b2", GfzZest, rep, rep == 0, 10, 10),
			fakeRun("b2", Native, rep, false, 0, 10),
			fakeRun("b2", GfzRandom, rep, true, 1, 10),
			fakeRun("b3", GfzZest, rep, false, 0, 10),
			fakeRun("b3", Native, rep, false, 0, 10),
			fakeRun("b3", GfzRandom, rep, false, 0, 10),
		)
	}
	failed := fakeRun("b2", GoFuzz, 0, true, 1, 10) // a failed run is no score
	failed.Err = "build failed"
	bugs = append(bugs, failed)
	targets := []Result{
		fakeResult("p.FuzzT1", GfzZest, 0, 100), fakeResult("p.FuzzT1", GfzZest, 1, 110), fakeResult("p.FuzzT1", GfzZest, 2, 120),
		fakeResult("p.FuzzT1", Native, 0, 110),
		fakeResult("p.FuzzT1", GfzRandom, 0, 50),
		fakeResult("p.FuzzT2", GfzZest, 0, 0),
	}
	targets[5].Covered = nil
	lim := fakeResult("p.FuzzT1", Limit, 0, 0)
	lim.Covered = nil
	targets = append(targets, lim)

	rk := rankAll(bugs, targets)
	// In BugContenders' order (the default engine first).
	var want []string
	for _, c := range BugContenders() {
		if c == GfzZest || c == GfzRandom || c == Native {
			want = append(want, c)
		}
	}
	if !slices.Equal(rk.contenders, want) {
		t.Fatalf("ranked %q, want %q (left out: %q)", rk.contenders, want, rk.leftOut)
	}
	if want := []string{"bug `b1`", "bug `b2`", "target p.FuzzT1"}; !slices.Equal(rk.benchmarks, want) {
		t.Errorf("benchmarks %q, want %q", rk.benchmarks, want)
	}
	mean, _, _ := Friedman(rk.scores)
	for j, c := range rk.contenders {
		want := map[string]float64{GfzZest: 1.5, GfzRandom: 7.0 / 3, Native: 13.0 / 6}[c]
		if d := mean[j] - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: mean rank %v, want %v", c, mean[j], want)
		}
	}
	if len(rk.leftOut) != 2 || rk.leftOut[0] != "go-fuzz (no score on bug `b2`, bug `b3`, target p.FuzzT1)" || rk.leftOut[1] != "limit (no score on any of the 4)" {
		t.Errorf("left out %q, want go-fuzz (b1 alone) and limit", rk.leftOut)
	}
	if !slices.Equal(rk.unfound, []string{"b3"}) || !slices.Equal(rk.unmeasured, []string{"p.FuzzT2"}) {
		t.Errorf("unfound %q, unmeasured %q", rk.unfound, rk.unmeasured)
	}

	var b strings.Builder
	if err := RankMarkdown(&b, bugs, targets); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// row is a table row with its cells in the ranking's column order.
	row := func(first string, cells map[string]string) string {
		r := "| " + first + " |"
		for _, c := range want {
			r += " " + cells[c] + " |"
		}
		return r
	}
	for _, want := range []string{
		// Friedman: ranks (1,3,2), (2,1,3), (1.5,3,1.5): chi2 = 3 × 7/18
		// divided by 1 - 6/72 = 14/11; p = exp(-7/11); CD = 2.343 sqrt(12/18).
		"χ² = 1.27, p = 0.529",
		"3 contenders on 3 benchmarks: 1.91",
		"| gfz-zest | 1.50 | 2 of 3 | yes |",
		"| native | 2.17 | 1 of 3 | yes |",
		"| gfz-random | 2.33 | 1 of 3 | yes |",
		row("benchmark", map[string]string{GfzZest: GfzZest, GfzRandom: GfzRandom, Native: Native}),
		row("bug `b1`", map[string]string{GfzZest: "1 (2.00s, 3/3)", GfzRandom: "3 (> 60s, 0/3)", Native: "2 (20s, 3/3)"}),
		row("bug `b2`", map[string]string{GfzZest: "2 (> 60s, 1/3)", GfzRandom: "1 (1.00s, 3/3)", Native: "3 (> 60s, 0/3)"}),
		row("target p.FuzzT1", map[string]string{GfzZest: "1.5 (110)", GfzRandom: "3 (50)", Native: "1.5 (110)"}),
		"Left out of the ranking, without a score on every benchmark: go-fuzz (no score on bug `b2`, bug `b3`, target p.FuzzT1); limit (no score on any of the 4).",
		"Bugs left out, found by no run of the ranked contenders: `b3`.",
		"Targets left out, no run's coverage measured: p.FuzzT2.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ranking lacks %q:\n%s", want, out)
		}
	}
}
