package bench

import (
	"math"
	"slices"
)

// Ranking several contenders over several bugs or targets, as FuzzBench
// reports its experiments: on each benchmark the contenders are ranked by
// their median (ties sharing the mean of their ranks), and the ranks are
// averaged over the benchmarks. Whether the contenders differ at all is
// Friedman's test on those ranks; which pairs differ, the Nemenyi post-hoc
// test: two contenders whose mean ranks are further apart than the
// critical difference differ at the 0.05 level (Demšar, "Statistical
// Comparisons of Classifiers over Multiple Data Sets", JMLR 2006, which
// gives the formulas and the table of critical values used here).

// Ranks returns, for each row of scores (one benchmark; lower is better),
// the rank of each column (one contender): 1 for the smallest, tied
// values sharing the mean of the ranks they span. Every row must have the
// same length.
func Ranks(scores [][]float64) [][]float64 {
	out := make([][]float64, len(scores))
	for i, row := range scores {
		idx := make([]int, len(row))
		for j := range idx {
			idx[j] = j
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(row[a], row[b]) })
		r := make([]float64, len(row))
		for lo := 0; lo < len(idx); {
			hi := lo
			for hi < len(idx) && row[idx[hi]] == row[idx[lo]] {
				hi++
			}
			mid := float64(lo+hi+1) / 2 // mean of the ranks lo+1..hi
			for k := lo; k < hi; k++ {
				r[idx[k]] = mid
			}
			lo = hi
		}
		out[i] = r
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Friedman returns the mean rank of each contender over the rows of
// scores (benchmarks; lower scores are better, see Ranks), and Friedman's
// statistic with the correction for ties and its p-value by the
// chi-square approximation with k-1 degrees of freedom (k contenders):
// the probability of ranks at least this far from equal if every
// contender were as good as every other. With fewer than 2 rows or
// columns, the p-value is NaN.
func Friedman(scores [][]float64) (meanRank []float64, chi2, p float64) {
	n := len(scores)
	if n == 0 {
		return nil, math.NaN(), math.NaN()
	}
	k := len(scores[0])
	ranks := Ranks(scores)
	meanRank = make([]float64, k)
	for _, r := range ranks {
		for j, v := range r {
			meanRank[j] += v
		}
	}
	for j := range meanRank {
		meanRank[j] /= float64(n)
	}
	if n < 2 || k < 2 {
		return meanRank, math.NaN(), math.NaN()
	}
	fn, fk := float64(n), float64(k)
	var sumSq float64
	for _, m := range meanRank {
		d := m - (fk+1)/2
		sumSq += d * d
	}
	chi2 = 12 * fn / (fk * (fk + 1)) * sumSq
	// Ties: divide by 1 - sum(t^3-t) / (n (k^3-k)), t the sizes of the
	// groups of tied ranks within each row.
	var ties float64
	for _, row := range scores {
		s := slices.Clone(row)
		slices.Sort(s)
		for lo := 0; lo < len(s); {
			hi := lo
			for hi < len(s) && s[hi] == s[lo] {
				hi++
			}
			t := float64(hi - lo)
			ties += t*t*t - t
			lo = hi
		}
	}
	c := 1 - ties/(fn*(fk*fk*fk-fk))
	if c <= 0 { // every row all tied: no evidence of any difference
		return meanRank, 0, 1
	}
	chi2 /= c
	return meanRank, chi2, ChiSquareSurvival(chi2, k-1)
}

// nemenyiQ are the critical values q(0.05) of the Nemenyi test for 2 to 10
// contenders (the studentized range statistic divided by sqrt 2; Demšar
// 2006, Table 5a).
var nemenyiQ = []float64{2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}

// NemenyiCD is the critical difference of mean ranks at the 0.05 level
// for k contenders ranked on n benchmarks: q(0.05) sqrt(k(k+1) / 6n).
// NaN outside 2 <= k <= 10 or for n < 1.
func NemenyiCD(k, n int) float64 {
	if k < 2 || k >= len(nemenyiQ) || n < 1 {
		return math.NaN()
	}
	return nemenyiQ[k] * math.Sqrt(float64(k*(k+1))/(6*float64(n)))
}

// ChiSquareSurvival is P(X >= x) for X chi-square distributed with df
// degrees of freedom: the regularized upper incomplete gamma function
// Q(df/2, x/2).
func ChiSquareSurvival(x float64, df int) float64 {
	if df < 1 || math.IsNaN(x) {
		return math.NaN()
	}
	if x <= 0 {
		return 1
	}
	return gammaQ(float64(df)/2, x/2)
}

// gammaQ is the regularized upper incomplete gamma function Q(a, x) for
// a > 0, x > 0: by its power series for P = 1 - Q when x < a+1, where the
// series converges fast, and by its continued fraction (evaluated with
// the modified Lentz method) otherwise.
func gammaQ(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	front := math.Exp(a*math.Log(x) - x - lg)
	if x < a+1 {
		// P(a, x) = x^a e^-x / Gamma(a) * sum_n x^n / (a (a+1) ... (a+n)).
		term := 1 / a
		sum := term
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-15 {
				break
			}
		}
		return math.Max(0, 1-front*sum)
	}
	// Q(a, x) = x^a e^-x / Gamma(a) * 1/(x+1-a- 1(1-a)/(x+3-a- 2(2-a)/(x+5-a- ...))).
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < 1e-15 {
			break
		}
	}
	return math.Min(1, front*h)
}
