package engine

import (
	"context"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/param"
)

// benchLoop measures the bare engine loop: a trivial in-memory executor,
// so the figure is the engine's per-execution overhead (map reset, scan,
// mutation, bookkeeping).
func benchLoop(b *testing.B, engine string) {
	benchLoopCfg(b, Config{Engine: engine, Seed: 1, Runs: int64(b.N), Workdir: b.TempDir()})
}

func benchLoopCfg(b *testing.B, cfg Config) {
	ex := &trivialExec{src: param.New(nil, 0)}
	b.ResetTimer()
	start := time.Now()
	s, err := Run(context.Background(), cfg, ex)
	if err != nil {
		b.Fatal(err)
	}
	el := time.Since(start)
	b.ReportMetric(float64(s.Execs)/el.Seconds(), "execs/s")
}

// BenchmarkZestLoop reports the execs/s of the zest loop on a trivial
// target.
func BenchmarkZestLoop(b *testing.B) { benchLoop(b, "zest") }

// BenchmarkBytesLoop reports the execs/s of the bytes loop.
func BenchmarkBytesLoop(b *testing.B) { benchLoop(b, "bytes") }

// BenchmarkRandomLoop reports the execs/s of the random loop.
func BenchmarkRandomLoop(b *testing.B) { benchLoop(b, "random") }

// BenchmarkCoverageCheck measures the per-execution map reset and scan on
// a map with a handful of hit edges.
func BenchmarkCoverageCheck(b *testing.B) {
	c := newCoverage()
	for i := 0; i < b.N; i++ {
		resetAndHit()
		c.check(true)
	}
}

// BenchmarkAutoLoop reports the execs/s of the auto loop.
func BenchmarkAutoLoop(b *testing.B) { benchLoop(b, "auto") }
