package build

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// writeTree creates files (relative path -> content) under dir (with
// gfz's go.sum next to a go.mod or go.work that replaces gfz: testmod.Write).
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	testmod.Write(t, dir, files)
}

func repoRoot(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A library with a branch per case, and a test that prints which were
// taken: the output must be the same instrumented and plain.
const libSrc = `package lib

// Classify has one probe per arm.
func Classify(n int) string {
	switch {
	case n < 0:
		return "neg"
	case n == 0:
		return "zero"
	}
	if n%2 == 0 && n > 10 {
		return "big even"
	}
	return "pos"
}
`

const appSrc = `package app

import "example.com/lib"

// Describe uses the library.
func Describe(ns ...int) (out []string) {
	for _, n := range ns {
		out = append(out, lib.Classify(n))
	}
	return out
}
`

const appTest = `package app

import (
	"testing"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// TestProbes reports, for the instrumented build, how many probes of each
// instrumented package fired.
func TestProbes(t *testing.T) {
	Describe(-1, 0, 3, 12)
	for _, p := range gfzrt.Packages() {
		hit := 0
		for _, b := range p.Blocks {
			if b != 0 {
				hit++
			}
		}
		t.Logf("probes %s %d/%d", p.Path, hit, len(p.Blocks))
	}
}

func TestDescribe(t *testing.T) {
	t.Log(Describe(-1, 0, 3, 12))
	if got := Describe(12)[0]; got != "big even" {
		t.Fatal(got)
	}
}
`

// checkSame runs the app's test plain and instrumented and compares.
func checkSame(t *testing.T, p *Prepared, dir string, extra ...string) {
	t.Helper()
	args := append([]string{"-v", "-run", "TestDescribe"}, extra...)
	args = append(args, "./...")
	plain, err := goTest(t, nil, dir, args...)
	if err != nil {
		t.Fatalf("plain: %v\n%s", err, plain)
	}
	inst, err := goTest(t, p, dir, args...)
	if err != nil {
		t.Fatalf("instrumented: %v\n%s", err, inst)
	}
	if plain != inst || !strings.Contains(inst, "[neg zero pos big even]") {
		t.Errorf("outputs differ:\nplain:\n%s\ninstrumented:\n%s", plain, inst)
	}
	// Every arm of lib.Classify is reached by the test: all 6 probes
	// (function entry, 2 cases, implicit default, both arms of the if)
	// fired, plus the && operand.
	probes, err := goTest(t, p, dir, append(append([]string{"-v", "-run", "TestProbes"}, extra...), ".")...)
	if err != nil {
		t.Fatalf("instrumented TestProbes: %v\n%s", err, probes)
	}
	m := regexp.MustCompile(`probes example.com/lib (\d+)/(\d+)\b`).FindStringSubmatch(probes)
	if m == nil || m[1] != m[2] {
		t.Errorf("not every probe of example.com/lib fired:\n%s", probes)
	}
}

func probesOf(p *Prepared, path string) int {
	for _, ip := range p.Packages {
		if ip.Path == path {
			return ip.Probes
		}
	}
	return 0
}

// TestWorkspace instruments a module of a go.work workspace together with
// the package of the other workspace module that it imports (by default).
func TestWorkspace(t *testing.T) {
	t.Setenv("GOWORK", "") // TestMain turned workspaces off; this test's go.work must be found
	root := t.TempDir()
	gfz := repoRoot(t)
	writeTree(t, root, map[string]string{
		"go.work":             "go 1.26.0\n\nuse (\n\t./app\n\t./lib\n)\n\nreplace github.com/gfz-dev/gfz => " + gfz + "\n",
		"lib/go.mod":          "module example.com/lib\n\ngo 1.26.0\n",
		"lib/lib.go":          libSrc,
		"app/go.mod":          "module example.com/app\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n",
		"app/app.go":          appSrc,
		"app/app_test.go":     appTest,
		"app/internal/doc.go": "// Package internal is empty.\npackage internal\n",
	})
	dir := filepath.Join(root, "app")
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir})
	if probesOf(p, "example.com/app") == 0 || probesOf(p, "example.com/lib") < 5 {
		t.Fatalf("packages %+v", p.Packages)
	}
	checkSame(t, p, dir)
}

// vendoredApp writes the module example.com/app, which requires
// example.com/lib (a local replacement) and gfz, with files more, and
// vendors its dependencies; it returns the module's directory.
func vendoredApp(t *testing.T, more map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"dep/go.mod":      "module example.com/lib\n\ngo 1.26.0\n",
		"dep/lib.go":      libSrc,
		"app/go.mod":      "module example.com/app\n\ngo 1.26.0\n\nrequire (\n\texample.com/lib v0.0.0\n\tgithub.com/gfz-dev/gfz v0.0.0\n)\n\nreplace (\n\texample.com/lib => ../dep\n\tgithub.com/gfz-dev/gfz => " + repoRoot(t) + "\n)\n",
		"app/app.go":      appSrc,
		"app/app_test.go": appTest,
	}
	maps.Copy(files, more)
	writeTree(t, root, files)
	dir := filepath.Join(root, "app")
	cmd := exec.Command("go", "mod", "vendor")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	return dir
}

// TestVendored instruments a vendored dependency (by default) of a module
// built with -mod=vendor.
func TestVendored(t *testing.T) {
	dir := vendoredApp(t, nil)
	if _, err := os.Stat(filepath.Join(dir, "vendor", "example.com", "lib", "lib.go")); err != nil {
		t.Fatalf("not vendored: %v", err)
	}
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir})
	if probesOf(p, "example.com/lib") < 5 {
		t.Fatalf("packages %+v", p.Packages)
	}
	checkSame(t, p, dir, "-mod=vendor")
	// The vendored file itself is untouched.
	b, err := os.ReadFile(filepath.Join(dir, "vendor", "example.com", "lib", "lib.go"))
	if err != nil || string(b) != libSrc {
		t.Errorf("vendored source changed: %v", err)
	}
}

// TestVendoredNative: a module that vendors gfz without generators/formats
// (go mod vendor leaves it out: only the native rewrite imports it) and has
// a native target builds from the module cache (-mod=mod), and its
// dependencies are then loaded from there too: loaded from vendor/ and
// built from the module cache, their instrumented copies were never
// compiled (a binary of thousands of probes with no coverage).
func TestVendoredNative(t *testing.T) {
	dir := vendoredApp(t, map[string]string{
		"app/native_test.go": "package app\n\nimport \"testing\"\n\nfunc FuzzNat(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, n int) { Describe(n, 0, 3, 12) })\n}\n",
	})
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir})
	if !slices.Contains(p.BuildFlags, "-mod=mod") {
		t.Fatalf("build flags %q: want -mod=mod (formats is not vendored)", p.BuildFlags)
	}
	if probesOf(p, "example.com/lib") < 5 {
		t.Fatalf("packages %+v", p.Packages)
	}
	ov, err := os.ReadFile(p.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(ov), filepath.Join(dir, "vendor")) {
		t.Errorf("the overlay replaces files under vendor/, which a -mod=mod build does not read:\n%s", ov)
	}
}

// TestRace builds and runs the fixture's concurrency tests instrumented
// with -race: the probes must not be reported as data races.
func TestRace(t *testing.T) {
	if os.Getenv("CGO_ENABLED") == "0" {
		t.Skip("-race needs cgo")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("-race needs a C toolchain")
	}
	dir := fixtureDir(t)
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir, Race: true})
	inst, err := goTest(t, p, dir, "-v", "-run", "TestBehaviour", ".")
	if err != nil {
		t.Fatalf("instrumented -race: %v\n%s", err, inst)
	}
	if strings.Contains(inst, "DATA RACE") || !strings.Contains(inst, "--- PASS") {
		t.Errorf("instrumented -race output:\n%s", inst)
	}
}

// TestRuntimeUnavailableSaysWhy: when the go command cannot list gfz's
// probe runtime (here a go.mod that requires gfz but needs go mod tidy),
// the error passes on what the go command said.
func TestRuntimeUnavailableSaysWhy(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.21\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + repoRoot(t) + "\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc FuzzN(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte) {})\n}\n",
	})
	_, err := Prepare(context.Background(), Options{Patterns: []string{"./a"}, Dir: root})
	if err == nil || !strings.Contains(err.Error(), "the go command says") || !strings.Contains(err.Error(), "go mod tidy") {
		t.Errorf("error %v; want the go command's message (go mod tidy)", err)
	}
}

// TestOutputTrailingSlash: with one package, -o DIR/ for a directory that
// does not exist yet makes it and puts the binary in it, named after the
// package (it was taken for the binary's own name: go test -c then wrote
// DIR/p.test and gfz-build printed DIR/ as the binary).
func TestOutputTrailingSlash(t *testing.T) {
	prep := &Prepared{TargetOrder: []string{"example.com/m/p"}, Names: map[string]string{"example.com/m/p": "p"}}
	dir := t.TempDir()
	outs, err := outputPaths(dir, "new/", prep)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "new", "p.gfz"); outs["example.com/m/p"] != want {
		t.Errorf("output %q, want %q", outs["example.com/m/p"], want)
	}
	if fi, err := os.Stat(filepath.Join(dir, "new")); err != nil || !fi.IsDir() {
		t.Errorf("the directory was not made: %v", err)
	}
	if outs, _ := outputPaths(dir, "bin.gfz", prep); outs["example.com/m/p"] != filepath.Join(dir, "bin.gfz") {
		t.Errorf("a file name: %q", outs["example.com/m/p"])
	}
}

// TestDeepElseIf: a generated function of 1,500 else-ifs, which the
// compiler builds, is instrumented (go/parser's object resolution, which
// refuses scopes that deep, is off: nothing reads it).
func TestDeepElseIf(t *testing.T) {
	var b strings.Builder
	b.WriteString("// Code generated by a test. DO NOT EDIT.\n\npackage p\n\nfunc Deep(x int) int {\n\tr := 0\n")
	for i := range 1500 {
		if i == 0 {
			b.WriteString("\tif ")
		} else {
			b.WriteString("\t} else if ")
		}
		fmt.Fprintf(&b, "x == %d {\n\t\tr = %d\n", i, i)
	}
	b.WriteString("\t}\n\treturn r\n}\n")
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":      "module example.com/deep\n\ngo 1.22\n",
		"p/p.go":      b.String(),
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzDeep(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, x int) { Deep(x) })\n}\n",
	})
	p := prepare(t, Options{Patterns: []string{"./p"}, Dir: root})
	if n := probesOf(p, "example.com/deep/p"); n < 1500 {
		t.Errorf("%d probes, want one per branch at least", n)
	}
}

// TestVendoredWithoutGfzWarns: a module that vendors its dependencies but
// does not require gfz (native targets only) is built from the module
// cache, which gfz-build now says (an edit made in vendor/ was silently
// not what was fuzzed).
func TestVendoredWithoutGfzWarns(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"dep/go.mod":         "module example.com/lib\n\ngo 1.26.0\n",
		"dep/lib.go":         libSrc,
		"app/go.mod":         "module example.com/app\n\ngo 1.26.0\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../dep\n",
		"app/app.go":         appSrc,
		"app/native_test.go": "package app\n\nimport \"testing\"\n\nfunc FuzzNat(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, n int) { Describe(n, 0, 3, 12) })\n}\n",
	})
	dir := filepath.Join(root, "app")
	cmd := exec.Command("go", "mod", "vendor")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir})
	found := false
	for _, w := range p.Warnings {
		found = found || strings.Contains(w, "not from vendor/")
	}
	if !found {
		t.Errorf("warnings %q: none says vendor/ is not used", p.Warnings)
	}
	// A module that requires gfz and vendors it is built from vendor/:
	// no such warning.
	for _, w := range prepare(t, Options{Patterns: []string{"./..."}, Dir: vendoredApp(t, nil)}).Warnings {
		if strings.Contains(w, "not from vendor/") {
			t.Errorf("vendored gfz: %q", w)
		}
	}
}

// TestVendorWarningWords: the warning says why vendor/ is left: the
// module does not require gfz, or requires another version (it said
// "does not require" of a module that did).
func TestVendorWarningWords(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"go.mod": "module m\n", "vendor/modules.txt": "# none\n"})
	e := &moduleEdit{gomod: filepath.Join(dir, "go.mod"), lib: "/lib"}
	if w := e.vendorWarning(); !strings.Contains(w, "does not require") {
		t.Errorf("no requirement: %q", w)
	}
	e.Note = "the module requires github.com/gfz-dev/gfz v0.1.0; ..."
	if w := e.vendorWarning(); !strings.Contains(w, "requires another version") || strings.Contains(w, "does not require") {
		t.Errorf("another version: %q", w)
	}
	e.lib = ""
	if w := e.vendorWarning(); w != "" {
		t.Errorf("gfz vendored as required: %q", w)
	}
}

// TestWorkspaceMissingModule: a go.work listing a module that is not there
// (a published module's own go.work) is named with the way out (GOWORK=off).
func TestWorkspaceMissingModule(t *testing.T) {
	t.Setenv("GOWORK", "")
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.work":   "go 1.26.0\n\nuse (\n\t.\n\t./cmd/tool\n)\n",
		"go.mod":    "module example.com/w\n\ngo 1.26.0\n",
		"w.go":      "package w\n\nfunc F(b []byte) bool { return len(b) > 3 }\n",
		"w_test.go": "package w\n\nimport \"testing\"\n\nfunc FuzzW(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte) { F(b) })\n}\n",
	})
	_, err := Prepare(context.Background(), Options{Patterns: []string{"."}, Dir: root})
	if err == nil || !strings.Contains(err.Error(), "go.work uses") || !strings.Contains(err.Error(), "GOWORK=off") {
		t.Errorf("got %v, want the workspace named and GOWORK=off", err)
	}
}
