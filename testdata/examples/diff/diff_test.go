package diff

import (
	"math"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

var values = gen.SliceOf(gen.Uint32(), 2, 16)

// FuzzVariance compares the two variance implementations on values drawn
// as uint32: run with -feedback diff to have their distance guide the
// search (docs/ENGINE.md, "Feedback domains").
func FuzzVariance(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		raw := values.Draw(t)
		xs := make([]float64, len(raw))
		for i, v := range raw {
			xs[i] = float64(v)
		}
		a, b := VarianceNaive(xs), VarianceWelford(xs)
		scale := math.Max(1, math.Abs(b))
		t.DiffWithin("variance", a/scale, b/scale, Tolerance)
	})
}

func TestVariancesAgree(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	if a, b := VarianceNaive(xs), VarianceWelford(xs); a != 1.25 || b != 1.25 {
		t.Fatalf("variances %v, %v", a, b)
	}
}
