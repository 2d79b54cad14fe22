package bench

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// rankingMarkdown writes the ranking of the contenders over the bugs
// (rank.go): on each bug, contenders ranked by their median time to
// trigger (a run that missed counting as its budget), equal medians by
// the number of runs that found the bug (more is better), still equal
// ones sharing their mean rank; mean ranks over the bugs, Friedman's
// test and the Nemenyi critical difference; then every contender against
// the best one of each bug (Mann-Whitney U, Â12). Bugs that a contender
// did not run, and bugs that no run found (which rank nobody), are left
// out and named. Nothing is written for fewer than two contenders.
func rankingMarkdown(b *strings.Builder, cells []bugCell) {
	at, bugs, contenders := indexCells(cells)
	if len(contenders) < 2 {
		return
	}
	slices.SortFunc(contenders, cmpContenders)

	var ranked, missing, unfound []string
	var scores [][]float64
	var keys [][]bugScore
	for _, bug := range bugs {
		row, s, complete, found := bugRow(at, bug, contenders)
		switch {
		case !complete:
			missing = append(missing, bug)
			continue
		case !found:
			unfound = append(unfound, bug)
			continue
		}
		ranked = append(ranked, bug)
		scores = append(scores, s)
		keys = append(keys, row)
	}
	if len(ranked) == 0 {
		return
	}

	b.WriteString("\nRanking (as FuzzBench ranks fuzzers): on each bug the contenders are ranked by their median time to trigger " +
		"(a run that missed counts as its budget), equal medians by the number of runs that found the bug, still equal ones sharing their mean rank; " +
		"the ranks are averaged over the bugs (1 is best). ")
	ranks := meanRankTable(b, contenders, scores, "bugs")
	if len(missing) > 0 {
		fmt.Fprintf(b, "\nLeft out of the ranking, not run by every contender: %s.\n", strings.Join(quoted(missing), ", "))
	}
	if len(unfound) > 0 {
		fmt.Fprintf(b, "\nLeft out of the ranking, found by no run: %s.\n", strings.Join(quoted(unfound), ", "))
	}

	// Every contender against the best one of each bug.
	b.WriteString("\nAgainst the best contender of each bug (first in the ranking of that bug): time to trigger, " +
		"Mann-Whitney U two-sided p-value and Â12, the probability that a run of the contender takes longer than a run of the best " +
		"(above 0.5: the contender is slower; a miss counts as its budget). **worse**: p < 0.05 and Â12 > 0.5.\n\n")
	b.WriteString("| bug | best | contender | found | time to trigger, median | p | Â12 |\n|---|---|---|---:|---:|---:|---:|\n")
	againstBest(ranks, len(contenders), func(i, bj, j int) {
		bug := ranked[i]
		bc, cell := at[[2]string{bug, contenders[bj]}], at[[2]string{bug, contenders[j]}]
		fmt.Fprintf(b, "| `%s` | %s (%d/%d, %s) | %s | %d/%d | %s | %s |\n", bug, contenders[bj],
			keys[i][bj].found, len(bc.runs), medianTTB(bc, keys[i][bj].median), contenders[j], keys[i][j].found, len(cell.runs),
			medianTTB(cell, keys[i][j].median), versus(cell.timesToBug(), bc.timesToBug(), false))
	})
}

// indexCells maps the cells by bug and contender, and lists the bugs
// and the contenders in order of first appearance.
func indexCells(cells []bugCell) (at map[[2]string]bugCell, bugs, contenders []string) {
	at = map[[2]string]bugCell{}
	for _, c := range cells {
		if !slices.Contains(contenders, c.contender) {
			contenders = append(contenders, c.contender)
		}
		if !slices.Contains(bugs, c.bug) {
			bugs = append(bugs, c.bug)
		}
		at[[2]string{c.bug, c.contender}] = c
	}
	return at, bugs, contenders
}

// bugScore is a contender's score on a bug: its median time to trigger (a
// run that missed counting as its budget) and how many runs found it.
type bugScore struct {
	median float64
	found  int
}

// bugRow scores contenders on bug (their cells in at): row holds each
// one's bugScore, s the ordinal of each among the row's distinct scores
// (an earlier median first, equal medians by more runs found), which
// Ranks ranks, ties included. complete is false when a contender has no
// cell for the bug (row and s are then partial); found, when no run of
// these contenders found it.
func bugRow(at map[[2]string]bugCell, bug string, contenders []string) (row []bugScore, s []float64, complete, found bool) {
	row = make([]bugScore, len(contenders))
	for j, c := range contenders {
		cell, ok := at[[2]string{bug, c}]
		if !ok {
			return row, nil, false, found
		}
		k := cell.found()
		found = found || k > 0
		row[j] = bugScore{median(cell.timesToBug()), k}
	}
	distinct := slices.Clone(row)
	less := func(x, y bugScore) int { return cmp.Or(cmpFloat(x.median, y.median), y.found-x.found) }
	slices.SortFunc(distinct, less)
	distinct = slices.CompactFunc(distinct, func(x, y bugScore) bool { return less(x, y) == 0 })
	s = make([]float64, len(row))
	for j, v := range row {
		i, _ := slices.BinarySearchFunc(distinct, v, less)
		s[j] = float64(i)
	}
	return row, s, true, found
}

// againstBest calls f(i, bj, j) for every row i of ranks and every
// contender j but the row's best one, bj (the first with the lowest rank).
func againstBest(ranks [][]float64, k int, f func(i, bj, j int)) {
	for i, r := range ranks {
		bj := slices.Index(r, slices.Min(r))
		for j := range k {
			if j != bj {
				f(i, bj, j)
			}
		}
	}
}

// versus prints the two-sided Mann-Whitney U p-value and Â12 of sample x
// against the best contender's, "p | Â12", the p marked **worse** when it
// is below 0.05 and x is on the worse side (larger values, or smaller
// ones when higherBetter).
func versus(x, best []float64, higherBetter bool) string {
	_, p := MannWhitneyU(x, best)
	a := A12(x, best)
	mark := ""
	if p < 0.05 && (a > 0.5 && !higherBetter || a < 0.5 && higherBetter) {
		mark = " **worse**"
	}
	return fmt.Sprintf("%s%s | %.2f", fmtP(p), mark, a)
}

// meanRankTable writes Friedman's test and the Nemenyi critical difference
// of scores (rows: the benchmarks, named what; columns: contenders; lower
// is better) and the table of the contenders by mean rank: how many
// benchmarks each is first on, and whether its mean rank is within the
// critical difference of the best. It returns the ranks of each row.
func meanRankTable(b *strings.Builder, contenders []string, scores [][]float64, what string) [][]float64 {
	mean, chi2, p := Friedman(scores)
	n, k := len(scores), len(contenders)
	cd := NemenyiCD(k, n)
	if n >= 2 {
		df := fmt.Sprintf("%d degrees", k-1)
		if k == 2 {
			df = "1 degree"
		}
		fmt.Fprintf(b, "Friedman's test (tie-corrected, chi-square approximation, %s of freedom): χ² = %.2f, p = %s. "+
			"Nemenyi critical difference at 0.05 for %d contenders on %d %s: %s (two contenders whose mean ranks differ by more differ significantly).",
			df, chi2, fmtP(p), k, n, what, fmtCD(cd))
	}
	b.WriteString("\n\n| contender | mean rank | first on | not significantly worse than the best mean rank (Nemenyi) |\n|---|---:|---:|---|\n")
	idx := make([]int, k)
	for j := range idx {
		idx[j] = j
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmpFloat(mean[x], mean[y]) })
	ranks := Ranks(scores)
	for _, j := range idx {
		first := 0
		for _, r := range ranks {
			if r[j] == slices.Min(r) {
				first++
			}
		}
		within := "—"
		if !math.IsNaN(cd) && n >= 2 {
			within = "no"
			if mean[j]-mean[idx[0]] <= cd {
				within = "yes"
			}
		}
		fmt.Fprintf(b, "| %s | %.2f | %d of %d | %s |\n", contenders[j], mean[j], first, n, within)
	}
	return ranks
}

func fmtCD(cd float64) string {
	if math.IsNaN(cd) {
		return "n/a (the table covers 2 to 10 contenders)"
	}
	return fmt.Sprintf("%.2f", cd)
}

func quoted(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = "`" + v + "`"
	}
	return out
}

// coverRanking writes the ranking of the contenders over the targets by
// the coverage of their corpora (the total statements covered in the
// target's measured packages, higher is better), as rankingMarkdown does
// for bugs: on each target by median coverage, ties sharing their mean
// rank; mean ranks, Friedman's test, the Nemenyi critical difference, and
// every contender against the best one of each target (Mann-Whitney U,
// Â12). Targets a contender has no coverage for are left out and named;
// nothing is written for fewer than two contenders.
func (rep *Report) coverRanking(b *strings.Builder, targets []string) {
	var contenders []string
	for _, t := range targets {
		for _, c := range rep.contenders(t) {
			if c != Limit && c != LimitInstr && !slices.Contains(contenders, c) {
				contenders = append(contenders, c)
			}
		}
	}
	if len(contenders) < 2 {
		return
	}
	var ranked, missing []string
	var scores [][]float64
	samples := map[[2]string][]float64{}
	for _, t := range targets {
		row := make([]float64, len(contenders))
		ok := true
		for j, c := range contenders {
			v := rep.covered(t, c)
			if len(v) == 0 {
				ok = false
				break
			}
			samples[[2]string{t, c}] = v
			row[j] = -median(v) // lower is better for Ranks
		}
		if !ok {
			missing = append(missing, t)
			continue
		}
		ranked = append(ranked, t)
		scores = append(scores, row)
	}
	if len(ranked) == 0 {
		return
	}
	b.WriteString("\n### Ranking by coverage\n\n")
	b.WriteString("As FuzzBench ranks fuzzers: on each target the contenders are ranked by the median of the statements their corpora cover " +
		"(the target's measured packages together; most is first), equal medians sharing their mean rank; the ranks are averaged over the targets. ")
	ranks := meanRankTable(b, contenders, scores, "targets")
	if len(missing) > 0 {
		fmt.Fprintf(b, "\nLeft out of the ranking, a contender without coverage: %s.\n", strings.Join(missing, ", "))
	}
	b.WriteString("\nAgainst the best contender of each target: Mann-Whitney U two-sided p-value and Â12, the probability that a run of the " +
		"contender covers more than a run of the best (below 0.5: the contender covers less). **worse**: p < 0.05 and Â12 < 0.5.\n\n")
	b.WriteString("| target | best (median) | contender | median | p | Â12 |\n|---|---|---|---:|---:|---:|\n")
	againstBest(ranks, len(contenders), func(i, bj, j int) {
		t := ranked[i]
		best, v := samples[[2]string{t, contenders[bj]}], samples[[2]string{t, contenders[j]}]
		fmt.Fprintf(b, "| %s | %s (%.0f) | %s | %.0f | %s |\n", t, contenders[bj], median(best), contenders[j], median(v), versus(v, best, true))
	})
}

// covered returns the statements that the corpus of each successful run
// of contender c on target t covers in t's measured packages together,
// for the runs whose corpus was replayed (none: c has no coverage on t).
func (rep *Report) covered(t, c string) []float64 {
	var v []float64
	for _, r := range rep.results(t, c) {
		if r.Covered == nil {
			continue
		}
		n := 0
		for _, p := range rep.Measured[t] {
			n += r.Covered[p]
		}
		v = append(v, float64(n))
	}
	return v
}
