package bench

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestOverheadScriptExists: -overhead runs overheadScript from the
// repository root; the script moved once and the path went stale.
func TestOverheadScriptExists(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		t.Fatalf("repository root not at %s: %v", root, err)
	}
	if _, err := os.Stat(filepath.Join(root, overheadScript)); err != nil {
		t.Errorf("-overhead's script: %v", err)
	}
}

func TestParseTarget(t *testing.T) {
	tg, err := ParseTarget("testdata/x:FuzzX:go/parser, go/types")
	if err != nil {
		t.Fatal(err)
	}
	if tg.Dir != "testdata/x" || tg.Name != "FuzzX" || strings.Join(tg.Cover, "|") != "go/parser|go/types" {
		t.Fatalf("got %+v", tg)
	}
	for _, bad := range []string{"", "dir", "dir:Test", ":FuzzX"} {
		if _, err := ParseTarget(bad); err == nil {
			t.Errorf("ParseTarget(%q) succeeded", bad)
		}
	}
}

func TestRewriteTestFile(t *testing.T) {
	src := `package p

import (
	"testing"

	g "github.com/gfz-dev/gfz"
)

func FuzzA(f *testing.F) {
	f.Add([]byte{1})
	g.Fuzz(f, func(t *g.T) {})
}

func helper(f *testing.F) {}

func TestB(t *testing.T) {}
`
	out, err := rewriteTestFile("p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{"func FuzzA(f *GfzBenchF)", "gfzBenchFuzz(f, func(t *g.T) {})", "func helper(f *testing.F)", "var _ = g.NewT", "var _ = testing.Short"} {
		if !strings.Contains(s, want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "g.Fuzz(") {
		t.Errorf("gfz.Fuzz call left:\n%s", s)
	}
}

func TestReadProfile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "c.out")
	prof := "mode: set\n" +
		"example.com/a/x.go:1.1,2.2 3 1\n" +
		"example.com/a/x.go:3.1,4.2 2 0\n" +
		"example.com/a/x.go:3.1,4.2 2 1\n" + // the same block listed twice: covered
		"example.com/b/y.go:1.1,2.2 5 0\n"
	if err := os.WriteFile(f, []byte(prof), 0o644); err != nil {
		t.Fatal(err)
	}
	cov, tot, err := readProfile(f)
	if err != nil {
		t.Fatal(err)
	}
	if cov["example.com/a"] != 5 || tot["example.com/a"] != 5 || cov["example.com/b"] != 0 || tot["example.com/b"] != 5 {
		t.Fatalf("covered %v, total %v", cov, tot)
	}
}

func TestRateTracker(t *testing.T) {
	var rt rateTracker
	rt.line("fuzz: elapsed: 0s, execs: 0 (0/sec), new interesting: 0 (total: 0)", 1*time.Second)
	rt.line("fuzz: elapsed: 3s, execs: 30000 (10000/sec), new interesting: 4 (total: 4)", 4*time.Second)
	rt.line("fuzz: elapsed: 3s, execs: 30000 (0/sec), new interesting: 4 (total: 4)", 4500*time.Millisecond)
	if rt.execs != 30000 || rt.rate() != 10000 {
		t.Fatalf("execs %d, rate %v", rt.execs, rt.rate())
	}
}

func TestMedianSpread(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		v    []float64
		want string
	}{
		{[]float64{3, 1, 2}, "2 (1–3)"},
		{[]float64{4, 1, 2, 3}, "2.5 (1–4)"},
		{[]float64{1, inf, inf}, "∞ (1–∞)"},
		{[]float64{7}, "7"},
		{[]float64{math.NaN()}, "n/a"},
	} {
		if got := spread(c.v, "%g"); got != c.want {
			t.Errorf("spread(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	rep := &Report{
		Config:   Config{Reps: 2, Time: time.Second, Contenders: []string{GfzZest, Native, Limit}, Stages: DefaultStages},
		Machine:  "test machine",
		Measured: map[string][]string{"p.FuzzP": {"example.com/p", "go/parser", "go/types"}},
		Totals:   map[string]int{"example.com/p": 10, "go/parser": 100, "go/types": 1000},
	}
	add := func(c string, speed float64, found bool, cov int) {
		rep.Results = append(rep.Results, Result{Target: "p.FuzzP", Contender: c, ExecsPerSec: speed, ValidPct: -1, Found: found, FoundS: 1, FoundExec: -1,
			CorpusValidPct: 50, Covered: map[string]int{"go/parser": cov, "go/types": 2 * cov}})
	}
	add(GfzZest, 100000, true, 10)
	add(GfzZest, 300000, false, 20)
	add(Native, 10000, false, 5)
	add(Native, 30000, false, 5)
	add(Limit, 400000, true, 0)
	var b strings.Builder
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	file := filepath.Join(t.TempDir(), "report.json")
	if err := rep.WriteJSON(file); err != nil {
		t.Fatal(err)
	}
	again, err := ReadJSON(file)
	if err != nil {
		t.Fatal(err)
	}
	var b2 strings.Builder
	if err := again.Markdown(&b2); err != nil {
		t.Fatal(err)
	}
	if b2.String() != s {
		t.Errorf("report read back renders differently:\n%s\nvs\n%s", b2.String(), s)
	}
	for _, want := range []string{
		"| p.FuzzP | gfz-zest | 200000 (100000–300000) | 10.00 | 50% | n/a |",
		"| p.FuzzP | native | 20000 (10000–30000) | 1.00 | 5% |",
		"| p.FuzzP | gfz-zest | 1/2 | ∞ (1.00–∞) |",
		"| contender | syntax (of 100) | semantic (of 1000) | example.com/p (of 10) |",
		"| gfz-zest | 15 (10–20) | 30 (20–40) | 0 (0–0) | 0 (0–0) | 50.0 (50.0–50.0) |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
}

// TestSmoke runs the whole harness briefly on the bst example: every
// contender builds, runs, and lands in the tables. go-fuzz is included
// with GFZ_BENCH_GOFUZZ=1: installing it (go install ...@version) needs the
// module proxy, and go test ./... reaches no network. .ci/run sets it, so
// that go-fuzz-build failing on gfz's packages (go:embed, once) is caught.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fuzz binaries")
	}
	contenders := []string{GfzZest, GfzRandom, Native, Limit}
	if os.Getenv("GFZ_BENCH_GOFUZZ") == "1" {
		contenders = append(contenders, GoFuzz)
	}
	cfg := Config{
		Root:       filepath.Join("..", "..", ".."),
		Targets:    []Target{{Dir: "../../../testdata/examples/bst", Name: "FuzzDelete"}},
		Contenders: contenders,
		Reps:       1,
		Time:       20 * time.Second, // a safety net: the execution budget ends the runs
		Runs:       20000,
		Work:       t.TempDir(),
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(contenders) {
		t.Fatalf("%d results, want %d", len(rep.Results), len(contenders))
	}
	for _, r := range rep.Results {
		if r.Err != "" {
			t.Errorf("%s: %s", r.Contender, r.Err)
			continue
		}
		if r.Contender == GoFuzz {
			continue // go-fuzz reports executions every 3 s only
		}
		if r.Execs == -1 && r.Found {
			// It found the bug before its first status line counted
			// executions (go test -fuzz does, on a quiet machine): the
			// harness reports the rate as unknown rather than a guess.
			if r.ExecsPerSec > 0 {
				t.Errorf("%s: rate %v/s with unknown executions", r.Contender, r.ExecsPerSec)
			}
		} else if r.Execs <= 0 || r.Execs > cfg.Runs && r.Contender != Native || r.ExecsPerSec <= 0 {
			t.Errorf("%s: %d execs, %v/s", r.Contender, r.Execs, r.ExecsPerSec)
		}
		if r.Contender != Limit && r.Covered == nil {
			t.Errorf("%s: corpus not replayed for coverage", r.Contender)
		}
		if r.MaxRSSKiB <= 0 {
			t.Errorf("%s: no peak RSS", r.Contender)
		}
	}
	var b strings.Builder
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, c := range contenders {
		if !strings.Contains(b.String(), "| bst.FuzzDelete | "+c+" |") {
			t.Errorf("report has no %s row:\n%s", c, b.String())
		}
	}
	t.Log("\n" + b.String())
}

// TestKeepGoing checks that with KeepGoing a gfz run and the limit loop go
// on after the first failure until their execution budget, still
// recording when and where they found it (bst's bug: zest finds it within
// 250,000 executions on seed 1, see docs/BENCHMARKS.md). It runs with a
// results file (TestSmoke without): each run is saved with its coverage,
// and a second Run finds every run done and runs nothing.
func TestKeepGoing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fuzz binaries")
	}
	cfg := Config{
		Root:       filepath.Join("..", "..", ".."),
		Targets:    []Target{{Dir: "../../../testdata/examples/bst", Name: "FuzzDelete"}},
		Contenders: []string{GfzZest, Limit},
		Reps:       1,
		Time:       2 * time.Minute, // a safety net: the execution budget ends the runs
		Runs:       250_000,
		Work:       t.TempDir(),
		KeepGoing:  true,
		Results:    filepath.Join(t.TempDir(), "runs.jsonl"),
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := ReadTargetResults(cfg.Results)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != 2 || len(rep.Results) != 2 {
		t.Fatalf("%d runs saved, %d reported, want 2", len(saved), len(rep.Results))
	}
	for _, r := range saved {
		if r.Contender == GfzZest && (r.Covered == nil || len(r.Measured) != 1 || r.Totals[r.Measured[0]] == 0) {
			t.Errorf("gfz-zest run saved without its coverage: %+v", r)
		}
	}
	var log strings.Builder
	cfg.Log = &log
	again, err := Run(context.Background(), cfg)
	if err != nil || len(again.Results) != 2 || !strings.Contains(log.String(), "every run already in") || strings.Contains(log.String(), "preparing") {
		t.Errorf("second Run: %d results, err %v, log:\n%s", len(again.Results), err, log.String())
	}
	for _, r := range rep.Results {
		if r.Err != "" {
			t.Fatalf("%s: %s", r.Contender, r.Err)
		}
		if r.Contender == GfzZest && !r.Found {
			t.Fatalf("gfz-zest did not find the bug in %d executions", r.Execs)
		}
		if r.Found && (r.Execs != cfg.Runs || r.FoundExec <= 0 || r.FoundExec >= cfg.Runs) {
			t.Errorf("%s: found at execution %d, ran %d of %d executions: want the whole budget", r.Contender, r.FoundExec, r.Execs, cfg.Runs)
		}
	}
	var b strings.Builder
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Keep going:") {
		t.Errorf("report does not say the runs kept going:\n%s", b.String())
	}
}

// TestFirstFoundExec reads the execution count of failure reports written
// in-process and by a worker ("about N (all workers; ...)").
func TestFirstFoundExec(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("gfz failure report\nfound at execution: about 122490 (all workers; worker 0 at its execution 122489)\n"), 0o644)
	os.WriteFile(b, []byte("gfz failure report\nfound at execution: 130000\n"), 0o644)
	if got := firstFoundExec([]string{a, b}); got != 122490 {
		t.Errorf("firstFoundExec = %d, want 122490", got)
	}
}

// TestEngineTable: a gfz run's Hill numbers, zero-mutation share and
// mutation distance come from its stats file, into the report's engine
// table (also for a saved report rendered again, FillEngineMetrics).
func TestEngineTable(t *testing.T) {
	dir := t.TempDir()
	wd := filepath.Join(dir, "wd")
	if err := os.MkdirAll(filepath.Join(wd, "corpus"), 0o755); err != nil {
		t.Fatal(err)
	}
	stats := "execs: 10\nhill_b0: 120\nhill_b1: 33.25\nhill_b2: 20.5\nchildren: 80\nzero_mutations: 0.0125\nmutation_distance_mean: 0.4\nmutation_distance_samples: 2\n"
	if err := os.WriteFile(filepath.Join(wd, "stats"), []byte(stats), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := &Report{Config: Config{Reps: 1, Time: time.Second, Contenders: []string{"gfz-ei", Native}}}
	rep.Results = []Result{
		{Target: "p.FuzzP", Contender: "gfz-ei", CorpusDir: filepath.Join(wd, "corpus"), ValidPct: -1, FoundExec: -1},
		{Target: "p.FuzzP", Contender: Native, CorpusDir: filepath.Join(wd, "corpus"), ValidPct: -1, FoundExec: -1},
	}
	rep.FillEngineMetrics()
	if rep.Results[1].Engine != nil {
		t.Error("native run got engine metrics")
	}
	var b strings.Builder
	if err := rep.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	if want := "| p.FuzzP | gfz-ei | 120 | 33.2 | 20.5 | 0.0125 | 0.400 |"; !strings.Contains(b.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, b.String())
	}
	// No children (random): n/a, not 0.
	if m := engineMetrics(map[string]float64{"hill_b0": 3, "children": 0, "zero_mutations": 0, "mutation_distance_mean": 0}); len(m) != 1 {
		t.Errorf("metrics of a run without children: %v", m)
	}
}

// TestReadStats: the numeric values of a gfz stats file and of the limit
// binary's figures, as workdir.ReadStats reads them: text values left
// out, the last line of a key counting (the limit binary's replay figures
// come after what the target printed), "key:value" without the space not
// a stats line.
func TestReadStats(t *testing.T) {
	dir := t.TempDir()
	gfz := filepath.Join(dir, "stats")
	if err := os.WriteFile(gfz, []byte("target: FuzzP\r\nexecs: 3532450\r\nvalid_pct: 25.05\r\ntimeout_rule: calibrated: 20 x (14µs)\r\nhill_b1: 33.755\r\nmutation_distance_samples: 0"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"execs": 3532450, "valid_pct": 25.05, "hill_b1": 33.755, "mutation_distance_samples": 0}
	if got := readStats(gfz); !reflect.DeepEqual(got, want) {
		t.Errorf("gfz stats: %v, want %v", got, want)
	}
	if got := readStats(filepath.Join(dir, "missing")); got == nil || len(got) != 0 {
		t.Errorf("missing file: %v, want an empty map", got)
	}

	replay := "target says: hello\nvalid_pct: 99\nratio:0.5\n" + // the target's output
		"execs: 40\nelapsed_s: 0.002\nexecs_per_sec: 20000\nvalid: 10\ninvalid: 30\nfailing: 0\nvalid_pct: 25.00\nfound_at_exec: -1\nfound_at_s: 0.000\nvmhwm_kb: 8000\n"
	st, _ := workdir.ParseStats([]byte(replay))
	got := statValues(st)
	want = map[string]float64{"execs": 40, "elapsed_s": 0.002, "execs_per_sec": 20000, "valid": 10, "invalid": 30, "failing": 0,
		"valid_pct": 25, "found_at_exec": -1, "found_at_s": 0, "vmhwm_kb": 8000}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("limit replay output: %v, want %v", got, want)
	}
}
