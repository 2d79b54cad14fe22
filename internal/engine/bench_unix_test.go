//go:build unix

package engine

import (
	"path/filepath"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// BenchmarkZestLoopWorker is BenchmarkZestLoop in worker mode: every
// execution also publishes its input and counters in shared memory.
func BenchmarkZestLoopWorker(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, ".w.shm")
	m, err := createShm(path, param.DefaultMaxSize)
	if err != nil {
		b.Fatal(err)
	}
	defer m.close()
	benchLoopCfg(b, Config{Engine: "zest", Seed: 1, Runs: int64(b.N), Workdir: dir, SharedMem: path})
}
