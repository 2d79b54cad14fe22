package driver

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
)

// TestDurationFlags: -time and -timeout take durations with a unit; a bare
// number is refused with a message naming the flag and the fix; -timeout 0
// turns the timeout off, and without -timeout the engine calibrates it.
func TestDurationFlags(t *testing.T) {
	cases := []struct {
		args    []string
		time    time.Duration
		timeout time.Duration
		stderr  string // non-empty: refused (exit 2) with this message
	}{
		{args: nil, timeout: 0},
		{args: []string{"-timeout", "auto"}, timeout: 0},
		{args: []string{"-timeout", "0"}, timeout: engine.NoTimeout},
		{args: []string{"-timeout", "0s"}, timeout: engine.NoTimeout},
		{args: []string{"-timeout", "250ms", "-time", "1m30s"}, time: 90 * time.Second, timeout: 250 * time.Millisecond},
		{args: []string{"-time", "0"}, timeout: 0},
		{args: []string{"-time", "10"}, stderr: `invalid value "10" for flag -time: a duration needs a unit: write 10s`},
		{args: []string{"-timeout", "3"}, stderr: `invalid value "3" for flag -timeout: a duration needs a unit: write 3s`},
		{args: []string{"-timeout", "1.5"}, stderr: "write 1.5s"},
		{args: []string{"-time", "soon"}, stderr: `invalid value "soon" for flag -time: not a duration: write a number with a unit, such as 10s`},
		{args: []string{"-time", "auto"}, stderr: `invalid value "auto" for flag -time`},
		{args: []string{"-time", "-5s"}, stderr: "must not be negative"},
		{args: []string{"-timeout", "-1s"}, stderr: "must not be negative"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(testInfo, append(c.args, "FuzzA"), &out, &errb)
		if c.stderr != "" {
			if code != ExitUsage || !strings.Contains(errb.String(), c.stderr) {
				t.Errorf("%q: code %d, stderr %q; want %d and %q", c.args, code, errb.String(), ExitUsage, c.stderr)
			}
			if strings.Contains(errb.String(), "parse error") {
				t.Errorf("%q: says parse error: %q", c.args, errb.String())
			}
			continue
		}
		if code != -1 || cfg.run.Time != c.time || cfg.run.Timeout != c.timeout {
			t.Errorf("%q: code %d, time %v, timeout %v; want -1, %v, %v (%s)", c.args, code, cfg.run.Time, cfg.run.Timeout, c.time, c.timeout, errb.String())
		}
	}
	var out, errb bytes.Buffer
	parseArgs(testInfo, []string{"-h"}, &out, &errb)
	for _, s := range []string{"-timeout D", "(default auto)", "0: no timeout", "-time D", "at least 32"} {
		if !strings.Contains(errb.String(), s) {
			t.Errorf("-h lacks %q:\n%s", s, errb.String())
		}
	}
}

// TestRSSLimitFloor: -rss_limit_mb below a worker's own footprint is
// refused (it would kill every worker with a spurious out-of-memory
// failure); 0 still means no limit; a large coverage map raises the floor.
func TestRSSLimitFloor(t *testing.T) {
	cases := []struct {
		info  string
		limit string
		ok    bool
	}{
		{testInfo, "0", true},
		{testInfo, "1", false},
		{testInfo, "31", false},
		{testInfo, "32", true},
		{testInfo, "64", true},
		{"v=1&targets=FuzzA&mapbits=24", "64", false}, // 16 MiB map: 32 + 64 MiB
		{"v=1&targets=FuzzA&mapbits=24", "96", true},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		_, code := parseArgs(c.info, []string{"-rss_limit_mb", c.limit, "FuzzA"}, &out, &errb)
		if c.ok && code != -1 {
			t.Errorf("%s -rss_limit_mb %s: refused: %s", c.info, c.limit, errb.String())
		}
		if !c.ok && (code != ExitUsage || !strings.Contains(errb.String(), "-rss_limit_mb "+c.limit+" is below a worker's own footprint: use at least")) {
			t.Errorf("%s -rss_limit_mb %s: code %d, stderr %q", c.info, c.limit, code, errb.String())
		}
	}
}

// TestReproTimeoutValue: -repro stops an input after -timeout, after 10s
// with the default (auto), never with -timeout 0.
func TestReproTimeoutValue(t *testing.T) {
	for _, c := range []struct {
		args []string
		want time.Duration
	}{
		{nil, reproDefaultTimeout},
		{[]string{"-timeout", "auto"}, reproDefaultTimeout},
		{[]string{"-timeout", "0"}, 0},
		{[]string{"-timeout", "2s"}, 2 * time.Second},
	} {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(testInfo, append(c.args, "-repro", "x.input", "FuzzA"), &out, &errb)
		if code != -1 {
			t.Errorf("%q: code %d: %s", c.args, code, errb.String())
			continue
		}
		if cfg.reproTimeout() != c.want {
			t.Errorf("%q: repro timeout %v; want %v", c.args, cfg.reproTimeout(), c.want)
		}
	}
}

// TestStackLimitFlag: -stack_limit_mb reaches the run's Config (64 MiB by
// default, 0 for Go's own limit); a negative value is refused.
func TestStackLimitFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{nil, 64},
		{[]string{"-stack_limit_mb", "256"}, 256},
		{[]string{"-stack_limit_mb", "0"}, 0},
	} {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(testInfo, append(c.args, "FuzzA"), &out, &errb)
		if code != -1 || cfg.run.StackLimitMB != c.want {
			t.Errorf("%q: code %d, want -1 and StackLimitMB %d (%s)", c.args, code, c.want, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if _, code := parseArgs(testInfo, []string{"-stack_limit_mb", "-1", "FuzzA"}, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), "must not be negative") {
		t.Errorf("-stack_limit_mb -1: code %d, %q", code, errb.String())
	}
}

// TestGCPercent: a fuzzing run gets fuzzGCPercent unless the
// user set GOGC (whatever its value, "off" too), which the runtime has
// already applied.
func TestGCPercent(t *testing.T) {
	for env, want := range map[string]int{"": fuzzGCPercent, "50": 0, "off": 0, "100": 0} {
		if got := gcPercent(func(k string) string {
			if k == "GOGC" {
				return env
			}
			return ""
		}); got != want {
			t.Errorf("GOGC=%q: %d, want %d", env, got, want)
		}
	}
}
