package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// ResultsReport is the report of target-mode runs read from results files
// (ReadTargetResults), as -target-report prints it: the measured packages
// and their statements come from the runs' lines, the contenders are
// those of the runs (in the order of AllContenders, then by name), the
// stages DefaultStages; the header (Files set) describes the runs rather
// than one configuration.
func ResultsReport(results []Result, files ...string) *Report {
	rep := &Report{Files: files, Results: results, Unavailable: map[string]string{},
		Totals: map[string]int{}, Measured: map[string][]string{}}
	rep.Config.Stages = DefaultStages
	for _, r := range results {
		if len(r.Measured) > 0 {
			rep.Measured[r.Target] = r.Measured
		}
		for p, n := range r.Totals {
			rep.Totals[p] = n
		}
		if !slices.Contains(rep.Config.Contenders, r.Contender) {
			rep.Config.Contenders = append(rep.Config.Contenders, r.Contender)
		}
		if !r.Start.IsZero() && (rep.Start.IsZero() || r.Start.Before(rep.Start)) {
			rep.Start = r.Start
		}
	}
	rep.Machine = strings.Join(distinct(results, func(r Result) string { return r.Machine }), "; ")
	pos := func(c string) int {
		if i := slices.Index(AllContenders, c); i >= 0 {
			return i
		}
		return len(AllContenders)
	}
	slices.SortFunc(rep.Config.Contenders, func(x, y string) int {
		if d := pos(x) - pos(y); d != 0 {
			return d
		}
		return strings.Compare(x, y)
	})
	return rep
}

// resultsHeader writes the header of a report of results files: the
// files, when the runs started, on which machines and by which commands,
// how many runs each target and contender has, and the budgets.
func (rep *Report) resultsHeader(b *strings.Builder) {
	rs := rep.Results
	fmt.Fprintf(b, "Results files: %s (%d runs", strings.Join(quoted(rep.Files), ", "), len(rs))
	var starts []time.Time
	for _, r := range rs {
		if !r.Start.IsZero() {
			starts = append(starts, r.Start)
		}
	}
	if len(starts) > 0 {
		first, last := slices.MinFunc(starts, time.Time.Compare), slices.MaxFunc(starts, time.Time.Compare)
		fmt.Fprintf(b, ", started from %s to %s", first.UTC().Format("2006-01-02 15:04 MST"), last.UTC().Format("2006-01-02 15:04 MST"))
	}
	b.WriteString(").")
	if rep.Machine != "" {
		fmt.Fprintf(b, " Machine: %s.", rep.Machine)
	}
	b.WriteString("\n")
	if cmds := distinct(rs, func(r Result) string { return r.Command }); len(cmds) > 0 {
		fmt.Fprintf(b, "Commands: %s.\n", strings.Join(quoted(cmds), "; "))
	}
	var counts []int
	for _, t := range rep.targets() {
		for _, c := range rep.contenders(t) {
			counts = append(counts, len(rep.results(t, c)))
		}
	}
	runs := "no finished runs"
	if len(counts) > 0 {
		runs = fmt.Sprint(slices.Min(counts))
		if hi := slices.Max(counts); hi != slices.Min(counts) {
			runs += fmt.Sprintf("–%d", hi)
		}
		runs += " runs per target and contender"
	}
	times := distinct(rs, func(r Result) string { return time.Duration(r.TimeS * float64(time.Second)).String() })
	fmt.Fprintf(b, "%s, time budget %s", runs, strings.Join(times, ", "))
	if execs := distinct(rs, func(r Result) string {
		if r.Runs > 0 {
			return fmt.Sprint(r.Runs)
		}
		return ""
	}); len(execs) > 0 {
		fmt.Fprintf(b, ", execution budget %s (not go-fuzz)", strings.Join(execs, ", "))
	}
	b.WriteString(", one worker each.\n")
	if n := len(slices.DeleteFunc(slices.Clone(rs), func(r Result) bool { return !r.KeepGoing })); n > 0 {
		of := ""
		if n < len(rs) {
			of = fmt.Sprintf(" (%d of the %d runs)", n, len(rs))
		}
		fmt.Fprintf(b, "Keep going%s: gfz runs and the limit loop ran their whole budget after the first failure (native and go-fuzz stop there).\n", of)
	}
}

// distinct returns the distinct non-empty values of f over rs, in order
// of first appearance.
func distinct(rs []Result, f func(Result) string) []string {
	var out []string
	for _, r := range rs {
		if v := f(r); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
