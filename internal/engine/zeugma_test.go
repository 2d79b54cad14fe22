package engine

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// zTreeExec runs figNode and then a decoy: a call with the node generator's
// identity but another value type (two draws), which must never be
// spliced into a node nor a node into it.
func zTreeExec(vals *[]figVal) *srcExec {
	return newSrcExec(func(s *param.Source) Outcome {
		*vals = (*vals)[:0]
		figNode(s, 0, 0, vals)
		s.BeginCall("decoy", 7, 9, reflect.TypeFor[string]())
		s.Uintn(10, param.Value)
		s.Uintn(10, param.Value)
		s.End()
		return Outcome{Result: Valid}
	})
}

// Trees for zTreeExec (each followed by the decoy's two bytes).
var zTrees = [][]byte{
	// Root 1; left 2 with left leaf 4; right 3 with right leaf 5.
	{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0, 8, 8},
	// Root 6; left leaf 7; right 8 with left leaf 9.
	{6, 1, 7, 0, 0, 1, 8, 1, 9, 0, 0, 0, 3, 4},
	// Root 0; right leaf 2.
	{0, 0, 1, 2, 0, 0, 5, 6},
}

// zeugmaFixture queues the trees (with their records) in a zeugma fuzzer
// and returns it, its strategy, and each entry's decoded tree.
func zeugmaFixture(t *testing.T, trees [][]byte) (*fuzzer, *zeugmaTurns, [][]figVal, *[]figVal) {
	t.Helper()
	vals := new([]figVal)
	f := newTestFuzzer(t, "zeugma", zTreeExec(vals), 100)
	var decoded [][]figVal
	for _, data := range trees {
		e := &entry{data: bytes.Clone(data), valid: true, edges: 1}
		f.keepRecord(e, nil)
		decoded = append(decoded, append([]figVal(nil), *vals...))
		f.queue = append(f.queue, e)
	}
	f.cov.edges = 1
	return f, f.strat.(*zeugmaTurns), decoded, vals
}

// nodeSpans returns the indexes of e's node spans, in preorder (the k-th
// is the tree's k-th value).
func nodeSpans(e *entry) []int {
	var ns []int
	for i, sp := range e.rec.Spans {
		if sp.Name == "node" {
			ns = append(ns, i)
		}
	}
	return ns
}

// subtree returns the preorder range [k, k+size) of the values of the
// node span ns[k] of e.
func subtree(e *entry, ns []int, k int) (int, int) {
	sp := e.rec.Spans[ns[k]]
	size := 0
	for _, j := range ns[k:] {
		if e.rec.Spans[j].End <= sp.End {
			size++
		} else {
			break
		}
	}
	return k, k + size
}

// TestZeugmaSpliceTree: a splice replaces exactly the interval of a
// span of the parent with the bytes of a span of the same generator
// identity and value type (never the decoy of the same identity and
// another type, never a one-draw call, never the whole input, never the
// same bytes), and the child decodes to the parent's tree with that
// subtree replaced by the donor's.
func TestZeugmaSpliceTree(t *testing.T) {
	f, s, decoded, vals := zeugmaFixture(t, zTrees)
	s.indexNew()
	seen := map[[2]int]bool{}
	for trial := range 3000 {
		s.zest.qi, s.zest.made = trial%len(f.queue), 0
		p := s.turn()
		pi := s.zest.qi
		if runs := s.plan(p, 1); runs+len(s.splices) != 1 {
			t.Fatalf("one edit gave %d splices and %d byte mutations", len(s.splices), runs)
		}
		if len(s.splices) == 0 {
			continue
		}
		sp := s.splices[0]
		child := s.apply(nil, p.data)
		want := append([]byte(nil), p.data[:sp.start]...)
		want = append(append(want, sp.from...), p.data[sp.end:]...)
		if !bytes.Equal(child, want) {
			t.Fatalf("child %v, want %v", child, want)
		}
		if bytes.Equal(p.data[sp.start:sp.end], sp.from) {
			t.Fatalf("splice with the same bytes")
		}
		if out := f.exec(child); out.Result != Valid {
			t.Fatalf("child %v", out.Result)
		}
		if dec := len(p.data) - 2; sp.start == int32(dec) {
			// The decoy: its donor is another input's decoy (same
			// identity and type); the tree is unchanged.
			if sp.end != sp.start+2 || len(sp.from) != 2 {
				t.Fatalf("decoy splice [%d,%d) <- %v", sp.start, sp.end, sp.from)
			}
			found := false
			for _, e := range f.queue {
				found = found || bytes.Equal(e.data[len(e.data)-2:], sp.from)
			}
			if !found || !equalVals(*vals, decoded[pi]) {
				t.Fatalf("decoy splice <- %v: donor found %v, tree %v", sp.from, found, *vals)
			}
			seen[[2]int{-1, int(sp.from[0])}] = true
			continue
		}
		// The point: a node span of p, not the root of the input.
		pns := nodeSpans(p)
		k := -1
		for i, j := range pns {
			if ps := p.rec.Spans[j]; ps.Start == sp.start && ps.End == sp.end {
				k = i
			}
		}
		if k < 0 {
			t.Fatalf("splice [%d,%d) of parent %d is not a node call's interval", sp.start, sp.end, pi)
		}
		// The donor: a node span of some entry with those bytes.
		di, dk := -1, -1
		for ei, e := range f.queue {
			for i, j := range nodeSpans(e) {
				ds := e.rec.Spans[j]
				if ds.Gen == p.rec.Spans[pns[k]].Gen && ds.Type == figNodeType &&
					bytes.Equal(e.data[ds.Start:ds.End], sp.from) {
					di, dk = ei, i
				}
			}
		}
		if di < 0 {
			t.Fatalf("splice bytes %v are no node call's bytes", sp.from)
		}
		seen[[2]int{pi*100 + k, di*100 + dk}] = true
		// Expected tree: p's with subtree k replaced by the donor's
		// subtree dk, moved to subtree k's depth.
		a, b := subtree(p, pns, k)
		dn := f.queue[di]
		c, d := subtree(dn, nodeSpans(dn), dk)
		pv, dv := decoded[pi], decoded[di]
		exp := append([]figVal(nil), pv[:a]...)
		for _, v := range dv[c:d] {
			exp = append(exp, figVal{v.v, v.depth - dv[c].depth + pv[a].depth})
		}
		exp = append(exp, pv[b:]...)
		if !equalVals(*vals, exp) {
			t.Fatalf("child of %v (splice [%d,%d) <- %v) decodes to %v, want %v",
				pv, sp.start, sp.end, sp.from, *vals, exp)
		}
	}
	if len(seen) < 10 {
		t.Errorf("only %d distinct (point, donor) pairs in 3000 edits", len(seen))
	}
}

// TestZeugmaApplyBackToFront: splices are applied in the parent's
// coordinates back to front, whatever order they were drawn in; a splice
// overlapping (or nested in, or containing) one applied after it is
// dropped; so is one that would exceed the input cap.
func TestZeugmaApplyBackToFront(t *testing.T) {
	f, s, _, _ := zeugmaFixture(t, zTrees[:1])
	parent := []byte("0123456789abcdefghij")
	sp := func(a, b int32, from string) splice { return splice{start: a, end: b, from: []byte(from)} }
	cases := []struct {
		splices []splice
		want    string
		applied int64
	}{
		// Shrink at the front, grow further on: both at the parent's offsets.
		{[]splice{sp(2, 5, "AB"), sp(10, 12, "WXYZ")}, "01AB56789WXYZcdefghij", 2},
		{[]splice{sp(10, 12, "WXYZ"), sp(2, 5, "AB")}, "01AB56789WXYZcdefghij", 2},
		// [10,12) overlaps [11,15), applied first (it starts later).
		{[]splice{sp(10, 12, "WXYZ"), sp(11, 15, "q")}, "0123456789aqfghij", 1},
		// A nested splice wins over the one containing it.
		{[]splice{sp(2, 8, "OUT"), sp(3, 5, "in")}, "012in56789abcdefghij", 1},
		// Adjacent intervals do not overlap.
		{[]splice{sp(0, 2, "x"), sp(2, 4, "y"), sp(18, 20, "")}, "xy456789abcdefgh", 3},
		// Same interval twice: the first drawn is applied.
		{[]splice{sp(5, 6, "P"), sp(5, 6, "Q")}, "01234P6789abcdefghij", 1},
	}
	for i, c := range cases {
		s.splices = append(s.splices[:0], c.splices...)
		s.applied = 0
		got := s.apply(nil, parent)
		if string(got) != c.want || s.applied != c.applied {
			t.Errorf("case %d: %q (%d applied), want %q (%d)", i, got, s.applied, c.want, c.applied)
		}
	}
	// The input cap: a splice that would make the child longer than
	// f.max is dropped, one that keeps it within is applied.
	f.max = 22
	s.splices = append(s.splices[:0], sp(15, 16, "LONG"), sp(1, 2, "xy"))
	if got := s.apply(nil, parent); string(got) != "0xy23456789abcdefghij" {
		t.Errorf("with the cap: %q, want only the splice that fits", got)
	}
	s.splices = append(s.splices[:0], sp(15, 16, "LONG"))
	if got := s.apply(nil, parent); string(got) != string(parent) {
		t.Errorf("a splice past the cap was applied: %q", got)
	}
	s.splices = append(s.splices[:0], sp(15, 16, "LON"))
	if got := s.apply(nil, parent); string(got) != "0123456789abcdeLONghij" {
		t.Errorf("a splice up to the cap: %q", got)
	}
}

// TestZeugmaSpliceShare: with donors for every application point, half
// of the edits are splices (Zeugma's coin per edit), every edit is either
// a splice or a byte mutation, the number of edits per child is Zest's
// (mean 8), and overlapping splices are dropped.
func TestZeugmaSpliceShare(t *testing.T) {
	f, s, _, _ := zeugmaFixture(t, zTrees)
	const children = 20000
	var dst []byte
	for range children {
		dst = s.next(dst)
		if len(dst) > f.max {
			t.Fatal("child over the cap")
		}
	}
	share := float64(s.planned) / float64(s.edits)
	mean := float64(s.edits) / children
	t.Logf("edits/child %.2f, splice share %.3f, applied %d of %d splices", mean, share, s.applied, s.planned)
	if share < 0.47 || share > 0.53 {
		t.Errorf("splice share %.3f, want 1/2", share)
	}
	if s.planned+s.runs != s.edits {
		t.Errorf("%d splices + %d byte mutations != %d edits", s.planned, s.runs, s.edits)
	}
	if mean < 7.7 || mean > 8.3 {
		t.Errorf("%.2f edits per child, want 8 (Zest's mutation count)", mean)
	}
	if s.applied >= s.planned || s.applied < s.planned/4 {
		t.Errorf("%d of %d splices applied: overlaps must be dropped, others applied", s.applied, s.planned)
	}
}

// TestZeugmaNoDonor: a parent whose calls have no donor (a key of its own,
// or other calls of the key with the same bytes) gets only byte
// mutations, as many as Zest's, and keeps its length.
func TestZeugmaNoDonor(t *testing.T) {
	ex := newSrcExec(func(s *param.Source) Outcome {
		for _, g := range []uint64{11, 12, 13, 13} {
			s.BeginCall("g", g, uintptr(g), nil)
			s.Uintn(200, param.Value)
			s.Uintn(200, param.Value)
			s.End()
		}
		return Outcome{Result: Valid}
	})
	f := newTestFuzzer(t, "zeugma", ex, 100)
	// One entry: calls 11 and 12 are the only ones of their generators;
	// the two calls of 13 have the same bytes.
	e := &entry{data: []byte{1, 2, 3, 4, 5, 6, 5, 6}, valid: true, edges: 1}
	f.keepRecord(e, nil)
	f.queue = append(f.queue, e)
	f.cov.edges = 1
	s := f.strat.(*zeugmaTurns)
	const children = 20000
	var dst []byte
	for range children {
		dst = s.next(dst)
		if len(dst) != 8 {
			t.Fatalf("child of %d bytes from a parent of 8", len(dst))
		}
	}
	if len(s.points) == 0 {
		t.Fatal("the calls of 13 should be application points (with no donor of other bytes)")
	}
	if s.planned != 0 || s.applied != 0 {
		t.Errorf("%d splices planned, %d applied without a donor", s.planned, s.applied)
	}
	if mean := float64(s.runs) / children; s.runs != s.edits || mean < 7.7 || mean > 8.3 {
		t.Errorf("%d byte mutations of %d edits (%.2f per child), want every edit, 8 per child", s.runs, s.edits, mean)
	}
}

// TestZeugmaMaze runs zeugma end to end on the maze with a fixed seed: it
// must find the maze's failure (a valid-only path). The maze makes no
// generator calls, so this is Zest's mutation through zeugma's loop.
func TestZeugmaMaze(t *testing.T) {
	m := newMaze([]byte{7, 3, 9, 1}, 16, 128)
	s := run(t, Config{Engine: "zeugma", Seed: 5, Runs: 200000, StopOnFailure: true, Workdir: t.TempDir()}, m)
	if s.NewFailures != 1 {
		t.Errorf("zeugma did not solve the maze in %d executions", s.Execs)
	}
}

// TestZeugmaPoints pins which calls of a parent a splice may replace:
// calls with at least two draws consuming bytes, inside the data, not
// covering all of it, whose key has another indexed call. Calls that read
// nothing are never indexed as donors.
func TestZeugmaPoints(t *testing.T) {
	ex := newSrcExec(func(s *param.Source) Outcome {
		s.BeginCall("top", 20, 1, nil) // the whole input
		s.BeginCall("pair", 21, 2, nil)
		s.Uintn(200, param.Value)
		s.Uintn(200, param.Value)
		s.End()
		s.BeginCall("one", 22, 3, nil) // one draw
		s.Uintn(200, param.Value)
		s.End()
		s.BeginCall("empty", 23, 4, nil) // reads nothing
		s.End()
		s.BeginCall("wide", 24, 5, nil) // one draw of two bytes
		s.Uint(2, param.Value)
		s.End()
		s.End()
		return Outcome{Result: Valid}
	})
	f := newTestFuzzer(t, "zeugma", ex, 100)
	for _, data := range [][]byte{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}} {
		e := &entry{data: data, valid: true, edges: 1}
		f.keepRecord(e, nil)
		f.queue = append(f.queue, e)
	}
	s := f.strat.(*zeugmaTurns)
	s.indexNew()
	if _, ok := s.index[spanKey{gen: 23}]; ok {
		t.Error("a call that read nothing was indexed as a donor")
	}
	if d := s.index[spanKey{gen: 20}]; d == nil || len(d.refs) != 2 || len(d.starts) != 2 {
		t.Errorf("donors of the top call: %+v, want one in each entry", d)
	}
	p := f.queue[0]
	var names []string
	for _, i := range s.zeugmaPoints(p, nil) {
		names = append(names, p.rec.Spans[i].Name)
	}
	if len(names) != 1 || names[0] != "pair" {
		t.Errorf("application points %v, want [pair]", names)
	}
}

// TestZeugmaWithoutPointsIsZest: a parent without application points
// gets exactly the child zest makes from the same PRNG state, short (up
// to 64 bytes) or long.
func TestZeugmaWithoutPointsIsZest(t *testing.T) {
	f := newTestFuzzer(t, "zeugma", newSrcExec(func(s *param.Source) Outcome {
		s.Bytes(s.Pos()) // no generator call
		return Outcome{Result: Valid}
	}), 100)
	s := f.strat.(*zeugmaTurns)
	r := newPRNG(9)
	var got, want []byte
	for _, n := range []int{1, 7, 64, 65, 100, 1000} {
		p := &entry{data: make([]byte, n), rec: &param.Record{}}
		r.fill(p.data)
		for i := range 300 {
			state := prng{s: uint64(i) * 977}
			*f.r = state
			got = s.child(got, p)
			after := *f.r
			*f.r = state
			want = mutateZest(f.r, want, p.data)
			if !bytes.Equal(got, want) || *f.r != after {
				t.Fatalf("parent of %d bytes, child %d: zeugma %v, zest %v", n, i, got, want)
			}
		}
	}
}

// TestZeugmaDonorEntry: a donor entry is drawn uniformly among the
// entries with calls of the key, then one of its calls: an entry with
// nine calls of the generator donates as often as an entry with one.
func TestZeugmaDonorEntry(t *testing.T) {
	f := newTestFuzzer(t, "zeugma", newSrcExec(func(s *param.Source) Outcome {
		n := s.Uintn(16, param.Value)
		for range n {
			s.BeginCall("pair", 30, 1, nil)
			s.Uintn(200, param.Value)
			s.Uintn(200, param.Value)
			s.End()
		}
		return Outcome{Result: Valid}
	}), 100)
	for _, data := range [][]byte{
		{1, 10, 11}, // A: one call
		{9, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21}, // B: nine
		{1, 30, 31}, // the parent
	} {
		e := &entry{data: data, valid: true, edges: 1}
		f.keepRecord(e, nil)
		f.queue = append(f.queue, e)
	}
	f.cov.edges = 1
	s := f.strat.(*zeugmaTurns)
	s.indexNew()
	s.zest.qi = 2
	p := s.turn()
	from := map[byte]int{}
	for range 4000 {
		s.plan(p, 1)
		for _, sp := range s.splices {
			from[sp.from[0]]++
		}
	}
	a, b := from[10], from[20]
	t.Logf("donations: A %d, B %d", a, b)
	if a+b < 1000 || a*10 < b*8 || b*10 < a*8 {
		t.Errorf("donations: A %d, B %d; want about as many from each entry", a, b)
	}
}
