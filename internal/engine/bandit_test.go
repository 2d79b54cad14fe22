package engine

import (
	"slices"
	"testing"
)

// scriptedArms plays a bandit against scripted yields: pay(t, arm) is the
// probability that an execution of arm pays (reward 1) at decision t. The
// rewards are drawn from a PRNG of their own, so the bandit's draws do not
// change the script's.
type scriptedArms struct {
	b     *bandit
	r     *prng // the bandit's
	world *prng // the script's
	t     int
	log   []int
}

func newScriptedArms(seed int64, arms int) *scriptedArms {
	names := make([]string, arms)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	return &scriptedArms{b: newBandit(names...), r: newPRNG(seed), world: newPRNG(seed + 1000)}
}

// play makes n decisions with every arm available; it returns how many
// times each arm was chosen.
func (s *scriptedArms) play(n int, pay func(t, arm int) float64) []int {
	counts := make([]int, len(s.b.names))
	for range n {
		arm := s.b.choose(s.r, 1<<len(s.b.names)-1)
		counts[arm]++
		s.log = append(s.log, arm)
		r := 0.0
		if unit(s.world) <= pay(s.t, arm) {
			r = 1
		}
		s.b.credit(arm, r)
		s.t++
	}
	return counts
}

func share(counts []int, arm int) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	return float64(counts[arm]) / float64(n)
}

// TestBanditStopsAndStartsPaying: arm 0 pays well, then stops paying, then
// pays again; arms 1-3 pay a little all along. The share of decisions arm 0
// gets falls when it stops and rises when it pays again (measured over the
// last part of each phase, after the bandit has had time to notice), for
// every seed.
func TestBanditStopsAndStartsPaying(t *testing.T) {
	const phase = 40_000
	for seed := int64(1); seed <= 5; seed++ {
		s := newScriptedArms(seed, 4)
		pays := func(a0 float64) func(t, arm int) float64 {
			return func(_, arm int) float64 {
				if arm == 0 {
					return a0
				}
				return 0.002
			}
		}
		s.play(phase/2, pays(0.02))
		good := s.play(phase/2, pays(0.02))
		s.play(phase/2, pays(0))
		stopped := s.play(phase/2, pays(0))
		s.play(phase/2, pays(0.02))
		again := s.play(phase/2, pays(0.02))
		g, st, ag := share(good, 0), share(stopped, 0), share(again, 0)
		t.Logf("seed %d: arm 0's share paying %.3f, stopped %.3f, paying again %.3f", seed, g, st, ag)
		if g < 0.5 {
			t.Errorf("seed %d: the arm paying 10x more got %.3f of the decisions, want > 0.5", seed, g)
		}
		if st > g/4 || st > 0.25 {
			t.Errorf("seed %d: the arm that stopped paying got %.3f (it had %.3f; a fair share is 0.25): want it chosen less",
				seed, st, g)
		}
		if ag < 2*st || ag < 0.5 {
			t.Errorf("seed %d: the arm paying again got %.3f (stopped: %.3f): want it chosen more", seed, ag, st)
		}
	}
}

// TestBanditNoArmStarves: an arm that never pays still gets at least the
// exploration share, banditExplore / arms, of the decisions (within
// sampling noise), while another arm pays, whether finds are frequent or
// rare. Without exploration and discounting (the control), when finds are
// frequent, they starve: the rule can fail.
func TestBanditNoArmStarves(t *testing.T) {
	const n = 100_000
	floor := banditExplore / 5
	for _, pay := range []float64{0.5, 0.001} {
		for seed := int64(1); seed <= 2; seed++ {
			for _, control := range []bool{false, true} {
				if control && pay < 0.1 {
					continue // rare finds: Thompson sampling alone explores them
				}
				s := newScriptedArms(seed, 5)
				if control {
					s.b.explore, s.b.gamma = 0, 1
				}
				counts := s.play(n, func(_, arm int) float64 {
					if arm == 0 {
						return pay
					}
					return 0
				})
				least := 1.0
				for arm := 1; arm < 5; arm++ {
					least = min(least, share(counts, arm))
				}
				t.Logf("pay %g, seed %d, control %v: paying arm %.4f, least of the others %.4f", pay, seed, control, share(counts, 0), least)
				switch {
				case control && least >= floor/2:
					t.Errorf("pay %g, seed %d: without exploration and discount the arms that never pay got at least %.4f each: the test cannot fail",
						pay, seed, least)
				case !control && least < 0.9*floor:
					t.Errorf("pay %g, seed %d: an arm that never pays got %.4f of the decisions, want at least about %.4f", pay, seed, least, floor)
				case !control && pay > 0.1 && share(counts, 0) < 0.7:
					t.Errorf("pay %g, seed %d: the only paying arm got %.3f, want > 0.7", pay, seed, share(counts, 0))
				}
			}
		}
	}
}

// TestBanditDeterministic: the same seed makes the same choices, another
// seed others.
func TestBanditDeterministic(t *testing.T) {
	pay := func(t, arm int) float64 { return 0.01 * float64(arm+1) * float64(1+t%3) }
	a, b, c := newScriptedArms(7, 4), newScriptedArms(7, 4), newScriptedArms(8, 4)
	a.play(20_000, pay)
	b.play(20_000, pay)
	c.play(20_000, pay)
	if !slices.Equal(a.log, b.log) {
		t.Error("two bandits with the same seed and yields chose differently")
	}
	if slices.Equal(a.log, c.log) {
		t.Error("two bandits with different seeds chose the same 20,000 arms")
	}
}

// TestBanditAvailable: choose picks only available arms, and -1 when none
// is.
func TestBanditAvailable(t *testing.T) {
	b := newBandit("a", "b", "c", "d")
	r := newPRNG(1)
	for i := range 5000 {
		avail := uint64(i%15 + 1)
		arm := b.choose(r, avail)
		if avail&(1<<arm) == 0 {
			t.Fatalf("chose arm %d, not in %04b", arm, avail)
		}
		b.credit(arm, float64(arm%2))
	}
	if arm := b.choose(r, 0); arm != -1 {
		t.Errorf("no arm available: chose %d, want -1", arm)
	}
}

// TestBanditDiscount: a reward discounts every arm's history, so that an
// old success fades as other arms find things.
func TestBanditDiscount(t *testing.T) {
	b := newBandit("a", "b")
	for range 100 {
		b.credit(0, 1)
	}
	for range 1000 {
		b.credit(0, 0)
	}
	s0, f0 := b.s[0], b.f[0]
	for range 100 {
		b.credit(1, 1)
	}
	// banditGamma^100 = 0.95^100 = 0.006
	if b.s[0] > 0.05*s0 || b.f[0] > 0.05*f0 {
		t.Errorf("arm 0: successes %.2f and failures %.1f after arm 1's 100 finds (%.2f and %.1f before): want them discounted",
			b.s[0], b.f[0], s0, f0)
	}
	if b.mean(0) >= b.mean(1) {
		t.Errorf("arm 0 (forgotten) has the posterior mean %.4f, arm 1 (100 recent finds in 100) %.4f", b.mean(0), b.mean(1))
	}
}
