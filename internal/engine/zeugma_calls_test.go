package engine

import (
	"bytes"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// callsTree draws a tree the way bst's genTree does (a Bool, and for a
// node an IntRange, then the left and right subtrees), recording it as
// the generators package does for a plain recursive function: before
// each generator call, Calls gets the stack of calls of the function
// (one frame per level, the left and right calls from two sites). With
// calls false it records what gfz recorded before the call tree came
// from the stack: the generator calls only.
func callsTree(s *param.Source, stack []param.Frame, depth int, calls bool, out *[]uint64) {
	draw := func(gen uint64, site uintptr, n uint64) uint64 {
		if calls {
			s.Calls(stack)
		}
		s.BeginCall("g", gen, site, nil)
		v := s.Uintn(n, param.Value)
		s.End()
		return v
	}
	if depth == 0 || draw(1, 100, 2) == 0 {
		return
	}
	*out = append(*out, draw(2, 101, 64))
	const fn = 77
	callsTree(s, append(stack, param.Frame{Func: fn, Site: 200, Name: "genTree"}), depth-1, calls, out)
	callsTree(s, append(stack, param.Frame{Func: fn, Site: 201, Name: "genTree"}), depth-1, calls, out)
}

func callsTreeExec(calls bool) *srcExec {
	var keys []uint64
	return newSrcExec(func(s *param.Source) Outcome {
		keys = keys[:0]
		callsTree(s, []param.Frame{{Func: 77, Site: 300, Name: "genTree"}}, 4, calls, &keys)
		for _, k := range keys {
			hit(int(k))
		}
		return Outcome{Result: Valid}
	})
}

// Trees for callsTreeExec: root 5 with children 3 and 7 (3 with a left
// leaf 1); root 9 with a right chain 10, 11; root 20 alone.
var callsTrees = [][]byte{
	{1, 5, 1, 3, 1, 1, 0, 0, 0, 0, 1, 7, 0, 0},
	{1, 9, 0, 1, 10, 0, 1, 11, 0, 0},
	{1, 20, 0, 0},
}

// TestZeugmaSplicesImplicitSpans: on a tree drawn by a plain recursive
// function, the calls of the function are application points and donors
// (same function, no type), so zeugma makes linked splices (counted over
// 5,000 children). Recorded without Calls (generator calls of one draw
// each), the same trees have no application point and zeugma makes no
// splice: its children are zest's.
func TestZeugmaSplicesImplicitSpans(t *testing.T) {
	for _, calls := range []bool{true, false} {
		f := newTestFuzzer(t, "zeugma", callsTreeExec(calls), 100)
		for _, data := range callsTrees {
			e := &entry{data: bytes.Clone(data), valid: true, edges: 1}
			f.keepRecord(e, nil)
			f.queue = append(f.queue, e)
		}
		f.cov.edges = 1
		s := f.strat.(*zeugmaTurns)
		s.indexNew()
		points := 0
		for _, e := range f.queue {
			for _, i := range s.zeugmaPoints(e, nil) {
				if sp := e.rec.Spans[i]; !sp.Implicit || sp.Gen != 77 {
					t.Errorf("application point %+v, want a call of genTree", sp)
				}
				points++
			}
		}
		var dst []byte
		for range 5000 {
			dst = s.next(dst)
		}
		t.Logf("calls %v: %d application points, %d of %d edits planned as splices, %d applied", calls, points, s.planned, s.edits, s.applied)
		if calls && (points == 0 || s.applied < 1000) {
			t.Errorf("with the calls of genTree as spans: %d application points, %d splices applied, want points and splices", points, s.applied)
		}
		if !calls && (points != 0 || s.planned != 0 || s.applied != 0) {
			t.Errorf("without them: %d application points, %d splices", points, s.applied)
		}
	}
}
