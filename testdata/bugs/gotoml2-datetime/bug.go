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

// Site is where the bug panics: the b[i:] past the end of the input at
// the end of scanDateTime.
var Site = bugkit.Site{Func: "github.com/pelletier/go-toml/v2.(*parser).scanDateTime", File: "parser.go", Lines: []int{906}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document into a generic value, as the project's own
// fuzz target does.
func Decode(doc []byte) error {
	var v any
	return toml.Unmarshal(doc, &v)
}
