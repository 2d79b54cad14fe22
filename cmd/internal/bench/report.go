package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
)

// Markdown writes the report as markdown: the configuration (of a report
// of results files, the runs' budgets, machines and commands), then speed,
// effectiveness and coverage tables of medians with min-max, and the
// ranking by coverage.
func (rep *Report) Markdown(w io.Writer) error {
	var b strings.Builder
	cfg := rep.Config
	if len(rep.Files) > 0 {
		rep.resultsHeader(&b)
	} else {
		rep.header(&b)
	}
	if len(rep.Unavailable) > 0 {
		b.WriteString("\nUnavailable:\n\n")
		for _, k := range sortedKeys(rep.Unavailable) {
			fmt.Fprintf(&b, "- %s: %s\n", k, rep.Unavailable[k])
		}
	}
	var errs []string
	for _, r := range rep.Results {
		if r.Err != "" {
			errs = append(errs, fmt.Sprintf("- %s %s rep %d: %s", r.Target, r.Contender, r.Rep+1, r.Err))
		}
	}
	if len(errs) > 0 {
		b.WriteString("\nRuns that failed (left out of the tables):\n\n" + strings.Join(errs, "\n") + "\n")
	}
	targets := rep.targets()

	b.WriteString("\n### Speed and memory\n\n")
	// The column against the instrumented limit appears only when a run
	// measured it.
	instr := slices.ContainsFunc(rep.Results, func(r Result) bool { return r.Contender == LimitInstr && r.Err == "" })
	if instr {
		b.WriteString("| target | contender | execs/s median (min–max) | × native | % of limit | % of limit-instr | valid % of execs | peak RSS MiB |\n")
		b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|\n")
	} else {
		b.WriteString("| target | contender | execs/s median (min–max) | × native | % of limit | valid % of execs | peak RSS MiB |\n")
		b.WriteString("|---|---|---:|---:|---:|---:|---:|\n")
	}
	for _, t := range targets {
		nat := rep.median(t, Native, func(r Result) float64 { return r.ExecsPerSec })
		lim := rep.median(t, Limit, func(r Result) float64 { return r.ExecsPerSec })
		limInstr := rep.median(t, LimitInstr, func(r Result) float64 { return r.ExecsPerSec })
		for _, c := range rep.contenders(t) {
			speed := rep.values(t, c, func(r Result) float64 { return r.ExecsPerSec })
			med := median(speed)
			valid := rep.values(t, c, func(r Result) float64 { return r.ValidPct })
			vs := "n/a"
			if !slices.Contains(valid, -1) {
				vs = spread(valid, "%.1f")
			}
			rss := rep.values(t, c, func(r Result) float64 {
				if r.MaxRSSKiB <= 0 {
					return math.NaN() // ended before the first sample
				}
				return float64(r.MaxRSSKiB) / 1024
			})
			pctInstr := ""
			if instr {
				pctInstr = " " + ratio(100*med, limInstr, "%.0f%%") + " |"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |%s %s | %s |\n", t, c, spread(speed, "%.0f"),
				ratio(med, nat, "%.2f"), ratio(100*med, lim, "%.0f%%"), pctInstr, vs, spread(rss, "%.0f"))
		}
	}

	b.WriteString("\n### Time to the bug\n\n")
	b.WriteString("Seconds from process start (including start-up) to the first failure; a run that did not find it\n")
	b.WriteString("counts as infinitely slow in the median. Executions to the bug where the contender reports them.\n\n")
	b.WriteString("| target | contender | found | seconds median (min–max) | executions median (min–max) |\n")
	b.WriteString("|---|---|---:|---:|---:|\n")
	for _, t := range targets {
		for _, c := range rep.contenders(t) {
			rs := rep.results(t, c)
			found := 0
			var secs, execs []float64
			for _, r := range rs {
				if r.Found {
					found++
					secs = append(secs, r.FoundS)
					if r.FoundExec >= 0 {
						execs = append(execs, float64(r.FoundExec))
					}
				} else {
					secs = append(secs, math.Inf(1))
				}
			}
			es := "n/a"
			if len(execs) > 0 {
				es = spread(execs, "%.0f")
			}
			if found == 0 {
				es = "—"
			}
			fmt.Fprintf(&b, "| %s | %s | %d/%d | %s | %s |\n", t, c, found, len(rs), spread(secs, "%.2f"), es)
		}
	}

	b.WriteString("\n### Coverage and valid inputs of the saved corpus\n\n")
	b.WriteString("Each run's corpus replayed by `go test -cover -coverpkg=...` of the target package (independent of gfz):\n")
	b.WriteString("covered statements, median (min–max), per stage or package (of the total statements). Valid % = share\n")
	b.WriteString("of corpus inputs for which the target returned without rejecting the input. The limit saves no corpus.\n")
	for _, t := range targets {
		cols := rep.coverColumns(t)
		if len(cols) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n\n| contender |", t)
		for _, c := range cols {
			tot := 0
			for _, p := range c.Pkgs {
				tot += rep.Totals[p]
			}
			fmt.Fprintf(&b, " %s (of %d) |", c.Name, tot)
		}
		b.WriteString(" corpus size | corpus valid % |\n|---|" + strings.Repeat("---:|", len(cols)+2) + "\n")
		for _, c := range rep.contenders(t) {
			if c == Limit || c == LimitInstr {
				continue
			}
			fmt.Fprintf(&b, "| %s |", c)
			for _, col := range cols {
				v := rep.values(t, c, func(r Result) float64 {
					if r.Covered == nil {
						return math.NaN()
					}
					n := 0
					for _, p := range col.Pkgs {
						n += r.Covered[p]
					}
					return float64(n)
				})
				fmt.Fprintf(&b, " %s |", spread(v, "%.0f"))
			}
			size := rep.values(t, c, func(r Result) float64 { return float64(r.CorpusSize) })
			valid := rep.values(t, c, func(r Result) float64 {
				if r.CorpusValidPct < 0 {
					return math.NaN()
				}
				return r.CorpusValidPct
			})
			fmt.Fprintf(&b, " %s | %s |\n", spread(size, "%.0f"), spread(valid, "%.1f"))
		}
	}
	rep.coverRanking(&b, targets)
	rep.engineTable(&b, targets)
	if rep.Overhead != "" {
		fmt.Fprintf(&b, "\n### Instrumentation overhead (internal/build/bench/overhead.sh %d)\n\n```\n%s```\n", cfg.Overhead, rep.Overhead)
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("bench: write report: %w", err)
	}
	return nil
}

// header writes the header of the report of one Run: its command,
// start, duration, machine and configuration.
func (rep *Report) header(b *strings.Builder) {
	cfg := rep.Config
	if cfg.Command != "" {
		fmt.Fprintf(b, "Command: `%s`\n\n", cfg.Command)
	}
	fmt.Fprintf(b, "Run %s, took %s. Machine: %s.\n", rep.Start.UTC().Format("2006-01-02 15:04 MST"), rep.Duration.Round(1e9), rep.Machine)
	budget := fmt.Sprintf("time budget %s", cfg.Time)
	if cfg.Runs > 0 {
		budget += fmt.Sprintf(", execution budget %d (not go-fuzz)", cfg.Runs)
	}
	fmt.Fprintf(b, "%d runs per target and contender, %s, one worker each.\n", cfg.Reps, budget)
	if cfg.KeepGoing {
		b.WriteString("Keep going: gfz runs and the limit loop ran their whole budget after the first failure (native and go-fuzz stop there).\n")
	}
}

// coverColumns lists the coverage columns of target t: one per stage with
// packages in the measured set, then one per remaining package.
func (rep *Report) coverColumns(t string) []Stage {
	pkgs := rep.Measured[t]
	var cols []Stage
	used := map[string]bool{}
	for _, s := range rep.Config.Stages {
		var in []string
		for _, p := range s.Pkgs {
			if slices.Contains(pkgs, p) {
				in = append(in, p)
				used[p] = true
			}
		}
		if len(in) > 0 {
			cols = append(cols, Stage{s.Name, in})
		}
	}
	for _, p := range pkgs {
		if !used[p] {
			cols = append(cols, Stage{p, []string{p}})
		}
	}
	return cols
}

func (rep *Report) targets() []string {
	var out []string
	for _, r := range rep.Results {
		if !slices.Contains(out, r.Target) {
			out = append(out, r.Target)
		}
	}
	return out
}

func (rep *Report) contenders(t string) []string {
	var out []string
	for _, c := range rep.Config.Contenders {
		if len(rep.results(t, c)) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// results returns the successful runs of contender c ("" for all) on t.
func (rep *Report) results(t, c string) []Result {
	var out []Result
	for _, r := range rep.Results {
		if r.Target == t && (c == "" || r.Contender == c) && r.Err == "" {
			out = append(out, r)
		}
	}
	return out
}

func (rep *Report) values(t, c string, f func(Result) float64) []float64 {
	var out []float64
	for _, r := range rep.results(t, c) {
		out = append(out, f(r))
	}
	return out
}

func (rep *Report) median(t, c string, f func(Result) float64) float64 {
	return median(rep.values(t, c, f))
}

// median of the non-NaN values (NaN when there are none); +Inf counts.
func median(v []float64) float64 {
	v = slices.DeleteFunc(slices.Clone(v), math.IsNaN)
	if len(v) == 0 {
		return math.NaN()
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	if math.IsInf(v[n/2], 1) {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// spread formats "median (min–max)"; a single value is printed alone.
func spread(v []float64, format string) string {
	v = slices.DeleteFunc(slices.Clone(v), math.IsNaN)
	if len(v) == 0 {
		return "n/a"
	}
	f := func(x float64) string {
		if math.IsInf(x, 1) {
			return "∞"
		}
		return fmt.Sprintf(format, x)
	}
	m := f(median(v))
	if len(v) == 1 {
		return m
	}
	return fmt.Sprintf("%s (%s–%s)", m, f(slices.Min(v)), f(slices.Max(v)))
}

func ratio(a, b float64, format string) string {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return "n/a"
	}
	return fmt.Sprintf(format, a/b)
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// engineTable writes the gfz engines' own measurements (EngineKeys) at the
// end of each run, median (min–max), for the runs that have them.
func (rep *Report) engineTable(b *strings.Builder, targets []string) {
	has := false
	for _, r := range rep.Results {
		has = has || r.Engine != nil
	}
	if !has {
		return
	}
	b.WriteString("\n### Engine measurements\n\n")
	b.WriteString("From each gfz run's stats file at its end: Hill numbers B0, B1, B2 of the branches of the run's unique\n")
	b.WriteString("traces (BeDivFuzz's behavioural diversity), the share of children that were zero mutations, and the\n")
	b.WriteString("mean choice-level mutation distance (docs/ENGINE.md, \"Metrics\"); median (min–max).\n\n")
	b.WriteString("| target | contender | hill_b0 | hill_b1 | hill_b2 | zero mutations | mutation distance |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|\n")
	formats := []string{"%.0f", "%.1f", "%.1f", "%.4f", "%.3f"}
	for _, t := range targets {
		for _, c := range rep.contenders(t) {
			if !isGfz(c) {
				continue
			}
			fmt.Fprintf(b, "| %s | %s |", t, c)
			for i, k := range EngineKeys {
				v := rep.values(t, c, func(r Result) float64 {
					if x, ok := r.Engine[k]; ok {
						return x
					}
					return math.NaN()
				})
				fmt.Fprintf(b, " %s |", spread(v, formats[i]))
			}
			b.WriteString("\n")
		}
	}
}
