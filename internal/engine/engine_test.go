package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// The planted maze: 4 key bytes compared modulo 16 behind a validity gate
// passed by 1 header byte in 4. Random sampling solves it with probability
// 1/4 * 16^-4 per execution (about 262,000 executions expected).
var (
	mazeKey        = []byte{3, 9, 14, 5}
	mazeMod   byte = 16
	mazeValid byte = 64
)

// execsToFailure runs engine on the maze with seed until the first
// failure or budget executions; it returns the executions used, or -1.
func execsToFailure(t *testing.T, engine string, seed, budget int64) int64 {
	t.Helper()
	s := run(t, Config{Engine: engine, Seed: seed, Runs: budget, StopOnFailure: true, Workdir: t.TempDir()},
		newMaze(mazeKey, mazeMod, mazeValid))
	if s.NewFailures == 0 {
		return -1
	}
	return s.Execs
}

func median(xs []int64) int64 {
	s := slices.Clone(xs)
	slices.SortFunc(s, func(a, b int64) int {
		// Not found (-1) sorts last.
		if a < 0 {
			a = 1 << 62
		}
		if b < 0 {
			b = 1 << 62
		}
		return int(min(max(a-b, -1), 1))
	})
	return s[len(s)/2]
}

// TestZestBeatsRandomOnMaze: with a fixed budget, zest finds the planted
// failure on at least 9 of 10 seeds while random sampling rarely does.
func TestZestBeatsRandomOnMaze(t *testing.T) {
	const budget = 30_000
	var zest, random []int64
	zestFound, randomFound := 0, 0
	for seed := int64(1); seed <= 10; seed++ {
		z := execsToFailure(t, "zest", seed, budget)
		r := execsToFailure(t, "random", seed, budget)
		zest, random = append(zest, z), append(random, r)
		if z > 0 {
			zestFound++
		}
		if r > 0 {
			randomFound++
		}
	}
	t.Logf("budget %d: zest found %d/10 (execs %v, median %d); random found %d/10 (execs %v)",
		budget, zestFound, zest, median(zest), randomFound, random)
	if zestFound < 9 {
		t.Errorf("zest found the maze failure on %d/10 seeds within %d execs, want >= 9", zestFound, budget)
	}
	if randomFound > 3 {
		t.Errorf("random found the maze failure on %d/10 seeds within %d execs: the maze is too easy", randomFound, budget)
	}
}

// TestMazeMedians measures executions to the planted failure for every
// engine with a budget large enough for random sampling (the figures of
// docs/ENGINE.md). Not found is reported as -1.
func TestMazeMedians(t *testing.T) {
	if testing.Short() {
		t.Skip("long measurement")
	}
	for _, eng := range Engines() {
		var xs, ys []int64
		for seed := int64(1); seed <= 10; seed++ {
			xs = append(xs, execsToFailure(t, eng, seed, 2_000_000))
			s := run(t, Config{Engine: eng, Seed: seed, Runs: 2_000_000, StopOnFailure: true, Workdir: t.TempDir()},
				&validMaze{*newMaze(mazeKey, mazeMod, mazeValid)})
			ys = append(ys, s.Execs)
			if s.NewFailures == 0 {
				ys[len(ys)-1] = -1
			}
		}
		t.Logf("%-8s maze median %7d execs  %v", eng, median(xs), xs)
		t.Logf("%-8s valid-only maze median %7d execs  %v", eng, median(ys), ys)
	}
}

// scripted is an executor whose coverage and result are chosen by the
// first byte of the input.
type scripted map[byte]struct {
	res    Result
	counts map[int]int
}

func (s scripted) Exec(params []byte, ext uint64) Outcome {
	if len(params) == 0 {
		return Outcome{Result: Invalid}
	}
	st := s[params[0]]
	for e, n := range st.counts {
		gfzrt.Map[e] = uint8(n)
	}
	return Outcome{Result: st.res, Consumed: params[:1]}
}

func TestSaveRules(t *testing.T) {
	ex := scripted{
		1: {Invalid, map[int]int{10: 1, 20: 1}}, // +cov
		2: {Valid, map[int]int{10: 1, 20: 1}},   // +valid (covered only by an invalid input so far)
		3: {Valid, map[int]int{10: 1, 20: 1}},   // nothing new
		4: {Invalid, map[int]int{10: 5}},        // +count
		5: {Invalid, map[int]int{10: 1}},        // nothing new
	}
	type step struct{ corpus, total, valid int }
	want := []step{{1, 2, 0}, {2, 2, 2}, {2, 2, 2}, {3, 3, 2}, {3, 3, 2}}
	for i, w := range want {
		seeds := [][]byte{}
		for b := 1; b <= i+1; b++ {
			seeds = append(seeds, []byte{byte(b)})
		}
		s := run(t, Config{Engine: "zest", Seed: 1, Runs: int64(i + 1), Seeds: seeds, Workdir: t.TempDir()}, ex)
		if got := (step{s.Corpus, s.TotalCov, s.ValidCov}); got != w {
			t.Errorf("after seed %d: corpus, total, valid = %v, want %v", i+1, got, w)
		}
	}
	// The +valid input is written to corpus/ too.
	dir := t.TempDir()
	run(t, Config{Engine: "zest", Seed: 1, Runs: 2, Seeds: [][]byte{{1}, {2}}, Workdir: dir}, ex)
	files := dirContents(t, filepath.Join(dir, workdir.CorpusDir))
	if len(files) != 2 || files[workdir.ContentName([]byte{2})] != string(workdir.EncodeInput([]byte{2})) {
		t.Errorf("corpus/ = %v, want the +cov and +valid inputs", files)
	}
}

// TestClassicFavoringAndChildren pins the rules of bytes (gfz's earlier
// zest):
// responsibility for every covered key, children relative to the largest
// single input, at least one child.
func TestClassicFavoringAndChildren(t *testing.T) {
	f := &fuzzer{}
	if err := f.setEngine("bytes"); err != nil {
		t.Fatal(err)
	}
	s := f.strat.(*classicTurns)
	enqueue := func(keys []uint32, edges int) *entry {
		e := f.enqueue(nil, &merged{keys: keys, edges: edges}, nil, false)
		for ; s.seen < len(f.queue); s.seen++ {
			s.maxCov = max(s.maxCov, f.queue[s.seen].edges)
		}
		return e
	}
	children := func(e *entry) int { return classicChildren(e, s.maxCov) }
	a := enqueue([]uint32{8, 16}, 2)
	if a.resp != 2 || children(a) != childrenBaseline*childrenFavoredMul {
		t.Fatalf("a: resp %d children %d", a.resp, children(a))
	}
	// b covers a superset: it becomes responsible for all of a's keys.
	b := enqueue([]uint32{8, 16, 24}, 3)
	if a.resp != 0 || b.resp != 3 {
		t.Fatalf("after b: a.resp %d b.resp %d", a.resp, b.resp)
	}
	if got, want := children(a), childrenBaseline*2/3; got != want {
		t.Errorf("unfavored a: %d children, want %d", got, want)
	}
	if got, want := children(b), childrenBaseline*childrenFavoredMul; got != want {
		t.Errorf("favored b: %d children, want %d", got, want)
	}
	// c takes one of b's keys and adds its own.
	c := enqueue([]uint32{24, 40}, 1)
	if b.resp != 2 || c.resp != 2 {
		t.Fatalf("after c: b.resp %d c.resp %d", b.resp, c.resp)
	}
	if got, want := children(c), childrenBaseline*1/3*childrenFavoredMul; got != want {
		t.Errorf("favored c: %d children, want %d", got, want)
	}
	// A parent with no edges still gets one child.
	z := enqueue(nil, 0)
	if children(z) != 1 {
		t.Errorf("empty parent: %d children, want 1", children(z))
	}
}

// foundAtRe matches the time line of a failure report, and the time its
// shrink took.
var foundAtRe = regexp.MustCompile(`(?m)^found at: .*$|executions in [^;]+;`)

// TestSameSeedSameCorpus: for every registered engine, the same seed gives
// the same corpus and failures (file names and contents), and another seed
// another corpus.
func TestSameSeedSameCorpus(t *testing.T) {
	for _, eng := range Engines() { // every registered engine, not a list to keep up to date
		if _, ok := engines[eng]; !ok {
			t.Fatalf("Engines() lists %q, which is not registered", eng)
		}
		var dirs []string
		for range 2 {
			dir := t.TempDir()
			run(t, Config{Engine: eng, Seed: 42, Runs: 20_000, Workdir: dir}, newMaze(mazeKey, mazeMod, mazeValid))
			dirs = append(dirs, dir)
		}
		for _, sub := range []string{workdir.CorpusDir, workdir.FailuresDir} {
			a := dirContents(t, filepath.Join(dirs[0], sub))
			b := dirContents(t, filepath.Join(dirs[1], sub))
			if !slices.Equal(sortedKeys(a), sortedKeys(b)) {
				t.Fatalf("%s: %s differs between runs: %v vs %v", eng, sub, sortedKeys(a), sortedKeys(b))
			}
			for k := range a {
				// Reports name the work directory in the repro command
				// and the time they were found.
				if foundAtRe.ReplaceAllString(strings.ReplaceAll(a[k], dirs[0], "DIR"), "") !=
					foundAtRe.ReplaceAllString(strings.ReplaceAll(b[k], dirs[1], "DIR"), "") {
					t.Fatalf("%s: %s/%s differs between runs", eng, sub, k)
				}
			}
			if sub == workdir.CorpusDir && len(a) < 2 {
				t.Fatalf("%s: only %d corpus files", eng, len(a))
			}
		}
		// A different seed explores differently.
		dir := t.TempDir()
		run(t, Config{Engine: eng, Seed: 43, Runs: 20_000, Workdir: dir}, newMaze(mazeKey, mazeMod, mazeValid))
		if slices.Equal(sortedKeys(dirContents(t, filepath.Join(dir, workdir.CorpusDir))), sortedKeys(dirContents(t, filepath.Join(dirs[0], workdir.CorpusDir)))) {
			t.Errorf("%s: seeds 42 and 43 gave the same corpus", eng)
		}
	}
}

func TestResume(t *testing.T) {
	dir := t.TempDir()
	ex := newMaze(mazeKey, mazeMod, mazeValid)
	first := run(t, Config{Engine: "zest", Seed: 3, Runs: 30_000, Workdir: dir}, ex)
	if first.NewFailures != 1 || first.Failures != 1 {
		t.Fatalf("first run: %+v, want the maze failure", first)
	}
	files := dirContents(t, filepath.Join(dir, workdir.CorpusDir))
	// Re-executing exactly the saved corpus rebuilds the same coverage.
	var status bytes.Buffer
	again := run(t, Config{Engine: "zest", Seed: 4, Runs: int64(len(files)), Workdir: dir, Status: &status}, ex)
	if again.TotalCov != first.TotalCov || again.ValidCov != first.ValidCov {
		t.Errorf("reloaded coverage %d/%d, want %d/%d", again.TotalCov, again.ValidCov, first.TotalCov, first.ValidCov)
	}
	if again.Corpus == 0 || again.Corpus > len(files) {
		t.Errorf("reloaded corpus %d from %d files", again.Corpus, len(files))
	}
	if !strings.Contains(status.String(), "resumed from") {
		t.Errorf("no resume message in %q", status.String())
	}
	if again.Partial {
		t.Errorf("a run that replayed its whole corpus is partial")
	}
	// A run that stops before its corpus is replayed says so.
	status.Reset()
	cut := run(t, Config{Engine: "zest", Seed: 4, Runs: int64(len(files) / 2), Workdir: dir, Status: &status}, ex)
	st, _, err := workdir.ReadStats(filepath.Join(dir, workdir.StatsFile))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := st.Int("partial"); !cut.Partial || !strings.Contains(status.String(), PartialText) || p != 1 {
		t.Errorf("a run of %d of %d corpus files: partial %v, stats partial %d, status:\n%s", len(files)/2, len(files), cut.Partial, p, status.String())
	}
	// A fresh run of as many executions as seeds has run all it had to:
	// the seeds it saved to the corpus are not a corpus left to replay.
	seeds := [][]byte{{1, 2, 3}, {4, 5, 6, 7}, {9}}
	if fresh := run(t, Config{Engine: "zest", Seed: 4, Runs: int64(len(seeds)), Workdir: t.TempDir(), Seeds: seeds}, ex); fresh.Partial {
		t.Errorf("a run of its %d seeds only is partial", len(seeds))
	}
	if cut := run(t, Config{Engine: "zest", Seed: 4, Runs: int64(len(seeds) - 1), Workdir: t.TempDir(), Seeds: seeds}, ex); !cut.Partial {
		t.Errorf("a run of %d of its %d seeds is not partial", len(seeds)-1, len(seeds))
	}
	// ... nor are they run again as corpus entries at start: a seed runs
	// once, and once more if it is rechecked for stability.
	counted := &paramsCounter{Executor: ex, n: map[string]int{}}
	run(t, Config{Engine: "zest", Seed: 4, Runs: 3 * int64(len(seeds)), Workdir: t.TempDir(), Seeds: seeds}, counted)
	// The maze reads two bytes: the first seed runs as [1 2], and it is the
	// one that adds coverage and is saved (measured: 3 runs before).
	if n := counted.n["\x01\x02"]; n > 2 {
		t.Errorf("the seed [1 2 3] ran %d times in a run of %d executions, want at most 2", n, 3*len(seeds))
	}
	// Fuzzing on finds the maze failure again, but it is known.
	more := run(t, Config{Engine: "zest", Seed: 5, Runs: 30_000, Workdir: dir}, ex)
	if more.NewFailures != 0 || more.Failures != 1 || len(more.FailureFiles) != 0 {
		t.Errorf("resumed run reported %d new failures (%d known)", more.NewFailures, more.Failures)
	}
	fails := dirContents(t, filepath.Join(dir, workdir.FailuresDir))
	if len(fails) != 3 {
		t.Errorf("failures/ holds %v, want one .input, its .txt and the .original it was shrunk from", sortedKeys(fails))
	}
}

func TestFailureFiles(t *testing.T) {
	dir := t.TempDir()
	s := run(t, Config{Engine: "zest", Target: "FuzzMaze", Seed: 3, Runs: 30_000, Workdir: dir, StopOnFailure: true}, newMaze(mazeKey, mazeMod, mazeValid))
	if len(s.FailureFiles) != 1 {
		t.Fatalf("FailureFiles = %v", s.FailureFiles)
	}
	in := s.FailureFiles[0]
	data, err := workdir.ReadInputFile(in)
	if err != nil {
		t.Fatal(err)
	}
	// Replaying the saved input (any extension seed) reproduces the failure.
	if out := newMaze(mazeKey, mazeMod, mazeValid).Exec(data, 12345); out.Result != Failure {
		t.Fatalf("replay of %s: %v", in, out.Result)
	}
	rep, err := os.ReadFile(strings.TrimSuffix(in, ".input") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`signature: "panic: maze solved\nmaze.go:42"`, "result: FAILURE", "kind: panic: maze solved",
		"you found it", "maze{...}", "maze.go:42", "-repro " + in + " FuzzMaze", "params (hex):"} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	if filepath.Base(in) != workdir.FailureName("panic: maze solved\nmaze.go:42")+".input" {
		t.Errorf("failure file %s not named by its signature", in)
	}
}

func TestCorruptFilesSkipped(t *testing.T) {
	dir := t.TempDir()
	ex := newMaze(mazeKey, mazeMod, mazeValid)
	run(t, Config{Engine: "zest", Seed: 3, Runs: 30_000, Workdir: dir}, ex)
	corpus := filepath.Join(dir, workdir.CorpusDir)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(corpus, "badheader"), []byte("not a corpus file\n"), 0o644))
	must(os.WriteFile(filepath.Join(corpus, "badquote"), []byte("go test fuzz v1\n[]byte(\"\\q\")\n"), 0o644))
	must(os.WriteFile(filepath.Join(corpus, ".stray.tmp123"), []byte("garbage"), 0o644))
	must(os.Mkdir(filepath.Join(corpus, "subdir"), 0o755))
	must(os.WriteFile(filepath.Join(dir, workdir.FailuresDir, "junk.txt"), []byte("no signature here\n"), 0o644))
	var status bytes.Buffer
	s, err := Run(context.Background(), Config{Engine: "zest", Seed: 4, Runs: 5_000, Workdir: dir, Status: &status}, ex)
	if err != nil {
		t.Fatalf("Run on a work directory with corrupt files: %v", err)
	}
	out := status.String()
	for _, want := range []string{"badheader", "badquote", "bad header", "bad string literal", "junk.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("status output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "stray") || strings.Contains(out, "subdir") {
		t.Errorf("temp file or directory reported:\n%s", out)
	}
	if s.Failures != 1 || s.NewFailures != 0 {
		t.Errorf("failures %d new %d, want 1 known, 0 new", s.Failures, s.NewFailures)
	}
}

func TestUnwritableWorkdir(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(blocker, "work")
	_, err := Run(context.Background(), Config{Engine: "zest", Runs: 10, Workdir: bad}, newMaze(mazeKey, mazeMod, mazeValid))
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("Run with work directory %s: %v, want an error naming it", bad, err)
	}
	if _, err := Run(context.Background(), Config{Engine: "zest", Runs: 10}, newMaze(mazeKey, mazeMod, mazeValid)); err == nil {
		t.Fatal("Run without a work directory succeeded")
	}
	if _, err := Run(context.Background(), Config{Engine: "afl", Workdir: t.TempDir()}, newMaze(mazeKey, mazeMod, mazeValid)); err == nil ||
		!strings.Contains(err.Error(), "afl") {
		t.Fatalf("unknown engine: %v", err)
	}
}

// hangExec hangs on its hangAt-th execution until released.
type hangExec struct {
	src     *param.Source
	n       int
	hangAt  int
	release chan struct{}
}

func (h *hangExec) Exec(params []byte, ext uint64) Outcome {
	h.src.Reset(params, ext)
	v := h.src.Uint(2, param.Value)
	hit(int(v % 8))
	h.n++
	if h.n == h.hangAt {
		<-h.release
	}
	return Outcome{Result: Valid, Consumed: h.src.Consumed()}
}

func TestTimeoutWatchdog(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	codes := []int{}
	old := exitProcess
	exitProcess = func(code int) {
		mu.Lock()
		codes = append(codes, code)
		mu.Unlock()
		close(release)
	}
	defer func() { exitProcess = old }()

	dir := t.TempDir()
	var status bytes.Buffer
	ex := &hangExec{src: param.New(nil, 0), hangAt: 500, release: release}
	s, err := Run(context.Background(), Config{Engine: "zest", Target: "FuzzHang", Seed: 1, Runs: 100_000, Timeout: 2 * time.Second, NoRecheck: true,
		Workdir: dir, Status: &status}, ex)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(codes, []int{1}) {
		t.Fatalf("exit codes %v, want [1]", codes)
	}
	if s.Execs != 500 || s.NewFailures != 1 {
		t.Errorf("summary %+v: want the run to end at the hung execution with one new failure", s)
	}
	in := filepath.Join(dir, workdir.FailuresDir, workdir.FailureName("timeout")+".input")
	data, err := workdir.ReadInputFile(in)
	if err != nil {
		t.Fatalf("timeout input: %v", err)
	}
	if len(data) != param.DefaultMaxSize {
		t.Errorf("timeout input holds %d bytes, want the extended %d", len(data), param.DefaultMaxSize)
	}
	rep, err := os.ReadFile(strings.TrimSuffix(in, ".input") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"result: TIMEOUT", "kind: timeout", "goroutine ", "hangExec", "-repro"} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("timeout report lacks %q", want)
		}
	}
	if !strings.Contains(status.String(), "TIMEOUT") || !strings.Contains(status.String(), "goroutine ") {
		t.Errorf("timeout report not printed:\n%.500s", status.String())
	}
	stats, _ := os.ReadFile(filepath.Join(dir, workdir.StatsFile))
	if !strings.Contains(string(stats), "state: timeout") || !strings.Contains(string(stats), "execs: 499") {
		t.Errorf("stats not written at the timeout:\n%s", stats)
	}
}

// invalidExec rejects every input and covers nothing.
type invalidExec struct{}

func (invalidExec) Exec(params []byte, ext uint64) Outcome { return Outcome{Result: Invalid} }

func TestAbortHint(t *testing.T) {
	var status bytes.Buffer
	run(t, Config{Engine: "zest", Seed: 1, Runs: 2*abortHintExecs + 10, Workdir: t.TempDir(), Status: &status}, invalidExec{})
	if n := strings.Count(status.String(), "likely all assumption violations"); n != 1 {
		t.Errorf("abort hint printed %d times, want 1:\n%s", n, status.String())
	}
}

// TestDefaultEngineNamed: a configuration that names no engine runs
// DefaultEngine, and the stats file names it (not an empty name, nor the
// default of an earlier version).
func TestDefaultEngineNamed(t *testing.T) {
	dir := t.TempDir()
	run(t, Config{Seed: 1, Runs: 100, Workdir: dir, Timeout: NoTimeout}, &trivialExec{src: param.New(nil, 0)})
	if got := statsOf(t, dir)["engine"]; got != DefaultEngine || got == "" {
		t.Errorf("stats engine %q, want %q", got, DefaultEngine)
	}
	// The default is a measured decision (docs/BENCHMARKS.md, "The
	// decision: random is the default"): changing it changes this line.
	if DefaultEngine != "random" {
		t.Errorf("DefaultEngine %q, want random", DefaultEngine)
	}
}

func TestStatsAndPlotData(t *testing.T) {
	dir := t.TempDir()
	var status bytes.Buffer
	s := run(t, Config{Engine: "zest", Seed: 1, Runs: 3000, Workdir: dir, Status: &status}, newMaze(mazeKey, mazeMod, mazeValid))
	stats, err := os.ReadFile(filepath.Join(dir, workdir.StatsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"engine: zest", "state: done", "execs: 3000", "seed: 1"} {
		if !strings.Contains(string(stats), want) {
			t.Errorf("stats lacks %q:\n%s", want, stats)
		}
	}
	plot, err := os.ReadFile(filepath.Join(dir, workdir.PlotFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(plot)), "\n")
	if lines[0]+"\n" != workdir.PlotHeader || len(lines) < 2 {
		t.Fatalf("plot_data:\n%s", plot)
	}
	if f := strings.Split(lines[len(lines)-1], ", "); len(f) != 14 || f[2] != "3000" {
		t.Errorf("last plot row %q", lines[len(lines)-1])
	}
	if !strings.Contains(status.String(), "gfz: done: ") || !strings.Contains(status.String(), "execs 3000") {
		t.Errorf("no final summary:\n%s", status.String())
	}
	if s.Valid+s.Invalid > s.Execs || s.Execs != 3000 {
		t.Errorf("summary counts %+v", s)
	}
	// A second run keeps the first run's plot rows.
	run(t, Config{Engine: "zest", Seed: 1, Runs: 10, Workdir: dir}, newMaze(mazeKey, mazeMod, mazeValid))
	plot2, _ := os.ReadFile(filepath.Join(dir, workdir.PlotFile))
	if !bytes.HasPrefix(plot2, plot) || len(plot2) <= len(plot) {
		t.Errorf("plot_data not extended on resume")
	}
}

// cancelAt cancels a context at its at-th execution.
type cancelAt struct {
	Executor
	n, at  int
	cancel func()
}

func (c *cancelAt) Exec(params []byte, ext uint64) Outcome {
	if c.n++; c.n == c.at {
		c.cancel()
	}
	return c.Executor.Exec(params, ext)
}

// TestContextCancel: a run whose context is already cancelled executes
// nothing; one cancelled while it runs (with no other limit) stops.
func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := Run(ctx, Config{Engine: "zest", Seed: 1, Workdir: t.TempDir(), Seeds: [][]byte{{1, 2, 3}}}, newMaze(mazeKey, mazeMod, mazeValid))
	if err != nil {
		t.Fatal(err)
	}
	if s.Execs != 0 {
		t.Errorf("a run started with a cancelled context made %d executions, want 0", s.Execs)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	done := make(chan *Summary, 1)
	go func() {
		s, err := Run(ctx, Config{Engine: "zest", Seed: 1, Workdir: t.TempDir()}, &cancelAt{Executor: newMaze(mazeKey, mazeMod, mazeValid), at: 1000, cancel: cancel})
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("a run cancelled at its execution 1000 was still going after 2 minutes")
	}
}

func TestSeedsAreUsed(t *testing.T) {
	// A seed that solves the maze fails on the first execution.
	seed := append([]byte{0}, mazeKey...)
	s := run(t, Config{Engine: "zest", Seed: 1, Runs: 100, Seeds: [][]byte{seed}, StopOnFailure: true, Workdir: t.TempDir()},
		newMaze(mazeKey, mazeMod, mazeValid))
	if s.Execs != 1 || s.NewFailures != 1 {
		t.Errorf("seeded run: %+v", s)
	}
}

// lineWatch is a status writer that counts lines containing want and
// calls reached once it has seen n of them.
type lineWatch struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	want    string
	n, seen int
	reached func()
}

func (w *lineWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.seen = strings.Count(w.buf.String(), w.want); w.seen >= w.n && w.reached != nil {
		w.reached()
		w.reached = nil
	}
	return len(p), nil
}

func (w *lineWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestTimeBudgetAndStatusLines checks the properties without timing
// thresholds: a run with a time budget ends by itself, and a run prints
// periodic status lines (the status writer cancels the run once it has
// seen two; a run without them would only end at its two-minute budget).
func TestTimeBudgetAndStatusLines(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	status := &lineWatch{want: "gfz: elapsed ", n: 2, reached: cancel}
	s, err := Run(ctx, Config{Engine: "zest", Seed: 1, Time: 2 * time.Minute, StatusInterval: 20 * time.Millisecond, Workdir: dir, Status: status},
		newMaze(mazeKey, mazeMod, mazeValid))
	if err != nil {
		t.Fatal(err)
	}
	out := status.String()
	if n := strings.Count(out, "gfz: elapsed "); n < 2 || s.Elapsed >= 2*time.Minute {
		t.Fatalf("%d periodic status lines in %v, want the run cancelled after 2:\n%s", n, s.Elapsed, out)
	}
	if !strings.Contains(out, "gfz: done: elapsed") || !strings.Contains(out, "/s), valid ") {
		t.Errorf("status output:\n%s", out)
	}
	plot, _ := os.ReadFile(filepath.Join(dir, workdir.PlotFile))
	if rows := strings.Count(string(plot), "\n") - 1; rows < 3 {
		t.Errorf("plot_data has %d rows, want one per status line plus the final one", rows)
	}

	// The time budget alone ends a run with no execution limit.
	done := make(chan *Summary, 1)
	go func() {
		s, err := Run(context.Background(), Config{Engine: "zest", Seed: 1, Time: 100 * time.Millisecond, Workdir: t.TempDir()},
			newMaze(mazeKey, mazeMod, mazeValid))
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	select {
	case s := <-done:
		if s != nil && (s.Execs == 0 || s.Elapsed < 100*time.Millisecond) {
			t.Errorf("time-budgeted run: %d execs in %v, want executions until the 100ms budget", s.Execs, s.Elapsed)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("a run with a 100ms time budget was still going after 2 minutes")
	}
}

// describing fails on inputs starting with 1 (signature "sig-"+second
// byte) and describes them; it counts the Exec and DescribeValues calls.
type describing struct{ execs, describes int }

func (d *describing) Exec(params []byte, ext uint64) Outcome {
	d.execs++
	if len(params) < 2 || params[0] != 1 {
		return Outcome{Result: Valid, Consumed: params}
	}
	return Outcome{Result: Failure, Consumed: params[:2], Failure: &FailureInfo{
		Kind: "t.Fatal", Message: "boom", Signature: fmt.Sprintf("sig-%d", params[1]), Value: "modified",
	}}
}

func (d *describing) DescribeValues(params []byte, ext uint64, sig string) (string, bool) {
	d.describes++
	return "as drawn " + sig, true
}

// The engine asks a ValueDescriber once per new unique failure, and the
// report carries its description.
func TestValueDescriber(t *testing.T) {
	d := &describing{}
	wd := t.TempDir()
	seeds := [][]byte{{1, 7}, {1, 7}, {1, 7}, {1, 8}, {0, 0}}
	s := run(t, Config{Engine: "zest", Seed: 1, Runs: int64(len(seeds)), Seeds: seeds, Workdir: wd}, d)
	if s.NewFailures != 2 || d.describes != 2 {
		t.Fatalf("%d new failures, %d DescribeValues calls; want 2 and 2", s.NewFailures, d.describes)
	}
	for _, p := range s.FailureFiles {
		rep, err := os.ReadFile(strings.TrimSuffix(p, ".input") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(rep), "as drawn sig-") || strings.Contains(string(rep), "modified") {
			t.Errorf("report %s does not show the described values:\n%s", p, rep)
		}
	}
}

// silentFail fails every input without a message (a native t.Fail()).
type silentFail struct{}

func (silentFail) Exec(params []byte, ext uint64) Outcome {
	return Outcome{Result: Failure, Consumed: params, Failure: &FailureInfo{Kind: "t.Error", Signature: "silent"}}
}

// TestFailureWithoutMessage: a failure that logged nothing is announced
// as such, not with an empty message after the colon.
func TestFailureWithoutMessage(t *testing.T) {
	var out strings.Builder
	run(t, Config{Engine: "zest", Seed: 1, Runs: 3, Workdir: t.TempDir(), Status: &out, ShrinkRuns: -1}, silentFail{})
	if !strings.Contains(out.String(), "gfz: new failure (t.Error): (no message: ") {
		t.Errorf("output:\n%s", out.String())
	}
}

// paramsCounter counts the executions of each consumed parameter sequence.
type paramsCounter struct {
	Executor
	n map[string]int
}

func (c *paramsCounter) Exec(params []byte, ext uint64) Outcome {
	out := c.Executor.Exec(params, ext)
	c.n[string(out.Consumed)]++
	return out
}

// messageFlood fails every input at the same frames with a message made
// of its first byte (as panic("bad token " + s) does): a distinct
// signature per byte value, which NormalizeMessage cannot make equal.
type messageFlood struct{}

func (messageFlood) Exec(params []byte, ext uint64) Outcome {
	src := param.New(params, ext)
	b := byte(src.Uint(1, param.Value))
	msg := fmt.Sprintf("bad token %c", 'a'+b%26)
	return Outcome{Result: Failure, Consumed: src.Consumed(), Failure: &FailureInfo{
		Kind: "panic", Message: msg, Signature: "panic: " + msg + "\nexample.com/p.parse p.go:12\nexample.com/p.FuzzP.func1 p_test.go:9\n"}}
}

// TestMessageFloodCapped: failures at the same frames with messages that
// vary with the input are saved up to signature.MaxMessagesPerFrames (a
// target panicking with the input in its message made thousands), and
// the cap is said once.
func TestMessageFloodCapped(t *testing.T) {
	var status bytes.Buffer
	s := run(t, Config{Engine: "zest", Seed: 3, Runs: 2000, Workdir: t.TempDir(), Timeout: NoTimeout, ShrinkRuns: NoShrink, Status: &status}, messageFlood{})
	if s.NewFailures != signature.MaxMessagesPerFrames {
		t.Errorf("%d new failures at one place, want %d", s.NewFailures, signature.MaxMessagesPerFrames)
	}
	if n := strings.Count(status.String(), "with different messages (the message varies with the input)"); n != 1 {
		t.Errorf("the cap is said %d times, want once:\n%s", n, status.String())
	}
}

// extRecorder is trivialExec recording the extension seed of every
// execution.
type extRecorder struct {
	trivialExec
	exts []uint64
}

func (e *extRecorder) Exec(params []byte, ext uint64) Outcome {
	e.exts = append(e.exts, ext)
	return e.trivialExec.Exec(params, ext)
}

// TestResumeDrawsAnew: a run resuming a work directory with the same seed
// does not draw the extension seeds its predecessor drew (under random,
// the same inputs again): past the replay of the corpus, none of the
// second run's extension seeds is one of the first run's; a fresh run
// with that seed draws the first run's again (the salt needs a corpus).
func TestResumeDrawsAnew(t *testing.T) {
	dir := t.TempDir()
	first := &extRecorder{trivialExec: trivialExec{src: param.New(nil, 0)}}
	s := run(t, Config{Engine: "random", Seed: 1, Runs: 200, Workdir: dir, Timeout: NoTimeout, NoRecheck: true}, first)
	if s.Corpus == 0 {
		t.Fatal("the first run saved nothing: nothing to resume")
	}
	seen := map[uint64]bool{}
	for _, e := range first.exts {
		seen[e] = true
	}
	second := &extRecorder{trivialExec: trivialExec{src: param.New(nil, 0)}}
	run(t, Config{Engine: "random", Seed: 1, Runs: 200, Workdir: dir, Timeout: NoTimeout, NoRecheck: true}, second)
	gen := second.exts[s.Corpus:] // past the replay
	if len(gen) == 0 {
		t.Fatalf("the second run drew nothing past its replay of %d inputs", s.Corpus)
	}
	for i, e := range gen {
		if seen[e] {
			t.Fatalf("the resumed run's execution %d drew extension seed %#x, as the first run did", int(s.Corpus)+i, e)
		}
	}
	fresh := &extRecorder{trivialExec: trivialExec{src: param.New(nil, 0)}}
	run(t, Config{Engine: "random", Seed: 1, Runs: 200, Workdir: t.TempDir(), Timeout: NoTimeout, NoRecheck: true}, fresh)
	if !slices.Equal(fresh.exts, first.exts) {
		t.Error("a fresh run with the same seed drew other extension seeds: runs are not reproducible")
	}
}
