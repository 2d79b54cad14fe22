package build

import (
	"slices"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// harnessModule is a module whose gfz target (package t) draws from a
// shared generator package (gens, which imports gfz and a helper, shape)
// and checks with a package of its own (check, no gfz import); the code
// under test (t, and lib, which imports gfz but is reached from t's own
// code) is instrumented whatever the rule.
func harnessModule(t *testing.T) string {
	dir := t.TempDir()
	testmod.Write(t, dir, map[string]string{
		"go.mod": "module example.com/h\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"t/t.go": "package t\n\nimport \"example.com/h/lib\"\n\nfunc Run(s string) bool {\n\tif lib.Check(s) {\n\t\treturn true\n\t}\n\treturn false\n}\n",
		"t/t_test.go": `package t

import (
	"testing"

	"example.com/h/check"
	"example.com/h/gens"
	"github.com/gfz-dev/gfz"
)

func FuzzRun(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if !check.OK(Run(gens.Word(t))) {
			t.Skip("short")
		}
	})
}
`,
		"lib/lib.go": "package lib\n\nimport \"github.com/gfz-dev/gfz\"\n\nvar _ *gfz.T\n\nfunc Check(s string) bool {\n\tif len(s) > 3 {\n\t\treturn true\n\t}\n\treturn false\n}\n",
		"gens/gens.go": `package gens

import (
	"example.com/h/shape"
	"github.com/gfz-dev/gfz"
)

func Word(t *gfz.T) string {
	if t.Source().Range(0, 9, 0) > 4 {
		return shape.Long()
	}
	return "a"
}
`,
		"shape/shape.go": "package shape\n\nvar n = 4\n\nfunc Long() string {\n\tif n > 2 {\n\t\treturn \"long\"\n\t}\n\treturn \"\"\n}\n",
		"check/check.go": "package check\n\nfunc OK(b bool) bool {\n\tif b {\n\t\treturn true\n\t}\n\treturn false\n}\n",
	})
	return dir
}

// TestHarnessLeftOut: a package that only the tests reach and that imports
// gfz is left uninstrumented by default, as a dependency and as a matched
// package without targets, and listed; -harness instruments it; a package
// reached from the code under test is instrumented even though it imports
// gfz, as are the harness's own dependencies and a test-only package that
// does not import gfz; a generator package with a fuzz target of its own
// is instrumented.
func TestHarnessLeftOut(t *testing.T) {
	dir := harnessModule(t)
	const (
		lib   = "example.com/h/lib"
		gens  = "example.com/h/gens"
		shape = "example.com/h/shape"
		check = "example.com/h/check"
		tp    = "example.com/h/t"
	)
	instrumented := func(p *Prepared) []string {
		var got []string
		for _, ip := range p.Packages {
			got = append(got, ip.Path)
		}
		slices.Sort(got)
		return got
	}
	for _, c := range []struct {
		name        string
		patterns    []string
		harness     bool
		want, local []string
	}{
		{"dependency", []string{"./t"}, false, []string{check, lib, shape, tp}, []string{gens}},
		{"dependency, -harness", []string{"./t"}, true, []string{check, gens, lib, shape, tp}, nil},
		{"matched", []string{"./..."}, false, []string{check, lib, shape, tp}, []string{gens}},
		{"matched, -harness", []string{"./..."}, true, []string{check, gens, lib, shape, tp}, nil},
	} {
		p := prepare(t, Options{Patterns: c.patterns, Dir: dir, Cache: "off", Harness: c.harness})
		if got := instrumented(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: instrumented %v, want %v", c.name, got, c.want)
		}
		if !slices.Equal(p.Harness, c.local) {
			t.Errorf("%s: harness left out %v, want %v", c.name, p.Harness, c.local)
		}
	}
	// A fuzz target of its own makes the generator package a target.
	testmod.Write(t, dir, map[string]string{"gens/gens_test.go": `package gens

import (
	"testing"

	"github.com/gfz-dev/gfz"
)

func FuzzWord(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) { _ = Word(t) })
}
`})
	p := prepare(t, Options{Patterns: []string{"./..."}, Dir: dir, Cache: "off"})
	if got, want := instrumented(p), []string{check, gens, lib, shape, tp}; !slices.Equal(got, want) || len(p.Harness) != 0 {
		t.Errorf("generator package with a target: instrumented %v, harness %v; want %v, none", got, p.Harness, want)
	}
}

func TestHarnessLine(t *testing.T) {
	if got, want := HarnessLine([]string{"example.com/h/gens"}), "not instrumented: the harness package example.com/h/gens: only the fuzz targets' tests use it, and it imports gfz (shared generators, left out like a gfz target's test files); -harness instruments it"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := HarnessLine([]string{"b", "a"}); !strings.Contains(got, "packages a, b: only the fuzz targets' tests use them, and they import gfz") {
		t.Errorf("two packages: %q", got)
	}
}
