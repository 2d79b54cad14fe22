//go:build linux

package gfz_test

import (
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// The cost of the call tree from the call stack (docs/BENCHMARKS.md, "Call
// tree from the call stack"): the executor with the record off (what zest,
// bytes and random run) and on (ei, bediv, zeugma), on a tree drawn by a
// plain recursive function (user frames between the draws and the
// library) and on nested generators (every Draw but the outer one called
// by the library). Besides ns/op, each reports cpu-ns/op, the CPU time of
// its thread per execution (getrusage), which the load of a shared
// machine disturbs much less than wall time.

func benchRecording(b *testing.B, fn func(*gfz.T), on bool) {
	ex := gfz.NewExecutor(fn)
	ex.SetRecording(on)
	r := rand.New(rand.NewPCG(1, 2))
	inputs := make([][]byte, 64)
	for i := range inputs {
		inputs[i] = make([]byte, 64)
		for j := range inputs[i] {
			inputs[i][j] = byte(r.Uint32())
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	start := threadCPU()
	for i := 0; i < b.N; i++ {
		ex.Exec(inputs[i%len(inputs)], uint64(i))
	}
	b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
}

// threadCPU returns the CPU time (user and system) of the calling thread
// in nanoseconds.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// bcTree is bst's genTree, called from the fuzz function.
func bcTree(t *gfz.T, depth int) *node {
	if depth == 0 || !gen.Bool().Draw(t) {
		return nil
	}
	n := &node{key: gen.IntRange(0, 63).Draw(t)}
	n.left = bcTree(t, depth-1)
	n.right = bcTree(t, depth-1)
	return n
}

func fuzzPlainTree(t *gfz.T) {
	root := bcTree(t, 5)
	t.Assume(root != nil)
}

var nested = gen.SliceOf(gen.SliceOf(gen.IntRange(0, 9), 0, 6), 0, 8)

func fuzzNested(t *gfz.T) {
	xs := nested.Draw(t)
	t.Assume(len(xs) > 0)
}

func BenchmarkCallTreePlainOff(b *testing.B)  { benchRecording(b, fuzzPlainTree, false) }
func BenchmarkCallTreePlainOn(b *testing.B)   { benchRecording(b, fuzzPlainTree, true) }
func BenchmarkCallTreeNestedOff(b *testing.B) { benchRecording(b, fuzzNested, false) }
func BenchmarkCallTreeNestedOn(b *testing.B)  { benchRecording(b, fuzzNested, true) }
