package engine

import (
	"bytes"
	"slices"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// scriptEnv is a strategyEnv with no fuzzer behind it: the test sets the
// random source's state, the queue and the rest. A strategy built from it
// sees only what the test gives it.
type scriptEnv struct {
	r      *prng
	q      []*entry
	edges  int
	max    int
	guides bool // newGuide makes guides (else: no guided executor)
	made   int  // guides made
	dict   [][]byte
	labels *siteKinds
	out    Outcome
	unique bool
	execs  int64
	counts *edgeHits    // hits (nil: made on first use)
	edges1 map[int]bool // lastHit: the edges the last execution hit
	toks   [][]byte     // tokens: tokenChild overwrites the child's start with one
}

func (e *scriptEnv) rand() *prng          { return e.r }
func (e *scriptEnv) queue() []*entry      { return e.q }
func (e *scriptEnv) totalEdges() int      { return e.edges }
func (e *scriptEnv) maxSize() int         { return e.max }
func (e *scriptEnv) sites() *siteKinds    { return e.labels }
func (e *scriptEnv) dictionary() [][]byte { return e.dict }
func (e *scriptEnv) handled() *Outcome    { return &e.out }
func (e *scriptEnv) uniqueTrace() bool    { return e.unique }
func (e *scriptEnv) execNumber() int64    { return e.execs }

// holdParent and peekRecord: the test's entries keep the records it gives
// them (nothing is dropped or made again).
func (e *scriptEnv) holdParent(*entry)                 {}
func (e *scriptEnv) peekRecord(p *entry) *param.Record { return p.rec }

func (e *scriptEnv) otherInput() []byte {
	if len(e.q) == 0 {
		return nil
	}
	return e.q[e.r.below(len(e.q))].data
}

func (e *scriptEnv) domainChild(dst, _ []byte) ([]byte, bool) { return dst, false }

func (e *scriptEnv) hits() *edgeHits {
	if e.counts == nil {
		e.counts = newEdgeHits()
	}
	return e.counts
}

func (e *scriptEnv) lastHit(edge int) bool { return e.edges1[edge] }
func (e *scriptEnv) tokens() int           { return len(e.toks) }

func (e *scriptEnv) tokenChild(dst, parent []byte) ([]byte, bool) {
	if len(e.toks) == 0 || len(parent) == 0 {
		return dst, false
	}
	dst = append(dst[:0], parent...)
	copy(dst, e.toks[e.r.below(len(e.toks))])
	return dst, true
}

func (e *scriptEnv) newGuide() *childGuide {
	if !e.guides {
		return nil
	}
	e.made++
	return newChildGuide(e.max)
}

// listGen is a small generator with a call tree: a list of 1 to 4 items
// (a structural length), each a call drawing two values.
func listGen(s *param.Source) {
	s.Begin("list")
	n := s.Uintn(4, param.Structure) + 1
	for range n {
		s.Begin("item")
		s.Uintn(16, param.Value)
		s.Uintn(16, param.Value)
		s.End()
	}
	s.End()
}

// recordedEntry is the queue entry of listGen run on data: its consumed
// bytes and its record.
func recordedEntry(data []byte, valid bool) *entry {
	s := param.New(nil, 0)
	s.SetRecording(true)
	s.Reset(data, 0)
	listGen(s)
	rec := s.Record().Clone()
	return &entry{data: bytes.Clone(s.Consumed()), edges: 1, valid: valid, rec: rec, shape: shapeOf(rec)}
}

// TestZestFromEnv: zest built from a strategyEnv alone makes each child
// from the queue the env shows, with the env's random source (a twin
// source in the same state makes the same children), and gives each
// parent the turns the env's total coverage sets.
func TestZestFromEnv(t *testing.T) {
	a := &entry{data: []byte("parent a"), edges: 2}
	b := &entry{data: []byte("parent b"), edges: 1}
	env := &scriptEnv{r: &prng{s: 42}, q: []*entry{a, b}, edges: 50, max: 64}
	twin := prng{s: 42}
	strat, _ := engines["zest"].build(env)
	s := strat.(*zestTurns)
	// 50 * edges / 50 children per turn: a 2, b 1.
	want := []*entry{a, a, b, a, a, b}
	var child []byte
	for i, p := range want {
		child = s.next(child)
		if got := s.lastParent(); got != p {
			t.Fatalf("child %d: parent %q, want %q", i, got.data, p.data)
		}
		if w := mutateZest(&twin, nil, p.data); !bytes.Equal(child, w) {
			t.Fatalf("child %d = %q, want %q (mutateZest of %q with the env's source)", i, child, w, p.data)
		}
	}
	if env.r.s != twin.s {
		t.Errorf("zest drew %d numbers beyond its children", (env.r.s-twin.s)/golden)
	}
}

// TestEIFromEnv: ei built from a strategyEnv makes its guided children
// from the env's queue with one guide the env made (no shared memory:
// execGuided gives it), of the env's size limit, seeded by the env's
// source; each override re-draws one of the parent's draws to a new
// value. Without guides (an executor that cannot run guided executions)
// nextGuide declines without drawing or advancing the turn.
func TestEIFromEnv(t *testing.T) {
	p := recordedEntry([]byte{3, 1, 2, 3, 4, 5, 6, 7, 8}, true)
	if len(p.rec.Draws) != 9 {
		t.Fatalf("parent: %d draws, want 9", len(p.rec.Draws))
	}
	env := &scriptEnv{r: &prng{s: 7}, q: []*entry{p}, edges: 1, max: 100, labels: newSiteKinds()}
	strat, _ := engines["ei"].build(env)
	gs := strat.(guidedStrategy)
	if g := gs.nextGuide(); g != nil || env.r.s != 7 || strat.(*eiTurns).zest.made != 0 {
		t.Fatalf("without guides: guide %v, source moved %v, turn made %d", g != nil, env.r.s != 7, strat.(*eiTurns).zest.made)
	}
	env.guides = true
	byIndex := map[uint64]*param.Draw{}
	for i := range p.rec.Draws {
		byIndex[p.rec.Draws[i].Index] = &p.rec.Draws[i]
	}
	var first *childGuide
	for i := range 50 {
		g := gs.nextGuide()
		if g == nil {
			t.Fatalf("child %d: no guide", i)
		}
		if first == nil {
			first = g
		}
		if g != first || g.parent != p || g.shm != nil || len(g.log) != env.max {
			t.Fatalf("child %d: guide %p (first %p), parent ok %v, shm %v, log %d", i, g, first, g.parent == p, g.shm, len(g.log))
		}
		if g.rng.s != mix64(env.r.s) {
			t.Fatalf("child %d: guide not seeded by the env's last draw", i)
		}
		if len(g.over) == 0 {
			t.Fatalf("child %d: no override", i)
		}
		var seen []uint64
		for _, o := range g.over {
			d := byIndex[o.index]
			if d == nil || slices.Contains(seen, o.index) {
				t.Fatalf("child %d: override at %x: not a parent draw, or twice", i, o.index)
			}
			seen = append(seen, o.index)
			at := *d
			at.Offset = 0
			if at.Decoded(o.bytes) == d.Decoded(p.data) {
				t.Fatalf("child %d: override of draw %x keeps its value", i, o.index)
			}
		}
		gs.executed(g, Outcome{Result: Valid}, nil)
	}
	if env.made != 1 {
		t.Errorf("env made %d guides, want 1", env.made)
	}
}

// TestEnginesBuildFromEnv: every registered engine is built from a
// strategyEnv alone and makes inputs within the env's size limit from the
// env's queue, guided or not.
func TestEnginesBuildFromEnv(t *testing.T) {
	for _, name := range Engines() {
		for _, guides := range []bool{false, true} {
			q := []*entry{
				recordedEntry([]byte{0, 1, 2}, true),
				recordedEntry([]byte{3, 9, 8, 7, 6, 5, 4, 3, 2}, true),
				recordedEntry([]byte{2, 4, 4, 4, 4, 1, 1}, false),
			}
			env := &scriptEnv{r: newPRNG(1), q: q, edges: 3, max: 16, guides: guides,
				dict: [][]byte{[]byte("tok")}, labels: newSiteKinds()}
			strat, fb := engines[name].build(env)
			if a, ok := strat.(*autoTurns); ok {
				a.warm = false // its mutation arms' children, not generation first's alone
			}
			gs, _ := strat.(guidedStrategy)
			var child []byte
			for i := range 300 {
				env.execs = int64(i)
				var g *childGuide
				if gs != nil {
					g = gs.nextGuide()
				}
				if g != nil {
					if g.shm != nil || len(g.log) != env.max {
						t.Fatalf("%s: guide with shm %v, log %d", name, g.shm, len(g.log))
					}
					if g.parent != nil && !slices.Contains(q, g.parent) {
						t.Fatalf("%s: guided child of a parent not in the queue", name)
					}
					env.out = Outcome{Result: Valid, Record: g.parent.recordOrNil(), Consumed: g.drawn()}
					fb.keep(0, true)
					gs.executed(g, env.out, nil)
					continue
				}
				if guides && (name == "ei" || name == "bediv" || name == "rl") {
					t.Fatalf("%s: no guide with a guided executor", name)
				}
				child = strat.next(child)
				if len(child) > env.max {
					t.Fatalf("%s: child of %d bytes, limit %d", name, len(child), env.max)
				}
				env.out = Outcome{Result: Invalid, Consumed: child}
				fb.keep(0, false)
			}
		}
	}
}

// recordOrNil is e's record, nil for no entry (rl's children have no
// parent).
func (e *entry) recordOrNil() *param.Record {
	if e == nil {
		return nil
	}
	return e.rec
}
