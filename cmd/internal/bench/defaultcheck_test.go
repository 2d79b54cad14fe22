package bench

import (
	"strings"
	"testing"
)

// checkRuns makes 8 runs of each contender of a bug: ttb[c] is the first
// run's time to trigger (each next run one second later), found[c] how
// many of the 8 found it; budget is every run's.
func checkRuns(bug string, budget float64, ttb map[string]float64, found map[string]int) []BugRun {
	var runs []BugRun
	for c, t := range ttb {
		for rep := range 8 {
			r := fakeRun(bug, c, rep, rep < found[c], t+float64(rep))
			r.BudgetS = budget
			runs = append(runs, r)
		}
	}
	return runs
}

// TestDefaultCheck pins each rule of the default check: a default
// significantly slower than the best other contender on one bug, a mean
// rank behind another's, a share of runs below the best other's on a bug
// the baseline takes over a minute on, and no more than the baseline's.
func TestDefaultCheck(t *testing.T) {
	const auto, zest, bytes = "gfz-auto", GfzZest, "gfz-bytes"
	check := func(bugs []BugRun, targets []Result) string {
		var b strings.Builder
		if err := DefaultCheckMarkdown(&b, bugs, targets, auto, zest); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var targets []Result
	for rep := range 8 {
		targets = append(targets, fakeResult("p.FuzzT", auto, rep, 100+rep), fakeResult("p.FuzzT", zest, rep, 99+rep),
			fakeResult("p.FuzzT", bytes, rep, 90+rep))
	}

	// Every rule met.
	good := append(checkRuns("easy", 60, map[string]float64{auto: 1, zest: 2, bytes: 3}, map[string]int{auto: 8, zest: 8, bytes: 8}),
		checkRuns("hard", 180, map[string]float64{auto: 100, zest: 150, bytes: 120}, map[string]int{auto: 6, zest: 2, bytes: 5})...)
	// As many as zest (and as the best other): not more than zest.
	good = append(good, checkRuns("hard2", 180, map[string]float64{auto: 100, zest: 100, bytes: 100}, map[string]int{auto: 3, zest: 3, bytes: 3})...)
	good = append(good, checkRuns("hard3", 180, map[string]float64{auto: 100, zest: 100, bytes: 100}, map[string]int{auto: 2, zest: 2, bytes: 2})...)
	out := check(good, targets)
	for _, want := range []string{
		"never significantly worse than the best other contender: **yes** (5 benchmarks)",
		"never significantly worse than gfz-zest: **yes**",
		"best mean rank: **yes**",
		"| bug `hard` | 6/8 | gfz-bytes 5/8 | 2/8 | yes | yes |",
		"| 3/8 | yes | no |",
		// More than zest on 1 of 3: a third.
		"on the 3 bugs gfz-zest takes more than a minute on: at least the best other contender's share on 3 (all: **yes**), more than gfz-zest on 1 (a third or more: **yes**)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("every rule met: output lacks %q:\n%s", want, out)
		}
	}

	// Every rule broken: auto far slower on easy, behind on the hard
	// bug's share and no better than zest there.
	bad := append(checkRuns("easy", 60, map[string]float64{auto: 30, zest: 2, bytes: 1}, map[string]int{auto: 8, zest: 8, bytes: 8}),
		checkRuns("hard", 180, map[string]float64{auto: 170, zest: 150, bytes: 120}, map[string]int{auto: 1, zest: 2, bytes: 5})...)
	out = check(bad, targets)
	for _, want := range []string{
		"never significantly worse than the best other contender: **no**, on bug `easy`",
		"never significantly worse than gfz-zest: **no**, on bug `easy` (p ",
		"best mean rank: **no**",
		"| bug `hard` | 1/8 | gfz-bytes 5/8 | 2/8 | no | no |",
		"at least the best other contender's share on 0 (all: **no**), more than gfz-zest on 0 (a third or more: **no**)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("every rule broken: output lacks %q:\n%s", want, out)
		}
	}

	// A contender not ranked: no check, said so.
	if out := check(good[:8], nil); !strings.Contains(out, "No check") {
		t.Errorf("auto alone: %s", out)
	}
}
