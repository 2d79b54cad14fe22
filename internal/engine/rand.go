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
	r.s += golden
	return mix64(r.s)
}

// golden is splitmix64's state increment.
const golden = 0x9e3779b97f4a7c15

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
// ceil(log(1-u) / log(1-1/mean)). It inverts the CDF, scaled to 2^32, on a
// 32-bit uniform value u: X is the smallest k with u < cdf[k-1]. A
// 4096-entry table on the top 12 bits of u holds the answer for every
// slice of the range that lies within one step of the CDF (about 98% of
// them for the means used here), so a sample is usually one table read
// with a well-predicted branch; the other slices start a short search at
// the right step. Past the table it uses memorylessness (X > K  =>  X = K
// + a fresh sample). The probabilities are exact up to the 2^-32
// resolution of u.
type geometric struct {
	cdf   []uint64    // cdf[k-1] = round(2^32 * P(X <= k)); the last entry may be 2^32
	quick [4096]uint8 // quick[i]: the sample for every u with u>>20 == i, or 0 if it varies
	start [4096]uint8 // start[i]: index of the first cdf entry above i<<20
}

func newGeometric(mean float64) *geometric {
	q := 1 - 1/mean
	g := &geometric{}
	for k := 1; k <= 255; k++ {
		c := uint64(math.Round((1 - math.Pow(q, float64(k))) * (1 << 32)))
		g.cdf = append(g.cdf, c)
		if c >= 1<<32 {
			break
		}
	}
	g.index()
	return g
}

// index fills quick and start from cdf.
func (g *geometric) index() {
	j := 0
	for i := range g.start {
		low := uint64(i) << 20
		for j < len(g.cdf) && g.cdf[j] <= low {
			j++
		}
		g.start[i] = uint8(j)
		// The whole slice [low, low+2^20) maps to j+1 iff cdf[j] is
		// above its last value.
		g.quick[i] = 0
		if j < len(g.cdf) && g.cdf[j] > low+(1<<20)-1 {
			g.quick[i] = uint8(j + 1)
		}
	}
}

// sample32 returns a sample for the uniform value u, drawing fresh values
// from r only in the tail beyond the table.
func (g *geometric) sample32(u uint32, r *prng) int {
	if k := g.quick[u>>20]; k != 0 {
		return int(k)
	}
	return g.search(u, r)
}

// search is sample32 for the slices that straddle a step of the CDF.
func (g *geometric) search(u uint32, r *prng) int {
	base := 0
	for {
		k := int(g.start[u>>20])
		for k < len(g.cdf) && uint64(u) >= g.cdf[k] {
			k++
		}
		if k < len(g.cdf) {
			return base + k + 1
		}
		base += len(g.cdf)
		u = uint32(r.next())
	}
}

// sample draws one sample from r.
func (g *geometric) sample(r *prng) int { return g.sample32(uint32(r.next()>>32), r) }

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
