package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/dave/dst/decorator"
)

// templateSrc has probes whose width could move other text if IDs were
// printed at their own width: && operands in package-level var specs with
// aligned trailing comments, and a probe call on a line with a line
// directive after it.
const templateSrc = `package p

var (
	a  = f() && g()  // one
	bb = g() || f()   // two
	c = 1 // three
)

func f() bool { return a || bb }

func g() bool {
	if c > 0 && f() { return true } ; return false
}

func h(x int) int {
	switch {
	case x > 10 && x < 20:
		return 1
	}
	for i := 0; i < x; i++ {
		if i == 3 || i == 5 {
			break
		}
	}
	return 0
}
`

// TestTemplateFillsLikePrinting: filling a template's IDs in for a map
// size gives, byte for byte, what printing the rewritten files with the
// IDs masked to that size gives, for every map size; and a template names
// every probe call once.
func TestTemplateFillsLikePrinting(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/m/p/p.go", templateSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPackage("example.com/p", "p", false, fset, nil)
	if err := p.AddFile(f); err != nil {
		t.Fatal(err)
	}
	tmpl, err := p.Template()
	if err != nil {
		t.Fatal(err)
	}
	if err := tmpl.Check(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(tmpl.Files[0].IDs), len(p.Probes); got != want {
		t.Fatalf("template has %d ID slots, package %d probes", got, want)
	}
	for _, bits := range []int{8, 10, 13, 16, 17, 28} {
		mask := uint32(1)<<bits - 1
		fl := p.files[0]
		for _, l := range fl.ids {
			l.lit.Value = fmt.Sprintf("0x%0*x", IDDigits, p.Probes[l.probe].ID&mask)
		}
		var buf bytes.Buffer
		if err := decorator.NewRestorer().Fprint(&buf, fl.dst); err != nil {
			t.Fatal(err)
		}
		want, err := finishPrint(buf.Bytes(), fl.directives, fl.after, p.Prefix)
		if err != nil {
			t.Fatal(err)
		}
		got := tmpl.Render(bits)[0].Src
		if !bytes.Equal(got, want) {
			t.Errorf("bits %d: filled template differs from the printed file:\n%s\nwant:\n%s", bits, got, want)
		}
	}
}

// TestTemplateCheck: a damaged template (a slot outside its file, or on
// text that is not a hex literal, or naming no probe) is refused.
func TestTemplateCheck(t *testing.T) {
	src := []byte("_gfzHit(0x00000000, &_gfzBlocks[0x000000])")
	good := Template{Path: "p", Probes: make([]Probe, 1), Files: []TemplateFile{{Name: "f.go", Src: src, IDs: []IDSlot{{Offset: 10, Block: 34, Probe: 0}}}}}
	if err := good.Check(); err != nil {
		t.Fatalf("good template refused: %v", err)
	}
	for name, slot := range map[string]IDSlot{
		"ID past the end":       {Offset: 40, Block: 34, Probe: 0},
		"ID not a literal":      {Offset: 12, Block: 34, Probe: 0},
		"block past the end":    {Offset: 10, Block: 40, Probe: 0},
		"block not a literal":   {Offset: 10, Block: 30, Probe: 0},
		"no such probe":         {Offset: 10, Block: 34, Probe: 1},
		"negative probe number": {Offset: 10, Block: 34, Probe: -1},
	} {
		bad := good
		bad.Files = []TemplateFile{{Name: "f.go", Src: src, IDs: []IDSlot{slot}}}
		if bad.Check() == nil {
			t.Errorf("%s: damaged template accepted", name)
		}
	}
}

// TestJoinFiles: the templates of a package's files, instrumented one by
// one and joined, render to what the package instrumented whole renders,
// and register the same probe table and comparison sites.
func TestJoinFiles(t *testing.T) {
	files := map[string]string{
		"/m/p/a.go": "package p\n\nfunc A(x int) int {\n\tif x > 1 && x < 9 {\n\t\treturn B(x)\n\t}\n\treturn 0\n}\n",
		"/m/p/b.go": "package p\n\nfunc B(x int) int {\n\tswitch {\n\tcase x == 3:\n\t\treturn 1\n\t}\n\tfor i := 0; i < x; i++ {\n\t\tx--\n\t}\n\treturn x\n}\n",
		"/m/p/c.go": "package p\n\nvar s = \"c\"\n\nfunc C(v string) bool { return v == s || v == \"x\" }\n",
	}
	names := []string{"/m/p/a.go", "/m/p/b.go", "/m/p/c.go"}
	for _, cmp := range []bool{false, true} {
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, n := range names {
			f, err := parser.ParseFile(fset, n, files[n], parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, f)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
		if _, err := (&types.Config{}).Check("example.com/p", fset, parsed, info); err != nil {
			t.Fatal(err)
		}
		// Instrumenting consumes the syntax: parse again for the second way.
		whole := NewPackage("example.com/p", "p", false, fset, info)
		whole.Cmp = cmp
		var parts []*Template
		for _, f := range parsed {
			one := NewPackage("example.com/p", "p", false, fset, info)
			one.Cmp = cmp
			if err := one.AddFile(f); err != nil {
				t.Fatal(err)
			}
			part, err := one.Template()
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, part)
			if err := whole.AddFile(f); err != nil {
				t.Fatal(err)
			}
		}
		joined := Join("example.com/p", "p", false, parts)
		wt, err := whole.Template()
		if err != nil {
			t.Fatal(err)
		}
		if err := joined.Check(); err != nil {
			t.Fatal(err)
		}
		for _, bits := range []int{10, 16} {
			a, b := joined.Render(bits), wt.Render(bits)
			if len(a) != len(b) {
				t.Fatalf("%d files joined, %d whole", len(a), len(b))
			}
			for i := range a {
				if a[i].Name != b[i].Name || !bytes.Equal(a[i].Src, b[i].Src) {
					t.Errorf("cmp %t, bits %d: %s differs:\njoined:\n%s\nwhole:\n%s", cmp, bits, a[i].Name, a[i].Src, b[i].Src)
				}
			}
			if ra, rb := joined.RegistrationSource(bits), wt.RegistrationSource(bits); !bytes.Equal(ra, rb) {
				t.Errorf("cmp %t, bits %d: registration differs:\n%s\n%s", cmp, bits, ra, rb)
			}
		}
		if cmp && len(joined.CmpSites) == 0 {
			t.Error("no comparison sites")
		}
	}
}
