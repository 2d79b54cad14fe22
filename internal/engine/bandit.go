package engine

import (
	"math"
	"math/bits"
)

// A multi-armed bandit for the adaptive engine (auto.go): discounted
// Thompson sampling, made cheap by probability matching and deterministic
// by drawing every random number from the run's PRNG.
//
// Each arm has a Beta(1 + S, 1/m + F) posterior over the probability that
// one execution spent on it finds something, where m is the pooled rate of
// all arms, (1 + sum S) / (2 + sum S + sum F): the prior is one find in the
// executions the average arm needs for one, so an arm with little history
// (new, or forgotten) looks like the average arm with a wide uncertainty,
// not like an arm that pays every other execution (Beta(1, 1)'s mean), which
// would make the bandit spend thousands of executions on it every time its
// history fades when finds come one in thousands. An execution is one trial:
// S grows by its reward r in [0, 1] (auto.go's rewardOf: 1 for a new edge,
// a new valid edge or a new failure, less for lesser finds), F by 1 - r.
// Both are discounted, by gamma, at every reward event of any arm: the
// memory of the bandit is the last 1/(1-gamma) finds, whatever the number
// of executions between them. Finds come every few executions at the start
// of a campaign and every hundred thousand late in it; a discount per
// execution would either forget everything between two late finds or
// remember the start forever. So an arm that stops paying keeps its past
// successes only until the other arms have found about 1/(1-gamma) things,
// while its failures go on growing; an arm that starts paying again gains
// at once.
//
// Thompson sampling picks the arm whose posterior sample is largest, that
// is each arm with the probability that it is the best. Sampling K Beta
// variables for every child would cost more than a cheap target's
// execution, so the probabilities are estimated by banditDraws Monte
// Carlo rounds and reused until banditEpoch more executions have been
// credited (banditMinEpoch after a reward event, while finds come fast):
// counted in executions, not decisions, so that a bandit deciding once per
// parent's turn (hundreds of executions) re-estimates about as often as one
// deciding for every child (auto's parent bandit is credited only the
// children with a parent, about half of them: see auto.go's generation
// share).
//
// Charging by cost. The posterior is over the reward of one execution, but
// a decision may commit many executions (a fairfuzz mask: 3 a byte of the
// parent; a parent arm's turn: its children), so choosing each arm with
// its probability of being the best would give an arm whose decisions cost
// c executions c times that share of the executions. Each arm's cost per
// decision is learned instead: the executions (and zero-mutation charges)
// credited between its choice and the bandit's next choice, averaged over
// its last ~banditCostMemory decisions (a discounted ratio, starting from
// one decision of one execution), and a decision picks arm i with weight
// p_i / cost_i, so that its expected share of the executions, not of the
// decisions, is p_i. The costs the weights use are those of the last
// estimate. Cost is counted in executions, not CPU time: the choices stay
// a function of the seed.
//
// A decision is one weighted pick among the arms available for the child
// (restricted to them and renormalised). With probability banditExplore the
// pick is among the available arms with weights 1/cost_i instead (uniform
// in executions): an arm's share of the executions spent on the decisions
// for which it is available does not fall below about banditExplore/K, so
// an arm that paid nothing so far is still tried, and one whose luck
// changes is noticed, and an expensive arm's exploration costs no more
// executions than a cheap one's.

const (
	banditGamma    = 0.95 // discount per reward event
	banditExplore  = 0.05 // share of uniform decisions
	banditDraws    = 32   // Monte Carlo rounds per probability estimate
	banditEpoch    = 4096 // executions credited between estimates
	banditMinEpoch = 128  // ... after a reward event (while finds come fast)

	banditCostMemory = 32   // decisions of an arm its cost per decision averages over (discounted)
	banditMinCost    = 0.05 // floor of a cost per decision (executions)
)

// bandit is one set of arms.
type bandit struct {
	names   []string
	gamma   float64   // banditGamma (tests change it)
	explore float64   // banditExplore (tests change it)
	s, f    []float64 // discounted rewards and failures (the posterior is Beta(1+s, 1/m+f))
	p       []float64 // the probability of each arm being the best, last estimate
	since   int       // executions credited since that estimate
	event   bool      // a reward since then

	// Cost per decision (see "Charging by cost"): dcost and dn are each
	// arm's discounted executions and decisions, cost their ratio at the
	// last estimate; open is the arm of the decision in flight (-1: none)
	// and spent what was credited or charged since it was made.
	dcost, dn, cost []float64
	open            int
	spent           float64
	// w and xw are the weights of pick (p/cost) and of explorePick
	// (1/cost) at the last estimate; exploreCut is explore as a fraction
	// of 2^64 (a decision explores when a uniform uint64 is below it).
	w, xw      []float64
	exploreCut uint64
	// hintArm's cost for the next decision is hintCost instead of its
	// learned cost (hint; -1: none).
	hintArm  int
	hintCost float64

	// Totals for stats and the report (not discounted).
	chosen []int64   // decisions that picked the arm
	execs  []int64   // executions credited to it
	finds  []int64   // executions with a reward
	zero   []int64   // decisions whose child was skipped (charge)
	reward []float64 // sum of rewards
	wins   []int     // scratch: Monte Carlo wins
	// cum are the cumulative weights of the arms of cumFor (pick), xcum
	// those of exploration, 1/cost (explorePick).
	cum, xcum     []float64
	cumFor, xFor  uint64
	cumOK, xcumOK bool
}

func newBandit(names ...string) *bandit {
	k := len(names)
	b := &bandit{
		names: names, gamma: banditGamma, explore: banditExplore,
		s: make([]float64, k), f: make([]float64, k), p: make([]float64, k),
		chosen: make([]int64, k), execs: make([]int64, k), finds: make([]int64, k), zero: make([]int64, k),
		reward: make([]float64, k), wins: make([]int, k),
		dcost: make([]float64, k), dn: make([]float64, k), cost: make([]float64, k), open: -1,
		w: make([]float64, k), xw: make([]float64, k), hintArm: -1,
	}
	for i := range b.p {
		b.p[i] = 1 / float64(k)
		b.cost[i] = 1
	}
	b.since = banditEpoch // estimate before the first decision
	return b
}

// choose picks an arm among those avail reports (bit i: arm i), or -1 if
// none is available. It closes the decision in flight: what was credited
// or charged since it was made is its cost.
func (b *bandit) choose(r *prng, avail uint64) int {
	avail &= 1<<len(b.names) - 1
	if avail == 0 {
		return -1
	}
	b.closeDecision()
	if b.since >= banditEpoch || (b.event && b.since >= banditMinEpoch) {
		b.estimate(r)
	}
	var arm int
	switch {
	case avail&(avail-1) == 0: // one arm: no draw
		arm = trailing(avail)
	case r.next() < b.exploreCut:
		arm = b.explorePick(r, avail)
	default:
		arm = b.pick(r, avail)
	}
	b.chosen[arm]++
	b.open, b.spent = arm, 0
	return arm
}

// hint sets the cost of arm for the next decision only, when the caller
// knows it (a fairfuzz decision for a parent without its mask: the mask's
// executions), instead of the arm's learned average; cost <= 0 clears it.
func (b *bandit) hint(arm int, cost float64) {
	if cost <= 0 {
		arm, cost = -1, 0
	} else {
		cost = max(cost, banditMinCost)
	}
	if arm != b.hintArm || cost != b.hintCost {
		b.hintArm, b.hintCost = arm, cost
		b.cumOK, b.xcumOK = false, false
	}
}

// weight is arm's weight in pick (p/cost) and in explorePick (1/cost).
func (b *bandit) weight(i int) (w, xw float64) {
	if i == b.hintArm {
		return b.p[i] / b.hintCost, 1 / b.hintCost
	}
	return b.w[i], b.xw[i]
}

// reassign moves the decision in flight to arm (the arm chosen could not
// make its child and another made it).
func (b *bandit) reassign(arm int) {
	if b.open >= 0 && b.open != arm {
		b.chosen[b.open]--
		b.chosen[arm]++
		b.open = arm
	}
}

// closeDecision adds the decision in flight's cost to its arm's
// discounted average (the memory is about banditCostMemory of the arm's
// decisions).
func (b *bandit) closeDecision() {
	if a := b.open; a >= 0 {
		const keep = 1 - 1.0/banditCostMemory
		b.dcost[a] = b.dcost[a]*keep + b.spent
		b.dn[a] = b.dn[a]*keep + 1
		b.open = -1
	}
}

// pick draws an available arm with probability proportional to its
// estimated probability of being the best divided by its cost per
// decision (the hinted cost for the hinted arm; explorePick if all of them are estimated at zero). The
// cumulative weights of the last set of available arms are kept until it
// or the estimate changes.
func (b *bandit) pick(r *prng, avail uint64) int {
	if avail != b.cumFor || !b.cumOK {
		b.cumFor, b.cumOK = avail, true
		b.cum = b.cum[:0]
		total := 0.0
		for a := avail; a != 0; a &= a - 1 {
			w, _ := b.weight(trailing(a))
			total += w
			b.cum = append(b.cum, total)
		}
	}
	total := b.cum[len(b.cum)-1]
	if total <= 0 {
		return b.explorePick(r, avail)
	}
	return nthBit(avail, drawCum(r, b.cum, total))
}

// explorePick draws an available arm with probability proportional to
// 1/cost: uniform in executions.
func (b *bandit) explorePick(r *prng, avail uint64) int {
	if avail != b.xFor || !b.xcumOK {
		b.xFor, b.xcumOK = avail, true
		b.xcum = b.xcum[:0]
		total := 0.0
		for a := avail; a != 0; a &= a - 1 {
			_, xw := b.weight(trailing(a))
			total += xw
			b.xcum = append(b.xcum, total)
		}
	}
	return nthBit(avail, drawCum(r, b.xcum, b.xcum[len(b.xcum)-1]))
}

// drawCum draws an index of the cumulative weights cum (total their last).
func drawCum(r *prng, cum []float64, total float64) int {
	u := float64(r.next()>>11) / (1 << 53) * total
	for i, c := range cum {
		if u < c {
			return i
		}
	}
	return len(cum) - 1 // rounding
}

// estimate sets b.p by banditDraws rounds of Thompson sampling: the share
// of rounds in which each arm's posterior sample was the largest.
// The costs per decision are updated with it.
func (b *bandit) estimate(r *prng) {
	b.since, b.event, b.cumOK, b.xcumOK = 0, false, false, false
	for i := range b.cost {
		b.cost[i] = max((b.dcost[i]+1)/(b.dn[i]+1), banditMinCost)
	}
	clear(b.wins)
	prior := 1 / b.pooled()
	for range banditDraws {
		best, bv := 0, -1.0
		for i := range b.names {
			if v := b.sampleBeta(r, 1+b.s[i], prior+b.f[i]); v > bv {
				best, bv = i, v
			}
		}
		b.wins[best]++
	}
	for i, w := range b.wins {
		b.p[i] = float64(w) / banditDraws
	}
	b.weigh()
}

// weigh sets the weights of the decisions from p, the costs and explore.
func (b *bandit) weigh() {
	for i := range b.p {
		b.w[i], b.xw[i] = b.p[i]/b.cost[i], 1/b.cost[i]
	}
	b.exploreCut = exploreCut(b.explore)
	b.cumOK, b.xcumOK = false, false
}

// exploreCut is the share e in [0, 1] of uint64 values: a uniform uint64
// is below it with probability e.
func exploreCut(e float64) uint64 {
	if e >= 1 {
		return math.MaxUint64
	}
	return uint64(max(e, 0) * (1 << 63) * 2)
}

// credit records one execution spent on arm with reward r in [0, 1]. A
// reward discounts every arm's history first (the event's own trial has
// weight 1).
func (b *bandit) credit(arm int, r float64) {
	b.execs[arm]++
	b.since++
	b.spent++
	if r <= 0 {
		b.f[arm]++
		return
	}
	b.finds[arm]++
	b.reward[arm] += r
	for i := range b.s {
		b.s[i] *= b.gamma
		b.f[i] *= b.gamma
	}
	b.s[arm] += r
	b.f[arm] += 1 - r
	b.event = true
}

// creditOutside records one execution of arm that no decision of this
// bandit made (auto's generation share): it counts in the arm's posterior
// and totals as credit does, but not in the cost of the decision in
// flight.
func (b *bandit) creditOutside(arm int, r float64) {
	spent := b.spent
	b.credit(arm, r)
	b.spent = spent
}

// pooled is the rate of all arms together, (1 + sum S) / (2 + sum S + sum
// F).
func (b *bandit) pooled() float64 {
	var s, f float64
	for i := range b.s {
		s += b.s[i]
		f += b.f[i]
	}
	return (1 + s) / (2 + s + f)
}

// charge records a decision whose child was never executed (a zero
// mutation the loop skipped) as cost failures without an execution.
func (b *bandit) charge(arm int, cost float64) {
	b.zero[arm]++
	b.f[arm] += cost
	b.spent += cost
}

// mean is the posterior mean of arm's reward per execution.
func (b *bandit) mean(arm int) float64 {
	return (1 + b.s[arm]) / (1 + b.s[arm] + 1/b.pooled() + b.f[arm])
}

// sampleBeta draws from Beta(a, b) as X/(X+Y), X ~ Gamma(a), Y ~ Gamma(b).
func (b *bandit) sampleBeta(r *prng, x, y float64) float64 {
	gx := b.sampleGamma(r, x)
	gy := b.sampleGamma(r, y)
	if gx+gy == 0 {
		return 0
	}
	return gx / (gx + gy)
}

// sampleGamma draws from Gamma(a, 1) by Marsaglia and Tsang's method (a
// < 1: Gamma(a+1) * U^(1/a)).
func (b *bandit) sampleGamma(r *prng, a float64) float64 {
	if a < 1 {
		u := unit(r)
		return b.sampleGamma(r, a+1) * math.Pow(u, 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := b.normal(r)
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := unit(r)
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// normal draws a standard normal variate by inverting its CDF with a
// table (normalQuantiles) and linear interpolation: a few nanoseconds,
// where Box-Muller's logarithm, square root and sine made an estimate
// cost about a third of a millisecond (a cheap target's 500 executions).
// Its tails stop at about 3.7 standard deviations, which is enough to rank
// posteriors.
func (b *bandit) normal(r *prng) float64 {
	x := r.next()
	i := x >> (64 - normalBits)
	frac := float64(x>>(64-normalBits-20)&(1<<20-1)) / (1 << 20)
	lo := normalQuantiles[i]
	return lo + (normalQuantiles[i+1]-lo)*frac
}

// normalQuantiles[i] is the standard normal quantile of (i+0.5)/2^normalBits
// (one more entry, equal to the last, for the interpolation).
const normalBits = 12

var normalQuantiles = func() (t [1<<normalBits + 1]float64) {
	n := float64(1 << normalBits)
	for i := range 1 << normalBits {
		t[i] = math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/n-1)
	}
	t[1<<normalBits] = t[1<<normalBits-1]
	return t
}()

// unit is a uniform float64 in (0, 1].
func unit(r *prng) float64 { return float64(r.next()>>11+1) / (1 << 53) }

func trailing(x uint64) int { return bits.TrailingZeros64(x) }

// nthBit returns the index of the n-th set bit of x (n from 0).
func nthBit(x uint64, n int) int {
	for ; n > 0; n-- {
		x &= x - 1
	}
	return trailing(x)
}
