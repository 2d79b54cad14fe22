package engine

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// grimArgs is a fakeArgs that generalises: a generalisation removes the
// input's bytes from the front one at a time (while kept), and a
// recombined child is "g:" and its parent, once a generalisation has
// ended (the pool is then not empty).
type grimArgs struct {
	fakeArgs
	enabled bool
	gens    []string // inputs generalised, as given
	done    int      // generalisations ended
}

func (g *grimArgs) EnableGrimoire(int) { g.enabled = true }

func (g *grimArgs) GeneralizeArgs(data []byte, budget int) any {
	g.gens = append(g.gens, string(data))
	return &headTrim{g: g, cur: bytes.Clone(data), budget: budget}
}

func (g *grimArgs) GrimoireArgs(rand func() uint64, dst, parent []byte, _ int) ([]byte, bool) {
	if g.done == 0 {
		return nil, false
	}
	rand()
	return append(append(dst[:0], "g:"...), parent...), true
}

func (g *grimArgs) Generalized() int { return g.done }

type headTrim struct {
	g         *grimArgs
	cur, cand []byte
	budget    int
	stop      bool
	ended     bool
}

func (t *headTrim) Next() ([]byte, bool) {
	if len(t.cur) <= 1 || t.budget == 0 || t.stop {
		if !t.ended {
			t.ended = true
			t.g.done++
		}
		return nil, false
	}
	t.budget--
	t.cand = t.cur[1:]
	return t.cand, true
}

func (t *headTrim) Kept(kept bool) {
	if kept {
		t.cur = t.cand
	}
	t.stop = !kept
}

func (t *headTrim) Current() []byte { return t.cur }

// grimEnv is a mutEnv whose configuration says whether to generalise.
type grimEnv struct {
	mutEnv
	on, restart bool
}

func (e grimEnv) grimoireOn() bool { return e.on }
func (e grimEnv) restarted() bool  { return e.restart }

// TestArgsGrimoire pins args' rules with generalisation on: the seeds are
// generalised first, each with the keys it brought (a candidate kept iff
// its execution covers them all), and their children's parent stays the
// seed as given; once a generalisation has ended, every argsGrimEvery-th
// child is recombined (the others mutated); an input saved later is
// trimmed, then its trimmed form generalised with the same keys, and its
// children are made from the generalised form. The stats count the
// executions of generalisation, the recombined children and those saved.
func TestArgsGrimoire(t *testing.T) {
	defer gfzrt.Reset()
	env := &scriptEnv{r: newPRNG(1), max: 64}
	env.q = []*entry{{data: []byte("xyseed")}}
	fake := &grimArgs{}
	s := newArgsTurns(grimEnv{mutEnv{env, fake}, true, false})
	if s.grim == nil || !fake.enabled {
		t.Fatal("args with Config.Grimoire did not enable the mutator's generalisation")
	}
	fb := &argsFeedback{classicFeedback: classicFeedback{owners: owners{}}, t: s}
	fb.credit(env.q, 0, &merged{keys: []uint32{3 * 8}}) // the seed brought edge 3
	// Candidates cover edge 3 while they still hold "seed".
	run := func(c []byte) {
		gfzrt.Reset()
		if bytes.Contains(c, []byte("seed")) {
			hit(3)
		}
		if bytes.Contains(c, []byte("NEW")) {
			hit(4)
		}
		fb.keep(0, true)
	}
	var tried []string
	for {
		c := s.next(nil)
		if !s.trying {
			if string(c) != "xyseedx" {
				t.Fatalf("first child after the seed's generalisation %q, want xyseedx (the seed as given)", c)
			}
			break
		}
		tried = append(tried, string(c))
		run(c)
	}
	if got := strings.Join(tried, ","); got != "yseed,seed,eed" {
		t.Errorf("the seed's generalisation candidates %s, want yseed,seed,eed", got)
	}
	// Children: the first was mutated; every argsGrimEvery-th recombined.
	var kinds []string
	for range 2*argsGrimEvery - 1 {
		switch c := string(s.next(nil)); c {
		case "xyseedx":
			kinds = append(kinds, "m")
		case "g:xyseed":
			kinds = append(kinds, "g")
		default:
			t.Fatalf("child %q", c)
		}
	}
	want := strings.Repeat(strings.Repeat("m", argsGrimEvery-1)+"g", 2)
	if got := "m" + strings.Join(kinds, ""); got != want {
		t.Errorf("children %s, want %s", got, want)
	}
	// The recombined child is saved for edges 4 (new) and 3 (the
	// seed's): its trimming and generalisation keep edge 4.
	env.q = append(env.q, &entry{data: []byte("g:xyseedNEW")})
	fb.credit(env.q, 1, &merged{keys: []uint32{3 * 8, 4 * 8}})
	tried = tried[:0]
	for {
		c := s.next(nil)
		if !s.trying {
			if string(c) != "NEWx" {
				t.Fatalf("first child of the saved input %q, want NEWx (trimmed, then generalised)", c)
			}
			break
		}
		tried = append(tried, string(c))
		run(c)
	}
	// Trimming cuts the tail (g:xyseedNE loses edge 4), generalisation
	// the head of the trimmed form.
	if got := strings.Join(tried, ","); got != "g:xyseedNE,:xyseedNEW,xyseedNEW,yseedNEW,seedNEW,eedNEW,edNEW,dNEW,NEW,EW" {
		t.Errorf("candidates %s", got)
	}
	if len(fake.gens) != 2 || fake.gens[1] != "g:xyseedNEW" {
		t.Errorf("generalised %q, want the seed and the trimmed input", fake.gens)
	}
	var st []string
	argsStrategy(s).(reportingStrategy).stats(func(k string, v any) { st = append(st, fmt.Sprintf("%s=%v", k, v)) })
	if got := strings.Join(st, " "); got != "grimoire_generalized=2 grimoire_execs=12 grimoire_children=2 grimoire_saved=1" {
		t.Errorf("stats %s", got)
	}
}

// TestArgsGrimoireOff: without Config.Grimoire (or with a mutator that
// cannot generalise) args makes exactly the run it makes without
// generalisation: the same children and the same random draws, and its
// strategy has no stats.
func TestArgsGrimoireOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		on   bool
		mut  ArgMutator
	}{{"off", false, &grimArgs{}}, {"no generalizer", true, &fakeArgs{}}} {
		off := &scriptEnv{r: newPRNG(1), max: 64, q: []*entry{{data: []byte("seed")}}}
		plain := &scriptEnv{r: newPRNG(1), max: 64, q: []*entry{{data: []byte("seed")}}}
		s1 := newArgsTurns(grimEnv{mutEnv{off, tc.mut}, tc.on, false})
		s2 := newArgsTurns(mutEnv{plain, &fakeArgs{}})
		if s1.grim != nil {
			t.Fatalf("%s: args generalises", tc.name)
		}
		if g, ok := tc.mut.(*grimArgs); ok && g.enabled {
			t.Fatalf("%s: the mutator's generalisation was enabled", tc.name)
		}
		fb := &argsFeedback{classicFeedback: classicFeedback{owners: owners{}}, t: s1}
		fb.credit(off.q, 0, &merged{keys: []uint32{3 * 8}})
		for i := range 4 * argsGrimEvery {
			if c1, c2 := string(s1.next(nil)), string(s2.next(nil)); c1 != c2 || c1 != "seedx" {
				t.Fatalf("%s: child %d: %q, %q without a generalizer", tc.name, i, c1, c2)
			}
		}
		if off.r.next() != plain.r.next() {
			t.Errorf("%s: the random draws changed", tc.name)
		}
		if _, ok := argsStrategy(s1).(reportingStrategy); ok {
			t.Errorf("%s: args without generalisation reports stats", tc.name)
		}
	}
}

// TestArgsGrimoireSeedCap: of the seeds (and resumed inputs) that brought
// keys, only the first argsGrimSeeds are generalised at the start.
func TestArgsGrimoireSeedCap(t *testing.T) {
	defer gfzrt.Reset()
	env := &scriptEnv{r: newPRNG(1), max: 64}
	fake := &grimArgs{}
	s := newArgsTurns(grimEnv{mutEnv{env, fake}, true, false})
	fb := &argsFeedback{classicFeedback: classicFeedback{owners: owners{}}, t: s}
	for i := range argsGrimSeeds + 10 {
		env.q = append(env.q, &entry{data: []byte(fmt.Sprintf("seed%d", i))})
		fb.credit(env.q, i, &merged{keys: []uint32{uint32(8 * (i + 1))}})
	}
	for {
		s.next(nil)
		if !s.trying {
			break
		}
		gfzrt.Reset()
		fb.keep(0, true) // no key covered: each generalisation ends after one candidate
	}
	if len(fake.gens) != argsGrimSeeds || fake.gens[0] != "seed0" || fake.gens[argsGrimSeeds-1] != fmt.Sprintf("seed%d", argsGrimSeeds-1) {
		t.Errorf("%d seeds generalised (first %q), want the first %d", len(fake.gens), fake.gens[0], argsGrimSeeds)
	}
}

// TestArgsGrimoireRestarted: a restarted worker (Config.Restarted) does not
// generalise its seeds (the corpus its dead predecessor replayed and
// generalised, in the same order: a candidate that killed it would kill
// this one at the same execution); it generalises what it saves.
func TestArgsGrimoireRestarted(t *testing.T) {
	defer gfzrt.Reset()
	env := &scriptEnv{r: newPRNG(1), max: 64, q: []*entry{{data: []byte("xyseed")}}}
	fake := &grimArgs{}
	s := newArgsTurns(grimEnv{mutEnv{env, fake}, true, true})
	fb := &argsFeedback{classicFeedback: classicFeedback{owners: owners{}}, t: s}
	fb.credit(env.q, 0, &merged{keys: []uint32{3 * 8}})
	if c := s.next(nil); s.trying || string(c) != "xyseedx" {
		t.Fatalf("first child of a restarted worker %q (a candidate: %v), want xyseedx", c, s.trying)
	}
	env.q = append(env.q, &entry{data: []byte("xyseedNEW")})
	fb.credit(env.q, 1, &merged{keys: []uint32{4 * 8}})
	for s.next(nil) != nil && s.trying {
		gfzrt.Reset()
		fb.keep(0, true)
	}
	if len(fake.gens) != 1 || fake.gens[0] == "xyseed" {
		t.Errorf("a restarted worker generalised %q, want only the input it saved", fake.gens)
	}
}
