package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// newTestFuzzer is a fuzzer set up as Run sets it up (no watchdog, no
// status output), with engine eng, executor ex and a budget of runs
// executions.
func newTestFuzzer(t *testing.T, eng string, ex Executor, runs int64) *fuzzer {
	t.Helper()
	f := &fuzzer{cfg: Config{Engine: "zest", Seed: 1, Runs: runs, NoRecheck: true}, ex: ex, r: newPRNG(1),
		known: map[string]string{}, max: param.DefaultMaxSize, wdDone: make(chan struct{})}
	f.recorder, _ = ex.(Recorder)
	f.gex, _ = ex.(GuidedExecutor)
	if err := f.setEngine(eng); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.wd, err = workdir.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.wd.SyncCorpus() }) // ends the background syncer, as Run does
	return f
}

// feed executes the one-byte input b (chosen for a scripted executor) and
// handles it; it returns the queued entry, if any.
func (f *fuzzer) feed(b byte) *entry { return f.handle(f.exec([]byte{b}), false) }

// TestZestValidNeedsNewValidEdge: +valid needs an edge no valid execution
// covered; a new hit-count class of an edge valid executions already
// covered is not enough (bytes, with gfz's earlier rules, saves it).
func TestZestValidNeedsNewValidEdge(t *testing.T) {
	ex := scripted{
		1: {Invalid, map[int]int{10: 5}}, // +cov
		2: {Valid, map[int]int{10: 1}},   // +valid: edge 10 is new to valid coverage (class 1 is also new: +count)
		3: {Valid, map[int]int{10: 5}},   // class 4-7 of edge 10: in total (seed 1), new in valid only
		4: {Valid, map[int]int{10: 3}},
		5: {Valid, map[int]int{10: 2}},
	}
	for _, c := range []struct {
		engine string
		corpus int
	}{{"zest", 2}, {"bytes", 3}} {
		s := run(t, Config{Engine: c.engine, Seed: 1, Runs: 3, Seeds: [][]byte{{1}, {2}, {3}}, Workdir: t.TempDir()}, ex)
		if s.Corpus != c.corpus {
			t.Errorf("%s: corpus %d, want %d", c.engine, s.Corpus, c.corpus)
		}
		// Valid coverage holds the classes of every valid execution,
		// saved or not.
		if s.ValidCov != 2 || s.TotalCov != 2 {
			t.Errorf("%s: total %d valid %d keys, want 2 and 2", c.engine, s.TotalCov, s.ValidCov)
		}
	}
	// Counts 3 then 2: two classes with AFL's table, one (highest bit 2)
	// with JQF's, so zest does not save the second.
	s := run(t, Config{Engine: "zest", Seed: 1, Runs: 3, Seeds: [][]byte{{1}, {4}, {5}}, Workdir: t.TempDir()}, ex)
	if s.Corpus != 2 {
		t.Errorf("zest: count 3 after count 2: corpus %d, want 2 (same highest bit)", s.Corpus)
	}
}

// TestZestResponsibility: an input is responsible for the edges it newly
// covers (in total, or, valid, in valid coverage), so one saved only for
// +count is not favored; a valid input takes its new valid edges from
// invalid inputs. Every covered edge has exactly one responsible input.
func TestZestResponsibility(t *testing.T) {
	ex := scripted{
		1: {Invalid, map[int]int{10: 1, 20: 1}}, // +cov: edges 10, 20
		2: {Invalid, map[int]int{10: 9, 20: 1}}, // +count only
		3: {Valid, map[int]int{10: 1}},          // +valid: edge 10 new to valid
		4: {Invalid, map[int]int{30: 1, 10: 1}}, // +cov: edge 30
	}
	f := newTestFuzzer(t, "zest", ex, 100)
	a := f.feed(1)
	if a == nil || a.resp != 2 {
		t.Fatalf("+cov input: %+v, want saved, responsible for 2 edges", a)
	}
	b := f.feed(2)
	if b == nil {
		t.Fatal("+count input not saved")
	}
	if b.resp != 0 || a.resp != 2 {
		t.Errorf("after a +count input: its resp %d (want 0, not favored), first input's %d (want 2)", b.resp, a.resp)
	}
	if got, want := zestChildren(b, f.cov.edges), childrenBaseline; got != want {
		t.Errorf("+count input: %d children, want %d (unfavored)", got, want)
	}
	c := f.feed(3)
	if c == nil || c.resp != 1 || a.resp != 1 {
		t.Fatalf("valid input: saved %v, resp %d, first input's %d; want saved, 1 and 1", c != nil, c.resp, a.resp)
	}
	d := f.feed(4)
	if d == nil || d.resp != 1 || a.resp != 1 || c.resp != 1 {
		t.Errorf("new edge 30: resp %d, others %d %d; want 1 1 1", d.resp, a.resp, c.resp)
	}
	sum := 0
	for _, e := range f.queue {
		sum += e.resp
	}
	if sum != f.cov.edges {
		t.Errorf("responsibilities %d, covered edges %d: want one owner per edge", sum, f.cov.edges)
	}
}

// edgesExec covers a range of edges chosen by the first input byte.
type edgesExec map[byte]struct {
	res      Result
	from, to int
}

func (x edgesExec) Exec(params []byte, ext uint64) Outcome {
	st := x[params[0]]
	for e := st.from; e < st.to; e++ {
		gfzrt.Map[e] = 1
	}
	return Outcome{Result: st.res, Consumed: params[:1]}
}

// TestZestChildren: children per turn are 50 * edges(parent) / edges of
// the total coverage, times 20 if favored, counted before every child; a
// parent whose target is 0 gets one child and the turn moves on.
func TestZestChildren(t *testing.T) {
	ex := edgesExec{
		1: {Invalid, 0, 100},   // p: 100 edges
		2: {Invalid, 100, 220}, // q: 120 edges, favored
		3: {Invalid, 220, 300}, // 80 edges
		4: {Valid, 0, 100},     // takes p's 100 edges (new valid edges)
	}
	f := newTestFuzzer(t, "zest", ex, 100)
	for b := byte(1); b <= 4; b++ {
		if f.feed(b) == nil {
			t.Fatalf("input %d not saved", b)
		}
	}
	small := f.enqueue([]byte{5}, &merged{edges: 2}, nil, false) // 50*2/300 = 0 children
	p, q := f.queue[0], f.queue[1]
	if f.cov.edges != 300 || p.resp != 0 || q.resp != 120 || small.resp != 0 {
		t.Fatalf("edges %d, resp p %d q %d small %d; want 300, 0, 120, 0", f.cov.edges, p.resp, q.resp, small.resp)
	}
	// Turn lengths, from the start of the queue.
	s := f.strat.(*zestTurns)
	turns := []int{}
	last, n := 0, 0
	for range 2 * (16 + 400 + 13*20 + 50*100/300*20 + 1) {
		s.next(nil)
		if s.qi != last {
			turns = append(turns, n)
			last, n = s.qi, 0
		}
		n++
	}
	want := []int{16, 400, 13 * 20, 16 * 20, 1} // p, q, the 80-edge input, the valid one, small
	if len(turns) < len(want) {
		t.Fatalf("turns %v, want %v first", turns, want)
	}
	for i, w := range want {
		if turns[i] != w {
			t.Errorf("turn lengths %v, want %v first (turn %d)", turns[:len(want)], want, i)
			break
		}
	}
	// The target is evaluated before every child: when a save takes the
	// current parent's last responsibility, its turn ends at the 16
	// children of an unfavored parent.
	for s.qi != 1 {
		s.next(nil)
	}
	for range 19 {
		s.next(nil)
	}
	f.fb.credit(f.queue, len(f.queue)-1, &merged{fresh: seq(100, 220)}) // small takes q's edges
	if q.resp != 0 || s.qi != 1 || s.made != 20 {
		t.Fatalf("q.resp %d, parent %d, made %d; want 0, 1, 20", q.resp, s.qi, s.made)
	}
	if s.next(nil); s.qi != 2 {
		t.Errorf("after losing its responsibilities with 20 children made, parent q still fuzzed (target %d)", zestChildren(q, f.cov.edges))
	}
	if got := zestChildren(&entry{edges: 100}, 300); got != 16 {
		t.Errorf("100 of 300 edges, unfavored: %d children, want 16", got)
	}
	if got := zestChildren(&entry{edges: 100, resp: 1}, 300); got != 320 {
		t.Errorf("100 of 300 edges, favored: %d children, want 320", got)
	}
	if got := zestChildren(&entry{}, 0); got != 50 {
		t.Errorf("nothing covered: %d children, want 50", got)
	}
}

func seq(from, to uint32) []uint32 {
	var s []uint32
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// TestZestMutationDistribution pins Zest's mutation (mutateZest) by its
// observable effect: with probability 0.1 a child's mutations write zeros;
// a child gets Geometric(mean 8) mutations, each a run of Geometric(mean
// 4) bytes. Zero-written runs on a long 0xAA parent are exact (they
// rarely touch), so they show both counts. Bands are about 4 standard
// errors wide.
func TestZestMutationDistribution(t *testing.T) {
	r := newPRNG(11)
	parent := bytes.Repeat([]byte{0xAA}, 16<<10)
	var child []byte
	const n = 40_000
	zeroChildren, runs, runBytes := 0, 0, 0
	for range n {
		child = mutateZest(r, child, parent)
		zeros, diff := 0, 0
		k := 0
		for i, b := range child {
			if b == 0xAA {
				continue
			}
			diff++
			if b == 0 {
				zeros++
			}
			if i == 0 || child[i-1] == 0xAA {
				k++
			}
		}
		if diff == 0 || zeros != diff {
			continue
		}
		zeroChildren++
		runs += k
		runBytes += diff
	}
	if zeroChildren < 3760 || zeroChildren > 4240 {
		t.Errorf("%d of %d children zero-filled, want about %d (probability 0.1)", zeroChildren, n, n/10)
	}
	if zeroChildren == 0 {
		return
	}
	if m := float64(runs) / float64(zeroChildren); m < 7.55 || m > 8.45 {
		t.Errorf("mean mutations per child %.3f, want 8", m)
	}
	if m := float64(runBytes) / float64(runs); m < 3.85 || m > 4.15 {
		t.Errorf("mean bytes per mutation %.3f, want 4", m)
	}
}

// loopExec is valid iff its first byte is below 64; valid or not, it then
// counts the bytes before the first zero (at most 200), on one edge: hit
// counts of that edge take many classes, found by invalid executions
// first (3 in 4 are invalid).
type loopExec struct{ src *param.Source }

func (l *loopExec) Exec(params []byte, ext uint64) Outcome {
	s := l.src
	s.Reset(params, ext)
	valid := s.Uint(1, param.Value) < 64
	hit(1)
	for range 200 {
		if s.Uint(1, param.Value) == 0 {
			break
		}
		hit(7)
	}
	res := Invalid
	if valid {
		res = Valid
	}
	return Outcome{Result: res, Consumed: s.Consumed()}
}

var savedValidRe = regexp.MustCompile(`(?m)^saved_valid: (\d+)$`)

// TestZestValidSavesOnLoop: on a target whose hit-count classes appear in
// valid and invalid executions alike, every +valid save of zest adds a
// valid edge (at most 2 here), while bytes (gfz's earlier rules) saves valid inputs for
// classes invalid inputs already showed. Responsibility stays one owner
// per covered edge.
func TestZestValidSavesOnLoop(t *testing.T) {
	savedValid := map[string]int{}
	for _, eng := range []string{"zest", "bytes"} {
		dir := t.TempDir()
		run(t, Config{Engine: eng, Seed: 3, Runs: 20_000, Workdir: dir}, &loopExec{src: param.New(nil, 0)})
		stats, err := os.ReadFile(filepath.Join(dir, workdir.StatsFile))
		if err != nil {
			t.Fatal(err)
		}
		m := savedValidRe.FindSubmatch(stats)
		if m == nil {
			t.Fatalf("%s: no saved_valid in stats:\n%s", eng, stats)
		}
		savedValid[eng], _ = strconv.Atoi(string(m[1]))
	}
	if savedValid["zest"] > 2 {
		t.Errorf("zest saved %d inputs for +valid, want at most 2 (one per edge)", savedValid["zest"])
	}
	if savedValid["bytes"] <= 2 {
		t.Errorf("bytes saved %d inputs for +valid: the target does not show the rule", savedValid["bytes"])
	}
	t.Logf("+valid saves: %v", savedValid)

	f := newTestFuzzer(t, "zest", &loopExec{src: param.New(nil, 0)}, 20_000)
	f.init()
	f.loop()
	sum := 0
	for _, e := range f.queue {
		sum += e.resp
	}
	if sum != f.cov.edges || f.cov.edges != 2 {
		t.Errorf("responsibilities %d for %d covered edges, want 2 and 2", sum, f.cov.edges)
	}
}

// validMaze is the maze of engine_test.go with its key edges lit only by
// valid executions: invalid ones stop after the header.
type validMaze struct{ mazeExec }

func (m *validMaze) Exec(params []byte, ext uint64) Outcome {
	m.src.Reset(params, ext)
	out := m.runValid(m.src)
	if m.src.Recording() {
		out.Record = m.src.Record()
	}
	return out
}

func (m *validMaze) ExecGuided(g param.Guide, ext uint64) Outcome {
	return guidedOn(m.src, g, ext, m.runValid)
}

func (m *validMaze) runValid(s *param.Source) Outcome {
	if byte(s.Uint(1, param.Value)) >= m.validBelow {
		hit(2)
		return Outcome{Consumed: s.Consumed(), Result: Invalid}
	}
	hit(1)
	for i, k := range m.key {
		if byte(s.Uint(1, param.Value))%m.mod != k%m.mod {
			hit(1000 + i)
			return Outcome{Consumed: s.Consumed(), Result: Valid}
		}
		hit(100 + i)
	}
	return Outcome{Consumed: s.Consumed(), Result: Failure, Failure: &FailureInfo{Kind: "panic: maze solved",
		Signature: "panic: maze solved\nmaze.go:42"}}
}

// TestZestOnValidOnlyMaze: on a maze whose progress only valid executions
// show, zest finds the failure within 30,000 executions on at least 9 of
// 10 seeds.
func TestZestOnValidOnlyMaze(t *testing.T) {
	var xs []int64
	found := 0
	for seed := int64(1); seed <= 10; seed++ {
		s := run(t, Config{Engine: "zest", Seed: seed, Runs: 30_000, StopOnFailure: true, Workdir: t.TempDir()},
			&validMaze{*newMaze(mazeKey, mazeMod, mazeValid)})
		if s.NewFailures > 0 {
			found++
			xs = append(xs, s.Execs)
		} else {
			xs = append(xs, -1)
		}
	}
	t.Logf("zest on the valid-only maze: found %d/10, execs %v, median %d", found, xs, median(xs))
	if found < 9 {
		t.Errorf("zest found the valid-only maze failure on %d/10 seeds, want >= 9", found)
	}
}
