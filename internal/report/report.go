// Package report writes the HTML report of a gfz work directory: one
// self-contained index.html (styles and charts inline, no script, nothing
// fetched from the network) with the run's statistics, coverage, valid
// share, executions per second and corpus size over time (from
// plot_data), the failures with their values and reproduce commands (from
// failures/*.txt) and the source coverage of the campaign (a go tool cover
// profile, rendered as go tool cover -html does, with the source read from
// disk).
//
// Every input is optional and read leniently: a missing or malformed file
// becomes a note in the report, never an error; only failing to write the
// report is one. Everything is escaped by html/template.
package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gfz-dev/gfz/cover"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// Options say what to report and where.
type Options struct {
	// Workdir is the work directory reported on.
	Workdir string
	// Out is the directory the report is written to, as Out/index.html.
	Out string
	// Profile is a go tool cover profile of the campaign ("": none).
	Profile string
	// Blocks, if set, name the function of each profile block (the
	// fuzz binary's own probe tables).
	Blocks []cover.Block
	// Sources maps profile file names (import-path/base.go) to files on
	// disk; names not in it are looked for under the module containing
	// SourceDir (default: the current directory).
	Sources   map[string]string
	SourceDir string
	// Now is the time the report says it was generated (default: now).
	Now time.Time
}

// IndexFile is the name of the report's file in its directory.
const IndexFile = "index.html"

// Write renders the report and writes Out/index.html atomically,
// creating Out if needed. It returns the path written.
func Write(o Options) (string, error) {
	var buf bytes.Buffer
	if err := Render(&buf, o); err != nil {
		return "", err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	path := filepath.Join(o.Out, IndexFile)
	if err := workdir.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	return path, nil
}

// page is what the template renders.
type page struct {
	Title     string
	Workdir   string
	Generated string
	Summary   []stat         // headline figures
	Stats     []workdir.Stat // the stats file's lines, in its order
	Notes     []string
	Charts    []chart
	Runs      int // runs recorded in plot_data
	Failures  []failure
	// Unconfirmed are the hangs and memory deaths kept apart because
	// re-running their input alone did not repeat them, or could not.
	Unconfirmed []failure
	Coverage    coverage
	Arms        []armRow // the adaptive engine's arms (arms.go)
	ArmsShare   bool     // ... and a generation share made some of its children
	ArmsFirst   string   // ... the first of which were all the children ("2,500 children": generation first; "": none)
	ArmsFirstOn bool     // ... and generation first had not ended
}

// Render renders the report of o.Workdir to w.
func Render(w io.Writer, o Options) error {
	p := build(o)
	var buf bytes.Buffer
	if err := pageTemplate().Execute(&buf, p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if _, err := w.Write(cleanText(buf.Bytes())); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// cleanText replaces, in a rendered page, what a target's messages and
// values may hold that HTML's escaping leaves as it is: bytes that are not
// UTF-8 (the page says charset=utf-8) and control characters other than
// tab, newline and carriage return (a terminal's colour codes), by U+FFFD.
// The page's own markup has neither.
func cleanText(b []byte) []byte { return []byte(workdir.Printable(string(b))) }

func build(o Options) *page {
	wd := o.Workdir
	if abs, err := filepath.Abs(wd); err == nil {
		wd = abs
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	p := &page{Workdir: wd, Generated: now.Format(time.RFC3339)}
	if fi, err := os.Stat(wd); err != nil || !fi.IsDir() {
		p.Notes = append(p.Notes, fmt.Sprintf("work directory %s not found", wd))
	}
	stats, notes := readStats(filepath.Join(wd, "stats"))
	p.Stats, p.Notes = stats.Lines(), append(p.Notes, notes...)
	var first int64
	var ended bool
	p.Arms, p.ArmsShare, first, ended = readArms(stats)
	if first > 0 {
		p.ArmsFirst, p.ArmsFirstOn = groupDigits(fmt.Sprint(first))+" children", !ended
		if first == 1 {
			p.ArmsFirst = "1 child"
		}
	}
	rows, notes := readPlot(filepath.Join(wd, "plot_data"))
	p.Notes = append(p.Notes, notes...)
	if len(rows) > 0 {
		p.Charts = charts(rows)
		_, runs := timeline(rows)
		p.Runs = len(runs) + 1
	}
	p.Failures, notes = readFailures(filepath.Join(wd, "failures"))
	p.Notes = append(p.Notes, notes...)
	p.Unconfirmed, notes = readFailures(filepath.Join(wd, "unconfirmed"))
	p.Notes = append(p.Notes, notes...)
	dir := o.SourceDir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	p.Coverage = readCoverage(o.Profile, o.Blocks, resolver(o.Sources, dir))

	target := statValue(stats, "target")
	if target == "" {
		target = filepath.Base(wd)
	}
	p.Title = "gfz report: " + target
	for _, k := range []struct{ key, label, unit string }{
		{"state", "state", ""}, {"engine", "engine", ""}, {"elapsed_s", "elapsed", " s"},
		{"execs", "executions", ""}, {"execs_per_sec", "executions/s", ""}, {"valid_pct", "valid", " %"},
		{"corpus", "corpus", " inputs"}, {"total_cov", "coverage", " keys"}, {"unique_failures", "unique failures", ""},
	} {
		if v := statValue(stats, k.key); v != "" {
			p.Summary = append(p.Summary, stat{k.label, groupDigits(v) + k.unit})
		}
	}
	if p.Runs > 1 {
		el, ex := campaign(rows)
		p.Summary = append(p.Summary, stat{"runs", fmt.Sprint(p.Runs)}, stat{"all runs: time", fmtDuration(el)},
			stat{"all runs: executions", groupDigits(fmt.Sprintf("%.0f", ex))})
	}
	if p.Coverage.Stmts > 0 {
		p.Summary = append(p.Summary, stat{"statements covered", p.Coverage.Percent()})
	}
	return p
}

//go:embed report.html
var pageHTML string

// pageTemplate is parsed when first used (see indexTemplate).
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(pageHTML))
})

// groupDigits writes an integer with thousands separators (50,175,294);
// anything else is returned as it is.
func groupDigits(s string) string {
	if len(s) < 4 || strings.Trim(s, "0123456789") != "" {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// campaign sums the elapsed time and executions of the runs recorded in
// plot rows (each run's counters restart from 0; newRun tells the runs
// apart): the figures of each run's last row.
func campaign(rows []plotRow) (elapsed, execs float64) {
	for i, r := range rows {
		if i == len(rows)-1 || newRun(r, rows[i+1]) {
			elapsed += r.elapsed
			execs += r.execs
		}
	}
	return elapsed, execs
}
