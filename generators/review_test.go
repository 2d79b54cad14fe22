package generators_test

import (
	"math"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// TestFloatRangeFullRange: FloatRange over the whole float64 range stays
// finite and spread (hi-lo overflowed to +Inf: every uniform draw was hi,
// and all-zero value bytes, where shrinking ends, gave NaN).
func TestFloatRangeFullRange(t *testing.T) {
	g := gen.FloatRange(-math.MaxFloat64, math.MaxFloat64)
	inner := 0
	for seed := uint64(0); seed < 2000; seed++ {
		v := g.Draw(gfz.NewT(param.New(nil, seed)))
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("seed %d: %v", seed, v)
		}
		if math.Abs(v) < math.MaxFloat64 {
			inner++
		}
	}
	if inner < 1000 {
		t.Errorf("%d of 2000 draws inside the bounds: the uniform branch collapsed to them", inner)
	}
	// A non-edge selector, then all-zero value bytes.
	if v := g.Draw(gfz.NewT(param.New([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0}, 0))); math.IsNaN(v) {
		t.Error("zero value bytes gave NaN")
	}
}

// TestHugeMaxLength: a length generator with a max near math.MaxInt draws
// until the parameter sequence runs out (an invalid input), instead of
// panicking in make ("len out of range") before drawing.
func TestHugeMaxLength(t *testing.T) {
	data := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	for name, draw := range map[string]func(*gfz.T){
		"SliceOf":    func(t *gfz.T) { gen.SliceOf(gen.IntRange(0, 9), 0, math.MaxInt).Draw(t) },
		"StringFrom": func(t *gfz.T) { gen.StringFrom("ab", 0, math.MaxInt).Draw(t) },
		"Identifier": func(t *gfz.T) { gen.Identifier(math.MaxInt).Draw(t) },
		"SliceOfDistinct": func(t *gfz.T) {
			gen.SliceOfDistinct(gen.IntRange(0, 1<<40), 0, math.MaxInt).Draw(t)
		},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(param.Exhausted); !ok {
						t.Errorf("%s: panic %v, want the sequence exhausted", name, r)
					}
				}
			}()
			draw(gfz.NewT(param.New(data, 0)))
		}()
	}
}
