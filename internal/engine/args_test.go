package engine

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// fakeArgs is an ArgMutator for the strategy's tests: a child is its
// parent plus "x" (the parents are recorded), and trimming cuts the tail
// one byte at a time.
type fakeArgs struct{ parents []string }

func (f *fakeArgs) MutateArgs(_ func() uint64, dst, parent []byte, _, _ int, _ func() []byte) []byte {
	f.parents = append(f.parents, string(parent))
	return append(append(dst[:0], parent...), 'x')
}

func (f *fakeArgs) TrimArgs(data []byte, budget int) any {
	return &tailTrim{cur: bytes.Clone(data), budget: budget}
}

type tailTrim struct {
	cur, cand []byte
	budget    int
	done      bool // a cut was not kept
}

func (t *tailTrim) Next() ([]byte, bool) {
	if len(t.cur) <= 1 || t.budget == 0 || t.done {
		return nil, false
	}
	t.budget--
	t.cand = t.cur[:len(t.cur)-1]
	return t.cand, true
}

func (t *tailTrim) Kept(kept bool) {
	if kept {
		t.cur = t.cand
	}
	t.done = !kept
}

func (t *tailTrim) Current() []byte { return t.cur }

// TestArgsSchedule: a turn of args ends at the first child saved; the
// saved input is trimmed before its turn, a candidate kept iff its
// execution covers every key the input was queued for (not its other
// keys), and its children are made from the trimmed form; then the pass
// goes on, argsTurn children a turn.
func TestArgsSchedule(t *testing.T) {
	env, s, _ := fakeArgsTurns("seed")
	fb := &argsFeedback{classicFeedback: classicFeedback{owners: owners{}}, t: s}
	fb.credit(env.q, 0, &merged{keys: []uint32{1 * 8}}) // the seed owns edge 1

	for range 3 {
		if c := s.next(nil); string(c) != "seedx" {
			t.Fatalf("child %q, want seedx", c)
		}
	}
	// The third child is saved for edge 2 (new) and edge 1 (the seed's).
	env.q = append(env.q, &entry{data: []byte("seedxyz")})
	fb.credit(env.q, 1, &merged{keys: []uint32{1 * 8, 2 * 8}})
	// Trimming: the execution of a candidate covers edge 2 while it is
	// at least 5 bytes long, edge 1 always.
	var tried []string
	for {
		c := s.next(nil)
		if !s.trying {
			if string(c) != "seedxx" {
				t.Fatalf("first child after trimming %q, want seedxx (the trimmed seedx plus x)", c)
			}
			break
		}
		tried = append(tried, string(c))
		gfzrt.Reset()
		hit(1)
		if len(c) >= 5 {
			hit(2)
		}
		fb.keep(0, true)
	}
	if got := strings.Join(tried, ","); got != "seedxy,seedx,seed" {
		t.Errorf("trimming candidates %s, want seedxy,seedx,seed", got)
	}
	if string(s.data[1]) != "seedx" || string(env.q[1].data) != "seedxyz" {
		t.Errorf("trimmed parent %q (queue entry %q), want seedx (seedxyz)", s.data[1], env.q[1].data)
	}
	// The rest of the trimmed input's turn, then the seed's.
	for range argsTurn - 1 {
		s.next(nil)
	}
	if c := s.next(nil); string(c) != "seedx" {
		t.Errorf("after the new input's turn: child %q, want the seed's (seedx)", c)
	}
	gfzrt.Reset()
}

// fakeArgsTurns returns an args strategy with fakeArgs for its mutator,
// on a queue of the seeds.
func fakeArgsTurns(seeds ...string) (*scriptEnv, *argsTurns, *fakeArgs) {
	env := &scriptEnv{r: newPRNG(1), max: 64}
	s := newArgsTurns(env)
	fake := &fakeArgs{}
	s.mut = fake
	for _, d := range seeds {
		env.q = append(env.q, &entry{data: []byte(d)})
	}
	return env, s, fake
}

// TestArgsPassOrder: parents take their turns in passes over the queue,
// first in first out, as go test -fuzz's input queue: an input saved
// joins the end of the pass under way (it does not take the next turn),
// a turn cut short by a save is not resumed, and an empty pass is
// refilled with every queue entry in order.
func TestArgsPassOrder(t *testing.T) {
	env, s, fake := fakeArgsTurns("A", "B", "C")
	var turns []string
	turn := func(children int) {
		for range children {
			s.next(nil)
		}
		turns = append(turns, fake.parents[len(fake.parents)-1])
	}
	turn(2) // A's turn; its second child is saved (D, no keys: not trimmed)
	env.q = append(env.q, &entry{data: []byte("D")})
	for range 7 {
		turn(argsTurn)
	}
	if got, want := strings.Join(turns, ","), "A,B,C,D,A,B,C,D"; got != want {
		t.Errorf("turns %s, want %s", got, want)
	}
}

// TestArgsPassNotStarved: while every child is saved, each turn is one
// child long, and the seeds still get their turns in the first pass (a
// schedule that gave each new input the next turn would stay with the
// newest inputs and never reach B).
func TestArgsPassNotStarved(t *testing.T) {
	env, s, fake := fakeArgsTurns("A", "B", "C")
	var seeds []string
	for i := 1; i <= 20; i++ {
		s.next(nil)
		if p := fake.parents[len(fake.parents)-1]; len(p) == 1 { // a seed's child
			seeds = append(seeds, p)
		}
		env.q = append(env.q, &entry{data: []byte(fmt.Sprintf("n%d", i))}) // every child saved
	}
	if got := strings.Join(seeds, ","); got != "A,B,C" {
		t.Errorf("the seeds' turns in 20 executions: %s, want A,B,C", got)
	}
}

// TestCoversKeys: a key is an edge's class bit under the AFL
// classification, read from the live map.
func TestCoversKeys(t *testing.T) {
	defer gfzrt.Reset()
	gfzrt.Reset()
	hit(5)
	hit(9)
	hit(9)
	hit(9) // 3 hits: class bit 2
	if !coversKeys(&aflClasses, []uint32{5 * 8, 9*8 + 2}) {
		t.Error("edge 5 once and edge 9 three times: keys not covered")
	}
	if coversKeys(&aflClasses, []uint32{9 * 8}) || coversKeys(&aflClasses, []uint32{6 * 8}) {
		t.Error("edge 9's one-hit class, or edge 6, reported covered")
	}
	if gfzrt.Map[9] != 3 {
		t.Fatal("hit does not count in gfzrt.Map")
	}
}

// TestArgsRawBytes: on an executor without typed arguments (a gfz
// target) args edits and trims the parameter sequence as one []byte: a
// trimmed input keeps the bytes its keys need.
func TestArgsRawBytes(t *testing.T) {
	m := rawArgs{newPRNG(1)}
	tr := m.TrimArgs([]byte("xxAyyyyyyyyyy"), 100).(ArgTrimmer)
	for {
		c, ok := tr.Next()
		if !ok {
			break
		}
		tr.Kept(bytes.Contains(c, []byte("A")))
	}
	if string(tr.Current()) != "A" {
		t.Errorf("trimmed to %q, want A", tr.Current())
	}
	sum, err := Run(context.Background(), Config{Engine: "args", Seed: 3, Runs: 20_000, StopOnFailure: true, Workdir: t.TempDir()},
		newMaze(mazeKey, mazeMod, mazeValid))
	if err != nil {
		t.Fatal(err)
	}
	if sum.NewFailures != 1 {
		t.Errorf("args on the maze (a gfz-like executor): no failure in %d executions", sum.Execs)
	}
}

// argsCodec is a codec whose inputs are one []byte argument mutated by a
// fakeArgs.
type argsCodec struct{ workdir.BytesCodec }

func (argsCodec) NewArgMutator([][]byte) any { return &fakeArgs{} }

type argsExec struct{ trivialExec }

func (argsExec) Codec() workdir.Codec { return argsCodec{} }

// TestArgsRuns: with an executor whose codec mutates arguments, args
// runs and saves what adds coverage.
func TestArgsRuns(t *testing.T) {
	ex := &argsExec{trivialExec{src: param.New(nil, 0)}}
	sum, err := Run(context.Background(), Config{Engine: "args", Runs: 50, Workdir: t.TempDir(), Seeds: [][]byte{{0}}, Timeout: NoTimeout}, ex)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Execs != 50 || sum.Corpus < 1 {
		t.Errorf("summary %+v", sum)
	}
}
