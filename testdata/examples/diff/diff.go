// Package diff is a gfz example for -feedback diff: differential testing
// of two implementations of the same function with T.DiffWithin.
//
// VarianceNaive computes E[x²] − E[x]² in one pass; VarianceWelford uses
// Welford's update. They agree on ordinary inputs, but the naive formula
// cancels catastrophically when the values are large and close together:
// its relative error grows with mean²/variance. The fuzz target accepts a
// relative difference up to Tolerance; random values are far apart (about
// 1e-15), and with -feedback diff the engine keeps every input that drives
// the two further apart, so it follows the values towards close together,
// to a failure.
package diff

// Tolerance is the difference the fuzz target accepts, relative to the
// variance (or to 1 when the variance is smaller).
const Tolerance = 1e-6

// VarianceNaive returns the population variance of xs as E[x²] − E[x]².
func VarianceNaive(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	n := float64(len(xs))
	return s2/n - (s/n)*(s/n)
}

// VarianceWelford returns the population variance of xs by Welford's
// algorithm.
func VarianceWelford(xs []float64) float64 {
	var mean, m2 float64
	for i, x := range xs {
		d := x - mean
		mean += d / float64(i+1)
		m2 += d * (x - mean)
	}
	if len(xs) == 0 {
		return 0
	}
	return m2 / float64(len(xs))
}
