package driver

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
)

// TestSeedgenFlags: -seedgen and its companions are parsed, checked
// against -time and -runs, and reach the engine's Config (-seedgen-runs
// split among workers; a restarted worker generates no seeds).
func TestSeedgenFlags(t *testing.T) {
	bad := []struct {
		args   []string
		stderr string
	}{
		{[]string{"-seedgen", "1m", "-time", "1m"}, "leaves no time to fuzz"},
		{[]string{"-seedgen-runs", "100", "-runs", "100"}, "leaves no executions"},
		{[]string{"-seedgen", "1s", "-seedgen-runs", "5"}, "not both"},
		{[]string{"-seedgen", "1s", "-seedgen-engine", "zest"}, `unknown -seedgen-engine "zest"`},
		{[]string{"-seedgen", "1s", "-seedgen-filter", "best"}, `unknown -seedgen-filter "best"`},
		{[]string{"-seedgen", "10"}, "needs a unit"},
	}
	for _, c := range bad {
		var out, errb bytes.Buffer
		if _, code := parseArgs(testInfo, append(c.args, "FuzzA"), &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), c.stderr) {
			t.Errorf("%q: code %d, stderr %q; want %d and %q", c.args, code, errb.String(), ExitUsage, c.stderr)
		}
	}
	var out, errb bytes.Buffer
	cfg, code := parseArgs(testInfo, []string{"-seedgen", "30s", "-time", "10m", "-seedgen-engine", "random", "-seedgen-filter", "par", "-engine", "rl", "FuzzA"}, &out, &errb)
	if code != -1 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	var ecfg engine.Config
	cfg.seedgen.apply(&ecfg, nil, 1)
	if ecfg.SeedGen != 30*time.Second || ecfg.SeedGenEngine != "random" || ecfg.SeedFilter != "par" || cfg.run.Engine != "rl" {
		t.Fatalf("config %+v", ecfg)
	}
	cfg, _ = parseArgs(testInfo, []string{"-seedgen-runs", "10", "-runs", "100", "FuzzA"}, &out, &errb)
	var total int64
	for id := 0; id < 3; id++ {
		var e engine.Config
		cfg.seedgen.apply(&e, &engine.WorkerSpec{ID: id}, 3)
		total += e.SeedGenRuns
		if e.SeedGenEngine != engine.DefaultSeedGenEngine || e.SeedFilter != engine.DefaultSeedFilter {
			t.Fatalf("defaults: %+v", e)
		}
	}
	if total != 10 {
		t.Errorf("-seedgen-runs 10 over 3 workers: %d in all", total)
	}
	var e engine.Config
	cfg.seedgen.apply(&e, &engine.WorkerSpec{ID: 0, Incarnation: 1}, 3)
	if e.SeedGenRuns != 0 || e.SeedGen != 0 {
		t.Errorf("a restarted worker generates seeds: %+v", e)
	}
}
