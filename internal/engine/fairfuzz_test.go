package engine

import (
	"bytes"
	"testing"
)

// TestRarityCutoff: the cut-off is the power of two 2^i with 2^(i-1) <
// min <= 2^i over the edges hit (the thesis's example: min 17, cut-off 32),
// and an input's target is its rarest edge when that edge is rare.
func TestRarityCutoff(t *testing.T) {
	for _, c := range []struct{ min, want uint32 }{{1, 1}, {2, 2}, {3, 4}, {16, 16}, {17, 32}, {1000, 1024}} {
		h := newEdgeHits()
		h.setAll(5, c.min, 9, c.min*3)
		h.refresh()
		if got := h.cutoff(); got != c.want {
			t.Errorf("min %d: cut-off %d, want %d", c.min, got, c.want)
		}
	}
	h := newEdgeHits()
	h.setAll(1, 17, 2, 30, 3, 33, 4, 500)
	h.refresh()
	for _, c := range []struct {
		hit  []uint32
		edge int
		rare bool
	}{
		{[]uint32{4, 2, 3}, 2, true}, // 30 <= 32
		{[]uint32{4, 3}, -1, false},  // rarest 33 > 32
		{[]uint32{1, 4}, 1, true},
		{nil, -1, false},
	} {
		e, ok := h.rareTarget(&entry{hit: c.hit})
		if e != c.edge || ok != c.rare {
			t.Errorf("edges %v: target %d, rare %v; want %d, %v", c.hit, e, ok, c.edge, c.rare)
		}
	}
}

// rareBranch is the rare branch of the mask tests: the parameter bytes
// hold 'G' at offset 2 and 'Z' at offset 5.
func rareBranch(b []byte) bool { return len(b) > 5 && b[2] == 'G' && b[5] == 'Z' }

// TestFairFuzzMaskKeepsRareBranch: the mask of an input for a branch that
// needs two bytes at fixed offsets (Algorithm 6) forbids overwriting those
// two bytes and inserting or deleting before the second, and allows
// everything else; every masked child then still hits the branch, where
// unmasked ones mostly do not.
func TestFairFuzzMaskKeepsRareBranch(t *testing.T) {
	p := &entry{data: []byte("abcdeZghijklmnop")}
	p.data[2] = 'G'
	env := &scriptEnv{r: newPRNG(3), q: []*entry{p}, max: 64}
	fm := newFairMasks(env)
	m := fm.maskFor(p, 7)
	mutants := 0
	for fm.busy() {
		c := fm.probe(nil)
		mutants++
		fm.probed(rareBranch(c))
	}
	if !m.done || fm.made != 1 || mutants != 3*len(p.data) {
		t.Fatalf("mask done %v, masks %d, mutants %d; want done, 1, %d", m.done, fm.made, mutants, 3*len(p.data))
	}
	for i, b := range m.bits {
		want := uint8(maskAll)
		switch {
		case i == 2 || i == 5:
			want = 0 // the branch's bytes: no overwrite, and nothing may shift them
		case i < 6:
			want = maskO // inserting or deleting before offset 6 moves 'Z'
		}
		if b != want {
			t.Errorf("position %d: mask %03b, want %03b", i, b, want)
		}
	}
	if fm.maskFor(p, 7) != m || fm.busy() {
		t.Error("the mask of the same input and edge was computed again")
	}
	lost, lostFree := 0, 0
	var c []byte
	for range 2000 {
		c = fm.child(c, p, m)
		if !rareBranch(c) {
			lost++
		}
		if c = fm.child(c, p, nil); !rareBranch(c) {
			lostFree++
		}
	}
	if lost != 0 {
		t.Errorf("%d of 2000 masked children lost the rare branch, want 0", lost)
	}
	if lostFree < 1000 {
		t.Errorf("only %d of 2000 unmasked children lost the rare branch: the target does not show the mask's effect", lostFree)
	}
}

// TestFairFuzzSkippedMutant: a mutant the loop skips as a zero mutation
// (never reported) counts as hitting the target: it generates the parent's
// input.
func TestFairFuzzSkippedMutant(t *testing.T) {
	p := &entry{data: []byte{1, 2}}
	env := &scriptEnv{r: newPRNG(1), q: []*entry{p}, max: 64}
	fm := newFairMasks(env)
	m := fm.maskFor(p, 0)
	for fm.settle(); fm.busy(); fm.settle() {
		fm.probe(nil) // never reported
	}
	if want := []uint8{maskAll, maskAll}; !bytes.Equal(m.bits, want) {
		t.Errorf("mask %v, want %v", m.bits, want)
	}
}

// TestFairFuzzEngine: the engine runs the loop on the maze, computes masks
// for rare parents (its executions are the loop's), reports them in
// stats, and finds the planted failure.
func TestFairFuzzEngine(t *testing.T) {
	dir := t.TempDir()
	s := run(t, Config{Engine: "fairfuzz", Seed: 2, Runs: 200_000, StopOnFailure: true, Workdir: dir},
		newMaze(mazeKey, mazeMod, mazeValid))
	if s.NewFailures == 0 {
		t.Fatalf("fairfuzz did not find the maze's failure in 200,000 executions")
	}
	st := readStatsFile(t, dir)
	if st["fairfuzz_masks"] == "" || st["fairfuzz_masks"] == "0" || st["fairfuzz_mask_execs"] == "0" {
		t.Errorf("stats: fairfuzz_masks %q, fairfuzz_mask_execs %q; want masks computed", st["fairfuzz_masks"], st["fairfuzz_mask_execs"])
	}
}
