// Package testmod writes small Go modules for the tests of gfz's commands.
package testmod

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// GfzRoot returns the directory of the gfz module, two levels above this
// package.
func GfzRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testmod: cannot locate the gfz module")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Write writes files (path relative to dir -> content) under dir. gfz's
// library needs only the standard library, so a module that requires gfz
// through a replace needs no other requirement and no go.sum line for it.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BrokenModule writes, in a new temporary directory, the module
// example.com/m requiring gfz (replaced by this checkout) with two
// packages that each have a gfz fuzz target FuzzF: good, which builds, and
// bad, which does not compile. It returns the module's directory.
func BrokenModule(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	test := func(pkg string) string {
		return "package " + pkg + "\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n)\n\nfunc FuzzF(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { F(int(t.Source().Range(0, 9, 0))) })\n}\n"
	}
	Write(t, dir, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + GfzRoot(t) + "\n",
		"good/good.go":      "package good\n\nfunc F(n int) int {\n\tif n > 3 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n",
		"good/good_test.go": test("good"),
		"bad/bad.go":        "package bad\n\nfunc F(n int) int { return undefinedThing }\n",
		"bad/bad_test.go":   test("bad"),
	})
	return dir
}
