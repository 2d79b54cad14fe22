package gfz_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/param"
)

// ctTree draws a binary tree by plain recursion, as bst's genTree does,
// but called straight from the fuzz function, with no Custom around it.
func ctTree(t *gfz.T, depth int) *node {
	if depth == 0 || !gen.Bool().Draw(t) {
		return nil
	}
	n := &node{key: gen.IntRange(0, 63).Draw(t)}
	n.left = ctTree(t, depth-1)
	n.right = ctTree(t, depth-1)
	return n
}

// fuzzCallTree draws a tree with ctTree and then one more value at the
// top level.
func fuzzCallTree(t *gfz.T) {
	root := ctTree(t, 3)
	t.Assume(root != nil)
	gen.IntRange(0, 9).Draw(t)
}

// ctInput is a tree for ctTree(t, 3) and the last value: root 5 with a
// left child 3 (a left leaf 4, no right child) and a right child 7 (a
// leaf), then 9. Without the left child (ctNoLeft) the right subtree's
// bytes come right after the root's.
var (
	ctInput  = []byte{1, 5, 1, 3, 1, 4, 0, 1, 7, 0, 0, 9}
	ctNoLeft = []byte{1, 5, 0, 1, 7, 0, 0, 9}
)

func recordOf(t *testing.T, fn func(*gfz.T), in []byte) *param.Record {
	t.Helper()
	ex := gfz.NewExecutor(fn)
	ex.SetRecording(true)
	out := ex.Exec(in, 0)
	if out.Result != engine.Valid || out.Record == nil {
		t.Fatalf("%v on %v, record %v", out.Result, in, out.Record != nil)
	}
	return out.Record.Clone()
}

func isTreeSpan(sp *param.Span) bool { return sp.Implicit && strings.HasSuffix(sp.Name, ".ctTree") }

// TestCallTreeImplicitSpans: the calls of a plain recursive function
// between the fuzz function and the generators become spans of the call
// tree, nested as the calls are, with the function as Gen and the call's
// return address as CallSite, so that the left and right recursive calls
// are told apart.
func TestCallTreeImplicitSpans(t *testing.T) {
	rec := recordOf(t, fuzzCallTree, ctInput)
	var tree []int // the ctTree spans, in preorder
	for i := range rec.Spans {
		if isTreeSpan(&rec.Spans[i]) {
			tree = append(tree, i)
		}
	}
	// Calls that drew: the root, 3, 4, 4's two children (depth 0: no
	// draw), 3's right (false), 7, 7's left and right (false).
	// ctTree(t, 3): root 5 (d3) -> 3 (d2) -> 4 (d1) -> children d0 draw
	// nothing; 3's right (d1) draws false; 7 (d2) -> 7's children (d1)
	// draw false.
	if len(tree) != 7 {
		t.Fatalf("%d ctTree spans, want 7:\n%s", len(tree), dumpSpans(rec))
	}
	root := &rec.Spans[tree[0]]
	if root.Parent != -1 || root.Depth != 0 || root.Start != 0 || root.End != int32(len(ctInput)-1) {
		t.Errorf("root call: parent %d depth %d [%d,%d), want a top-level span of the tree's bytes", root.Parent, root.Depth, root.Start, root.End)
	}
	// Preorder: root, 3, 4, 3's right, 7, 7's left, 7's right.
	wantParent := []int{-1, 0, 1, 1, 0, 4, 4}
	wantLeft := []bool{false, true, true, false, false, true, false}
	var leftSite, rightSite uintptr
	for k, i := range tree {
		sp := &rec.Spans[i]
		if sp.Gen != root.Gen || sp.Type != nil {
			t.Errorf("span %d: Gen %#x Type %v, want the function's identity %#x and no type", i, sp.Gen, sp.Type, root.Gen)
		}
		if k == 0 {
			continue
		}
		if p := rec.Spans[sp.Parent]; wantParent[k] < 0 || sp.Parent != int32(tree[wantParent[k]]) || sp.Depth != p.Depth+1 {
			t.Errorf("ctTree span %d: parent %d depth %d, want span %d, depth %d", k, sp.Parent, sp.Depth, tree[wantParent[k]], p.Depth+1)
		}
		site := &rightSite
		if wantLeft[k] {
			site = &leftSite
		}
		if *site == 0 {
			*site = sp.CallSite
		} else if *site != sp.CallSite {
			t.Errorf("ctTree span %d: call site %#x, want %#x as the other calls from that line", k, sp.CallSite, *site)
		}
	}
	if leftSite == rightSite || leftSite == root.CallSite || rightSite == root.CallSite {
		t.Errorf("call sites: root %#x, left %#x, right %#x: want three different", root.CallSite, leftSite, rightSite)
	}
	// Every generator call is inside the ctTree call that made it, and
	// the last draw, made by the fuzz function, is at the top level.
	for i := range rec.Spans {
		sp := &rec.Spans[i]
		if sp.Implicit {
			continue
		}
		if i == len(rec.Spans)-1 {
			if sp.Parent != -1 || sp.Start != root.End {
				t.Errorf("the fuzz function's last draw: parent %d at %d, want top level at %d", sp.Parent, sp.Start, root.End)
			}
			continue
		}
		if sp.Parent < 0 || !isTreeSpan(&rec.Spans[sp.Parent]) {
			t.Errorf("generator call %d (%s) is not in a ctTree span", i, sp.Name)
		}
	}
	if t.Failed() {
		t.Logf("record:\n%s", dumpSpans(rec))
	}
}

// TestCallTreeIndexesSurviveLeftRemoval: removing the root's left subtree
// leaves the execution indexes of the right subtree's draws unchanged (the
// right call is made from another line). With the draws numbered only by
// their ordinal in one generator call (before the call tree came from the
// stack), they shifted as byte offsets do.
func TestCallTreeIndexesSurviveLeftRemoval(t *testing.T) {
	full := recordOf(t, fuzzCallTree, ctInput)
	cut := recordOf(t, fuzzCallTree, ctNoLeft)
	// The right subtree (its Bool, 7 and 7's two false Bools) and the
	// last draw are the last five draws of both.
	for k := 1; k <= 5; k++ {
		a, b := full.Draws[len(full.Draws)-k], cut.Draws[len(cut.Draws)-k]
		if a.Index != b.Index || a.Site != b.Site {
			t.Errorf("draw %d from the end: index %#x site %#x with the left subtree, %#x %#x without", k, a.Index, a.Site, b.Index, b.Site)
		}
	}
	// The left child's Bool (the third draw of both) keeps its index; the
	// right child's Bool has another.
	if full.Draws[2].Index != cut.Draws[2].Index {
		t.Errorf("the left child's first draw: index %#x, then %#x", full.Draws[2].Index, cut.Draws[2].Index)
	}
	if full.Draws[2].Index == cut.Draws[3].Index {
		t.Errorf("the left child's first draw and the right child's have one index %#x", full.Draws[2].Index)
	}
}

// TestCallTreeUnderCustom: the recursion of bst's genTree inside one
// Custom: the calls nest under the Custom's span.
func TestCallTreeUnderCustom(t *testing.T) {
	rec := recordOf(t, func(t *gfz.T) {
		root := treeGen.Draw(t)
		t.Assume(root != nil)
	}, []byte{1, 5, 1, 3, 1, 4, 0, 0, 0, 1, 7, 0, 0})
	if len(rec.Spans) == 0 || rec.Spans[0].Implicit || rec.Spans[0].Name != "Custom" {
		t.Fatalf("first span %+v, want the Custom call", rec.Spans[0])
	}
	n := 0
	for i := 1; i < len(rec.Spans); i++ {
		sp := &rec.Spans[i]
		if !sp.Implicit {
			if sp.Parent < 1 || !rec.Spans[sp.Parent].Implicit {
				t.Errorf("generator call %d (%s) in span %d, want in a genTree call", i, sp.Name, sp.Parent)
			}
			continue
		}
		n++
		if !strings.HasSuffix(sp.Name, ".genTree") {
			t.Errorf("implicit span %d is %s", i, sp.Name)
		}
		if n == 1 && (sp.Parent != 0 || sp.Depth != 1) {
			t.Errorf("the outer genTree call: parent %d depth %d, want the Custom's child", sp.Parent, sp.Depth)
		}
	}
	// genTree(t, 5): root, 3, 4, 4's children (false), 3's right
	// (false), 7, 7's children (false).
	if n != 9 {
		t.Errorf("%d genTree spans, want 9:\n%s", n, dumpSpans(rec))
	}
}

// TestCallTreeDeterministic: the same input gives the same record, span
// for span and draw for draw.
func TestCallTreeDeterministic(t *testing.T) {
	ex := gfz.NewExecutor(fuzzCallTree)
	ex.SetRecording(true)
	a := ex.Exec(ctInput, 0).Record.Clone()
	ex.Exec(ctNoLeft, 0)
	b := ex.Exec(ctInput, 0).Record
	if len(a.Spans) != len(b.Spans) || len(a.Draws) != len(b.Draws) {
		t.Fatalf("%d spans %d draws, then %d %d", len(a.Spans), len(a.Draws), len(b.Spans), len(b.Draws))
	}
	for i := range a.Spans {
		if a.Spans[i] != b.Spans[i] {
			t.Errorf("span %d: %+v, then %+v", i, a.Spans[i], b.Spans[i])
		}
	}
	for i := range a.Draws {
		if a.Draws[i] != b.Draws[i] {
			t.Errorf("draw %d: %+v, then %+v", i, a.Draws[i], b.Draws[i])
		}
	}
}

// TestCallTreeZeugmaDiffersFromZest: on a target of plain recursive
// functions, zeugma finds application points in the calls of the
// recursive function and so makes other children than zest from the same
// seed; before the call tree came from the stack the target's only spans
// were one-draw generator calls, and zeugma's run was zest's, input for
// input. The target is not instrumented here (no coverage: the queue is
// its first input), so the run starts from a seed of three nodes, root 5
// and leaves 3 and 7: a first input of one node has nothing to splice.
func TestCallTreeZeugmaDiffersFromZest(t *testing.T) {
	runs := func(eng string) []string {
		ex := &loggingExec{Executor: gfz.NewExecutor(func(t *gfz.T) {
			root := ctTree(t, 5)
			t.Assume(root != nil)
		})}
		_, err := engine.Run(context.Background(), engine.Config{Engine: eng, Seed: 3, Runs: 3000, Workdir: t.TempDir(),
			Timeout: engine.NoTimeout, NoRecheck: true, Seeds: [][]byte{{1, 5, 1, 3, 0, 0, 1, 7, 0, 0}}}, ex)
		if err != nil {
			t.Fatal(err)
		}
		return ex.inputs
	}
	zest, zeugma := runs("zest"), runs("zeugma")
	same := 0
	for i := range min(len(zest), len(zeugma)) {
		if zest[i] == zeugma[i] {
			same++
		}
	}
	t.Logf("%d zest executions, %d zeugma executions, %d equal at the same position", len(zest), len(zeugma), same)
	if same > len(zest)/2 {
		t.Errorf("zeugma ran the same input as zest in %d of %d executions", same, len(zest))
	}
}

// loggingExec is the fuzz-binary executor, logging every input executed.
type loggingExec struct {
	*gfz.Executor
	inputs []string
}

func (e *loggingExec) Exec(params []byte, extSeed uint64) engine.Outcome {
	out := e.Executor.Exec(params, extSeed)
	e.inputs = append(e.inputs, string(out.Consumed))
	return out
}

func dumpSpans(rec *param.Record) string {
	var b strings.Builder
	for i, sp := range rec.Spans {
		fmt.Fprintf(&b, "%2d %s%s parent %d [%d,%d) site %#x\n", i, strings.Repeat("  ", int(sp.Depth)), sp.Name, sp.Parent, sp.Start, sp.End, sp.CallSite)
	}
	return b.String()
}

//go:noinline
func ctSetup(t *gfz.T) int { return gen.IntRange(0, 9).Draw(t) }

//go:noinline
func ctRun(t *gfz.T) {
	t.RepeatN(map[string]func(*gfz.T){"a": func(t *gfz.T) { gen.Bool().Draw(t) }}, 1, 1)
}

// TestCallTreeRepeat: a Repeat span closes the implicit spans of the calls
// that returned before it (it is at the top level after ctSetup returned)
// and nests in the calls it is made from (inside ctRun).
func TestCallTreeRepeat(t *testing.T) {
	rec := recordOf(t, func(t *gfz.T) {
		ctSetup(t)
		t.RepeatN(map[string]func(*gfz.T){"a": func(t *gfz.T) { gen.Bool().Draw(t) }}, 1, 1)
		ctRun(t)
	}, []byte{3, 0, 1, 0, 1})
	var repeats []param.Span
	for _, sp := range rec.Spans {
		if sp.Name == "Repeat" {
			repeats = append(repeats, sp)
		}
	}
	if len(repeats) != 2 {
		t.Fatalf("%d Repeat spans:\n%s", len(repeats), dumpSpans(rec))
	}
	if repeats[0].Parent != -1 {
		t.Errorf("the fuzz function's Repeat is in span %d, want the top level:\n%s", repeats[0].Parent, dumpSpans(rec))
	}
	if p := repeats[1].Parent; p < 0 || !strings.HasSuffix(rec.Spans[p].Name, ".ctRun") {
		t.Errorf("ctRun's Repeat is in span %d, want ctRun's:\n%s", p, dumpSpans(rec))
	}
}

// ctNested is built at package level: the compiler inlines SliceOf here
// and copies its closures into this package (their names are this
// package's), but their code is the library's.
var ctNested = gen.SliceOf(gen.SliceOf(gen.IntRange(0, 9), 0, 3), 0, 3)

// TestCallTreeLibraryClosures: the generators' closures the compiler
// copies into the user's package are library code: a target of nested
// generators gets no implicit span.
func TestCallTreeLibraryClosures(t *testing.T) {
	rec := recordOf(t, func(t *gfz.T) {
		xs := ctNested.Draw(t)
		t.Assume(len(xs) == 2)
	}, []byte{2, 1, 5, 2, 6, 7})
	for i, sp := range rec.Spans {
		if sp.Implicit {
			t.Errorf("span %d is an implicit span of %s:\n%s", i, sp.Name, dumpSpans(rec))
		}
	}
}

// ctDeep draws one value at each of depth nested calls of a plain
// recursive function.
func ctDeep(t *gfz.T, depth int) int {
	v := gen.IntRange(0, 9).Draw(t)
	if depth == 0 {
		return v
	}
	return v + ctDeep(t, depth-1)
}

// TestCallTreeDeepNoAlloc: a recorded draw finds its user frames without
// allocating, however deep the recursion above it (40 plain calls: the
// frames of each draw once took a new buffer past 16, which made most of
// ei's garbage on the template targets).
func TestCallTreeDeepNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop buffers at random")
	}
	ex := gfz.NewExecutor(func(t *gfz.T) { ctDeep(t, 40) })
	ex.SetRecording(true)
	in := make([]byte, 64)
	out := ex.Exec(in, 0)
	if n := len(out.Record.Spans); n < 40 {
		t.Fatalf("%d spans for 40 nested calls", n)
	}
	if n := testing.AllocsPerRun(50, func() { ex.Exec(in, 0) }); n != 0 {
		t.Errorf("a recorded execution of 41 draws under 40 nested calls allocates %v times", n)
	}
}
