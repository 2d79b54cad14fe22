package formats

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// BenchmarkGenerate measures each generator: ns per document from
// pre-drawn random parameter bytes (1024 sequences, extended by a PRNG as
// a fuzz target's are), with the mean document size as B/doc. One source
// and one T are reused with the draw record off, as in a fuzz binary
// under the byte-level engines (the structure-aware ones record).
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
				src := param.New(nil, 0)
				src.SetRecording(false)
				t := gfz.NewT(src)
				size := 0
				for i := 0; i < b.N; i++ {
					src.Reset(inputs[i%len(inputs)], uint64(i))
					size += len(g.gen.Draw(t))
				}
				b.ReportMetric(float64(size)/float64(b.N), "B/doc")
			})
		}
	}
}
