package build

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// magicTest is a native target whose only branches are in its _test.go
// file: a failure planted behind four nested byte comparisons of the
// input. The code under test (Len) has no branch at all.
const magicTest = `package magic

import "testing"

func FuzzMagic(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if Len(data) < 4 {
			return
		}
		if data[0] == 'F' {
			if data[1] == 'U' {
				if data[2] == 'Z' {
					if data[3] == 'Z' {
						t.Fatal("planted: FUZZ")
					}
				}
			}
		}
	})
}
`

// runBinary runs a fuzz binary in dir and returns its output and exit
// status.
func runBinary(t *testing.T, bin, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	o, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return string(o), code
}

var foundAt = regexp.MustCompile(`found by: worker 0, in its execution (\d+)`)

// TestTestFilesGuideNativeTarget: the fuzz function of a native target
// branches on its input in its _test.go file only. With the test files
// instrumented (the default) the binary has their probes (12, counted
// apart in the summary line and the few-probes warning), and a run of a
// fixed seed and execution count reaches the failure planted behind four
// nested byte comparisons, with comparison probes (the default for native
// targets) and with coverage alone; with -testfiles=false (as gfz-build
// built it before) the same run never does. The failure found replays
// under plain go test: the fuzz function behaves the same.
func TestTestFilesGuideNativeTarget(t *testing.T) {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod":              "module example.com/magic\n\ngo 1.22\n",
		"magic/magic.go":      "package magic\n\n// Len is all the code under test: it has no branch.\nfunc Len(b []byte) int { return len(b) }\n",
		"magic/magic_test.go": magicTest,
	})
	pkg := filepath.Join(dir, "magic")
	cache := t.TempDir()
	const runs = "20000"
	var replay string
	for _, c := range []struct {
		name           string
		noTests, noCmp bool
	}{
		{"test files", false, false},
		{"test files, -cmp=false", false, true},
		{"-testfiles=false", true, false},
	} {
		out := filepath.Join(t.TempDir(), "magic.gfz")
		var stderr bytes.Buffer
		res, err := Build(context.Background(), Options{Patterns: []string{"./magic"}, Dir: dir, Output: out, Cache: cache, NoTestFiles: c.noTests, NoCmp: c.noCmp, Stderr: &stderr})
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, stderr.String())
		}
		if len(res.Binaries) != 1 {
			t.Fatalf("%s: binaries %+v", c.name, res.Binaries)
		}
		b, log := res.Binaries[0], stderr.String()
		wantTests, summary, warning := 12, "gfz-build: instrumented 1 package, 1 probe: example.com/magic 1; and 12 probes in _test.go files\n",
			"WARNING: magic.gfz has only 1 probe(s) outside its _test.go files (and 12 in them): coverage of the code under test cannot guide the fuzzer; only the fuzz function's own branches can."
		if c.noTests {
			wantTests, summary, warning = 0, "gfz-build: instrumented 1 package, 1 probe: example.com/magic 1\n",
				"WARNING: magic.gfz has only 1 probe(s) outside its _test.go files (and none in them): coverage cannot guide the fuzzer, which runs nearly blind."
		}
		if b.Probes != 1 || b.TestProbes != wantTests || res.TestProbes != wantTests || res.Probes != 1+wantTests {
			t.Errorf("%s: binary probes %d, in _test.go files %d (build: %d of %d); want 1 and %d", c.name, b.Probes, b.TestProbes, res.TestProbes, res.Probes, wantTests)
		}
		if !strings.Contains(log, summary) || !strings.Contains(log, warning) {
			t.Errorf("%s: want the summary %q and the warning %q:\n%s", c.name, summary, warning, log)
		}
		work := t.TempDir()
		o, code := runBinary(t, out, pkg, "-runs", runs, "-seed", "1", "-workers", "1", "-workdir", work, "FuzzMagic")
		inputs, _ := filepath.Glob(filepath.Join(work, "failures", "*.input"))
		if c.noTests {
			if code != 0 || len(inputs) != 0 {
				t.Errorf("%s: exit %d, failures %v: the planted failure was reached without the test files' probes\n%s", c.name, code, inputs, o)
			} else {
				t.Logf("%s: planted failure not reached in %s executions", c.name, runs)
			}
			continue
		}
		if code != 1 || len(inputs) != 1 || !strings.Contains(o, "new failure (t.Fatal): magic_test.go:15: planted: FUZZ") {
			t.Fatalf("%s: exit %d, failures %v; want the planted failure within %s executions:\n%s", c.name, code, inputs, runs, o)
		}
		report, _ := os.ReadFile(strings.TrimSuffix(inputs[0], ".input") + ".txt")
		m := foundAt.FindSubmatch(report)
		if m == nil {
			t.Fatalf("%s: no execution count in the report:\n%s", c.name, report)
		}
		t.Logf("%s: planted failure reached at execution %s of %s", c.name, m[1], runs)
		if replay == "" {
			replay = inputs[0]
		}
	}

	// The failure replays under plain go test (no overlay, no gfz).
	file, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	if string(file) != "go test fuzz v1\n[]byte(\"FUZZ\")\n" {
		t.Errorf("failure file %q", file)
	}
	seeds := filepath.Join(pkg, "testdata", "fuzz", "FuzzMagic")
	if err := os.MkdirAll(seeds, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seeds, "found"), file, 0o644); err != nil {
		t.Fatal(err)
	}
	gt := exec.Command("go", "test", "-run=FuzzMagic/found", ".")
	gt.Dir = pkg
	if o, err := gt.CombinedOutput(); err == nil || !strings.Contains(string(o), "magic_test.go:15: planted: FUZZ") {
		t.Errorf("go test -run=FuzzMagic/found: %v, want the planted failure:\n%s", err, o)
	}
}

// extModule writes a module whose package ext has in-package test files
// (export_test.go exports an unexported function and has a helper of
// its own) and an external test package ext_test holding a native target,
// a test, and helpers in files selected by a build tag: one with a
// generic function and a goto loop (//go:build extratag), and its
// replacement without the tag (both at once would not compile).
func extModule(t *testing.T) string {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod": "module example.com/ext\n\ngo 1.22\n",
		"ext/ext.go": `package ext

// split cuts s at its first comma.
func split(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
`,
		"ext/export_test.go": `package ext

var Split = split

// Classify is a helper of the tests.
func Classify(n int) string {
	if n > 2 {
		return "many"
	}
	return "few"
}
`,
		"ext/ext_x_test.go": `package ext_test

import (
	"fmt"
	"testing"

	"example.com/ext/ext"
)

func FuzzSplit(f *testing.F) {
	f.Add("a,b")
	f.Fuzz(func(t *testing.T, s string) {
		a, b, ok := ext.Split(s)
		if !ok {
			return
		}
		if a+","+b != s {
			t.Fatalf("round trip of %q", s)
		}
		_ = ext.Classify(len(a))
		_ = maxOf(len(a), len(b))
		_ = countDown(len(b) % 8)
	})
}

func TestBehaviour(t *testing.T) {
	fmt.Println(maxOf(3, 5), maxOf("b", "a"), countDown(4), tagged(), ext.Classify(7), ext.Classify(1))
}
`,
		"ext/gen_x_test.go": `//go:build extratag

package ext_test

// maxOf is generic.
func maxOf[T int | string](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// countDown counts to n with goto.
func countDown(n int) int {
	i := 0
loop:
	if i < n {
		i++
		goto loop
	}
	return i
}

func tagged() string { return "with extratag" }
`,
		"ext/notag_x_test.go": `//go:build !extratag

package ext_test

func maxOf(a, b any) any { return a }

func countDown(n int) int { return n }

func tagged() string { return "without extratag" }
`,
	})
	return dir
}

// TestTestFilesExternalPackage: both an external test package (package
// ext_test, which imports the in-package test variant of ext) and the
// in-package test files are instrumented, each with its own added file;
// a file with a generic function, a goto label and a //go:build tag
// compiles and behaves the same (a test's output, plain and instrumented),
// the file the tag excludes is left alone, and the fuzz binary's probes in
// all of them fire (the coverage profile names the test files).
func TestTestFilesExternalPackage(t *testing.T) {
	dir := extModule(t)
	pkg := filepath.Join(dir, "ext")
	out := filepath.Join(t.TempDir(), "ext.gfz")
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./ext"}, Dir: dir, Output: out, Tags: "extratag", Cache: "off", Work: true, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { res.Cleanup() })
	got := map[string]int{}
	for _, tp := range res.TestPackages {
		got[tp.Path] = tp.Files
		if tp.Probes == 0 {
			t.Errorf("%s: no probes", tp.Path)
		}
	}
	if len(got) != 2 || got["example.com/ext/ext"] != 1 || got["example.com/ext/ext_test"] != 2 {
		t.Errorf("test packages %+v, want ext (export_test.go) and ext_test (ext_x_test.go, gen_x_test.go)", res.TestPackages)
	}
	files := overlayFiles(t, res.Prepared)
	for _, name := range []string{"export_test.go", "ext_x_test.go", "gen_x_test.go", testRegistrationFile, testRegistrationFileX} {
		if _, ok := files[filepath.Join(pkg, name)]; !ok {
			t.Errorf("%s not in the overlay", name)
		}
	}
	if _, ok := files[filepath.Join(pkg, "notag_x_test.go")]; ok {
		t.Errorf("notag_x_test.go, excluded by its build tag, is in the overlay")
	}
	if src := files[filepath.Join(pkg, testRegistrationFileX)]; !strings.HasPrefix(src, "// Code generated by gfz-build. DO NOT EDIT.\n\npackage ext_test\n") {
		t.Errorf("the external test package's added file:\n%s", src)
	}
	if src := files[filepath.Join(pkg, "export_test.go")]; !strings.Contains(src, "_gfzTHit(") || strings.Contains(src, "_gfzHit(") {
		t.Errorf("the in-package test file does not call its own helpers:\n%s", src)
	}

	// The test's output is the same plain and instrumented.
	args := []string{"-v", "-run", "TestBehaviour", "-tags=extratag", "./ext"}
	plain, err := goTest(t, nil, dir, args...)
	if err != nil {
		t.Fatalf("plain go test: %v\n%s", err, plain)
	}
	inst, err := goTest(t, res.Prepared, dir, args...)
	if err != nil {
		t.Fatalf("instrumented go test: %v\n%s", err, inst)
	}
	if inst != plain || !strings.Contains(plain, "5 b 4 with extratag many few") {
		t.Errorf("instrumented output differs:\n%s\nplain:\n%s", inst, plain)
	}

	// The probes of every test file fire in the fuzz binary.
	profile := filepath.Join(t.TempDir(), "cover.out")
	o, code := runBinary(t, out, pkg, "-runs", "3000", "-seed", "1", "-workers", "1", "-workdir", t.TempDir(), "-coverprofile", profile, "FuzzSplit")
	if code != 0 {
		t.Fatalf("FuzzSplit: exit %d\n%s", code, o)
	}
	prof, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	hit := map[string]bool{}
	for _, l := range strings.Split(string(prof), "\n") {
		if name, _, ok := strings.Cut(l, ":"); ok && strings.HasSuffix(l, " 1") {
			hit[strings.TrimPrefix(name, "example.com/ext/ext/")] = true
		}
	}
	for _, name := range []string{"ext.go", "export_test.go", "ext_x_test.go", "gen_x_test.go"} {
		if !hit[name] {
			t.Errorf("no probe of %s fired; profile:\n%s", name, prof)
		}
	}
	if slices.ContainsFunc(strings.Split(string(prof), "\n"), func(l string) bool { return strings.Contains(l, "notag_x_test.go") }) {
		t.Errorf("the profile names the excluded file:\n%s", prof)
	}
}

// TestTestFilesSummary: the summary line counts the probes of the
// _test.go files apart, and the few-probes warning is about the code under
// test, saying how many probes the test files have.
func TestTestFilesSummary(t *testing.T) {
	pkgs := []InstrumentedPackage{{Path: "example.com/m/a", Module: "example.com/m", Probes: 118}}
	mods := []ModuleProbes{{Module: "example.com/m", Packages: 1, Probes: 118}}
	tests := []InstrumentedPackage{{Path: "example.com/m/a", Probes: 30}, {Path: "example.com/m/a_test", Probes: 10}}
	if got, want := ProbeSummary(pkgs, mods, tests), "instrumented 1 package, 118 probes: example.com/m 118; and 40 probes in _test.go files"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := ProbeSummary(nil, nil, tests[:1]), "instrumented 0 packages, 0 probes; and 30 probes in _test.go files"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := ProbeSummary(pkgs, mods, nil), "instrumented 1 package, 118 probes: example.com/m 118"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	w := FewProbesWarning("example.com/m/a", "/x/a.gfz", 2, 40, []string{"strconv"})
	for _, want := range []string{
		"WARNING: a.gfz has only 2 probe(s) outside its _test.go files (and 40 in them): coverage of the code under test cannot guide the fuzzer; only the fuzz function's own branches can.",
		"-cover strconv",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warning lacks %q:\n%s", want, w)
		}
	}
	if w := FewProbesWarning("example.com/m/a", "/x/a.gfz", 0, 0, nil); !strings.Contains(w, "only 0 probe(s) outside its _test.go files (and none in them): coverage cannot guide the fuzzer, which runs nearly blind") {
		t.Errorf("warning without test probes:\n%s", w)
	}
}

// TestTestFilesDefault: by default only the test files of packages with a
// native target are instrumented; a package with gfz targets only keeps
// its test files (its generators) plain, unless -testfiles is given;
// -testfiles=false leaves out the native one's too.
func TestTestFilesDefault(t *testing.T) {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod": "module example.com/d\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"g/g.go": "package g\n\nfunc Less(a, b int) bool { return a < b }\n",
		"g/g_test.go": `package g

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

func FuzzLess(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if n := t.Source().Range(0, 9, 0); n > 4 {
			Less(int(n), 3)
		}
	})
}
`,
		"n/n.go": "package n\n\nfunc Len(b []byte) int { return len(b) }\n",
		"n/n_test.go": `package n

import "testing"

func FuzzLen(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if Len(b) > 3 {
			return
		}
	})
}
`,
	})
	for _, c := range []struct {
		name string
		opts Options
		want []string
	}{
		{"default", Options{}, []string{"example.com/d/n"}},
		{"-testfiles", Options{TestFiles: true}, []string{"example.com/d/g", "example.com/d/n"}},
		{"-testfiles=false", Options{NoTestFiles: true}, nil},
	} {
		o := c.opts
		o.Patterns, o.Dir, o.Cache = []string{"./..."}, dir, "off"
		p := prepare(t, o)
		var got []string
		for _, tp := range p.TestPackages {
			if tp.Probes == 0 {
				t.Errorf("%s: %s has no probes", c.name, tp.Path)
			}
			got = append(got, tp.Path)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: test files instrumented in %v, want %v", c.name, got, c.want)
		}
	}
}
