package bench

import (
	"math"
	"slices"
)

// The two statistics of "Evaluating Fuzz Testing" (Klees et al., CCS 2018)
// that gfz-bench's bug mode reports for every contender against native:
// the Mann-Whitney U test (is the difference between two samples of runs
// more than chance?) and the Vargha-Delaney Â12 effect size (how often
// does a run of one beat a run of the other?); and the sign test of the
// -check comparison by executions (paired.go).

// A12 is the Vargha-Delaney effect size of sample x against sample y: the
// probability that a value drawn from x is larger than one drawn from y,
// ties counting one half. 0.5 is no difference, 1 is x always larger, 0
// is x always smaller. NaN when a sample is empty.
func A12(x, y []float64) float64 {
	if len(x) == 0 || len(y) == 0 {
		return math.NaN()
	}
	u, _ := MannWhitneyU(x, y)
	return u / float64(len(x)*len(y))
}

// MannWhitneyU returns U of sample x against y (the number of pairs
// (x_i, y_j) with x_i > y_j, ties counting one half) and the two-sided
// p-value of the Mann-Whitney U test by the normal approximation with the
// tie correction of the variance and a continuity correction of 0.5 (what
// R's wilcox.test(x, y, exact = FALSE, correct = TRUE) computes). The
// approximation is fair from about 5 values per sample; with fewer, take
// the p-value as a rough guide only. p is 1 when every value is equal and
// NaN when a sample is empty.
func MannWhitneyU(x, y []float64) (u, p float64) {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return math.NaN(), math.NaN()
	}
	type obs struct {
		v   float64
		inX bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	slices.SortFunc(all, func(a, b obs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	// Mid-ranks; tieSum is the sum of t³-t over the groups of ties.
	rankX, tieSum := 0.0, 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // mean of the ranks i+1..j
		for k := i; k < j; k++ {
			if all[k].inX {
				rankX += rank
			}
		}
		t := float64(j - i)
		tieSum += t*t*t - t
		i = j
	}
	f1, f2 := float64(n1), float64(n2)
	n := f1 + f2
	u = rankX - f1*(f1+1)/2
	mean := f1 * f2 / 2
	variance := f1 * f2 / 12 * ((n + 1) - tieSum/(n*(n-1)))
	if variance <= 0 {
		return u, 1
	}
	z := max(0, math.Abs(u-mean)-0.5) / math.Sqrt(variance)
	return u, math.Erfc(z / math.Sqrt2)
}

// SignTestP is the two-sided exact binomial (sign) test of k successes
// in n trials against one half: the probability of an outcome at least
// as far from n/2 (1 when n is 0).
func SignTestP(k, n int) float64 {
	if n == 0 {
		return 1
	}
	k = min(k, n-k)
	var p float64
	lg, _ := math.Lgamma(float64(n + 1))
	for i := 0; i <= k; i++ {
		li, _ := math.Lgamma(float64(i + 1))
		lr, _ := math.Lgamma(float64(n - i + 1))
		p += math.Exp(lg - li - lr - float64(n)*math.Ln2)
	}
	return min(1, 2*p)
}
