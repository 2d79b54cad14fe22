package build

import (
	"os"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestMain runs the tests with GOWORK=off: the modules they build under
// testdata/ are their own main modules, not members of gfz's workspace.
// The tests share one gfz cache directory of their own ($GFZCACHE, where
// the build cache is), removed at the end: the user's cache is left
// alone, and every test after the first to build a package takes it from
// the build cache.
func TestMain(m *testing.M) { testmod.Main(cacheRun{m}) }

type cacheRun struct{ m *testing.M }

func (r cacheRun) Run() int {
	dir, err := os.MkdirTemp("", "gfz-build-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(workdir.CacheEnv, dir)
	code := r.m.Run()
	os.RemoveAll(dir)
	return code
}
