package generators_test

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/generators/gosrc"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/param"
)

// benchGen draws b.N values of g, each from a fresh execution of the
// source (reset with a new extension seed, so PRNG bytes drive the draws;
// the draw record is kept, which the fuzz binary's executor turns off, see
// docs/ENGINE.md), and reports values/s. The figure includes a gfz.NewT
// per value (a top-level Draw records its value in the T; the executor's
// T does not).
func benchGen[V any](b *testing.B, g gen.Generator[V]) {
	src := param.New(nil, 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		src.Reset(nil, uint64(i))
		g.Draw(gfz.NewT(src))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "values/s")
}

func BenchmarkGenerators(b *testing.B) {
	type rec struct {
		Name  string
		Ports []uint16
		Tags  map[string]int
		Next  *rec
	}
	b.Run("Bool", func(b *testing.B) { benchGen(b, gen.Bool()) })
	b.Run("IntRange", func(b *testing.B) { benchGen(b, gen.IntRange(0, 1000)) })
	b.Run("Int64", func(b *testing.B) { benchGen(b, gen.Int64()) })
	b.Run("Float64", func(b *testing.B) { benchGen(b, gen.Float64()) })
	b.Run("Rune", func(b *testing.B) { benchGen(b, gen.Rune()) })
	b.Run("String", func(b *testing.B) { benchGen(b, gen.String()) })
	b.Run("UTF8String", func(b *testing.B) { benchGen(b, gen.UTF8String(0, 32)) })
	b.Run("SliceOf", func(b *testing.B) { benchGen(b, gen.SliceOf(gen.IntRange(0, 9), 0, 32)) })
	b.Run("MapOf", func(b *testing.B) { benchGen(b, gen.MapOf(gen.Identifier(8), gen.Int64(), 0, 16)) })
	b.Run("Permutation", func(b *testing.B) {
		benchGen(b, gen.Permutation([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
	})
	b.Run("SliceOfDistinct", func(b *testing.B) { benchGen(b, gen.SliceOfDistinct(gen.IntRange(0, 1000), 0, 32)) })
	b.Run("SliceOfDistinct/hashed", func(b *testing.B) { benchGen(b, gen.SliceOfDistinct(gen.IntRange(0, 1000), 33, 64)) })
	b.Run("OneOfWeighted", func(b *testing.B) {
		benchGen(b, gen.OneOfWeighted(gen.W(3, gen.Just(1)), gen.W(1, gen.IntRange(0, 9))))
	})
	b.Run("StringMatching", func(b *testing.B) { benchGen(b, gen.StringMatching(`[a-z]+@(ex|test)\.(com|org)`)) })
	b.Run("Of[struct]", func(b *testing.B) { benchGen(b, gen.Of[rec]()) })
	b.Run("gojson.Value", func(b *testing.B) { benchGen(b, gojson.Value(gojson.Config{})) })
	b.Run("goxml.Document", func(b *testing.B) { benchGen(b, goxml.Document(goxml.Config{Namespaces: true})) })
	b.Run("gosrc.File", func(b *testing.B) { benchGen(b, gosrc.File(gosrc.Config{})) })
}
