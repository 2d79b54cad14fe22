package engine

import (
	"strings"
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// genArgs is a fakeArgs that also generates: a generated child is "gen"
// and the parent it was given.
type genArgs struct {
	fakeArgs
	on bool
}

func (g *genArgs) Generates() bool { return g.on }

func (g *genArgs) GenerateArgs(rand func() uint64, dst, parent []byte, _ int) ([]byte, bool) {
	rand()
	hit(7) // as instrumented standard-library code called by a generator would
	return append(append(dst[:0], "gen:"...), parent...), true
}

// mutEnv is a scriptEnv whose executor's codec gives the mutator mut.
type mutEnv struct {
	*scriptEnv
	mut any
}

func (e mutEnv) argMutation() ArgMutation { return e }

func (e mutEnv) NewArgMutator([][]byte) any { return e.mut }

// TestArgsMix: with a format generator every argsGenEvery-th child is
// generated from the current parent (the probe map cleared after the
// generator ran), the others are mutated; a
// generated child that is saved is queued, trimmed and mutated like any
// input. A mutator whose Generates is false makes the run of a mutator
// without generation.
func TestArgsMix(t *testing.T) {
	env := &scriptEnv{r: newPRNG(1), max: 64}
	env.q = []*entry{{data: []byte("seed")}}
	s := newArgsTurns(mutEnv{env, &genArgs{on: true}})
	if s.gen == nil {
		t.Fatal("args did not take the mutator's generator")
	}
	defer gfzrt.Reset()
	var kinds []string
	for range 3 * argsGenEvery {
		c := string(s.next(nil))
		switch c {
		case "gen:seed":
			if gfzrt.Map[7] != 0 {
				t.Error("the generator's probe hits are left in the map for the child's execution")
			}
			kinds = append(kinds, "g")
		case "seedx":
			kinds = append(kinds, "m")
		default:
			t.Fatalf("child %q", c)
		}
	}
	want := strings.Repeat(strings.Repeat("m", argsGenEvery-1)+"g", 3)
	if got := strings.Join(kinds, ""); got != want {
		t.Errorf("children %s, want %s", got, want)
	}
	// The last generated child is saved: it gets the next turn (no keys
	// recorded: no trimming), its children mutated from it.
	env.q = append(env.q, &entry{data: []byte("gen:seed")})
	if c := string(s.next(nil)); c != "gen:seedx" {
		t.Errorf("child after a generated one was saved: %q, want gen:seedx", c)
	}

	// Generates false: no generated children, and the random source is
	// drawn from as without a generator.
	off := &scriptEnv{r: newPRNG(1), max: 64, q: []*entry{{data: []byte("seed")}}}
	plain := &scriptEnv{r: newPRNG(1), max: 64, q: []*entry{{data: []byte("seed")}}}
	s1, s2 := newArgsTurns(mutEnv{off, &genArgs{}}), newArgsTurns(mutEnv{plain, &fakeArgs{}})
	if s1.gen != nil {
		t.Fatal("args took a generator whose Generates is false")
	}
	for i := range 4 * argsGenEvery {
		if c1, c2 := string(s1.next(nil)), string(s2.next(nil)); c1 != c2 || c1 != "seedx" {
			t.Fatalf("child %d: %q without generation, %q without a generator", i, c1, c2)
		}
	}
	if off.r.next() != plain.r.next() {
		t.Error("a mutator that does not generate changed the random draws")
	}
}

// TestAutoFormatClearsGeneratorHits: auto's format arm, like the args
// engine (TestArgsMix), clears the probe hits of the generator's own run
// (standard-library code, instrumented under -cover) before the child
// executes.
func TestAutoFormatClearsGeneratorHits(t *testing.T) {
	t.Setenv(autoArmsEnv, "format")
	env := &scriptEnv{r: newPRNG(1), max: 32, q: []*entry{{data: []byte("seed")}}}
	s := newAutoTurns(mutEnv{env, &genArgs{on: true}})
	defer gfzrt.Reset()
	gfzrt.Reset()
	s.nextGuide()
	child := s.next(nil)
	if armNames[s.arm] != "format" || string(child) != "gen:seed" {
		t.Fatalf("arm %s, child %q: want a format child", armNames[s.arm], child)
	}
	if gfzrt.Map[7] != 0 {
		t.Errorf("the generator's probe hit (Map[7] = %d) is left for the child's execution", gfzrt.Map[7])
	}
}
