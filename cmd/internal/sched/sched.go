// Package sched is gfz-run's allocation rule: which fuzz targets of a run
// get the cores in its next round, from what each found recently per
// CPU-second. It holds no clock, starts no process and reads no file:
// the caller reports what each target found (Observe) and asks for the
// next round (Next), so that a test can script the yields and pin the
// schedule. Same seed, same calls, same schedule.
//
// The rule (docs/CLI.md, "How gfz-run shares the time"):
//
//   - First pass: every target gets one round with one core, in the given
//     order, before any target gets a second (with fewer targets than
//     cores, the first round divides the cores among all of them).
//   - Then each target's rate is its recent gains per CPU-second: gains
//     are new coverage keys + new corpus entries + FailureWeight x new
//     unique failures; "recent" discounts what it found by half every
//     HalfLife CPU-seconds of its own fuzzing. A target's warm-up (what
//     it found by its first report: its seeds and the coverage almost any
//     input reaches, a burst that says little about what comes next; the
//     caller marks those yields) is not counted; until it has counted CPU
//     time, its rate is taken to be the mean of the others' (or equal
//     shares while none has any).
//   - Its share of the cores is e/n (exploration: no target gets nothing)
//     plus (1-e) x its rate / the sum of the rates (when no target found
//     anything recently, equal shares). The exploration e falls from 1
//     (equal shares) at the start of the run to Explore at ExploreTime
//     seconds (the sum of the rounds' lengths), and stays there: early,
//     every target gets a fair look (a bug in a target whose coverage
//     stopped growing needs time, not coverage), later the time goes to
//     what pays.
//   - Shares become cores by deficit: each round every target is credited
//     its share of the round's core-seconds, the cores go one by one to
//     the targets owed most (a target that already runs keeps a core
//     unless another is owed Sticky rounds more), and each target is
//     debited what it got; a round cut short (a process ended by itself)
//     counts for the time it lasted (EndRound). Ties go by an order drawn
//     from the seed.
package sched

import (
	"math"
	"math/rand/v2"
)

// Yield is what one target found in some CPU time.
type Yield struct {
	CPU      float64 // CPU seconds its processes used
	Coverage int64   // new coverage keys
	Corpus   int64   // new corpus entries
	Failures int64   // new unique failures
	// WarmUp marks a yield of the target's warm-up, not counted in its
	// rate: up to and including the first report of what it found.
	WarmUp bool
}

// Params tune the rule; the zero value of a field means its default.
type Params struct {
	// Explore is the part of the cores spread evenly over the targets
	// whatever they yield (default DefaultExplore); 1 gives equal shares.
	Explore float64
	// ExploreTime is the time (seconds of rounds) over which the part
	// spread evenly falls from all of the cores to Explore (0: Explore
	// from the start).
	ExploreTime float64
	// HalfLife is the CPU-seconds of a target's own fuzzing after which
	// what it found counts half (default DefaultHalfLife).
	HalfLife float64
	// Sticky is how many rounds of credit a target that runs keeps its
	// cores by (default DefaultSticky): switching costs a restart.
	Sticky float64
	// FailureWeight is what a new unique failure counts, in coverage keys
	// (default DefaultFailureWeight).
	FailureWeight float64
}

// Defaults of Params.
const (
	DefaultExplore       = 0.2
	DefaultHalfLife      = 10.0
	DefaultSticky        = 1.0
	DefaultFailureWeight = 10.0
)

func (p Params) withDefaults() Params {
	if p.Explore <= 0 {
		p.Explore = DefaultExplore
	}
	p.Explore = math.Min(p.Explore, 1)
	if p.HalfLife <= 0 {
		p.HalfLife = DefaultHalfLife
	}
	if p.Sticky <= 0 {
		p.Sticky = DefaultSticky
	}
	if p.FailureWeight <= 0 {
		p.FailureWeight = DefaultFailureWeight
	}
	return p
}

// Scheduler allocates cores to targets round by round.
type Scheduler struct {
	p     Params
	now   float64 // seconds: the lengths of the rounds so far
	cores int
	t     []target
	rank  []int // tie-break order: rank[i] is target i's place, drawn from the seed

	// The last round: its length and each target's change of credit per
	// second of it (EndRound takes back what a shorter round did not owe).
	lastD    float64
	lastRate []float64
}

type target struct {
	active  bool    // still scheduled (not removed)
	visited bool    // had its first round
	gains   float64 // discounted gains counted
	spent   float64 // discounted CPU-seconds counted
	credit  float64 // core-seconds owed (deficit)
	cores   int     // cores in the last round
	total   float64 // CPU-seconds observed in all, warm-ups included
}

// New returns a scheduler of n targets on the given number of cores (at
// least 1).
func New(n, cores int, seed int64, p Params) *Scheduler {
	s := &Scheduler{p: p.withDefaults(), cores: max(cores, 1), t: make([]target, n), rank: make([]int, n)}
	r := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	for i, v := range r.Perm(n) {
		s.rank[i] = v
	}
	for i := range s.t {
		s.t[i].active = true
	}
	return s
}

// Observe records what target i found in y.CPU seconds.
func (s *Scheduler) Observe(i int, y Yield) {
	t := &s.t[i]
	c := math.Max(y.CPU, 0)
	t.total += c
	if y.WarmUp {
		return
	}
	decay := math.Exp2(-c / s.p.HalfLife)
	g := float64(max(y.Coverage, 0)+max(y.Corpus, 0)) + s.p.FailureWeight*float64(max(y.Failures, 0))
	t.gains = t.gains*decay + g
	t.spent = t.spent*decay + c
}

// Remove stops scheduling target i (it ended or cannot run).
func (s *Scheduler) Remove(i int) {
	s.t[i].active = false
	s.t[i].cores = 0
}

// Active reports whether target i is still scheduled.
func (s *Scheduler) Active(i int) bool { return s.t[i].active }

// Rate is target i's recent gains per CPU-second, and whether it is
// known: false until some of its CPU time was counted (after its
// warm-up).
func (s *Scheduler) Rate(i int) (float64, bool) {
	t := s.t[i]
	if t.spent <= 0 {
		return 0, false
	}
	return t.gains / t.spent, true
}

// Shares returns each target's share of the cores under the rule, over
// the active targets that had their first round (0 for the others). A
// target whose rate is not known yet counts with the mean of the known
// ones.
func (s *Scheduler) Shares() []float64 {
	out := make([]float64, len(s.t))
	rates := make([]float64, len(s.t))
	var n, known int
	var sum, knownSum float64
	for i, t := range s.t {
		if t.active && t.visited {
			n++
			if r, ok := s.Rate(i); ok {
				known++
				knownSum += r
			}
		}
	}
	if n == 0 {
		return out
	}
	explore := s.Exploration()
	for i, t := range s.t {
		if !t.active || !t.visited {
			continue
		}
		r, ok := s.Rate(i)
		if !ok && known > 0 {
			r = knownSum / float64(known)
		}
		rates[i] = r
		sum += r
	}
	for i, t := range s.t {
		if !t.active || !t.visited {
			continue
		}
		if sum > 0 {
			out[i] = explore/float64(n) + (1-explore)*rates[i]/sum
		} else {
			out[i] = 1 / float64(n)
		}
	}
	return out
}

// Exploration is the part of the cores spread evenly over the targets
// now: 1 at the start, falling to Explore at ExploreTime.
func (s *Scheduler) Exploration() float64 {
	if s.p.ExploreTime <= 0 || s.now >= s.p.ExploreTime {
		return s.p.Explore
	}
	return s.p.Explore + (1-s.p.Explore)*(1-s.now/s.p.ExploreTime)
}

// FirstPass reports whether some active target has not had its first
// round yet.
func (s *Scheduler) FirstPass() bool {
	for _, t := range s.t {
		if t.active && !t.visited {
			return true
		}
	}
	return false
}

// Next returns the cores of each target in the next round, which lasts d
// seconds (the credit each target is owed grows with d). They add up to
// the cores, or less when fewer targets are active.
func (s *Scheduler) Next(d float64) []int {
	d = math.Max(d, 1e-3)
	defer func() { s.now += d }()
	s.lastD = d
	clear(s.lastRate)
	alloc := make([]int, len(s.t))
	var fresh []int
	active := 0
	for i, t := range s.t {
		if t.active {
			active++
			if !t.visited {
				fresh = append(fresh, i)
			}
		}
	}
	free := s.cores
	switch {
	case len(fresh) > 0 && len(fresh) == active && active < s.cores:
		// Fewer targets than cores, none run yet: divide the cores.
		for j, i := range fresh {
			alloc[i] = s.cores / len(fresh)
			if j < s.cores%len(fresh) {
				alloc[i]++
			}
		}
		free = 0
	case len(fresh) > 0:
		for _, i := range fresh[:min(len(fresh), s.cores)] {
			alloc[i] = 1
		}
		free -= min(len(fresh), s.cores)
	}
	for _, i := range fresh {
		if alloc[i] > 0 {
			s.t[i].visited = true
		}
	}
	if free > 0 {
		s.deficit(alloc, free, d)
	}
	for i := range s.t {
		s.t[i].cores = alloc[i]
	}
	return alloc
}

// deficit gives free cores to the active targets that had their first
// round (not those alloc already holds for a first round), by credit.
func (s *Scheduler) deficit(alloc []int, free int, d float64) {
	shares := s.Shares()
	var cand []int
	for i, t := range s.t {
		if t.active && t.visited && alloc[i] == 0 {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return
	}
	// The candidates' shares, normalised among them (during the first
	// pass the targets in their first round are not candidates).
	var sum float64
	for _, i := range cand {
		sum += shares[i]
	}
	if s.lastRate == nil {
		s.lastRate = make([]float64, len(s.t))
	}
	for _, i := range cand {
		s.t[i].credit += shares[i] / sum * float64(free) * d
		s.lastRate[i] = shares[i] / sum * float64(free)
	}
	for range free {
		best, bestV := -1, 0.0
		for _, i := range cand {
			t := s.t[i]
			v := t.credit - float64(alloc[i])*d
			if t.cores > alloc[i] {
				v += s.p.Sticky * d
			}
			if best < 0 || v > bestV || v == bestV && s.rank[i] < s.rank[best] {
				best, bestV = i, v
			}
		}
		alloc[best]++
	}
	for _, i := range cand {
		s.t[i].credit -= float64(alloc[i]) * d
		s.lastRate[i] -= float64(alloc[i])
	}
}

// EndRound tells the scheduler that the last round (Next) lasted only
// actual seconds (a process ended by itself and the next round starts
// early): the credit and the debit of that round, and the time of the
// run, become those of a round of that length. A longer actual changes
// nothing (the next round's credit covers the rest).
func (s *Scheduler) EndRound(actual float64) {
	short := s.lastD - math.Max(actual, 0)
	if short <= 0 {
		return
	}
	for i, r := range s.lastRate {
		s.t[i].credit -= r * short
	}
	s.now -= short
	s.lastD -= short
}
