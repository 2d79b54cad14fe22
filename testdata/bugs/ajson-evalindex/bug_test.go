package ajsonevalindex

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/spyzhov/ajson"
)

// store is the document of the project's README and JSONPath tests.
const store = `{"store": {"book": [
{"category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95},
{"category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99},
{"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99},
{"category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99}],
"bicycle": {"color": "red", "price": 19.95}, "tools": null}}`

// FuzzNative is a plain target (the project has no fuzz target at
// v0.9.5): a document and an expression through Query, seeded with the
// documents and expressions of the project's README and tests. No path
// of a seed selects more than one array element (the paths that select
// several nodes select object members: prices, titles).
func FuzzNative(f *testing.F) {
	for _, s := range [][2]string{
		{store, "avg($..price)"},
		{store, "$.store.book[?(@.price < 10)].title"},
		{store, "$.store.book[(@.length-1)].author"},
		{store, "$['store']['book'][0]['title']"},
		{store, "length($.store.book) * 2"},
		{store, "$.store.bicycle.color == 'red' && $.store.bicycle.price > 10"},
		{store, "$.store.book[?(@.isbn)].price"},
		{`{"prices": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}`, "sum($.prices) / size($.prices)"},
		{`[{"name":"Foo","mail":"foo@example.com"},{"name":"bar","mail":"bar@example.org"}]`, `$[0].mail =~ '.+@example\\.com'`},
		{`3`, "2 * pi * $"},
		{`{"a": "aGVsbG8=", "n": -2.5}`, "b64decode($.a) + '!'"},
		{`{"a": "aGVsbG8=", "n": -2.5}`, "abs($.n) ** 2 >= 6"},
	} {
		f.Add([]byte(s[0]), s[1])
	}
	f.Fuzz(func(t *testing.T, doc []byte, expr string) {
		_, _ = Query(doc, expr)
	})
}

// FuzzGfz is the gfz target: a JSON document (gojson, member names from
// Keys half of the time) and a query from the JSONPath and formula grammar
// over the same names, a tenth of them with near-miss edits; a document or
// query Query rejects is an invalid input. No seeds: under plain go test it
// runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gojson.Value(gojson.Config{Keys: Keys, MaxDepth: 4, Whitespace: true})
	query := gens.JSONPathScript(gens.JSONPathScriptConfig{Keys: Keys, MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Query([]byte(doc.Draw(t)), query.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reportDoc and reportExpr are the input of the report (issue #81).
const (
	reportDoc  = `[{"a": 1, "b": 2, "c": 3}]`
	reportExpr = "$..."
)

// reportProgram is the report's program: evaluate, read the result's
// elements with GetArray, then the elements of each array among them.
func reportProgram(doc, expr string) {
	root, err := ajson.Unmarshal([]byte(doc))
	if err != nil {
		return
	}
	result, err := ajson.Eval(root, expr)
	if err != nil {
		return
	}
	nodes, err := result.GetArray()
	if err != nil {
		return
	}
	for _, n := range nodes {
		if n.IsArray() {
			_, _ = n.GetArray()
		}
	}
}

func TestReproducer(t *testing.T) {
	// Through Query: Unpack reads the root array, whose object now has
	// index 2 (node.go:597).
	bugkit.ReproducerPanics(t, func() { _, _ = Query([]byte(reportDoc), reportExpr) }, "index out of range [2] with length 1", IsBug)
	// The report's own program: GetArray (node.go:391).
	bugkit.ReproducerPanics(t, func() { reportProgram(reportDoc, reportExpr) }, "index out of range [2] with length 1", IsBug)
	// The corruption read by a later part of the same formula: sum walks
	// $.a with Inheritors after $..* renumbered its elements (node.go:927).
	bugkit.ReproducerPanics(t, func() { _, _ = Query([]byte(`{"a":[1,2],"b":[3]}`), "size($..*) + sum($.a)") }, "index out of range", IsBug)
	// Two elements renumbered to the same index (a slice renumbers 2 and
	// 3 to 0 and 1, so 1 and 2 share 0 and nothing has 2): the hole that
	// Inheritors leaves is dereferenced by the next path's recursive
	// descent (isContainer, node.go:881) or by eval's wrapping of its
	// wildcard (ArrayNode, node.go:118).
	bugkit.ReproducerPanics(t, func() { _, _ = Query([]byte(`[1,2,3]`), "$[1:] + $..*") }, "nil pointer dereference", IsBug)
	bugkit.ReproducerPanics(t, func() { _, _ = Query([]byte(`[1,2,3]`), "$[1:] + $[*]") }, "nil pointer dereference", IsBug)
}

// TestOracleRejectsOtherPanics checks that other panics of v0.9.5 are not
// this bug: the remainder operator's integer division by zero (`1 % 0`,
// math.go:130) and randint's rand.Intn on a count that is not positive
// (`randint(0)`); neither is reported upstream as far as I found, and both
// are still in v0.9.6.
//
// It also checks that ArrayNode's nil dereference counts only under eval:
// a program that wraps a nil node itself misuses the public constructor.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Query([]byte(`{}`), "1 % 0") })
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Query([]byte(`{}`), "randint(0)") })
	bugkit.RejectsPanic(t, IsBug, func() { ajson.ArrayNode("", []*ajson.Node{nil}) })
	bugkit.RejectsPanic(t, IsBug, nil)
}
