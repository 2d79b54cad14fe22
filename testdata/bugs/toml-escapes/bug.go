// Package tomlescapes pins github.com/BurntSushi/toml v0.3.1, where
// toml.Decode panics with "slice bounds out of range" in
// (*parser).replaceEscapes: after an escaped backslash at the end of a
// line of a multi-line basic string, the lexer lets a \u or \U escape
// with fewer than 4 or 8 hex digits through, and replaceEscapes slices
// past the end of the string. One of the crashes reported in
// https://github.com/BurntSushi/toml/issues/239 (the crashers are in
// github.com/leonklingele/fuzzing-BurntSushi-toml, workdir/crashers/).
package tomlescapes

import (
	"example.com/bugkit"
	"github.com/BurntSushi/toml"
)

// Issue is the upstream report.
const Issue = "https://github.com/BurntSushi/toml/issues/239"

// Site is where the bug panics: the s[r+1 : r+5] of a \u escape (line
// 561) or the s[r+1 : r+9] of a \U escape (line 568).
var Site = bugkit.Site{Func: "github.com/BurntSushi/toml.(*parser).replaceEscapes", File: "parse.go", Lines: []int{561, 568}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document the way a program reading a configuration
// file does.
func Decode(doc string) error {
	var v map[string]any
	_, err := toml.Decode(doc, &v)
	return err
}
