package build

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNativeTargetsNamedFunctions: the argument types of an f.Fuzz whose
// function is not a literal are read from its declaration in the file: a
// local variable, a package-level variable, a helper's function-typed
// parameter, a method value.
func TestNativeTargetsNamedFunctions(t *testing.T) {
	src := `package p

import tt "testing"

type h struct{}

func (h) fuzz(t *tt.T, n int, ok bool) {}

var byVar = func(t *tt.T, s string) {}

var typed func(*tt.T, []byte, uint16)

func FuzzLocal(f *tt.F) {
	fn := func(t *tt.T, b []byte, x float64) {}
	f.Fuzz(fn)
}

func FuzzVarDecl(f *tt.F) {
	var fn func(*tt.T, int8)
	fn = func(t *tt.T, v int8) {}
	f.Fuzz((fn))
}

func FuzzPkgVar(f *tt.F) { f.Fuzz(byVar) }

func FuzzTyped(f *tt.F) { f.Fuzz(typed) }

func FuzzMethod(f *tt.F) {
	var x h
	f.Fuzz(x.fuzz)
}

func FuzzHelper(f *tt.F) { with(f, func(t *tt.T, r rune) {}) }

func with(f *tt.F, fn func(*tt.T, rune)) { f.Fuzz(fn) }
`
	ts, out, err := NativeTargets("p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, nt := range ts {
		got[nt.Name] = nt.Types
	}
	want := map[string]string{
		"FuzzLocal": "[]byte,float64", "FuzzVarDecl": "int8", "FuzzPkgVar": "string",
		"FuzzTyped": "[]byte,uint16", "FuzzMethod": "int,bool",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: types %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if strings.Count(string(out), nativeImport+".FuzzNative(") != 6 {
		t.Errorf("want 6 rewritten f.Fuzz calls:\n%s", out)
	}
	// FuzzHelper's types come through its helper (nativeScan's work).
	dir := t.TempDir()
	name := filepath.Join(dir, "p_test.go")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	scanned, _, err := nativeScan([]string{name})
	if err != nil {
		t.Fatal(err)
	}
	for _, nt := range scanned {
		if nt.Name == "FuzzHelper" && nt.Types != "int32" {
			t.Errorf("FuzzHelper: types %q, want int32", nt.Types)
		}
	}
	if len(scanned) != len(want)+1 {
		t.Errorf("nativeScan found %d targets, want %d", len(scanned), len(want)+1)
	}
}

// TestNativeTargetsAcrossFiles: what a target's file does not declare is
// read from the package's other files, test files or not: the function,
// a method of the package, a type alias, a helper's f.Fuzz through a
// function-typed parameter; declarations of package p do not serve the
// external test package p_test; a name nobody declares, a function of
// another package and methods of one name with different arguments are
// errors naming the target's file and line.
func TestNativeTargetsAcrossFiles(t *testing.T) {
	files := map[string]string{
		"a_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzOther(f *testing.F) { f.Fuzz(fuzzBytes) }\n\nfunc FuzzMethod(f *testing.F) { f.Fuzz(new(harness).run) }\n\nfunc FuzzAlias(f *testing.F) { f.Fuzz(func(t *testing.T, d Doc, n int) {}) }\n\nfunc FuzzNonTest(f *testing.F) { f.Fuzz(InPackage) }\n\nfunc FuzzHelped(f *testing.F) { fuzzWith(f, fuzzBytes) }\n",
		"b_test.go": "package p\n\nimport (\n\tt2 \"testing\"\n)\n\ntype harness struct{}\n\nfunc (*harness) run(t *t2.T, s string, u uint) {}\n\nfunc fuzzBytes(t *t2.T, data []byte) {}\n\nfunc fuzzWith(f *t2.F, fn func(*t2.T, []byte)) { f.Fuzz(fn) }\n",
		"c_test.go": "package p\n\ntype Doc = string\n",
		"p.go":      "package p\n\nimport \"testing\"\n\nfunc InPackage(t *testing.T, b bool) {}\n",
	}
	dir := t.TempDir()
	targets, rewritten, err := nativeScan(writeScanFiles(t, dir, files))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, nt := range targets {
		got[nt.Name] = nt.Types + " in " + filepath.Base(nt.File)
	}
	want := map[string]string{
		"FuzzOther": "[]byte in a_test.go", "FuzzMethod": "string,uint in a_test.go",
		"FuzzAlias": "string,int in a_test.go", "FuzzNonTest": "bool in a_test.go",
		"FuzzHelped": "[]byte in a_test.go",
	}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if len(rewritten) != 2 {
		t.Errorf("%d files rewritten, want a_test.go and b_test.go", len(rewritten))
	}

	for _, c := range []struct {
		name, src, want string
	}{
		{"x_test.go", "package p_test\n\nimport \"testing\"\n\nfunc FuzzX(f *testing.F) { f.Fuzz(fuzzBytes) }\n", "x_test.go:5:35: FuzzX's f.Fuzz: cannot read the argument types of fuzzBytes"},
		{"y_test.go", "package p\n\nimport (\n\t\"testing\"\n\n\t\"example.com/q\"\n)\n\nfunc FuzzY(f *testing.F) {\n\tf.Fuzz(q.Fuzz)\n}\n", "y_test.go:10:9: FuzzY's f.Fuzz: cannot read the argument types of q.Fuzz"},
		{"z_test.go", "package p\n\nimport \"testing\"\n\ntype other struct{}\n\nfunc (other) run(t *testing.T, b []byte) {}\n\nfunc FuzzZ(f *testing.F) { f.Fuzz(other{}.run) }\n", "the package declares several methods"},
		{"w_test.go", "package p\n\nimport \"testing\"\n\nfunc FuzzW(f *testing.F) { f.Fuzz(func(t *testing.T, d Named) {}) }\n", "fuzz argument type Named is not supported"},
	} {
		writeScanFiles(t, dir, map[string]string{c.name: c.src})
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		_, _, err := nativeScan(names)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: nativeScan error %v, want one containing %q", c.name, err, c.want)
		}
		os.Remove(filepath.Join(dir, c.name))
	}
}
