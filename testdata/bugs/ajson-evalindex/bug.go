// Package ajsonevalindex pins github.com/spyzhov/ajson v0.9.5, whose
// script engine (Eval, and the filter and script expressions of a
// JSONPath) corrupts the document it evaluates: when a JSONPath inside an
// expression selects more than one node, eval wraps the selected nodes in a
// new array with ArrayNode, which sets each node's parent and index to its
// place in the new array. The nodes still belong to the document, so an
// array of the document whose elements were selected now holds children
// whose indexes run past its length (the report's `$...` on
// `[{"a": 1, "b": 2, "c": 3}]` selects the root array and its object twice,
// and the object's index becomes 2 in an array of one element). The next
// read of that array's elements by index (GetArray/Value, Unpack,
// Inheritors: the wildcard, filters, sum, avg, first, last) panics with an
// index out of range. When two elements of an array get the same index
// instead, Inheritors leaves a nil in the place nobody took, and the first
// use of that nil panics with a nil pointer dereference (isContainer, in
// the recursive descent and in filters and scripts, or ArrayNode, when
// eval wraps the next path's selection). Reported as
// https://github.com/spyzhov/ajson/issues/81 and fixed in v0.9.6 by pull
// request #82 (commit 1f0ecf9, "fix index corruption"), which clones the
// selected nodes before wrapping them.
//
// A semantic bug of the evaluator on valid input: one JSONPath of the
// expression must select several nodes, among them elements of an array
// whose place in the selection is not their place in the array (a
// recursive descent such as `$..*`, wildcards and unions over several
// containers, a slice that does not start at 0), and the array must be
// read afterwards, by the caller or by a later part of the same expression.
package ajsonevalindex

import (
	"example.com/bugkit"
	"github.com/spyzhov/ajson"
)

// Issue is the upstream report.
const Issue = "https://github.com/spyzhov/ajson/issues/81"

// Site is the report's panic: getValue placing an array's children by
// their index into a slice of the array's length (node.go:391), reached
// through GetArray, Value and MustArray (and the == of two arrays),
// whatever the caller.
var Site = bugkit.Site{Func: "github.com/spyzhov/ajson.(*Node).getValue", File: "node.go", Lines: []int{391}}

// Readers are the two other places of v0.9.5 that do the same with the
// indexes, whatever the caller: Unpack (node.go:597) and Inheritors
// (node.go:927, reached through the JSONPath wildcard, recursive descent
// and filters and the functions sum, avg, first and last). With Site they
// are the only readers of the indexes.
var Readers = []bugkit.Site{
	{Func: "github.com/spyzhov/ajson.(*Node).Unpack", File: "node.go", Lines: []int{597}},
	{Func: "github.com/spyzhov/ajson.(*Node).Inheritors", File: "node.go", Lines: []int{927}},
}

// Holes are the first uses of the nil that Inheritors leaves in its result
// when two children share an index: isContainer (node.go:881, inlined;
// from recursiveChildren or ApplyJSONPath's filter and script steps, any
// caller: a JSONPath step's nodes come from the document, so a nil there
// can only be such a hole), and ArrayNode's write of the parent
// (node.go:118) when eval wraps a selection holding the nil (ArrayNode is
// public, so only under eval: a program's own call with a nil node is not
// this bug).
var Holes = []bugkit.Site{
	{Func: "github.com/spyzhov/ajson.(*Node).isContainer", File: "node.go", Lines: []int{881}},
	{Func: "github.com/spyzhov/ajson.ArrayNode", File: "node.go", Lines: []int{118}, Callers: []string{"github.com/spyzhov/ajson.eval"}},
}

// IsBug reports whether a failure's stack trace is this bug: a panic at
// Site, at one of Readers or at one of Holes.
func IsBug(stack string) bool {
	if Site.MatchPanic(stack) {
		return true
	}
	for _, s := range append(append([]bugkit.Site(nil), Readers...), Holes...) {
		if s.MatchPanic(stack) {
			return true
		}
	}
	return false
}

// Keys are member names of the documents the queries run on, for the
// generators.
var Keys = []string{"store", "book", "category", "author", "title", "price", "isbn", "bicycle", "color", "tools",
	"items", "tags", "id", "name", "value"}

// Query does what a program that lets users query JSON documents with
// ajson does (a query endpoint, a rules engine, the project's console
// tool): it parses the document, evaluates the expression (a JSONPath, or
// a formula of the script engine over JSONPaths, such as `avg($..price)`)
// on its root with Eval, and converts the result to Go values with Unpack.
func Query(doc []byte, expr string) (any, error) {
	root, err := ajson.Unmarshal(doc)
	if err != nil {
		return nil, err
	}
	result, err := ajson.Eval(root, expr)
	if err != nil {
		return nil, err
	}
	return result.Unpack()
}
