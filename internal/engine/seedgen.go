package engine

// Seed generation (Kummer, "Filtering Inputs for Semantic Fuzzing Seeds";
// docs/ALGORITHMS.md §5): before fuzzing, a fast blackbox engine (rl or
// random) generates inputs for a while, on the campaign's clock and
// execution count; every VALID one is a candidate, recorded as the exact
// parameter sequence the generator consumed (free in gfz: no
// transformation, the thesis's error-prone step); a filter picks the
// seeds; the campaign's engine then starts from them as from any seed
// (each executed once, queued if it adds coverage).
//
// Filters (Config.SeedFilter):
//   - rnd: a uniform random sample of the candidates.
//   - par: parameter-sequence filtering (the thesis's Algorithm 2,
//     FSCS-ART): from seedArtCandidates random candidates, add the one
//     whose byte-prefix similarity to the seeds chosen so far is least.
//   - cho: choice-sequence filtering (Algorithm 3): as par, with the
//     similarity the sum of the cosine similarities of the candidate's
//     bigram (transition) counts of choices and those of the last
//     choLast (100) seeds chosen.
//   - cov: generator-coverage filtering (Algorithm 4): a candidate is a
//     seed iff it adds generator coverage, online; no count.
//
// A choice, for cho and cov, is a draw's Site with its value when the
// domain is small (at most rlMaxActions values), its Site alone otherwise
// (the thesis's choice sequences name the node kind, not an identifier's
// characters). "Generator coverage" is the set of such choices: gfz does
// not instrument generators apart from the target, and a small-domain
// value at a site is what selects a branch of a generator.
//
// Seed count (rnd, par, cho): seedFraction (5%) of the executions the
// campaign has left after the phase (with Config.Runs, exactly; with
// Config.Time, estimated from the phase's execution rate; with neither,
// as for one hour), at least 1 and at most seedCap. The thesis set 5% so
// that Zest builds on the seeds rather than spends the campaign running
// them, and found that the number of seeds mattered most.

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/gfz-dev/gfz/param"
)

// Seed-generation defaults and bounds.
const (
	DefaultSeedGenEngine = "rl"
	DefaultSeedFilter    = "rnd"
	seedFraction         = 0.05
	seedCap              = 2000
	// seedPool bounds the candidates kept (a uniform reservoir sample of
	// all of them) for rnd, par and cho.
	seedPool = 20000
	// seedArtCandidates is the size of the random candidate set each pick
	// of par and cho chooses from (FSCS-ART's usual 10).
	seedArtCandidates = 10
	// choLast is how many of the last chosen seeds cho compares with.
	choLast = 100
	// seedAssumeTime is the campaign length assumed without -time or
	// -runs.
	seedAssumeTime = time.Hour
)

// SeedFilters are the names Config.SeedFilter accepts.
var SeedFilters = []string{"rnd", "par", "cho", "cov"}

// SeedGenEngines are the engines Config.SeedGenEngine accepts.
var SeedGenEngines = []string{"rl", "random"}

// seedCand is one candidate: its parameter sequence and (for cho) its
// bigram counts.
type seedCand struct {
	data []byte
	bi   bigrams
}

// seedFilter collects candidates during the phase and picks the seeds.
type seedFilter struct {
	name  string
	r     *prng
	seen  int64 // candidates offered
	pool  []seedCand
	cov   map[uint64]struct{} // cov: generator coverage so far
	toks  []uint64
	kept  [][]byte // cov's seeds
	limit int      // cov: at most this many (seedCap)
}

func newSeedFilter(name string, r *prng) (*seedFilter, error) {
	if name == "" {
		name = DefaultSeedFilter
	}
	if !slices.Contains(SeedFilters, name) {
		return nil, fmt.Errorf("engine: unknown seed filter %q (want rnd, par, cho or cov)", name)
	}
	sf := &seedFilter{name: name, r: r, limit: seedCap}
	if name == "cov" {
		sf.cov = map[uint64]struct{}{}
	}
	return sf, nil
}

// choiceSeq appends the choices of rec (of data) to dst.
func choiceSeq(rec *param.Record, data []byte, dst []uint64) []uint64 {
	dst = dst[:0]
	for i := range rec.Draws {
		d := &rec.Draws[i]
		if d.Width == 0 {
			continue
		}
		if rlDomain(d) > 0 {
			dst = append(dst, param.Mix(d.Site, d.Decoded(data)))
		} else {
			dst = append(dst, d.Site)
		}
	}
	return dst
}

// add offers a VALID execution's input (data is copied).
func (sf *seedFilter) add(data []byte, rec *param.Record) {
	sf.seen++
	if sf.name == "cov" {
		if rec == nil || len(sf.kept) >= sf.limit {
			return
		}
		sf.toks = choiceSeq(rec, data, sf.toks)
		added := false
		for _, t := range sf.toks {
			if _, ok := sf.cov[t]; !ok {
				sf.cov[t] = struct{}{}
				added = true
			}
		}
		if added {
			sf.kept = append(sf.kept, append([]byte(nil), data...))
		}
		return
	}
	// Reservoir sampling: every candidate seen is in the pool with the
	// same probability.
	slot := len(sf.pool)
	if slot >= seedPool {
		slot = int(sf.r.next() % uint64(sf.seen))
		if slot >= seedPool {
			return
		}
	}
	c := seedCand{data: append([]byte(nil), data...)}
	if sf.name == "cho" && rec != nil {
		sf.toks = choiceSeq(rec, data, sf.toks)
		c.bi = newBigrams(sf.toks)
	}
	if slot == len(sf.pool) {
		sf.pool = append(sf.pool, c)
	} else {
		sf.pool[slot] = c
	}
}

// pick returns the seeds: n of them for rnd, par and cho (all candidates
// if there are at most n), cov's for cov.
func (sf *seedFilter) pick(n int) [][]byte {
	if sf.name == "cov" {
		return sf.kept
	}
	pool := sf.pool
	if n <= 0 {
		return nil
	}
	if n >= len(pool) {
		out := make([][]byte, len(pool))
		for i := range pool {
			out[i] = pool[i].data
		}
		return out
	}
	var out [][]byte
	switch sf.name {
	case "rnd":
		// A partial Fisher-Yates shuffle: n distinct uniform picks.
		for i := 0; i < n; i++ {
			j := i + sf.r.below(len(pool)-i)
			pool[i], pool[j] = pool[j], pool[i]
			out = append(out, pool[i].data)
		}
	case "par":
		var chosen [][]byte
		sf.art(n, func(c *seedCand) float64 { return parSimilarity(c.data, chosen) },
			func(c *seedCand) { chosen = append(chosen, c.data) })
		out = chosen
	case "cho":
		var chosen []*bigrams
		sf.art(n, func(c *seedCand) float64 { return choSimilarity(&c.bi, chosen) }, func(c *seedCand) {
			chosen = append(chosen, &c.bi)
			out = append(out, c.data)
		})
	}
	return out
}

// art is the select-test-from-candidates loop of Algorithms 2 and 3: the
// first seed at random, then, until n are chosen, the least similar of
// seedArtCandidates random candidates. Chosen candidates leave the pool.
func (sf *seedFilter) art(n int, sim func(*seedCand) float64, choose func(*seedCand)) {
	pool := sf.pool
	take := func(i int) {
		c := pool[i]
		pool[i] = pool[len(pool)-1]
		pool = pool[:len(pool)-1]
		choose(&c)
	}
	take(sf.r.below(len(pool)))
	for k := 1; k < n && len(pool) > 0; k++ {
		best, bestSim := -1, math.Inf(1)
		for j := 0; j < seedArtCandidates; j++ {
			i := sf.r.below(len(pool))
			if s := sim(&pool[i]); s < bestSim {
				best, bestSim = i, s
			}
		}
		take(best)
	}
}

// parSimilarity is Algorithm 2's computeParaSeqSimilarity: for each
// chosen sequence p, the length of the prefix c shares with p, where a
// mismatch at i is forgiven if bytes i+1 match (+0.5, skip 2) or bytes
// i+4 match (+2, skip 5), divided by len(c); summed over p.
func parSimilarity(c []byte, chosen [][]byte) float64 {
	if len(c) == 0 {
		return float64(len(chosen)) // an empty sequence is like every other
	}
	var total float64
	at := func(b []byte, i int) int {
		if i < len(b) {
			return int(b[i])
		}
		return -1
	}
	for _, p := range chosen {
		var s float64
		m := min(len(p), len(c))
		for i := 0; i < m; {
			switch {
			case p[i] == c[i]:
				s++
				i++
			case at(p, i+1) >= 0 && at(p, i+1) == at(c, i+1):
				s += 0.5
				i += 2
			case at(p, i+4) >= 0 && at(p, i+4) == at(c, i+4):
				s += 2
				i += 5
			default:
				i = m
			}
		}
		total += s / float64(len(c))
	}
	return total
}

// choSimilarity is Algorithm 3's computeChoiceSeqSimilarity over the
// last choLast chosen seeds: the sum of the cosine similarities of c's
// bigram counts and theirs.
func choSimilarity(c *bigrams, chosen []*bigrams) float64 {
	var s float64
	for _, b := range chosen[max(0, len(chosen)-choLast):] {
		s += c.cosine(b)
	}
	return s
}

// bigrams are the transition counts of a choice sequence: each ordered
// pair of consecutive choices (hashed) with its count, sorted by key.
type bigrams struct {
	keys []uint64
	cnt  []float64
	norm float64
}

func newBigrams(seq []uint64) bigrams {
	if len(seq) < 2 {
		return bigrams{}
	}
	ks := make([]uint64, 0, len(seq)-1)
	for i := 1; i < len(seq); i++ {
		ks = append(ks, param.Mix(seq[i-1], seq[i]))
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	var b bigrams
	for _, k := range ks {
		if n := len(b.keys); n > 0 && b.keys[n-1] == k {
			b.cnt[n-1]++
			continue
		}
		b.keys = append(b.keys, k)
		b.cnt = append(b.cnt, 1)
	}
	for _, c := range b.cnt {
		b.norm += c * c
	}
	b.norm = math.Sqrt(b.norm)
	return b
}

// cosine is the cosine similarity of the two count vectors (0 if either
// is empty).
func (a *bigrams) cosine(b *bigrams) float64 {
	if a.norm == 0 || b.norm == 0 {
		return 0
	}
	var dot float64
	for i, j := 0, 0; i < len(a.keys) && j < len(b.keys); {
		switch {
		case a.keys[i] < b.keys[j]:
			i++
		case a.keys[i] > b.keys[j]:
			j++
		default:
			dot += a.cnt[i] * b.cnt[j]
			i++
			j++
		}
	}
	return dot / (a.norm * b.norm)
}

// seedCount is how many seeds rnd, par and cho pick: seedFraction of the
// executions the campaign has left (see the file comment).
func (f *fuzzer) seedCount(phaseExecs int64, phase time.Duration) int {
	var left float64
	switch {
	case f.cfg.Runs > 0:
		left = float64(f.cfg.Runs - f.execs)
	default:
		rest := seedAssumeTime
		if f.cfg.Time > 0 {
			rest = f.cfg.Time - time.Since(f.start)
		}
		if phase > 0 {
			left = float64(phaseExecs) / phase.Seconds() * rest.Seconds()
		}
	}
	n := int(left * seedFraction)
	return min(max(n, 1), seedCap)
}

// seedPhase runs the seed-generation phase (Config.SeedGen or
// Config.SeedGenRuns) with the seed-generation engine, then selects the
// campaign's engine again and prepends the seeds picked to cfg.Seeds.
// Executions, failures and time count as the campaign's.
func (f *fuzzer) seedPhase() {
	name := f.cfg.SeedGenEngine
	if name == "" {
		name = DefaultSeedGenEngine
	}
	if !slices.Contains(SeedGenEngines, name) {
		f.err = fmt.Errorf("engine: seed generation engine %q not supported (want rl or random)", name)
		return
	}
	sf, err := newSeedFilter(f.cfg.SeedFilter, f.r)
	if err != nil {
		f.err = err
		return
	}
	if err := f.setEngine(name); err != nil {
		f.err = err
		return
	}
	f.fb = phaseFeedback{f.fb}
	if f.recorder != nil {
		f.recorder.SetRecording(true)
	}
	gs, _ := f.strat.(guidedStrategy)
	t0, e0 := time.Now(), f.execs
	over := func() bool {
		if f.cfg.SeedGenRuns > 0 {
			return f.execs-e0 >= f.cfg.SeedGenRuns
		}
		return time.Since(f.start) >= f.cfg.SeedGen
	}
	var valid int64
	for !f.done() && !over() {
		var g *childGuide
		if gs != nil {
			g = gs.nextGuide()
		}
		var out Outcome
		if g != nil {
			out = f.execGuided(g)
		} else {
			f.child = f.strat.next(f.child)
			out = f.exec(f.child)
		}
		if out.Result == Valid {
			valid++
			sf.add(out.Consumed, out.Record)
		}
		f.handle(out, false)
		if g != nil {
			gs.executed(g, out, nil)
		}
	}
	if f.recorder != nil {
		f.recorder.SetRecording(false)
	}
	phaseExecs, phase := f.execs-e0, time.Since(t0)
	seeds := sf.pick(f.seedCount(phaseExecs, phase))
	if err := f.setEngine(f.cfg.Engine); err != nil {
		f.err = err
		return
	}
	f.cfg.Seeds = append(append([][]byte(nil), f.cfg.Seeds...), seeds...)
	// Also in a worker: the supervisor forwards its "gfz:" lines.
	f.printf("gfz: seed generation: %s for %d executions (%d valid) in %v; filter %s picked %d seeds\n",
		name, phaseExecs, valid, phase.Round(time.Millisecond), sf.name, len(seeds))
}

// phaseFeedback lets the seed-generation engine's feedback see every
// execution (rl's rewards) but saves nothing: the phase's inputs reach
// the corpus only as seeds.
type phaseFeedback struct{ inner feedback }

func (p phaseFeedback) keep(n novelty, valid bool) bool {
	p.inner.keep(n, valid)
	return false
}

func (phaseFeedback) credit([]*entry, int, *merged) {}
