package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gfz-dev/gfz/cover"
	"github.com/gfz-dev/gfz/internal/workdir"
)

const plotHeader = "# unix_time, elapsed_s, execs, corpus, valid, invalid, total_cov, valid_cov, unique_failures, hill_b0, hill_b1, hill_b2, zero_mutations, mutation_distance_mean\n"

// fixture is a work directory with everything a report reads, and a
// module holding the source its coverage profile names.
type fixture struct {
	workdir, module, profile string
	blocks                   []cover.Block
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

const fixtureSource = `package p

func F(x int) int {
	if x > 0 {
		return 1
	}
	return 0
}

func G() {
	println("never")
}
`

func newFixture(t *testing.T) fixture {
	t.Helper()
	root := t.TempDir()
	f := fixture{workdir: filepath.Join(root, "work"), module: filepath.Join(root, "mod")}
	// Two runs: the second resumed the work directory (elapsed and execs
	// restart).
	write(t, filepath.Join(f.workdir, "plot_data"), plotHeader+
		"1700000003, 3.0, 3000, 5, 600, 2400, 40, 30, 0, 1, 1, 1, 0, 0\n"+
		"1700000006, 6.0, 9000, 7, 1800, 7200, 52, 41, 1, 1, 1, 1, 0, 0\n"+
		"1700000103, 3.0, 4000, 8, 1000, 3000, 55, 44, 1, 1, 1, 1, 0, 0\n")
	write(t, filepath.Join(f.workdir, "stats"), "target: FuzzFixture\nengine: zest\nstate: done\nelapsed_s: 3.0\nexecs: 4000\nexecs_per_sec: 1333\nvalid_pct: 25.00\ncorpus: 8\ntotal_cov: 55\nunique_failures: 1\n")
	write(t, filepath.Join(f.workdir, "corpus", "0011223344556677"), "go test fuzz v1\n[]byte(\"x\")\n")
	write(t, filepath.Join(f.workdir, "failures", "aaaaaaaaaaaa.txt"), `gfz failure report
signature: "panic\nindex out of range"
target: FuzzFixture
result: FAILURE
kind: panic
group: 1234 (panic at p.F p.go:5)
found at execution: 1234
reproduce: /bin/fixture.gfz -repro /w/failures/aaaaaaaaaaaa.input FuzzFixture

message:
	runtime error: index out of range [3] with length 3

value:
	x = 3
	name = "bob"

params (hex):
	0003

stack:
	goroutine 1 [running]:
	p.F(...)
`)
	write(t, filepath.Join(f.workdir, "failures", "aaaaaaaaaaaa.input"), "go test fuzz v1\n[]byte(\"\\x00\\x03\")\n")
	write(t, filepath.Join(f.module, "go.mod"), "module example.com/m\n\ngo 1.26\n")
	write(t, filepath.Join(f.module, "p", "p.go"), fixtureSource)
	f.profile = filepath.Join(root, "cover.out")
	write(t, f.profile, "mode: set\n"+
		"example.com/m/p/p.go:3.19,4.11 1 1\n"+
		"example.com/m/p/p.go:4.11,6.3 1 1\n"+
		"example.com/m/p/p.go:7.2,7.10 1 0\n"+
		"example.com/m/p/p.go:10.10,12.2 1 0\n"+
		"example.com/m/q/gone.go:1.1,2.2 3 1\n")
	f.blocks = []cover.Block{
		{File: "example.com/m/p/p.go", Func: "F", StartLine: 3, StartCol: 19, EndLine: 4, EndCol: 11},
		{File: "example.com/m/p/p.go", Func: "F", StartLine: 4, StartCol: 11, EndLine: 6, EndCol: 3},
		{File: "example.com/m/p/p.go", Func: "F", StartLine: 7, StartCol: 2, EndLine: 7, EndCol: 10},
		{File: "example.com/m/p/p.go", Func: "G", StartLine: 10, StartCol: 10, EndLine: 12, EndCol: 2},
	}
	return f
}

func (f fixture) options(out string) Options {
	return Options{Workdir: f.workdir, Out: out, Profile: f.profile, Blocks: f.blocks, SourceDir: f.module,
		Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// checkWellFormed parses the page as XML (the template is written to be
// well-formed) and returns its text content and the count of each
// element.
func checkWellFormed(t *testing.T, page string) (text string, elems map[string]int) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(page))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	elems = map[string]int{}
	var stack []string
	var b strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v (open: %v)", err, stack)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elems[tok.Name.Local]++
			stack = append(stack, tok.Name.Local)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			b.Write(tok)
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements %v", stack)
	}
	return b.String(), elems
}

func TestReportFixture(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(t.TempDir(), "report")
	path, err := Write(f.options(out))
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(out, "index.html") {
		t.Errorf("path %s", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	text, elems := checkWellFormed(t, page)
	for _, want := range []string{
		"gfz report: FuzzFixture",
		"4,000",  // executions, grouped
		"1,333",  // executions/s
		"2 runs", // the resume in plot_data
		"Failures (1)",
		"runtime error: index out of range [3] with length 3",
		"/bin/fixture.gfz -repro /w/failures/aaaaaaaaaaaa.input FuzzFixture",
		`name = "bob"`,
		filepath.Join(f.workdir, "failures", "aaaaaaaaaaaa.input"),
		"found at execution",
		"example.com/m/p/p.go",
		filepath.Join(f.module, "p", "p.go"),
		"50.0%",                                // p.go: 2 of 4 statements
		"71.4%",                                // all: 5 of 7
		"source of 1 of 2 files was not found", // q/gone.go
		"return 0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
	// Four charts, each with its polylines; no script, nothing external.
	if elems["svg"] != 4 || elems["polyline"] != 6 {
		t.Errorf("svg %d, polyline %d; want 4 and 6", elems["svg"], elems["polyline"])
	}
	if elems["script"] != 0 || strings.Contains(page, "http://") && !strings.Contains(page, `xmlns="http://www.w3.org/2000/svg"`) || strings.Contains(page, "https://") || strings.Contains(page, "<link") {
		t.Errorf("report is not self-contained")
	}
	// The resumed run's boundary is drawn.
	if strings.Count(page, `class="run"`) != 4 {
		t.Errorf("want one run boundary in each of the 4 charts")
	}
	// The functions of p.go, and its lines classified.
	for _, want := range []string{
		`<td class="mono">F</td><td class="n">3</td><td class="n">3</td><td class="n">66.7%</td>`,
		`<td class="mono">G</td><td class="n">10</td><td class="n">1</td><td class="n">0.0%</td>`,
		`<div data-n="5" class="c">`,
		`<div data-n="7" class="u">`,
		`<div data-n="4" class="c">`,
		`<div data-n="1">package p</div>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %s", want)
		}
	}
}

// TestReportCorruptInputs: a malformed plot_data line, a missing stats
// file, an unreadable failure report, an orphan .input and a profile that
// does not parse give notes, not errors.
func TestReportCorruptInputs(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.workdir, "plot_data"), plotHeader+
		"1700000003, 3.0, 3000, 5, 600, 2400, 40, 30, 0, 1, 1, 1, 0, 0\n"+
		"1700000004, garbage\n"+
		"1700000005, 5.0, 5000, 6, 900, 4100, NaN, 30, 0, 1, 1, 1, 0, 0\n"+
		"1700000006, 6.0, 9000, 7, 1800, 7200, 52, 41, 1, 1, 1, 1, 0, 0\n")
	os.Remove(filepath.Join(f.workdir, "stats"))
	write(t, filepath.Join(f.workdir, "failures", "bbbbbbbbbbbb.txt"), "\x00\x01 not a report")
	write(t, filepath.Join(f.workdir, "failures", "cccccccccccc.txt"), "gfz failure report\nkind: hang\n")
	write(t, f.profile, "mode: set\nexample.com/m/p/p.go:broken\n")
	var buf bytes.Buffer
	if err := Render(&buf, f.options("")); err != nil {
		t.Fatal(err)
	}
	text, elems := checkWellFormed(t, buf.String())
	for _, want := range []string{
		"plot_data line 3 skipped: 2 columns, want at least 9",
		`plot_data line 4 skipped: column 7 is not a number: "NaN"`,
		"no run statistics",
		"not a gfz failure report",
		"its .input file is missing",
		"coverage profile unreadable",
		"Failures (3)",
		"gfz report: work", // no target in stats: the work directory's name
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
	if elems["polyline"] != 6 {
		t.Errorf("charts from the good rows: %d polylines, want 6", elems["polyline"])
	}

	// Nothing at all: still a report.
	buf.Reset()
	if err := Render(&buf, Options{Workdir: filepath.Join(t.TempDir(), "missing")}); err != nil {
		t.Fatal(err)
	}
	text, _ = checkWellFormed(t, buf.String())
	for _, want := range []string{"not found", "No plot data", "No failures recorded", "no coverage profile"} {
		if !strings.Contains(text, want) {
			t.Errorf("empty report lacks %q", want)
		}
	}
}

// TestReportEscapes: values from the work directory and the source are
// text, never markup.
func TestReportEscapes(t *testing.T) {
	f := newFixture(t)
	const evil = `<script>alert("x")</script>`
	write(t, filepath.Join(f.workdir, "failures", "aaaaaaaaaaaa.txt"), "gfz failure report\nkind: panic\nreproduce: "+evil+"\n\nmessage:\n\t"+evil+"\n\nvalue:\n\ts = \""+evil+"\"\n")
	write(t, filepath.Join(f.workdir, "stats"), "target: "+evil+"\nexecs: 1\n")
	write(t, filepath.Join(f.module, "p", "p.go"), strings.Replace(fixtureSource, `"never"`, "`"+evil+"`", 1))
	var buf bytes.Buffer
	if err := Render(&buf, f.options("")); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "<script") {
		t.Fatalf("unescaped markup in the report:\n%s", page)
	}
	text, elems := checkWellFormed(t, page)
	if elems["script"] != 0 || strings.Count(text, evil) < 5 { // title, heading, message, reproduce, value, source
		t.Errorf("the values are not shown as text (%d times)", strings.Count(text, evil))
	}
}

// TestReportControlBytes: a message holding a terminal's colour codes and
// bytes that are not UTF-8 shows them as U+FFFD, in the heading as in the
// body (only the body's <pre> was cleaned: raw ESC bytes and invalid UTF-8
// in a page declared UTF-8).
func TestReportControlBytes(t *testing.T) {
	f := newFixture(t)
	msg := "\x1b[31mred\x1b[0m \xff\xfe done"
	write(t, filepath.Join(f.workdir, "failures", "aaaaaaaaaaaa.txt"), "gfz failure report\nkind: panic: "+msg+"\nreproduce: r\n\nmessage:\n\t"+msg+"\n")
	var buf bytes.Buffer
	if err := Render(&buf, f.options("")); err != nil {
		t.Fatal(err)
	}
	page := buf.Bytes()
	if !utf8.Valid(page) || bytes.ContainsRune(page, 0x1b) {
		t.Errorf("the page holds invalid UTF-8 or an ESC byte")
	}
	if !strings.Contains(string(page), "\ufffd[31mred\ufffd[0m \ufffd\ufffd done") {
		t.Errorf("the message is not shown with U+FFFD for its control and invalid bytes")
	}
	if got := string(cleanText([]byte("a\tb\nc\r\n<p>é</p>"))); got != "a\tb\nc\r\n<p>é</p>" {
		t.Errorf("clean text changed: %q", got)
	}
}

func TestTimelineAndTicks(t *testing.T) {
	xs, runs := timeline([]plotRow{{elapsed: 3}, {elapsed: 6}, {elapsed: 2}, {elapsed: 4}})
	if got, want := xs, []float64{3, 6, 8, 10}; !equal(got, want) || !equal(runs, []float64{6}) {
		t.Errorf("timeline = %v %v, want %v [6]", got, runs, want)
	}
	ticks, top := niceTicks(0, 87, 5)
	if !equal(ticks, []float64{0, 20, 40, 60, 80, 100}) || top != 100 {
		t.Errorf("niceTicks(0, 87) = %v %v", ticks, top)
	}
	var many []point
	for i := range 5000 {
		many = append(many, point{float64(i), 1})
	}
	if th := thin(many, maxPoints); len(th) != maxPoints || th[0].x != 0 || th[len(th)-1].x != 4999 {
		t.Errorf("thin: %d points from %v to %v", len(th), th[0], th[len(th)-1])
	}
	long := failure{Message: strings.Repeat("é", 300) + "\nsecond line"}
	if h := long.Headline(); h != strings.Repeat("é", 200)+"…" || !long.LongMessage() {
		t.Errorf("Headline = %q", h)
	}
	// One plot_data row: no line, but its point is marked.
	c := charts([]plotRow{{elapsed: 1.2, execs: 100, corpus: 3, valid: 10, invalid: 90, totalCov: 7}})
	if len(c) != 4 || !c[0].Series[0].HasLast || c[0].XTicks[0].Label != "0" || c[2].Note == "" {
		t.Errorf("charts of one row: %+v", c)
	}
	for s, want := range map[float64]string{0: "0", 0.4: "0.4s", 20: "20s", 60: "1m", 90: "1m30s", 3600: "1h"} {
		if got := fmtDuration(s); got != want {
			t.Errorf("fmtDuration(%v) = %q, want %q", s, got, want)
		}
	}
	for s, want := range map[string]string{"1234": "1,234", "999": "999", "50175294": "50,175,294", "12.5": "12.5", "100000": "100,000"} {
		if got := groupDigits(s); got != want {
			t.Errorf("groupDigits(%s) = %q, want %q", s, got, want)
		}
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReadProfile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.out")
	write(t, p, "mode: set\nm/b.go:3.1,4.2 2 0\nm/a.go:5.1,6.2 1 1\nm/a.go:1.1,2.2 3 0\nm/b.go:3.1,4.2 2 1\n")
	profs, err := readProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(profs) != 2 || profs[0].FileName != "m/a.go" || profs[1].FileName != "m/b.go" ||
		len(profs[0].Blocks) != 2 || profs[0].Blocks[0].StartLine != 1 || profs[0].Blocks[0].NumStmt != 3 ||
		len(profs[1].Blocks) != 1 || profs[1].Blocks[0].Count != 1 {
		t.Errorf("readProfile = %+v %+v", profs[0], profs[1])
	}
	for _, bad := range []string{"", "m/a.go:1.1,2.2 1 1\n", "mode: set\nm/a.go 1 1\n", "mode: set\nm/a.go:1.1,2.2 x 1\n", "mode: set\nm/a.go:1.1,2.2 1 -1\n"} {
		write(t, p, bad)
		if _, err := readProfile(p); err == nil {
			t.Errorf("readProfile(%q): no error", bad)
		}
	}
	if got := modulePath([]byte("// c\nmodule \"example.com/q\" // x\n")); got != "example.com/q" {
		t.Errorf("modulePath = %q", got)
	}
}

// TestSourceLinesNested: gfz's profiles nest blocks (a function body
// around its branches); an inner block's status wins over the outer one's
// for its characters, and a line is partly covered only when its code is.
func TestSourceLinesNested(t *testing.T) {
	src := "package p\n\nfunc F(n int) int {\n\tif n == 0 {\n\t\treturn 1\n\t}\n\tif n > 1 { n-- } else { n++ }\n\treturn n\n}\n"
	path := filepath.Join(t.TempDir(), "p.go")
	write(t, path, src)
	p := &profile{FileName: "m/p.go", Blocks: []profileBlock{
		{StartLine: 3, StartCol: 19, EndLine: 9, EndCol: 2, NumStmt: 4, Count: 1},  // the body
		{StartLine: 4, StartCol: 13, EndLine: 6, EndCol: 3, NumStmt: 1, Count: 0},  // then of line 4
		{StartLine: 7, StartCol: 11, EndLine: 7, EndCol: 17, NumStmt: 1, Count: 1}, // { n-- }
		{StartLine: 7, StartCol: 24, EndLine: 7, EndCol: 31, NumStmt: 1, Count: 0}, // { n++ }
	}}
	budget := maxSourceBytes
	lines, note := sourceLines(path, p, &budget)
	if note != "" {
		t.Fatal(note)
	}
	var got []string
	for _, l := range lines {
		got = append(got, l.Class)
	}
	want := []string{"", "", "c", "c", "u", "u", "p", "c", "c"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("classes %q, want %q", got, want)
	}
	// A block past the file's end: the file was edited since the run.
	p.Blocks = append(p.Blocks, profileBlock{StartLine: 20, StartCol: 1, EndLine: 21, EndCol: 2, NumStmt: 1})
	if lines, note := sourceLines(path, p, &budget); lines != nil || !strings.Contains(note, "edited since the run") {
		t.Errorf("stale source: %v %q", lines, note)
	}
}

// TestReportStatsFile: the stats file as workdir.ReadStats reads it: its
// lines in the table, as written; the summary and the index take the
// last line of a repeated key; each line skipped or doubted is a note
// naming it; a missing file is a note naming it.
func TestReportStatsFile(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.workdir, "stats"), "target: FuzzFixture\r\nexecs: 1000\r\ngarbage\r\n: 5\r\nexecs: 4000\r\ncorpus: 8")
	p := build(f.options(""))
	want := []workdir.Stat{
		{Key: "target", Value: "FuzzFixture", Line: 1}, {Key: "execs", Value: "1000", Line: 2},
		{Key: "execs", Value: "4000", Line: 5}, {Key: "corpus", Value: "8", Line: 6},
	}
	if !slices.Equal(p.Stats, want) {
		t.Errorf("table %v, want %v", p.Stats, want)
	}
	if p.Title != "gfz report: FuzzFixture" || !slices.Contains(p.Summary, stat{"executions", "4,000"}) || !slices.Contains(p.Summary, stat{"corpus", "8 inputs"}) {
		t.Errorf("title %q, summary %v; want FuzzFixture, 4,000 executions (the last line), 8 inputs", p.Title, p.Summary)
	}
	for _, want := range []string{
		`stats line 3 skipped: not "key: value"`,
		`stats line 4 skipped: empty key`,
		`stats line 5: key "execs" repeats line 2; the last value counts`,
	} {
		if !slices.Contains(p.Notes, want) {
			t.Errorf("notes %q lack %q", p.Notes, want)
		}
	}

	out := t.TempDir()
	missing := filepath.Join(t.TempDir(), "gone")
	// Without plot_data the index's executions are the stats' (with it,
	// the total over the runs: TestIndexExecsAllRuns).
	os.Remove(filepath.Join(f.workdir, "plot_data"))
	if _, err := WriteIndex(out, []IndexEntry{{Package: "p", Target: "FuzzFixture", Workdir: f.workdir}, {Package: "p", Target: "FuzzGone", Workdir: missing}}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := checkWellFormed(t, string(data))
	if !strings.Contains(text, "4,000") || strings.Contains(text, "1,000") {
		t.Errorf("index: want the last execs (4,000):\n%s", text)
	}
	if want := "no run statistics: stats file " + filepath.Join(missing, "stats") + ": no such file or directory"; !strings.Contains(text, want) {
		t.Errorf("index lacks %q:\n%s", want, text)
	}
}

// TestFailureHeadline: a failure is named by the first meaningful line of
// its message, not by its last (a native t.Errorf of several lines was
// named "^").
func TestFailureHeadline(t *testing.T) {
	f := failure{Message: "x_test.go:14: bad pair:\n  a=1\n  b=4\n |\n ^"}
	if h := f.Headline(); h != "x_test.go:14: bad pair: …" || !f.LongMessage() {
		t.Errorf("Headline = %q", h)
	}
}

// TestReportUnconfirmed: the hangs kept apart as unconfirmed are listed on
// the target's page (they were only a count in the raw stats).
func TestReportUnconfirmed(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.workdir, "unconfirmed", "bbbbbbbbbbbb.txt"), "gfz failure report\nkind: timeout\nreproduce: ./p.gfz -timeout 1s -repro x FuzzP\n\nmessage:\n\tworker 0: execution 3 ran for more than 1s\n")
	var buf bytes.Buffer
	if err := Render(&buf, f.options("")); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if !strings.Contains(page, "Unconfirmed hangs and memory deaths (1)") || !strings.Contains(page, "execution 3 ran for more than 1s") ||
		!strings.Contains(page, "-timeout 1s -repro x FuzzP") {
		t.Errorf("the unconfirmed hang is not on the page")
	}
}
