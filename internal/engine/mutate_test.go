package engine

import (
	"bytes"
	"math"
	"testing"
)

// TestGeometricShape pins the samplers to Geometric(1/8) and Geometric(1/4)
// exactly: for u spread over the whole 32-bit range, sample32(u) must be
// the inverse CDF ceil(log(1 - u/2^32) / log(1 - 1/mean)) computed in
// floating point (except within a few units of a step, where rounding may
// differ), and with a fixed seed the sample means and the frequencies of
// the first values must match the distribution.
func TestGeometricShape(t *testing.T) {
	for _, c := range []struct {
		g    *geometric
		mean float64
	}{{geoMutations, 8}, {geoRunLength, 4}} {
		q := 1 - 1/c.mean
		mismatches := 0
		for u := uint64(0); u < 1<<32; u += 4099 {
			want := int(math.Ceil(math.Log(1-float64(u)/(1<<32)) / math.Log(q)))
			want = max(want, 1)
			if got := c.g.sample32(uint32(u), nil); got != want {
				// Allow a rounding difference right at a step of the CDF.
				step := math.Round((1 - math.Pow(q, float64(min(got, want)))) * (1 << 32))
				if math.Abs(float64(u)-step) > 4 {
					t.Fatalf("mean %v: sample32(%d) = %d, want %d", c.mean, u, got, want)
				}
				mismatches++
			}
		}
		if mismatches > 2 {
			t.Errorf("mean %v: %d rounding mismatches", c.mean, mismatches)
		}

		r := newPRNG(1)
		const n = 1_000_000
		var counts [12]int
		sum := 0
		for range n {
			k := c.g.sample(r)
			if k < 1 {
				t.Fatalf("sample %d < 1", k)
			}
			sum += k
			if k <= len(counts) {
				counts[k-1]++
			}
		}
		if m := float64(sum) / n; math.Abs(m-c.mean) > 0.01*c.mean {
			t.Errorf("mean %.4f, want %.0f", m, c.mean)
		}
		// P(X = k) = q^(k-1) p; allow 5 standard deviations.
		for k := 1; k <= len(counts); k++ {
			p := math.Pow(q, float64(k-1)) / c.mean
			exp := p * n
			if d := math.Abs(float64(counts[k-1]) - exp); d > 5*math.Sqrt(exp*(1-p)) {
				t.Errorf("mean %v: %d samples of %d, want about %.0f", c.mean, counts[k-1], k, exp)
			}
		}
	}
	// Beyond the table the sampler continues (memorylessness): a one-entry
	// table for mean 2 still samples Geometric(1/2), mean 2.
	g := &geometric{cdf: []uint64{1 << 31}}
	g.index()
	r := newPRNG(1)
	sum := 0
	for range 100_000 {
		sum += g.sample(r)
	}
	if m := float64(sum) / 100_000; math.Abs(m-2) > 0.05 {
		t.Errorf("one-entry table: mean %.3f, want 2", m)
	}
}

// prngCalls returns the number of values drawn from r since its state was
// before: each next() adds the same odd constant to the state.
func prngCalls(before, after uint64) uint64 {
	// The inverse of 0x9e3779b97f4a7c15 modulo 2^64 (Newton's iteration).
	const c = 0x9e3779b97f4a7c15
	inv := uint64(c)
	for range 6 {
		inv *= 2 - c*inv
	}
	return (after - before) * inv
}

// TestMutateZestDraws pins the cost of a child in PRNG values: one for the
// mutation count and the zero-fill choice, one per mutation, and for the
// bytes one per run of up to eight (parents over 64 bytes) or one per
// eight bytes of the parent (up to 64 bytes). The sampler that searched
// its CDF from 1 with a value per sample, and drew each run's bytes
// separately, took about 26 for either.
func TestMutateZestDraws(t *testing.T) {
	for _, c := range []struct {
		size     int
		min, max float64
	}{{4, 9, 11}, {64, 12, 17}, {1000, 15, 19}} {
		r := newPRNG(5)
		parent := bytes.Repeat([]byte{0xAA}, c.size)
		var child []byte
		const n = 20_000
		before := r.s
		for range n {
			child = mutateZest(r, child, parent)
		}
		avg := float64(prngCalls(before, r.s)) / n
		t.Logf("%d-byte parent: %.2f PRNG values per child", c.size, avg)
		if avg < c.min || avg > c.max {
			t.Errorf("%d-byte parent: %.2f PRNG values per child, want %v to %v", c.size, avg, c.min, c.max)
		}
		// Same state, same child.
		a := mutateZest(newPRNG(9), nil, parent)
		b := mutateZest(newPRNG(9), nil, parent)
		if !bytes.Equal(a, b) {
			t.Errorf("%d-byte parent: mutateZest is not deterministic", c.size)
		}
	}
}

// mutateZestReference is Zest's mutation written out plainly: each run
// written byte by byte, one PRNG value per byte.
func mutateZestReference(r *prng, dst, parent []byte) []byte {
	dst = append(dst[:0], parent...)
	zero := r.below(10) == 0
	for range geoMutations.sample(r) {
		off := r.below(len(dst))
		end := min(off+geoRunLength.sample(r), len(dst))
		for i := off; i < end; i++ {
			if zero {
				dst[i] = 0
			} else {
				dst[i] = byte(r.next())
			}
		}
	}
	return dst
}

// TestMutateZestDistribution compares mutateZest with the plain
// algorithm on parents of both paths (up to 64 bytes, and longer): the
// share of children that only write zeros, the mean number of changed
// bytes, its histogram and the frequency with which each position changes
// must agree within sampling error (fixed seeds).
func TestMutateZestDistribution(t *testing.T) {
	for _, size := range []int{5, 37, 64, 65, 150} {
		parent := bytes.Repeat([]byte{0xAA}, size)
		type stats struct {
			zeroKids int
			changed  []int // per position
			hist     []int // children by number of changed bytes
		}
		const n = 200_000
		measure := func(mut func(r *prng, dst, parent []byte) []byte, seed int64) stats {
			st := stats{changed: make([]int, size), hist: make([]int, size+1)}
			r := newPRNG(seed)
			var child []byte
			for range n {
				child = mut(r, child, parent)
				diff, zeros := 0, 0
				for i, b := range child {
					if b != 0xAA {
						diff++
						st.changed[i]++
						if b == 0 {
							zeros++
						}
					}
				}
				st.hist[diff]++
				if diff > 0 && zeros == diff {
					st.zeroKids++
				}
			}
			return st
		}
		got, want := measure(mutateZest, 11), measure(mutateZestReference, 12)
		// Two independent binomial counts: allow 5 standard deviations of
		// their difference.
		close := func(a, b int) bool {
			p := float64(a+b) / (2 * n)
			return math.Abs(float64(a-b)) <= 5*math.Sqrt(2*n*p*(1-p))+1
		}
		if !close(got.zeroKids, want.zeroKids) {
			t.Errorf("%d bytes: %d zero-fill children, reference %d", size, got.zeroKids, want.zeroKids)
		}
		for i := range size {
			if !close(got.changed[i], want.changed[i]) {
				t.Errorf("%d bytes: position %d changed %d times, reference %d", size, i, got.changed[i], want.changed[i])
			}
		}
		for k := range got.hist {
			if !close(got.hist[k], want.hist[k]) {
				t.Errorf("%d bytes: %d children changed %d bytes, reference %d", size, got.hist[k], k, want.hist[k])
			}
		}
	}
}

func TestMutateZest(t *testing.T) {
	r := newPRNG(2)
	parent := bytes.Repeat([]byte{0xAA}, 100)
	var child []byte
	zeroChildren, changedBytes := 0, 0
	const n = 20_000
	for range n {
		child = mutateZest(r, child, parent)
		if len(child) != len(parent) {
			t.Fatalf("child length %d, want %d", len(child), len(parent))
		}
		zeros, diff := 0, 0
		for i := range child {
			if child[i] != parent[i] {
				diff++
			}
			if child[i] == 0 {
				zeros++
			}
		}
		if zeros == diff && diff > 0 {
			zeroChildren++
		}
		changedBytes += diff
	}
	if !bytes.Equal(parent, bytes.Repeat([]byte{0xAA}, 100)) {
		t.Fatal("parent modified")
	}
	// 10% of children write zeros only (random children almost never do).
	if f := float64(zeroChildren) / n; f < 0.08 || f > 0.12 {
		t.Errorf("zero-fill children %.3f, want about 0.10", f)
	}
	// About 8 runs of about 4 bytes, minus overlaps and clipping.
	if avg := float64(changedBytes) / n; avg < 15 || avg > 32 {
		t.Errorf("average changed bytes %.1f", avg)
	}
	if got := mutateZest(r, nil, nil); len(got) != 0 {
		t.Errorf("empty parent gave %d bytes", len(got))
	}
}

func TestMutateBytes(t *testing.T) {
	r := newPRNG(3)
	corpus := [][]byte{[]byte("splice donor one"), []byte("another donor")}
	other := func() []byte { return corpus[r.below(len(corpus))] }
	const max = 64
	lengths := map[int]bool{}
	var child []byte
	parents := [][]byte{nil, {1}, []byte("ab"), []byte("hello, world"), bytes.Repeat([]byte("x"), max)}
	for i := range 50_000 {
		p := parents[i%len(parents)]
		saved := append([]byte(nil), p...)
		child = mutateBytes(r, child, p, max, other)
		if len(child) > max {
			t.Fatalf("child of %d bytes exceeds max %d", len(child), max)
		}
		if !bytes.Equal(p, saved) {
			t.Fatal("parent modified")
		}
		lengths[len(child)] = true
	}
	if len(lengths) < max/2 {
		t.Errorf("only %d distinct child lengths", len(lengths))
	}
	// Same PRNG state, same child.
	a := mutateBytes(newPRNG(9), nil, []byte("determinism"), max, func() []byte { return corpus[0] })
	b := mutateBytes(newPRNG(9), nil, []byte("determinism"), max, func() []byte { return corpus[0] })
	if !bytes.Equal(a, b) {
		t.Error("mutateBytes is not deterministic")
	}
}

func TestInsertAt(t *testing.T) {
	if got := string(insertAt([]byte("abcd"), 2, []byte("XY"), 10)); got != "abXYcd" {
		t.Errorf("insertAt = %q", got)
	}
	if got := string(insertAt([]byte("abcd"), 4, []byte("XY"), 5)); got != "abcdX" {
		t.Errorf("insertAt at cap = %q", got)
	}
	if got := string(insertAt([]byte("abcd"), 0, []byte("XY"), 4)); got != "abcd" {
		t.Errorf("insertAt when full = %q", got)
	}
}

// TestCloneBlock checks the in-place clone against a copy of the block
// inserted with insertAt, for every block, destination and room of a
// short input, with spare capacity and without (the block before, after
// and across the destination).
func TestCloneBlock(t *testing.T) {
	src := []byte("abcdefg")
	for n := 1; n <= len(src); n++ {
		for from := 0; from+n <= len(src); from++ {
			for to := 0; to <= len(src); to++ {
				for max := len(src) - 1; max <= 2*len(src)+1; max++ {
					want := insertAt(append([]byte(nil), src...), to, append([]byte(nil), src[from:from+n]...), max)
					for _, spare := range []int{0, 16} {
						b := append(make([]byte, 0, len(src)+spare), src...)
						if got := cloneBlock(b, from, n, to, max); !bytes.Equal(got, want) {
							t.Fatalf("cloneBlock(%q, from %d, n %d, to %d, max %d) = %q, want %q", src, from, n, to, max, got, want)
						}
					}
				}
			}
		}
	}
}

func benchMutateZest(b *testing.B, size int) {
	r := newPRNG(1)
	parent := bytes.Repeat([]byte{0xAA}, size)
	var child []byte
	for range b.N {
		child = mutateZest(r, child, parent)
	}
}

// BenchmarkMutateZest measures the construction of one Zest child.
func BenchmarkMutateZest(b *testing.B) {
	b.Run("4B", func(b *testing.B) { benchMutateZest(b, 4) })
	b.Run("100B", func(b *testing.B) { benchMutateZest(b, 100) })
	b.Run("1000B", func(b *testing.B) { benchMutateZest(b, 1000) })
}
