package grow

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

// FuzzOpen's coverage keeps growing: a door every few seconds of a core.
func FuzzOpen(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		Open(int(t.Source().Range(0, Doors-1, 0)), t.Source().Uint(3, 0))
	})
}

// FuzzClassify's coverage stops growing within a second.
func FuzzClassify(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		Classify(t.Source().Range(0, 9, 0), t.Source().Range(0, 9, 0))
	})
}
