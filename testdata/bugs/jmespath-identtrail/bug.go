// Package jmespathidenttrail pins github.com/jmespath/go-jmespath v0.4.0,
// whose lexer panics (index out of range [2] with length 2) on an unquoted
// identifier directly followed by U+0080, as "a\u0080": the loop that
// reads the identifier's trailing characters rejects runes above 128 and
// looks every other rune up in a two-word bit mask of the 128 ASCII
// characters, so the rune 128 itself indexes the mask's third word.
// Reported as issue #97 (a static analyser's finding, with the guard's
// arithmetic as reproducer); pull request #101 gives the expression
// "a\u0080" and changes the guard to r >= 128, but is not merged: v0.4.0
// is the latest release and the repository's last commit has the same
// lexer, so there is no fixed version.
// https://github.com/jmespath/go-jmespath/issues/97
//
// A lexer bug on a near miss: an identifier anywhere in the expression
// (a key, a function name, a key of a multi-select hash) with that one
// character after it, which the grammar allows only inside quoted
// identifiers, raw strings and literals.
package jmespathidenttrail

import (
	"encoding/json"

	"example.com/bugkit"
	"github.com/jmespath/go-jmespath"
)

// Issue is the upstream report.
const Issue = "https://github.com/jmespath/go-jmespath/issues/97"

// Site is the mask lookup in consumeUnquotedIdentifier (lexer.go:389),
// whatever the caller (Compile, Search, NewParser().Parse, Lexer's
// tokenize all lex the whole expression first).
var Site = bugkit.Site{Func: "github.com/jmespath/go-jmespath.(*Lexer).consumeUnquotedIdentifier", File: "lexer.go", Lines: []int{389}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Doc is the JSON document the expressions run on, in the style of the
// JMESPath tutorial and the project's compliance tests.
const Doc = `{
  "people": [
    {"first": "James", "last": "Doe", "age": 30, "tags": ["admin", "dev"], "address": {"city": "Seattle", "zip": "98101"}},
    {"first": "Jacob", "last": "Smith", "age": 25, "tags": ["dev"], "address": {"city": "Portland", "zip": "97201"}},
    {"first": "Jayden", "last": "Brown", "age": 41, "tags": [], "address": null}
  ],
  "locations": [
    {"name": "Seattle", "state": "WA"},
    {"name": "New York", "state": "NY"},
    {"name": "Bellevue", "state": "WA"},
    {"name": "Olympia", "state": "WA"}
  ],
  "reservations": [
    {"instances": [{"id": "i-1", "state": "running", "type": "t2.micro", "cpu": 1}, {"id": "i-2", "state": "stopped", "type": "m5.large", "cpu": 2}]},
    {"instances": [{"id": "i-3", "state": "running", "type": "c5.xlarge", "cpu": 4}]}
  ],
  "foo": {"bar": {"baz": [0, 1, 2, 3]}, "name": "foo", "enabled": true},
  "numbers": [-1, 3, 4, 5],
  "strings": ["a", "b", "c"],
  "empty": [],
  "nothing": null
}`

// Keys are the document's member names, and the others are expressions
// that evaluate to a value of one type on it, for the generator.
var (
	Keys = []string{"people", "first", "last", "age", "tags", "address", "city", "zip", "locations", "name", "state",
		"reservations", "instances", "id", "type", "cpu", "foo", "bar", "baz", "enabled", "numbers", "strings", "empty", "nothing"}
	Numbers   = []string{"people[0].age", "foo.bar.baz[2]", "reservations[0].instances[1].cpu", "numbers[-1]"}
	Strings   = []string{"people[1].first", "locations[0].name", "reservations[1].instances[0].state", "foo.name", "strings[0]"}
	NumArrays = []string{"numbers", "foo.bar.baz", "people[*].age", "reservations[].instances[].cpu"}
	StrArrays = []string{"strings", "people[*].first", "locations[*].state", "people[0].tags", "reservations[].instances[].type"}
	ObjArrays = []string{"people", "locations", "reservations", "reservations[].instances[]"}
	Objects   = []string{"foo", "foo.bar", "people[0]", "people[1].address", "@"}
)

var data = mustDecode(Doc)

func mustDecode(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	return v
}

// Query compiles a JMESPath expression, runs it on the document and
// returns the result as JSON, as the jp command and the services that take
// a query from their users (AWS CLI-style --query options, API filters)
// do.
func Query(expression string) ([]byte, error) {
	jp, err := jmespath.Compile(expression)
	if err != nil {
		return nil, err
	}
	v, err := jp.Search(data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}
