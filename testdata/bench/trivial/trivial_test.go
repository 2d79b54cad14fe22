package trivial

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

// FuzzTrivial draws four bytes and compares them. It never fails: it
// measures executions per second.
func FuzzTrivial(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		Check(t.Source().Bytes(4))
	})
}
