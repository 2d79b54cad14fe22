package gfz

import (
	"bytes"
	"context"
	"html"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/report"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// The failure reports of native targets: what a report says about a
// shrunk input (its values, its headline, what shrinking did), from a
// failing seed run through engine.Run in this process.

// runNativeSeed runs engine.Run over the native fuzz function fn with the
// arguments seed (encoded) as its only seed and one execution, and returns
// the saved failure's input and report, and the run's status output.
func runNativeSeed(t *testing.T, fn any, seed ...any) (input []byte, report, status string) {
	t.Helper()
	input, report, status, _ = runNativeSeedIn(t, fn, seed...)
	return input, report, status
}

// runNativeSeedIn is runNativeSeed that also returns the work directory.
func runNativeSeedIn(t *testing.T, fn any, seed ...any) (input []byte, report, status, wd string) {
	t.Helper()
	return runNativeExecSeed(t, nativeExecOf(t, fn), seed...)
}

// runNativeExecSeed is runNativeSeedIn with the executor ex.
func runNativeExecSeed(t *testing.T, ex *nativeExec, seed ...any) (input []byte, report, status, wd string) {
	t.Helper()
	var st strings.Builder
	cfg := engine.Config{
		Engine: "zest",
		Target: "FuzzTest", Seed: 1, Runs: 1, Timeout: engine.NoTimeout,
		Workdir: t.TempDir(), Seeds: [][]byte{params(t, seed...)}, Status: &st,
	}
	sum, err := engine.Run(context.Background(), cfg, ex)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.FailureFiles) != 1 {
		t.Fatalf("%d failures saved, want 1 (summary %+v)\n%s", len(sum.FailureFiles), sum, st.String())
	}
	path := sum.FailureFiles[0]
	in, err := workdir.ReadFileWith(ex.Codec(), path)
	if err != nil {
		t.Fatal(err)
	}
	txt, err := os.ReadFile(strings.TrimSuffix(path, ".input") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return in, string(txt), st.String(), cfg.Workdir
}

// section returns the body of a report section ("value", "message", ...)
// without its tab indentation.
func section(report, name string) string {
	_, body, ok := strings.Cut(report, "\n"+name+":\n")
	if !ok {
		return ""
	}
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		if !strings.HasPrefix(l, "\t") {
			break
		}
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	return strings.Join(lines, "\n")
}

// TestNativeReportValueIsShrunk: the value a report shows is the shrunk
// input's (the one its .input file holds), not the original's, which has
// its own section. (The report used to show the original's values under
// "value:" next to "shrunk: 38 -> 7 bytes".)
func TestNativeReportValueIsShrunk(t *testing.T) {
	in, rep, _, wd := runNativeSeedIn(t, func(t *testing.T, s string) {
		if len(s) > 3 && s[0] == '{' {
			panic("brace")
		}
	}, `{"filterbar": add}?.y(srray, abs(f32))`)
	args, err := native.Types{native.String}.DecodeBytes(in)
	if err != nil {
		t.Fatal(err)
	}
	shrunk := string(args[0].B)
	if len(shrunk) != 4 || shrunk[0] != '{' {
		t.Fatalf("shrunk to %q, want 4 bytes starting with {\n%s", shrunk, rep)
	}
	if got, want := section(rep, "value"), "arg0 string = string("+strconv.Quote(shrunk)+")"; got != want {
		t.Errorf("value section %q, want %q (the shrunk input's)\n%s", got, want, rep)
	}
	if got := section(rep, "original value (before shrinking)"); !strings.Contains(got, "filterbar") {
		t.Errorf("original value section %q\n%s", got, rep)
	}
	// The HTML report shows the values of the report's "value" section.
	var page strings.Builder
	if err := report.Render(&page, report.Options{Workdir: wd}); err != nil {
		t.Fatal(err)
	}
	values := html.EscapeString("arg0 string = string(" + strconv.Quote(shrunk) + ")")
	if !strings.Contains(page.String(), `<div class="label">values</div><pre>`+values) {
		t.Errorf("the HTML report does not show the shrunk value %s", values)
	}
}

// TestNativeReportValueAsDrawn: the value of a failure is the argument as
// it was decoded, before the fuzz function modified it.
func TestNativeReportValueAsDrawn(t *testing.T) {
	_, rep, _ := runNativeSeed(t, func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'x' {
			b[0] = '!'
			t.Fatal("x")
		}
	}, []byte("x"))
	if got := section(rep, "value"); got != `arg0 []byte = []byte("x")` {
		t.Errorf("value section %q, want the argument as decoded\n%s", got, rep)
	}
}

// TestNativeHeadlineMultiLine: a t.Errorf message of several lines is
// named by its first line (with "…" for the rest) in the status line and
// the report's message section starts with it; the whole message is in
// the report. (The headline used to be the message's last line, "^".)
func TestNativeHeadlineMultiLine(t *testing.T) {
	_, rep, status := runNativeSeed(t, func(t *testing.T, a, b int) {
		t.Log("checking")
		if a > 0 && b > 3 {
			t.Errorf("bad pair:\n  a=%d\n  b=%d\n |\n ^", a, b)
		}
	}, 17, 42)
	if !strings.Contains(status, "gfz: new failure (t.Error): native_report_internal_test.go:") ||
		!strings.Contains(status, ": bad pair: …\n") {
		t.Errorf("status line does not name the failure by its first line:\n%s", status)
	}
	msg := section(rep, "message")
	first, _, _ := strings.Cut(msg, "\n")
	if !strings.HasSuffix(first, ": bad pair:") {
		t.Errorf("message starts with %q, want the failing call's first line\n%s", first, rep)
	}
	if !strings.Contains(msg, "bad pair:\n  a=1\n  b=4\n |\n ^\nlog:\n") || !strings.Contains(msg, "checking") {
		t.Errorf("message section lacks the whole message and log:\n%s", msg)
	}
}

// TestNativeShrinkNoteSameSize: a shrink that lowered a native target's
// integers without changing the encoded size says so, and does not say
// that no smaller input fails. (It said "17 -> 17 bytes ... no smaller
// input fails the same way" although the values went 17 -> 1, 42 -> 4.)
func TestNativeShrinkNoteSameSize(t *testing.T) {
	in, rep, status := runNativeSeed(t, func(t *testing.T, a, b int) {
		if a > 0 && b > 3 {
			t.Fatalf("a=%d b=%d", a, b)
		}
	}, 17, 42)
	if want := params(t, 1, 4); string(in) != string(want) {
		t.Errorf("shrunk input %x, want %x (a=1, b=4)", in, want)
	}
	for _, s := range []string{rep, status} {
		if !strings.Contains(s, "shrunk: 16 -> 16 bytes (same size, values made simpler), ") || strings.Contains(s, "no smaller input") {
			t.Errorf("shrink note does not say what shrinking did:\n%s", s)
		}
	}
	if got := section(rep, "value"); got != "arg0 int = int(1)\narg1 int = int(4)" {
		t.Errorf("value section %q", got)
	}
}

// markerPast is the planted bug of the shrink tests: data holds the
// 4-byte marker "BUG!" at offset 16 or later.
func markerPast(data []byte) bool {
	const from = 16
	return len(data) > from && bytes.Contains(data[from:], []byte("BUG!"))
}

// junk returns n bytes of fixed pseudo-random junk (none of them in
// "BUG!", so the only marker is the one planted).
func junk(n int, seed uint64) []byte {
	b := make([]byte, n)
	for i := range b {
		seed = seed*6364136223846793005 + 1442695040888963407
		c := byte(seed >> 56)
		if bytes.IndexByte([]byte("BUG!"), c) >= 0 {
			c ^= 0x80
		}
		b[i] = c
	}
	return b
}

// plant returns n junk bytes with the marker at offset at.
func plant(n, at int, seed uint64) []byte {
	b := junk(n, seed)
	copy(b[at:], "BUG!")
	return b
}

// TestNativeShrinkMarker: a native target that panics when its []byte
// holds a 4-byte marker anywhere past offset 16 shrinks to the minimal
// input, 20 bytes (16 simplest bytes, then the marker), from inputs with
// the marker at several places amid junk. go test -fuzz's minimizer
// reaches 20 bytes on these inputs too; gfz's shrinker stopped at 30 to
// 124 bytes on a real target's failure (it had no pass deleting ranges
// longer than 8 bytes of an argument).
func TestNativeShrinkMarker(t *testing.T) {
	want := "0000000000000000BUG!"
	for _, in := range [][]byte{
		plant(40, 30, 1),
		plant(300, 17, 2),
		plant(600, 450, 3),
		append(plant(200, 100, 4), plant(100, 3, 5)...), // a second marker, too early to count
	} {
		got, rep, _ := runNativeSeed(t, func(t *testing.T, data []byte) {
			if markerPast(data) {
				panic("marker")
			}
		}, in)
		if string(got) != want {
			t.Errorf("%d bytes with the marker at %d shrunk to %q (%d bytes), want %q\n%s", len(in), bytes.Index(in, []byte("BUG!")), got, len(got), want, rep)
		}
		if strings.Contains(rep, "stopped early") {
			t.Errorf("the shrink ran out of its bounds:\n%s", rep)
		}
		t.Logf("%d bytes: %s", len(in), strings.SplitN(strings.SplitN(rep, "\nshrunk: ", 2)[1], "\n", 2)[0])
	}
}

// TestNativeShrinkMarkerArgs: the same bug behind other arguments: a
// string argument that is not the last variable-length one (its length
// is encoded before it), an integer, a []byte. Each shrinks to its
// minimum: the string to its 2 required bytes, the integer to 101, the
// []byte to 20 bytes.
func TestNativeShrinkMarkerArgs(t *testing.T) {
	fn := func(t *testing.T, name string, k int16, data []byte) {
		if len(name) >= 2 && k > 100 && markerPast(data) {
			t.Fatalf("marker after %q", name)
		}
	}
	got, rep, _ := runNativeSeed(t, fn, string(junk(57, 7)), int16(-3000+9000), plant(333, 200, 8))
	args, err := native.Types{native.String, native.Int16, native.Bytes}.DecodeBytes(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(args[0].B) != "00" || int16(args[1].U) != 101 || string(args[2].B) != "0000000000000000BUG!" {
		t.Errorf("shrunk to %s, want \"00\", 101 and 16 zeros then the marker\n%s", native.Describe(args), rep)
	}
}

// recordsBug is a planted bug of a parser of 5-byte records: data whose
// length is a multiple of 5 and whose record 3 or later starts with the
// marker. Deleting any single byte, or any number of bytes that is not a
// multiple of 5, makes it valid: only ranges of whole records shrink it.
func recordsBug(data []byte) bool {
	if len(data)%5 != 0 {
		return false
	}
	for i := 15; i+5 <= len(data); i += 5 {
		if string(data[i:i+4]) == "BUG!" {
			return true
		}
	}
	return false
}

// TestNativeShrinkRecords: the records bug shrinks to its minimum, 20
// bytes (three simplest records, then the marker's), which takes the
// deletion of ranges of whole records from the middle of the input.
func TestNativeShrinkRecords(t *testing.T) {
	for _, in := range [][]byte{
		plant(5*37, 5*30, 11),
		plant(5*80, 5*41, 12),
		plant(5*9, 5*8, 13),
	} {
		got, rep, _ := runNativeSeed(t, func(t *testing.T, data []byte) {
			if recordsBug(data) {
				panic("record")
			}
		}, in)
		if want := "000000000000000BUG!0"; string(got) != want {
			t.Errorf("%d bytes shrunk to %q (%d bytes), want %q\n%s", len(in), got, len(got), want, rep)
		}
		t.Logf("%d bytes: %s", len(in), strings.SplitN(strings.SplitN(rep, "\nshrunk: ", 2)[1], "\n", 2)[0])
	}
}
