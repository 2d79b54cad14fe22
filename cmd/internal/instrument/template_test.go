package instrument

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
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
		want, err := placeDirectives(buf.Bytes(), fl.directives, fl.after)
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
// text that is not an ID literal, or naming no probe) is refused.
func TestTemplateCheck(t *testing.T) {
	good := Template{Path: "p", Probes: make([]Probe, 1), Files: []TemplateFile{{Name: "f.go", Src: []byte("_gfzHit(0x00000000, &_gfzBlocks[0])"), IDs: []IDSlot{{Offset: 10, Probe: 0}}}}}
	if err := good.Check(); err != nil {
		t.Fatalf("good template refused: %v", err)
	}
	for name, slot := range map[string]IDSlot{"past the end": {Offset: 30, Probe: 0}, "not a literal": {Offset: 12, Probe: 0}, "no such probe": {Offset: 10, Probe: 1}} {
		bad := good
		bad.Files = []TemplateFile{{Name: "f.go", Src: good.Files[0].Src, IDs: []IDSlot{slot}}}
		if bad.Check() == nil {
			t.Errorf("%s: damaged template accepted", name)
		}
	}
}
