package gfz_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestRegressDictionaryOnlyWhenDrawn: -regress writes the fuzz binary's
// dictionary (testdata/gfzdict/<target>/<name>) beside a regression input
// only when the input's values drew from it: a target that draws no token
// of a binary that has a dictionary (its package has string literals) gets
// the regression input alone, and go test replays it; a target that draws
// a token gets the dictionary too, whether the failure is a panic the
// worker saves or a death the supervisor describes in a -repro process,
// and go test replays it with it. (Every regression input got a 10 KB
// dictionary file whenever the binary had a dictionary.)
// regressDictModule writes a module whose package pkg has three gfz
// targets (FuzzPlain draws no dictionary token though the package has
// string literals, FuzzWord and FuzzExit draw from the dictionary and
// panic or exit on a word only it makes likely), builds its fuzz binary,
// and returns the binary and the package directory.
func regressDictModule(t *testing.T) (bin, pkg string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a fuzz binary")
	}
	mod := t.TempDir()
	pkg = filepath.Join(mod, "pkg")
	testmod.Write(t, mod, map[string]string{
		"go.mod": "module example.com/regressdict\n\ngo 1.22\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"pkg/pkg.go": `package pkg

import "os"

// Small panics on 3.
func Small(k int) {
	if k == 3 {
		panic("regressdict: small")
	}
}

// Word panics on one word, a literal only the dictionary makes likely;
// Exit kills the process on it.
func Word(w string) {
	if w == "zq-dictionary-word-42" {
		panic("regressdict: word")
	}
}

func Exit(w string) {
	if w == "zq-dictionary-word-42" {
		os.Exit(3)
	}
}
`,
		"pkg/pkg_test.go": `package pkg

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

func FuzzPlain(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) { Small(gen.IntRange(0, 15).Named("k").Draw(t)) })
}

func FuzzWord(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) { Word(gen.DictionaryOr(gen.StringFrom("abz", 0, 4)).Named("w").Draw(t)) })
}

func FuzzExit(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) { Exit(gen.DictionaryOr(gen.StringFrom("abz", 0, 4)).Named("w").Draw(t)) })
}
`,
	})
	bin = filepath.Join(t.TempDir(), "regressdict.gfz")
	if log, err := testmod.GfzBuild(mod, "-o", bin, "./pkg"); err != nil {
		t.Fatalf("gfz-build: %v\n%s", err, log)
	}
	return bin, pkg
}

func TestRegressDictionaryOnlyWhenDrawn(t *testing.T) {
	bin, pkg := regressDictModule(t)
	for _, c := range []struct {
		target string
		dict   bool   // the dictionary file is written
		replay string // what go test prints replaying the input
	}{
		{"FuzzPlain", false, "panic: regressdict: small"},
		{"FuzzWord", true, "panic: regressdict: word"},
		{"FuzzExit", true, "exit status 3"},
	} {
		t.Run(c.target, func(t *testing.T) {
			t.Parallel() // independent runs, each in its own work directory
			cmd := exec.Command(bin, "-runs", "2000", "-workers", "1", "-seed", "1", "-workdir", t.TempDir(), "-regress", c.target)
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			written, _ := filepath.Glob(filepath.Join(pkg, "testdata", "fuzz", c.target, "*"))
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || len(written) != 1 {
				t.Fatalf("%v, regression inputs %v; want exit status 1 and one input\n%s", err, written, out)
			}
			name := filepath.Base(written[0])
			_, serr := os.Stat(filepath.Join(pkg, "testdata", "gfzdict", c.target, name))
			if got := serr == nil; got != c.dict {
				t.Errorf("dictionary file written: %v, want %v\n%s", got, c.dict, out)
			}
			if !c.dict {
				if _, err := os.Stat(filepath.Join(pkg, "testdata", "gfzdict")); err == nil {
					t.Errorf("testdata/gfzdict exists for a target that drew no token")
				}
			}
			gt := exec.Command("go", "test", "-count=1", "-run="+c.target+"/"+name, ".")
			gt.Dir, gt.Env = pkg, testmod.Env(pkg)
			replay, err := gt.CombinedOutput()
			if err == nil || !strings.Contains(string(replay), c.replay) {
				t.Errorf("go test -run=%s/%s: %v, want a failure with %q\n%s", c.target, name, err, c.replay, replay)
			}
		})
	}
}
