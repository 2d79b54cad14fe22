// Package testmod writes small Go modules for the tests of gfz's commands.
package testmod

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// GoSum returns gfz's own go.sum. A module that requires gfz through a
// replace needs the checksums of the modules gfz's packages import
// (golang.org/x/term, for the fuzz binary's status screen), as go get
// would have recorded them.
func GoSum(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(GfzRoot(t), "go.sum"))
	if err != nil {
		t.Fatalf("testmod: %v", err)
	}
	return string(b)
}

// Requires returns the require block a module requiring gfz needs besides
// gfz itself: the modules providing packages that gfz's packages import
// (golang.org/x/term and golang.org/x/sys, for the status screen), at the
// versions gfz's go.mod requires, as go get would add them.
func Requires(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(GfzRoot(t), "go.mod"))
	if err != nil {
		t.Fatalf("testmod: %v", err)
	}
	var req []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "golang.org/x/term" || f[0] == "golang.org/x/sys") {
			req = append(req, "\t"+f[0]+" "+f[1]+" // indirect\n")
		}
	}
	if len(req) == 0 {
		return ""
	}
	return "\nrequire (\n" + strings.Join(req, "") + ")\n"
}

// Write writes files (path relative to dir -> content) under dir. A
// go.mod (or go.work) that replaces gfz gets gfz's go.sum next to it (as
// go.sum, or go.work.sum) unless files has one (GoSum), and a go.mod the
// requirements of Requires, as go get github.com/gfz-dev/gfz would write.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		base := filepath.Base(name)
		if base != "go.mod" && base != "go.work" || !strings.Contains(src, "github.com/gfz-dev/gfz") {
			continue
		}
		sum := filepath.Join(filepath.Dir(name), strings.TrimSuffix(base, ".mod")+".sum") // go.sum, go.work.sum
		if base == "go.mod" {
			sum = filepath.Join(filepath.Dir(name), "go.sum")
		}
		if _, ok := files[sum]; !ok {
			files[sum] = GoSum(t)
		}
		if base == "go.mod" && !strings.Contains(src, "golang.org/x/term") {
			files[name] = src + Requires(t)
		}
	}
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

// Version returns the version of module that gfz's go.mod requires ("" if
// it requires none).
func Version(t testing.TB, module string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(GfzRoot(t), "go.mod"))
	if err != nil {
		t.Fatalf("testmod: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == module {
			return f[1]
		}
	}
	return ""
}
