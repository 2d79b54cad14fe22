package gojson_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/param"
)

func TestValid(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	gens := map[string]gen.Generator[string]{
		"Value":      gojson.Value(gojson.Config{}),
		"Object":     gojson.Object(gojson.Config{Keys: []string{"id", "name"}, Whitespace: true}),
		"Value deep": gojson.Value(gojson.Config{MaxDepth: 8, MaxItems: 3, Whitespace: true}),
	}
	for _, name := range []string{"Value", "Object", "Value deep"} {
		g := gens[name]
		kinds := map[byte]bool{}
		for i := range 2000 {
			rt := gentest.RoundTrip(g, gentest.RandomBytes(r, 300), uint64(i), 7)
			v := rt.First
			if !json.Valid([]byte(v)) {
				t.Fatalf("%s: invalid JSON %q", name, v)
			}
			kinds[bytes.TrimSpace([]byte(v))[0]] = true
			if rt.Second != v || !rt.SameBytes {
				t.Fatalf("%s: replay %q != %q", name, rt.Second, v)
			}
		}
		if name == "Value" && len(kinds) < 6 {
			t.Errorf("%s: only %d kinds of values: %v", name, len(kinds), kinds)
		}
		if name == "Object" && (len(kinds) != 1 || !kinds['{']) {
			t.Errorf("Object produced %v", kinds)
		}
	}
}

func ExampleValue() {
	g := gojson.Object(gojson.Config{Keys: []string{"id", "name"}})
	t := gfz.NewT(param.New([]byte{2, 0, 0, 3, 0, 1, 0, 1, 1, 3, 0, 42}, 0))
	doc := g.Draw(t)
	fmt.Println(doc, json.Valid([]byte(doc)))
	// Output: {"id":"\\","name":null} true
}
