// Package gentest holds helpers for testing generators: random parameter
// sequences, and the draw-record-replay round trip that every generator must
// pass (drawing again from exactly the bytes a draw consumed gives the same
// value and consumes the same bytes).
package gentest

import (
	"bytes"
	"math/rand/v2"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// RandomBytes returns a parameter sequence of uniform length in [0, n)
// filled from r.
func RandomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, r.IntN(n))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// Replay is the result of one round trip.
type Replay[V any] struct {
	First, Second V
	// Consumed is what the first draw consumed, PRNG extension included.
	Consumed []byte
	// SameBytes reports whether the second draw consumed exactly Consumed.
	SameBytes bool
	// T1 and T2 are the two draws' T, whose Values print the values in Go
	// syntax (for values DeepEqual cannot compare, such as NaN).
	T1, T2 *gfz.T
}

// RoundTrip draws g from data, extended past its end by a PRNG seeded with
// ext1, then draws g again from the consumed bytes with a different
// extension seed ext2, so that a replay reading past them shows.
func RoundTrip[V any](g gen.Generator[V], data []byte, ext1, ext2 uint64) Replay[V] {
	src1 := param.New(data, ext1)
	r := Replay[V]{T1: gfz.NewT(src1)}
	r.First = g.Draw(r.T1)
	r.Consumed = bytes.Clone(src1.Consumed())
	src2 := param.New(r.Consumed, ext2)
	r.T2 = gfz.NewT(src2)
	r.Second = g.Draw(r.T2)
	r.SameBytes = bytes.Equal(src2.Consumed(), r.Consumed)
	return r
}
