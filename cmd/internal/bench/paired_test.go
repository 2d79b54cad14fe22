package bench

import (
	"math"
	"strings"
	"testing"
)

// pairRun is a run of seed with execs executions, found at foundAt (0: a
// miss), over wall seconds.
func pairRun(bug, c string, seed, foundAt, execs int64, wall float64) BugRun {
	r := BugRun{Bug: bug, Contender: c, Seed: seed, Rep: int(seed - 1), BudgetS: 180, TimeToBugS: -1, Execs: execs, WallS: wall}
	if foundAt > 0 {
		r.Found, r.FoundExec, r.TimeToBugS = true, foundAt, wall
	}
	return r
}

// TestPairedExecs pins each outcome of a pair of runs of one seed: fewer
// executions wins, the same count is "same", a find within the
// executions of the other's miss wins, a find beyond them is undecided,
// two misses are "neither", a find without its count is undecided, and
// runs without a partner (another seed, an error, seed 0) are left out.
func TestPairedExecs(t *testing.T) {
	const a, b = "gfz-auto", "gfz-random"
	runs := []BugRun{
		pairRun("x", a, 1, 100, 100, 1), pairRun("x", b, 1, 200, 200, 4), // a fewer
		pairRun("x", a, 2, 300, 300, 3), pairRun("x", b, 2, 300, 300, 1), // same (rate 1/3)
		pairRun("x", a, 3, 0, 5000, 9), pairRun("x", b, 3, 400, 400, 1), // b fewer: a missed after 5000 >= 400
		pairRun("x", a, 4, 0, 300, 9), pairRun("x", b, 4, 400, 400, 1), // undecided: a stopped at 300 < 400
		pairRun("x", a, 5, 0, 900, 9), pairRun("x", b, 5, 0, 800, 9), // neither
		pairRun("x", a, 6, 700, 700, 9), pairRun("x", b, 6, 0, 700, 9), // a fewer: b missed after 700 >= 700
		pairRun("y", a, 1, 50, 50, 1), pairRun("y", b, 1, 60, 60, 1), // a fewer
		pairRun("y", a, 7, 50, 50, 1), // no partner
		pairRun("y", b, 8, 50, 50, 1), // no partner
	}
	unknown := pairRun("y", a, 2, 10, 10, 1)
	unknown.FoundExec = 0 // found, count unknown (a native run)
	runs = append(runs, unknown, pairRun("y", b, 2, 20, 20, 1))
	unknownB := pairRun("y", b, 4, 20, 20, 1)
	unknownB.FoundExec = 0
	runs = append(runs, pairRun("y", a, 4, 10, 10, 1), unknownB)
	// Left out: seed 0 (a contender that takes no seed), a failed run of
	// the baseline, a baseline run at another budget, and the same run
	// read twice (counted once).
	runs = append(runs, pairRun("y", a, 0, 10, 10, 1), pairRun("y", b, 0, 20, 20, 1))
	bErr := pairRun("y", b, 5, 20, 20, 1)
	bErr.Err = "build failed"
	runs = append(runs, pairRun("y", a, 5, 10, 10, 1), bErr)
	other := pairRun("y", b, 6, 20, 20, 1)
	other.BudgetS = 60
	runs = append(runs, pairRun("y", a, 6, 10, 10, 1), other)
	runs = append(runs, pairRun("x", a, 1, 100, 100, 1)) // x seed 1 again
	failed := pairRun("y", a, 3, 10, 10, 1)
	failed.Err = "build failed"
	runs = append(runs, failed, pairRun("y", b, 3, 20, 20, 1))

	per, total := pairedExecs(runs, a, b, []string{"x", "y", "z"})
	check := func(name string, o pairOutcome, wa, wb, same, neither, undecided int) {
		t.Helper()
		if o.a != wa || o.b != wb || o.same != same || o.neither != neither || o.undecided != undecided {
			t.Errorf("%s: a %d b %d same %d neither %d undecided %d; want %d %d %d %d %d",
				name, o.a, o.b, o.same, o.neither, o.undecided, wa, wb, same, neither, undecided)
		}
	}
	check("x", per[0], 2, 1, 1, 1, 1)
	check("y", per[1], 1, 0, 0, 0, 2)
	check("z", per[2], 0, 0, 0, 0, 0)
	check("all", total, 3, 1, 1, 1, 3)
	// x's seed 2: a ran at 100/s, b at 300/s.
	if got := per[0].rate[1]; math.Abs(got-1.0/3) > 1e-9 {
		t.Errorf("x seed 2 rate ratio %v, want 1/3", got)
	}

	var sb strings.Builder
	pairedMarkdown(&sb, runs, a, b, []string{"x", "y"})
	out := sb.String()
	for _, want := range []string{
		"| bug `x` | 2 | 1 | 1 | 1 | 1 |",
		"| all | 3 | 1 | 1 | 1 | 3 |",
		"gfz-auto fewer in 3, gfz-random fewer in 1 (sign test, two-sided: p 0.625)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	sb.Reset()
	pairedMarkdown(&sb, runs, a, "gfz-zest", []string{"x"})
	if !strings.Contains(sb.String(), "no comparison by executions") {
		t.Errorf("no shared seed: %s", sb.String())
	}
}
