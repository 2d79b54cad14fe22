package engine

import (
	"strings"
	"testing"
)

// TestParseReportRoundTrip: ParseReport reads back what failureReport.format
// writes: the header in order, the sections without their tab, "(none)"
// for an empty one; and refuses a file that is not a report.
func TestParseReportRoundTrip(t *testing.T) {
	rep := &failureReport{Target: "FuzzX", Result: Failure, Signature: "panic: boom\nmain.f",
		Info: FailureInfo{Kind: "panic", Message: "boom\nsecond line", Stack: "main.f()\n\tf.go:3"}, Repro: "./x.gfz -repro in FuzzX"}
	rf, err := ParseReport(rep.format())
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
}
