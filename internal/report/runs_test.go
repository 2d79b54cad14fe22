package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// plotRows parses plot_data lines (the test's fixtures).
func plotRows(t *testing.T, lines ...string) []plotRow {
	t.Helper()
	var rows []plotRow
	for _, l := range lines {
		r, err := parsePlotRow(l)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		rows = append(rows, r)
	}
	return rows
}

// shortRuns are the rows of three runs of one work directory, as the lru
// example run with -time 1s, -time 1s, then -time 7s writes them: the
// first two runs write one row each (their only, final row, before the
// first 3 s status), the third a status row every 3 s and a final row.
// Elapsed goes up from each run to the next (1.0, 1.1, 3.0).
var shortRuns = map[string][]string{
	// The runs are minutes apart: their starts (unix_time - elapsed_s)
	// differ by far more than rounding.
	"apart": {
		"1700000001, 1.0, 1000, 3, 500, 500, 20, 10, 0, 1, 1, 1, 0, 0",
		"1700000062, 1.1, 1200, 4, 600, 600, 21, 11, 0, 1, 1, 1, 0, 0",
		"1700000123, 3.0, 3300, 5, 1600, 1700, 25, 12, 0, 1, 1, 1, 0, 0",
		"1700000126, 6.0, 6600, 6, 3300, 3300, 30, 14, 0, 1, 1, 1, 0, 0",
		"1700000127, 7.0, 7700, 6, 3800, 3900, 31, 15, 0, 1, 1, 1, 0, 0",
	},
	// Back to back, as gfz-run runs them: run 1 starts at ...00.0 and
	// ends at ...01.0, run 2 starts at ...01.2 and ends at ...02.3, run 3
	// starts at ...02.5. unix_time is truncated to the second, so the
	// starts computed from the rows are ...00.0, ...00.9 and ...02.0: no
	// further apart than the rows of one run can be.
	"back to back": {
		"1700000001, 1.0, 1000, 3, 500, 500, 20, 10, 0, 1, 1, 1, 0, 0",
		"1700000002, 1.1, 1200, 4, 600, 600, 21, 11, 0, 1, 1, 1, 0, 0",
		"1700000005, 3.0, 3300, 5, 1600, 1700, 25, 12, 0, 1, 1, 1, 0, 0",
		"1700000008, 6.0, 6600, 6, 3300, 3300, 30, 14, 0, 1, 1, 1, 0, 0",
		"1700000009, 7.0, 7700, 6, 3800, 3900, 31, 15, 0, 1, 1, 1, 0, 0",
	},
}

// TestRunsOfOneRow: runs that wrote one plot_data row each, followed by
// a longer run, are three runs (their elapsed going up from one to the
// next notwithstanding): the totals add the three, the charts lay them
// end to end with two resume lines, and executions per second is
// measured within the third run only.
func TestRunsOfOneRow(t *testing.T) {
	for name, lines := range shortRuns {
		t.Run(name, func(t *testing.T) {
			rows := plotRows(t, lines...)
			xs, runs := timeline(rows)
			if want := []float64{1, 2.1, 5.1, 8.1, 9.1}; !near(xs, want) || !near(runs, []float64{1, 2.1}) {
				t.Errorf("timeline = %v, runs at %v; want %v, runs at [1 2.1]", xs, runs, want)
			}
			if el, ex := campaign(rows); !near([]float64{el, ex}, []float64{9.1, 9900}) {
				t.Errorf("campaign = %v s, %v execs; want 9.1 s, 9900 (1000 + 1200 + 7700)", el, ex)
			}
			c := charts(rows)
			rate := c[2]
			if len(rate.Series) != 1 || len(rate.Runs) != 2 {
				t.Fatalf("executions/s chart: %+v", rate)
			}
			// Two points (3.0 -> 6.0 and 6.0 -> 7.0 of the third run), both
			// 1100/s: one horizontal segment.
			pts := strings.Fields(rate.Series[0].Points)
			if len(pts) != 2 || pts[0][strings.Index(pts[0], ","):] != pts[1][strings.Index(pts[1], ","):] {
				t.Errorf("executions/s points %q, want two at the same height (1100/s)", pts)
			}
			for _, ch := range c {
				if len(ch.Runs) != 2 {
					t.Errorf("chart %q: %d resume lines, want 2", ch.Title, len(ch.Runs))
				}
			}

			// The report says 3 runs and their totals.
			f := newFixture(t)
			write(t, filepath.Join(f.workdir, "plot_data"), plotHeader+strings.Join(lines, "\n")+"\n")
			p := build(f.options(""))
			for _, want := range []stat{{"runs", "3"}, {"all runs: executions", "9,900"}, {"all runs: time", "9.1s"}} {
				if !slices.Contains(p.Summary, want) {
					t.Errorf("summary %v lacks %v", p.Summary, want)
				}
			}
			if p.Runs != 3 {
				t.Errorf("page.Runs = %d, want 3", p.Runs)
			}
		})
	}
}

// TestOneRunStaysOne: the rows of one run, elapsed going up, are one run,
// although unix_time (truncated to the second) and elapsed_s (rounded to
// 0.1 s) make unix_time - elapsed_s differ by up to 1.1 s from row to
// row; so are rows without a unix time (elapsed going down is then the
// only sign of a new run).
func TestOneRunStaysOne(t *testing.T) {
	// A run started at ...00.96; its status rows late by up to 0.08 s,
	// a final row 0.05 s after the last status row.
	rows := plotRows(t,
		"1700000003, 3.0, 300, 3, 100, 200, 20, 10, 0, 1, 1, 1, 0, 0",   // at 03.99: elapsed 3.03
		"1700000007, 6.0, 600, 4, 200, 400, 21, 11, 0, 1, 1, 1, 0, 0",   // at 07.00: 6.04
		"1700000009, 9.0, 900, 4, 300, 600, 22, 11, 0, 1, 1, 1, 0, 0",   // at 09.96: 9.00
		"1700000013, 12.0, 1200, 5, 400, 800, 23, 12, 0, 1, 1, 1, 0, 0", // at 13.00: 12.04
		"1700000013, 12.1, 1210, 5, 404, 806, 23, 12, 0, 1, 1, 1, 0, 0", // at 13.05: 12.09, the end
	)
	xs, runs := timeline(rows)
	if !near(xs, []float64{3, 6, 9, 12, 12.1}) || len(runs) != 0 {
		t.Errorf("timeline = %v, runs at %v; want one run", xs, runs)
	}
	if el, ex := campaign(rows); !near([]float64{el, ex}, []float64{12.1, 1210}) {
		t.Errorf("campaign = %v s, %v execs; want 12.1 s, 1210", el, ex)
	}
	if c := charts(rows); len(strings.Fields(c[2].Series[0].Points)) != 4 {
		t.Errorf("executions/s points %q, want 4", c[2].Series[0].Points)
	}
	f := newFixture(t)
	write(t, filepath.Join(f.workdir, "plot_data"), plotHeader+
		"1700000003, 3.0, 300, 3, 100, 200, 20, 10, 0, 1, 1, 1, 0, 0\n"+
		"1700000007, 6.0, 600, 4, 200, 400, 21, 11, 0, 1, 1, 1, 0, 0\n")
	if p := build(f.options("")); p.Runs != 1 {
		t.Errorf("page.Runs = %d, want 1", p.Runs)
	}

	// No unix time: elapsed going up is one run, going down a new one.
	xs, runs = timeline([]plotRow{{elapsed: 1}, {elapsed: 1.1}, {elapsed: 3}, {elapsed: 2}})
	if !near(xs, []float64{1, 1.1, 3, 5}) || !near(runs, []float64{3}) {
		t.Errorf("timeline without unix times = %v %v, want [1 1.1 3 5] [3]", xs, runs)
	}
	// Executions going down: a new run, whatever the times say.
	_, runs = timeline([]plotRow{{unix: 1700000003, elapsed: 3, execs: 900}, {unix: 1700000006, elapsed: 6, execs: 800}})
	if !near(runs, []float64{3}) {
		t.Errorf("executions going down: runs at %v, want [3]", runs)
	}
}

// TestIndexExecsAllRuns: the index's executions are the total over the
// work directory's runs (from plot_data), as its heading says; without
// plot_data, the stats' (the last run's).
func TestIndexExecsAllRuns(t *testing.T) {
	f := newFixture(t) // two runs: 9000 and 4000 executions
	out := t.TempDir()
	entries := []IndexEntry{{Package: "p", Target: "FuzzFixture", Workdir: f.workdir}}
	if _, err := WriteIndex(out, entries, time.Time{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := checkWellFormed(t, string(data))
	if !strings.Contains(text, "executions (all runs)") || !strings.Contains(text, "13,000") || strings.Contains(text, "4,000") {
		t.Errorf("index: want executions (all runs) 13,000:\n%s", text)
	}
	os.Remove(filepath.Join(f.workdir, "plot_data"))
	if _, err := WriteIndex(out, entries, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if data, err = os.ReadFile(filepath.Join(out, IndexFile)); err != nil {
		t.Fatal(err)
	}
	if text, _ = checkWellFormed(t, string(data)); !strings.Contains(text, "4,000") {
		t.Errorf("index without plot_data: want the stats' 4,000:\n%s", text)
	}
}

// near reports whether a and b are equal to within rounding.
func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if d := a[i] - b[i]; d > 1e-9 || d < -1e-9 {
			return false
		}
	}
	return true
}

// TestFailureTitle: a failure's heading is its kind and message headline,
// without repeating a message the kind already ends with (a runtime
// panic's kind is "panic: " and its message).
func TestFailureTitle(t *testing.T) {
	for _, c := range []struct{ kind, msg, want string }{
		{"panic: runtime error: integer divide by zero", "runtime error: integer divide by zero", "panic: runtime error: integer divide by zero"},
		{"FAILURE", "want 3, got 4", "FAILURE: want 3, got 4"},
		{"", "want 3", "failure: want 3"},
		{"timeout", "", "timeout"},
		{"", "", "failure"},
	} {
		if got := (failure{Kind: c.kind, Message: c.msg}).Title(); got != c.want {
			t.Errorf("kind %q, message %q: %q, want %q", c.kind, c.msg, got, c.want)
		}
	}
}

// TestValidChartOfAllExecutions: the valid-input chart is of all
// executions, failing ones included, as the headline and the stats'
// valid_pct: 80 valid of 100 executions is 80% whether the other 20 were
// invalid or 8 of them failed (valid/(valid+invalid) drew 87% there).
func TestValidChartOfAllExecutions(t *testing.T) {
	last := func(invalid float64) int {
		rows := []plotRow{
			{unix: 1000, elapsed: 1, execs: 50, valid: 40, invalid: invalid / 2},
			{unix: 1001, elapsed: 2, execs: 100, valid: 80, invalid: invalid},
		}
		for _, c := range charts(rows) {
			if strings.HasPrefix(c.Title, "valid inputs") {
				return c.Series[0].LastY
			}
		}
		t.Fatal("no valid-input chart")
		return 0
	}
	if a, b := last(12), last(20); a != b {
		t.Errorf("80 of 100 executions valid: y %d with 8 failing, %d with none failing; want the same", a, b)
	}
}
