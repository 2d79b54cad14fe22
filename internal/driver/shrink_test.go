package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
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

// TestProberLibFuzzerArgs: the shrink's probe child (prober) runs with the
// arguments the describer's child and the workers run with: in libFuzzer
// mode the run's -dict (and -close_fd_mask), without which a death
// reached through a dictionary token recurs in no shrink candidate, and
// the shrink ends "not shrunk ... (flaky?)"; in gfz mode none. The child
// is a script that logs its arguments, one line per run.
func TestProberLibFuzzerArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		lf   *libFuzzer
		want []string // before -repro FILE FuzzX
	}{
		{"libFuzzer mode", &libFuzzer{dict: "/some/user.dict"}, []string{"-close_fd_mask=0", "-dict=/some/user.dict", "-stack_limit_mb", "16"}},
		// The run's stack limit: a child took its own default (a stack
		// overflow found at 16 MiB replayed as VALID at 64).
		{"gfz mode", nil, []string{"-stack_limit_mb", "16"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "args")
			exe := filepath.Join(dir, "child")
			if err := os.WriteFile(exe, []byte("#!/bin/sh\necho \"$@\" >> "+log+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			c := &config{lf: tc.lf}
			c.run.Target = "FuzzX"
			c.run.StackLimitMB = 16
			// The child ends without running the input: errors, which
			// do not matter here.
			_, _ = c.describer(exe)(context.Background(), []byte("abc"), time.Second)
			_, _, _, _ = c.prober(exe)(context.Background(), []byte("abc"), time.Second)
			data, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			if len(lines) != 2 {
				t.Fatalf("%d child runs, want 2 (describer, prober):\n%s", len(lines), data)
			}
			for i, who := range []string{"describer", "prober"} {
				args := strings.Fields(lines[i])
				n := len(args)
				if n < 3 || args[n-3] != "-repro" || args[n-1] != "FuzzX" || !slices.Equal(args[:n-3], tc.want) {
					t.Errorf("%s child's arguments %q, want %q then -repro FILE FuzzX", who, args, tc.want)
				}
			}
		})
	}
}
