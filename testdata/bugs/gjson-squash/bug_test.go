package gjsonsquash

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gojson"
)

// example is a document in the style of the project's README.
const example = `{"name":{"first":"Tom","last":"Anderson"},"age":37,"children":["Sara","Alex","Jack"],` +
	`"friends":[{"first":"Dale","last":"Murphy","age":44,"nets":["ig","fb","tw"]},{"first":"Roger","last":"Craig","age":68}]}`

// FuzzNative is the target as people write it today: a document and a
// path, seeded with README-style paths.
func FuzzNative(f *testing.F) {
	for _, p := range []string{
		"name.last", "age", "children.#", "children.1", "child*.2", "c?ildren.0",
		"friends.#.first", `friends.#(last=="Murphy").first`, `friends.#(age>45)#.last`,
		"children|@reverse", "name|@pretty:{\"indent\":\"  \"}", "[name.first,age]", `{"n":name.last}`,
	} {
		f.Add(example, p)
	}
	f.Fuzz(func(t *testing.T, json, path string) {
		_ = Query(json, path)
	})
}

var keys = []string{"name", "first", "last", "age", "children", "friends", "nets"}

// FuzzGfz is the gfz target: a JSON document (gojson) and a path from
// the gjson path grammar over the same keys, a fifth of the paths with
// near-miss edits; a path that selects nothing is an invalid input. No
// seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gojson.Value(gojson.Config{Keys: keys, MaxDepth: 3})
	path := gens.GJSONPath(gens.PathConfig{Keys: keys, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if Query(doc.Draw(t), path.Draw(t)) == "" {
			t.Skip("no match")
		}
	})
}

// reproducer is the input of the upstream report, used as both the
// document and the path.
const reproducer = `0.#[[{}]].@valid:"000`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Query(reproducer, reproducer) }, "slice bounds out of range", IsBug)
}

func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
