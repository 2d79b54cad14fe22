package engine

import (
	"math/bits"
	"slices"
)

// The engine "fairfuzz": FairFuzz (Lemieux and Sen, ASE 2018; Lemieux's
// thesis, chapter 5, Algorithms 5 and 6) on parameter sequences.
//
//   - Rare branches. numHits[b] is the number of executions (VALID or
//     INVALID: every generated input that ran to its end) that hit edge b
//     (a byte of the probe map). With min the smallest numHits of any edge
//     hit so far, the rarity cut-off is the power of two 2^i with 2^(i-1)
//     < min <= 2^i; an edge is rare if numHits[b] <= cut-off. The rarest
//     edge of a queued input is the edge of its saved execution with the
//     fewest hits.
//   - Parents. The queue is visited round robin, and an input is a parent
//     only if its rarest edge is rare (fuzzProb = 1, else 0). While no
//     input qualifies (the first executions, when every edge is young) the
//     next input is a parent without a mask: the thesis's one round of
//     ordinary fuzzing that establishes numHits. A parent gets Zest's
//     number of children (zestChildren, at least one).
//   - Mutation mask (Algorithm 6). For each byte position i of the parent
//     (at most fairMaskMax of them), three mutants are executed: the byte
//     flipped (XOR 0xff), a random byte inserted at i, the byte deleted.
//     A mutant that still hits the target edge marks i overwritable (O),
//     insertable (I) or deletable (D). The mask of a (parent, target) pair
//     is computed once and kept; the mutants are ordinary executions of
//     the loop (counted, checked, saved when they add coverage), so a mask
//     costs 3 executions a byte, fewer when a mutant is a zero mutation
//     (the loop skips it: it would generate the parent's input, so it hits
//     the target and the position is marked).
//   - Masked mutation (havoc with okToMutate): a child is a stack of 1, 2,
//     4 or 8 operations (as AFL's stacked havoc, with the three categories
//     the mask knows): overwrite a run of Geometric(mean 4) random bytes
//     (6 in 10), insert 1-4 random bytes (2 in 10), delete 1-4 bytes (2 in
//     10). The position is drawn uniformly among the positions whose mask
//     allows the category; a run is clipped to the allowed positions that
//     follow it; with no allowed position the operation is skipped and
//     another drawn (at most 4 draws per operation of the stack, so that
//     a child is a zero mutation only when the mask allows almost
//     nothing). A parent whose mask allows nothing at all (its rare edge
//     needs every byte as it is) gets unmasked children. The
//     mask follows the child's bytes through inserts (an inserted byte is
//     not mutated again in the same child) and deletes. Positions past
//     fairMaskMax allow everything (not measured).
//   - Feedback: Zest's (zestFeedback), unchanged, as FairFuzz changes only
//     what is mutated.
//
// The adaptive engine (auto.go) uses the same parts: the rare schedule for
// parents and the masked child as one of its arms.

const (
	fairMaskMax  = 1024 // positions of a parent a mask measures
	fairScanMax  = 64   // queued inputs a search for a rare parent looks at
	hitsRefresh  = 1 << 14
	pathSlotBits = 16 // path frequency table (the fast schedule): 2^16 counters
)

// Mask categories.
const (
	maskO   = 1 << iota // the byte may be overwritten
	maskI               // a byte may be inserted before it
	maskD               // it may be deleted
	maskAll = maskO | maskI | maskD
)

// hitEdges returns the edges (map bytes) the execution last checked hit,
// appended to dst.
func (c *coverage) hitEdges(dst []uint32) []uint32 {
	m := liveMap()
	for _, j := range c.words {
		j &= mapWords - 1
		for f := byteFlags(m[j]); f != 0; f &= f - 1 {
			dst = append(dst, uint32(int(j)*8+bits.TrailingZeros64(f)/8))
		}
	}
	return dst
}

// fairMask is the mutation mask of a parent for a target edge.
type fairMask struct {
	edge int
	bits []uint8 // per position of the parent (at most fairMaskMax)
	done bool
	none bool // done, and no position allows anything: the edge needs every byte
}

// fairMasks computes and applies mutation masks. It makes the mask's
// mutants one at a time (probe) and learns each one's result (probed);
// a mutant the loop skipped as a zero mutation (never probed) counts as
// hitting the target.
type fairMasks struct {
	env   strategyEnv
	masks map[*entry]*fairMask

	// The mask being computed: its parent, the next mutant (position
	// pos, category cat), and whether a mutant is out (made, not yet
	// reported).
	job      *fairMask
	jobP     *entry
	pos, cat int
	out      bool

	work   []uint8    // the mask following a child's bytes
	ok     [3][]int32 // the positions of work allowing each category (place)
	listed bool       // ok is up to date

	made, probes int64 // masks completed, mutants made
}

func newFairMasks(env strategyEnv) *fairMasks {
	return &fairMasks{env: env, masks: map[*entry]*fairMask{}}
}

// maskFor returns p's mask for edge, starting its computation when there
// is none (the next probes are its mutants); a mask is done when
// m.done.
func (fm *fairMasks) maskFor(p *entry, edge int) *fairMask {
	if m := fm.masks[p]; m != nil && m.edge == edge {
		return m
	}
	m := &fairMask{edge: edge, bits: make([]uint8, min(len(p.data), fairMaskMax))}
	fm.masks[p] = m
	fm.job, fm.jobP, fm.pos, fm.cat, fm.out = m, p, 0, 0, false
	if len(m.bits) == 0 {
		fm.finish()
	}
	return m
}

// busy reports whether a mask is being computed (probe makes its next
// mutant).
func (fm *fairMasks) busy() bool { return fm.job != nil }

// settle takes a mutant still out (made, never reported) as skipped by the
// loop as a zero mutation: it generates the parent's input, so it hits the
// target. Call it before deciding what to make next (busy may change).
func (fm *fairMasks) settle() {
	if fm.out {
		fm.probed(true)
	}
}

// probe makes the next mutant of the mask being computed (busy, settled)
// into dst's storage.
func (fm *fairMasks) probe(dst []byte) []byte {
	p := fm.jobP.data
	i := fm.pos
	dst = dst[:0]
	switch fm.cat {
	case 0: // overwrite: flip the byte
		dst = append(dst, p...)
		dst[i] ^= 0xff
	case 1: // insert a random byte before it
		if len(p) >= fm.env.maxSize() {
			dst = append(dst, p...) // no room: the parent itself (a zero mutation)
			break
		}
		dst = append(dst, p[:i]...)
		dst = append(dst, byte(fm.env.rand().next()))
		dst = append(dst, p[i:]...)
	default: // delete it
		dst = append(dst, p[:i]...)
		dst = append(dst, p[i+1:]...)
	}
	fm.out = true
	fm.probes++
	return dst
}

// probed reports whether the mutant last made hit the target edge, and
// moves to the next one.
func (fm *fairMasks) probed(hit bool) {
	if !fm.out || fm.job == nil {
		return
	}
	fm.out = false
	if hit {
		fm.job.bits[fm.pos] |= 1 << fm.cat
	}
	if fm.cat++; fm.cat == 3 {
		fm.cat = 0
		if fm.pos++; fm.pos == len(fm.job.bits) {
			fm.finish()
		}
	}
}

func (fm *fairMasks) finish() {
	fm.job.done = true
	fm.job.none = len(fm.job.bits) > 0 && !slices.ContainsFunc(fm.job.bits, func(b uint8) bool { return b != 0 })
	fm.job, fm.jobP = nil, nil
	fm.made++
}

// child writes into dst a child of p made by masked havoc with mask m (nil
// or not done: no mask, every position allowed).
func (fm *fairMasks) child(dst []byte, p *entry, m *fairMask) []byte {
	r := fm.env.rand()
	max := fm.env.maxSize()
	dst = append(dst[:0], p.data...)
	w := fm.work[:0]
	for i := range p.data {
		b := uint8(maskAll)
		if m != nil && m.done && i < len(m.bits) {
			b = m.bits[i]
		}
		w = append(w, b)
	}
	fm.listed = false
	ops := 1 << r.below(4)
	for done, tries := 0, 0; done < ops && tries < 4*ops; tries++ {
		x := r.next()
		kind := int(x % 10) // 0-5 overwrite, 6-7 insert, 8-9 delete
		switch {
		case kind < 6:
			if len(dst) == 0 {
				continue
			}
			n := geoRunLength.sample32(uint32(x>>32), r)
			at, k := fm.place(r, w, maskO, n)
			if k == 0 {
				continue
			}
			r.fill(dst[at : at+k])
			done++
		case kind < 8:
			n := 1 + int(x>>8&3)
			if room := max - len(dst); n > room {
				n = room
			}
			if n <= 0 {
				continue
			}
			var at, k int
			if len(dst) == 0 {
				at, k = 0, n
			} else if at, k = fm.place(r, w, maskI, n); k == 0 {
				continue
			}
			var ins [4]byte
			r.fill(ins[:k])
			dst = append(dst, ins[:k]...) // grow by k, then open the gap
			copy(dst[at+k:], dst[at:len(dst)-k])
			copy(dst[at:], ins[:k])
			w = append(w, 0, 0, 0, 0)[:len(w)+k]
			copy(w[at+k:], w[at:len(w)-k])
			clear(w[at : at+k]) // inserted bytes: not mutated again in this child
			fm.listed = false
			done++
		default:
			if len(dst) < 2 {
				continue
			}
			n := 1 + int(x>>8&3)
			at, k := fm.place(r, w, maskD, min(n, len(dst)-1))
			if k == 0 {
				continue
			}
			dst = append(dst[:at], dst[at+k:]...)
			w = append(w[:at], w[at+k:]...)
			fm.listed = false
			done++
		}
	}
	fm.work = w
	return dst
}

// place draws a position whose mask w allows category c, uniformly among
// them, and returns it with the run length from it: n clipped to the
// allowed positions that follow (0: no position allows c). The positions
// allowing each category are listed once per child and listed again after
// an insert or a delete (fm.listed false).
func (fm *fairMasks) place(r *prng, w []uint8, c uint8, n int) (int, int) {
	if !fm.listed {
		fm.listed = true
		for k := range fm.ok {
			fm.ok[k] = fm.ok[k][:0]
		}
		for i, b := range w {
			for k := range fm.ok {
				if b&(1<<k) != 0 {
					fm.ok[k] = append(fm.ok[k], int32(i))
				}
			}
		}
	}
	ok := fm.ok[bits.TrailingZeros8(c)]
	if len(ok) == 0 {
		return 0, 0
	}
	at := int(ok[r.below(len(ok))])
	k := 0
	for k < n && at+k < len(w) && w[at+k]&c != 0 {
		k++
	}
	return at, k
}

// rareParents visits the queue round robin for parents whose rarest edge
// is rare (FairFuzz's input selection), looking at no more than
// fairScanMax inputs per call.
type rareParents struct {
	env strategyEnv
	qi  int // the next input to look at
}

// next returns the next parent hitting a rare edge and the edge, or ok
// false when none of the inputs looked at does (the caller then takes a
// parent of its own).
func (rp *rareParents) next() (p *entry, edge int, ok bool) {
	q := rp.env.queue()
	h := rp.env.hits()
	for range min(len(q), fairScanMax) {
		e := q[rp.qi%len(q)]
		rp.qi = (rp.qi + 1) % len(q)
		if edge, ok := h.rareTarget(e); ok {
			return e, edge, true
		}
	}
	return nil, -1, false
}

// fairTurns is the fairfuzz strategy.
type fairTurns struct {
	env   strategyEnv
	rare  rareParents
	masks *fairMasks
	rr    int // round robin when no input hits a rare edge

	parent *entry
	mask   *fairMask
	left   int // children left in the turn
}

func newFairTurns(env strategyEnv) *fairTurns {
	return &fairTurns{env: env, rare: rareParents{env: env}, masks: newFairMasks(env)}
}

func (s *fairTurns) next(dst []byte) []byte {
	s.masks.settle()
	if s.masks.busy() {
		return s.masks.probe(dst)
	}
	if s.left <= 0 {
		s.turn()
		if s.masks.busy() {
			return s.masks.probe(dst)
		}
	}
	s.left--
	m := s.mask
	if m != nil && m.none {
		m = nil
	}
	return s.masks.child(dst, s.parent, m)
}

// turn starts the next parent's turn: a rare parent with its mask (being
// computed), or the next input unmasked when none is rare.
func (s *fairTurns) turn() {
	if p, edge, ok := s.rare.next(); ok {
		s.parent = p
		s.mask = s.masks.maskFor(p, edge)
	} else {
		q := s.env.queue()
		s.rr %= len(q)
		s.parent, s.mask = q[s.rr], nil
		s.rr++
	}
	s.left = max(zestChildren(s.parent, s.env.totalEdges()), 1)
}

func (s *fairTurns) lastParent() *entry {
	if s.masks.busy() {
		return s.masks.jobP
	}
	return s.parent
}

// found reports a mask mutant's result (whether it hit the target edge:
// a failing mutant did not).
func (s *fairTurns) found(y yield) {
	if s.masks.busy() && s.masks.out {
		s.masks.probed((y.result == Valid || y.result == Invalid) && s.env.lastHit(s.masks.job.edge))
	}
}

func (s *fairTurns) stats(kv func(string, any)) {
	kv("fairfuzz_masks", s.masks.made)
	kv("fairfuzz_mask_execs", s.masks.probes)
	kv("fairfuzz_cutoff", s.env.hits().cutoff())
}
