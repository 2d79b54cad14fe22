package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gfz-dev/gfz/internal/signature"
)

// bugCell gathers the runs of one bug and contender (failed runs left out).
type bugCell struct {
	bug, contender string
	runs           []BugRun
}

// timesToBug are the times to trigger, a run that did not trigger the bug
// counting as its budget.
func (c bugCell) timesToBug() []float64 {
	var v []float64
	for _, r := range c.runs {
		if r.Found {
			v = append(v, r.TimeToBugS)
		} else {
			v = append(v, r.BudgetS)
		}
	}
	return v
}

func (c bugCell) finalCoverage() []float64 {
	var v []float64
	for _, r := range c.runs {
		v = append(v, float64(r.CoveredStmts))
	}
	return v
}

// groupRuns groups the runs by bug and contender, in order of first
// appearance of the bug and in contender order: gfz engines as
// BugContenders lists them, then gfz-native, native, go-fuzz, then others.
func groupRuns(runs []BugRun) (cells []bugCell, failed []BugRun) {
	var bugs []string
	by := map[[2]string]*bugCell{}
	for _, r := range runs {
		if r.Err != "" {
			failed = append(failed, r)
			continue
		}
		if !slices.Contains(bugs, r.Bug) {
			bugs = append(bugs, r.Bug)
		}
		k := [2]string{r.Bug, r.Contender}
		if by[k] == nil {
			by[k] = &bugCell{bug: r.Bug, contender: r.Contender}
		}
		by[k].runs = append(by[k].runs, r)
	}
	for _, b := range bugs {
		var cs []*bugCell
		for k, c := range by {
			if k[0] == b {
				cs = append(cs, c)
			}
		}
		slices.SortFunc(cs, func(x, y *bugCell) int { return cmpContenders(x.contender, y.contender) })
		for _, c := range cs {
			cells = append(cells, *c)
		}
	}
	return cells, failed
}

// cmpContenders orders contenders as BugContenders lists them, then the
// others by name.
func cmpContenders(x, y string) int {
	order := BugContenders()
	pos := func(c string) int {
		if i := slices.Index(order, c); i >= 0 {
			return i
		}
		return len(order)
	}
	if d := pos(x) - pos(y); d != 0 {
		return d
	}
	return strings.Compare(x, y)
}

// found is the number of the cell's runs that triggered the bug.
func (c bugCell) found() int {
	k := 0
	for _, r := range c.runs {
		if r.Found {
			k++
		}
	}
	return k
}

// medianTTB prints a cell's median time to trigger m, "> budget" when
// half of its runs or more missed and the median is a miss.
func medianTTB(c bugCell, m float64) string {
	budget := 0.0
	for _, r := range c.runs {
		budget = max(budget, r.BudgetS)
	}
	if c.found()*2 <= len(c.runs) && m >= budget {
		return "> " + fmtSeconds(budget)
	}
	return fmtSeconds(m)
}

// fmtSeconds prints a duration in seconds compactly.
func fmtSeconds(s float64) string {
	switch {
	case math.IsNaN(s):
		return "n/a"
	case s < 10:
		return fmt.Sprintf("%.2fs", s)
	case s < 120:
		return fmt.Sprintf("%.0fs", s)
	}
	return fmt.Sprintf("%.1fm", s/60)
}

// BugMarkdown writes the bug-mode tables: per bug and contender, found
// k/n, the median time to trigger (a run that did not trigger it counts as
// its budget; a median at the budget is printed "> budget"), the median
// time to reach the buggy function, other crashes, executions and final
// coverage; then the statistics of every contender against native, and
// the ranking of the contenders over the bugs (rankingMarkdown).
// plots maps a bug to its coverage curve image (may be nil).
func BugMarkdown(w io.Writer, runs []BugRun, plots map[string]string) error {
	var b strings.Builder
	cells, failed := groupRuns(runs)
	if len(cells) == 0 {
		b.WriteString("No finished runs.\n")
	}
	var machines []string
	for _, r := range runs {
		if !slices.Contains(machines, r.Machine) && r.Machine != "" {
			machines = append(machines, r.Machine)
		}
	}
	if len(machines) > 0 {
		fmt.Fprintf(&b, "Machine: %s.\n\n", strings.Join(machines, "; "))
	}
	if len(cells) > 0 {
		b.WriteString("Coverage is that of the run's corpus when the run ended: at the bug, or at the budget. " +
			"A run that triggers the bug early has had less time to cover, so compare coverage where the runs went on " +
			"(bugs not found, or found late); the curves show it over time.\n\n")
		b.WriteString("| bug | contender | found | time to trigger, median (min–max of found) | time to reach, median | other crashes (runs) | execs median | coverage of the buggy package, median (min–max) |\n")
		b.WriteString("|---|---|---:|---:|---:|---|---:|---:|\n")
	}
	var details []string
	for _, c := range cells {
		n := len(c.runs)
		k := 0
		var found, reach []float64
		var budgets []float64
		others, otherRuns := map[string]int{}, 0 // by title, digits as N
		var execs []float64
		for _, r := range c.runs {
			budgets = append(budgets, r.BudgetS)
			if r.Found {
				k++
				found = append(found, r.TimeToBugS)
			}
			if r.Reached {
				reach = append(reach, r.TimeToReachS)
			} else {
				reach = append(reach, math.Inf(1))
			}
			if len(r.Others) > 0 {
				otherRuns++
			}
			for _, o := range r.Others {
				others[crashKind(o.Title)]++
			}
			if r.Execs >= 0 {
				execs = append(execs, float64(r.Execs))
			}
		}
		budget := slices.Max(budgets)
		ttb := "—"
		if k > 0 {
			ttb = medianTTB(c, median(c.timesToBug()))
			if k > 1 {
				ttb += fmt.Sprintf(" (%s–%s)", fmtSeconds(slices.Min(found)), fmtSeconds(slices.Max(found)))
			}
		} else {
			ttb = "not in " + fmtSeconds(budget)
		}
		rt := "never"
		if m := median(reach); !math.IsInf(m, 1) {
			rt = fmtSeconds(m)
		} else if slices.ContainsFunc(reach, func(x float64) bool { return !math.IsInf(x, 1) }) {
			rt = "> " + fmtSeconds(budget)
		}
		oth := "none"
		if len(others) > 0 {
			titles := sortedByCount(others)
			total := 0
			for _, n := range others {
				total += n
			}
			oth = fmt.Sprintf("%d runs, %d crashes of %d kinds", otherRuns, total, len(others))
			for i, t := range titles[:min(2, len(titles))] {
				titles[i] = fmt.Sprintf("`%s` ×%d", mdCell(t), others[t])
			}
			oth += ": " + strings.Join(titles[:min(2, len(titles))], ", ")
			if len(titles) > 2 {
				oth += ", …"
			}
			details = append(details, fmt.Sprintf("- `%s` %s: %s", c.bug, c.contender, otherList(others)))
		}
		ex := "n/a"
		if len(execs) > 0 {
			ex = fmt.Sprintf("%.0f", median(execs))
		}
		cov := spread(c.finalCoverage(), "%.0f")
		if t := c.runs[0].TotalStmts; t > 0 {
			cov += fmt.Sprintf(" of %d", t)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d/%d | %s | %s | %s | %s | %s |\n", c.bug, c.contender, k, n, ttb, rt, oth, ex, cov)
	}
	if len(details) > 0 {
		b.WriteString("\nOther crashes (failures the bug's oracle rejected), by kind, with the number of crashes over all runs:\n\n" + strings.Join(details, "\n") + "\n")
	}
	// Statistics against native.
	var rows []string
	for _, c := range cells {
		if c.contender == BugNative {
			continue
		}
		i := slices.IndexFunc(cells, func(x bugCell) bool { return x.bug == c.bug && x.contender == BugNative })
		if i < 0 {
			continue
		}
		nat := cells[i]
		_, pc := MannWhitneyU(c.finalCoverage(), nat.finalCoverage())
		_, pt := MannWhitneyU(c.timesToBug(), nat.timesToBug())
		rows = append(rows, fmt.Sprintf("| `%s` | %s vs native | %d/%d | %s | %.2f | %s | %.2f |", c.bug, c.contender,
			len(c.runs), len(nat.runs), fmtP(pc), A12(c.finalCoverage(), nat.finalCoverage()), fmtP(pt), A12(c.timesToBug(), nat.timesToBug())))
	}
	if len(rows) > 0 {
		b.WriteString("\nAgainst native: Mann-Whitney U two-sided p-value (normal approximation, tie and continuity corrections) and " +
			"Vargha-Delaney Â12 (the probability that a run of the contender has the larger value; for coverage above 0.5 is better, " +
			"for time to trigger below 0.5 is better; a run that did not trigger the bug counts as its budget; " +
			"coverage when the run ended, as above).\n\n")
		b.WriteString("| bug | pair | runs | coverage p | coverage Â12 | time to trigger p | time to trigger Â12 |\n")
		b.WriteString("|---|---|---:|---:|---:|---:|---:|\n")
		b.WriteString(strings.Join(rows, "\n") + "\n")
	}
	rankingMarkdown(&b, cells)
	var notes []string
	for _, r := range runs {
		if r.Note != "" && r.Err == "" {
			notes = append(notes, fmt.Sprintf("- %s %s rep %d: %s", r.Bug, r.Contender, r.Rep+1, r.Note))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\nNotes:\n\n" + strings.Join(notes, "\n") + "\n")
	}
	if len(failed) > 0 {
		b.WriteString("\nRuns that failed (left out of the tables):\n\n")
		for _, r := range failed {
			fmt.Fprintf(&b, "- %s %s rep %d: %s\n", r.Bug, r.Contender, r.Rep+1, oneLine(r.Err))
		}
	}
	var bugs []string
	for _, c := range cells {
		if !slices.Contains(bugs, c.bug) {
			bugs = append(bugs, c.bug)
		}
	}
	for _, bug := range bugs {
		if p := plots[bug]; p != "" {
			fmt.Fprintf(&b, "\n![coverage of %s over time](%s)\n", bug, p)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// crashKind is a crash title ("panic: <message> at <function> <file:line>")
// with its message normalised as gfz's failure signatures are (numbers and
// quoted text made N and _, signature.NormalizeMessage), so that one crash
// with different values is one kind, whichever fuzzer reported it and
// whenever its title was recorded; the function and line keep theirs.
func crashKind(title string) string {
	msg, at := title, ""
	if i := strings.LastIndex(title, " at "); i >= 0 {
		msg, at = title[:i], title[i:]
	}
	if kind, text, ok := strings.Cut(msg, ": "); ok {
		msg = kind + ": " + signature.NormalizeMessage(text)
	}
	return msg + at
}

// sortedByCount returns the keys, the most frequent first.
func sortedByCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	return keys
}

func otherList(m map[string]int) string {
	var parts []string
	for _, k := range sortedByCount(m) {
		parts = append(parts, fmt.Sprintf("`%s` ×%d", mdCell(k), m[k]))
	}
	return strings.Join(parts, ", ")
}

// mdCell escapes text for a markdown table cell inside backquotes.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case p < 0.001:
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}
