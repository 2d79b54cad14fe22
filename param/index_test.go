package param

import (
	"bytes"
	"testing"
)

// node draws a binary tree as the Figure 1 generator of the execution
// indexing paper does: a value, then "has left?" and the left subtree,
// then "has right?" and the right subtree. Sites 1-5 stand for the five
// lines of that generator. It returns the values in preorder.
func node(s *Source, depth int, out *[]uint64) {
	s.BeginCall("node", 7, 0, nil) // the site is set by the caller below
	defer s.End()
	s.BeginCall("value", 1, 1, nil)
	*out = append(*out, s.Uintn(10, Value))
	s.End()
	s.BeginCall("bool", 2, 2, nil)
	left := s.Uintn(2, Value) == 1 && depth < 3
	s.End()
	if left {
		child(s, 3, depth, out)
	}
	s.BeginCall("bool", 2, 4, nil)
	right := s.Uintn(2, Value) == 1 && depth < 3
	s.End()
	if right {
		child(s, 5, depth, out)
	}
}

func child(s *Source, site uintptr, depth int, out *[]uint64) {
	s.BeginCall("node", 7, site, nil)
	defer s.End()
	node(s, depth+1, out)
}

// indexes returns the execution index of every draw, by value draw order.
func drawIndexes(r *Record) []uint64 {
	var ix []uint64
	for _, d := range r.Draws {
		ix = append(ix, d.Index)
	}
	return ix
}

func TestExecutionIndexStable(t *testing.T) {
	// Tree A: root(1) with left(2) and right(3). Tree B: the same with the
	// left child removed (its "has left?" byte is 0).
	a := []byte{1, 1, 2, 0, 0, 1, 3, 0, 0}
	b := []byte{1, 0, 1, 3, 0, 0}
	var va, vb []uint64
	s := New(a, 0)
	node(s, 0, &va)
	ra := s.Record().Clone()
	s.Reset(b, 0)
	node(s, 0, &vb)
	rb := s.Record().Clone()
	if len(va) != 3 || len(vb) != 2 || va[2] != 3 || vb[1] != 3 {
		t.Fatalf("values %v and %v, want [1 2 3] and [1 3]", va, vb)
	}
	// The right child's draws (value, two bools) have the same indexes in
	// both trees although their offsets moved by three bytes.
	rightA, rightB := ra.Draws[len(ra.Draws)-3:], rb.Draws[len(rb.Draws)-3:]
	for i := range rightA {
		if rightA[i].Index != rightB[i].Index || rightA[i].Site != rightB[i].Site {
			t.Errorf("right subtree draw %d: index %x/%x site %x/%x", i, rightA[i].Index, rightB[i].Index, rightA[i].Site, rightB[i].Site)
		}
		if rightA[i].Offset == rightB[i].Offset {
			t.Errorf("right subtree draw %d at the same offset in both trees; the test needs it to move", i)
		}
	}
	// All indexes of one execution are distinct.
	seen := map[uint64]bool{}
	for _, ix := range drawIndexes(ra) {
		if seen[ix] {
			t.Errorf("index %x used twice in one execution", ix)
		}
		seen[ix] = true
	}
	// The left child's value and the right child's value differ in index
	// (different call sites) but share the site of the "value" draw within
	// a node only if called from the same site: they must not.
	if ra.Draws[3].Index == ra.Draws[6].Index {
		t.Error("left and right child values share an index")
	}
}

func TestExecutionIndexOrdinals(t *testing.T) {
	s := New(bytes.Repeat([]byte{5}, 16), 0)
	s.BeginCall("slice", 9, 100, nil)
	for range 3 {
		s.BeginCall("elem", 10, 200, nil) // one call site, as in a loop
		s.Uint(1, Value)
		s.End()
	}
	s.End()
	r := s.Record()
	el := []Span{r.Spans[1], r.Spans[2], r.Spans[3]}
	if el[0].Index == el[1].Index || el[1].Index == el[2].Index {
		t.Errorf("elements of one slice share an index: %x %x %x", el[0].Index, el[1].Index, el[2].Index)
	}
	if r.Draws[0].Site != r.Draws[1].Site {
		t.Error("draws at the same place of the code have different sites")
	}
	// Same calls, other bytes: same indexes.
	first := drawIndexes(r)
	s.Reset(bytes.Repeat([]byte{77}, 16), 1)
	s.BeginCall("slice", 9, 100, nil)
	for range 3 {
		s.BeginCall("elem", 10, 200, nil)
		s.Uint(1, Value)
		s.End()
	}
	s.End()
	if got := drawIndexes(s.Record()); !equalU64(got, first) {
		t.Errorf("indexes depend on the bytes: %x vs %x", got, first)
	}
}

func equalU64(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// mapGuide is a Guide over a map.
type mapGuide map[uint64][]byte

func (g mapGuide) Choice(idx uint64, w int) ([]byte, bool) {
	b, ok := g[idx]
	return b, ok
}

func TestGuided(t *testing.T) {
	a := []byte{1, 1, 2, 0, 0, 1, 3, 0, 0}
	var va []uint64
	s := New(a, 0)
	node(s, 0, &va)
	ra := s.Record().Clone()
	// The guide gives every draw of tree A its bytes, except the root's
	// "has left?" choice, which becomes 0 (remove the left subtree).
	g := mapGuide{}
	for _, d := range ra.Draws {
		g[d.Index] = a[d.Offset : d.Offset+d.Width]
	}
	g[ra.Draws[1].Index] = []byte{0}
	var vg []uint64
	s.ResetGuided(g, 42)
	node(s, 0, &vg)
	if len(vg) != 2 || vg[0] != 1 || vg[1] != 3 {
		t.Errorf("guided values %v, want [1 3]: the right subtree keeps its value", vg)
	}
	consumed := bytes.Clone(s.Consumed())
	if want := []byte{1, 0, 1, 3, 0, 0}; !bytes.Equal(consumed, want) {
		t.Errorf("guided consumed %v, want %v", consumed, want)
	}
	// The same change by byte offset re-reads the right subtree from
	// shifted bytes: its value is not kept.
	lin := bytes.Clone(a)
	lin[1] = 0
	var vl []uint64
	s.Reset(lin, 42)
	node(s, 0, &vl)
	if len(vl) >= 2 && vl[1] == 3 {
		t.Errorf("offset mutation kept the right value %v; the test needs it to shift", vl)
	}
	// A draw the guide does not know gets PRNG bytes, and a guided
	// execution's consumed bytes replay identically.
	delete(g, ra.Draws[0].Index)
	var v1, v2 []uint64
	s.ResetGuided(g, 7)
	node(s, 0, &v1)
	c := bytes.Clone(s.Consumed())
	s.Reset(c, 999)
	node(s, 0, &v2)
	if !equalU64(v1, v2) {
		t.Errorf("guided %v, replay %v", v1, v2)
	}
}

func TestGuidedPadsAndCuts(t *testing.T) {
	s := New(nil, 0)
	g := mapGuide{}
	s.Begin("b")
	s.Bytes(4)
	s.End()
	idx := s.Record().Draws[0].Index
	g[idx] = []byte{1, 2}
	s.ResetGuided(g, 3)
	s.Begin("b")
	b := s.Bytes(4)
	s.End()
	if b[0] != 1 || b[1] != 2 || len(b) != 4 {
		t.Errorf("short guide bytes: %v", b)
	}
	g[idx] = []byte{9, 8, 7, 6, 5}
	s.ResetGuided(g, 3)
	s.Begin("b")
	b = s.Bytes(4)
	s.End()
	if !bytes.Equal(b, []byte{9, 8, 7, 6}) || s.Pos() != 4 {
		t.Errorf("long guide bytes: %v at %d", b, s.Pos())
	}
}

func TestMark(t *testing.T) {
	s := New([]byte{1, 2, 3}, 0)
	s.Begin("outer")
	s.Mark(Structure)
	s.Uint(1, Value)
	s.Begin("inner")
	s.Uint(1, Value)
	s.End()
	s.End()
	s.Uint(1, Value)
	d := s.Record().Draws
	if d[0].Kind != Structure || d[1].Kind != Structure || d[2].Kind != Value {
		t.Errorf("kinds %v %v %v, want structure structure value", d[0].Kind, d[1].Kind, d[2].Kind)
	}
	if sp := s.Record().Spans[0]; !sp.Marked || sp.Mark != Structure {
		t.Errorf("span %+v not marked", sp)
	}
}

func TestDecoded(t *testing.T) {
	s := New([]byte{13, 0xff, 0xff}, 0)
	s.Uintn(10, Value)
	s.Uint(2, Value)
	d := s.Record().Draws
	data := s.Consumed()
	if d[0].Decoded(data) != 3 || d[1].Decoded(data) != 0xffff || d[0].Raw(data) != 13 {
		t.Errorf("decoded %d %d raw %d", d[0].Decoded(data), d[1].Decoded(data), d[0].Raw(data))
	}
}
