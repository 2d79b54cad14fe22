package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/build"
	"github.com/gfz-dev/gfz/cmd/internal/sched"
	"github.com/gfz-dev/gfz/internal/report"
	"github.com/gfz-dev/gfz/internal/testmod"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestScheduleFlags: the schedule is adaptive by default and rounds with
// -runs alone; a scheduled run leaves -time, -workers and -runs to the
// runner (each process gets its own); unknown schedules and -schedlog
// without a shared budget are usage errors.
func TestScheduleFlags(t *testing.T) {
	for _, c := range []struct {
		args     []string
		schedule string
		binary   []string // flags the binaries get from parse
		absent   []string
	}{
		{[]string{"."}, scheduleAdaptive, nil, []string{"-time", "-workers", "-runs"}},
		{[]string{"-time", "1m", "-workers", "1", "-runs", "9", "."}, scheduleAdaptive, nil, []string{"-time", "-workers", "-runs"}},
		{[]string{"-runs", "9", "-workers", "1", "."}, scheduleRounds, []string{"-runs 9", "-workers 1"}, nil},
		{[]string{"-schedule", "rounds", "-time", "1m", "."}, scheduleRounds, []string{"-time 1m0s"}, nil},
		{[]string{"-schedule", "equal", "-time", "1m", "."}, scheduleEqual, nil, []string{"-time"}},
		{[]string{"-ci", "-schedule", "rounds", "-runs", "5"}, scheduleRounds, []string{"-runs 5"}, []string{"-time"}},
		{[]string{"-ci"}, scheduleAdaptive, nil, []string{"-time", "-workers", "-runs"}},
	} {
		o, code := parse(c.args, io.Discard)
		if o == nil {
			t.Fatalf("%q: exit %d", c.args, code)
		}
		got := strings.Join(o.run, " ")
		if o.schedule != c.schedule {
			t.Errorf("%q: schedule %q, want %q", c.args, o.schedule, c.schedule)
		}
		for _, f := range c.binary {
			if !strings.Contains(got, f) {
				t.Errorf("%q: binary flags %q lack %q", c.args, got, f)
			}
		}
		for _, f := range c.absent {
			if slices.Contains(o.run, f) {
				t.Errorf("%q: binary flags %q hold %s", c.args, got, f)
			}
		}
	}
	for _, args := range [][]string{
		{"-schedule", "fair", "."},
		{"-schedlog", "x.json", "-runs", "5", "."},
	} {
		var errb bytes.Buffer
		if o, code := parse(args, &errb); o != nil || code != 2 {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", args, code, errb.String())
		}
	}
}

// TestChildLineFilter: above the board, a target's status lines are never
// shown, and after its first process neither are the lines of every run's
// start and end; warnings and failures always are.
func TestChildLineFilter(t *testing.T) {
	status := "gfz: elapsed 3s, execs 981234 (327078/s), valid 24.9%, corpus 28, cov 108 (valid 104), failures 0, workers 1, restarts 0, stability 100.0%"
	routine := []string{
		"gfz: resuming from 12 corpus files in /w/corpus",
		"gfz: done: elapsed 2s, execs 523555 (255467/s), valid 100.0%",
		"gfz: metrics: hill b0 8 b1 5.9 b2 4.3",
		"gfz: 0 new unique failures (0 known in total, at 0 sites); work directory /w",
	}
	always := []string{
		"gfz: warning: skipping corrupt corpus file: x",
		"gfz: new failure: panic: boom",
		"some line the target printed",
	}
	first, later, verbose := childLineFilter(true, false), childLineFilter(false, false), childLineFilter(false, true)
	for _, f := range []func(string) bool{first, later, verbose} {
		if f(status) {
			t.Errorf("a status line is shown")
		}
		for _, l := range always {
			if !f(l) {
				t.Errorf("%q is not shown", l)
			}
		}
	}
	for _, l := range routine {
		if !first(l) || later(l) || !verbose(l) {
			t.Errorf("%q: first process %v, later %v, -v %v; want true, false, true", l, first(l), later(l), verbose(l))
		}
	}
}

// TestMixSeed: a target's later processes get distinct seeds, the same
// for the same run seed.
func TestMixSeed(t *testing.T) {
	seen := map[int64]bool{}
	for job := range 20 {
		for n := 1; n < 50; n++ {
			s := mixSeed(7, job, n)
			if s <= 0 || seen[s] {
				t.Fatalf("mixSeed(7, %d, %d) = %d: repeated or not positive", job, n, s)
			}
			seen[s] = true
			if mixSeed(7, job, n) != s {
				t.Fatalf("mixSeed is not a function of its arguments")
			}
		}
	}
}

// sharedModule has a target with a bug found within its first
// executions and two without.
var sharedModule = map[string]string{
	"p/p.go":      bugModule["p/p.go"],
	"p/p_test.go": bugModule["p/p_test.go"],
	"q/q.go":      "package q\n\n// F sorts n.\nfunc F(n int) int {\n\tif n > 4 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n\n// G sorts n.\nfunc G(n int) int {\n\tswitch n {\n\tcase 1:\n\t\treturn 2\n\t}\n\treturn 0\n}\n",
	"q/q_test.go": "package q\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n)\n\nfunc FuzzA(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { F(int(t.Source().Range(0, 9, 0))) })\n}\n\nfunc FuzzB(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { G(int(t.Source().Range(0, 9, 0))) })\n}\n",
}

type testLog struct {
	Start  time.Time   `json:"start"`
	Cores  int         `json:"cores"`
	Slices []logRecord `json:"slices"`
}

// TestSharedRun: gfz-run ./... with a budget runs every target under the
// adaptive schedule: the first processes in the targets' order, one core
// each, never more worker processes at once than GOMAXPROCS, every
// process ended; the summary gives each its share and the new failure;
// the report's index shows the schedule; exit status 1.
func TestSharedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes a module")
	}
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n"}
	for k, v := range sharedModule {
		files[k] = v
	}
	dir := t.TempDir()
	testmod.Write(t, dir, files)
	t.Chdir(dir)
	work, rep := t.TempDir(), filepath.Join(t.TempDir(), "rep")
	logPath := filepath.Join(t.TempDir(), "sched.json")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-workdir", work, "-time", "6s", "-schedlog", logPath, "-report", rep, "./..."}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	for _, row := range []string{
		`(?m)^example\.com/m/p +FuzzF +NEW FAILURE +\d+\.\d% +\S+ +\d+ +\d+ +\d+ +1 +0$`,
		`(?m)^example\.com/m/q +FuzzA +ok +\d+\.\d% +\S+ +\d+ +\d+ +\d+ +0 +0$`,
		`(?m)^example\.com/m/q +FuzzB +ok +\d+\.\d% +\S+ +\d+ +\d+ +\d+ +0 +0$`,
	} {
		if !regexp.MustCompile(row).MatchString(out.String()) {
			t.Errorf("summary lacks %s\n%s", row, out.String())
		}
	}
	if !strings.Contains(out.String(), "3 target(s) run, 1 found a new failure") {
		t.Errorf("no final count:\n%s", out.String())
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var lf testLog
	if err := json.Unmarshal(data, &lf); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	procs := runtime.GOMAXPROCS(0)
	if lf.Cores != procs || len(lf.Slices) < 3 {
		t.Fatalf("schedule log: %d cores, %d processes:\n%s", lf.Cores, len(lf.Slices), data)
	}
	// The first pass: the targets in order, one core each (with fewer
	// targets than cores, the cores divided).
	order := []string{"FuzzF", "FuzzA", "FuzzB"}
	for i, s := range lf.Slices[:3] {
		if s.Target != order[i] {
			t.Errorf("process %d is %s's, want %s's (first pass in order)", i, s.Target, order[i])
		}
		if procs < 3 && s.Workers != 1 {
			t.Errorf("first process of %s has %d workers, want 1", s.Target, s.Workers)
		}
	}
	// Never more workers at once than cores; every process ended.
	type event struct {
		t float64
		d int
	}
	var ev []event
	for _, s := range lf.Slices {
		if s.End < 0 {
			t.Errorf("%s: a process that never ended: %+v", s.Target, s)
		}
		// Each process is told to end by the end of the budget, less
		// the margin for its shutdown (the report's included).
		if s.Limit <= 0 || s.Start+s.Limit > 6-(stopMargin+reportMargin).Seconds()+1e-3 {
			t.Errorf("%s: started at %.3fs with -time %.3fs, past the budget's end less the margin", s.Target, s.Start, s.Limit)
		}
		ev = append(ev, event{s.Start, s.Workers}, event{s.End, -s.Workers})
	}
	sort.Slice(ev, func(i, j int) bool { return ev[i].t < ev[j].t || ev[i].t == ev[j].t && ev[i].d < ev[j].d })
	busy := 0
	for _, e := range ev {
		if busy += e.d; busy > procs {
			t.Fatalf("%d worker processes at once at %.2fs on %d cores:\n%s", busy, e.t, procs, data)
		}
	}
	index, err := os.ReadFile(filepath.Join(rep, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h2>Schedule</h2>", "adaptive schedule", `href="example.com/m/q/FuzzA/index.html"`, "<rect "} {
		if !strings.Contains(string(index), want) {
			t.Errorf("the index lacks %q", want)
		}
	}
	if strings.Contains(string(index), `http-equiv="refresh"`) {
		t.Errorf("the final index still reloads itself")
	}
}

// TestSharedRunInterrupted: an interrupt stops every process cleanly
// (each saves its state) and gfz-run prints the summary, long before the
// budget's end.
func TestSharedRunInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes a module")
	}
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n"}
	for k, v := range sharedModule {
		if strings.HasPrefix(k, "q/") {
			files[k] = v
		}
	}
	dir := t.TempDir()
	testmod.Write(t, dir, files)
	t.Chdir(dir)
	work := t.TempDir()
	logPath := filepath.Join(t.TempDir(), "sched.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Interrupt once both targets have run.
		for ctx.Err() == nil {
			if data, err := os.ReadFile(logPath); err == nil {
				var lf testLog
				if json.Unmarshal(data, &lf) == nil && len(lf.Slices) >= 2 {
					cancel()
					return
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"-workdir", work, "-time", "10m", "-schedlog", logPath, "./..."}, &out, &errb)
	if code != 0 || !strings.Contains(errb.String(), "gfz-run: interrupted") || !strings.Contains(out.String(), "2 target(s) run") {
		t.Fatalf("exit %d, want 0 after an interrupt\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	data, _ := os.ReadFile(logPath)
	var lf testLog
	if err := json.Unmarshal(data, &lf); err != nil {
		t.Fatal(err)
	}
	for _, s := range lf.Slices {
		if s.End < 0 || s.Exit != 0 {
			t.Errorf("%s: did not stop cleanly: %+v", s.Target, s)
		}
	}
}

// TestShortWarning: a budget too short for every target's first round is
// said before the run, with the budget that would do; one that fits says
// nothing.
func TestShortWarning(t *testing.T) {
	jobs := func(n int) []*ciJob {
		js := make([]*ciJob, n)
		for i := range js {
			js[i] = &ciJob{}
		}
		return js
	}
	o := &options{}
	var out, errb bytes.Buffer
	ctx := context.Background()
	// 50 targets, 10 s, 2 cores: first rounds of 1 s, two targets each;
	// the round that would leave less than lastRound is the last and
	// starts none (the running ones keep their cores), so 8 rounds start
	// targets (the ninth starts after 8 s and some delays): 16. All 25
	// rounds need 1 s each and the last second, plus the rounds' start
	// delays: 28 s.
	r := newRunner(ctx, o, jobs(50), 2, 0, 10*time.Second, 0, 1, &out, &errb)
	w := r.shortWarning()
	for _, want := range []string{"-time 10s is too short for 50 targets on 2 core(s)", "a first round of 1s each", "about 16 will run", "give -time 28s or more"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	// 5 targets, 2 s, 2 cores: the first round is also the last (less
	// than lastRound after it), so 2 run (as measured); 3 rounds start
	// targets from 5 s on.
	w = newRunner(ctx, o, jobs(5), 2, 0, 2*time.Second, 0, 1, &out, &errb).shortWarning()
	for _, want := range []string{"about 2 will run", "give -time 5s or more"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	// The budget suggested is the least whole number of seconds that
	// runs every target, by the same reckoning as the count.
	for _, n := range []int{3, 5, 8, 50, 300} {
		for _, units := range []int{1, 2, 8} {
			for _, b := range []time.Duration{time.Second, 2 * time.Second, 7 * time.Second, time.Minute} {
				r := newRunner(ctx, o, jobs(n), units, 0, b, 0, 1, &out, &errb)
				w := r.shortWarning()
				if fits := firstPassFits(b, r.margin, n, units); (w == "") != (fits >= n) {
					t.Errorf("%d targets, %d cores, %v: %d fit, warning %q", n, units, b, fits, w)
				}
				m := regexp.MustCompile(`about (\d+) will run.*give -time (\S+) or more`).FindStringSubmatch(w)
				if w == "" {
					continue
				}
				if m == nil {
					t.Fatalf("warning %q", w)
				}
				need, _ := time.ParseDuration(m[2])
				if m[1] != strconv.Itoa(firstPassFits(b, r.margin, n, units)) || firstPassFits(need, r.margin, n, units) < n ||
					need-time.Second > b && firstPassFits(need-time.Second, r.margin, n, units) >= n {
					t.Errorf("%d targets, %d cores, %v: warning %q: not the least budget that runs all", n, units, b, w)
				}
			}
		}
	}
	// 10 targets, 10 s, 2 cores: 5 s of first rounds fit.
	if w := newRunner(ctx, o, jobs(10), 2, 0, 10*time.Second, 0, 1, &out, &errb).shortWarning(); w != "" {
		t.Errorf("10 targets in 10s: %q", w)
	}
	// No budget: nothing to warn about.
	if w := newRunner(ctx, o, jobs(50), 2, 0, 0, 1000, 1, &out, &errb).shortWarning(); w != "" {
		t.Errorf("no budget: %q", w)
	}
}

// TestKeepSlowRestart: a running process whose target keeps fewer cores
// stays as it is, instead of being restarted with its new share, when a new process
// would spend more than a quarter of the round starting and replaying the
// corpus (corpus entries times the execution time its last process
// measured); a target losing all its cores, or gaining some, is
// restarted whatever the cost, and one kept the round before is not kept
// again (a process kept round after round starved another target).
func TestKeepSlowRestart(t *testing.T) {
	r := &runner{runs: []*jobRun{{corpus: 117, perExec: 0.030}, {corpus: 117, perExec: 0.0001}}}
	slow, fast := &slice{job: 0, cores: 3}, &slice{job: 1, cores: 3}
	if got := r.restartCost(0); got < 3800*time.Millisecond || got > 3900*time.Millisecond {
		t.Errorf("restart cost %v, want startCost + 117 x 30ms", got)
	}
	for _, c := range []struct {
		sl   *slice
		k    int
		d    time.Duration
		keep bool
	}{
		{slow, 2, 10 * time.Second, true},
		{slow, 1, 10 * time.Second, true},
		{slow, 2, 20 * time.Second, false},
		{slow, 0, 10 * time.Second, false},
		{slow, 4, 10 * time.Second, false}, // growing: restarted, or its new cores would idle
		{fast, 2, 10 * time.Second, false},
		{fast, 2, time.Second, true},                                       // even the start alone is more than a quarter
		{&slice{job: 0, cores: 3, kept: true}, 2, 10 * time.Second, false}, // kept the round before: not again
	} {
		if got := r.keep(c.sl, c.k, c.d); got != c.keep {
			t.Errorf("keep(job %d, %d cores, round %v) = %v, want %v", c.sl.job, c.k, c.d, got, c.keep)
		}
	}
}

// TestFiguresPartial: stats marked partial (a process still replaying the
// corpus, or stopped before the end of its replay) do not replace the
// coverage of a complete process of this run, and do set it when there
// is none; the execution time per worker is measured from this run's
// stats; partial stats give no gains and do not end the warm-up.
func TestFiguresPartial(t *testing.T) {
	wd := t.TempDir()
	start := time.Now()
	r := &runner{start: start, jobs: []*ciJob{{wd: wd}}, runs: []*jobRun{{cov: 500}}}
	write := func(cov int, partial bool) {
		t.Helper()
		s := fmt.Sprintf("start_time: %d\nelapsed_s: 2.0\nexecs: 100\nworkers: 2\ncorpus: 40\ntotal_cov: %d\n", start.Unix(), cov)
		if partial {
			s += "partial: 1\n"
		}
		if err := os.WriteFile(filepath.Join(wd, workdir.StatsFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sl := &slice{job: 0, start: start}
	for i, c := range []struct {
		cov     int
		partial bool
		want    int64
	}{
		{50, true, 50},    // the first figure of this run, partial as it is (the earlier 500 was another run's)
		{900, false, 900}, // complete
		{120, true, 900},  // a later process still replaying
		{950, false, 950},
	} {
		write(c.cov, c.partial)
		r.readFigures(sl, false, false)
		if jr := r.runs[0]; jr.cov != c.want {
			t.Errorf("step %d: coverage %d, want %d", i, jr.cov, c.want)
		}
	}
	if pe := r.runs[0].perExec; pe < 0.0399 || pe > 0.0401 {
		t.Errorf("perExec %v, want 2 s x 2 workers / 100 executions", pe)
	}
	// A process still replaying finds nothing and has not reported yet;
	// a complete figure of the run before stands over its partial one.
	r.runs[0] = &jobRun{cov: 152, covHere: true, best: [3]int64{152, 40, 0}}
	write(50, true)
	if y := r.readFigures(sl, false, true); y.Coverage != 0 || y.Corpus != 0 || r.runs[0].reported || r.runs[0].cov != 152 {
		t.Errorf("partial stats: yield %+v, reported %v, coverage %d; want nothing, false, 152", y, r.runs[0].reported, r.runs[0].cov)
	}
	write(160, false)
	if y := r.readFigures(sl, false, true); y.Coverage != 8 || !r.runs[0].reported || r.runs[0].cov != 160 {
		t.Errorf("complete stats after: yield %+v, reported %v, coverage %d; want 8 new keys, true, 160", y, r.runs[0].reported, r.runs[0].cov)
	}
}

// TestObserveChargesHeldCores: the rule is charged the cores' time a
// process held, not only its CPU time: a target that sleeps (here half a
// CPU-second in 10 s on 2 workers) costs its 20 core-seconds; one whose CPU
// time is more than that (goroutines of its own) costs its CPU time.
func TestObserveChargesHeldCores(t *testing.T) {
	for _, c := range []struct{ cpu, want float64 }{{0.5, 20}, {30, 30}} {
		now := time.Now()
		r := &runner{start: now.Add(-time.Minute), jobs: []*ciJob{{wd: t.TempDir()}}, runs: []*jobRun{{}},
			running: make([]*slice, 1), rule: sched.New(1, 2, 1, sched.Params{})}
		sl := &slice{job: 0, workers: 2, start: now.Add(-10 * time.Second), lastObs: now.Add(-10 * time.Second), cpu: c.cpu}
		r.observeSlice(sl, now, true)
		if sl.gain.CPU != c.want {
			t.Errorf("CPU time %v in 10 s on 2 workers: charged %v, want %v", c.cpu, sl.gain.CPU, c.want)
		}
	}
}

// TestWorthStarting: in the last round a target is started again only if
// its start and replay take at most half of the time left; one that has
// not run yet always is.
func TestWorthStarting(t *testing.T) {
	r := &runner{runs: []*jobRun{{}, {procs: 1, corpus: 117, perExec: 0.030}}}
	for _, c := range []struct {
		job  int
		left time.Duration
		want bool
	}{{0, time.Second, true}, {1, 5 * time.Second, false}, {1, 10 * time.Second, true}} {
		r.deadline = time.Now().Add(c.left)
		if got := r.worthStarting(c.job); got != c.want {
			t.Errorf("job %d with %v left: worth starting %v, want %v", c.job, c.left, got, c.want)
		}
	}
}

// TestStarts: a round starts each planned job that has no process within
// the free cores; in the last round a job whose start would not pay is
// left out and its cores go to the jobs started then, in turn, or when
// none is, to jobs the plan left out that would pay.
func TestStarts(t *testing.T) {
	all := func(int) bool { return true }
	set := func(idx ...int) func(int) bool {
		return func(i int) bool { return slices.Contains(idx, i) }
	}
	for _, c := range []struct {
		name       string
		plan       []int
		free       int
		last       bool
		can, worth func(int) bool
		want       []int
	}{
		{"plain", []int{1, 2, 1}, 4, false, all, all, []int{1, 2, 1}},
		{"kept process holds cores", []int{2, 2, 1}, 3, false, all, all, []int{2, 1, 0}},
		{"running or ended jobs", []int{1, 2, 1}, 4, false, set(0, 2), all, []int{1, 0, 1}},
		{"not last: worth ignored", []int{2, 2}, 4, false, all, set(), []int{2, 2}},
		{"last: cores of a slow job go to the others", []int{2, 1, 1}, 4, true, all, set(1, 2), []int{0, 2, 2}},
		{"last: odd cores in turn", []int{3, 1, 0}, 4, true, all, set(1), []int{0, 4, 0}},
		{"last: to a job the plan left out", []int{2, 0, 0, 0}, 2, true, set(0, 2, 3), set(2, 3), []int{0, 0, 1, 1}},
		{"last: more cores than takers", []int{3, 0, 0}, 3, true, all, set(2), []int{0, 0, 3}},
		{"last: nobody can", []int{2, 0}, 2, true, all, set(), []int{0, 0}},
		{"last: all pay", []int{1, 1}, 2, true, all, all, []int{1, 1}},
	} {
		if got := starts(c.plan, c.free, c.last, c.can, c.worth); !slices.Equal(got, c.want) {
			t.Errorf("%s: starts(%v, %d) = %v, want %v", c.name, c.plan, c.free, got, c.want)
		}
	}
}

// TestFiguresSameSecondRestart: a process restarted within the second its
// predecessor started writes stats with the predecessor's start_time;
// the writer's PID tells them apart (its executions went uncounted: a
// target showed 1 execution of its 14 million).
func TestFiguresSameSecondRestart(t *testing.T) {
	wd := t.TempDir()
	start := time.Now()
	r := &runner{start: start, jobs: []*ciJob{{wd: wd}}, runs: []*jobRun{{prevStart: start.Unix()}}}
	write := func(pid, execs int) {
		t.Helper()
		s := fmt.Sprintf("start_time: %d\nfuzzer_pid: %d\nelapsed_s: 2.0\nexecs: %d\nworkers: 1\ncorpus: 4\ntotal_cov: 10\n", start.Unix(), pid, execs)
		if err := os.WriteFile(filepath.Join(wd, workdir.StatsFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sl := &slice{job: 0, start: start, cmd: &exec.Cmd{Process: &os.Process{Pid: 4242}}}
	write(4241, 1) // the predecessor's
	r.readFigures(sl, false, false)
	if sl.execs != 0 {
		t.Errorf("the predecessor's stats counted as this process's: %d executions", sl.execs)
	}
	write(4242, 14854235)
	r.readFigures(sl, true, false)
	if sl.execs != 14854235 {
		t.Errorf("this process's stats (same start_time as its predecessor's): %d executions, want 14854235", sl.execs)
	}
}

// TestRoundEnd: a round whose stopped processes took long to exit (an
// input holding its process for seconds after the stop) is counted from
// the start of its new processes, which were stopped a few milliseconds
// after they started, having run nothing; never past the deadline.
func TestRoundEnd(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		started  time.Duration // after t0
		d        time.Duration
		deadline time.Duration // 0: none
		want     time.Duration
	}{
		{10 * time.Millisecond, time.Second, 0, time.Second},                             // on time
		{2 * time.Second, time.Second, 0, 3 * time.Second},                               // the stop took 2 s
		{2 * time.Second, time.Second, 2500 * time.Millisecond, 2500 * time.Millisecond}, // the deadline first
	} {
		var dl time.Time
		if c.deadline > 0 {
			dl = t0.Add(c.deadline)
		}
		if got := roundEnd(t0, t0.Add(c.started), c.d, dl); !got.Equal(t0.Add(c.want)) {
			t.Errorf("started %v, d %v, deadline %v: end %v, want %v", c.started, c.d, c.deadline, got.Sub(t0), c.want)
		}
	}
}

// TestSummaryCoverageSliced: a target that ran in several processes shows
// the most coverage they reported, not its last process's (which may have
// been stopped before it ran an input: coverage 0 shown).
func TestSummaryCoverageSliced(t *testing.T) {
	dir := t.TempDir()
	wd := statsDir(t, dir, "target: FuzzT\nexecs: 0\ncorpus: 18\ntotal_cov: 0\n")
	j := &ciJob{bin: build.Binary{Package: "example.com/p"}, target: "FuzzT", wd: wd, ran: true, sliced: true, execs: 114028, cov: 73}
	j.stats, _, _ = workdir.ReadStats(filepath.Join(wd, "stats"))
	out := summaryText([]*ciJob{j}, false, "", dir)
	if !regexp.MustCompile(`(?m)^example\.com/p +FuzzT +ok +- +- +114028 +73 +18 +0 +0$`).MatchString(out) {
		t.Errorf("summary:\n%s", out)
	}
}

// TestLiveEntries: while a scheduled run goes on, the report index shows
// each target's state (a target waiting for cores is not "running").
func TestLiveEntries(t *testing.T) {
	o := &options{}
	o.report.entries = []report.IndexEntry{{Target: "FuzzA", Status: "running"}, {Target: "FuzzB", Status: "running"}, {Target: "FuzzC", Status: "running"}}
	r := &runner{o: o,
		jobs: []*ciJob{{target: "FuzzA", report: 0}, {target: "FuzzX", report: -1}, {target: "FuzzB", report: 1}, {target: "FuzzC", report: 2}},
		runs: []*jobRun{{state: "running"}, {state: "running"}, {state: "waiting"}, {state: "stopping"}}}
	var got []string
	for _, e := range r.liveEntries() {
		got = append(got, e.Target+"="+e.Status)
	}
	if g, want := strings.Join(got, " "), "FuzzA=running FuzzB=waiting FuzzC=stopping"; g != want {
		t.Errorf("live index: %s, want %s", g, want)
	}
	if o.report.entries[1].Status != "running" {
		t.Errorf("the entries themselves were changed")
	}
}
