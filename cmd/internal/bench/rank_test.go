package bench

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestRanksTies(t *testing.T) {
	got := Ranks([][]float64{{3, 1, 3, 2}, {5, 5, 5, 5}, {math.Inf(1), 0, 1, math.Inf(1)}})
	want := [][]float64{{3.5, 1, 3.5, 2}, {2.5, 2.5, 2.5, 2.5}, {3.5, 1, 2, 3.5}}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: ranks %v, want %v", i, got[i], want[i])
		}
	}
}

// The chi-square survival function against closed forms: for 2 degrees
// of freedom exp(-x/2), for 1 erfc(sqrt(x/2)), for 4 exp(-x/2)(1+x/2);
// the x values cover both the series (x/2 < df/2+1) and the continued
// fraction.
func TestChiSquareSurvival(t *testing.T) {
	for _, x := range []float64{0.01, 0.5, 1, 2.9, 3.1, 6, 10, 25, 60} {
		for _, c := range []struct {
			df   int
			want float64
		}{
			{1, math.Erfc(math.Sqrt(x / 2))},
			{2, math.Exp(-x / 2)},
			{4, math.Exp(-x/2) * (1 + x/2)},
		} {
			got := ChiSquareSurvival(x, c.df)
			if math.Abs(got-c.want) > 1e-12+1e-9*c.want {
				t.Errorf("ChiSquareSurvival(%v, %d) = %.15g, want %.15g", x, c.df, got, c.want)
			}
		}
	}
	if got := ChiSquareSurvival(0, 3); got != 1 {
		t.Errorf("ChiSquareSurvival(0, 3) = %v, want 1", got)
	}
	if got := ChiSquareSurvival(1, 0); !math.IsNaN(got) {
		t.Errorf("ChiSquareSurvival(1, 0) = %v, want NaN", got)
	}
}

func TestFriedman(t *testing.T) {
	// Perfect agreement, 3 contenders on 4 benchmarks: the statistic's
	// maximum n(k-1) = 8, p = exp(-4) (2 degrees of freedom).
	agree := [][]float64{{1, 2, 3}, {10, 20, 30}, {0.1, 0.5, 9}, {4, 5, 6}}
	mean, chi2, p := Friedman(agree)
	if !slices.Equal(mean, []float64{1, 2, 3}) || math.Abs(chi2-8) > 1e-12 || math.Abs(p-math.Exp(-4)) > 1e-12 {
		t.Errorf("agreement: mean %v chi2 %v p %v, want [1 2 3], 8, %v", mean, chi2, p, math.Exp(-4))
	}
	// Ties within a row: the statistic divided by 1 - sum(t^3-t)/(n(k^3-k)),
	// which equals the form (k-1) sum_j (R_j - n(k+1)/2)^2 / (sum r^2 -
	// n k (k+1)^2 / 4): 13 / 3.5 for these ranks.
	mean, chi2, _ = Friedman([][]float64{{1, 1, 2}, {1, 2, 3}})
	if !slices.Equal(mean, []float64{1.25, 1.75, 3}) || math.Abs(chi2-13/3.5) > 1e-12 {
		t.Errorf("ties: mean %v chi2 %v, want [1.25 1.75 3], %v", mean, chi2, 13/3.5)
	}
	// No difference anywhere.
	if _, chi2, p := Friedman([][]float64{{2, 2}, {7, 7}}); chi2 != 0 || p != 1 {
		t.Errorf("all tied: chi2 %v p %v, want 0, 1", chi2, p)
	}
	// Balanced disagreement: every contender first once.
	if _, chi2, p := Friedman([][]float64{{1, 2}, {2, 1}}); chi2 != 0 || p != 1 {
		t.Errorf("balanced: chi2 %v p %v, want 0, 1", chi2, p)
	}
	if _, _, p := Friedman([][]float64{{1, 2, 3}}); !math.IsNaN(p) {
		t.Errorf("one benchmark: p %v, want NaN", p)
	}
}

func TestNemenyiCD(t *testing.T) {
	if got, want := NemenyiCD(3, 4), 2.343*math.Sqrt(0.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("NemenyiCD(3, 4) = %v, want %v", got, want)
	}
	if got, want := NemenyiCD(10, 20), 3.164*math.Sqrt(110.0/120); math.Abs(got-want) > 1e-12 {
		t.Errorf("NemenyiCD(10, 20) = %v, want %v", got, want)
	}
	for _, k := range []int{1, 11} {
		if got := NemenyiCD(k, 5); !math.IsNaN(got) {
			t.Errorf("NemenyiCD(%d, 5) = %v, want NaN", k, got)
		}
	}
}

// rankRuns makes runs of one bug and contender: a time to trigger per
// run, a negative one a miss (budget 60 s).
func rankRuns(bug, contender string, times ...float64) []BugRun {
	var out []BugRun
	for i, t := range times {
		r := BugRun{Bug: bug, Contender: contender, Rep: i, BudgetS: 60, TimeToBugS: -1}
		if t >= 0 {
			r.Found, r.TimeToBugS = true, t
		}
		out = append(out, r)
	}
	return out
}

func TestRankingMarkdown(t *testing.T) {
	var runs []BugRun
	// a: gfz-zest fastest, gfz-auto next, gfz-bytes slowest and
	// significantly worse than zest.
	runs = append(runs, rankRuns("a", "gfz-zest", 1, 2, 3, 4, 5)...)
	runs = append(runs, rankRuns("a", "gfz-auto", 2, 3, 4, 5, 6)...)
	runs = append(runs, rankRuns("a", "gfz-bytes", 30, 31, 32, 33, 34)...)
	// b: medians all at the budget; auto found it twice, zest once,
	// bytes never: auto first, zest second, bytes third.
	runs = append(runs, rankRuns("b", "gfz-zest", 50, -1, -1, -1, -1)...)
	runs = append(runs, rankRuns("b", "gfz-auto", 40, 45, -1, -1, -1)...)
	runs = append(runs, rankRuns("b", "gfz-bytes", -1, -1, -1, -1, -1)...)
	// c: found by no run (left out); d: not run by bytes (left out).
	runs = append(runs, rankRuns("c", "gfz-zest", -1, -1)...)
	runs = append(runs, rankRuns("c", "gfz-auto", -1, -1)...)
	runs = append(runs, rankRuns("c", "gfz-bytes", -1, -1)...)
	runs = append(runs, rankRuns("d", "gfz-zest", 1)...)
	runs = append(runs, rankRuns("d", "gfz-auto", 2)...)
	cells, _ := groupRuns(runs)
	var b strings.Builder
	rankingMarkdown(&b, cells)
	out := b.String()
	// zest ranks (1, 2), auto (2, 1), bytes (3, 3).
	for _, want := range []string{
		"| gfz-zest | 1.50 | 1 of 2 |",
		"| gfz-auto | 1.50 | 1 of 2 |",
		"| gfz-bytes | 3.00 | 0 of 2 |",
		"not run by every contender: `d`.",
		"found by no run: `c`.",
		"χ² = 3.00",
		"| `a` | gfz-zest (5/5, 3.00s) | gfz-bytes | 5/5 | 32s | 0.012 **worse** | 1.00 |",
		"| `b` | gfz-auto (2/5, > 60s) | gfz-zest | 1/5 | > 60s | 0.441 | 0.64 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ranking lacks %q:\n%s", want, out)
		}
	}
	// One contender: nothing.
	cells, _ = groupRuns(rankRuns("a", "gfz-zest", 1, 2))
	b.Reset()
	rankingMarkdown(&b, cells)
	if b.Len() != 0 {
		t.Errorf("one contender: %q, want nothing", b.String())
	}
}

func TestCoverRanking(t *testing.T) {
	rep := &Report{
		Config:   Config{Contenders: []string{GfzZest, "gfz-random", Limit}},
		Measured: map[string][]string{"a.FuzzA": {"p", "q"}, "b.FuzzB": {"p"}, "c.FuzzC": {"p"}},
	}
	add := func(target, c string, covs ...int) {
		for i, v := range covs {
			rep.Results = append(rep.Results, Result{Target: target, Contender: c, Rep: i, Covered: map[string]int{"p": v, "q": 1}})
		}
	}
	// a: zest covers most, random far less (significantly worse).
	add("a.FuzzA", GfzZest, 100, 101, 102, 103, 104)
	add("a.FuzzA", "gfz-random", 10, 11, 12, 13, 14)
	// b: random covers most.
	add("b.FuzzB", GfzZest, 50, 50, 50, 50, 50)
	add("b.FuzzB", "gfz-random", 60, 60, 60, 60, 60)
	// c: random has no coverage (a failed replay): left out.
	add("c.FuzzC", GfzZest, 5)
	rep.Results = append(rep.Results, Result{Target: "c.FuzzC", Contender: "gfz-random"})
	rep.Results = append(rep.Results, Result{Target: "a.FuzzA", Contender: Limit, Covered: map[string]int{"p": 1000}})
	var b strings.Builder
	rep.coverRanking(&b, []string{"a.FuzzA", "b.FuzzB", "c.FuzzC"})
	out := b.String()
	for _, want := range []string{
		"| gfz-zest | 1.50 |",
		"| gfz-random | 1.50 |",
		"a contender without coverage: c.FuzzC.",
		"| a.FuzzA | gfz-zest (103) | gfz-random | 13 | 0.012 **worse** | 0.00 |",
		"| b.FuzzB | gfz-random (60) | gfz-zest | 50 | 0.004 **worse** | 0.00 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("coverage ranking lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, Limit) {
		t.Errorf("the limit (no corpus) is ranked:\n%s", out)
	}
}
