package jsonparserdeleteneg

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/buger/jsonparser"
	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// fuzzEachKeyPaths are the paths of the project's go-fuzz target
// FuzzEachKey (fuzz.go at v1.1.1).
var fuzzEachKeyPaths = [][]string{
	{"name"}, {"order"}, {"nested", "a"}, {"nested", "b"}, {"nested2", "a"}, {"nested", "nested3", "b"},
	{"arr", "[1]", "b"}, {"arrInt", "[3]"}, {"arrInt", "[5]"}, {"nested"}, {"arr", "["}, {"a\n", "b\n"},
}

// FuzzNative is the project's go-fuzz targets FuzzEachKey and FuzzDelete
// (fuzz.go at v1.1.1: EachKey over twelve paths, Delete of the key
// "test") turned native as one target through Edit, seeded with
// documents like those of the project's tests (parser_test.go).
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		`{"test":"value"}`,
		`{"a":"b","test":1,"c":[1,2]}`,
		`{"test":{"x":true},"y":null}`,
		`{ "name": "Ann", "order": "first", "test": [ ] }`,
		`{"name":"Bob","nested":{"a":"x","b":2,"nested3":{"b":3}},"nested2":{"a":"y"}}`,
		`{"arr":[{"b":0},{"b":1}],"arrInt":[1,2,3,4,5,6],"test":"z"}`,
		`[1,{"test":2}]`,
		`{"a\n":{"b\n":"c"},"order":-1.5e3}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Edit(data, fuzzEachKeyPaths, []string{"test"})
	})
}

// FuzzGfz is the gfz target: a JSON document from the grammar generator
// (member names from Keys half of the time, a fifth of the documents with
// near-miss edits), one to three paths to read and one to delete, drawn
// over the document's paths and the program's keys; a document whose
// reads report an error is an invalid input. No seeds: under plain go
// test it runs nothing.
func FuzzGfz(f *testing.F) {
	cfg := gens.JSONEditConfig{Keys: Keys, MistakesPer: 200}
	docs := gens.JSONEditDocument(cfg)
	gfz.Fuzz(f, func(t *gfz.T) {
		doc := docs.Draw(t)
		path := gens.JSONEditPath(doc, cfg)
		lookups := gen.SliceOf(path, 1, 3).Draw(t)
		del := path.Draw(t)
		if _, err := Edit([]byte(doc.Text), lookups, del); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's input (issue #275 and the GO-2026-4514
// report): the document `"0":"0":` and the key "0".
const reproducer = `"0":"0":`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Edit([]byte(reproducer), [][]string{{"0"}}, []string{"0"}) }, "slice bounds out of range [-1:]", IsBug)
	// The fix's second test case: a value missing after the colon.
	bugkit.ReproducerPanics(t, func() { _, _ = Edit([]byte(`{"a":  `), [][]string{{"a"}}, []string{"a"}) }, "slice bounds out of range [-1:]", IsBug)
	// The same for the parent of the deleted path (line 721).
	bugkit.ReproducerPanics(t, func() { _, _ = Edit([]byte(`{"x":`), [][]string{{"x", "y"}}, []string{"x", "y"}) }, "slice bounds out of range [:-1]", IsBug)
}

// TestOracleRejectsOtherPanics checks that other panics of this version
// are not this bug: Delete reading the byte after a value that ends the
// document (issue #274, "index out of range [9] with length 9" from the
// project's FuzzDelete at the line that is v1.1.1's parser.go:732; still
// present at v1.1.2, fixed in v1.2.0 by commit 7817c76, whose message
// gives the document `{"test":1`), and the same read in Delete's array
// branch (line 749, fixed by the same commit).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { jsonparser.Delete([]byte(`{"test":1`), "test") })
	bugkit.RejectsPanic(t, IsBug, func() { jsonparser.Delete([]byte(`{"a":1,"b":[1,2`), "b", "[1]") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
