package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Whether a default engine earns its place, checked on the combined
// ranking of bugs and targets (rankAll) against rules stated in advance:
//
//   - on no benchmark is the default significantly worse than the best
//     of the other contenders there (two-sided Mann-Whitney U, p < 0.05,
//     on the times to trigger of a bug, a miss counting as the budget, or
//     the covered statements of a target), and its mean rank is the best;
//     the benchmarks where it is significantly worse than the baseline
//     (the engine it would replace) are listed too;
//   - on the bugs the baseline takes more than a minute to trigger (its
//     median time, a miss counting as the budget), the default finds the
//     bug in at least the share of runs of the best other contender (the
//     highest share), and in strictly more runs than the baseline on at
//     least a third of them.
//
// Shares compare runs found over runs, so cells of unequal repetitions
// compare fairly. After the rules, the two are compared by executions,
// run against run of the same seed (paired.go): not a rule, the check's
// view of the search without the machine's speed.

// hardAfter is the baseline's median time to trigger beyond which a bug
// counts as hard (seconds).
const hardAfter = 60

// DefaultCheckMarkdown writes the check of contender def against the
// others (base being the baseline engine) over the bugs and the targets
// of the results.
func DefaultCheckMarkdown(w io.Writer, bugs []BugRun, targets []Result, def, base string) error {
	rk := rankAll(bugs, targets)
	var b strings.Builder
	fmt.Fprintf(&b, "### %s as the default, against every other contender\n\n", def)
	d, z := slices.Index(rk.contenders, def), slices.Index(rk.contenders, base)
	switch {
	case d < 0 || z < 0:
		fmt.Fprintf(&b, "No check: %s and %s must both be ranked (a score on every benchmark); ranked: %s.\n", def, base, strings.Join(rk.contenders, ", "))
	case len(rk.contenders) < 2 || len(rk.benchmarks) == 0:
		b.WriteString("No check: nothing to rank.\n")
	default:
		defaultCheck(&b, rk, d, z)
		pairedMarkdown(&b, bugs, def, base, rk.ranked)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("bench: write the default check: %w", err)
	}
	return nil
}

func defaultCheck(b *strings.Builder, rk ranking, d, z int) {
	def, base := rk.contenders[d], rk.contenders[z]
	ranks := Ranks(rk.scores)
	mean, _, _ := Friedman(rk.scores)

	// 1. Never significantly worse than the best other contender.
	b.WriteString("On each benchmark, against the best other contender there (its first in the ranking; " +
		"Mann-Whitney U two-sided p and Â12 of the default's runs against its: above 0.5, the default takes longer or covers more):\n\n")
	b.WriteString("| benchmark | best other | " + def + " | best other's | p | Â12 | |\n|---|---|---:|---:|---:|---:|---|\n")
	var worse []string
	for i, bench := range rk.benchmarks {
		bj := -1
		for j := range rk.contenders {
			if j != d && (bj < 0 || ranks[i][j] < ranks[i][bj]) {
				bj = j
			}
		}
		_, p := MannWhitneyU(rk.samples[i][d], rk.samples[i][bj])
		a := A12(rk.samples[i][d], rk.samples[i][bj])
		bad := p < 0.05 && (a > 0.5) != rk.higher[i]
		mark := ""
		if bad {
			mark = "**worse**"
			worse = append(worse, bench)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %.2f | %s |\n", bench, rk.contenders[bj], rk.shown[i][d], rk.shown[i][bj], fmtP(p), a, mark)
	}
	// Against the baseline alone (the engine the default would replace).
	var worseBase []string
	for i, bench := range rk.benchmarks {
		_, p := MannWhitneyU(rk.samples[i][d], rk.samples[i][z])
		if a := A12(rk.samples[i][d], rk.samples[i][z]); p < 0.05 && (a > 0.5) != rk.higher[i] {
			worseBase = append(worseBase, fmt.Sprintf("%s (p %s)", bench, fmtP(p)))
		}
	}
	best := slices.Min(mean)
	var ahead []string
	for j, m := range mean {
		if j != d && m <= mean[d] {
			ahead = append(ahead, fmt.Sprintf("%s %.2f", rk.contenders[j], m))
		}
	}

	// 2. The hard bugs: those the baseline takes more than a minute on.
	var hard []int
	for i := range rk.benchmarks {
		if !rk.higher[i] && median(rk.samples[i][z]) > hardAfter {
			hard = append(hard, i)
		}
	}
	share := func(i, j int) float64 { return float64(rk.found[i][j]) / float64(max(rk.runs[i][j], 1)) }
	fmt.Fprintf(b, "\nThe bugs %s takes more than a minute to trigger (median, a miss counting as the budget): runs that found the bug / runs.\n\n", base)
	b.WriteString("| bug | " + def + " | best other (share) | " + base + " | at least the best other's share | more than " + base + " |\n|---|---:|---|---:|---|---|\n")
	atLeast, more := 0, 0
	for _, i := range hard {
		bj := -1
		for j := range rk.contenders {
			if j != d && (bj < 0 || share(i, j) > share(i, bj)) {
				bj = j
			}
		}
		ok, gt := share(i, d) >= share(i, bj), share(i, d) > share(i, z)
		if ok {
			atLeast++
		}
		if gt {
			more++
		}
		fmt.Fprintf(b, "| %s | %d/%d | %s %d/%d | %d/%d | %s | %s |\n", rk.benchmarks[i], rk.found[i][d], rk.runs[i][d],
			rk.contenders[bj], rk.found[i][bj], rk.runs[i][bj], rk.found[i][z], rk.runs[i][z], yesNo(ok), yesNo(gt))
	}

	b.WriteString("\nSummary:\n\n")
	if len(worse) == 0 {
		fmt.Fprintf(b, "- never significantly worse than the best other contender: **yes** (%d benchmarks)\n", len(rk.benchmarks))
	} else {
		fmt.Fprintf(b, "- never significantly worse than the best other contender: **no**, on %s\n", strings.Join(worse, ", "))
	}
	if len(worseBase) == 0 {
		fmt.Fprintf(b, "- never significantly worse than %s: **yes**\n", base)
	} else {
		fmt.Fprintf(b, "- never significantly worse than %s: **no**, on %s\n", base, strings.Join(worseBase, ", "))
	}
	switch {
	case mean[d] == best && len(ahead) == 0:
		fmt.Fprintf(b, "- best mean rank: **yes** (%.2f)\n", mean[d])
	case mean[d] == best:
		fmt.Fprintf(b, "- best mean rank: **tied** (%.2f, with %s)\n", mean[d], strings.Join(ahead, ", "))
	default:
		fmt.Fprintf(b, "- best mean rank: **no** (%.2f; at or ahead of it: %s)\n", mean[d], strings.Join(ahead, ", "))
	}
	if len(hard) == 0 {
		fmt.Fprintf(b, "- hard bugs: none (%s triggers every bug within a minute, median)\n", base)
		return
	}
	fmt.Fprintf(b, "- on the %d bugs %s takes more than a minute on: at least the best other contender's share on %d (all: **%s**), more than %s on %d (a third or more: **%s**)\n",
		len(hard), base, atLeast, yesNo(atLeast == len(hard)), base, more, yesNo(3*more >= len(hard)))
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}
