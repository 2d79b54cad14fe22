package bench

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestA12(t *testing.T) {
	lo := []float64{1, 2, 3, 4, 5}
	hi := []float64{6, 7, 8, 9, 10}
	for _, c := range []struct {
		name string
		x, y []float64
		want float64
	}{
		{"disjoint, x larger", hi, lo, 1},
		{"disjoint, x smaller", lo, hi, 0},
		{"identical", lo, lo, 0.5},
		{"all equal", []float64{3, 3, 3}, []float64{3, 3}, 0.5},
		// Pairs x>y: 2>1 (1), 3>1, 3>2 (2), ties 2=2 (0.5): (1+2+0.5)/9.
		{"small", []float64{1, 2, 3}, []float64{1, 2, 4}, (0.5 + 1.5 + 2) / 9},
	} {
		if got := A12(c.x, c.y); !near(got, c.want, 1e-12) {
			t.Errorf("%s: A12 = %v, want %v", c.name, got, c.want)
		}
	}
	if !math.IsNaN(A12(nil, lo)) {
		t.Error("A12 of an empty sample is not NaN")
	}
}

func TestMannWhitneyU(t *testing.T) {
	// 1..5 against 6..10: U = 0; mean 12.5, variance 5*5/12*11 = 22.917,
	// z = (12.5-0.5)/4.787 = 2.5067, p = erfc(z/√2) = 0.012186 (R:
	// wilcox.test(1:5, 6:10, exact=FALSE) gives W = 0, p-value = 0.01219).
	u, p := MannWhitneyU([]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10})
	if u != 0 || !near(p, 0.012186, 1e-5) {
		t.Errorf("U, p = %v, %v; want 0, 0.012186", u, p)
	}
	// Swapped: U = 25, same p.
	u, p = MannWhitneyU([]float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5})
	if u != 25 || !near(p, 0.012186, 1e-5) {
		t.Errorf("swapped: U, p = %v, %v; want 25, 0.012186", u, p)
	}
	// With ties: x = 1 2 2 3 5, y = 2 3 4 4 6. Pairs x>y: 1:0, 2:0.5
	// twice (tie with 2), 3:1+0.5, 5:4 -> U = 6.5. Tie groups: 2 (×3), 3
	// (×2), 4 (×2): Σ(t³-t) = 24+6+6 = 36; variance = 25/12*(11-36/90) =
	// 22.083; z = (6-0.5)/4.6993 = 1.1704; p = 0.24184.
	u, p = MannWhitneyU([]float64{1, 2, 2, 3, 5}, []float64{2, 3, 4, 4, 6})
	if u != 6.5 || !near(p, 0.24184, 1e-4) {
		t.Errorf("ties: U, p = %v, %v; want 6.5, 0.24184", u, p)
	}
	if _, p := MannWhitneyU([]float64{300, 300}, []float64{300, 300, 300}); p != 1 {
		t.Errorf("all equal: p = %v, want 1", p)
	}
	if _, p := MannWhitneyU([]float64{1, 2, 3}, []float64{1, 2, 3}); p != 1 {
		t.Errorf("identical samples: p = %v, want 1", p)
	}
}

// TestSignTestP checks the exact binomial test against values computed
// by hand.
func TestSignTestP(t *testing.T) {
	for _, c := range []struct {
		k, n int
		p    float64
	}{
		{0, 0, 1},
		{3, 4, 0.625},        // 2 * (1 + 4) / 16
		{0, 5, 0.0625},       // 2 / 32
		{5, 10, 1},           // the middle: capped at 1
		{1, 10, 0.021484375}, // 2 * (1 + 10) / 1024
		{9, 10, 0.021484375},
	} {
		if got := SignTestP(c.k, c.n); math.Abs(got-c.p) > 1e-9 {
			t.Errorf("SignTestP(%d, %d) = %v, want %v", c.k, c.n, got, c.p)
		}
	}
}
