package xmlcatalog

import (
	"encoding/xml"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/param"
)

// The documents come from two generators, chosen by one structure byte:
//
//   - syntax: goxml knows XML syntax and the schema's root and vocabulary
//     (as Zest's generator drew tag names from the program's literals;
//     under gfz-build the package's literals are also in gen.Dictionary(),
//     which goxml uses), not the schema's structure;
//   - typed: gen.Of[Catalog] derives a generator from the model's Go type,
//     with field overrides drawing from small value pools (some invalid),
//     printed by xml.Marshal.
var syntaxDoc = goxml.Document(goxml.Config{
	Root: "catalog", MaxDepth: 3, MaxChildren: 4, MaxAttrs: 2,
	Names:  []string{"catalog", "book", "title", "author", "year", "price"},
	Attrs:  []string{"version", "id", "lang", "currency"},
	Values: []string{"1", "2", "b1", "b2", "en", "de", "EUR", "USD", "1999", "2024", "12.50", "Go"},
})

var (
	price = gen.Of[Price](
		gen.WithField[Price]("Currency", gen.Tokens("EUR", "USD", "JPY")),
		gen.WithField[Price]("Amount", gen.Tokens("12.50", "0", " 3 ", "7", "-1")),
	)
	book = gen.Of[Book](
		gen.WithField[Book]("ID", gen.Tokens("b1", "b2", "b3", "b4", "")),
		gen.WithField[Book]("Lang", gen.Tokens("", "en", "de", "xx")),
		gen.WithField[Book]("Title", gen.Tokens("Go", "XML & you", "Dune", " ")),
		gen.WithField[Book]("Authors", gen.SliceOf(gen.Tokens("Ada", "Bob", "Cy", ""), 0, 2)),
		gen.WithField[Book]("Year", gen.IntegersRange(1400, 2200)),
		gen.WithField[Book]("Price", gen.Ptr(price)),
	)
	catalog = gen.Of[Catalog](
		gen.WithField[Catalog]("XMLName", gen.Just(xml.Name{})),
		gen.WithField[Catalog]("Version", gen.Tokens("1", "2", "3")),
		gen.WithField[Catalog]("Books", gen.SliceOf(book, 0, 3)),
	)
	typedDoc = gen.Map(catalog, func(c Catalog) string {
		b, err := xml.Marshal(c)
		if err != nil {
			panic(err)
		}
		return string(b)
	})
	document = gen.OneOf(syntaxDoc, typedDoc).Named("document")
)

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
