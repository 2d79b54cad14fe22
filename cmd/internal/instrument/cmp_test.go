package instrument_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
)

// cmpSrc exercises every kind of comparison the cmp probes handle and
// those they must leave alone; main prints every result, and the operands
// have side effects (calls counted in n), so the instrumented program
// must print exactly what the plain one prints.
const cmpSrc = `package main

import (
	"fmt"
	"os"
)

type Code uint16
type Name string
type Flag bool

var n int

func next(v int) int { n++; return v + n }
func str(s string) string { n++; return s + fmt.Sprint(n) }

func Max[T int | string](a, b T) T {
	if a > b { // type parameter: untouched
		return a
	}
	return b
}

func classify(c Code) string {
	switch c {
	case 200, 201:
		return "ok"
	case 404:
		return "missing"
	}
	return "other"
}

func keyword(s string) int {
	switch t := s + "!"; t {
	case "frobnicate!":
		return 1
	case "quit!", str("x"):
		return 2
	default:
		return 3
	}
}

func main() {
	var x int32 = -5
	var u uint8 = 200
	f := 1.5
	p, q := &x, &x
	fmt.Println(next(1) == next(0), n)          // operands evaluated once, in order
	fmt.Println(x < -4, x >= -5, u > 100, u != 200, 7 <= int64(x))
	fmt.Println(Code(u) == 404, Name(str("a")) < Name("b"), str("a") == "a4")
	fmt.Println(n > 0 && next(0) == 5, n, n < 0 || str("") != "", n)
	var fl Flag = x == -5 // named boolean result: untouched
	fmt.Println(fl, f < 2.0, p == q, Max(3, 4), Max("a", "b"))
	const c = 3 < 4 // constant: untouched
	fmt.Println(c, classify(200), classify(404), classify(7), keyword("frobnicate"), keyword("quit"), keyword("frob"))
	report()
	os.Exit(0)
}
`

// rewriteCmp instruments src (as package main, in the std scheme so that
// it builds without gfz's runtime) with comparison probes.
func rewriteCmp(t *testing.T, src string) (*instrument.Package, string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/src/m/main.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default(), Error: func(error) {}}).Check("m", fset, []*ast.File{f}, info); err != nil && !strings.Contains(err.Error(), "report") {
		t.Fatal(err)
	}
	p := instrument.NewPackage("m", "main", true, fset, info)
	p.Cmp = true
	if err := p.AddFile(f); err != nil {
		t.Fatal(err)
	}
	out, err := p.Render(16)
	if err != nil {
		t.Fatal(err)
	}
	return p, string(out[0].Src)
}

func TestCmpRewrite(t *testing.T) {
	p, out := rewriteCmp(t, cmpSrc)
	for _, s := range []string{
		"_gfzCmpEqI(", "_gfzI64(next(1)), _gfzI64(next(0)))", // both operands, once each
		"_gfzCmpLtI(", ", 32, _gfzI64(x), _gfzI64(-4))", // width of int32
		"_gfzCmpGtU(", ", 8, _gfzU64(u), _gfzU64(100))",
		"_gfzCmpEqU(", ", 16, _gfzU64(Code(u)), _gfzU64(404))", // named type
		"_gfzCmpLtS(", "_gfzStr(Name(str(\"a\"))), _gfzStr(Name(\"b\")))",
		"_gfzCmpEqS(", "_gfzStr(str(\"a\")), _gfzStr(\"a4\"))",
		"_gfzI64(n), _gfzI64(0)) && (_gfzHitE(", // cond probe after the rewritten comparison
		"if a > b {",                            // type parameter
		"var fl Flag = x == -5",
		"f < 2.0", "p == q",
		"const c = 3 < 4",
		":= c",                           // switch tag into a temporary
		"_gfzU64(200))", "_gfzU64(404))", // case values
		"_gfzStr(\"frobnicate!\"))",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	// 13 comparisons (x == -5 into a named bool is left alone), 3 int
	// cases and 2 constant string cases (str("x") is not constant).
	if len(p.CmpSites) != 18 {
		t.Errorf("%d comparison sites, want 18:\n%+v", len(p.CmpSites), p.CmpSites)
	}
	if strings.Contains(out, "str(\"x\"))") && strings.Count(out, "str(\"x\")") != 1 {
		t.Errorf("non-constant case value duplicated:\n%s", out)
	}
}

// TestCmpSemantics builds the program plain and instrumented (comparison
// probes on) and compares their output: side effects, evaluation order,
// short circuits and switch results are unchanged. The instrumented
// build also reports what the probes recorded.
func TestCmpSemantics(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	p, out := rewriteCmp(t, cmpSrc)
	run := func(name string, files map[string]string) string {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		files["go.mod"] = "module m\n\ngo 1.24\n"
		for n, s := range files {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("go", "run", ".")
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		return string(b)
	}
	plain := run("plain", map[string]string{"main.go": cmpSrc, "report.go": "package main\n\nfunc report() {}\n"})
	inst := run("inst", map[string]string{
		"main.go": out, "zz.go": string(p.RegistrationSource(16)),
		"report.go": `package main

import "fmt"

func init() { _gfzCmpOnVar = true }

func report() {
	sites, best := 0, uint8(0)
	for _, s := range _gfzCmpMap {
		if s > 0 {
			sites++
			best = max(best, s)
		}
	}
	fmt.Printf("REPORT sites=%d best=%d ints=%d strs=%d registered=%d\n", sites, best, _gfzCmpIntN, _gfzCmpStrN, _gfzCmpSites)
	for _, e := range _gfzCmpStrs[:_gfzCmpStrN] {
		if string(e.B[:e.LenB]) == "frobnicate!" {
			fmt.Printf("KW %q\n", e.A[:e.LenA])
		}
	}
}
`})
	i := strings.Index(inst, "REPORT")
	if i < 0 {
		t.Fatalf("no report:\n%s", inst)
	}
	if inst[:i] != plain {
		t.Errorf("instrumented output differs:\n%s\nplain:\n%s", inst[:i], plain)
	}
	// Every site recorded; an exact match of 64-bit or 11-byte operands
	// scores 65 or 12; the keyword comparison recorded its operands.
	for _, s := range []string{"sites=18 ", "best=65 ", "registered=18", `KW "frobnicate!"`} {
		if !strings.Contains(inst[i:], s) {
			t.Errorf("report lacks %q:\n%s", s, inst[i:])
		}
	}
}

// mixedSrc compares integers and strings with interfaces holding them:
// legal Go (the concrete operand is converted to the interface type), as
// in gojq v0.12.20's compiler_test.go (`got, expected := *(*any)(p), 13;
// expected != got`), in either order. Only the last comparison (two ints)
// may be probed: converting an interface operand to the integer or string
// helper type does not compile.
const mixedSrc = `package main

import "fmt"

type Code uint16

type Named interface{ Name() string }

func main() {
	var got any = 13
	expected := 13
	var c Code = 7
	var n Named
	s := "x"
	fmt.Println(expected != got, got == expected, c == any(c), s == got, any(s) != s, n == nil, expected < 14)
}
`

// TestCmpMixedInterfaceOperand: a comparison of a concrete integer or
// string with an interface is left alone, and the instrumented file
// type-checks (before the fix, the interface operand was converted to
// _gfzI64 or _gfzStr: "cannot convert got (variable of interface type
// any) to type _gfzI64: need type assertion").
func TestCmpMixedInterfaceOperand(t *testing.T) {
	p, out := rewriteCmp(t, mixedSrc)
	typeCheckRewritten(t, p, out)
	if len(p.CmpSites) != 1 || !strings.Contains(out, "_gfzCmpLtI(") {
		t.Errorf("%d comparison sites, want 1 (expected < 14):\n%+v\n%s", len(p.CmpSites), p.CmpSites, out)
	}
}

// shiftSrc compares typed operands with non-constant shifts of constants,
// whose type comes from the other operand: x == 1<<s with x a uint8 is
// true for s = 8 (1<<8 is 0 in uint8). Converted to the helper's uint64,
// the shift would give 256 and the comparison false: such comparisons are
// left alone; the plain one (x == y) is probed.
const shiftSrc = `package main

import "fmt"

func main() {
	var x uint8
	var y int8
	s := uint(8)
	fmt.Println(x == 1<<s, y < 1<<(s-1), x == (1<<s)+0, x == y2(y))
}

func y2(y int8) uint8 { return uint8(y) }
`

// TestCmpConstShift: a comparison with a non-constant shift of a constant
// is left alone (it used to become x == 256 in uint64: a false failure in a
// fuzz binary); the rewritten file type-checks.
func TestCmpConstShift(t *testing.T) {
	p, out := rewriteCmp(t, shiftSrc)
	if len(p.CmpSites) != 1 || strings.Contains(out, "1<<s") && strings.Contains(out, "_gfzU64(1<<s)") {
		t.Errorf("%d comparison sites, want 1 (x == y2(y)):\n%+v\n%s", len(p.CmpSites), p.CmpSites, out)
	}
	for _, s := range []string{"x == 1<<s", "y < 1<<(s-1)", "x == (1<<s)+0"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q (left alone):\n%s", s, out)
		}
	}
}

// constLenSrc has comparisons and && inside len of array literals used as
// array lengths, which must stay constant expressions.
const constLenSrc = `package main

import "fmt"

var v, w = 1, 2
var x, y = true, false

func main() {
	var a [len([2]bool{v == 1, true})]int
	var b [len([1]bool{x && y})]int
	fmt.Println(len(a), len(b), v == w)
}
`

// TestConstLenLeftAlone: no probe goes into a constant len or cap call
// (a call there makes the array length non-constant: "array length
// len([2]bool{...}) must be constant"); the comparison outside is probed,
// and the rewritten file type-checks.
func TestConstLenLeftAlone(t *testing.T) {
	p, out := rewriteCmp(t, constLenSrc)
	typeCheckRewritten(t, p, out)
	if len(p.CmpSites) != 1 {
		t.Errorf("%d comparison sites, want 1 (v == w):\n%s", len(p.CmpSites), out)
	}
}

// typeCheckRewritten type-checks the rewritten file out with its
// package's registration source.
func typeCheckRewritten(t *testing.T, p *instrument.Package, out string) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for name, src := range map[string]string{"main.go": out, "zz.go": string(p.RegistrationSource(16))} {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		files = append(files, f)
	}
	var errs []string
	conf := types.Config{Importer: importer.Default(), Error: func(err error) { errs = append(errs, err.Error()) }}
	conf.Check("m", fset, files, nil)
	if len(errs) > 0 {
		t.Errorf("the instrumented file does not type-check:\n%s\n%s", strings.Join(errs, "\n"), out)
	}
}

// TestCmpOldLanguageVersion: the comparison probes' file declares no type
// alias, which a package of a module saying go 1.8 or older may not (a
// dependency of google.golang.org/protobuf, github.com/google/go-cmp
// v0.5.5, stopped every native target's build that reached it).
func TestCmpOldLanguageVersion(t *testing.T) {
	const src = "package main\n\nfunc less(a, b int32) bool { return a < b }\n\nfunc same(a, b string) bool { return a == b }\n\nfunc main() { println(less(1, 2), same(\"a\", \"b\")) }\n\nfunc report() {}\n"
	p, out := rewriteCmp(t, src)
	fset := token.NewFileSet()
	var files []*ast.File
	for name, s := range map[string]string{"main.go": out, "zz.go": string(p.RegistrationSource(16))} {
		f, err := parser.ParseFile(fset, name, s, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var errs []string
	conf := types.Config{GoVersion: "go1.8", Importer: importer.Default(), Error: func(err error) { errs = append(errs, err.Error()) }}
	conf.Check("m", fset, files, nil)
	for _, e := range errs {
		if strings.Contains(e, "alias") || strings.Contains(e, "requires go1") {
			t.Errorf("at go 1.8: %s", e)
		}
	}
}
