// Package diff is a gfz example for -feedback diff: differential testing
// of two implementations of the same function with T.DiffWithin.
//
// MeanNaive sums its values and divides; MeanRunning keeps a running mean.
// They agree to rounding on ordinary inputs, but the naive sum of large
// float32 values loses precision, so the two drift apart as the values grow
// and accumulate. The fuzz target accepts a relative difference up to
// Tolerance; with -feedback diff the engine keeps every input that drives
// the results further apart, and follows the drift to a failure.
package diff

// Tolerance is the relative difference the fuzz target accepts.
const Tolerance = 1e-3

// MeanNaive returns the mean of xs by summing in float32.
func MeanNaive(xs []uint32) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float32
	for _, x := range xs {
		sum += float32(x)
	}
	return float64(sum / float32(len(xs)))
}

// MeanRunning returns the mean of xs by a running mean in float64.
func MeanRunning(xs []uint32) float64 {
	var m float64
	for i, x := range xs {
		m += (float64(x) - m) / float64(i+1)
	}
	return m
}
