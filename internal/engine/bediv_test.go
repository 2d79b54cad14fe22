package engine

import (
	"math"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// TestBeDivChoice pins the adaptive choice of the mutation type (the
// BeDivFuzz paper's Algorithm 2, epsilon = 0.2): the type with the higher
// reward U/N is chosen with probability 0.8 + 0.2/2 = 0.9; equal rewards
// (including no child of either type yet) choose at random.
func TestBeDivChoice(t *testing.T) {
	f := newTestFuzzer(t, "bediv", newSrcExec(bedivSrc), 0)
	s := f.strat.(*bedivTurns)
	const draws = 100_000
	share := func(n, u [2]int64) float64 {
		s.n, s.u = n, u
		k := 0
		for range draws {
			if s.choose() == mutStructure {
				k++
			}
		}
		return float64(k) / draws
	}
	cases := []struct {
		name string
		n, u [2]int64
		want float64 // share of structure-changing children
	}{
		{"structure rewarded", [2]int64{100, 100}, [2]int64{50, 10}, 0.9},
		{"value rewarded", [2]int64{100, 1000}, [2]int64{5, 100}, 0.1},
		{"structure rewarded, no value child yet", [2]int64{10, 0}, [2]int64{1, 0}, 0.9},
		{"equal rewards", [2]int64{100, 200}, [2]int64{10, 20}, 0.5},
		{"no child yet", [2]int64{0, 0}, [2]int64{0, 0}, 0.5},
	}
	for _, c := range cases {
		// The standard deviation of a share over 100,000 draws is at most
		// 0.0016: 0.015 is over 9 of them.
		if got := share(c.n, c.u); math.Abs(got-c.want) > 0.015 {
			t.Errorf("%s (N %v, U %v): structure-changing share %.3f, want %.2f", c.name, c.n, c.u, got, c.want)
		}
	}
}

// bedivSrc is a target with one declared structural choice (3 values)
// and one value (100 values, invalid from 90): each value of either
// lights its own edge.
func bedivSrc(s *param.Source) Outcome {
	st := s.Uintn(3, param.Structure)
	v := s.Uintn(100, param.Value)
	hit(10 + int(st))
	hit(100 + int(v))
	if v >= 90 {
		return Outcome{Result: Invalid}
	}
	return Outcome{Result: Valid}
}

// TestBeDivSaveRule pins BeDivFuzz-structure's saving rule on top of
// Zest's: a valid input with new coverage is queued only if its structural
// signature is new; invalid inputs follow Zest's rules; the signature of
// an input queued without a record at hand is still known afterwards, and
// an input without a record is judged after its recheck.
func TestBeDivSaveRule(t *testing.T) {
	steps := []struct {
		in        []byte
		recording bool
		recheck   bool
		bediv     bool // queued by bediv
		zest      bool // queued by zest
	}{
		{[]byte{0, 1}, true, false, true, true},   // new: structure 0
		{[]byte{0, 2}, true, false, false, true},  // new value edge, known structure 0
		{[]byte{1, 2}, true, false, true, true},   // new structure 1
		{[]byte{0, 95}, true, false, true, true},  // invalid with a new edge: Zest's rule
		{[]byte{0, 1}, true, false, false, false}, // nothing new
		{[]byte{2, 3}, false, false, true, true},  // structure 2, no record at keep: queued
		{[]byte{2, 4}, true, false, false, true},  // structure 2 known from the queued entry's record
		{[]byte{2, 5}, false, true, false, true},  // no record at the first keep; the recheck's decides
		{[]byte{1, 50}, false, true, false, true}, // the same, structure 1
		{[]byte{0, 96}, false, true, true, true},  // invalid, through the recheck
		{[]byte{0, 97}, true, false, true, true},  // invalid again (known structure)
		{[]byte{2, 60}, true, false, false, true}, // valid, known structure
		{[]byte{1, 70}, false, false, true, true}, // neither record nor recheck: signature unknown, Zest's rule
	}
	for _, eng := range []string{"bediv", "zest"} {
		ex := newSrcExec(bedivSrc)
		f := newTestFuzzer(t, eng, ex, 0)
		for i, st := range steps {
			ex.SetRecording(st.recording)
			f.cfg.NoRecheck = !st.recheck
			e := f.handle(f.exec(append([]byte(nil), st.in...)), false)
			want := st.bediv
			if eng == "zest" {
				want = st.zest
			}
			if (e != nil) != want {
				t.Errorf("%s: step %d %v: queued %v, want %v", eng, i, st.in, e != nil, want)
			}
		}
	}
}

// TestBeDivLearnBeforeSave: the child that shows a choice to be
// structural (it changed that one choice, and the call tree) is judged
// with the new label, so its new structure is saved; judged with the old
// labels it would have its parent's signature and be dropped.
func TestBeDivLearnBeforeSave(t *testing.T) {
	ex := newSrcExec(func(s *param.Source) Outcome {
		v := s.Uintn(2, param.Value) // steers the generator, declared a value
		hit(10 + int(v))
		if v == 1 {
			hit(20 + int(s.Uintn(10, param.Value)))
		}
		return Outcome{Result: Valid}
	})
	f := newTestFuzzer(t, "bediv", ex, 0)
	p := f.handle(f.exec([]byte{0}), false)
	if p == nil {
		t.Fatal("the parent was not queued")
	}
	s := f.strat.(*bedivTurns)
	g := s.nextGuide()
	if g == nil || s.ei.single != 0 {
		t.Fatalf("guide %v, single %d: want a child changing the parent's one choice", g, s.ei.single)
	}
	out := f.execGuided(g)
	e := f.handle(out, false)
	s.executed(g, out, e)
	if !f.sites.structural[p.rec.Draws[0].Site] {
		t.Fatal("the choice was not learned structural")
	}
	if e == nil {
		t.Error("the child with a new structure (found by changing a value choice) was not queued")
	}
}

// TestBeDivTypes: a structure-changing child re-draws only structural
// choices and a structure-preserving one only value choices; on the
// Figure 1 tree generator (whose values steer nothing) a
// structure-preserving child keeps its parent's call tree and a
// structure-changing one of a tree without ignored choices changes it. Every child is
// counted for its type, with a unique trace when handle saw one.
func TestBeDivTypes(t *testing.T) {
	var vals []figVal
	ex := figExec(&vals, true)
	f := newTestFuzzer(t, "bediv", ex, 0)
	s := f.strat.(*bedivTurns)
	p := f.handle(f.exec([]byte{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0}), false)
	if p == nil || len(vals) != 5 {
		t.Fatalf("the first tree %v was not queued", vals)
	}
	// The has-child? choices, learned structural (as TestStructureInference
	// shows ei learns them).
	for i := range p.rec.Draws {
		d := &p.rec.Draws[i]
		if p.rec.Spans[d.Span].Name == "bool" {
			f.sites.structural[d.Site] = true
		}
	}
	var n, u [2]int64
	var changed, fromP [2]int64
	for i := range 2000 {
		g := s.nextGuide()
		if g == nil {
			t.Fatalf("child %d: no guided child", i)
		}
		typ := s.last
		cursor := 0
		for _, o := range g.over {
			d := g.parent.draw(o.index, &cursor)
			if d == nil {
				t.Fatalf("child %d: override of a draw its parent did not make", i)
			}
			if k := f.sites.kind(d); (k == param.Structure) != (typ == mutStructure) {
				t.Fatalf("child %d of type %d re-draws a choice of kind %v (span %s)", i, typ, k, g.parent.rec.Spans[d.Span].Name)
			}
		}
		out := f.execGuided(g)
		same := shapeOf(out.Record) == g.parent.shape
		if !same && typ == mutValue {
			t.Fatalf("child %d: a structure-preserving child changed its parent's call tree: %v", i, vals)
		}
		if g.parent == p {
			// p has no node at depth 4, whose has-child? choices are
			// ignored: re-drawing any of its structural choices changes
			// its tree.
			fromP[typ]++
			if !same {
				changed[typ]++
			}
		}
		e := f.handle(out, false)
		n[typ]++
		if f.lastUnique {
			u[typ]++
		}
		s.executed(g, out, e)
	}
	if n != s.n || u != s.u {
		t.Errorf("counted N %v U %v, want N %v U %v", s.n, s.u, n, u)
	}
	if n[mutStructure] < 200 || n[mutValue] < 200 {
		t.Errorf("children by type %v: want both types", n)
	}
	if changed[mutStructure] != fromP[mutStructure] || fromP[mutStructure] == 0 {
		t.Errorf("%d of %d structure-changing children of the first parent changed its call tree, want all",
			changed[mutStructure], fromP[mutStructure])
	}
	if len(f.queue) < 5 {
		t.Errorf("queue %d: the children found nothing", len(f.queue))
	}
}

// TestBeDivMaze runs bediv end to end on the maze with a fixed seed and
// budget: it must find the maze's failure (a valid-only path). It takes
// 2,621 executions; the budget is 20,000. On this seed bediv restricted to
// value mutations does not find it in 200,000 executions, nor restricted
// to structure-changing ones.
func TestBeDivMaze(t *testing.T) {
	m := newMaze([]byte{7, 3, 9, 1}, 16, 128)
	ex := newSrcExec(m.run)
	s := run(t, Config{Engine: "bediv", Seed: 5, Runs: 20_000, StopOnFailure: true, Workdir: t.TempDir()}, ex)
	if s.NewFailures != 1 {
		t.Errorf("bediv did not solve the maze in %d executions", s.Execs)
	}
}

// TestBeDivLearns: bediv's single-choice children teach it the structure
// labels (siteKinds.learn), as ei's do: on the Figure 1 tree generator the
// has-child? sites become structural, the node values do not.
func TestBeDivLearns(t *testing.T) {
	var vals []figVal
	ex := figExec(&vals, true)
	f := newTestFuzzer(t, "bediv", ex, 2000)
	f.init()
	f.loop()
	kinds := map[string]map[bool]int{"value": {}, "bool": {}}
	for _, e := range f.queue {
		for i := range e.rec.Draws {
			d := &e.rec.Draws[i]
			kinds[e.rec.Spans[d.Span].Name][f.sites.structural[d.Site]]++
		}
	}
	if kinds["value"][true] != 0 {
		t.Errorf("node values learned structural: %v", kinds)
	}
	if kinds["bool"][true] == 0 || kinds["bool"][false] > kinds["bool"][true] {
		t.Errorf("has-child? draws in the queue at sites learned structural / not: %d / %d; want most learned",
			kinds["bool"][true], kinds["bool"][false])
	}
}

// TestRedrawAtOffset: typed choice mutation of a draw that is not at the
// start of its sequence always changes its decoded value (redraw once
// decoded the old bytes at the draw's offset within the draw's own bytes,
// read nothing, and re-drew a Bool to its old value half of the time).
func TestRedrawAtOffset(t *testing.T) {
	r := newPRNG(1)
	data := []byte{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0}
	for _, d := range []param.Draw{{Offset: 11, Width: 1, N: 2}, {Offset: 9, Width: 1, N: 10}, {Offset: 3, Width: 2, N: 300}} {
		old := data[d.Offset : d.Offset+d.Width]
		for range 200 {
			b, _ := redraw(r, &d, old, nil)
			if at := append(append([]byte(nil), data[:d.Offset]...), b...); d.Decoded(at) == d.Decoded(data) {
				t.Fatalf("draw %+v: re-drawn %v decodes like the old %v", d, b, old)
			}
		}
	}
}
