package engine

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/gfz-dev/gfz/param"
)

// Metrics measured for every engine (docs/ENGINE.md, "Metrics"):
//
//   - hill_b0, hill_b1, hill_b2: the Hill numbers of the branch abundances
//     of the run's unique traces (diversity.go).
//   - zero_mutations: the share of children (inputs made from a queued
//     parent) whose decoded choices equal their parent's. The loop detects
//     them before running where it can (byte-mutation children: zeroChild)
//     and skips them: a skipped child is not an execution (it does not
//     count for -runs) and is counted here.
//   - mutation_distance_mean: the mean choice-level mutation distance
//     between a child and its parent over a sample of the executed
//     children (choiceDistance).
//
// A typed choice mutation (ei, bediv) re-draws a choice to a value that
// decodes differently (choice.go), and the first overridden draw a guided
// child reaches has its parent's domain (every earlier draw is the
// parent's), so a guided child is never a zero mutation: guided children
// are counted as children and sampled for the distance, never checked.
// random has no parent: it makes no children.

const (
	// distanceSampleEvery: one executed child in this many (the first,
	// then every 64th) is sampled for the mutation distance.
	distanceSampleEvery = 64
	// distanceCap: the distance compares at most the first distanceCap
	// choices of parent and child.
	distanceCap = 512
	// zeroStreakLimit: after this many zero mutations skipped in a row
	// the next one is executed anyway, so that a queue whose children are
	// all zero mutations (say, of a target that draws nothing) still
	// advances the -runs budget.
	zeroStreakLimit = 256
)

// metrics is one fuzzer's measurements and the per-parent indexes they
// use.
type metrics struct {
	children   int64   // children made from a parent, executed or skipped
	zero       int64   // zero mutations detected (all skipped but the streak breakers)
	streak     int     // zero mutations skipped in a row
	executed   int64   // children executed (the sampling counter)
	distSum    float64 // sum of the sampled distances > 0
	distN      int64   // number of those samples
	distZero   int64   // sampled executed children at distance 0
	recordsSet bool    // queued entries keep records (startMetrics)

	// The zero-mutation index of parent zp: drawAt[o] is the index of
	// the draw that consumed byte o of zp.data; zok is false when zp's
	// record does not cover its data draw after draw (undecidable).
	zp     *entry
	zgen   uint32 // zp.recGen when indexed
	drawAt []int32
	zok    bool

	// The distance pattern of parent dp: its choice tokens.
	dp   *entry
	dgen uint32 // dp.recGen when its pattern was built
	pat  distPattern
	ptok []uint64
	ctok []uint64
}

// byteParent is implemented by the strategies whose next makes a child by
// editing a queued parent's bytes: lastParent returns the parent of the
// input next just returned (nil: none, e.g. a fresh input). The loop
// checks such children for zero mutations.
type byteParent interface {
	lastParent() *entry
}

func (s *zestTurns) lastParent() *entry    { return s.env.queue()[s.qi] }
func (s *classicTurns) lastParent() *entry { return s.env.queue()[s.qi] }
func (s *eiTurns) lastParent() *entry      { return s.zest.lastParent() }
func (s *bedivTurns) lastParent() *entry   { return s.ei.lastParent() }
func (s *zeugmaTurns) lastParent() *entry  { return s.parent }

// startMetrics prepares the metrics before the loop: an engine that
// queues inputs and makes children by editing a parent's bytes
// (byteParent) keeps their records from then on when the executor can
// record (made by the stability recheck of a saved input, with recording
// on for that one execution), so that children can be checked for zero
// mutations. Entries queued before (seeds, a resumed corpus) are recorded
// when they are first a parent (holdParent). Other engines (args, whose
// children are re-encoded typed edits) check nothing, so record nothing.
func (f *fuzzer) startMetrics() {
	if _, bp := f.strat.(byteParent); bp && f.def.queue && f.recorder != nil && !f.def.records {
		f.def.records = true
		f.met.recordsSet = true
		// The inputs queued before (seeds, a resumed corpus) get theirs
		// now: the strategy caches what a parent offers (auto's arms,
		// zeugma's donors) from its record.
		// Past the record budget they are made when they are parents.
		for _, e := range f.queue {
			if f.recKept >= f.recBudget {
				break
			}
			if e.rec == nil {
				if f.keepRecord(e, nil); !e.recKept {
					f.releaseRecord(e)
					break // the budget is full
				}
			}
		}
	}
}

// zeroChild reports whether child, made from p by editing bytes, is a zero
// mutation: every draw of p decodes from child's bytes at the same offset
// to the value it decoded from p's (param.Draw.Decoded; a draw whose raw
// values are all distinct, N == 0 or more than 8 bytes, must keep its
// bytes). Then the generator makes the same draws at the same offsets, and
// reads no byte past len(p.data): the child generates p's input. Only the
// bytes where child and p.data differ are looked at. It is false (not
// decided) when child is shorter than p.data (the missing bytes would come
// from the child's own PRNG extension) or p's record does not cover its
// data.
func (m *metrics) zeroChild(p *entry, child []byte) bool {
	if m.zp != p || m.zgen != p.recGen {
		m.index(p)
	}
	pd := p.data
	if !m.zok || len(child) < len(pd) {
		return false
	}
	last := int32(-1) // the draw checked last (bytes come in order)
	n := len(pd)
	i := 0
	for ; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(child[i:]) ^ binary.LittleEndian.Uint64(pd[i:])
		for x != 0 {
			b := bits.TrailingZeros64(x) / 8
			if di := m.drawAt[i+b]; di != last {
				if !sameDecoded(&p.rec.Draws[di], child, pd) {
					return false
				}
				last = di
			}
			x &^= 0xff << (8 * b)
		}
	}
	for ; i < n; i++ {
		if child[i] != pd[i] {
			if di := m.drawAt[i]; di != last {
				if !sameDecoded(&p.rec.Draws[di], child, pd) {
					return false
				}
				last = di
			}
		}
	}
	return true
}

// sameDecoded reports whether draw d decodes to the same value from a and
// b, whose bytes differ somewhere in it (so a draw whose raw values are
// all distinct, N == 0 or more than 8 bytes, does not).
func sameDecoded(d *param.Draw, a, b []byte) bool {
	if d.N == 0 || d.Width > 8 {
		return false
	}
	if d.N&(d.N-1) == 0 { // a power of two: the low bits decide
		if d.Width == 1 {
			return (a[d.Offset]^b[d.Offset])&byte(d.N-1) == 0
		}
		return (d.Raw(a)^d.Raw(b))&(d.N-1) == 0
	}
	return d.Decoded(a) == d.Decoded(b)
}

// index builds the zero-mutation index of p (once per parent turn).
func (m *metrics) index(p *entry) {
	m.zp, m.zgen, m.zok = p, p.recGen, false
	if p.rec == nil {
		return
	}
	n := len(p.data)
	if cap(m.drawAt) < n {
		m.drawAt = make([]int32, n)
	}
	m.drawAt = m.drawAt[:n]
	pos := int32(0)
	for i := range p.rec.Draws {
		d := &p.rec.Draws[i]
		if d.Offset != pos || int(pos+d.Width) > n {
			return
		}
		for k := pos; k < pos+d.Width; k++ {
			m.drawAt[k] = int32(i)
		}
		pos += d.Width
	}
	m.zok = int(pos) == n
}

// skipZero decides whether the loop skips child, made from p (nil: no
// parent) by editing bytes, as a zero mutation; it counts the child.
func (f *fuzzer) skipZero(p *entry, child []byte) bool {
	if p == nil {
		return false
	}
	m := &f.met
	m.children++
	if f.recorder == nil {
		return false
	}
	f.holdParent(p)
	if !m.zeroChild(p, child) {
		m.streak = 0
		return false
	}
	m.zero++
	if m.streak >= zeroStreakLimit {
		m.streak = 0
		return false // executed, counted as a zero mutation
	}
	m.streak++
	return true
}

// sampleDistance reports whether the next executed child is sampled for
// the mutation distance.
func (m *metrics) sampleDistance() bool {
	m.executed++
	return m.executed%distanceSampleEvery == 1
}

// noteDistance adds the distance between parent p and the child just
// executed (its record rec of the sequence data) to the sample.
func (m *metrics) noteDistance(p *entry, rec *param.Record, data []byte) {
	if p == nil || p.rec == nil || rec == nil {
		return
	}
	if m.dp != p || m.dgen != p.recGen {
		m.dp, m.dgen = p, p.recGen
		m.ptok = choiceTokens(p.rec, p.data, m.ptok)
		m.pat.build(m.ptok)
	}
	m.ctok = choiceTokens(rec, data, m.ctok)
	d := m.pat.distance(m.ctok)
	if d == 0 {
		m.distZero++
		return
	}
	m.distSum += d
	m.distN++
}

// choiceTokens returns the tokens of the first distanceCap choices (draws
// that consume at least one byte) of rec, the record of data: each the
// hash of the draw's Site and its value (Decoded, or a hash of all its
// bytes for a draw of more than 8 bytes).
func choiceTokens(rec *param.Record, data []byte, dst []uint64) []uint64 {
	dst = dst[:0]
	for i := range rec.Draws {
		d := &rec.Draws[i]
		if d.Width == 0 {
			continue
		}
		if len(dst) == distanceCap {
			break
		}
		dst = append(dst, param.Mix(d.Site, drawValue(d, data)))
	}
	return dst
}

// distPattern is a token sequence (the parent's) prepared for Myers'
// bit-parallel edit distance (Myers 1999, in the block form of Hyyrö
// 2001): eq[k*words+w] is the bit set of the positions of the k-th
// distinct token in block w of the pattern.
type distPattern struct {
	n     int
	words int
	sym   map[uint64]int32
	eq    []uint64
	pv    []uint64
	mv    []uint64
}

func (p *distPattern) build(toks []uint64) {
	p.n = len(toks)
	p.words = (p.n + 63) / 64
	if p.sym == nil {
		p.sym = map[uint64]int32{}
	}
	clear(p.sym)
	p.eq = p.eq[:0]
	for i, t := range toks {
		k, ok := p.sym[t]
		if !ok {
			k = int32(len(p.eq) / p.words)
			p.sym[t] = k
			for range p.words {
				p.eq = append(p.eq, 0)
			}
		}
		p.eq[int(k)*p.words+i/64] |= 1 << (i % 64)
	}
}

// distance returns the normalized Levenshtein distance between the
// pattern and toks: the least number of token insertions, deletions and
// substitutions that turn one into the other, divided by the longer
// length (0 when both are empty).
func (p *distPattern) distance(toks []uint64) float64 {
	longer := max(p.n, len(toks))
	if longer == 0 {
		return 0
	}
	return float64(p.edits(toks)) / float64(longer)
}

// edits is the Levenshtein distance between the pattern and toks. The
// pattern is the column of the dynamic-programming table, toks its rows:
// pv/mv hold the vertical differences (+1/-1) of the current column, block
// by block; each block passes the horizontal difference at its bottom edge
// to the block below.
func (p *distPattern) edits(toks []uint64) int {
	if p.n == 0 {
		return len(toks)
	}
	w := p.words
	if cap(p.pv) < w {
		p.pv, p.mv = make([]uint64, w), make([]uint64, w)
	}
	pv, mv := p.pv[:w], p.mv[:w]
	for i := range pv {
		pv[i], mv[i] = ^uint64(0), 0 // column 0: D[i][0] = i
	}
	last := uint64(1) << ((p.n - 1) % 64)
	score := p.n
	for _, t := range toks {
		var eqs []uint64
		if k, ok := p.sym[t]; ok {
			eqs = p.eq[int(k)*w : int(k)*w+w]
		}
		hin := 1 // row 0: D[0][j] = j, a +1 step each column
		for b := 0; b < w; b++ {
			var eq uint64
			if eqs != nil {
				eq = eqs[b]
			}
			high := uint64(1) << 63
			if b == w-1 {
				high = last
			}
			var neg, pos uint64
			if hin < 0 {
				neg = 1
			} else if hin > 0 {
				pos = 1
			}
			xv := eq | mv[b]
			eq |= neg
			xh := (((eq & pv[b]) + pv[b]) ^ pv[b]) | eq
			ph := mv[b] | ^(xh | pv[b])
			mh := pv[b] & xh
			hout := 0
			if ph&high != 0 {
				hout = 1
			} else if mh&high != 0 {
				hout = -1
			}
			ph = ph<<1 | pos
			mh = mh<<1 | neg
			pv[b] = mh | ^(xv | ph)
			mv[b] = ph & xv
			hin = hout
		}
		score += hin
	}
	return score
}

// publishMetrics copies the metrics to shared memory (worker mode).
func (f *fuzzer) publishMetrics() {
	s := f.shm
	if s == nil {
		return
	}
	b0, b1, b2 := f.div.hill()
	m := &f.met
	s.store(offHillB0, math.Float64bits(b0))
	s.store(offHillB1, math.Float64bits(b1))
	s.store(offHillB2, math.Float64bits(b2))
	s.store(offChildren, uint64(m.children))
	s.store(offZeroMut, uint64(m.zero))
	s.store(offDistSum, math.Float64bits(m.distSum))
	s.store(offDistN, uint64(m.distN))
	s.store(offDistZero, uint64(m.distZero))
}

// metricsRow is what a run reports of its metrics in stats and plot_data.
type metricsRow struct {
	hill            [3]float64
	children, zero  int64
	distSum         float64
	distN, distZero int64
}

func (f *fuzzer) metricsRow() metricsRow {
	m := &f.met
	r := metricsRow{children: m.children, zero: m.zero, distSum: m.distSum, distN: m.distN, distZero: m.distZero}
	r.hill[0], r.hill[1], r.hill[2] = f.div.hill()
	return r
}

// add adds o's counters to r's (not the Hill numbers).
func (r *metricsRow) add(o metricsRow) {
	r.children += o.children
	r.zero += o.zero
	r.distSum += o.distSum
	r.distN += o.distN
	r.distZero += o.distZero
}

// zeroShare is the share of children that were skipped zero mutations.
func (r *metricsRow) zeroShare() float64 {
	if r.children == 0 {
		return 0
	}
	return float64(r.zero) / float64(r.children)
}

// distMean is the mean sampled mutation distance (0 without samples).
func (r *metricsRow) distMean() float64 {
	if r.distN == 0 {
		return 0
	}
	return r.distSum / float64(r.distN)
}

// plotCols are the metrics' plot_data columns (after the others).
func (r *metricsRow) plotCols() string {
	return fmt.Sprintf("%.0f, %.3f, %.3f, %.4f, %.4f", r.hill[0], r.hill[1], r.hill[2], r.zeroShare(), r.distMean())
}

// keys writes the metrics' stats keys.
func (r *metricsRow) keys(kv func(string, any)) {
	kv("hill_b0", fmt.Sprintf("%.0f", r.hill[0]))
	kv("hill_b1", fmt.Sprintf("%.3f", r.hill[1]))
	kv("hill_b2", fmt.Sprintf("%.3f", r.hill[2]))
	kv("children", r.children)
	kv("zero_mutations", fmt.Sprintf("%.4f", r.zeroShare()))
	kv("zero_mutations_count", r.zero)
	kv("mutation_distance_mean", fmt.Sprintf("%.4f", r.distMean()))
	kv("mutation_distance_samples", r.distN)
	kv("mutation_distance_zero", r.distZero)
}

// text is the metrics for the final summary.
func (r *metricsRow) text() string {
	return fmt.Sprintf("hill b0 %.0f b1 %.1f b2 %.1f, zero mutations %.1f%% of %d children, mutation distance mean %.3f (%d samples)",
		r.hill[0], r.hill[1], r.hill[2], 100*r.zeroShare(), r.children, r.distMean(), r.distN)
}

// drawValue is a draw's value as a token: its decoded value when it is at
// most 8 bytes wide, else the hash of its bytes (clipped to data).
func drawValue(d *param.Draw, data []byte) uint64 {
	if d.Width <= 8 {
		return d.Decoded(data)
	}
	end := min(int(d.Offset+d.Width), len(data))
	return param.HashString(string(data[min(int(d.Offset), end):end]))
}
