package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// The index of several reports (gfz-run -report DIR): one line per fuzz
// target with its headline figures and a link to its report.

// IndexEntry is one target's report in an index.
type IndexEntry struct {
	Package, Target string
	Workdir         string // the target's work directory
	Report          string // the directory of its report, under the index's
	Status          string // how its run ended, e.g. "new failure"
}

type indexRow struct {
	IndexEntry
	Link                      string
	Execs, Coverage, Failures string
	Note                      string
}

// WriteIndex writes out/index.html, linking to each entry's report. The
// figures are read from each work directory's stats, but for the
// executions: the total over its runs, from its plot_data.
func WriteIndex(out string, entries []IndexEntry, now time.Time) (string, error) {
	return writeIndex(out, entries, nil, now)
}

// writeIndex writes the index, with the schedule's view if s is not nil
// (schedule.go).
func writeIndex(out string, entries []IndexEntry, s *Schedule, now time.Time) (string, error) {
	if now.IsZero() {
		now = time.Now()
	}
	var rows []indexRow
	for _, e := range entries {
		r := indexRow{IndexEntry: e}
		if rel, err := filepath.Rel(out, filepath.Join(e.Report, IndexFile)); err == nil {
			r.Link = filepath.ToSlash(rel)
		}
		if _, err := os.Stat(filepath.Join(e.Report, IndexFile)); err != nil {
			r.Link, r.Note = "", "no report written"
		}
		stats, notes := readStats(filepath.Join(e.Workdir, "stats"))
		if stats.Len() == 0 && len(notes) > 0 && r.Note == "" {
			r.Note = notes[0]
		}
		// The executions of all the work directory's runs (plot_data),
		// not only of the last (stats): a target that gfz-run ran in
		// several processes, or a resumed work directory.
		r.Execs = groupDigits(statValue(stats, "execs"))
		if plot, _ := readPlot(filepath.Join(e.Workdir, "plot_data")); len(plot) > 0 {
			_, ex := campaign(plot)
			r.Execs = groupDigits(fmt.Sprintf("%.0f", ex))
		}
		r.Coverage = statValue(stats, "total_cov")
		r.Failures = statValue(stats, "unique_failures")
		rows = append(rows, r)
	}
	var sv *scheduleView
	if s != nil {
		sv = buildSchedule(entries, rows, s)
	}
	var buf bytes.Buffer
	if err := indexTemplate().Execute(&buf, struct {
		Rows      []indexRow
		Generated string
		Schedule  *scheduleView
		Refresh   bool
	}{rows, now.Format(time.RFC3339), sv, s != nil && s.Running}); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	path := filepath.Join(out, IndexFile)
	if err := workdir.WriteFileAtomic(path, cleanText(buf.Bytes())); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	return path, nil
}

//go:embed index.html
var indexHTML string

//go:embed schedule.html
var scheduleHTML string

// indexTemplate is parsed when first used: the package is linked into
// every fuzz worker, which starts again after each death and never writes
// a report (parsing at init cost a worker start about 1.5 ms).
var indexTemplate = sync.OnceValue(func() *template.Template {
	t := template.Must(template.New("index").Parse(indexHTML))
	template.Must(t.New("schedule").Parse(scheduleHTML))
	return t
})
