package bench

import (
	"fmt"
	"slices"
	"strings"
)

// Two gfz contenders compared by executions rather than by time, run by
// run: gfz-bench gives the n-th repetition of every contender the same
// -seed, so a pair of runs of a bug with the same seed started from the
// same random choices, and engines that share a way of making children
// (random and auto's generation first, say) make the same executions
// until they part. The executions a run took to the bug do not depend
// on the machine's speed or load, which times measured in different
// sessions do (the same executions have taken twice as long in one
// session as in another). What executions leave out is what each costs:
// that is measured apart, side by side (auto-cpu.sh).
//
// A pair is decided when both runs found the bug (fewer executions wins;
// the same count is "same", a sign that the two made the same executions
// to it), or when one found it within the executions the other's run made
// without finding it; it is undecided when the run that missed stopped
// short of the finder's count, and "neither" when both missed.

// pairOutcome counts the outcomes of the pairs of one bug (or of all).
type pairOutcome struct {
	a, b, same, neither, undecided int
	// rate holds, for each pair whose runs both report executions and
	// wall time, A's executions per second over B's.
	rate []float64
}

// pairedExecs compares contenders a and b on each bug where both have
// runs with the same seed, in the order of bugs.
func pairedExecs(runs []BugRun, a, b string, bugs []string) (per []pairOutcome, total pairOutcome) {
	// A pair is one bug, one seed (not 0: a contender that takes none)
	// and one budget (the results files key a run by its budget too: the
	// same seed at two budgets is two runs); a key seen twice for one
	// contender (a file read twice) counts once.
	type key struct {
		bug    string
		seed   int64
		budget float64
	}
	of := map[key]BugRun{}
	for _, r := range runs {
		if r.Contender == b && r.Err == "" && r.Seed != 0 {
			of[key{r.Bug, r.Seed, r.BudgetS}] = r
		}
	}
	seen := map[key]bool{}
	per = make([]pairOutcome, len(bugs))
	for _, ra := range runs {
		i := slices.Index(bugs, ra.Bug)
		k := key{ra.Bug, ra.Seed, ra.BudgetS}
		rb, ok := of[k]
		if ra.Contender != a || ra.Err != "" || i < 0 || !ok || seen[k] {
			continue
		}
		seen[k] = true
		o := &per[i]
		ea, eb := foundAt(ra), foundAt(rb)
		switch {
		case ea < 0 || eb < 0:
			o.undecided++ // a find without its execution count
		case ra.Found && rb.Found && ea == eb:
			o.same++
		case ra.Found && rb.Found && ea < eb, ra.Found && !rb.Found && rb.Execs >= ea:
			o.a++
		case ra.Found && rb.Found, !ra.Found && rb.Found && ra.Execs >= eb:
			o.b++
		case !ra.Found && !rb.Found:
			o.neither++
		default:
			o.undecided++
		}
		if ra.Execs > 0 && rb.Execs > 0 && ra.WallS > 0 && rb.WallS > 0 {
			o.rate = append(o.rate, (float64(ra.Execs)/ra.WallS)/(float64(rb.Execs)/rb.WallS))
		}
	}
	for _, o := range per {
		total.a, total.b, total.same = total.a+o.a, total.b+o.b, total.same+o.same
		total.neither, total.undecided = total.neither+o.neither, total.undecided+o.undecided
		total.rate = append(total.rate, o.rate...)
	}
	return per, total
}

// foundAt returns the executions to the bug of a run that found it, -1
// if unknown, 0 for a run that did not find it.
func foundAt(r BugRun) int64 {
	switch {
	case !r.Found:
		return 0
	case r.FoundExec > 0:
		return r.FoundExec
	}
	return -1
}

// pairedMarkdown writes the paired comparison of contender a (the
// default being checked) with b (the baseline) over the bugs.
func pairedMarkdown(sb *strings.Builder, runs []BugRun, a, b string, bugs []string) {
	per, total := pairedExecs(runs, a, b, bugs)
	if total.a+total.b+total.same+total.neither+total.undecided == 0 {
		fmt.Fprintf(sb, "\nNo run of %s and %s shares a seed on a bug: no comparison by executions.\n", a, b)
		return
	}
	fmt.Fprintf(sb, "\nBy executions, run against run of the same seed (a miss counting as more than the executions its run made; "+
		"\"same\": both found the bug at the same execution, so made the same executions to it; undecided: the run that missed "+
		"stopped short of the other's find). These counts do not depend on the machine's speed or load; what each execution "+
		"costs is not in them. Executions per second, %s's over %s's, median of the pairs: a ratio far from 1 where the "+
		"executions are the same is the runs' conditions (or a cost), not the search.\n\n", a, b)
	sb.WriteString("| bug | " + a + " fewer | " + b + " fewer | same | neither found | undecided | execs/s ratio |\n|---|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, o pairOutcome) {
		r := "-"
		if len(o.rate) > 0 {
			r = fmt.Sprintf("%.2f", median(o.rate))
		}
		fmt.Fprintf(sb, "| %s | %d | %d | %d | %d | %d | %s |\n", name, o.a, o.b, o.same, o.neither, o.undecided, r)
	}
	for i, bug := range bugs {
		if o := per[i]; o.a+o.b+o.same+o.neither+o.undecided > 0 {
			row("bug `"+bug+"`", o)
		}
	}
	row("all", total)
	n := total.a + total.b
	fmt.Fprintf(sb, "\nDecided pairs that differ: %s fewer in %d, %s fewer in %d (sign test, two-sided: p %s).\n",
		a, total.a, b, total.b, fmtP(SignTestP(total.a, n)))
}
