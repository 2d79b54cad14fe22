package driver

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
)

// TestShrinkFlags: -shrinktime and -shrinkruns reach the engine's and the
// supervisor's bounds, 0 turns shrinking off, a death's shrink runs at
// most DefaultDeathShrinkRuns processes unless -shrinkruns is given.
func TestShrinkFlags(t *testing.T) {
	cases := []struct {
		args            []string
		runs, deathRuns int64
		shrinkTime      time.Duration
	}{
		{nil, engine.DefaultShrinkRuns, engine.DefaultDeathShrinkRuns, engine.DefaultShrinkTime},
		{[]string{"-shrinkruns", "500", "-shrinktime", "5s"}, 500, 500, 5 * time.Second},
		{[]string{"-shrinkruns", "7"}, 7, 7, engine.DefaultShrinkTime},
		{[]string{"-shrinkruns", "0"}, engine.NoShrink, engine.NoShrink, engine.DefaultShrinkTime},
		{[]string{"-shrinktime", "0"}, engine.DefaultShrinkRuns, engine.DefaultDeathShrinkRuns, engine.NoShrink},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(testInfo, append(c.args, "FuzzA"), &out, &errb)
		if code != -1 {
			t.Fatalf("%q: code %d: %s", c.args, code, errb.String())
		}
		if r, d := shrinkBound(cfg.shrinkRuns), shrinkBound(cfg.deathShrinkRuns()); r != c.runs || d != c.deathRuns {
			t.Errorf("%q: runs %d, death runs %d; want %d, %d", c.args, r, d, c.runs, c.deathRuns)
		}
		if d := shrinkBound(cfg.shrinkTime); d != c.shrinkTime {
			t.Errorf("%q: time %v, want %v", c.args, d, c.shrinkTime)
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
