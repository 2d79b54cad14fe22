// Package gotoml2datetime pins github.com/pelletier/go-toml/v2
// v2.0.0-beta.3, where toml.Unmarshal panics with "slice bounds out of
// range" in (*parser).scanDateTime on a date-time whose date part is
// malformed, such as a=1979-05127T 0:
// https://github.com/pelletier/go-toml/issues/585.
package gotoml2datetime

import (
	"example.com/bugkit"
	"github.com/pelletier/go-toml/v2"
)

// Issue is the upstream report.
const Issue = "https://github.com/pelletier/go-toml/issues/585"

// Site is where the bug panics: the index i that scanDateTime scanned to
// is past the end of the input, and the return statement that ends it
// slices the input with it twice: b[:i] at line 906, which panics when i
// is beyond the slice's capacity (the reported input, decoded from a
// []byte with no spare capacity), and b[i:] at line 907, which panics when
// i is within the capacity but beyond the length (the same input in a
// []byte with room to spare, as []byte(s) of a string often has). The
// upstream fix (v2.0.0-beta.4, TestIssue585) keeps i within the input,
// which removes both.
var Site = bugkit.Site{Func: "github.com/pelletier/go-toml/v2.(*parser).scanDateTime", File: "parser.go", Lines: []int{906, 907}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document into a generic value, as the project's own
// fuzz target does.
func Decode(doc []byte) error {
	var v any
	return toml.Unmarshal(doc, &v)
}
