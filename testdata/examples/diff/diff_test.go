package diff

import (
	"math"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

var values = gen.SliceOf(gen.Uint32(), 1, 32)

// FuzzMean compares the two mean implementations: run with -feedback diff
// to have their distance guide the search (docs/ENGINE.md, "Feedback
// domains").
func FuzzMean(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		xs := values.Draw(t)
		a, b := MeanNaive(xs), MeanRunning(xs)
		scale := math.Max(1, math.Abs(b))
		t.DiffWithin("mean", a/scale, b/scale, Tolerance)
	})
}

func TestMeansAgree(t *testing.T) {
	xs := []uint32{1, 2, 3, 4}
	if a, b := MeanNaive(xs), MeanRunning(xs); a != 2.5 || b != 2.5 {
		t.Fatalf("means %v, %v", a, b)
	}
}
