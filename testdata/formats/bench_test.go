package formats

import (
	"testing"

	gen "github.com/gfz-dev/gfz/generators"
)

// BenchmarkGenerate measures each generator: ns per document from
// pre-drawn random parameter bytes (1024 sequences, extended by a PRNG as
// a fuzz target's are), with the mean document size as B/doc.
func BenchmarkGenerate(b *testing.B) {
	inputs := make([][]byte, 1024)
	for i := range inputs {
		inputs[i] = data(i, 8)
	}
	for _, f := range formats {
		for _, g := range []struct {
			mode string
			gen  gen.Generator[string]
		}{{"valid", f.valid}, {"near", f.near}} {
			b.Run(f.name+"/"+g.mode, func(b *testing.B) {
				size := 0
				for i := 0; i < b.N; i++ {
					size += len(drawFrom(g.gen, inputs[i%len(inputs)], uint64(i)))
				}
				b.ReportMetric(float64(size)/float64(b.N), "B/doc")
			})
		}
	}
}
