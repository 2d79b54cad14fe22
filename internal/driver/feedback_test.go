package driver

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestFeedbackFlag: -feedback takes a comma list of perf, mem, cmp and
// diff into the config (order kept, duplicates dropped); an unknown name
// is a usage error naming the valid ones.
func TestFeedbackFlag(t *testing.T) {
	var out, errb bytes.Buffer
	cfg, code := parseArgs(testInfo, []string{"-feedback", "cmp, perf,mem,perf,diff", "FuzzA"}, &out, &errb)
	if code != -1 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	if want := []string{"cmp", "perf", "mem", "diff"}; !slices.Equal(cfg.run.Feedback, want) {
		t.Errorf("feedback %q, want %q", cfg.run.Feedback, want)
	}
	cfg, code = parseArgs(testInfo, []string{"FuzzA"}, &out, &errb)
	if code != -1 || len(cfg.run.Feedback) != 0 {
		t.Errorf("no -feedback: code %d, feedback %q", code, cfg.run.Feedback)
	}
	for _, bad := range []string{"speed", "perf,cov", "PERF"} {
		errb.Reset()
		cfg, code = parseArgs(testInfo, []string{"-feedback", bad, "FuzzA"}, &out, &errb)
		msg := errb.String()
		if code != ExitUsage || cfg != nil {
			t.Errorf("-feedback %q: code %d, want %d", bad, code, ExitUsage)
		}
		if !strings.Contains(msg, "unknown feedback") || !strings.Contains(msg, "perf, mem, cmp or diff") {
			t.Errorf("-feedback %q: message %q does not name the problem and the valid names", bad, msg)
		}
	}
}
