package engine

import (
	"math"
	"math/bits"
)

// prng is the engine's single source of randomness: splitmix64 over one
// 64-bit state seeded from Config.Seed. It is small enough to be inlined.
type prng struct{ s uint64 }

func newPRNG(seed int64) *prng { return &prng{s: uint64(seed) ^ 0x6a09e667f3bcc909} }

func (r *prng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

// mix64 is the splitmix64 finalizer.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// below returns a uniform value in [0, n) (n > 0), by Lemire's
// multiply-high reduction (bias below 2^-32 for the sizes used here).
func (r *prng) below(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// fill overwrites b with random bytes.
func (r *prng) fill(b []byte) {
	for len(b) >= 8 {
		v := r.next()
		b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		b[4], b[5], b[6], b[7] = byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56)
		b = b[8:]
	}
	if len(b) > 0 {
		v := r.next()
		for i := range b {
			b[i] = byte(v)
			v >>= 8
		}
	}
}

// geometric samples Geometric(p = 1/mean) on {1, 2, ...}: P(X = k) =
// (1-p)^(k-1) p, the distribution of JQF's sampleGeometric
// ceil(log(1-u) / log(1-1/mean)). It inverts a precomputed CDF table with
// integer comparisons (no logarithm per draw); beyond the table it uses
// memorylessness (X > K  =>  X = K + a fresh sample), so it is exact up to
// the 2^-64 resolution of the uniform draw.
type geometric struct{ cdf []uint64 }

func newGeometric(mean float64) geometric {
	q := 1 - 1/mean
	var cdf []uint64
	for k := 1; ; k++ {
		tail := math.Pow(q, float64(k)) // P(X > k)
		if tail < 1e-12 || k >= 512 {
			break
		}
		cdf = append(cdf, uint64((1-tail)*(1<<63))*2)
	}
	return geometric{cdf: cdf}
}

func (g geometric) sample(r *prng) int {
	base := 0
	for {
		u := r.next()
		for k, t := range g.cdf {
			if u < t {
				return base + k + 1
			}
		}
		base += len(g.cdf)
	}
}

// Zest's published mutation parameters (JQF ZestGuidance).
var (
	geoMutations = newGeometric(8) // mutations per child
	geoRunLength = newGeometric(4) // bytes overwritten per mutation
)

// extSeed derives the PRNG-extension seed of execution n of a run seeded
// with seed: a pure function, so executions replay identically.
func extSeed(seed int64, n int64) uint64 {
	return mix64(uint64(seed)*0x9e3779b97f4a7c15 ^ mix64(uint64(n)+0x3c6ef372fe94f82b))
}
