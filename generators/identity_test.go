package generators_test

import (
	"reflect"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// figTree is the Figure 1 generator of the execution-indexing paper: a
// value, then the left subtree if a Bool says so, then the right subtree
// if another Bool says so. The left and right children are drawn on
// different lines.
type figTree struct {
	Val         int
	Left, Right *figTree
}

func figGen(depth int) gen.Generator[*figTree] {
	return gen.Custom(func(t *gfz.T) *figTree {
		n := &figTree{Val: gen.IntRange(0, 9).Draw(t)}
		if depth > 0 && gen.Bool().Draw(t) {
			n.Left = figGen(depth - 1).Draw(t)
		}
		if depth > 0 && gen.Bool().Draw(t) {
			n.Right = figGen(depth - 1).Draw(t)
		}
		return n
	})
}

func TestIdentityAndCallSites(t *testing.T) {
	src := param.New([]byte{1, 1, 2, 0, 0, 1, 3, 0, 0}, 0)
	v := figGen(3).Draw(gfz.NewT(src))
	if v.Val != 1 || v.Left == nil || v.Left.Val != 2 || v.Right == nil || v.Right.Val != 3 {
		t.Fatalf("tree %+v", v)
	}
	sp := src.Record().Spans
	// Spans in order: root, IntRange, Bool, left node, ..., Bool, right node.
	var nodes []param.Span
	for _, s := range sp {
		if s.Name == "Custom" {
			nodes = append(nodes, s)
		}
	}
	if len(nodes) != 3 {
		t.Fatalf("%d node spans", len(nodes))
	}
	root, left, right := nodes[0], nodes[1], nodes[2]
	if left.Gen != right.Gen || root.Gen != left.Gen {
		t.Errorf("one generator function, identities %x %x %x", root.Gen, left.Gen, right.Gen)
	}
	if left.CallSite == 0 || left.CallSite == right.CallSite || root.CallSite == left.CallSite {
		t.Errorf("call sites root %x left %x right %x: want distinct, non-zero", root.CallSite, left.CallSite, right.CallSite)
	}
	if root.Type != reflect.TypeFor[*figTree]() {
		t.Errorf("type %v", root.Type)
	}
	if gen.IntRange(0, 9).String() != "IntRange" {
		t.Error("label")
	}
}

func TestIdentityDistinguishesParameters(t *testing.T) {
	spanGen := func(g gen.Generator[int]) uint64 {
		src := param.New([]byte{5}, 0)
		g.Draw(gfz.NewT(src))
		return src.Record().Spans[0].Gen
	}
	a, b, c := spanGen(gen.IntRange(0, 9)), spanGen(gen.IntRange(0, 99)), spanGen(gen.IntRange(0, 9).Named("x"))
	if a == b {
		t.Error("IntRange(0, 9) and IntRange(0, 99) share an identity")
	}
	if a != c {
		t.Error("a label changed the identity")
	}
	if spanGen(gen.IntRange(0, 9)) != a {
		t.Error("the same generator built twice has two identities")
	}
	m1 := spanGen(gen.Map(gen.IntRange(0, 9), func(x int) int { return x + 1 }))
	m2 := spanGen(gen.Map(gen.IntRange(0, 9), func(x int) int { return x * 2 }))
	if m1 != m2 || m1 == a {
		t.Error("Map's identity must come from the generator it wraps, not from its function, and differ from it")
	}
	one := gen.Custom(func(t *gfz.T) int { return 1 })
	two := gen.Custom(func(t *gfz.T) int { return 2 })
	if spanGen(one) == spanGen(two) {
		t.Error("two Custom functions share an identity")
	}
}

func TestAsStructure(t *testing.T) {
	src := param.New([]byte{1, 1}, 0)
	tt := gfz.NewT(src)
	gen.Bool().AsStructure().Draw(tt)
	gen.Bool().Draw(tt)
	d := src.Record().Draws
	if d[0].Kind != param.Structure || d[1].Kind != param.Value {
		t.Errorf("kinds %v %v, want structure (marked) and value", d[0].Kind, d[1].Kind)
	}
	src = param.New([]byte{1, 1}, 0)
	gen.SliceOf(gen.Bool(), 0, 3).AsValue().Draw(gfz.NewT(src))
	if k := src.Record().Draws[0].Kind; k != param.Value {
		t.Errorf("AsValue: length draw kind %v", k)
	}
	if n := src.Record().Draws[1].N; n != 2 {
		t.Errorf("Bool domain %d, want 2", n)
	}
}
