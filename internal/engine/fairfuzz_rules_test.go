package engine

import (
	"bytes"
	"testing"
)

// Rules of fairfuzz (fairfuzz.go) beside those of fairfuzz_test.go: the
// choice of parents, the placement of masked operations, and what a mask
// that allows nothing leads to.

// TestFairFuzzRareParents: the parent search goes round robin over the
// queue and skips every input whose rarest edge is not rare; with no rare
// input it reports none. The cut-off follows the smallest count: a new
// edge hit once makes only edges hit once rare.
func TestFairFuzzRareParents(t *testing.T) {
	a := &entry{data: []byte("a"), hit: []uint32{1, 2}}
	b := &entry{data: []byte("b"), hit: []uint32{2, 3}}
	c := &entry{data: []byte("c"), hit: []uint32{1, 4}}
	d := &entry{data: []byte("d"), hit: []uint32{5}}
	env := &scriptEnv{r: newPRNG(1), q: []*entry{a, b, c, d}, max: 64}
	h := env.hits()
	// min 5: cut-off 8; rarest edges a 5 (edge 1), b 40, c 5 (edge 1), d 9.
	h.setAll(1, 5, 2, 40, 3, 60, 4, 700, 5, 9)
	h.refresh()
	rp := rareParents{env: env}
	var got []string
	for range 4 {
		p, edge, ok := rp.next()
		if !ok || edge != 1 {
			t.Fatalf("rare parent %v, edge %d, ok %v; want a or c with edge 1", p, edge, ok)
		}
		got = append(got, string(p.data))
	}
	if want := "a c a c"; join(got) != want {
		t.Errorf("rare parents %q, want %q (b's and d's rarest edges are not rare)", join(got), want)
	}
	// A new edge hit once (d's edge 5 now has 1 hit): min 1, cut-off 1,
	// so only d is rare.
	h.setAll(5, 1)
	h.refresh()
	if p, edge, ok := rp.next(); !ok || p != d || edge != 5 {
		t.Errorf("after a new edge: parent %v, edge %d; want d, 5", p, edge)
	}
	// An edge hit once by an input no longer queued: cut-off 1, and no
	// queued input's rarest edge is rare.
	h.setAll(5, 9, 6, 1)
	h.refresh()
	if p, _, ok := rp.next(); ok {
		t.Errorf("cut-off 1, every queued input's rarest edge hit 5 times or more: parent %q", p.data)
	}
	// Counts grow: min 40 (edge 2), cut-off 64; a's and b's rarest edge
	// (edge 2, 40) is rare, c's (edge 1 at 100) and d's (900) are not.
	h.setAll(1, 100, 5, 900, 6, 0)
	h.refresh()
	got = got[:0]
	for range 4 {
		if p, edge, ok := rp.next(); ok && edge == 2 {
			got = append(got, string(p.data))
		}
	}
	if g := join(got); g != "a b a b" && g != "b a b a" {
		t.Errorf("min 40, cut-off 64: parents %q, want a and b in turn", g)
	}
	env.q = []*entry{{data: []byte("x")}} // no edges recorded: never rare
	if p, _, ok := rp.next(); ok {
		t.Errorf("an input without edges is a rare parent: %v", p)
	}
}

func join(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	}
	return b.String()
}

// TestFairFuzzPlace: a masked operation's position is drawn among the
// positions whose mask allows its category, each of them, and its run is
// clipped to the allowed positions that follow.
func TestFairFuzzPlace(t *testing.T) {
	fm := newFairMasks(&scriptEnv{r: newPRNG(1), max: 64})
	w := []uint8{0, maskI, maskO, maskO | maskD, maskO, 0, maskO, maskAll}
	r := newPRNG(2)
	seen := map[int]bool{}
	for range 500 {
		at, k := fm.place(r, w, maskO, 10)
		want := map[int]int{2: 3, 3: 2, 4: 1, 6: 2, 7: 1}[at]
		if want == 0 || k != want {
			t.Fatalf("overwrite placed at %d for %d bytes; allowed runs: 2-4 and 6-7", at, k)
		}
		seen[at] = true
	}
	if len(seen) != 5 {
		t.Errorf("overwrite positions drawn %v, want all of 2, 3, 4, 6, 7", seen)
	}
	if at, k := fm.place(r, w, maskD, 4); !(at == 3 && k == 1 || at == 7 && k == 1) {
		t.Errorf("delete placed at %d for %d; want 3 or 7, one byte", at, k)
	}
	fm.listed = false
	if at, k := fm.place(r, []uint8{maskO, maskO}, maskI, 2); k != 0 {
		t.Errorf("insert placed at %d for %d where no position allows it", at, k)
	}
}

// TestFairFuzzMaskAllowsNothing: when every mutant of the mask lost the
// rare edge (the edge needs every byte as it is), the mask is marked none,
// fairfuzz's children of that parent are unmasked (a fully masked child
// could only be the parent itself), and auto stops offering its fairfuzz
// arm for that parent and edge.
func TestFairFuzzMaskAllowsNothing(t *testing.T) {
	p := &entry{data: []byte("needs all"), hit: []uint32{3}}
	env := &scriptEnv{r: newPRNG(4), q: []*entry{p}, max: 64, edges1: map[int]bool{}}
	h := env.hits()
	h.setAll(3, 1)
	h.refresh()
	s := newFairTurns(env)
	var c []byte
	probes := 0
	for {
		c = s.next(c)
		if !s.masks.busy() && s.mask != nil && s.mask.done {
			break
		}
		probes++
		s.found(yield{result: Valid}) // the mutant did not hit edge 3
		if probes > 3*len(p.data)+1 {
			t.Fatalf("the mask is not done after %d mutants", probes)
		}
	}
	if probes != 3*len(p.data) || !s.mask.none {
		t.Fatalf("%d mutants, mask none %v; want %d, true", probes, s.mask.none, 3*len(p.data))
	}
	// c is the first child after the mask: unmasked havoc changes it.
	changed := 0
	for i := range 200 {
		if i > 0 {
			c = s.next(c)
		}
		s.found(yield{result: Valid})
		if !bytes.Equal(c, p.data) {
			changed++
		}
	}
	if changed < 190 {
		t.Errorf("%d of 200 children of a parent whose mask allows nothing differ from it; want unmasked children", changed)
	}
	if c := s.masks.child(nil, p, s.mask); !bytes.Equal(c, p.data) {
		t.Errorf("a child under the mask allowing nothing is %q, not the parent: the control cannot tell", c)
	}

	a := newAutoTurns(env)
	if a.available(p)&(1<<armFair) == 0 {
		t.Fatal("auto does not offer fairfuzz for a parent whose rarest edge is rare")
	}
	a.fm.masks[p] = &fairMask{edge: 3, done: true, none: true}
	a.infoP = nil
	a.info[p].rareAt, a.info[p].checkAt = -1, -1 // as if the arms were checked again
	if a.available(p)&(1<<armFair) != 0 {
		t.Error("auto offers fairfuzz for a parent whose mask for that edge allows nothing")
	}
	a.fm.masks[p] = &fairMask{edge: 9, done: true, none: true} // another edge's mask
	a.info[p].rareAt, a.info[p].checkAt = -1, -1
	if a.available(p)&(1<<armFair) == 0 {
		t.Error("auto refuses fairfuzz because of another edge's mask")
	}
}
