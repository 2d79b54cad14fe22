package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// One ranking over the bugs of bug mode and the targets of target mode
// together (-rank): each bug and each target is one benchmark, on which
// the contenders are ranked as the ranking of their own report ranks
// them (rankingMarkdown, coverRanking); the ranks are then averaged over
// every benchmark.

// ranking is the combined ranking's data: scores[i][j] is contender j's
// score on benchmark i (lower is better; only the order within a row
// counts), shown[i][j] that score as the report prints it.
type ranking struct {
	contenders []string // present on every benchmark, in cmpContenders order
	benchmarks []string // "bug `name`" or "target name"
	scores     [][]float64
	shown      [][]string
	// samples[i][j] are contender j's runs on benchmark i: times to
	// trigger (a miss counting as the budget) on a bug, lower better;
	// covered statements on a target (higher[i]), higher better. found
	// and runs count a bug's runs that found it and all of them.
	samples     [][][]float64
	higher      []bool
	found, runs [][]int
	ranked      []string // the bugs among the benchmarks, by name, in their order
	leftOut     []string // contenders not on every benchmark, with the benchmarks they lack
	unfound     []string // bugs that no run of the ranked contenders found
	unmeasured  []string // targets without coverage of any run
}

// rankAll ranks the contenders over the bugs of bugs and the targets of
// targets. On a bug the score is bugRow's: the median time to trigger (a
// miss counting as the budget), equal medians by the number of runs that
// found it; a bug no run found ranks nobody and is left out. On a target
// it is the median of the statements the runs' corpora cover in the
// target's measured packages, more being better. A contender enters
// when it has a score on every benchmark: for a bug a finished run, for
// a target a finished run whose corpus was replayed (a target without
// any is left out).
func rankAll(bugs []BugRun, targets []Result) ranking {
	var rk ranking
	cells, _ := groupRuns(bugs)
	at, bugNames, _ := indexCells(cells)
	rep := ResultsReport(targets)
	var targetNames []string
	for _, t := range rep.targets() {
		if slices.ContainsFunc(rep.contenders(t), func(c string) bool { return len(rep.covered(t, c)) > 0 }) {
			targetNames = append(targetNames, t)
		} else {
			rk.unmeasured = append(rk.unmeasured, t)
		}
	}

	has := map[[2]string]bool{}                // contender and benchmark with a score
	all := slices.Clone(rep.Config.Contenders) // every contender with a run, scored or not
	var benches []string
	note := func(c, bench string) {
		if !slices.Contains(all, c) {
			all = append(all, c)
		}
		if !slices.Contains(benches, bench) {
			benches = append(benches, bench)
		}
		has[[2]string{c, bench}] = true
	}
	for _, c := range cells {
		note(c.contender, "bug `"+c.bug+"`")
	}
	for _, t := range targetNames {
		for _, c := range rep.contenders(t) {
			if len(rep.covered(t, c)) > 0 {
				note(c, "target "+t)
			}
		}
	}
	slices.SortFunc(all, cmpContenders)
	for _, c := range all {
		lacks := slices.DeleteFunc(slices.Clone(benches), func(b string) bool { return has[[2]string{c, b}] })
		switch {
		case len(lacks) == 0:
			rk.contenders = append(rk.contenders, c)
		case len(lacks) == len(benches):
			rk.leftOut = append(rk.leftOut, fmt.Sprintf("%s (no score on any of the %d)", c, len(benches)))
		default:
			rk.leftOut = append(rk.leftOut, fmt.Sprintf("%s (no score on %s)", c, strings.Join(lacks, ", ")))
		}
	}
	if len(rk.contenders) == 0 {
		return rk
	}
	for _, bug := range bugNames {
		row, s, _, found := bugRow(at, bug, rk.contenders)
		if !found {
			rk.unfound = append(rk.unfound, bug)
			continue
		}
		shown := make([]string, len(row))
		samples := make([][]float64, len(row))
		hits, runs := make([]int, len(row)), make([]int, len(row))
		for j, c := range rk.contenders {
			cell := at[[2]string{bug, c}]
			shown[j] = fmt.Sprintf("%s, %d/%d", medianTTB(cell, row[j].median), row[j].found, len(cell.runs))
			samples[j], hits[j], runs[j] = cell.timesToBug(), row[j].found, len(cell.runs)
		}
		rk.add("bug `"+bug+"`", s, shown)
		rk.ranked = append(rk.ranked, bug)
		rk.samples, rk.higher = append(rk.samples, samples), append(rk.higher, false)
		rk.found, rk.runs = append(rk.found, hits), append(rk.runs, runs)
	}
	for _, t := range targetNames {
		s := make([]float64, len(rk.contenders))
		shown := make([]string, len(rk.contenders))
		samples := make([][]float64, len(rk.contenders))
		for j, c := range rk.contenders {
			samples[j] = rep.covered(t, c)
			m := median(samples[j])
			s[j], shown[j] = -m, fmt.Sprintf("%.0f", m)
		}
		rk.add("target "+t, s, shown)
		rk.samples, rk.higher = append(rk.samples, samples), append(rk.higher, true)
		rk.found, rk.runs = append(rk.found, nil), append(rk.runs, nil)
	}
	return rk
}

func (rk *ranking) add(bench string, s []float64, shown []string) {
	rk.benchmarks = append(rk.benchmarks, bench)
	rk.scores = append(rk.scores, s)
	rk.shown = append(rk.shown, shown)
}

// RankMarkdown writes the ranking of the contenders over the bugs and the
// targets of results files together (rankAll): the mean rank of each
// contender, how many benchmarks it is first on, Friedman's test and the
// Nemenyi critical difference (meanRankTable); then each contender's rank
// and score on each benchmark, and what was left out.
func RankMarkdown(w io.Writer, bugs []BugRun, targets []Result) error {
	rk := rankAll(bugs, targets)
	var b strings.Builder
	b.WriteString("### Ranking over bugs and targets\n\n")
	switch {
	case len(rk.contenders) < 2:
		b.WriteString("No ranking: fewer than two contenders have a score on every benchmark.\n")
	case len(rk.benchmarks) == 0:
		b.WriteString("No ranking: no benchmark ranks the contenders.\n")
	default:
		b.WriteString("As FuzzBench ranks fuzzers, over every bug of bug mode and every target of target mode in the results files: " +
			"on a bug the contenders are ranked by their median time to trigger (a run that missed counts as its budget), " +
			"equal medians by the number of runs that found the bug; on a target by the median of the statements their corpora cover " +
			"in the target's measured packages (most is first); equal scores share their mean rank, and the ranks are averaged " +
			"over the benchmarks (1 is best). ")
		ranks := meanRankTable(&b, rk.contenders, rk.scores, "benchmarks")
		b.WriteString("\nRank on each benchmark (bug: median time to trigger, runs found/runs; target: median statements covered):\n\n")
		b.WriteString("| benchmark | " + strings.Join(rk.contenders, " | ") + " |\n|---|" + strings.Repeat("---:|", len(rk.contenders)) + "\n")
		for i, bench := range rk.benchmarks {
			fmt.Fprintf(&b, "| %s |", bench)
			for j := range rk.contenders {
				fmt.Fprintf(&b, " %g (%s) |", ranks[i][j], rk.shown[i][j])
			}
			b.WriteString("\n")
		}
	}
	if len(rk.leftOut) > 0 {
		fmt.Fprintf(&b, "\nLeft out of the ranking, without a score on every benchmark: %s.\n", strings.Join(rk.leftOut, "; "))
	}
	if len(rk.unfound) > 0 {
		fmt.Fprintf(&b, "\nBugs left out, found by no run of the ranked contenders: %s.\n", strings.Join(quoted(rk.unfound), ", "))
	}
	if len(rk.unmeasured) > 0 {
		fmt.Fprintf(&b, "\nTargets left out, no run's coverage measured: %s.\n", strings.Join(rk.unmeasured, ", "))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("bench: write ranking: %w", err)
	}
	return nil
}
