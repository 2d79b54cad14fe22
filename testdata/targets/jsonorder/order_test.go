package jsonorder

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/param"
)

// The documents come from two generators, chosen by one structure byte:
//
//   - syntax: gojson knows JSON syntax and the field names, not the
//     structure, so it exercises the decoder's error paths;
//   - typed: gen.Of[Order] derives a generator from the Go type, with
//     field overrides that draw from small value pools (some of them
//     invalid), and json.Marshal prints it, so the decoder sees well-typed
//     documents and the semantic stage decides.
var (
	syntaxDoc = gojson.Object(gojson.Config{
		MaxDepth: 4, MaxItems: 4,
		Keys:   []string{"id", "customer", "name", "email", "items", "sku", "quantity", "price", "currency", "notes", "labels"},
		Values: []string{"o-1", "Ada", "ada@example.com", "EUR", "USD", "A-100"},
	})
	item = gen.Of[Item](
		gen.WithField[Item]("SKU", gen.Tokens("A-100", "B-7", "C-3", "")),
		gen.WithField[Item]("Quantity", gen.IntegersRange(-1, 5)),
		gen.WithField[Item]("Price", gen.FloatRange(-1.0, 1000.0)),
	)
	order = gen.Of[Order](
		gen.WithField[Order]("ID", gen.Tokens("o-1", "o-2", "o-3", "")),
		gen.WithField[Order]("Currency", gen.Tokens("EUR", "USD", "GBP")),
		gen.WithField[Order]("Items", gen.SliceOf(item, 0, 3)),
		gen.WithField[Customer]("Name", gen.Tokens("Ada", "Bob", "Cy", "")),
		gen.WithField[Customer]("Email", gen.Tokens("ada@example.com", "bob@b.org", "c@d", "bob")),
		gen.MaxLen(3),
	)
	typedDoc = gen.Map(order, func(o Order) string {
		b, err := json.Marshal(o)
		if err != nil {
			panic(err) // no NaN or infinity: Price is drawn by FloatRange
		}
		return string(b)
	})
	document = gen.OneOf(syntaxDoc, typedDoc).Named("document")
)

func FuzzOrder(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		o, stage, err := Load(document.Draw(t))
		if stage != Valid {
			t.Skip(err)
		}
		if err := RoundTrip(o); err != nil {
			t.Fatal(err)
		}
		if tot := Total(o); math.IsNaN(tot) || tot < 0 {
			t.Fatalf("total %v", tot)
		}
	})
}

func TestLoad(t *testing.T) {
	good := `{"id":"o-1","customer":{"name":"Ada","email":"ada@example.com"},"currency":"EUR","items":[{"sku":"A","quantity":2,"price":1.5}]}`
	o, stage, err := Load(good)
	if stage != Valid || err != nil || Total(o) != 3 {
		t.Fatalf("Load = %+v, %v, %v", o, stage, err)
	}
	if err := RoundTrip(o); err != nil {
		t.Error(err)
	}
	for doc, want := range map[string]Stage{
		`{"id":`:           SyntaxError,
		`{"id":"x","x":1}`: SchemaError,
		`{"id":"o"}`:       SchemaError,
		`[]`:               SchemaError,
	} {
		if _, got, _ := Load(doc); got != want {
			t.Errorf("Load(%q) stage %d, want %d", doc, got, want)
		}
	}
}

func TestGeneratedStages(t *testing.T) {
	counts := map[Stage]int{}
	for i := range 500 {
		doc := document.Draw(gfz.NewT(param.New(nil, uint64(i)+1)))
		_, stage, err := Load(doc)
		if stage == SyntaxError {
			t.Fatalf("generated JSON rejected: %v\n%s", err, doc)
		}
		counts[stage]++
	}
	t.Logf("500 documents: %d schema errors, %d valid", counts[SchemaError], counts[Valid])
}
