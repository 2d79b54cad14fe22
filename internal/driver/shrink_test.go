package driver

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
)

// TestShrinkFlags: -shrinktime and -shrinkruns reach the run's Config,
// which the workers' engines and the supervisor share, in the engine's
// terms: not given, 0 (each bound's default: DefaultShrinkRuns in a worker,
// DefaultDeathShrinkRuns for a death); given 0, NoShrink (off); otherwise
// the value.
func TestShrinkFlags(t *testing.T) {
	cases := []struct {
		args       []string
		runs       int64
		shrinkTime time.Duration
	}{
		{nil, 0, 0},
		{[]string{"-shrinkruns", "500", "-shrinktime", "5s"}, 500, 5 * time.Second},
		{[]string{"-shrinkruns", "7"}, 7, 0},
		{[]string{"-shrinkruns", "0"}, engine.NoShrink, 0},
		{[]string{"-shrinktime", "0"}, 0, engine.NoShrink},
		{[]string{"-shrinkruns", "10000", "-shrinktime", "1m"}, 10000, time.Minute}, // the defaults, given: also for deaths
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(testInfo, append(c.args, "FuzzA"), &out, &errb)
		if code != -1 {
			t.Fatalf("%q: code %d: %s", c.args, code, errb.String())
		}
		if cfg.run.ShrinkRuns != c.runs || cfg.run.ShrinkTime != c.shrinkTime {
			t.Errorf("%q: ShrinkRuns %d, ShrinkTime %v; want %d, %v", c.args, cfg.run.ShrinkRuns, cfg.run.ShrinkTime, c.runs, c.shrinkTime)
		}
	}
	var out, errb bytes.Buffer
	if _, code := parseArgs(testInfo, []string{"-shrinkruns", "-1", "FuzzA"}, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), "must not be negative") {
		t.Errorf("-shrinkruns -1: code %d, %q", code, errb.String())
	}
	if _, code := parseArgs(testInfo, []string{"-shrinktime", "10", "FuzzA"}, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), "needs a unit") {
		t.Errorf("-shrinktime 10: code %d, %q", code, errb.String())
	}
}
