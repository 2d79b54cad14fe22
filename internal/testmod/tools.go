package testmod

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

// ErrNoTools is returned by Tool when gfz's tools module is not next to
// the library: the library's tests run outside a checkout of gfz (from the
// module cache), where there is no go.work joining the two modules.
var ErrNoTools = errors.New("gfz's tools module (cmd/, joined by go.work) is not in this copy of gfz: run the tests from a checkout")

var tools struct {
	mu    sync.Mutex
	dir   string
	built map[string]error
}

// root returns the library module's directory, two levels above this
// package.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Tool builds the gfz command name (gfz-build, gfz-run) from this
// checkout's tools module, once per test process, and returns its path.
// The library's tests use it where they need instrumented binaries: the
// library cannot import the tools, whose dependencies must never reach
// its users' build lists. Call RemoveTools from TestMain.
func Tool(name string) (string, error) {
	tools.mu.Lock()
	defer tools.mu.Unlock()
	work := filepath.Join(root(), "go.work")
	if _, err := os.Stat(filepath.Join(root(), "cmd", "go.mod")); err != nil {
		return "", ErrNoTools
	}
	if _, err := os.Stat(work); err != nil {
		return "", ErrNoTools
	}
	if tools.dir == "" {
		d, err := os.MkdirTemp("", "gfz-test-tools-")
		if err != nil {
			return "", fmt.Errorf("testmod: %w", err)
		}
		tools.dir, tools.built = d, map[string]error{}
	}
	out := filepath.Join(tools.dir, name)
	err, ok := tools.built[name]
	if !ok {
		cmd := exec.Command("go", "build", "-o", out, "github.com/gfz-dev/gfz/cmd/"+name)
		cmd.Dir = root()
		cmd.Env = append(os.Environ(), "GOWORK="+work)
		if b, e := cmd.CombinedOutput(); e != nil {
			err = fmt.Errorf("testmod: build %s: %v\n%s", name, e, b)
		}
		tools.built[name] = err
	}
	return out, err
}

// RemoveTools removes the commands Tool built.
func RemoveTools() {
	tools.mu.Lock()
	defer tools.mu.Unlock()
	if tools.dir != "" {
		os.RemoveAll(tools.dir)
		tools.dir, tools.built = "", nil
	}
}

// GfzBuild runs gfz-build (built by Tool) with args in dir and returns its
// combined output. Outside a workspace of gfz's own (GOWORK unset), it runs
// with GOWORK=off, so that a module under testdata/ is built as its own
// main module, not refused as a module missing from gfz's go.work.
func GfzBuild(dir string, args ...string) ([]byte, error) {
	bin, err := Tool("gfz-build")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = Env(dir)
	return cmd.CombinedOutput()
}

// Env returns the environment for a go command (or a gfz tool) run in dir:
// the test's own, with GOWORK=off when dir is in a module nested inside
// gfz's checkout (testdata/...) that gfz's go.work does not list, as if
// the module were checked out on its own.
func Env(dir string) []string {
	env := os.Environ()
	if os.Getenv("GOWORK") != "" {
		return env
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return env
	}
	r, err := filepath.Abs(root())
	if err != nil {
		return env
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			if d != r && d != filepath.Join(r, "cmd") {
				return append(env, "GOWORK=off")
			}
			return env
		}
		if filepath.Dir(d) == d {
			return env
		}
	}
}

// Main runs the tests of a package whose tests run the go command or
// gfz-build on modules nested in gfz's checkout (testdata/...), and exits:
// with GOWORK=off, so that each such module is its own main module as it
// would be on its own (gfz's go.work lists only gfz's two modules and the
// go command refuses the others inside it), and removing the tools Tool
// built. Tool builds the tools with gfz's go.work whatever GOWORK says.
func Main(m interface{ Run() int }) {
	os.Setenv("GOWORK", "off")
	code := m.Run()
	RemoveTools()
	os.Exit(code)
}
