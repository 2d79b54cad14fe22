package gfz_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

type node struct {
	key         int
	left, right *node
}

func genTree(t *gfz.T, depth int) *node {
	if depth == 0 || !gen.Bool().Draw(t) {
		return nil
	}
	n := &node{key: gen.IntRange(0, 63).Draw(t)}
	n.left = genTree(t, depth-1)
	n.right = genTree(t, depth-1)
	return n
}

var treeGen = gen.Custom(func(t *gfz.T) *node { return genTree(t, 5) })

// benchExec measures one execution of fn through the fuzz-binary executor
// on random parameter sequences (fixed seed).
func benchExec(b *testing.B, fn func(*gfz.T)) { benchExecutor(b, gfz.NewExecutor(fn)) }

// benchExecutor measures one execution of ex on 64 random parameter
// sequences of 64 bytes (fixed seed).
func benchExecutor(b *testing.B, ex *gfz.Executor) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := make([][]byte, 64)
	for i := range inputs {
		inputs[i] = make([]byte, 64)
		for j := range inputs[i] {
			inputs[i][j] = byte(r.Uint32())
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ex.Exec(inputs[i%len(inputs)], uint64(i))
	}
}

func BenchmarkExecSlice(b *testing.B) {
	benchExec(b, func(t *gfz.T) {
		xs := gen.SliceOf(gen.IntRange(0, 9), 0, 20).Draw(t)
		t.Assume(len(xs) > 0)
	})
}

func BenchmarkExecTree(b *testing.B) {
	benchExec(b, func(t *gfz.T) {
		root := treeGen.Draw(t)
		t.Assume(root != nil)
	})
}

func BenchmarkExecScalars(b *testing.B) {
	benchExec(b, func(t *gfz.T) {
		for range 10 {
			gen.IntRange(0, 1000).Draw(t)
		}
	})
}
