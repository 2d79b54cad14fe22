package engine

import (
	"bytes"
	"math"
	"testing"
)

func TestGeometricMeans(t *testing.T) {
	r := newPRNG(1)
	for _, c := range []struct {
		g    geometric
		mean float64
	}{{geoMutations, 8}, {geoRunLength, 4}} {
		const n = 200_000
		sum, ones := 0, 0
		for range n {
			k := c.g.sample(r)
			if k < 1 {
				t.Fatalf("sample %d < 1", k)
			}
			sum += k
			if k == 1 {
				ones++
			}
		}
		if m := float64(sum) / n; math.Abs(m-c.mean) > 0.05*c.mean {
			t.Errorf("mean %.3f, want %.0f", m, c.mean)
		}
		// P(X = 1) = 1/mean.
		if p := float64(ones) / n; math.Abs(p-1/c.mean) > 0.01 {
			t.Errorf("P(X=1) = %.4f, want %.4f", p, 1/c.mean)
		}
	}
	// Beyond the table the sampler continues (memorylessness): a one-entry
	// table for mean 2 still samples Geometric(1/2), mean 2.
	g := geometric{cdf: []uint64{1 << 63}}
	sum := 0
	for range 100_000 {
		sum += g.sample(r)
	}
	if m := float64(sum) / 100_000; math.Abs(m-2) > 0.05 {
		t.Errorf("one-entry table: mean %.3f, want 2", m)
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
