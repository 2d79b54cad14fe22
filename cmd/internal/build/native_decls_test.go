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
	scanned, _, _, err := nativeScan([]string{name})
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
	targets, rewritten, _, err := nativeScan(writeScanFiles(t, dir, files))
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
		_, _, _, err := nativeScan(names)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: nativeScan error %v, want one containing %q", c.name, err, c.want)
		}
		os.Remove(filepath.Join(dir, c.name))
	}
}

// TestNativeTargetsScopes: the cases where a syntactic reading of names
// went wrong (found by probing): a range variable or a local of another
// closure of the same name as a package function, a named result, a local
// closure named like a package helper, helpers of the same name in package
// p and p_test, an f.Fuzz of the target's F in a closure of the target, a
// package-qualified function colliding with a method name,
// a method of a generic type sharing a name, a parameter of a named
// function type or of type any, and a second f.Fuzz with other types.
func TestNativeTargetsScopes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_test.go": `package p

import (
	"testing"

	"example.com/q"
)

func fn(t *testing.T, b []byte) {}

type fuzzFunc func(t *testing.T, s string)

type H struct{}

func (H) Check(t *testing.T, b []byte) {}

func (H) fuzz(t *testing.T, s string) {}

type List[T any] struct{}

func (*List[T]) fuzz(t *testing.T, v T) {}

func (*List[T]) gen(t *testing.T, v T) {}

func FuzzOtherClosure(f *testing.F) {
	f.Cleanup(func() { fn := 0; _ = fn })
	f.Fuzz(fn)
}

func withResult(f *testing.F) (fn func(*testing.T, string)) {
	fn = func(t *testing.T, s string) {}
	f.Fuzz(fn)
	return fn
}

func FuzzResult(f *testing.F) { withResult(f) }

func FuzzNamedType(f *testing.F) { withNamed(f, func(t *testing.T, s string) {}) }

func withNamed(f *testing.F, g fuzzFunc) { f.Fuzz(g) }

func FuzzMethodNotGeneric(f *testing.F) { f.Fuzz(H{}.fuzz) }

func FuzzLocalHelper(f *testing.F) {
	with := func(g *testing.F) { g.Fuzz(func(t *testing.T, s string) {}) }
	with(f)
}

func with(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte, n int) {}) }

func FuzzIn(f *testing.F) { with(f) }

func FuzzClosure(f *testing.F) {
	run := func(fn func(*testing.T, uint16)) { f.Fuzz(fn) }
	run(func(t *testing.T, u uint16) {})
}
`,
		"x_test.go": `package p_test

import "testing"

func with(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }

func FuzzEx(f *testing.F) { with(f) }
`,
	}
	targets, _, funcs, err := nativeScan(writeScanFiles(t, dir, files))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, nt := range targets {
		got[nt.Name] = nt.Types
	}
	want := map[string]string{
		"FuzzOtherClosure": "[]byte", "FuzzResult": "string", "FuzzNamedType": "string",
		"FuzzMethodNotGeneric": "string", "FuzzIn": "[]byte,int", "FuzzEx": "string", "FuzzClosure": "uint16",
	}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %v (FuzzLocalHelper is not one: its f.Fuzz is in a closure)", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: types %q, want %q", k, got[k], v)
		}
	}
	var found []string
	for _, nt := range targets {
		found = append(found, nt.Name)
	}
	if w := unbuiltWarning("example.com/p", nativeScanned{fuzzFuncs: funcs}, found); !strings.Contains(w, "FuzzLocalHelper (a_test.go:") || strings.Contains(w, "FuzzIn") {
		t.Errorf("warning %q, want one naming FuzzLocalHelper only", w)
	}

	for name, c := range map[string]struct{ src, want string }{
		"range": {"package r\n\nimport \"testing\"\n\nfunc fn(t *testing.T, b []byte) {}\n\nfunc FuzzR(f *testing.F) {\n\tfor _, fn := range []func(*testing.T, string){nil} {\n\t\tf.Fuzz(fn)\n\t}\n}\n",
			"fn is a local or parameter whose function type gfz-build cannot read"},
		"any": {"package r\n\nimport \"testing\"\n\nfunc FuzzR(f *testing.F) { with(f, nil) }\n\nfunc with(f *testing.F, fn any) { f.Fuzz(fn) }\n",
			"fn has type any, which is not a function type gfz-build can read"},
		"qualified": {"package r\n\nimport (\n\t\"testing\"\n\n\t\"example.com/q\"\n)\n\ntype H struct{}\n\nfunc (H) Check(t *testing.T, b []byte) {}\n\nfunc FuzzR(f *testing.F) { f.Fuzz(q.Check) }\n",
			"r_test.go:13:35: FuzzR's f.Fuzz: cannot read the argument types of q.Check, a function of another package"},
		"generic": {"package r\n\nimport \"testing\"\n\ntype L[T any] struct{}\n\nfunc (*L[T]) gen(t *testing.T, v T) {}\n\nfunc FuzzR(f *testing.F) { var l L[string]; f.Fuzz(l.gen) }\n",
			"l.gen is a method of a generic type"},
		"twice": {"package r\n\nimport \"testing\"\n\nfunc FuzzR(f *testing.F) {\n\tif testing.Short() {\n\t\tf.Fuzz(func(t *testing.T, b []byte) {})\n\t\treturn\n\t}\n\tf.Fuzz(func(t *testing.T, s string) {})\n}\n",
			"FuzzR calls f.Fuzz again with other argument types ([]byte, then string)"},
	} {
		d := t.TempDir()
		_, _, _, err := nativeScan(writeScanFiles(t, d, map[string]string{"r_test.go": c.src}))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
}
