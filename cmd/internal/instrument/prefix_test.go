package instrument_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
)

// runtimeStub declares what the added files call in gfz's probe runtime.
const runtimeStub = `package runtime

var CmpOn bool

func Hit(id uint32, b *uint8)                      {}
func HitE(id uint32, b *uint8) bool                { return true }
func Register(path string, b []uint8, t string)    {}
func RegisterCmp(n int)                            {}
func CmpInt(id uint32, w uint8, a, b uint64)       {}
func CmpStr(id uint32, a, b string)                {}
`

const prefixOwn = `package p

func Own(x int, s string) int {
	if x > 3 && s == "own" {
		return 1
	}
	switch s {
	case "a", "b":
		return 2
	}
	return 0
}
`

const prefixTest = `package p

func helper(x int, s string) int {
	if x < 7 || s != "test" {
		return Own(x, s)
	}
	switch x {
	case 1, 2:
		return 3
	}
	return 4
}
`

// TestPrefixKeepsTestFilesApart: a package's own files and its in-package
// test files, instrumented apart (the test files with TestPrefix, both
// with comparison probes), type-check together with both added files:
// no helper name collides, and each file calls only its own helpers,
// whose ID slots the template finds.
func TestPrefixKeepsTestFilesApart(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	own, test := parse("/src/p/p.go", prefixOwn), parse("/src/p/p_test.go", prefixTest)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{own, test}, info); err != nil {
		t.Fatal(err)
	}
	render := func(f *ast.File, prefix string) (string, string) {
		p := instrument.NewPackage("example.com/p", "p", false, fset, info)
		p.Cmp, p.Prefix = true, prefix
		if err := p.AddFile(f); err != nil {
			t.Fatal(err)
		}
		tmpl, err := p.Template()
		if err != nil {
			t.Fatal(err)
		}
		if tmpl.Prefix != prefix || len(tmpl.Files[0].IDs) != len(tmpl.Probes) || len(tmpl.Probes) == 0 || len(tmpl.CmpSites) == 0 {
			t.Fatalf("prefix %q: template prefix %q, %d slots for %d probes, %d comparison sites", prefix, tmpl.Prefix, len(tmpl.Files[0].IDs), len(tmpl.Probes), len(tmpl.CmpSites))
		}
		return string(tmpl.Render(16)[0].Src), string(tmpl.RegistrationSource(16))
	}
	ownSrc, ownReg := render(own, "")
	testSrc, testReg := render(test, instrument.TestPrefix)
	for _, c := range []struct {
		src        string
		want, none []string
	}{
		{ownSrc, []string{"_gfzHit(", "_gfzHitE(", "&_gfzBlocks[", "_gfzCmpGtI(", "_gfzI64(", "_gfzCmpOn()"}, []string{"_gfzT"}},
		{testSrc, []string{"_gfzTHit(", "_gfzTHitE(", "&_gfzTBlocks[", "_gfzTCmpLtI(", "_gfzTI64(", "_gfzTCmpOn()"}, []string{"_gfzHit(", "_gfzBlocks[", "_gfzCmp", "_gfzI64("}},
		{testReg, []string{"var _gfzTBlocks [", "func _gfzTHit(", "func _gfzTHitE(", "type _gfzTI64 int64", "func _gfzTCmpEqS("}, []string{"_gfzBlocks", "func _gfzHit"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.src, w) {
				t.Errorf("lacks %q:\n%s", w, c.src)
			}
		}
		for _, n := range c.none {
			if strings.Contains(c.src, n) {
				t.Errorf("has %q:\n%s", n, c.src)
			}
		}
	}

	// All four files type-check as one package.
	rfset := token.NewFileSet()
	stub, err := parser.ParseFile(rfset, "runtime.go", runtimeStub, 0)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := (&types.Config{}).Check(instrument.RuntimePath, rfset, []*ast.File{stub}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for name, src := range map[string]string{"p.go": ownSrc, "zz.go": ownReg, "p_test.go": testSrc, "zz_test.go": testReg} {
		files = append(files, parse(name, src))
	}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == instrument.RuntimePath {
			return rt, nil
		}
		return importer.Default().Import(path)
	})
	if _, err := (&types.Config{Importer: imp}).Check("example.com/p", fset, files, nil); err != nil {
		t.Errorf("the instrumented package does not type-check: %v", err)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
