package build

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// gfzModule returns a go.mod for a test module that requires gfz from this
// repository.
func gfzModule(t *testing.T, path string) string {
	return "module " + path + "\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + repoRoot(t) + "\n"
}

// fuzzTest is a _test.go file of package pkg with one gfz target FuzzF
// calling call (an expression using the int n).
func fuzzTest(pkg, imports, call string) string {
	return "package " + pkg + "\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n" + imports + ")\n\n" +
		"func FuzzF(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) {\n\t\tn := int(t.Source().Range(-20, 20, 0))\n\t\t_ = " + call + "\n\t})\n}\n"
}

const usesSrc = `package uses

import "example.com/m/lib"

// Twice classifies n and 2n.
func Twice(n int) string {
	if n > 100 {
		return "large"
	}
	return lib.Classify(n) + lib.Classify(2*n)
}
`

const otherSrc = `package other

// Sign returns the sign of n.
func Sign(n int) int {
	if n < 0 {
		return -1
	}
	if n > 0 {
		return 1
	}
	return 0
}
`

// moduleTree writes module example.com/m: lib (no targets), uses (imports
// lib; target FuzzF) and other (imports nothing; target FuzzF).
func moduleTree(t *testing.T) string {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":              gfzModule(t, "example.com/m"),
		"lib/lib.go":          libSrc,
		"uses/uses.go":        usesSrc,
		"uses/uses_test.go":   fuzzTest("uses", "", "Twice(n)"),
		"other/other.go":      otherSrc,
		"other/other_test.go": fuzzTest("other", "", "Sign(n)"),
	})
	return dir
}

// TestDefaultInstrumentsModuleDependencies: gfz-build ./uses, where uses
// imports another package of the same module, instruments both.
func TestDefaultInstrumentsModuleDependencies(t *testing.T) {
	dir := moduleTree(t)
	p := prepare(t, Options{Patterns: []string{"./uses"}, Dir: dir})
	if probesOf(p, "example.com/m/uses") == 0 || probesOf(p, "example.com/m/lib") < 5 {
		t.Fatalf("instrumented %+v", p.Packages)
	}
	if probesOf(p, "example.com/m/other") != 0 {
		t.Errorf("other is neither named nor imported but was instrumented: %+v", p.Packages)
	}
	for _, ip := range p.Packages {
		if OwnPackage(ip.Path) {
			t.Errorf("gfz's own package %s instrumented", ip.Path)
		}
	}
	// gfz targets only: their test files are not instrumented by default.
	if len(p.Modules) != 1 || p.Modules[0].Module != "example.com/m" || p.Modules[0].Probes != p.Probes || p.TestProbes != 0 {
		t.Errorf("modules %+v, %d probes (%d in _test.go files)", p.Modules, p.Probes, p.TestProbes)
	}
}

// TestProbesCountLinkedPackages: with ./..., each binary's probes= counts
// the instrumented packages linked into it, not every package built.
func TestProbesCountLinkedPackages(t *testing.T) {
	dir := moduleTree(t)
	out := t.TempDir()
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./..."}, Dir: dir, Output: out, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	lib, uses, other := probesOf(res.Prepared, "example.com/m/lib"), probesOf(res.Prepared, "example.com/m/uses"), probesOf(res.Prepared, "example.com/m/other")
	want := map[string]int{"example.com/m/uses": uses + lib, "example.com/m/other": other}
	if len(res.Binaries) != 2 || lib == 0 || other == 0 || res.Probes != lib+uses+other+res.TestProbes {
		t.Fatalf("binaries %+v, packages %+v", res.Binaries, res.Packages)
	}
	for _, b := range res.Binaries {
		if b.Probes != want[b.Package] {
			t.Errorf("%s: %d probes, want %d", b.Package, b.Probes, want[b.Package])
		}
		// The value the binary carries (printed by -v at start).
		run := exec.Command(b.Output, "-runs", "1", "-workers", "1", "-v", "-workdir", t.TempDir(), "FuzzF")
		o, err := run.CombinedOutput()
		m := regexp.MustCompile(`probes=(\d+)`).FindSubmatch(o)
		if err != nil || m == nil || string(m[1]) != strconv.Itoa(want[b.Package]) {
			t.Errorf("%s: binary says %q, want probes=%d (%v)\n%s", b.Package, m, want[b.Package], err, o)
		}
	}
}

// TestSkipAndInstrumentPatterns narrows the default set.
func TestSkipAndInstrumentPatterns(t *testing.T) {
	dir := moduleTree(t)
	for _, c := range []struct {
		only, skip []string
		lib        bool
	}{
		{nil, nil, true},
		{nil, []string{"example.com/m/lib"}, false},
		{nil, []string{"..."}, false},
		{[]string{"example.com/m/..."}, nil, true},
		{[]string{"github.com/x/..."}, nil, false},
	} {
		p := prepare(t, Options{Patterns: []string{"./uses"}, Dir: dir, Only: c.only, Skip: c.skip})
		if got := probesOf(p, "example.com/m/lib") > 0; got != c.lib || probesOf(p, "example.com/m/uses") == 0 {
			t.Errorf("-instrument %q -skip %q: lib instrumented %v, want %v; %+v", c.only, c.skip, got, c.lib, p.Packages)
		}
	}
}

func TestMatchPattern(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"a/b", "a/b", true}, {"a/b", "a/bc", false}, {"a/...", "a", true}, {"a/...", "a/b/c", true},
		{"a/...", "ab", false}, {"...", "x/y", true}, {"a/.../c", "a/b/c", true}, {"a.b/...", "axb", false},
	} {
		if got := MatchPattern(c.pattern, c.path); got != c.want {
			t.Errorf("MatchPattern(%q, %q) = %v", c.pattern, c.path, got)
		}
	}
	if OwnPackage("github.com/gfz-dev/gfz/testdata/examples/bst") || !OwnPackage("github.com/gfz-dev/gfz/generators/gojson") ||
		!OwnPackage("github.com/gfz-dev/gfz") || OwnPackage("github.com/gfz-dev/gfzx") {
		t.Error("OwnPackage")
	}
}

// TestFewProbesWarning: a target that only calls the standard library gets
// a loud warning naming the std packages -cover could add.
func TestFewProbesWarning(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":    gfzModule(t, "example.com/stdonly"),
		"s.go":      "package stdonly\n\nimport \"strconv\"\n\n// Atoi parses.\nfunc Atoi(s string) int { n, _ := strconv.Atoi(s); return n }\n",
		"s_test.go": fuzzTest("stdonly", "\t\"strconv\"\n", "Atoi(strconv.Itoa(n))"),
	})
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "s.gfz"), Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if len(res.Binaries) != 1 || res.Binaries[0].Probes >= FewProbes {
		t.Fatalf("binaries %+v", res.Binaries)
	}
	if s := stderr.String(); !strings.Contains(s, "WARNING: s.gfz has only 1 probe(s)") || !strings.Contains(s, "-cover strconv") {
		t.Errorf("no clear warning:\n%s", s)
	}
	// A target with enough probes (uses and lib) gets none.
	stderr.Reset()
	if _, err := Build(context.Background(), Options{Patterns: []string{"./uses"}, Dir: moduleTree(t), Output: filepath.Join(t.TempDir(), "u.gfz"), Stderr: &stderr}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "WARNING") {
		t.Errorf("warning for a target with probes:\n%s", stderr.String())
	}
}

// TestPreModuleVersion instruments github.com/BurntSushi/toml v0.3.1, whose
// module predates go.mod (testdata/build/oldtoml, pinned by its go.sum).
func TestPreModuleVersion(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "build", "oldtoml")
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/BurntSushi/toml")
	cmd.Dir = dir
	mdir, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	if _, err := exec.Command("test", "-e", filepath.Join(strings.TrimSpace(string(mdir)), "go.mod")).Output(); err == nil {
		t.Fatalf("the fixture's toml version has a go.mod: it tests nothing")
	}
	var stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "old.gfz")
	res, err := Build(context.Background(), Options{Dir: dir, Output: out, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if probesOf(res.Prepared, "github.com/BurntSushi/toml") < 500 || res.Binaries[0].Probes < 500 {
		t.Fatalf("toml v0.3.1 not instrumented: %+v", res.Packages)
	}
	o, err := exec.Command(out, "-runs", "2000", "-workers", "1", "-seed", "1", "-workdir", t.TempDir(), "FuzzKeys").CombinedOutput()
	if err != nil || !regexp.MustCompile(`cov ([1-9]\d{2,})`).Match(o) {
		t.Errorf("run: %v (want coverage above 100 edges)\n%s", err, o)
	}
}

// TestTestOnlyPackage builds a package whose only Go files are _test.go
// files, as go test does.
func TestTestOnlyPackage(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":         gfzModule(t, "example.com/m"),
		"lib/lib.go":     libSrc,
		"t/only_test.go": fuzzTest("t", "\n\t\"example.com/m/lib\"\n", "lib.Classify(n)"),
	})
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./t"}, Dir: dir, Output: filepath.Join(t.TempDir(), "t.gfz"), Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if len(res.Binaries) != 1 || res.Binaries[0].Package != "example.com/m/t" || res.Binaries[0].Probes != probesOf(res.Prepared, "example.com/m/lib") || res.Binaries[0].Probes == 0 {
		t.Fatalf("binaries %+v, packages %+v", res.Binaries, res.Packages)
	}
}

// TestBrokenPackageDoesNotStopOthers: ./... with a package that does not
// parse and one that does not compile builds the others and names both.
func TestBrokenPackageDoesNotStopOthers(t *testing.T) {
	dir := moduleTree(t)
	writeTree(t, dir, map[string]string{
		"noparse/n.go":      "package noparse\n\nfunc F( {\n",
		"noparse/n_test.go": fuzzTest("noparse", "", "n"),
		"notype/n.go":       "package notype\n\nfunc F() int { return \"s\" }\n",
		"notype/n_test.go":  fuzzTest("notype", "", "F()"),
	})
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./..."}, Dir: dir, Output: t.TempDir(), Stderr: &stderr})
	var be *BuildError
	if !errors.As(err, &be) || res == nil {
		t.Fatalf("want a *BuildError, got %v\n%s", err, stderr.String())
	}
	var built []string
	for _, b := range res.Binaries {
		built = append(built, b.Package)
	}
	if fmt.Sprint(built) != "[example.com/m/other example.com/m/uses]" {
		t.Errorf("built %v", built)
	}
	msg := err.Error()
	for _, want := range []string{"example.com/m/noparse:", "n.go:3", "example.com/m/notype:", "n.go:3:23", "2 binaries written"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

// TestVerboseDictionarySummary: -v summarises the dictionary instead of
// printing the whole linker value.
func TestVerboseDictionarySummary(t *testing.T) {
	dir := moduleTree(t)
	var lits strings.Builder
	lits.WriteString("package lits\n\n// Words is a large literal table.\nvar Words = []string{\n")
	for i := range 3000 {
		fmt.Fprintf(&lits, "\t\"word-%05d-padding-padding-padding\",\n", i)
	}
	lits.WriteString("}\n")
	writeTree(t, dir, map[string]string{"uses/lits.go": strings.Replace(lits.String(), "package lits", "package uses", 1)})
	var stderr bytes.Buffer
	res, err := Build(context.Background(), Options{Patterns: []string{"./uses"}, Dir: dir, Output: filepath.Join(t.TempDir(), "u.gfz"), Stderr: &stderr, Verbose: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	s := stderr.String()
	if len(res.Dictionary) < 2000 || len(EncodeDictionary(res.Dictionary)) < 40000 {
		t.Fatalf("dictionary of %d tokens is too small to test", len(res.Dictionary))
	}
	want := fmt.Sprintf("dictionary: %d tokens (", len(res.Dictionary))
	if !strings.Contains(s, want) || strings.Contains(s, "word-02999") || len(s) > 8000 {
		t.Errorf("-v output (%d bytes) lacks %q or prints the whole dictionary:\n%.3000s", len(s), want, s)
	}
	if !strings.Contains(s, "module example.com/m: 2 packages") {
		t.Errorf("-v lacks the per-module count:\n%.3000s", s)
	}
}

// TestNoModule: outside any module the error says there is no go.mod.
func TestNoModule(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOWORK", "off")
	writeTree(t, dir, map[string]string{"x.go": "package x\n"})
	_, err := Prepare(context.Background(), Options{Dir: dir})
	if !errors.Is(err, ErrNoModule) || !strings.Contains(err.Error(), "no go.mod in "+dir) || !strings.Contains(err.Error(), "go mod init") {
		t.Errorf("got %v", err)
	}
}

// TestGoSumHint: a build failing for a go.sum entry that gfz's own packages
// need says what to run; other failures get no such hint.
func TestGoSumHint(t *testing.T) {
	out := "../../../internal/screen/term.go:6:2: missing go.sum entry for module providing package golang.org/x/term (imported by github.com/gfz-dev/gfz/internal/screen); to add:\n\tgo get github.com/gfz-dev/gfz/internal/screen@v0.0.0\n"
	if h := goSumHint(out); !strings.Contains(h, "go get github.com/gfz-dev/gfz") {
		t.Errorf("hint %q", h)
	}
	if h := goSumHint("bad.go:3:20: undefined: undefinedThing\n"); h != "" {
		t.Errorf("hint for a compile error: %q", h)
	}
}

// TestModfileInGOFLAGS: GOFLAGS=-modfile is refused by name, with what to
// do (it failed with the go command's "build flag -modfile only valid
// when using modules", from go/packages' probe outside modules).
func TestModfileInGOFLAGS(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOWORK", "off")
	writeTree(t, dir, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "alt.mod": "module example.com/m\n\ngo 1.22\n", "x.go": "package x\n"})
	t.Setenv("GOFLAGS", "-modfile=alt.mod")
	_, err := Prepare(context.Background(), Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "GOFLAGS holds -modfile=alt.mod") {
		t.Errorf("got %v", err)
	}
}

// TestUserGoMod: the go command's errors about gfz-build's copy of go.mod
// name the module's go.mod.
func TestUserGoMod(t *testing.T) {
	err := userGoMod(errors.New("load ./...: go: /tmp/gfz-build-7/gfz.mod requires go >= 1.27 (running go 1.26.8)"), "/tmp/gfz-build-7", "/src/m/go.mod")
	if got := err.Error(); got != "load ./...: go: /src/m/go.mod requires go >= 1.27 (running go 1.26.8)" {
		t.Errorf("got %q", got)
	}
}
