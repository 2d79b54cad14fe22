package crashers

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// Fixtures of the root package's integrity tests (integrity_test.go).

// FuzzIntegrityPanic fails in the fuzz function on its own seed, which
// every worker replays first: all workers find the same failure at once,
// each with its own input (the seed is extended with worker-specific
// PRNG bytes, which the values drawn after the first byte read).
func FuzzIntegrityPanic(f *testing.F) {
	f.Add([]byte{1})
	gfz.Fuzz(f, func(t *gfz.T) {
		if gen.Byte().Draw(t)%8 == 1 {
			a := gen.IntRange(0, 1<<30).Named("a").Draw(t)
			b := gen.IntRange(0, 1<<30).Named("b").Draw(t)
			t.Fatalf("integrity failure (%d, %d)", a, b)
		}
	})
}

// FuzzIntegrityHangs hangs at two different places, depending on its
// first value.
func FuzzIntegrityHangs(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		switch gen.IntRange(0, 15).Named("k").Draw(t) {
		case 3:
			hangA(gen.Byte().Draw(t))
		case 9:
			hangB(gen.Byte().Draw(t))
		}
	})
}
