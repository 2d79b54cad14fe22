package engine

import (
	"math"
	"testing"
)

// Rules of the bandit (bandit.go) and of auto's credit (auto.go) that the
// behavioural tests of bandit_test.go and auto_test.go exercise only
// together: each test here breaks when its one rule changes.

// TestBanditPooledPrior: an arm without history has the posterior
// Beta(1, 1/m), m the pooled rate of all arms: its mean is about m, not
// 1/2 (Beta(1, 1)'s), so when finds are one in five hundred a new or
// forgotten arm looks like the average arm, not like one paying every other
// execution.
func TestBanditPooledPrior(t *testing.T) {
	b := newBandit("old", "new")
	b.credit(0, 1)
	for range 999 {
		b.credit(0, 0)
	}
	m := b.pooled()
	if want := 2.0 / 1002; math.Abs(m-want) > 1e-12 {
		t.Fatalf("pooled rate %.6f, want (1+1)/(2+1+999) = %.6f", m, want)
	}
	if got := b.mean(1); got < m/2 || got > 2*m {
		t.Errorf("an arm without history has the posterior mean %.5f; want about the pooled rate %.5f (a Beta(1, 1) prior gives 0.5)", got, m)
	}
	// The prior also decides Thompson sampling: with a Beta(1, 1) prior
	// the new arm's sample beats the old arm's in nearly every round.
	r := newPRNG(1)
	b.estimate(r)
	if b.p[1] > 0.9 {
		t.Errorf("the arm without history wins %.2f of the Thompson rounds against an arm paying 1 in 1,000: its prior is not the pooled rate", b.p[1])
	}
}

// TestBanditEstimateEpoch: the arms' probabilities are estimated again
// only after banditEpoch credited executions, or banditMinEpoch after a
// reward; between estimates decisions reuse the last one.
func TestBanditEstimateEpoch(t *testing.T) {
	r := newPRNG(3)
	b := newBandit("a", "b")
	b.choose(r, 3) // the first decision estimates
	if b.since != 0 {
		t.Fatalf("no estimate before the first decision (since %d)", b.since)
	}
	for range banditEpoch - 1 {
		b.credit(0, 0)
	}
	b.choose(r, 3)
	if b.since != banditEpoch-1 {
		t.Errorf("estimated again after %d executions without a reward (epoch %d)", banditEpoch-1, banditEpoch)
	}
	b.credit(0, 0)
	b.choose(r, 3)
	if b.since != 0 {
		t.Errorf("not estimated again after %d executions (since %d)", banditEpoch, b.since)
	}
	// After a reward: banditMinEpoch executions.
	b.credit(1, 1)
	for range banditMinEpoch - 2 {
		b.credit(0, 0)
	}
	b.choose(r, 3)
	if b.since != banditMinEpoch-1 {
		t.Errorf("estimated again %d executions after a reward (min epoch %d)", banditMinEpoch-1, banditMinEpoch)
	}
	b.credit(0, 0)
	b.choose(r, 3)
	if b.since != 0 || b.event {
		t.Errorf("not estimated again %d executions after a reward (since %d, event %v)", banditMinEpoch, b.since, b.event)
	}
	// Decisions between estimates follow the estimate: an arm estimated
	// at 0 is chosen only by exploration (5%, half of it this arm).
	b.p[0], b.p[1] = 0, 1
	b.weigh()
	n := 0
	for range 2000 {
		if b.choose(r, 3) == 0 {
			n++
		}
	}
	if n == 0 || n > 2000*banditExplore {
		t.Errorf("an arm estimated at 0 was chosen %d times in 2,000 decisions; want about %g (exploration only)", n, 2000*banditExplore/2)
	}
}

// TestBanditCharge: a decision whose child was skipped (a zero mutation)
// counts as a decision and as a fraction of a failure, not as an
// execution, and lowers the arm's posterior mean.
func TestBanditCharge(t *testing.T) {
	b := newBandit("a", "b")
	before := b.mean(0)
	b.charge(0, autoZeroCost)
	if b.execs[0] != 0 || b.zero[0] != 1 || b.f[0] != autoZeroCost || b.s[0] != 0 {
		t.Errorf("after a charge: execs %d, zero %d, failures %g, successes %g; want 0, 1, %g, 0", b.execs[0], b.zero[0], b.f[0], b.s[0], autoZeroCost)
	}
	if b.mean(0) >= before {
		t.Errorf("a charge left the arm's mean at %.4f (was %.4f)", b.mean(0), before)
	}
}

// TestBanditCreditOneTrial: an execution with reward r adds r to the arm's
// successes and 1-r to its failures (one trial), after discounting every
// arm; an execution without a reward adds one failure and discounts
// nothing.
func TestBanditCreditOneTrial(t *testing.T) {
	b := newBandit("a", "b")
	b.s[0], b.f[0], b.s[1], b.f[1] = 4, 10, 2, 20
	b.credit(1, 0)
	if b.s[0] != 4 || b.f[0] != 10 || b.s[1] != 2 || b.f[1] != 21 {
		t.Errorf("after a trial without reward: %v %v; want [4 2] [10 21]", b.s, b.f)
	}
	b.credit(1, 0.5)
	g := banditGamma
	want := [4]float64{4 * g, 10 * g, 2*g + 0.5, 21*g + 0.5}
	got := [4]float64{b.s[0], b.f[0], b.s[1], b.f[1]}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("after a trial with reward 0.5: s %v f %v; want s [%g %g] f [%g %g]", b.s, b.f, want[0], want[2], want[1], want[3])
		}
	}
	if b.execs[1] != 2 || b.finds[1] != 1 || b.reward[1] != 0.5 {
		t.Errorf("totals: execs %d, finds %d, reward %g; want 2, 1, 0.5", b.execs[1], b.finds[1], b.reward[1])
	}
}

// TestAutoReward: an execution's reward is 1 for a new failure, an input
// saved for a new edge or a new valid edge; 0.5 for one saved for a new
// hit-count class or for a feedback domain alone; 0 otherwise.
func TestAutoReward(t *testing.T) {
	q := &entry{}
	for _, c := range []struct {
		name string
		y    yield
		want float64
	}{
		{"nothing", yield{result: Valid}, 0},
		{"failure", yield{result: Failure, failure: true}, 1},
		{"known failure", yield{result: Failure}, 0},
		{"+cov", yield{result: Invalid, queued: q, novelty: newEdge | newKey}, 1},
		{"+valid", yield{result: Valid, queued: q, novelty: newValidEdge | newValidKey}, 1},
		{"+count", yield{result: Valid, queued: q, novelty: newKey}, 0.5},
		// A new class and a new valid edge: the valid edge decides (the
		// save reason, +count first, would have made it 0.5).
		{"+count and +valid", yield{result: Valid, queued: q, novelty: newKey | newValidKey | newValidEdge}, 1},
		{"+valid class", yield{result: Valid, queued: q, novelty: newValidKey}, 0.5},
		{"domain", yield{result: Valid, queued: q}, 0.5},
	} {
		if got := rewardOf(c.y); got != c.want {
			t.Errorf("%s: reward %g, want %g", c.name, got, c.want)
		}
	}
}

// TestAutoFastSchedule: the fast parent arm takes, of a tournament of 4
// queued inputs, the one whose path was exercised least, and gives it
// zestChildren(P) * 2^s / f children (s its earlier turns, f its path's
// executions), at least 1 and at most fastMaxEnergy.
func TestAutoFastSchedule(t *testing.T) {
	rare := &entry{data: []byte("rare path"), edges: 2, trace: 7}
	common := &entry{data: []byte("common path"), edges: 2, trace: 9}
	env := &scriptEnv{r: newPRNG(5), q: []*entry{common, rare}, edges: 10, max: 64}
	s := newAutoTurns(env)
	s.restrict(s.opsMask, 1<<schedFast)
	h := env.hits()
	h.paths[7], h.paths[9] = 2, 1000
	turns, rareTurns := 400, 0
	for range turns {
		s.startTurn()
		if s.sch != schedFast {
			t.Fatalf("parent arm %s, only fast allowed", schedNames[s.sch])
		}
		if s.parent == rare {
			rareTurns++
		}
	}
	// The common input wins only a tournament without the rare one: 1/16.
	if rareTurns < turns*13/16 || rareTurns == turns {
		t.Errorf("the input of the least exercised path got %d of %d turns; want about 15/16", rareTurns, turns)
	}
	// Energy: one input, f = 2, zestChildren = 50 * 2/10 = 10.
	env.q = []*entry{rare}
	s = newAutoTurns(env)
	s.restrict(s.opsMask, 1<<schedFast)
	var got []int
	for range 10 {
		s.startTurn()
		got = append(got, s.target)
	}
	want := []int{5, 10, 20, 40, 80, 160, 320, 640, fastMaxEnergy, fastMaxEnergy}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("energies of successive turns %v, want %v", got, want)
		}
	}
	h.paths[7] = 1000
	s = newAutoTurns(env)
	s.restrict(s.opsMask, 1<<schedFast)
	if s.startTurn(); s.target != 1 {
		t.Errorf("energy %d for a path exercised 1,000 times (10 * 1/1000): want the floor 1", s.target)
	}
}

// playCosts makes decisions until n executions have been credited: a
// decision of arm a commits cost[a] executions, and pays(a, k) tells
// whether the k-th of them (from 0) is rewarded (1) or not. It returns the
// executions and the decisions of each arm.
func playCosts(b *bandit, r *prng, n int, cost []int, pays func(a, k int) bool) (execs, decisions []int) {
	execs, decisions = make([]int, len(cost)), make([]int, len(cost))
	for total := 0; total < n; {
		a := b.choose(r, 1<<len(cost)-1)
		decisions[a]++
		for k := range cost[a] {
			rw := 0.0
			if pays(a, k) {
				rw = 1
			}
			b.credit(a, rw)
			execs[a]++
			total++
		}
	}
	return execs, decisions
}

// TestBanditChargesByCost: an arm is charged by the executions its
// decision commits. (1) Arm 0's decision costs 50 executions, arm 1's one,
// and a decision of either finds something with the same probability, 1
// in 20: arm 0 yields 50 times less per execution and gets less than a
// fifth of the executions and fewer decisions than arm 1 (choosing by the
// probability of being best per decision, each arm's share of the
// decisions, gave arm 0 more than half of the executions through
// exploration alone). (2) Both arms yield 1 in 100 per execution: the
// executions split about evenly, not 50 to 1. Seeds 1-3.
func TestBanditChargesByCost(t *testing.T) {
	cost := []int{50, 1}
	for seed := int64(1); seed <= 3; seed++ {
		world := newPRNG(seed + 100)
		b := newBandit("dear", "cheap")
		execs, dec := playCosts(b, newPRNG(seed), 200_000, cost, func(a, k int) bool {
			return k == 0 && world.below(20) == 0 // one find in 20 decisions, whatever their cost
		})
		sh := float64(execs[0]) / float64(execs[0]+execs[1])
		t.Logf("seed %d, same finds per decision: the 50-execution arm has %.3f of the executions, %d decisions against %d; costs %.1f, %.2f",
			seed, sh, dec[0], dec[1], b.cost[0], b.cost[1])
		if sh > 0.2 || dec[0] >= dec[1] {
			t.Errorf("seed %d: the arm whose decision costs 50 executions for the finds of one got %.3f of the executions and %d decisions (the other %d): want < 0.2 and fewer",
				seed, sh, dec[0], dec[1])
		}

		world = newPRNG(seed + 200)
		b = newBandit("dear", "cheap")
		execs, _ = playCosts(b, newPRNG(seed), 200_000, cost, func(a, k int) bool { return world.below(100) == 0 })
		sh = float64(execs[0]) / float64(execs[0]+execs[1])
		t.Logf("seed %d, same finds per execution: the 50-execution arm has %.3f of the executions", seed, sh)
		if sh < 0.2 || sh > 0.8 {
			t.Errorf("seed %d: two arms with the same yield per execution, one 50 times dearer per decision: it got %.3f of the executions, want about half",
				seed, sh)
		}
	}
}

// TestBanditDecisionCost: a decision's cost is what was credited or
// charged between it and the bandit's next decision; the arm's cost per
// decision, a discounted ratio starting from one execution per decision,
// is what the weights use after the next estimate.
func TestBanditDecisionCost(t *testing.T) {
	b := newBandit("a", "b")
	r := newPRNG(1)
	b.p[0], b.p[1], b.explore = 1, 0, 0 // only arm 0
	b.weigh()
	if a := b.choose(r, 1); a != 0 {
		t.Fatalf("chose %d", a)
	}
	for range 99 {
		b.credit(0, 0)
	}
	b.charge(0, 1) // a zero mutation's charge counts too
	b.choose(r, 1)
	keep := 1 - 1.0/banditCostMemory
	if b.dcost[0] != 100 || b.dn[0] != 1 {
		t.Fatalf("after a decision of 100: dcost %g, dn %g", b.dcost[0], b.dn[0])
	}
	b.credit(0, 0)
	b.choose(r, 1)
	if want := 100*keep + 1; math.Abs(b.dcost[0]-want) > 1e-9 || math.Abs(b.dn[0]-(keep+1)) > 1e-9 {
		t.Errorf("after a second decision of 1: dcost %g, dn %g; want %g, %g", b.dcost[0], b.dn[0], want, keep+1)
	}
	if b.cost[0] != 1 {
		t.Errorf("cost %g before an estimate, want the prior 1", b.cost[0])
	}
	b.estimate(r)
	if want := (100*keep + 1 + 1) / (keep + 1 + 1); math.Abs(b.cost[0]-want) > 1e-9 || b.cost[1] != 1 {
		t.Errorf("costs %v after the estimate, want [%g 1]", b.cost, want)
	}
}
