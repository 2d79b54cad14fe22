package driver

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// -feedback takes a comma-separated list of perf, mem, cmp and diff;
// another name is a usage error naming the accepted ones.
func TestParseFeedbackFlag(t *testing.T) {
	var out, errb bytes.Buffer
	cfg, code := parseArgs(testInfo, []string{"-feedback", "cmp, perf,cmp", "FuzzA"}, &out, &errb)
	if code != -1 || !slices.Equal(cfg.feedback, []string{"cmp", "perf"}) {
		t.Errorf("code %d, feedback %v: %s", code, cfg, errb.String())
	}
	cfg, code = parseArgs(testInfo, []string{"FuzzA"}, &out, &errb)
	if code != -1 || len(cfg.feedback) != 0 {
		t.Errorf("default: code %d, feedback %v", code, cfg.feedback)
	}
	errb.Reset()
	_, code = parseArgs(testInfo, []string{"-feedback", "cmp,speed", "FuzzA"}, &out, &errb)
	if code != ExitUsage || !strings.Contains(errb.String(), `unknown feedback domain "speed"`) || !strings.Contains(errb.String(), "perf, mem, cmp, diff") {
		t.Errorf("code %d, stderr %q", code, errb.String())
	}
}
