package seeds

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// FuzzCheck is an ordinary target; its testdata/fuzz/FuzzCheck/string file
// holds a string instead of a []byte.
func FuzzCheck(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		Check(gen.SliceOf(gen.IntRange(0, 9), 0, 5).Draw(t))
	})
}

// FuzzAddString adds a seed of the wrong type with f.Add.
func FuzzAddString(f *testing.F) {
	f.Add("not bytes")
	gfz.Fuzz(f, func(t *gfz.T) {
		Check(gen.SliceOf(gen.IntRange(0, 9), 0, 5).Draw(t))
	})
}

// FuzzReplay fails on its saved input testdata/fuzz/FuzzReplay/fail
// (xs = []int{3, 1}, n = 42), after overwriting the slice it drew:
// the values logged must be the ones drawn.
func FuzzReplay(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		xs := gen.SliceOf(gen.IntRange(0, 9), 0, 5).Named("xs").Draw(t)
		n := gen.IntRange(0, 255).Named("n").Draw(t)
		if !Check(xs) {
			for i := range xs {
				xs[i] = 0
			}
			t.Fatalf("not sorted (n %d)", n)
		}
	})
}
