package jsonorder

import (
	"math"
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/param"
)

// document knows JSON syntax and the field names, not the structure.
var document = gojson.Object(gojson.Config{
	MaxDepth: 4, MaxItems: 4,
	Keys:   []string{"id", "customer", "name", "email", "items", "sku", "quantity", "price", "currency", "notes", "labels"},
	Values: []string{"o-1", "Ada", "ada@example.com", "EUR", "USD", "A-100"},
})

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
