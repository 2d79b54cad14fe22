package workdir

import (
	"strings"
	"testing"
	"time"
)

// TestParseReportRoundTrip: ParseReport reads back what Report.Format
// writes: the header in order, the sections without their tab, "(none)"
// for an empty one; and refuses a file that is not a report.
func TestParseReportRoundTrip(t *testing.T) {
	rep := &Report{Target: "FuzzX", Result: "FAILURE", Signature: "panic: boom\nmain.f",
		Info: FailureInfo{Kind: "panic", Message: "boom\nsecond line", Stack: "main.f()\n\tf.go:3"}, Repro: "./x.gfz -repro in FuzzX"}
	rf, err := ParseReport(rep.Format())
	if err != nil {
		t.Fatal(err)
	}
	if rf.Get("target") != "FuzzX" || rf.Get("kind") != "panic" || rf.Get("reproduce") != "./x.gfz -repro in FuzzX" || rf.Header[0][0] != "signature" {
		t.Errorf("header %q", rf.Header)
	}
	if got := rf.Sections["message"]; got != "boom\nsecond line\n" {
		t.Errorf("message section %q", got)
	}
	if got := rf.Sections["value"]; strings.TrimSpace(got) != "(none)" {
		t.Errorf("empty value section %q", got)
	}
	if _, err := ParseReport([]byte("something else\n")); err == nil {
		t.Error("a file that is not a report parsed")
	}
	if _, ok := rf.FoundAt(); ok {
		t.Error("FoundAt of a report without a found-at line")
	}
	// The found-at time reads back to the millisecond (bug mode's time to
	// trigger uses it).
	found := time.Date(2026, 11, 24, 3, 4, 5, 678_900_000, time.FixedZone("", 3600))
	rep.Found, rep.Into = found, 1234*time.Millisecond
	rf, err = ParseReport(rep.Format())
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := rf.FoundAt(); !ok || !got.Equal(found.Truncate(time.Millisecond)) {
		t.Errorf("FoundAt = %v, %v; want %v (line %q)", got, ok, found.Truncate(time.Millisecond), rf.Get("found at"))
	}
}

// TestUnsaved: a failure that could not be saved is printed with its
// message and its input file, and the printed lines without their tab
// read back as the input (so that a full disk does not lose it).
func TestUnsaved(t *testing.T) {
	w := &Dir{}
	input := []byte("in\x00put \"quoted\"\nline")
	rep := &Report{Info: FailureInfo{Kind: "panic", Message: "boom\nsecond line"}, Input: input}
	out := w.Unsaved(rep)
	if !strings.Contains(out, "\tkind: panic\n") || !strings.Contains(out, "\tmessage: boom\n\t\tsecond line\n") {
		t.Errorf("kind and message missing:\n%s", out)
	}
	_, file, ok := strings.Cut(out, "run -repro FILE):\n")
	if !ok {
		t.Fatalf("no input file:\n%s", out)
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(file, "\n") {
		b.WriteString(strings.TrimPrefix(l, "\t"))
	}
	got, err := DecodeInput([]byte(b.String()))
	if err != nil || string(got) != string(input) {
		t.Errorf("the printed file reads back as %q (%v), want %q:\n%s", got, err, input, out)
	}
}
