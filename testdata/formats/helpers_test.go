package formats

import (
	"math/rand/v2"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// draw draws the i-th document of g: from 256 random bytes of a PCG
// stream fixed by i, extended by a PRNG seeded with i.
func draw(g gen.Generator[string], i int) string {
	r := rand.New(rand.NewPCG(uint64(i), 0x9e3779b97f4a7c15))
	b := make([]byte, 256)
	for j := range b {
		b[j] = byte(r.Uint32())
	}
	return g.Draw(gfz.NewT(param.New(b, uint64(i))))
}
