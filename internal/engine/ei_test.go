package engine

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// srcExec runs fn on a param.Source; it records and runs guided
// executions, as the fuzz binary's executor does.
type srcExec struct {
	src *param.Source
	fn  func(s *param.Source) Outcome
}

func newSrcExec(fn func(s *param.Source) Outcome) *srcExec {
	src := param.New(nil, 0)
	src.SetRecording(false)
	return &srcExec{src: src, fn: fn}
}

func (e *srcExec) Exec(params []byte, ext uint64) Outcome {
	e.src.Reset(params, ext)
	return e.finish(e.fn(e.src))
}

func (e *srcExec) ExecGuided(g param.Guide, ext uint64) Outcome {
	return guidedOn(e.src, g, ext, e.fn)
}

func (e *srcExec) finish(out Outcome) Outcome {
	out.Consumed = e.src.Consumed()
	if e.src.Recording() {
		out.Record = e.src.Record()
	}
	return out
}

func (e *srcExec) SetRecording(on bool) { e.src.SetRecording(on) }

// figNode draws a binary tree like the Figure 1 generator of the Havoc
// Paradox paper (value, has-left?, left, has-right?, right; call sites 1
// to 5) and returns it in preorder as (value, depth) pairs.
type figVal struct{ v, depth uint64 }

func figNode(s *param.Source, site uintptr, depth uint64, out *[]figVal) {
	s.BeginCall("node", 7, site, figNodeType)
	defer s.End()
	s.BeginCall("value", 1, 1, figIntType)
	*out = append(*out, figVal{s.Uintn(10, param.Value), depth})
	s.End()
	s.BeginCall("bool", 2, 2, figBoolType)
	left := s.Uintn(2, param.Value) == 1 && depth < 4
	s.End()
	if left {
		figNode(s, 3, depth+1, out)
	}
	s.BeginCall("bool", 2, 4, figBoolType)
	right := s.Uintn(2, param.Value) == 1 && depth < 4
	s.End()
	if right {
		figNode(s, 5, depth+1, out)
	}
}

// The value types figNode's calls record (zeugma's crossover matches
// them). Every node makes the same five draws whatever its depth (the
// depth cap only keeps a child from being generated), so a subtree's bytes
// decode to the same subtree wherever they are read.
var (
	figNodeType = reflect.TypeFor[*figVal]()
	figIntType  = reflect.TypeFor[int]()
	figBoolType = reflect.TypeFor[bool]()
)

// figExec runs figNode on each input into *vals; with cover, each node
// lights an edge for its value and depth.
func figExec(vals *[]figVal, cover bool) *srcExec {
	return newSrcExec(func(s *param.Source) Outcome {
		*vals = (*vals)[:0]
		figNode(s, 0, 0, vals)
		if cover {
			for _, v := range *vals {
				hit(int(v.v*8 + v.depth))
			}
		}
		return Outcome{Result: Valid}
	})
}

// TestEIFigure2 is the Havoc Paradox paper's Figure 2 case: removing a
// node's left child by changing that one structural choice keeps the
// right subtree's values under execution-indexed mutation; the same change
// made at its byte offset (Zest) re-reads the right subtree from shifted
// bytes.
func TestEIFigure2(t *testing.T) {
	var vals []figVal
	ex := figExec(&vals, false)
	f := newTestFuzzer(t, "ei", ex, 100)
	// Root 1, left child 2 (with left grandchild 4), right child 3 with a
	// right child 5.
	parentData := []byte{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0}
	p := &entry{data: parentData, valid: true}
	f.keepRecord(p, nil)
	if len(vals) != 5 {
		t.Fatalf("parent tree %v", vals)
	}
	right := append([]figVal(nil), vals[3:]...) // 3 and 5
	// The root's has-left? choice is the parent's draw 1.
	d := &p.rec.Draws[1]
	if d.Offset != 1 || d.N != 2 {
		t.Fatalf("draw 1 %+v, want the root's has-left? at offset 1", d)
	}
	g := newChildGuide(f.max)
	g.reset(p, []override{{index: d.Index, bytes: []byte{0}}}, 9)
	out := f.execGuided(g)
	if out.Result != Valid {
		t.Fatalf("child %v", out.Result)
	}
	want := append([]figVal{{1, 0}}, right...)
	if !equalVals(vals, want) {
		t.Errorf("ei child tree %v, want %v: the right subtree kept", vals, want)
	}
	if got := f.cur; !bytes.Equal(got, []byte{1, 0, 1, 3, 0, 1, 5, 0, 0}) {
		t.Errorf("ei child's sequence %v", got)
	}
	// Replaying the child's sequence gives the same tree.
	f.exec(bytes.Clone(f.cur))
	if !equalVals(vals, want) {
		t.Errorf("replay of the ei child: %v", vals)
	}
	// The same change at the byte offset.
	lin := bytes.Clone(parentData)
	lin[1] = 0
	f.exec(lin)
	if len(vals) > 1 && equalVals(vals[1:], right) {
		t.Errorf("the byte-offset child kept the right subtree %v; the test needs it to shift", vals)
	}
}

func equalVals(a, b []figVal) bool {
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

// TestStructureInference: on the Figure 1 tree generator, the has-left?
// and has-right? choices (declared values by their generator) are learned
// structural by an ei run, the node values are not.
func TestStructureInference(t *testing.T) {
	var vals []figVal
	ex := figExec(&vals, true)
	f := newTestFuzzer(t, "ei", ex, 3000)
	f.init()
	f.loop()
	var valueSites, boolSites []uint64
	for _, e := range f.queue {
		for i := range e.rec.Draws {
			d := &e.rec.Draws[i]
			sp := e.rec.Spans[d.Span]
			switch sp.Name {
			case "value":
				valueSites = append(valueSites, d.Site)
			case "bool":
				boolSites = append(boolSites, d.Site)
			}
		}
	}
	learned := 0
	for _, s := range boolSites {
		if f.sites.structural[s] {
			learned++
		}
	}
	for _, s := range valueSites {
		if f.sites.structural[s] {
			t.Fatalf("a node value's site was learned structural")
		}
	}
	if learned == 0 || learned*2 < len(boolSites) {
		t.Errorf("%d of %d has-child? draws in the queue are at sites learned structural; want most", learned, len(boolSites))
	}
	// Kinds: a learned site is structural, a declared one is, a forced
	// value stays a value.
	for _, s := range boolSites {
		if f.sites.structural[s] {
			d := param.Draw{Site: s, Kind: param.Value}
			if f.sites.kind(&d) != param.Structure {
				t.Error("kind of a learned site")
			}
			d.Forced = true
			if f.sites.kind(&d) != param.Value {
				t.Error("a forced value was made structural")
			}
			break
		}
	}
}

// TestRedraw pins typed choice mutation: the new value is in the domain
// and differs from the old one; edge values come up far more often than
// uniformly; a byte string gets one byte changed.
func TestRedraw(t *testing.T) {
	r := newPRNG(3)
	// IntRange(-5, 100): N = 106, Lo = -5; raw 5 decodes to zero.
	d := param.Draw{Width: 1, N: 106, Lo: -5}
	counts := map[uint64]int{}
	old := []byte{40}
	const n = 20000
	for range n {
		b, ok := redraw(r, &d, old, nil)
		if !ok || len(b) != 1 {
			t.Fatal("redraw failed")
		}
		v := d.Decoded(b)
		if v >= 106 || v == 40 {
			t.Fatalf("value %d (old 40, domain 106)", v)
		}
		counts[v]++
	}
	// Uniform share is n/105 ~ 190; each edge gets about n/12 more.
	for _, e := range []uint64{0, 105, 5, 1, 104} {
		if counts[e] < n/24 {
			t.Errorf("edge value %d drawn %d times of %d; want edge bias", e, counts[e], n)
		}
	}
	if counts[50] > n/50 {
		t.Errorf("a middle value drawn %d times", counts[50])
	}
	// A Bool always flips.
	bd := param.Draw{Width: 1, N: 2}
	for _, o := range []byte{0, 1, 7, 200} {
		b, _ := redraw(r, &bd, []byte{o}, nil)
		if bd.Decoded(b) == bd.Decoded([]byte{o}) {
			t.Errorf("Bool from %d not flipped: %d", o, b[0])
		}
	}
	// Full 8-byte domain.
	fd := param.Draw{Width: 8}
	old8 := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	for range 100 {
		b, _ := redraw(r, &fd, old8, nil)
		if bytes.Equal(b, old8) {
			t.Fatal("8-byte value unchanged")
		}
	}
	// Bytes: exactly one byte changes.
	sd := param.Draw{Width: 10}
	olds := []byte("abcdefghij")
	for range 100 {
		b, _ := redraw(r, &sd, olds, nil)
		diff := 0
		for i := range b {
			if b[i] != olds[i] {
				diff++
			}
		}
		if diff != 1 {
			t.Fatalf("%d bytes changed", diff)
		}
	}
	if _, ok := redraw(r, &param.Draw{Width: 0}, nil, nil); ok {
		t.Error("a draw of no byte redrawn")
	}
}

// TestEIRuns runs ei end to end on the maze with a fixed seed: it must
// find the maze's failure (a valid-only path).
func TestEIMaze(t *testing.T) {
	m := newMaze([]byte{7, 3, 9, 1}, 16, 128)
	ex := newSrcExec(m.run)
	s := run(t, Config{Engine: "ei", Seed: 5, Runs: 200000, StopOnFailure: true, Workdir: t.TempDir()}, ex)
	if s.NewFailures != 1 {
		t.Errorf("ei did not solve the maze in %d executions", s.Execs)
	}
}

// TestEIGuidedTimeout: when a guided child hangs (no supervisor), the
// watchdog saves the bytes the child drew before it hung (extended), and
// they replay into the same hang.
func TestEIGuidedTimeout(t *testing.T) {
	release := make(chan struct{})
	old := exitProcess
	var once sync.Once
	exitProcess = func(int) { once.Do(func() { close(release) }) }
	defer func() { exitProcess = old }()
	// The target hangs when the sum of its three draws is 7 mod 23 and
	// the third is above 200 (the second draw decides whether there is a
	// third).
	hangs := func(s *param.Source) bool {
		a := s.Uint(1, param.Value)
		if s.Uintn(2, param.Value) == 0 {
			hit(int(a % 4))
			return false
		}
		b := s.Uint(1, param.Value)
		hit(10 + int(b%8))
		return (a+b)%23 == 7 && b > 200
	}
	hung := false
	ex := newSrcExec(func(s *param.Source) Outcome {
		if hangs(s) && !hung {
			hung = true
			<-release
		}
		return Outcome{Result: Valid}
	})
	dir := t.TempDir()
	s, err := Run(context.Background(), Config{Engine: "ei", Target: "FuzzHang", Seed: 2, Runs: 200_000, Timeout: time.Second,
		NoRecheck: true, Workdir: dir}, ex)
	if err != nil {
		t.Fatal(err)
	}
	if !hung || s.NewFailures != 1 {
		t.Fatalf("hung %v, summary %+v", hung, s)
	}
	in := filepath.Join(dir, workdir.FailuresDir, workdir.FailureName("timeout")+".input")
	data, err := workdir.ReadInputFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if !hangs(param.New(data, 99)) {
		t.Errorf("the saved input %x does not replay into the hang", data[:8])
	}
}

// TestEIResume: on resume, every queued input gets its call tree back (its
// corpus file is executed again with recording on).
func TestEIResume(t *testing.T) {
	var vals []figVal
	ex := figExec(&vals, true)
	dir := t.TempDir()
	first := run(t, Config{Engine: "ei", Seed: 1, Runs: 2000, Workdir: dir}, ex)
	f := newTestFuzzer(t, "ei", ex, 0)
	var err error
	if f.wd, err = workdir.Open(dir); err != nil {
		t.Fatal(err)
	}
	f.init()
	if len(f.queue) < 2 || len(f.queue) > first.Corpus {
		t.Fatalf("resumed queue %d (first run's corpus %d)", len(f.queue), first.Corpus)
	}
	for i, e := range f.queue {
		if e.rec == nil || !recordFits(e.rec, len(e.data)) || len(e.rec.Draws) == 0 || e.shape == 0 {
			t.Fatalf("entry %d has no call tree after resume", i)
		}
		last := e.rec.Draws[len(e.rec.Draws)-1]
		if int(last.Offset+last.Width) != len(e.data) {
			t.Errorf("entry %d: record covers %d of %d bytes", i, last.Offset+last.Width, len(e.data))
		}
	}
}

// bstTree draws a tree as testdata/examples/bst's genTree does: plain Go
// recursion inside one generator call, a Bool (site 20) deciding whether
// a node exists, then its key (IntRange(0, 63), site 21), then its left
// and right subtrees.
func bstTree(s *param.Source, depth int, keys *[]uint64) {
	s.BeginCall("Bool", 2, 20, nil)
	has := s.Uintn(2, param.Value) == 1
	s.End()
	if depth == 0 || !has {
		return
	}
	s.BeginCall("IntRange", 3, 21, nil)
	*keys = append(*keys, s.Uintn(64, param.Value))
	s.End()
	bstTree(s, depth-1, keys)
	bstTree(s, depth-1, keys)
}

// TestStructureInferenceBST: on bst's generator, the node-exists Bools
// are learned structural and the keys stay values.
func TestStructureInferenceBST(t *testing.T) {
	var keys []uint64
	ex := newSrcExec(func(s *param.Source) Outcome {
		keys = keys[:0]
		s.BeginCall("tree", 9, 1, nil)
		bstTree(s, 5, &keys)
		s.End()
		for i, k := range keys {
			hit(int(k%8)*16 + i%16)
		}
		return Outcome{Result: Valid}
	})
	f := newTestFuzzer(t, "ei", ex, 5000)
	f.init()
	f.loop()
	kinds := map[string][2]int{} // span name -> [values, structural]
	for _, e := range f.queue {
		for i := range e.rec.Draws {
			d := &e.rec.Draws[i]
			k := kinds[e.rec.Spans[d.Span].Name]
			k[f.sites.kind(d)]++
			kinds[e.rec.Spans[d.Span].Name] = k
		}
	}
	if b := kinds["Bool"]; b[param.Structure] == 0 || b[param.Value] != 0 {
		t.Errorf("Bool draws: %d value, %d structural; want all structural", b[param.Value], b[param.Structure])
	}
	if k := kinds["IntRange"]; k[param.Value] == 0 || k[param.Structure] != 0 {
		t.Errorf("key draws: %d value, %d structural; want all values", k[param.Value], k[param.Structure])
	}
}
