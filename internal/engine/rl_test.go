package engine

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// bstGen is the thesis's Figure 7.1 generator: a binary tree of depth at
// most 4 with values 0-10, drawn value, has-left?, left, has-right?,
// right (each draw in a span of its own, as gfz's generators make them);
// the input is valid iff the tree is a binary search tree. It counts the
// valid trees and the distinct ones.
type bstGen struct {
	valid   int
	uniq    map[string]bool
	ordered bool // valid iff a BST (else every tree is valid)
}

func newBSTGen() *bstGen { return &bstGen{uniq: map[string]bool{}, ordered: true} }

var bstIntType, bstBoolType = reflect.TypeFor[int](), reflect.TypeFor[bool]()

func (g *bstGen) node(s *param.Source, depth int, sb *strings.Builder, lo, hi int) bool {
	s.BeginCall("int", 1, 1, bstIntType)
	v := int(s.Uintn(11, param.Value))
	s.End()
	ok := v > lo && v < hi
	fmt.Fprintf(sb, "(%d", v)
	s.BeginCall("bool", 2, 2, bstBoolType)
	left := s.Uintn(2, param.Value) == 1 && depth < 4
	s.End()
	if left {
		ok = g.node(s, depth+1, sb, lo, v) && ok
	} else {
		sb.WriteByte('.')
	}
	s.BeginCall("bool", 2, 3, bstBoolType)
	right := s.Uintn(2, param.Value) == 1 && depth < 4
	s.End()
	if right {
		ok = g.node(s, depth+1, sb, v, hi) && ok
	} else {
		sb.WriteByte('.')
	}
	sb.WriteByte(')')
	return ok
}

func (g *bstGen) run(s *param.Source) Outcome {
	var sb strings.Builder
	ok := g.node(s, 0, &sb, -1, 11)
	hit(len(sb.String()) % 64)
	if g.ordered && !ok {
		return Outcome{Result: Invalid}
	}
	g.valid++
	g.uniq[sb.String()] = true
	return Outcome{Result: Valid}
}

func runBST(t *testing.T, engine string, seed int64, runs int64) (*bstGen, *Summary, string) {
	t.Helper()
	g := newBSTGen()
	dir := t.TempDir()
	sum := run(t, Config{Engine: engine, Seed: seed, Runs: runs, Workdir: dir, NoRecheck: true}, newSrcExec(g.run))
	return g, sum, dir
}

// TestRLUniqueValidBST: on the thesis's BST generator, RLCheck makes many
// more valid and unique valid trees than random generation with the same
// executions (the thesis: about 10 times with its Tree abstraction).
func TestRLUniqueValidBST(t *testing.T) {
	const runs = 20000
	rl, _, _ := runBST(t, "rl", 1, runs)
	rnd, _, _ := runBST(t, "random", 1, runs)
	t.Logf("valid: rl %d, random %d; unique valid: rl %d, random %d", rl.valid, rnd.valid, len(rl.uniq), len(rnd.uniq))
	if len(rl.uniq) < 3*len(rnd.uniq) || 2*rl.valid < 3*rnd.valid {
		t.Errorf("rl made %d valid (%d unique), random %d (%d unique): want at least 3 times as many unique and 1.5 times as many valid",
			rl.valid, len(rl.uniq), rnd.valid, len(rnd.uniq))
	}
}

// TestRLDeterministic: the same seed gives the same corpus; the unique
// valid inputs saved are bounded by rlCorpusCap and each replays to a
// distinct valid tree.
func TestRLDeterministic(t *testing.T) {
	const runs = 3000
	_, s1, d1 := runBST(t, "rl", 7, runs)
	_, s2, d2 := runBST(t, "rl", 7, runs)
	c1, c2 := dirContents(t, filepath.Join(d1, "corpus")), dirContents(t, filepath.Join(d2, "corpus"))
	if !reflect.DeepEqual(c1, c2) || s1.Valid != s2.Valid {
		t.Fatalf("same seed, different runs: %d and %d corpus files, %d and %d valid", len(c1), len(c2), s1.Valid, s2.Valid)
	}
	if len(c1) == 0 || len(c1) > rlCorpusCap+s1.TotalCov {
		t.Fatalf("%d corpus files, want 1 to %d", len(c1), rlCorpusCap+s1.TotalCov)
	}
	// Every saved input replays as an ordinary execution.
	g := newBSTGen()
	ex := newSrcExec(g.run)
	files, _ := filepath.Glob(filepath.Join(d1, "corpus", "*"))
	for _, f := range files {
		data, err := workdir.ReadInputFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ex.Exec(data, 0)
	}
	if len(g.uniq) < len(files)/2 {
		t.Errorf("%d corpus files replay to %d distinct valid trees", len(files), len(g.uniq))
	}
}

// TestRLChoosesInDomain: every value the learners choose is in its
// draw's domain and written as itself, so the consumed bytes decode to
// the chosen values; domains above rlMaxActions get random bytes.
func TestRLChoosesInDomain(t *testing.T) {
	s := newRLTurns(loopView{&fuzzer{r: newPRNG(3)}})
	for _, n := range []uint64{2, 11, 200, 256} {
		w := param.BytesFor(n)
		d := &param.Draw{Width: int32(w), N: n, Site: 99}
		for i := 0; i < 200; i++ {
			dst := make([]byte, w)
			if !s.pick(d, nil, dst) {
				t.Fatalf("N=%d: no choice", n)
			}
			v := uint64(0)
			for k := w - 1; k >= 0; k-- {
				v = v<<8 | uint64(dst[k])
			}
			if v >= n {
				t.Fatalf("N=%d: chose %d", n, v)
			}
		}
	}
	for _, d := range []*param.Draw{{Width: 2, N: 1000}, {Width: 8}, {Width: 0, N: 1}} {
		if s.pick(d, nil, make([]byte, d.Width)) {
			t.Errorf("draw %+v: a learner chose, want random bytes", d)
		}
	}
}

// TestRLMonteCarloUpdate pins Algorithm 8: Q[s,c] is the running average
// of the rewards of the episodes that chose c in s, and the greedy
// choice (probability 1-ε) is the argmax.
func TestRLMonteCarloUpdate(t *testing.T) {
	s := newRLTurns(loopView{&fuzzer{r: newPRNG(5)}})
	row := &rlRow{q: make([]float64, 3), cnt: make([]uint32, 3)}
	for _, r := range []float64{20, -1, 0} {
		s.episode = append(s.episode, rlStep{row: row, a: 1}, rlStep{row: row, a: 2})
		s.update(r)
	}
	if want := (20.0 - 1 + 0) / 3; math.Abs(row.q[1]-want) > 1e-12 || row.cnt[1] != 3 || row.q[2] != row.q[1] || row.q[0] != 0 {
		t.Fatalf("Q = %v, counts %v; want Q[1] = Q[2] = %v, Q[0] = 0", row.q, row.cnt, want)
	}
	// Greedy picks in a learned state: about 1-ε+ε/3 of them are the argmax.
	d := &param.Draw{Width: 1, N: 3, Site: 1}
	l := &rlLearner{n: 3, rows: map[uint64]*rlRow{s.win.state(): {q: []float64{0, 5, -1}, cnt: []uint32{1, 1, 1}}}}
	s.learners[param.Mix(1, 3)] = l
	best := 0
	const n = 10000
	for i := 0; i < n; i++ {
		s.win = rlWin{}
		b := []byte{0}
		s.pick(d, nil, b)
		if b[0] == 1 {
			best++
		}
	}
	if want := (1 - rlEpsilon + rlEpsilon/3) * n; math.Abs(float64(best)-want) > 0.03*n {
		t.Fatalf("argmax chosen %d times in %d, want about %.0f", best, n, want)
	}
	if len(s.episode) != n {
		t.Fatalf("episode has %d steps, want %d", len(s.episode), n)
	}
}

// TestRLWindow: the state is the last rlWindow choices.
func TestRLWindow(t *testing.T) {
	var a, b rlWin
	for i := uint64(0); i < 9; i++ {
		a.push(i)
	}
	for i := uint64(100); i < 104; i++ {
		b.push(i)
	}
	for i := uint64(4); i < 9; i++ {
		b.push(i) // pushes 100-103 out
	}
	if a.state() != b.state() || a.n != rlWindow {
		t.Fatalf("windows %v and %v differ", a, b)
	}
	var c rlWin
	c.push(1)
	var d rlWin
	d.push(2)
	if c.state() == d.state() {
		t.Fatal("different windows, same state")
	}
}

// TestRLRecheckInvalid: an input kept as unique and valid whose stability
// recheck is invalid is not saved (a target valid on every other
// execution: each input is valid when first run and invalid when
// rechecked), and gives its place under rlCorpusCap back: after more such
// inputs than the cap, a unique valid input that stays valid is kept.
func TestRLRecheckInvalid(t *testing.T) {
	calls := 0
	flaky := func(s *param.Source) Outcome {
		s.Uintn(1000, param.Value)
		if calls++; calls%2 == 0 {
			return Outcome{Result: Invalid}
		}
		return Outcome{Result: Valid}
	}
	dir := t.TempDir()
	run(t, Config{Engine: "rl", Seed: 1, Runs: 400, Workdir: dir}, newSrcExec(flaky))
	if c := dirContents(t, filepath.Join(dir, "corpus")); len(c) != 0 {
		t.Errorf("%d corpus files saved, want none: every input's recheck was invalid", len(c))
	}

	f := &fuzzer{r: newPRNG(1)}
	env := loopView{f}
	fb := newRLFeedback(env, newRLTurns(env))
	rec := &param.Record{Draws: []param.Draw{{Offset: 0, Width: 2, N: 1 << 16, Site: 7}}}
	for i := range rlCorpusCap + 10 {
		f.execs = int64(i)
		f.handled = Outcome{Result: Valid, Record: rec, Consumed: []byte{byte(i), byte(i >> 8)}}
		if !fb.keep(0, true) {
			t.Fatalf("input %d: a new unique valid input not kept", i)
		}
		f.handled.Result = Invalid // its recheck
		if fb.keep(0, false) {
			t.Fatalf("input %d: kept although its recheck was invalid", i)
		}
	}
	if fb.saved != 0 {
		t.Errorf("%d places under the cap taken by inputs not saved", fb.saved)
	}
}
