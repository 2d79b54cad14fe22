//go:build go1.24

package gfz_test

import (
	"context"
	"testing"
	"time"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/internal/engine"
)

// benchLoop runs the real engine loop around the fuzz-binary executor for
// b.N executions and reports execs/s. Under plain go test the probe map
// has 64 KiB (runtime.MapBits 16) and its scan dominates; for figures
// comparable with a fuzz binary (whose map gfz-build sizes from its probe
// count, 1-4 KiB for such targets) run with a -overlay that replaces
// runtime/mapsize.go (docs/BENCHMARKS.md, "Engine loop throughput").
func benchLoop(b *testing.B, eng string, fn func(*gfz.T)) {
	ex := gfz.NewExecutor(fn)
	cfg := engine.Config{Engine: eng, Seed: 1, Runs: int64(b.N), Workdir: b.TempDir(), Timeout: engine.NoTimeout}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	s, err := engine.Run(context.Background(), cfg, ex)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(s.Execs)/time.Since(start).Seconds(), "execs/s")
}

// fuzzTrivial is testdata/bench/trivial's FuzzTrivial body.
func fuzzTrivial(t *gfz.T) {
	b := t.Source().Bytes(4)
	if len(b) == 4 && b[0] == 'g' && b[1] == 'f' && b[2] == 'z' && b[3] == '!' {
		sink++
	}
}

var sink int

// fuzzTree draws bst's tree shape and fails on a rare one, so that the
// loop sees failing executions with a known signature.
func fuzzTree(t *gfz.T) {
	root := treeGen.Draw(t)
	t.Assume(root != nil)
	if root.left != nil && root.right != nil && root.key == 7 {
		t.Fatalf("planted failure")
	}
}

func BenchmarkLoopTrivialZest(b *testing.B)   { benchLoop(b, "zest", fuzzTrivial) }
func BenchmarkLoopTrivialRandom(b *testing.B) { benchLoop(b, "random", fuzzTrivial) }
func BenchmarkLoopTrivialAuto(b *testing.B)   { benchLoop(b, "auto", fuzzTrivial) }
func BenchmarkLoopTreeZest(b *testing.B)      { benchLoop(b, "zest", fuzzTree) }
func BenchmarkLoopTreeRandom(b *testing.B)    { benchLoop(b, "random", fuzzTree) }
func BenchmarkLoopTreeEI(b *testing.B)        { benchLoop(b, "ei", fuzzTree) }

// BenchmarkLimitTree is the limit loop for fuzzTree: the generator and the
// body on fresh parameter bytes, no engine.
func BenchmarkLimitTree(b *testing.B) {
	ex := gfz.NewExecutor(fuzzTree)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ex.Exec(nil, uint64(i))
	}
}

// BenchmarkExecTreeRecording is BenchmarkExecTree (same inputs) with the
// draw/span record on: the difference is the cost of recording.
func BenchmarkExecTreeRecording(b *testing.B) {
	ex := gfz.NewExecutor(func(t *gfz.T) {
		root := treeGen.Draw(t)
		t.Assume(root != nil)
	})
	ex.SetRecording(true)
	benchExecutor(b, ex)
}

// benchFailing runs an input that always fails the same way (t.Fatalf, or
// a panic), with brief repeats on or off: the difference is the cost of
// formatting a known failure in full.
func benchFailing(b *testing.B, brief, panics bool) {
	ex := gfz.NewExecutor(func(t *gfz.T) {
		xs := treeGen.Draw(t)
		if panics {
			var m map[int]int
			//lint:ignore SA5000 the planted panic
			m[xs.key] = 1
		}
		t.Fatalf("planted failure at %v", xs)
	})
	ex.SetBriefRepeats(brief)
	in := []byte{1, 7, 0, 0}
	b.ReportAllocs()
	for b.Loop() {
		ex.Exec(in, 0)
	}
}

func BenchmarkExecFailingFull(b *testing.B)    { benchFailing(b, false, false) }
func BenchmarkExecFailingBrief(b *testing.B)   { benchFailing(b, true, false) }
func BenchmarkExecPanickingFull(b *testing.B)  { benchFailing(b, false, true) }
func BenchmarkExecPanickingBrief(b *testing.B) { benchFailing(b, true, true) }

// BenchmarkExecDeepRecording records an execution of 41 draws made under
// 40 nested calls of a plain recursive function: each draw walks the
// stack to the library for its user frames.
func BenchmarkExecDeepRecording(b *testing.B) {
	ex := gfz.NewExecutor(func(t *gfz.T) { ctDeep(t, 40) })
	ex.SetRecording(true)
	in := make([]byte, 64)
	b.ReportAllocs()
	for b.Loop() {
		ex.Exec(in, 0)
	}
}
