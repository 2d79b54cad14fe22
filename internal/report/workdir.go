package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// Reading a work directory: plot_data, stats and failures/*.txt, in the
// formats internal/engine writes (docs/ENGINE.md, "Work directory"). Every
// reader is lenient: what cannot be read becomes a note in the report.

// plotRow is one plot_data row (the columns the report draws).
type plotRow struct {
	unix, elapsed                 float64
	execs, corpus, valid, invalid float64
	totalCov, validCov, failures  float64
}

// plotColumns is the number of plot_data columns the report needs (the
// first nine; later gfz versions may append more).
const plotColumns = 9

// maxNotes bounds the notes about one file's unreadable lines.
const maxNotes = 5

// readPlot reads plot_data. A missing file gives no rows and a note;
// malformed lines are skipped with a note each (the first few).
func readPlot(path string) (rows []plotRow, notes []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []string{fmt.Sprintf("no plot data: %v", err)}
	}
	bad := 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := parsePlotRow(line)
		if err != nil {
			bad++
			if bad <= maxNotes {
				notes = append(notes, fmt.Sprintf("%s line %d skipped: %v", filepath.Base(path), i+1, err))
			}
			continue
		}
		rows = append(rows, r)
	}
	if bad > maxNotes {
		notes = append(notes, fmt.Sprintf("%s: %d more malformed lines skipped", filepath.Base(path), bad-maxNotes))
	}
	return rows, notes
}

func parsePlotRow(line string) (plotRow, error) {
	f := strings.Split(line, ",")
	if len(f) < plotColumns {
		return plotRow{}, fmt.Errorf("%d columns, want at least %d", len(f), plotColumns)
	}
	var v [plotColumns]float64
	for i := range v {
		x, err := strconv.ParseFloat(strings.TrimSpace(f[i]), 64)
		if err != nil || x < 0 || x != x {
			return plotRow{}, fmt.Errorf("column %d is not a number: %q", i+1, strings.TrimSpace(f[i]))
		}
		v[i] = x
	}
	return plotRow{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]}, nil
}

// stat is one "key: value" line of a failure report's header, or a
// figure of the summary.
type stat struct{ Key, Value string }

// readStats reads the stats file (workdir.ReadStats). A missing or
// unreadable file gives no stats and a note; each line skipped or doubted
// gives a note naming the file and the line.
func readStats(path string) (*workdir.Stats, []string) {
	st, notes, err := workdir.ReadStats(path)
	if err != nil {
		return nil, []string{fmt.Sprintf("no run statistics: %v", err)}
	}
	for i, n := range notes {
		notes[i] = filepath.Base(path) + " " + n
	}
	return st, notes
}

// statValue returns the value of key in st ("" if absent).
func statValue(st *workdir.Stats, key string) string {
	v, _ := st.Get(key)
	return v
}

// failure is one failures/*.txt report.
type failure struct {
	Name      string // base name, <12 hex>
	Report    string // path of the .txt
	Input     string // path of the .input ("" if missing)
	Fields    []stat // the header's key: value lines, in order
	Kind      string
	Message   string
	Value     string
	Params    string
	Stack     string
	Reproduce string
	Note      string // what could not be read
}

// Headline is the message in one line (workdir.Headline: its first
// meaningful line, shortened, "…" when there is more).
func (f failure) Headline() string { return workdir.Headline(f.Message) }

// Title is the failure's heading: its kind and message headline, the
// headline left out when the kind already ends with it (a runtime panic's
// kind is "panic: " and its message).
func (f failure) Title() string {
	k, h := f.Kind, f.Headline()
	switch {
	case k == "":
		k = "failure"
	case h != "" && strings.HasSuffix(k, h):
		return k
	}
	if h == "" {
		return k
	}
	return k + ": " + h
}

// LongMessage reports whether the message says more than Headline.
func (f failure) LongMessage() bool { return f.Headline() != f.Message }

// maxFailures bounds the failures shown; maxSection the bytes of a
// report's section shown.
const (
	maxFailures = 200
	maxSection  = 16 << 10
)

// readFailures reads failures/*.txt in name order.
func readFailures(dir string) (out []failure, notes []string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, []string{fmt.Sprintf("failures: %v", err)}
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".txt") || !e.Type().IsRegular() {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > maxFailures {
		notes = append(notes, fmt.Sprintf("%d failure reports; the first %d (by name) are shown", len(names), maxFailures))
		names = names[:maxFailures]
	}
	for _, n := range names {
		out = append(out, readFailure(filepath.Join(dir, n)))
	}
	return out, notes
}

// readFailure parses one report: "gfz failure report", "key: value" lines
// up to the first blank line, then sections "name:" with tab-indented
// bodies.
func readFailure(path string) failure {
	base := strings.TrimSuffix(path, ".txt")
	f := failure{Name: filepath.Base(base), Report: path}
	if _, err := os.Stat(base + ".input"); err == nil {
		f.Input = base + ".input"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Note = fmt.Sprintf("report unreadable: %v", err)
		return f
	}
	rf, err := workdir.ParseReport(data)
	if rf == nil {
		f.Note = err.Error()
		return f
	}
	if err != nil {
		f.Note = fmt.Sprintf("report partly read: %v", err)
	}
	for _, kv := range rf.Header {
		k, v := kv[0], kv[1]
		if k == "signature" {
			if s, err := strconv.Unquote(v); err == nil {
				v = s
			}
		}
		f.Fields = append(f.Fields, stat{k, v})
	}
	get := func(name string) string {
		// At most maxSection bytes of whole lines (the first line past it
		// included), then a note that the section is cut.
		var b strings.Builder
		for _, l := range strings.SplitAfter(rf.Sections[name], "\n") {
			if b.Len() >= maxSection {
				break
			}
			b.WriteString(l)
		}
		s := strings.TrimRight(b.String(), "\n")
		if s == "(none)" {
			return ""
		}
		if len(s) >= maxSection {
			s += "\n… (cut; see the report file)"
		}
		return s
	}
	f.Message, f.Value, f.Params, f.Stack = get("message"), get("value"), get("params (hex)"), get("stack")
	f.Kind, f.Reproduce = rf.Get("kind"), rf.Get("reproduce")
	if f.Input == "" && f.Note == "" {
		f.Note = "its .input file is missing"
	}
	return f
}
