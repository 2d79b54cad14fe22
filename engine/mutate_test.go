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
// mutation count and the zero-fill choice, one per mutation, and one per
// eight random bytes (about 13 for the published means; the sampler that
// searched its CDF from 1 with a value per sample, and drew each run's
// bytes separately, took about 26).
func TestMutateZestDraws(t *testing.T) {
	r := newPRNG(5)
	parent := bytes.Repeat([]byte{0xAA}, 1000)
	var child []byte
	const n = 20_000
	before := r.s
	for range n {
		child = mutateZest(r, child, parent)
	}
	avg := float64(prngCalls(before, r.s)) / n
	t.Logf("%.2f PRNG values per child", avg)
	if avg < 10 || avg > 15 {
		t.Errorf("%.2f PRNG values per child, want about 13", avg)
	}
	// Same state, same child.
	a := mutateZest(newPRNG(9), nil, parent)
	b := mutateZest(newPRNG(9), nil, parent)
	if !bytes.Equal(a, b) {
		t.Error("mutateZest is not deterministic")
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
