package engine

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// setCount sets edge e's count in the current execution to c, as a probe
// built with gfz-build -counts leaves it (runtime.Laps).
func setCount(e int, c uint64) {
	e %= gfzrt.MapSize
	if c < 256 {
		gfzrt.Map[e], gfzrt.Laps[e] = uint8(c), 0
		return
	}
	laps := (c - 128) / 128
	gfzrt.Map[e], gfzrt.Laps[e] = uint8(c-128*laps), uint32(laps)
}

// byteExec is a target that reads one byte v, always covers edge 1, and
// then does what do says with v.
type byteExec struct {
	src *param.Source
	do  func(v byte, out *Outcome)
}

func newByteExec(do func(v byte, out *Outcome)) *byteExec {
	return &byteExec{src: param.New(nil, 0), do: do}
}

func (b *byteExec) Exec(params []byte, ext uint64) Outcome {
	b.src.Reset(params, ext)
	v := byte(b.src.Uint(1, param.Value))
	hit(1)
	out := Outcome{Result: Valid, Consumed: b.src.Consumed()}
	b.do(v, &out)
	return out
}

// seedRun runs ex on seeds only (Runs = len(seeds): the loop never starts)
// and returns the work directory.
func seedRun(t *testing.T, ex Executor, feedback []string, seeds ...byte) string {
	t.Helper()
	dir := t.TempDir()
	var ss [][]byte
	for _, s := range seeds {
		ss = append(ss, []byte{s})
	}
	run(t, Config{Engine: "zest", Seed: 1, Runs: int64(len(ss)), Workdir: dir, Seeds: ss, Feedback: feedback, Timeout: NoTimeout}, ex)
	return dir
}

// corpusHas reports whether the corpus of dir holds the one-byte input v.
func corpusHas(t *testing.T, dir string, v byte) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(dir, "corpus", workdir.ContentName([]byte{v})))
	return err == nil
}

// statsOf reads dir's stats file as key -> value.
func statsOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, workdir.StatsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ": "); ok {
			m[k] = v
		}
	}
	return m
}

// TestWaypointKeepsImproving: an input whose Maximize value beats the best
// of the saved inputs is saved, one that does not is not (and the same for
// Minimize). Every input covers the same edge once: coverage saves only
// the first.
func TestWaypointKeepsImproving(t *testing.T) {
	for _, c := range []struct {
		kind       WaypointKind
		seeds      []byte
		kept, lost []byte
		best       string
	}{
		{Maximize, []byte{5, 3, 9, 9, 7}, []byte{5, 9}, []byte{3, 7}, "max(k)=9"},
		{Minimize, []byte{5, 7, 2, 2, 4}, []byte{5, 2}, []byte{7, 4}, "min(k)=2"},
	} {
		ex := newByteExec(func(v byte, out *Outcome) {
			out.Waypoints = append(out.Waypoints, Waypoint{Key: "k", Value: float64(v), Kind: c.kind})
		})
		dir := seedRun(t, ex, nil, c.seeds...)
		for _, v := range c.kept {
			if !corpusHas(t, dir, v) {
				t.Errorf("kind %d: improving input %d not saved", c.kind, v)
			}
		}
		for _, v := range c.lost {
			if corpusHas(t, dir, v) {
				t.Errorf("kind %d: input %d saved, but it improves no key", c.kind, v)
			}
		}
		st := statsOf(t, dir)
		if st["saved_waypoint"] != "1" || st["waypoint_best"] != c.best {
			t.Errorf("kind %d: stats saved_waypoint %q waypoint_best %q, want 1 and %q", c.kind, st["saved_waypoint"], st["waypoint_best"], c.best)
		}
	}
}

// TestInertFeedbackWarns: an engine that never mutates what it keeps
// (random) warns, once, when a feedback domain keeps an input, naming the
// domain; an engine that mutates (zest) does not warn; -feedback domains
// are named by their flag.
func TestInertFeedbackWarns(t *testing.T) {
	waypoints := newByteExec(func(v byte, out *Outcome) {
		out.Waypoints = append(out.Waypoints, Waypoint{Key: "k", Value: float64(v), Kind: Maximize})
	})
	diverge := newByteExec(func(v byte, out *Outcome) {
		out.Waypoints = append(out.Waypoints, Waypoint{Key: "mean", Value: float64(v), Kind: Diverge})
	})
	for _, c := range []struct {
		engine   string
		ex       Executor
		feedback []string
		want     string // "" for no warning
	}{
		{"random", waypoints, nil, "the target's waypoints (T.Maximize, T.Minimize) kept an input, but engine random does not mutate"},
		{"random", diverge, []string{"diff"}, "-feedback diff kept an input, but engine random does not mutate"},
		{"zest", waypoints, nil, ""},
		// A seed generation phase runs random before zest: no warning.
		{"zest+seedgen", waypoints, nil, ""},
	} {
		var status bytes.Buffer
		seeds := [][]byte{{1}, {2}, {3}, {4}}
		cfg := Config{Engine: c.engine, Seed: 1, Runs: int64(len(seeds)), Workdir: t.TempDir(), Seeds: seeds,
			Feedback: c.feedback, Timeout: NoTimeout, Status: &status}
		if c.engine == "zest+seedgen" {
			cfg.Engine, cfg.SeedGenEngine, cfg.SeedGenRuns, cfg.Runs, cfg.Seeds = "zest", "random", 200, 400, nil
		}
		run(t, cfg, c.ex)
		if c.engine == "zest+seedgen" && !strings.Contains(status.String(), "seed generation: random") {
			t.Errorf("no seed generation phase:\n%s", status.String())
		}
		got := status.String()
		if n := strings.Count(got, "does not mutate the inputs it keeps"); c.want == "" && n != 0 || c.want != "" && (n != 1 || !strings.Contains(got, c.want)) {
			t.Errorf("engine %s, feedback %v: status\n%s\nwant %d warning(s) %q", c.engine, c.feedback, got, min(len(c.want), 1), c.want)
		}
	}
}

// TestDiffFeedbackOnlyWithFlag: Diverge waypoints (T.DiffWithin) save
// inputs only with -feedback diff.
func TestDiffFeedbackOnlyWithFlag(t *testing.T) {
	ex := newByteExec(func(v byte, out *Outcome) {
		out.Waypoints = append(out.Waypoints, Waypoint{Key: "mean", Value: float64(v) / 100, Kind: Diverge})
	})
	off := seedRun(t, ex, nil, 1, 4)
	on := seedRun(t, ex, []string{"diff"}, 1, 4, 2)
	if corpusHas(t, off, 4) {
		t.Error("without -feedback diff, a larger divergence was saved")
	}
	if !corpusHas(t, on, 4) || corpusHas(t, on, 2) {
		t.Error("with -feedback diff: want the larger divergence (4) saved and the smaller (2) not")
	}
	if st := statsOf(t, on); st["saved_diff"] != "1" || st["diff_max"] != "max(mean)=0.04" {
		t.Errorf("stats saved_diff %q diff_max %q", st["saved_diff"], st["diff_max"])
	}
}

// TestPerfKeepsMaxCount: with -feedback perf, an input that raises one
// edge's maximum hit count is saved although its hit-count class (all of
// 40, 50 and 45 are in 32-63) adds no coverage; without it, it is not.
// Counts past 255 (runtime.Laps) are compared exactly.
func TestPerfKeepsMaxCount(t *testing.T) {
	counts := map[byte]uint64{40: 40, 50: 50, 45: 45, 200: 300, 201: 299, 202: 700}
	ex := newByteExec(func(v byte, out *Outcome) { setCount(77, counts[v]) })
	seeds := []byte{40, 50, 45, 200, 201, 202}
	plain := seedRun(t, ex, nil, seeds...)
	perf := seedRun(t, ex, []string{"perf"}, seeds...)
	for _, v := range []byte{50, 202} {
		if corpusHas(t, plain, v) {
			t.Errorf("without perf, input %d (no new hit-count class) was saved", v)
		}
		if !corpusHas(t, perf, v) {
			t.Errorf("with perf, input %d raising the edge's max count was not saved", v)
		}
	}
	for _, v := range []byte{45, 201} {
		if corpusHas(t, perf, v) {
			t.Errorf("with perf, input %d (below the max count) was saved", v)
		}
	}
	st := statsOf(t, perf)
	if st["perf_max_edge"] != "700" || st["perf_slowest"] != "corpus/"+workdir.ContentName([]byte{202}) {
		t.Errorf("stats perf_max_edge %q perf_slowest %q", st["perf_max_edge"], st["perf_slowest"])
	}
}

// memSink keeps the allocations of memExec alive past the execution.
var memSink []byte

// TestMemKeepsMoreAllocation: with -feedback mem, an input that allocates
// more than every saved one is saved; coverage (the same edge for all)
// would not.
//
// The counts are the process's: no goroutine of gfz may run beside the
// target then (the background fsync of corpus entries, workdir's
// bgsync.go, allocated during executions and made this test flaky), and
// none may outlive its run (each run left its syncer behind).
func TestMemKeepsMoreAllocation(t *testing.T) {
	// syncing counts the executions that ran beside more background
	// syncers than the run's first, which precedes every save (another
	// test's may be left: newTestFuzzer's runs do not end; one may still
	// be exiting, so the count of a run without mem is no check).
	syncing, first := 0, -1
	stacks := make([]byte, 1<<20)
	ex := newByteExec(func(v byte, out *Outcome) {
		n := bytes.Count(stacks[:runtime.Stack(stacks, true)], []byte("bgSyncer).run"))
		if first < 0 {
			first = n
		} else if n > first {
			syncing++
		}
		memSink = make([]byte, int(v)<<16)
	})
	seeds := []byte{2, 4, 3}
	plain := seedRun(t, ex, nil, seeds...)
	syncing, first = 0, -1
	mem := seedRun(t, ex, []string{"mem"}, seeds...)
	if syncing != 0 {
		t.Errorf("with mem, %d executions ran beside a background syncer (its allocations count as the target's)", syncing)
	}
	if corpusHas(t, plain, 4) {
		t.Error("without mem, the input allocating more was saved")
	}
	if !corpusHas(t, mem, 4) || corpusHas(t, mem, 3) {
		t.Error("with mem: want the input allocating 256 KiB saved and the one allocating 192 KiB (less) not")
	}
	st := statsOf(t, mem)
	if st["mem_largest"] != "corpus/"+workdir.ContentName([]byte{4}) || st["saved_mem"] != "1" {
		t.Errorf("stats mem_largest %q saved_mem %q", st["mem_largest"], st["saved_mem"])
	}
}

// TestProcessWideDomains: mem reads the process's allocation counts, so
// a run with it keeps no goroutine beside the target (Run sets
// workdir.Dir.SyncInline from processWide); the other domains do not.
func TestProcessWideDomains(t *testing.T) {
	for _, fb := range [][]string{nil, {"perf"}, {"cmp"}, {"mem"}, {"perf", "mem"}} {
		f := newTestFuzzer(t, "zest", newByteExec(func(byte, *Outcome) {}), 1)
		f.cfg.Feedback = fb
		if err := f.setDomains(); err != nil {
			t.Fatal(err)
		}
		if want := slices.Contains(fb, "mem"); f.processWide() != want {
			t.Errorf("feedback %q: processWide %v, want %v", fb, f.processWide(), want)
		}
	}
}

// TestDomainsSurviveResume: a run resumed from a work directory rebuilds
// every domain's best values from its corpus (re-executed at start).
func TestDomainsSurviveResume(t *testing.T) {
	ex := newByteExec(func(v byte, out *Outcome) {
		setCount(77, uint64(v)*10)
		out.Waypoints = append(out.Waypoints, Waypoint{Key: "k", Value: float64(v), Kind: Maximize})
	})
	dir := seedRun(t, ex, []string{"perf"}, 5, 9, 3)
	// Resume with no seeds: exactly the corpus (5 and 9) is executed.
	run(t, Config{Engine: "zest", Seed: 2, Runs: 2, Workdir: dir, Feedback: []string{"perf"}, Timeout: NoTimeout}, ex)
	st := statsOf(t, dir)
	if st["waypoint_best"] != "max(k)=9" || st["perf_max_edge"] != "90" {
		t.Errorf("after resume: waypoint_best %q perf_max_edge %q, want max(k)=9 and 90", st["waypoint_best"], st["perf_max_edge"])
	}
}

// TestUnknownFeedback: Run refuses an unknown feedback name, naming the
// valid ones; ParseFeedback too.
func TestUnknownFeedback(t *testing.T) {
	_, err := Run(context.Background(), Config{Engine: "zest", Workdir: t.TempDir(), Feedback: []string{"speed"}}, newByteExec(func(byte, *Outcome) {}))
	if err == nil || !strings.Contains(err.Error(), `unknown feedback "speed"`) || !strings.Contains(err.Error(), "perf, mem, cmp or diff") {
		t.Errorf("Run: err %v", err)
	}
	if _, err := ParseFeedback("perf,nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("ParseFeedback: err %v", err)
	}
	if got, err := ParseFeedback(" mem,perf ,mem"); err != nil || !slices.Equal(got, []string{"mem", "perf"}) {
		t.Errorf("ParseFeedback: %q, %v", got, err)
	}
}

// benchFeedback runs the zest loop on the trivial target with feedback
// for b.N executions (docs/BENCHMARKS.md, "Feedback domains": the cost of
// each domain per execution).
func benchFeedback(b *testing.B, feedback []string) {
	ex := &trivialExec{src: param.New(nil, 0)}
	b.ResetTimer()
	run(b, Config{Engine: "zest", Seed: 1, Runs: int64(b.N), Workdir: b.TempDir(), Feedback: feedback, Timeout: NoTimeout}, ex)
}

func BenchmarkFeedbackNone(b *testing.B) { benchFeedback(b, nil) }
func BenchmarkFeedbackPerf(b *testing.B) { benchFeedback(b, []string{"perf"}) }
func BenchmarkFeedbackMem(b *testing.B)  { benchFeedback(b, []string{"mem"}) }

// TestMergeFeedback: the supervisor sums the workers' saved_* counts and
// takes each domain's keys from the worker with the best primary value.
func TestMergeFeedback(t *testing.T) {
	w0 := []kvPair{{"saved_waypoint", "1"}, {"saved_perf", "4"}, {"perf_max_path", "900"}, {"perf_slowest", "corpus/a"}, {"mem_max_bytes", "70"}}
	w1 := []kvPair{{"saved_waypoint", "0"}, {"saved_perf", "6"}, {"perf_max_path", "1200"}, {"perf_slowest", "corpus/b"}, {"mem_max_bytes", "50"}}
	got := mergeFeedback([][]kvPair{w0, w1})
	want := []kvPair{{"saved_waypoint", "1"}, {"saved_perf", "10"}, {"perf_max_path", "1200"}, {"perf_slowest", "corpus/b"}, {"mem_max_bytes", "70"}}
	if !slices.Equal(got, want) {
		t.Errorf("merge: %v, want %v", got, want)
	}
	lines := feedbackSummary(got)
	if len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "+perf 10") || !strings.Contains(strings.Join(lines, "\n"), "slowest input corpus/b") {
		t.Errorf("summary %q", lines)
	}
}

// TestReadFeedbackFiles: the supervisor reads the workers' feedback files
// as stats files (workdir.ReadStats), and merges them: every line in its
// order (a repeated saved_* key summed as before), keys and values without
// the white space around them, a line of any length, a malformed line
// skipped, a file that is not a feedback file's name ignored.
func TestReadFeedbackFiles(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 100<<10) // past bufio.Scanner's 64 KiB lines
	files := map[string]string{
		feedbackFilePrefix + "0": "saved_waypoint: 1\nsaved_perf: 4\nperf_max_path: 900\nperf_slowest: corpus/a\nwaypoint_keys: 1\nwaypoint_best: max(" + long + ")=3\nmem_max_bytes: 70\n",
		feedbackFilePrefix + "1": "saved_waypoint: 0\r\n  saved_perf :  6 \r\nperf_max_path: 1200\r\nnot a line\r\nperf_slowest: corpus/b\r\nmem_max_bytes: 50\r\nsaved_perf: 1",
		"stats":                  "saved_perf: 100\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := readFeedbackFiles(dir)
	want := [][]kvPair{
		{{"saved_waypoint", "1"}, {"saved_perf", "4"}, {"perf_max_path", "900"}, {"perf_slowest", "corpus/a"}, {"waypoint_keys", "1"}, {"waypoint_best", "max(" + long + ")=3"}, {"mem_max_bytes", "70"}},
		{{"saved_waypoint", "0"}, {"saved_perf", "6"}, {"perf_max_path", "1200"}, {"perf_slowest", "corpus/b"}, {"mem_max_bytes", "50"}, {"saved_perf", "1"}},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("read:\n%.300v\nwant\n%.300v", got, want)
	}
	merged := mergeFeedback(got)
	wantMerged := []kvPair{{"saved_waypoint", "1"}, {"saved_perf", "11"}, {"perf_max_path", "1200"}, {"perf_slowest", "corpus/b"},
		{"waypoint_keys", "1"}, {"waypoint_best", "max(" + long + ")=3"}, {"mem_max_bytes", "70"}}
	if !slices.Equal(merged, wantMerged) {
		t.Errorf("merged:\n%.300v\nwant\n%.300v", merged, wantMerged)
	}
	if got := readFeedbackFiles(filepath.Join(dir, "none")); got != nil {
		t.Errorf("no files: %v", got)
	}
}

// TestPerfFavorsMaxHolders: PerfFuzz's favoring. An input that takes an
// edge's largest count becomes favored (responsible for that maximum,
// entry.resp, which gives it zest's 20x children), and loses it to a later
// input that raises the same edge further; an input below the maximum
// takes nothing.
func TestPerfFavorsMaxHolders(t *testing.T) {
	counts := map[byte]uint64{1: 200, 2: 300, 3: 250} // one hit-count class (128+): coverage saves only the first
	ex := newByteExec(func(v byte, out *Outcome) { setCount(77, counts[v]) })
	f := newTestFuzzer(t, "zest", ex, 100)
	f.cfg.Feedback = []string{"perf"}
	if err := f.setDomains(); err != nil {
		t.Fatal(err)
	}
	p := f.doms[1].(*perfDomain)
	first := f.feed(1)
	if first == nil {
		t.Fatal("the first input was not queued")
	}
	resp1 := first.resp // coverage's edges and perf's maxima
	if p.owners[77%uint32(len(p.max))] != 0 {
		t.Fatalf("owner of edge 77: %v, want the first input", p.owners)
	}
	second := f.feed(2) // raises edge 77 from 200 to 300: saved for perf only
	if second == nil {
		t.Fatal("the input raising the edge's count was not queued")
	}
	if second.resp == 0 {
		t.Error("the input holding the edge's largest count is not favored")
	}
	if first.resp >= resp1 {
		t.Errorf("the first input kept its maxima: resp %d, was %d", first.resp, resp1)
	}
	if e := f.feed(3); e != nil {
		t.Errorf("an input below the maximum was queued (resp %d)", e.resp)
	}
	if second.resp == 0 {
		t.Error("an input below the maximum took the favor")
	}
}

// testDomain is a domain the tests register (registerTestDomain): it keeps
// the largest first byte of an execution's consumed input (a max reducer),
// and, as a bracketing domain, counts its per-execution hooks.
type testDomain struct {
	best, last   byte
	begins, ends int
	unpaired     int  // a begin after a begin, or an end without one
	inExec       bool // between begin and end
	started      bool
}

func (d *testDomain) name() string { return "test" }

func (d *testDomain) start(*fuzzer) error { d.started = true; return nil }

func (d *testDomain) check(out *Outcome, valid bool) bool {
	d.last = 0
	if len(out.Consumed) > 0 {
		d.last = out.Consumed[0]
	}
	return d.last > d.best
}

func (d *testDomain) commit(string) { d.best = max(d.best, d.last) }

func (d *testDomain) stats(kv func(string, any)) {
	kv("test_best", d.best)
	kv("test_hooks", d.begins)
}

func (d *testDomain) summary(get func(string) string) []string {
	if b := get("test_best"); b != "" {
		return []string{"test: best " + b + ", saved for it alone " + get("saved_test")}
	}
	return nil
}

func (d *testDomain) mergeKey() string { return "test_best" }

func (d *testDomain) begin() {
	if d.inExec {
		d.unpaired++
	}
	d.begins++
	d.inExec = true
}

func (d *testDomain) end() {
	if !d.inExec {
		d.unpaired++
	}
	d.ends++
	d.inExec = false
}

// registerTestDomain adds d, named "test", to the registry for the test:
// every build returns d itself, so that the test can look at the one a
// run used.
func registerTestDomain(t *testing.T, d *testDomain) {
	t.Helper()
	old := domains
	domains = append(slices.Clip(domains), domainDef{name: "test", build: func() domain { return d }})
	t.Cleanup(func() { domains = old })
}

// TestDomainRegistry: a domain is one registry entry. Registered once, it
// is a -feedback name (FeedbackNames, FeedbackList, ParseFeedback); a run
// with it saves what it improves and counts it as saved_<name>; its own
// stats keys are written, its summary is in the final output, and the
// supervisor merges its keys by its own mergeKey.
func TestDomainRegistry(t *testing.T) {
	d := &testDomain{}
	registerTestDomain(t, d)
	if n := FeedbackNames(); n[len(n)-1] != "test" || slices.Contains(n, "waypoint") {
		t.Errorf("FeedbackNames %q: want the registered domain last, and no always-on one", n)
	}
	if l := FeedbackList(); !strings.HasSuffix(l, "diff or test") {
		t.Errorf("FeedbackList %q", l)
	}
	if fb, err := ParseFeedback("test,perf"); err != nil || !slices.Equal(fb, []string{"test", "perf"}) {
		t.Errorf("ParseFeedback: %q, %v", fb, err)
	}

	ex := newByteExec(func(byte, *Outcome) {})
	dir := t.TempDir()
	var status strings.Builder
	run(t, Config{Engine: "zest", Seed: 1, Runs: 3, Workdir: dir, Seeds: [][]byte{{3}, {5}, {4}}, Feedback: []string{"test"},
		Timeout: NoTimeout, Status: &status}, ex)
	if !d.started {
		t.Error("the domain was not started")
	}
	if !corpusHas(t, dir, 5) || corpusHas(t, dir, 4) {
		t.Error("want the input improving the domain (5) saved, and the one that does not (4) not")
	}
	st := statsOf(t, dir)
	if st["saved_test"] != "1" || st["test_best"] != "5" {
		t.Errorf("stats saved_test %q test_best %q, want 1 and 5", st["saved_test"], st["test_best"])
	}
	if !strings.Contains(status.String(), "gfz: test: best 5, saved for it alone 1\n") ||
		!strings.Contains(status.String(), "gfz: feedback: inputs saved for a feedback domain alone: +test 1\n") {
		t.Errorf("the final summary lacks the domain's lines:\n%s", status.String())
	}

	w0 := []kvPair{{"saved_test", "2"}, {"test_best", "9"}, {"test_hooks", "100"}}
	w1 := []kvPair{{"saved_test", "1"}, {"test_best", "12"}, {"test_hooks", "50"}}
	merged := mergeFeedback([][]kvPair{w0, w1})
	want := []kvPair{{"saved_test", "3"}, {"test_best", "12"}, {"test_hooks", "50"}}
	if !slices.Equal(merged, want) {
		t.Errorf("merged %v, want %v (the keys of the worker with the largest test_best)", merged, want)
	}
	if lines := feedbackSummary(merged); !slices.Contains(lines, "test: best 12, saved for it alone 3") {
		t.Errorf("merged summary %q", lines)
	}
}

// TestDomainHooksBracketExecutions: a bracketing domain's begin and end are
// called around every execution the executor runs (rechecks included),
// begin before it and end after it.
func TestDomainHooksBracketExecutions(t *testing.T) {
	d := &testDomain{}
	registerTestDomain(t, d)
	var execs, outside int
	ex := newByteExec(func(v byte, out *Outcome) {
		execs++
		if !d.inExec {
			outside++
		}
	})
	run(t, Config{Engine: "zest", Seed: 1, Runs: 200, Workdir: t.TempDir(), Feedback: []string{"test"}, Timeout: NoTimeout}, ex)
	if execs == 0 || outside != 0 || d.begins != execs || d.ends != execs || d.unpaired != 0 || d.inExec {
		t.Errorf("%d executions, %d outside begin/end; begin called %d times, end %d, %d unpaired", execs, outside, d.begins, d.ends, d.unpaired)
	}
	if d.best == 0 {
		t.Error("the domain saw no execution")
	}
}

// TestFeedbackCountsSurviveRestart: a worker that replaces a dead one of
// its slot adds the summed counts (arm_*, saved_*) the dead one left in the
// slot's feedback file to its own, so that the supervisor's totals cover
// every worker process; the other keys are the new worker's own; a
// generation first that had ended stays ended.
func TestFeedbackCountsSurviveRestart(t *testing.T) {
	autoWithoutFirst(t) // the arms count within its 3,000 executions
	worker := func(dead string) map[string]string {
		t.Helper()
		dir := t.TempDir()
		shmPath := filepath.Join(dir, ".w.shm")
		m, err := createShm(shmPath, param.DefaultMaxSize)
		if err != nil {
			t.Fatal(err)
		}
		defer m.close()
		m.store(offWorkerID, 2)
		wd := filepath.Join(dir, "wd")
		if dead != "" {
			if err := os.MkdirAll(wd, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(wd, feedbackFilePrefix+"2"), []byte(dead), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err = Run(context.Background(), Config{Engine: "auto", Seed: 3, Runs: 3000, Workdir: wd, SharedMem: shmPath, Restarted: true},
			newMaze(mazeKey, mazeMod, mazeValid))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := workdir.ReadStats(filepath.Join(wd, feedbackFilePrefix+"2"))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, l := range st.Lines() {
			out[l.Key] = l.Value
		}
		return out
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	own := worker("")
	if own["arm_zest_execs"] == "" || own["arm_zest_execs"] == "0" {
		t.Fatalf("the worker's own file: %v", own)
	}
	// Generation first (on again): a first worker's 3,000 executions are
	// all generation; a worker whose slot's dead worker had ended it does
	// not start it again (its own count 0, the dead one's added).
	t.Setenv(autoArmsEnv, "")
	first := worker("")
	if w := first; w["arm_random_first_ended"] != "0" || w["arm_zest_execs"] != "0" || w["arm_random_first"] == "0" {
		t.Errorf("a first worker: generation first ended %s, %s zest executions, %s children of it; want 0, 0, all",
			w["arm_random_first_ended"], w["arm_zest_execs"], w["arm_random_first"])
	}
	if w := worker("arm_random_first_ended: 1\narm_random_first: 4000\n"); w["arm_random_first_ended"] != "1" ||
		w["arm_random_first"] != "4000" || w["arm_zest_execs"] == "0" {
		t.Errorf("a worker after one that ended generation first: ended %s, its children %s, %s zest executions; want 1, the dead one's 4000, some",
			w["arm_random_first_ended"], w["arm_random_first"], w["arm_zest_execs"])
	}
	// One after a worker that had not ended it goes on with the slot's
	// count: its new edges are the slot's 40,001st child and later (the
	// same as a first worker's, 40,000 on).
	if w, n := worker("arm_random_first_ended: 0\narm_random_first: 40000\narm_random_first_last: 39000\n"), atoi(first["arm_random_first"]); w["arm_random_first_ended"] != "0" ||
		atoi(w["arm_random_first"]) != 40000+n || atoi(w["arm_random_first_last"]) != 40000+atoi(first["arm_random_first_last"]) {
		t.Errorf("a worker after one during generation first: ended %s, children %s, last new edge at %s; want 0, %d, %d",
			w["arm_random_first_ended"], w["arm_random_first"], w["arm_random_first_last"], 40000+n, 40000+atoi(first["arm_random_first_last"]))
	}
	autoWithoutFirst(t)
	got := worker("arms: zest,bytes\narm_zest_execs: 1000\narm_gone_execs: 5\nsaved_perf: 7\narm_zest_finds: x\n")
	if g, w := atoi(got["arm_zest_execs"]), atoi(own["arm_zest_execs"])+1000; g != w {
		t.Errorf("arm_zest_execs after a restart: %d, want the dead worker's 1000 + the new one's %s", g, own["arm_zest_execs"])
	}
	if got["arm_bytes_execs"] != own["arm_bytes_execs"] || got["arms"] != own["arms"] {
		t.Errorf("keys the dead worker did not count changed: arm_bytes_execs %s (own %s), arms %q (own %q)",
			got["arm_bytes_execs"], own["arm_bytes_execs"], got["arms"], own["arms"])
	}
	if got["arm_gone_execs"] != "5" || got["saved_perf"] != "7" {
		t.Errorf("counts only the dead worker had: arm_gone_execs %q saved_perf %q, want 5 and 7", got["arm_gone_execs"], got["saved_perf"])
	}
	if got["arm_zest_finds"] != own["arm_zest_finds"] {
		t.Errorf("a malformed count was added: arm_zest_finds %q, own %q", got["arm_zest_finds"], own["arm_zest_finds"])
	}
}
