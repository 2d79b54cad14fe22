// Package jsonparserdeleteneg pins github.com/buger/jsonparser v1.1.1,
// whose Delete panics with "slice bounds out of range [-1:]" on some
// malformed documents: it finds the key to delete with one scan
// (findKeyStart), then looks its value up with another (internalGet) and
// ignores that lookup's error. When the lookup fails, because its scan
// does not find the key (the report's `"0":"0":` with key "0") or
// because nothing follows the key's colon (`{"a":` with key "a"), the
// value's end offset is -1 and, for a path of one key, Delete slices the
// document from there. Reported as
// https://github.com/buger/jsonparser/issues/275 (GO-2026-4514); fixed in
// v1.1.2 by pull request #276, which makes Delete return the document
// unchanged on any lookup error, of the deleted key and of its parent
// path alike.
//
// A parser bug on near misses, with a program deleting a member: a
// document cut right after the member's colon (or the whitespace after
// it), or one the two scans read differently (`{"a":{"c":1` with key "c":
// the first scan, unable to skip the unclosed inner object, finds the
// inner "c"; the lookup, which reads top-level members only, does not).
// When the member cut after its colon is the parent of the deleted path
// (`{"x":` with path x, y) the same -1 panics one step earlier, slicing
// the parent's value ("[:-1]"); the same fix removes both.
package jsonparserdeleteneg

import (
	"example.com/bugkit"
	"github.com/buger/jsonparser"
)

// Issue is the upstream report.
const Issue = "https://github.com/buger/jsonparser/issues/275"

// Site is Delete's slicing with the end offset -1 of a failed lookup:
// parser.go:729 for the deleted key (the report's), parser.go:721 for a
// parent of it. Neither line panics otherwise (their offsets come from a
// successful lookup, or from a failed one that stopped at the value's
// start, which slices nothing out of range). Delete's index panics on
// truncated documents at the lines after them (732-736 and 749-751: the
// byte after a value that ends the document, issue #274, still present at
// v1.1.2) are another bug.
var Site = bugkit.Site{Func: "github.com/buger/jsonparser.Delete", File: "parser.go", Lines: []int{721, 729}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Keys are the member names of the documents the program handles, for
// the generator.
var Keys = []string{"id", "name", "email", "password", "token", "user", "roles", "items", "price", "meta"}

// Edit does what a service does with a JSON document it receives before
// passing it on (a gateway stripping a field from request bodies, a log
// shipper dropping a secret): it reads the fields it needs in one pass
// (EachKey over lookups, parsing the strings, numbers and booleans it
// finds; an absent field keeps its default), then removes the field at
// del with Delete, which leaves a document without it unchanged and has
// no error to report. It returns the edited document and the first error
// a read met (a malformed value: the caller counts the document as
// rejected, but the edit was made).
func Edit(data []byte, lookups [][]string, del []string) ([]byte, error) {
	var readErr error
	jsonparser.EachKey(data, func(_ int, value []byte, vt jsonparser.ValueType, err error) {
		if err == nil {
			switch vt {
			case jsonparser.String:
				_, err = jsonparser.ParseString(value)
			case jsonparser.Number:
				_, err = jsonparser.ParseFloat(value)
			case jsonparser.Boolean:
				_, err = jsonparser.ParseBoolean(value)
			}
		}
		if err != nil && readErr == nil {
			readErr = err
		}
	}, lookups...)
	return jsonparser.Delete(data, del...), readErr
}
