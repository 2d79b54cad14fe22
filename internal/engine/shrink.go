package engine

import (
	"bytes"
	"time"

	"github.com/gfz-dev/gfz/param"
)

// Shrinking a failing input: a choice-level shrinker over parameter
// sequences, after Hypothesis's shrinker of choice sequences (MacIver and
// Donaldson, "Test-Case Reduction via Test-Case Generation", ECOOP 2020).
// The input is a byte sequence the generators decode; the record of an
// execution (param.Record) says which bytes each generator call (span) and
// each draw consumed. The shrinker proposes simpler sequences and keeps one
// only if it fails with the same signature. Simpler is shortlex order on
// the bytes read: shorter, then lexicographically smaller; a draw lowered
// numerically (its other bytes unchanged) also counts as simpler, since a
// multi-byte draw is little-endian. Every candidate run is counted against
// the bounds, and no candidate is run twice.

// Default shrink bounds (the fuzz binary's -shrinktime and -shrinkruns).
const (
	// DefaultShrinkTime matches go test's -fuzzminimizetime default (60s).
	DefaultShrinkTime = 60 * time.Second
	// DefaultShrinkRuns bounds the candidate executions of one in-process
	// shrink. The failures of the examples and fixtures shrink to their
	// fixpoint in a few hundred executions (docs/BENCHMARKS.md,
	// "Shrinking"), so 10,000 leaves a wide margin while keeping a shrink
	// short (10,000 executions of a 1 ms target: 10 s) and, unlike a time
	// bound, deterministic.
	DefaultShrinkRuns = 10_000
	// DefaultDeathShrinkRuns bounds the candidates of a failure that kills
	// the process: each runs in a new -repro process (tens of
	// milliseconds, more for a hang, which only ends at the timeout).
	DefaultDeathShrinkRuns = 100
)

// shrinkExt is the extension seed of every candidate execution: constant,
// so that a shrink depends only on its input (and the bounds).
const shrinkExt uint64 = 0x5eed5a1e

// shrinkProbe runs a candidate. same reports whether it failed with the
// signature being shrunk; consumed is what it read (the sequence to keep,
// trimmed), rec its record or nil. Both may alias executor storage until
// the next call.
type shrinkProbe func(cand []byte) (same bool, consumed []byte, rec *param.Record)

// shrinkBounds limits one shrink. A zero Runs or Time disables shrinking;
// stop, when set, ends it early (the run was interrupted).
type shrinkBounds struct {
	Runs int64
	Time time.Duration
	stop func() bool
}

func (b shrinkBounds) enabled() bool { return b.Runs > 0 && b.Time > 0 }

// shrinkResult describes a finished shrink.
type shrinkResult struct {
	Input          []byte // the shrunk sequence (the original when nothing was smaller)
	Record         *param.Record
	OrigLen, Len   int // bytes before and after
	OrigChoices    int // draws before (-1: unknown, no record)
	Choices        int // draws after (-1: unknown)
	Execs          int64
	Took           time.Duration
	Accepted       int    // candidates kept
	Stopped        string // why it ended before its fixpoint ("" if it reached it)
	NotReproducing bool   // the original did not fail the same way again: nothing was shrunk
	orig           []byte
}

// Shrunk reports whether the result is smaller than the original.
func (r *shrinkResult) Shrunk() bool {
	return r != nil && !r.NotReproducing && !bytes.Equal(r.Input, r.orig)
}

type shrinker struct {
	probe  shrinkProbe
	bounds shrinkBounds
	start  time.Time
	best   []byte
	rec    *param.Record // record of best, or nil
	execs  int64
	kept   int
	tried  map[uint64]struct{}
	halted string
	buf    []byte
	args   ArgShrinker // a native target's argument passes and order, or nil
}

// shrink reduces input, a sequence that fails with the probe's signature,
// to a fixpoint of the passes or until the bounds are spent. It first runs
// input itself: if that does not fail the same way, nothing is shrunk.
func shrink(input []byte, probe shrinkProbe, bounds shrinkBounds) *shrinkResult {
	return shrinkWith(input, probe, bounds, nil)
}

// shrinkWith is shrink with the argument passes and order of args (a
// native target's codec) instead of the record passes, when args is not
// nil.
func shrinkWith(input []byte, probe shrinkProbe, bounds shrinkBounds, args ArgShrinker) *shrinkResult {
	s := &shrinker{probe: probe, bounds: bounds, start: time.Now(), tried: map[uint64]struct{}{}, args: args}
	res := &shrinkResult{OrigLen: len(input), OrigChoices: -1, Choices: -1, orig: bytes.Clone(input)}
	defer func() {
		res.Execs, res.Took, res.Accepted = s.execs, time.Since(s.start), s.kept
	}()
	if s.out() {
		res.Input, res.Len, res.NotReproducing, res.Stopped = res.orig, len(input), true, s.halted
		return res
	}
	s.execs++
	same, consumed, rec := probe(input)
	if !same {
		res.Input, res.Len, res.NotReproducing = res.orig, len(input), true
		if s.bounds.stop != nil && s.bounds.stop() {
			// The run stopped (Ctrl-C, the end of -time) while the input
			// ran: the probe may have been cut short, which says nothing
			// of the input (it was reported as flaky); nor can it be
			// told from a probe that ran to its end.
			res.Stopped = "the run stopped while the input was run again (whether it fails again is not known)"
		}
		return res
	}
	s.best = bytes.Clone(consumed)
	if len(consumed) > len(input) {
		// It read past the input (PRNG extension bytes): keep the input as
		// found, which its record does not describe.
		s.best, rec = bytes.Clone(input), nil
	}
	if rec != nil {
		s.rec = rec.Clone()
		res.OrigChoices = len(rec.Draws)
	}
	s.tried[hashBytes(s.best)] = struct{}{}
	for !s.out() {
		before := s.kept
		s.round()
		if s.kept == before {
			break
		}
	}
	res.Input, res.Record, res.Len, res.Stopped = s.best, s.rec, len(s.best), s.halted
	if s.rec != nil {
		res.Choices = len(s.rec.Draws)
	}
	return res
}

// out reports whether the bounds are spent, noting why.
func (s *shrinker) out() bool {
	switch {
	case s.halted != "":
	case s.execs >= s.bounds.Runs:
		s.halted = "execution bound reached"
	case time.Since(s.start) >= s.bounds.Time:
		s.halted = "time bound reached"
	case s.bounds.stop != nil && s.bounds.stop():
		s.halted = "run stopped"
	}
	return s.halted != ""
}

// round runs every pass once, cheapest first (a native target's: the
// argument passes).
func (s *shrinker) round() {
	if s.args != nil {
		s.args.ShrinkArgs(func() []byte { return s.best }, func(cand []byte) bool { return s.try(cand, false) }, s.out)
		return
	}
	for _, pass := range []func(){
		s.deleteSpans,
		s.deleteSpanPairs,
		s.shortenRuns,
		s.promoteSpans,
		s.deleteChunks,
		s.zeroSpans,
		s.lowerDraws,
		s.lowerBytes,
		s.sortSiblings,
	} {
		if s.out() {
			return
		}
		pass()
	}
}

// try runs cand unless it was run before or is not simpler than the best,
// and keeps what it read if it failed the same way and is simpler.
// lowered says cand is best with one draw lowered numerically (same
// length): it then counts as simpler even where shortlex disagrees.
func (s *shrinker) try(cand []byte, lowered bool) bool {
	switch {
	case s.args != nil:
		if !s.args.SimplerArgs(cand, s.best) {
			return false
		}
	case !lowered && !shortlexLess(cand, s.best):
		return false
	}
	h := hashBytes(cand)
	if _, ok := s.tried[h]; ok {
		return false
	}
	if s.out() {
		return false
	}
	s.tried[h] = struct{}{}
	s.execs++
	same, consumed, rec := s.probe(cand)
	if !same {
		return false
	}
	simpler := len(consumed) < len(s.best) || shortlexLess(consumed, s.best) ||
		(lowered && bytes.Equal(consumed, cand))
	if s.args != nil {
		simpler = s.args.SimplerArgs(consumed, s.best)
	}
	if !simpler {
		return false
	}
	s.best = append(s.best[:0:0], consumed...)
	s.tried[hashBytes(s.best)] = struct{}{}
	if rec != nil {
		s.rec = rec.Clone()
	} else {
		s.rec = nil
	}
	s.kept++
	return true
}

// shortlexLess orders sequences shorter first, then lexicographically.
func shortlexLess(a, b []byte) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return bytes.Compare(a, b) < 0
}

// splice returns best with [from, to) replaced by repl (in a scratch
// buffer: try copies what it keeps).
func (s *shrinker) splice(from, to int, repl []byte) []byte {
	s.buf = append(s.buf[:0], s.best[:from]...)
	s.buf = append(s.buf, repl...)
	return append(s.buf, s.best[to:]...)
}

// spans returns the record's spans, or none without a record.
func (s *shrinker) spans() []param.Span {
	if s.rec == nil {
		return nil
	}
	return s.rec.Spans
}

func (s *shrinker) draws() []param.Draw {
	if s.rec == nil {
		return nil
	}
	return s.rec.Draws
}

// countDraw is the structure draw of span parent (-1: top level) that most
// likely counts the elements starting at off: the last structure draw made
// directly in parent before off with a decoded value of at least k. SliceOf,
// Bytes, String draw their length first, so deleting k elements (or bytes)
// together with lowering that draw by k keeps the rest of the sequence
// decoding as before.
func (s *shrinker) countDraw(parent int32, off int32, k uint64) (param.Draw, bool) {
	ds := s.draws()
	for i := len(ds) - 1; i >= 0; i-- {
		d := ds[i]
		if d.Offset+d.Width > off || d.Span != parent || d.Kind != param.Structure || d.Width == 0 || d.Width > 8 {
			continue
		}
		if d.Decoded(s.best) >= k {
			return d, true
		}
		return d, false
	}
	return param.Draw{}, false
}

// withValue returns cand with draw d's bytes set to the little-endian v.
func withValue(cand []byte, d param.Draw, v uint64) []byte {
	for i := int32(0); i < d.Width && i < 8; i++ {
		cand[d.Offset+i] = byte(v >> (8 * i))
	}
	return cand
}

// deleteRange tries deleting best[from:to), first with the count draw of
// the enclosing span lowered by k (when there is one), then alone.
func (s *shrinker) deleteRange(parent, from, to int32, k uint64) bool {
	if d, ok := s.countDraw(parent, from, k); ok {
		cand := s.splice(int(from), int(to), nil)
		if s.try(withValue(cand, d, d.Decoded(s.best)-k), false) {
			return true
		}
	}
	return s.try(s.splice(int(from), int(to), nil), false)
}

// deleteSpans deletes whole generator calls (subtrees, list elements),
// largest first within each position.
func (s *shrinker) deleteSpans() {
	for i := 0; i < len(s.spans()) && !s.out(); {
		sp := s.spans()[i]
		if sp.End > sp.Start && s.deleteRange(sp.Parent, sp.Start, sp.End, 1) {
			continue // the spans changed: look at index i again
		}
		i++
	}
}

// deleteSpanPairs deletes two adjacent sibling spans at once (a list
// element that only fails in pairs, a key and its value).
func (s *shrinker) deleteSpanPairs() {
	for i := 0; i+1 < len(s.spans()) && !s.out(); {
		sp := s.spans()
		a := sp[i]
		j := nextSibling(sp, i)
		if j < 0 || a.End == a.Start || sp[j].End == sp[j].Start {
			i++
			continue
		}
		if s.deleteRange(a.Parent, a.Start, sp[j].End, 2) {
			continue
		}
		i++
	}
}

// nextSibling returns the index of the span that follows span i directly
// in the same parent, or -1.
func nextSibling(sp []param.Span, i int) int {
	for j := i + 1; j < len(sp); j++ {
		if sp[j].Parent == sp[i].Parent && sp[j].Start == sp[i].End {
			return j
		}
		if sp[j].Start >= sp[i].End && sp[j].Depth <= sp[i].Depth {
			return -1
		}
	}
	return -1
}

// shortenRuns shortens long draws (Bytes, String: a length draw then one
// draw of that many bytes): it deletes k bytes at the end of the run, then
// at its start, with the length lowered by k, for k from the whole run
// down by halves.
func (s *shrinker) shortenRuns() {
	for i := 0; i < len(s.draws()) && !s.out(); i++ {
		d := s.draws()[i]
		if d.Width < 2 {
			continue
		}
		for k := d.Width; k >= 1 && !s.out(); k /= 2 {
			end := d.Offset + d.Width
			if s.deleteRange(d.Span, end-k, end, uint64(k)) || s.deleteRange(d.Span, d.Offset, d.Offset+k, uint64(k)) {
				break // the record changed; the next round goes on
			}
		}
	}
}

// promoteSpans replaces a span by one of its descendants made by the same
// generator (a tree by its subtree), deepest ancestors last.
func (s *shrinker) promoteSpans() {
	for i := 0; i < len(s.spans()) && !s.out(); i++ {
		sp := s.spans()
		for j := i + 1; j < len(sp) && sp[j].Start < sp[i].End; j++ {
			if sp[j].Gen != sp[i].Gen || sp[j].Depth <= sp[i].Depth || sp[j].End-sp[j].Start >= sp[i].End-sp[i].Start {
				continue
			}
			inner := bytes.Clone(s.best[sp[j].Start:sp[j].End])
			if s.try(s.splice(int(sp[i].Start), int(sp[i].End), inner), false) {
				break
			}
		}
	}
}

// deleteChunks deletes runs of 8, 4, 2 and 1 bytes anywhere, from the end:
// the raw pass, which needs no record (and finds deletions the spans do
// not delimit).
func (s *shrinker) deleteChunks() {
	for _, k := range []int{8, 4, 2, 1} {
		for i := len(s.best) - k; i >= 0 && !s.out(); i-- {
			if i+k <= len(s.best) {
				s.try(s.splice(i, i+k, nil), false)
			}
		}
	}
}

// zeroSpans sets every byte of a span, then of a draw, to zero (each
// generator's simplest value); without a record, aligned chunks.
func (s *shrinker) zeroSpans() {
	zero := func(from, to int32) {
		if from >= to || int(to) > len(s.best) || allZero(s.best[from:to]) {
			return
		}
		s.try(s.splice(int(from), int(to), make([]byte, to-from)), false)
	}
	for i := 0; i < len(s.spans()) && !s.out(); i++ {
		sp := s.spans()[i]
		zero(sp.Start, sp.End)
	}
	for i := 0; i < len(s.draws()) && !s.out(); i++ {
		d := s.draws()[i]
		zero(d.Offset, d.Offset+d.Width)
	}
	if s.rec != nil {
		return
	}
	// No record: aligned chunks of 8, 4 and 2 bytes (lowerBytes zeroes
	// single bytes).
	for _, k := range []int32{8, 4, 2} {
		for i := int32(0); int(i+k) <= len(s.best) && !s.out(); i += k {
			zero(i, i+k)
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// lowerDraws lowers each draw of up to 8 bytes toward its domain's minimum
// (raw 0 decodes to Lo): 0 first, then a binary search for the smallest
// value below the current one that still fails the same way.
func (s *shrinker) lowerDraws() {
	for i := 0; i < len(s.draws()) && !s.out(); i++ {
		d := s.draws()[i]
		if d.Width == 0 || d.Width > 8 || int(d.Offset+d.Width) > len(s.best) {
			continue
		}
		hi := d.Raw(s.best)
		if d.N != 0 && hi >= d.N {
			hi = hi % d.N // the same value, canonical
			if !s.try(withValue(s.splice(0, 0, nil), d, hi), true) {
				hi = d.Raw(s.best)
			}
		}
		s.lower(i, d, hi)
	}
}

// lower binary-searches the smallest raw value of draw i (d) in [0, hi)
// that fails the same way; hi does. It stops if a kept candidate moved the
// draw.
func (s *shrinker) lower(i int, d param.Draw, hi uint64) {
	if hi == 0 {
		return
	}
	same := func() bool {
		if i < 0 {
			return int(d.Offset) < len(s.best)
		}
		ds := s.draws()
		return i < len(ds) && ds[i].Offset == d.Offset && ds[i].Width == d.Width
	}
	if s.try(withValue(s.splice(0, 0, nil), d, 0), true) {
		return
	}
	lo := uint64(0) // fails to fail
	for lo+1 < hi && !s.out() {
		mid := lo + (hi-lo)/2
		if s.try(withValue(s.splice(0, 0, nil), d, mid), true) {
			if !same() {
				return
			}
			hi = mid
		} else {
			lo = mid
		}
	}
	// A value taken modulo a domain size the shrinker does not know (raw
	// bytes) is not monotone: clearing its set bits, highest first, finds
	// the smaller values equal modulo a power of two (199 -> 71 -> 7 for
	// a domain of 32).
	for bit := 63; bit >= 0 && !s.out(); bit-- {
		if hi&(1<<bit) == 0 || !same() {
			continue
		}
		if v := hi &^ (1 << bit); s.try(withValue(s.splice(0, 0, nil), d, v), true) {
			hi = v
		}
	}
}

// lowerBytes is lowerDraws on single bytes, for sequences without a
// record (and bytes no draw covers).
func (s *shrinker) lowerBytes() {
	if s.rec != nil {
		return
	}
	for i := 0; i < len(s.best) && !s.out(); i++ {
		s.lower(-1, param.Draw{Offset: int32(i), Width: 1}, uint64(s.best[i]))
	}
}

// sortSiblings swaps adjacent sibling spans of the same generator and size
// when the later one's bytes are smaller (one bubble-sort sweep per round).
func (s *shrinker) sortSiblings() {
	for i := 0; i < len(s.spans()) && !s.out(); i++ {
		sp := s.spans()
		j := nextSibling(sp, i)
		if j < 0 || sp[j].Gen != sp[i].Gen || sp[j].End-sp[j].Start != sp[i].End-sp[i].Start {
			continue
		}
		a, b := s.best[sp[i].Start:sp[i].End], s.best[sp[j].Start:sp[j].End]
		if bytes.Compare(b, a) >= 0 {
			continue
		}
		swapped := append(bytes.Clone(b), a...)
		s.try(s.splice(int(sp[i].Start), int(sp[j].End), swapped), false)
	}
}

// hashBytes is a 64-bit hash of b (FNV-1a, mixed), for the set of
// candidates already run.
func hashBytes(b []byte) uint64 {
	h := param.HashString(string(b))
	return param.Mix(h, uint64(len(b)))
}
