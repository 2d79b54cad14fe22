package xmlcatalog

import (
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/param"
)

// document knows XML syntax and the schema's root and vocabulary (as Zest's
// generator drew tag names from the program's literals; under gfz-build the
// package's literals are also in gen.Dictionary(), which goxml uses), not
// the schema's structure.
var document = goxml.Document(goxml.Config{
	Root: "catalog", MaxDepth: 3, MaxChildren: 4, MaxAttrs: 2,
	Names:  []string{"catalog", "book", "title", "author", "year", "price"},
	Attrs:  []string{"version", "id", "lang", "currency"},
	Values: []string{"1", "2", "b1", "b2", "en", "de", "EUR", "USD", "1999", "2024", "12.50", "Go"},
})

func FuzzCatalog(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		c, stage, err := Load(document.Draw(t))
		if stage != Valid {
			t.Skip(err)
		}
		if err := RoundTrip(c); err != nil {
			t.Fatal(err)
		}
	})
}

func TestLoad(t *testing.T) {
	good := `<catalog version="2"><book id="b1" lang="en"><title>Go</title><author>A</author><author>B</author><year>2015</year><price currency="EUR">12.50</price></book></catalog>`
	c, stage, err := Load(good)
	if stage != Valid || err != nil || len(c.Books[0].Authors) != 2 {
		t.Fatalf("Load = %+v, %v, %v", c, stage, err)
	}
	if err := RoundTrip(c); err != nil {
		t.Error(err)
	}
	for doc, want := range map[string]Stage{
		`<catalog version="2"><book>`:     SyntaxError,
		`<catalog version="3"></catalog>`: SchemaError,
		`<catalog version="1"><book id="x"><title>t</title><author>a</author><year>99</year></book></catalog>`: SchemaError,
	} {
		if _, got, _ := Load(doc); got != want {
			t.Errorf("Load(%q) stage %d, want %d", doc, got, want)
		}
	}
}

// TestGeneratedStages draws documents from a fixed PRNG stream: all are
// well-formed, so none fails the syntax stage.
func TestGeneratedStages(t *testing.T) {
	counts := map[Stage]int{}
	for i := range 500 {
		doc := document.Draw(gfz.NewT(param.New(nil, uint64(i)+1)))
		c, stage, err := Load(doc)
		counts[stage]++
		if stage == SyntaxError {
			t.Fatalf("well-formed document rejected: %v\n%s", err, doc)
		}
		if stage == Valid {
			if err := RoundTrip(c); err != nil {
				t.Errorf("%v\n%s", err, doc)
			}
		}
	}
	t.Logf("500 documents: %d syntax errors, %d schema errors, %d valid", counts[SyntaxError], counts[SchemaError], counts[Valid])
}
