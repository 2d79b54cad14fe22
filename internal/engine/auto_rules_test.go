package engine

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// Rules of the adaptive engine that a review of its code found broken
// (2026-11-28); each case fails with the rule broken.

// TestAutoRareFallbackCredit: a rare turn that finds no rare parent is a
// turn of the round robin, credited to turns (decision and executions),
// not a decision of rare's with no execution.
func TestAutoRareFallbackCredit(t *testing.T) {
	s, _ := autoScript(t, 1, 20000, func(i, arm int) bool { return arm == armBytes })
	b := s.sched
	if b.chosen[schedRare] > 0 && b.execs[schedRare] == 0 {
		t.Errorf("rare chosen %d times but credited no execution: its turns' executions went to turns", b.chosen[schedRare])
	}
}

// TestAutoSeedsRecorded: the inputs queued before the loop (seeds) get
// their records when it starts, so they are zeugma donors and offer the
// guided arms (a record made later, for a parent, came after both were
// computed and never reached them).
func TestAutoSeedsRecorded(t *testing.T) {
	var vals []figVal
	f := newTestFuzzer(t, "auto", figExec(&vals, true), 20000)
	f.cfg.NoRecheck = false
	f.cfg.Seeds = [][]byte{
		{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0},
		{6, 1, 7, 0, 1, 8, 0, 0, 0},
		{9, 0, 1, 2, 1, 3, 0, 0, 0},
		{4, 1, 5, 1, 6, 0, 0, 0, 0},
	}
	f.init()
	nseeds := len(f.queue)
	f.loop()
	s := f.strat.(*autoTurns)
	if s.warm {
		t.Fatalf("generation first has not ended in %d executions", f.execs)
	}
	indexed := map[int32]bool{}
	for _, d := range s.zg.index {
		for _, r := range d.refs {
			indexed[r.entry] = true
		}
	}
	for i := range nseeds {
		if e := f.queue[i]; e.rec != nil && len(e.rec.Spans) > 0 && !indexed[int32(i)] {
			t.Errorf("seed %d has spans but is not a zeugma donor", i)
		}
	}
	// A single seed and no coverage (the queue never grows): the guided
	// arms are offered for it.
	vals = nil
	g := newTestFuzzer(t, "auto", figExec(&vals, false), 3000)
	g.cfg.Seeds = f.cfg.Seeds[:1]
	g.init()
	g.strat.(*autoTurns).warm = false // the arms offered, not generation first
	g.loop()
	a := g.strat.(*autoTurns)
	if p := g.queue[0]; p.rec == nil || !hasChoice(p.rec) {
		t.Fatal("the seed has no record with choices")
	}
	if a.ops.chosen[armEI]+a.ops.chosen[armStruct]+a.ops.chosen[armValue] == 0 {
		t.Errorf("ei, struct and value never chosen in %d executions for a seed with choices", g.execs)
	}
}

// TestAutoRecordPastData: a record that does not fit its input (a target
// that draws more on a replay) is not kept, rather than guiding children
// to draws past the data (a slice out of range in the loop).
func TestAutoRecordPastData(t *testing.T) {
	calls := 0
	ex := newSrcExec(func(s *param.Source) Outcome {
		calls++
		n := 8
		if calls > 2 {
			n = 12 // a replay draws more than the first execution did
		}
		for range n {
			hit(int(s.Uintn(256, param.Value) % 64))
		}
		return Outcome{Result: Valid}
	})
	f := newTestFuzzer(t, "auto", ex, 5000)
	f.cfg.NoRecheck = false
	f.cfg.Seeds = [][]byte{{1, 2, 3, 4, 5, 6, 7, 8}}
	f.init()
	f.strat.(*autoTurns).warm = false // guided children, which generation first does not make
	f.loop()                          // panicked
	for i, e := range f.queue {
		if e.rec != nil && len(e.rec.Draws) > 0 && !recordFits(e.rec, len(e.data)) {
			t.Errorf("entry %d: a record past its %d bytes", i, len(e.data))
		}
	}
}

// TestAutoDropsDrawIndex: a parent's draw index (entry.byIndex, as big as
// its record) is dropped when its turn ends, as ei drops it.
func TestAutoDropsDrawIndex(t *testing.T) {
	var vals []figVal
	f := newTestFuzzer(t, "auto", figExec(&vals, true), 20000)
	f.cfg.Seeds = [][]byte{{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0}}
	f.init()
	f.loop()
	s := f.strat.(*autoTurns)
	for i, e := range f.queue {
		if e.byIndex != nil && e != s.parent {
			t.Errorf("entry %d keeps its draw index after its turn", i)
		}
	}
}

// TestEdgeHitsSaturatePaths: the fast schedule's path counts saturate (a
// wrapped count would make the most exercised path look new), and the
// rarity cut-off stays above every count once the smallest passes 2^31.
func TestEdgeHitsSaturatePaths(t *testing.T) {
	h := newEdgeHits()
	c := &coverage{trace: 12345}
	h.paths[c.trace&(1<<pathSlotBits-1)] = math.MaxUint32
	h.observe(c)
	if got := h.path(c.trace); got != math.MaxUint32 {
		t.Errorf("path count after 2^32 executions: %d", got)
	}
	h.min = 1<<31 + 1
	if got := h.cutoff(); got != math.MaxUint32 {
		t.Errorf("cut-off %d for the smallest count %d", got, h.min)
	}
}

// TestAutoRewardDomainOnlySave: an input saved for a feedback domain
// alone (the coverage feedback would not keep it) is rewarded 0.5 and
// counted in saved_<domain> only, even when it adds a valid class (the
// save reason +valid made it 1 and counted it twice).
func TestAutoRewardDomainOnlySave(t *testing.T) {
	d := &testDomain{}
	registerTestDomain(t, d)
	ex := scripted{
		1: {Valid, map[int]int{10: 1}},   // +cov, valid
		2: {Valid, map[int]int{10: 1}},   // nothing new
		3: {Invalid, map[int]int{10: 2}}, // new class in total: +count
		4: {Valid, map[int]int{10: 2}},   // class 2 of edge 10 is in total, new in valid only: newValidKey
	}
	f := newTestFuzzer(t, "auto", ex, 0)
	f.cfg.Feedback = []string{"test"}
	if err := f.setDomains(); err != nil {
		t.Fatal(err)
	}
	for _, b := range []byte{1, 3} {
		if f.feed(b) == nil {
			t.Fatalf("%d not saved", b)
		}
	}
	before := f.savedBy
	nf := len(f.newFailures)
	out := f.exec([]byte{4}) // first byte 4 > best 3: the test domain keeps it
	e := f.handle(out, false)
	if e == nil {
		t.Fatal("4 not saved")
	}
	y := f.yieldOf(out, e, nf)
	if rewardOf(y) != 0.5 {
		t.Errorf("a save for the domain alone rewarded %g, want 0.5", rewardOf(y))
	}
	if f.savedBy != before {
		t.Errorf("a save for the domain alone counted as a coverage save: saved by reason %v, before %v", f.savedBy, before)
	}
}

// TestEdgeHitsRarestSkipsUncounted: an input's edge that no counted
// execution hit (its stability recheck's alone) is not its rarest edge.
func TestEdgeHitsRarestSkipsUncounted(t *testing.T) {
	h := newEdgeHits()
	h.setAll(10, 0, 11, 3, 12, 5)
	if e, n := h.rarest([]uint32{10, 11, 12}); e != 11 || n != 3 {
		t.Errorf("rarest: edge %d (%d hits), want 11 (3)", e, n)
	}
	if e, _ := h.rarest([]uint32{10}); e != -1 {
		t.Errorf("rarest of an uncounted edge alone: %d, want -1 (none)", e)
	}
}

// TestAutoGenerateShare: half of the children are fresh random generation
// made outside the bandits, whatever they learn (here the bandit learns
// that bytes pays and random does not, and gives random little of its
// decisions); those children are credited to the random arm's executions,
// not to a parent arm, and do not count towards a turn; without the random
// arm (GFZ_AUTO_ARMS) there is no share.
func TestAutoGenerateShare(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		const n = 20000
		s, arms := autoScript(t, seed, n, func(i, arm int) bool { return arm == armBytes })
		gen, random := 0, 0
		for _, a := range arms {
			switch a {
			case -1:
				gen++
			case armRandom:
				random++
			}
		}
		if share := float64(gen) / n; share < 0.48 || share > 0.52 {
			t.Errorf("seed %d: the generation share made %.3f of the children, want 1/2", seed, share)
		}
		if int64(gen) != s.generated {
			t.Errorf("seed %d: %d children of the share, counted %d", seed, gen, s.generated)
		}
		// The bandit learned that random does not pay: little of its own.
		if d := float64(random) / float64(n-gen); d > 0.1 {
			t.Errorf("seed %d: random has %.3f of the bandit's decisions while it never pays; want little", seed, d)
		}
		if got := s.ops.execs[armRandom]; got != int64(gen+random) {
			t.Errorf("seed %d: random credited with %d executions, want its decisions' %d and the share's %d", seed, got, random, gen)
		}
		var sched int64
		for _, e := range s.sched.execs {
			sched += e
		}
		if sched != int64(n-gen) {
			t.Errorf("seed %d: the parent arms were credited %d executions, want the %d children with a parent", seed, sched, n-gen)
		}
		// No mask here: each decision costs its one execution, the share's
		// children between two decisions not counted in it.
		for i, name := range s.ops.names {
			if s.ops.dn[i] > 1 {
				if c := s.ops.dcost[i] / s.ops.dn[i]; c < 0.99 || c > 1.01 {
					t.Errorf("seed %d: %s's cost per decision %.3f, want 1", seed, name, c)
				}
			}
		}
	}

	// A share child the loop skips (a killer input) is no decision: no arm
	// is charged for it, and it is not counted.
	{
		env := &scriptEnv{r: newPRNG(4), q: []*entry{{data: []byte("parent"), edges: 2}}, edges: 4, max: 32}
		s := newAutoTurns(env)
		var child []byte
		skipped := 0
		for range 2000 {
			if child = s.next(child); s.generate {
				skipped++
				continue // skipped: found is not called
			}
			s.found(yield{result: Valid})
		}
		for i, name := range s.ops.names {
			if s.ops.zero[i] != 0 {
				t.Errorf("%s charged %d zero mutations; %d share children were skipped, none by the bandit's", name, s.ops.zero[i], skipped)
			}
		}
		if skipped == 0 || s.generated != 0 {
			t.Errorf("%d share children skipped, %d counted as executed; want some skipped, none counted", skipped, s.generated)
		}
	}

	// A fairfuzz mask's mutants come first: no share child while it is
	// being made.
	{
		p := &entry{data: bytes.Repeat([]byte{7}, 40), edges: 2, hit: []uint32{1, 2}}
		env := &scriptEnv{r: newPRNG(1), q: []*entry{p}, edges: 2, max: 64, edges1: map[int]bool{1: true}}
		h := env.hits()
		h.setAll(1, 1, 2, 1000) // edge 1 is rare
		h.refresh()
		s := newAutoTurns(env)
		s.restrict(1<<armFair|1<<armRandom, s.schedMask)
		s.warm = false
		var child []byte
		inMask := 0
		for range 2000 {
			busy := s.fm.busy()
			child = s.next(child)
			if busy {
				inMask++
				if s.generate {
					t.Fatal("a share child while a mask was being made")
				}
			}
			s.found(yield{result: Valid})
		}
		if inMask < 3*len(p.data)-1 {
			t.Errorf("%d children while a mask was being made, want a whole mask's (%d)", inMask, 3*len(p.data))
		}
	}

	// The turn counts only its parent's children.
	env := &scriptEnv{r: newPRNG(4), q: []*entry{{data: []byte("parent"), edges: 2}}, edges: 4, max: 32}
	s := newAutoTurns(env)
	var child []byte
	made := 0
	for range 200 {
		child = s.next(child)
		if !s.generate {
			made++
		}
		s.found(yield{result: Valid})
		if s.made > made {
			t.Fatalf("the turn counts %d children, %d were its parent's", s.made, made)
		}
		if s.made < made {
			made = s.made // a new turn started
		}
	}

	s = newAutoTurns(env)
	s.restrict(1<<armZest|1<<armBytes, 1<<schedTurns)
	for range 2000 {
		child = s.next(child)
		if s.generate || s.arm == armRandom {
			t.Fatal("a random child with the random arm left out")
		}
		s.found(yield{result: Valid})
	}
}

// TestBanditCreditOutside: an execution no decision made counts in the
// arm's posterior and totals, not in the cost of the decision in flight.
func TestBanditCreditOutside(t *testing.T) {
	b := newBandit("a", "b")
	r := newPRNG(1)
	if b.choose(r, 1) != 0 {
		t.Fatal("arm a not chosen")
	}
	b.credit(0, 0)
	b.creditOutside(1, 1)
	b.creditOutside(1, 0)
	if b.spent != 1 {
		t.Errorf("the decision in flight cost %g executions, want its own 1", b.spent)
	}
	if b.execs[1] != 2 || b.finds[1] != 1 || b.s[1] == 0 || b.f[1] != 1 || b.chosen[1] != 0 {
		t.Errorf("arm b: execs %d finds %d s %g f %g chosen %d; want 2, 1, >0, 1, 0", b.execs[1], b.finds[1], b.s[1], b.f[1], b.chosen[1])
	}
}

// TestAutoGenerationFirst pins generation first: every child is fresh
// generation, with no bandit decision, until generation's children have
// gone max(autoWarmMin, n) executions without a new edge or a new valid
// edge (n: their number at the last one; a new hit-count class alone does
// not count); then the share and the bandits, for good; never on a native
// target nor without the random arm or "first" in GFZ_AUTO_ARMS.
func TestAutoGenerationFirst(t *testing.T) {
	q := []*entry{recordedEntry([]byte{0, 1, 2, 3, 4, 5}, true), recordedEntry([]byte{3, 9, 8, 7, 6, 5, 4}, true)}
	for _, e := range q {
		e.hit = []uint32{1, 2}
	}
	// drive makes n children, the k-th paying what pay says (0: nothing),
	// and returns how many were made outside the bandits.
	drive := func(s *autoTurns, env *scriptEnv, n int, pay func(k int) novelty) (gen int) {
		var child []byte
		for k := range n {
			env.execs++
			if g := s.nextGuide(); g != nil {
				out := Outcome{Result: Valid, Record: g.parent.rec, Consumed: g.drawn()}
				s.executed(g, out, nil)
			} else {
				child = s.next(child)
			}
			if s.generate {
				gen++
			}
			y := yield{result: Valid}
			if nv := pay(k); nv != 0 {
				y.queued, y.novelty = q[0], nv
			}
			s.found(y)
		}
		return gen
	}
	newAuto := func() (*autoTurns, *scriptEnv) {
		env := &scriptEnv{r: newPRNG(1), q: q, edges: 3, max: 32, guides: true, labels: newSiteKinds()}
		s := newAutoTurns(env)
		env.hits().setAll(1, 1000, 2, 1000)
		return s, env
	}
	for _, c := range []struct {
		name string
		last int // the child (0-based) of generation's last new edge; -1: none
		nv   novelty
		end  int64 // children of generation first
	}{
		{"no new edge", -1, 0, autoWarmMin},
		{"last new edge early", 99, newEdge, 100 + autoWarmMin},
		{"last new edge late", 49_999, newEdge | newKey, 100_000},
		{"a new valid edge counts", 19_999, newValidEdge, 40_000},
		{"a new count does not", 19_999, newKey | newValidKey, autoWarmMin},
	} {
		s, env := newAuto()
		pay := func(k int) novelty {
			if k <= c.last && k%100 == c.last%100 {
				return c.nv
			}
			return 0
		}
		if gen := drive(s, env, int(c.end-1), pay); gen != int(c.end-1) || !s.warm {
			t.Errorf("%s: %d of the first %d children generated, generation first on: %v; want all, on", c.name, gen, c.end-1, s.warm)
		}
		if d, p := s.ops.chosen, s.sched.chosen; sum64(d)+sum64(p) != 0 || s.parent != nil {
			t.Errorf("%s: bandit decisions during generation first: operators %v, parents %v (a parent: %v)", c.name, d, p, s.parent != nil)
		}
		drive(s, env, 1, pay)
		if s.warm || s.warmEnd != c.end {
			t.Errorf("%s: generation first on %v, ended after %d children; want off after %d", c.name, s.warm, s.warmEnd, c.end)
		}
		// Then the share (half) and the bandits, for good: new edges
		// from generation do not bring it back.
		const n = 20_000
		gen := drive(s, env, n, func(int) novelty { return newEdge })
		if share := float64(gen) / n; share < 0.48 || share > 0.52 || s.warm {
			t.Errorf("%s: after generation first, the share made %.3f of the children (on again: %v), want 1/2", c.name, share, s.warm)
		}
		st := map[string]any{}
		s.stats(func(k string, v any) { st[k] = v })
		if st["arm_random_first"] != c.end || st["arm_random_first_ended"] != 1 {
			t.Errorf("%s: stats arm_random_first %v, _ended %v; want %d, 1", c.name, st["arm_random_first"], st["arm_random_first_ended"], c.end)
		}
	}

	// A worker replacing a dead one whose generation first had ended
	// (the slot's file: arm_random_first_ended) does not start it again;
	// one whose predecessor had not ended it does.
	for _, ended := range []int64{0, 1} {
		env := &scriptEnv{r: newPRNG(1), q: q, edges: 3, max: 32, guides: true, labels: newSiteKinds()}
		s := newAutoTurns(inheritEnv{env, map[string]int64{"arm_random_first_ended": ended}})
		env.hits().setAll(1, 1000, 2, 1000)
		gen := drive(s, env, 1000, func(int) novelty { return 0 })
		if want := ended == 0; s.warm != want || (gen == 1000) != want {
			t.Errorf("predecessor ended %d: generation first on %v, %d of 1000 children generated", ended, s.warm, gen)
		}
		st := map[string]any{}
		s.stats(func(k string, v any) { st[k] = v })
		if ended == 1 && (st["arm_random_first"] != int64(0) || st["arm_random_first_ended"] != 0) {
			t.Errorf("inherited end: own arm_random_first %v, _ended %v; want 0, 0 (the dead worker's are added)", st["arm_random_first"], st["arm_random_first_ended"])
		}
	}

	// A worker replacing a dead one during generation first goes on with
	// the slot's count: its predecessors made 30,000 children, the last
	// new edge at the 20,000th, so the plateau (a gap of 20,000) comes
	// after 10,000 more, or, after a new edge at its 100th, a gap of
	// 30,100 after that. The slot's last new edge is in its stats, less
	// what the predecessors left.
	for _, c := range []struct {
		find, end, last int64 // this worker's new edge (-1: none), its children at the end, own arm_random_first_last
	}{{-1, 10_000, 0}, {99, 100 + 30_100, 10_100}} {
		env := &scriptEnv{r: newPRNG(1), q: q, edges: 3, max: 32, guides: true, labels: newSiteKinds()}
		s := newAutoTurns(inheritEnv{env, map[string]int64{"arm_random_first": 30_000, "arm_random_first_last": 20_000}})
		env.hits().setAll(1, 1000, 2, 1000)
		pay := func(k int) novelty {
			if int64(k) == c.find {
				return newEdge
			}
			return 0
		}
		if gen := drive(s, env, int(c.end-1), pay); gen != int(c.end-1) || !s.warm {
			t.Errorf("inherited, new edge at %d: %d of the first %d children generated, generation first on: %v; want all, on", c.find, gen, c.end-1, s.warm)
		}
		drive(s, env, 1, pay)
		if s.warm || s.warmEnd != c.end {
			t.Errorf("inherited, new edge at %d: generation first on %v, ended after %d children; want off after %d", c.find, s.warm, s.warmEnd, c.end)
		}
		st := map[string]any{}
		s.stats(func(k string, v any) { st[k] = v })
		if st["arm_random_first_last"] != c.last {
			t.Errorf("inherited, new edge at %d: own arm_random_first_last %v, want %d", c.find, st["arm_random_first_last"], c.last)
		}
	}

	// GFZ_AUTO_FIRST_MAX caps it even while generation finds new edges
	// (one every 100 children here), counting the slot's children.
	t.Setenv(autoFirstMaxEnv, "5000")
	for _, base := range []int64{0, 3000} {
		env := &scriptEnv{r: newPRNG(1), q: q, edges: 3, max: 32, guides: true, labels: newSiteKinds()}
		s := newAutoTurns(inheritEnv{env, map[string]int64{"arm_random_first": base, "arm_random_first_last": base}})
		env.hits().setAll(1, 1000, 2, 1000)
		pay := func(k int) novelty {
			if k%100 == 0 {
				return newEdge
			}
			return 0
		}
		end := 5000 - base
		if gen := drive(s, env, int(end-1), pay); gen != int(end-1) || !s.warm {
			t.Errorf("capped, %d inherited: %d of the first %d children generated, generation first on: %v; want all, on", base, gen, end-1, s.warm)
		}
		drive(s, env, 1, pay)
		if s.warm || s.warmEnd != end {
			t.Errorf("capped, %d inherited: generation first on %v, ended after %d children; want off after %d", base, s.warm, s.warmEnd, end)
		}
	}
	t.Setenv(autoFirstMaxEnv, "")

	// Not on a native target (random arguments are not a generator's),
	// nor without the random arm, nor when GFZ_AUTO_ARMS leaves out "first".
	env := &scriptEnv{r: newPRNG(1), max: 32, q: []*entry{{data: []byte("seed")}}}
	if s := newAutoTurns(mutEnv{env, &randArgs{}}); s.warm {
		t.Error("generation first on a native target")
	}
	s, _ := newAuto()
	if !s.warm {
		t.Fatal("generation first off by default")
	}
	if s.restrict(1<<armZest|1<<armBytes, s.schedMask); s.warm {
		t.Error("generation first without the random arm")
	}
	t.Setenv(autoArmsEnv, "zest,random")
	if s, _ := newAuto(); s.warm {
		t.Error("generation first when GFZ_AUTO_ARMS does not name it")
	}
	t.Setenv(autoArmsEnv, "zest,random,first")
	if s, _ := newAuto(); !s.warm {
		t.Error("generation first named in GFZ_AUTO_ARMS and off")
	}
}

// inheritEnv is a strategyEnv whose slot's dead workers left the
// summed keys of left (loopView.inherited).
type inheritEnv struct {
	strategyEnv
	left map[string]int64
}

func (e inheritEnv) inherited(key string) int64 { return e.left[key] }

func sum64(v []int64) (n int64) {
	for _, x := range v {
		n += x
	}
	return n
}

// TestAutoShareByCost pins the generation share's split: half of the cost
// (bytes read plus autoCostBase), not half of the executions; generation
// first's children do not count.
func TestAutoShareByCost(t *testing.T) {
	const genBytes, mutBytes = 10, 100
	for seed := int64(1); seed <= 3; seed++ {
		env := &scriptEnv{r: newPRNG(seed), q: []*entry{{data: bytes.Repeat([]byte{3}, mutBytes), edges: 2}}, edges: 4, max: 256}
		s := newAutoTurns(env)
		s.restrict(1<<armZest|1<<armRandom, s.schedMask)
		// Generation first's children: counted as generated, not as cost.
		s.warm = true
		var child []byte
		for range 500 {
			child = s.next(child)
			if !s.generate {
				t.Fatal("a bandit child during generation first")
			}
			s.found(yield{result: Valid, consumed: genBytes})
		}
		if s.genCost != 0 || s.mutCost != 0 {
			t.Fatalf("seed %d: generation first's children cost %d and %d, want no cost counted", seed, s.genCost, s.mutCost)
		}
		s.warm = false
		const n = 20000
		gen := 0
		for range n {
			child = s.next(child)
			c := mutBytes
			if s.generate {
				gen, c = gen+1, genBytes
			}
			s.found(yield{result: Valid, consumed: c})
		}
		// Equal cost: gen*(10+32) = (n-gen)*(100+32), gen/n = 132/174.
		want := float64(mutBytes+autoCostBase) / float64(genBytes+mutBytes+2*autoCostBase)
		if share := float64(gen) / n; share < want-0.01 || share > want+0.01 {
			t.Errorf("seed %d: generation made %.3f of the children, want %.3f (half of the cost)", seed, share, want)
		}
		if d := s.genCost - s.mutCost; d < -autoCost(mutBytes) || d > autoCost(genBytes) {
			t.Errorf("seed %d: generation cost %d, the bandits' %d: apart by more than one child", seed, s.genCost, s.mutCost)
		}
	}
}

// TestAutoEnergyBySize pins the size factor of a turn's children: the
// queue's mean cost over the parent's, clamped to [0.1, 3], at least one
// child where Zest's formula gave one.
func TestAutoEnergyBySize(t *testing.T) {
	sized := func(n int) *entry { return &entry{data: make([]byte, n), edges: 2} }
	// Costs 8+32 = 40, 88+32 = 120, 168+32 = 200: mean 120.
	q := []*entry{sized(8), sized(88), sized(168)}
	s := newAutoTurns(&scriptEnv{r: newPRNG(1), q: q, edges: 4, max: 256})
	for i, want := range []float64{3, 1, 0.6} {
		if f := s.sizeFactor(q[i]); f < want-1e-9 || f > want+1e-9 {
			t.Errorf("size factor of a %d-byte parent: %v, want %v", len(q[i].data), f, want)
		}
	}
	// The clamps: a parent 20 times the mean cost gets a tenth, one of
	// 3.75 times less (an empty one: cost 32) three times.
	if f := s.sizeFactor(sized(20*120 - 32)); f != autoEnergyMin {
		t.Errorf("size factor of a parent 20x the mean: %v, want %v", f, autoEnergyMin)
	}
	if f := s.sizeFactor(sized(0)); f != autoEnergyMax {
		t.Errorf("size factor of an empty parent (mean over its cost 3.75): %v, want %v", f, autoEnergyMax)
	}
	// The queue's growth moves the mean.
	s.env.(*scriptEnv).q = append(q, sized(488)) // cost 520: mean 220
	if f := s.sizeFactor(q[1]); f < 220.0/120-1e-9 || f > 220.0/120+1e-9 {
		t.Errorf("size factor after the queue grew: %v, want %v", f, 220.0/120)
	}
	for _, c := range []struct {
		n    int
		f    float64
		want int
	}{{50, 0.5, 25}, {50, 3, 150}, {3, 0.1, 1}, {0, 3, 0}, {5, 0.3, 2}} {
		if got := scaleEnergy(c.n, c.f); got != c.want {
			t.Errorf("scaleEnergy(%d, %v) = %d, want %d", c.n, c.f, got, c.want)
		}
	}

	// In a run: Zest's turns give two favored parents of the same edges
	// (1,000 children each by Zest's formula) children in the inverse
	// ratio of their costs.
	small, large := &entry{data: make([]byte, 8), edges: 4, resp: 1}, &entry{data: make([]byte, 88), edges: 4, resp: 1}
	env := &scriptEnv{r: newPRNG(2), q: []*entry{small, large}, edges: 4, max: 256}
	a := newAutoTurns(env)
	a.restrict(1<<armZest, 1<<schedTurns)
	kids := map[*entry]int{}
	var child []byte
	for range 40000 {
		child = a.next(child)
		kids[a.parent]++
		a.found(yield{result: Valid, consumed: len(a.parent.data)})
	}
	// Mean cost (40+120)/2 = 80: factors 2 and 2/3, so 3 to 1.
	if r := float64(kids[small]) / float64(kids[large]); r < 2.9 || r > 3.1 {
		t.Errorf("children of the small and large parents %d:%d (%.2f), want 3:1", kids[small], kids[large], r)
	}

	// The fast and rare schedules' turns are scaled too: the first turn of
	// each parent (fast: 2^0 / f with f = 1; both not favored, 50 * 4/4 =
	// 50 children unscaled) gets 100 and 33.
	for _, sch := range []int{schedFast, schedRare} {
		small, large := &entry{data: make([]byte, 8), edges: 4, trace: 7, hit: []uint32{1}}, &entry{data: make([]byte, 88), edges: 4, trace: 7, hit: []uint32{1}}
		env := &scriptEnv{r: newPRNG(3), q: []*entry{small, large}, edges: 4, max: 256}
		env.hits().paths[7] = 1
		env.hits().setAll(1, 1, 2, 1000) // edge 1 rare
		env.hits().refresh()
		a := newAutoTurns(env)
		a.restrict(1<<armZest, 1<<sch)
		first := map[*entry]int{}
		for range 50 {
			a.startTurn()
			if a.sch != sch {
				t.Fatalf("parent arm %s, only %s allowed", schedNames[a.sch], schedNames[sch])
			}
			if _, ok := first[a.parent]; !ok {
				first[a.parent] = a.turnTarget()
			}
		}
		if first[small] != 100 || first[large] != 33 {
			t.Errorf("%s: first turns of the small and large parents %d and %d children, want 100 and 33", schedNames[sch], first[small], first[large])
		}
	}
}

// TestAutoShareByCostInLoop pins that the loop hands auto each execution's
// bytes read: the two costs of a real run are bytes plus autoCostBase per
// child (not autoCostBase alone) and stay within one child of each other.
func TestAutoShareByCostInLoop(t *testing.T) {
	autoWithoutFirst(t)
	dir := t.TempDir()
	run(t, Config{Engine: "auto", Seed: 3, Runs: 20_000, Workdir: dir}, newMaze(mazeKey, mazeMod, mazeValid))
	st := readStatsFile(t, dir)
	num := func(k string) int64 {
		v, err := strconv.ParseInt(st[k], 10, 64)
		if err != nil {
			t.Fatalf("stats %s: %q", k, st[k])
		}
		return v
	}
	gen, genCost, mutCost := num("arm_random_share"), num("arm_random_share_cost"), num("arm_bandits_cost")
	if gen == 0 || genCost <= autoCostBase*gen {
		t.Errorf("%d share children cost %d: want more than %d a child (the bytes they read)", gen, genCost, autoCostBase)
	}
	if d := genCost - mutCost; d < -autoCost(param.DefaultMaxSize) || d > autoCost(param.DefaultMaxSize) {
		t.Errorf("share cost %d, the bandits' %d: apart by more than one child", genCost, mutCost)
	}
}

// TestAutoPausesHitsWhileGenerationFirst pins that the loop does not count
// an execution's edges and path (edgeHits) while auto's generation first
// lasts, and counts them once it has ended; fairfuzz, which has no
// generation first, always counts.
func TestAutoPausesHitsWhileGenerationFirst(t *testing.T) {
	ex := scripted{1: {Valid, map[int]int{10: 1, 20: 1}}, 2: {Valid, map[int]int{10: 1}}}
	f := newTestFuzzer(t, "auto", ex, 100)
	s := f.strat.(*autoTurns)
	if !s.warm {
		t.Fatal("auto without generation first at the start")
	}
	for range 3 {
		f.feed(1)
		f.feed(2)
	}
	if f.hits.seen != 0 || f.hits.count(10) != 0 || f.hits.paths[f.cov.trace&(1<<pathSlotBits-1)] != 0 {
		t.Errorf("during generation first: %d executions counted, edge 10 %d times; want none", f.hits.seen, f.hits.count(10))
	}
	s.warm = false // generation first ended
	for range 3 {
		f.feed(1)
		f.feed(2)
	}
	if f.hits.seen != 6 || f.hits.count(10) != 6 || f.hits.count(20) != 3 {
		t.Errorf("after generation first: %d executions counted, edges 10 and 20 %d and %d times; want 6, 6, 3", f.hits.seen, f.hits.count(10), f.hits.count(20))
	}
	ff := newTestFuzzer(t, "fairfuzz", ex, 100)
	ff.feed(1)
	if ff.hits.seen != 1 || ff.hits.count(20) != 1 {
		t.Errorf("fairfuzz: %d executions counted, edge 20 %d times; want 1 and 1", ff.hits.seen, ff.hits.count(20))
	}
}

// TestAutoDefersRecordsWhileGenerationFirst pins that auto keeps no
// records and indexes no donors while generation first lasts (nothing
// reads them then), that the inputs queued meanwhile are zeugma's donors
// once it has ended, and that the deferral changes nothing of a run: with
// the pause off, the same seed queues the same inputs and makes the same
// decisions.
func TestAutoDefersRecordsWhileGenerationFirst(t *testing.T) {
	var vals []figVal
	f := newTestFuzzer(t, "auto", figExec(&vals, true), 0)
	f.cfg.NoRecheck = false
	f.init()
	f.startMetrics()
	s := f.strat.(*autoTurns)
	if !s.warm {
		t.Fatal("auto without generation first at the start")
	}
	inputs := [][]byte{
		{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0},
		{6, 1, 7, 0, 1, 8, 0, 0, 0},
		{9, 0, 1, 2, 1, 3, 0, 0, 0},
	}
	for i, in := range inputs {
		e := f.handle(f.exec(in), true)
		if e == nil {
			t.Fatalf("input %d not queued", i)
		}
		if e.rec != nil {
			t.Errorf("input %d queued during generation first keeps a record", i)
		}
	}
	if s.zg.indexed != 0 || len(s.zg.index) != 0 {
		t.Errorf("during generation first: %d inputs indexed, %d donor keys; want none", s.zg.indexed, len(s.zg.index))
	}
	s.endFirst() // generation first ended
	s.advance()
	if s.zg.indexed != len(f.queue) {
		t.Fatalf("after generation first: %d of %d inputs indexed", s.zg.indexed, len(f.queue))
	}
	donor := map[int32]bool{}
	for _, d := range s.zg.index {
		for _, r := range d.refs {
			donor[r.entry] = true
		}
	}
	for i, e := range f.queue {
		if rec := f.peekRecord(e); rec != nil && len(rec.Spans) > 0 && !donor[int32(i)] {
			t.Errorf("entry %d, queued during generation first, is not a donor", i)
		}
	}
	e := f.handle(f.exec([]byte{2, 1, 3, 1, 3, 1, 3, 0, 0, 0, 0, 0}), true)
	if e == nil || e.rec == nil || s.zg.indexed != len(f.queue) {
		t.Errorf("an input queued after generation first: queued %v, record kept %v, %d of %d indexed",
			e != nil, e != nil && e.rec != nil, s.zg.indexed, len(f.queue))
	}

	// The same run with the pause off. The arms and parent arms that read
	// the counts of hits (also paused) are left out.
	t.Setenv(autoArmsEnv, "first,zest,bytes,ei,struct,value,zeugma,random,turns")
	type result struct {
		queue  []string
		chosen []int64
		warm   int64
		execs  int64
	}
	runOnce := func(pause bool) result {
		var vals []figVal
		f := newTestFuzzer(t, "auto", figExec(&vals, true), 30000)
		f.cfg.NoRecheck = false
		f.cfg.Seeds = inputs[:1]
		f.init()
		if !pause {
			f.pauser = nil
		}
		f.loop()
		s := f.strat.(*autoTurns)
		var r result
		for _, e := range f.queue {
			r.queue = append(r.queue, string(e.data))
		}
		r.chosen = append(append(r.chosen, s.ops.chosen...), s.sched.chosen...)
		r.warm, r.execs = s.warmEnd, f.execs
		return r
	}
	on, off := runOnce(true), runOnce(false)
	if on.warm == 0 || on.warm >= on.execs-5000 {
		t.Fatalf("generation first ended after %d of %d executions: want it to end with 5,000 left", on.warm, on.execs)
	}
	if !reflect.DeepEqual(on, off) {
		t.Errorf("with the pause: %d queued, arms chosen %v, generation first %d; without: %d, %v, %d",
			len(on.queue), on.chosen, on.warm, len(off.queue), off.chosen, off.warm)
	}
}
