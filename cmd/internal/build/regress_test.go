package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// regressModule writes a module whose package pkg has a gfz target with
// two planted failures: a panic (a failure the worker saves) and os.Exit
// (a death the supervisor saves). It returns the module and package
// directories.
func regressModule(t *testing.T) (mod, pkg string) {
	t.Helper()
	return fixtureModule(t, `package pkg

import "os"

// Check panics on 3 and kills the process on 5.
func Check(k int) {
	switch k {
	case 3:
		panic("regress: planted panic")
	case 5:
		os.Exit(3)
	}
}
`, `package pkg

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

func FuzzRegress(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		Check(gen.IntRange(0, 15).Named("k").Draw(t))
	})
}
`)
}

// fixtureModule writes a module example.com/regress using this checkout of
// gfz, with one package pkg of the two files given, and returns the module
// and package directories.
func fixtureModule(t *testing.T, pkgGo, testGo string) (mod, pkg string) {
	t.Helper()
	mod = t.TempDir()
	pkg = filepath.Join(mod, "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(mod, "go.mod"):      "module example.com/regress\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + repoRoot(t) + "\n",
		filepath.Join(pkg, "pkg.go"):      pkgGo,
		filepath.Join(pkg, "pkg_test.go"): testGo,
	}
	for name, src := range files {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mod, pkg
}

// runFuzzBinary runs bin in dir and returns its combined output and exit
// status.
func runFuzzBinary(t *testing.T, bin, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// TestRegressExport: a fuzz binary run with -regress writes each new
// failure, the worker's panic and the supervisor's death alike, into
// testdata/fuzz/FuzzRegress of its package (recorded by gfz-build) with the
// same bytes as the saved failure, named by its hash; plain go test then
// fails on each file the same way; without -regress nothing is written; the
// same failures found again are not written twice; a missing package
// directory is a clear start-up error.
func TestRegressExport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a fuzz binary")
	}
	mod, pkg := regressModule(t)
	bin := filepath.Join(t.TempDir(), "regress.gfz")
	var stderr bytes.Buffer
	if _, err := Build(context.Background(), Options{Patterns: []string{"./pkg"}, Dir: mod, Output: bin, Stderr: &stderr}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	corpus := filepath.Join(pkg, "testdata", "fuzz", "FuzzRegress")
	args := []string{"-runs", "1000", "-workers", "1", "-seed", "1"}

	// Off by default: the failures are saved in the work directory only.
	work := t.TempDir()
	out, code := runFuzzBinary(t, bin, pkg, append(args, "-workdir", work)...)
	if code != 1 {
		t.Fatalf("without -regress: exit %d, want 1\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(pkg, "testdata")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("without -regress the package gained testdata/ (%v)\n%s", err, out)
	}

	// With -regress, run from another directory: the package directory
	// comes from the build information.
	work = t.TempDir()
	out, code = runFuzzBinary(t, bin, t.TempDir(), append(args, "-workdir", work, "-regress")...)
	if code != 1 {
		t.Fatalf("-regress: exit %d, want 1\n%s", code, out)
	}
	saved, _ := filepath.Glob(filepath.Join(work, "failures", "*.input"))
	written, _ := filepath.Glob(filepath.Join(corpus, "*"))
	if len(saved) != 2 || len(written) != len(saved) {
		t.Fatalf("saved %v, written %v\n%s", saved, written, out)
	}
	// Each written file is a saved failure byte for byte, named as go test
	// -fuzz names its files; replayed by plain go test, it fails as the
	// report says.
	var kinds []string
	for _, in := range saved {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		name := hex.EncodeToString(sum[:])[:16]
		got, err := os.ReadFile(filepath.Join(corpus, name))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s: regression file %s: %v, content %q, want %q", in, name, err, got, data)
		}
		cmd := "go test -run=FuzzRegress/" + name
		if !strings.Contains(out, "regression input written to "+filepath.Join(corpus, name)) || !strings.Contains(out, "cd "+pkg+" && "+cmd+"\n") {
			t.Errorf("output lacks the file or the command %q:\n%s", cmd, out)
		}
		report, err := os.ReadFile(strings.TrimSuffix(in, ".input") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		replay, err := goTest(t, nil, pkg, "-run=FuzzRegress/"+name, ".")
		if err == nil {
			t.Fatalf("%s passes under plain go test, want a failure:\n%s", cmd, replay)
		}
		switch {
		case strings.Contains(string(report), "planted panic"):
			if !strings.Contains(replay, "panic: regress: planted panic") {
				t.Errorf("%s: want the planted panic:\n%s", cmd, replay)
			}
			kinds = append(kinds, "panic")
		case strings.Contains(string(report), "exit status 3"):
			if !strings.Contains(replay, "exit status 3") {
				t.Errorf("%s: want exit status 3:\n%s", cmd, replay)
			}
			kinds = append(kinds, "exit")
		default:
			t.Errorf("unexpected failure report %s:\n%s", in, report)
		}
	}
	sort.Strings(kinds)
	if strings.Join(kinds, ",") != "exit,panic" {
		t.Errorf("failures %v, want the panic (saved by the worker) and the exit (saved by the supervisor)", kinds)
	}

	// The same failures found by a new run (a fresh work directory) are
	// not written again. The regression files are seeds of that run now:
	// which of them it meets first depends on their (hash) names, and a
	// seed that kills the worker every time ends the run as a seed that
	// fails ends go test -fuzz, so the run may meet one or both.
	out, code = runFuzzBinary(t, bin, pkg, append(args, "-workdir", t.TempDir(), "-regress")...)
	again, _ := filepath.Glob(filepath.Join(corpus, "*"))
	if n := strings.Count(out, "regression input already in"); code != 1 || len(again) != 2 || n < 1 || n > 2 {
		t.Errorf("second run: exit %d, files %v\n%s", code, again, out)
	}

	// A binary whose package directory is gone (run on another machine)
	// says so at start-up.
	missing := filepath.Join(t.TempDir(), "gone")
	out, code = runFuzzBinary(t, bin, pkg, append(args, "-workdir", t.TempDir(), "-regress="+missing)...)
	if code != 2 || !regexp.MustCompile(`-regress: the package directory .*gone does not exist.*-regress=DIR`).MatchString(out) {
		t.Errorf("missing directory: exit %d\n%s", code, out)
	}
}

// TestRegressDictionary: a failure that needs a token of gfz-build's
// dictionary (a string literal of the package, drawn by DictionaryOr) is
// written by -regress with that dictionary, and plain go test, which has
// no dictionary of its own, replays it into the same failing value; without
// the dictionary file the same input decodes into another value and
// passes.
func TestRegressDictionary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a fuzz binary")
	}
	mod, pkg := fixtureModule(t, `package pkg

// Check panics on one word, a literal that only gfz-build's dictionary
// makes likely.
func Check(word string) {
	if word == "zq-dictionary-word-42" {
		panic("regress: dictionary word")
	}
}
`, `package pkg

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

func FuzzDict(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		Check(gen.DictionaryOr(gen.StringFrom("abz", 0, 4)).Named("word").Draw(t))
	})
}
`)
	bin := filepath.Join(t.TempDir(), "dict.gfz")
	var stderr bytes.Buffer
	if _, err := Build(context.Background(), Options{Patterns: []string{"./pkg"}, Dir: mod, Output: bin, Stderr: &stderr}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	out, code := runFuzzBinary(t, bin, pkg, "-runs", "20000", "-workers", "1", "-seed", "1", "-workdir", t.TempDir(), "-regress")
	written, _ := filepath.Glob(filepath.Join(pkg, "testdata", "fuzz", "FuzzDict", "*"))
	if code != 1 || len(written) != 1 || !strings.Contains(out, "dictionary word") {
		t.Fatalf("exit %d, regression files %v, want one dictionary-word failure\n%s", code, written, out)
	}
	name := filepath.Base(written[0])
	dict := filepath.Join(pkg, "testdata", "gfzdict", "FuzzDict", name)
	text, err := os.ReadFile(dict)
	if err != nil || !strings.Contains(string(text), `"zq-dictionary-word-42"`) {
		t.Fatalf("dictionary file %s: %v\n%s\n%s", dict, err, text, out)
	}
	replay, err := goTest(t, nil, pkg, "-run=FuzzDict/"+name, ".")
	if err == nil || !strings.Contains(replay, "panic: regress: dictionary word") || !strings.Contains(replay, "zq-dictionary-word-42") {
		t.Fatalf("go test -run=FuzzDict/%s with its dictionary: %v, want the panic and the word among the values\n%s", name, err, replay)
	}
	// Without its dictionary the input decodes into another word: this is
	// what the dictionary file is for.
	if err := os.Remove(dict); err != nil {
		t.Fatal(err)
	}
	if replay, err := goTest(t, nil, pkg, "-run=FuzzDict/"+name, "."); err != nil {
		t.Fatalf("without the dictionary file the input still fails (the test would not show the file matters): %v\n%s", err, replay)
	}
	// A corrupt dictionary file fails the input, naming the file.
	if err := os.WriteFile(dict, []byte("not a dictionary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	replay, err = goTest(t, nil, pkg, "-run=FuzzDict/"+name, ".")
	if err == nil || !strings.Contains(replay, "gfzdict/FuzzDict/"+name+":1") {
		t.Fatalf("corrupt dictionary file: %v, want a failure naming it\n%s", err, replay)
	}
}
