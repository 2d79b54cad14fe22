package perf

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

var words = gen.SliceOf(gen.Byte(), 0, 64)

// FuzzInsert inserts up to 64 drawn words and fails when the insertions
// walk more than MaxSteps chain steps: build with gfz-build -counts and run
// with -feedback perf to find such inputs (docs/ENGINE.md, "Feedback
// domains").
func FuzzInsert(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		var tab Table
		for i, w := range words.Draw(t) {
			tab.Insert(i, w)
		}
		if tab.Steps > MaxSteps {
			t.Fatalf("%d chain steps for one input (budget %d)", tab.Steps, MaxSteps)
		}
	})
}

func TestWorstCase(t *testing.T) {
	var tab Table
	for i := range 64 {
		tab.Insert(i, byte(200-i)) // every word hashes to bucket 200 mod 16, all distinct
	}
	if tab.Steps != 64*63/2 {
		t.Fatalf("worst case: %d steps, want %d", tab.Steps, 64*63/2)
	}
}
