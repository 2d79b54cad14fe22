package engine

import (
	"math"
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
	f := newTestFuzzer(t, "auto", figExec(&vals, true), 3000)
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
	f.loop() // panicked
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
