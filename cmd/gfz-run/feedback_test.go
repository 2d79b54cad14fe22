package main

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
)

// TestFeedbackPassedOn: gfz-run passes -feedback to the fuzz binaries,
// builds with -counts when perf is asked for, and refuses an unknown name.
func TestFeedbackPassedOn(t *testing.T) {
	o, code := parse([]string{"."}, io.Discard)
	if o == nil || slices.Contains(o.run, "-feedback") || o.build.Counts {
		t.Fatalf("default: exit %d, binary flags %q, counts %v", code, o.run, o != nil && o.build.Counts)
	}
	o, code = parse([]string{"-feedback", "mem,perf", "."}, io.Discard)
	if o == nil {
		t.Fatalf("-feedback mem,perf: exit %d", code)
	}
	if i := slices.Index(o.run, "-feedback"); i < 0 || o.run[i+1] != "mem,perf" || !o.build.Counts {
		t.Errorf("-feedback mem,perf: binary flags %q, counts %v", o.run, o.build.Counts)
	}
	var errb bytes.Buffer
	if o, code = parse([]string{"-feedback", "fast", "."}, &errb); o != nil || code != 2 || !strings.Contains(errb.String(), `unknown feedback "fast"`) {
		t.Errorf("-feedback fast: exit %d, stderr %q", code, errb.String())
	}
}
