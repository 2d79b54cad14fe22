// Package gotoml2inline pins github.com/pelletier/go-toml/v2 v2.0.6,
// where toml.Unmarshal into a map of strings panics in
// danger.SubsliceOffset ("subslice address (0) is before data address")
// when a value is an inline table, such as foo = {}: the decoder's error
// has no highlight and wrapDecodeError computes its offset anyway:
// https://github.com/pelletier/go-toml/issues/850.
package gotoml2inline

import (
	"example.com/bugkit"
	"github.com/pelletier/go-toml/v2"
)

// Issue is the upstream report.
const Issue = "https://github.com/pelletier/go-toml/issues/850"

// Site is where the bug panics: the explicit panic of SubsliceOffset,
// called by wrapDecodeError from (*decoder).FromParser (other errors
// without a highlight, fixed before this version, came the same way; the
// Callers keep parser-side panics of SubsliceOffset apart).
var Site = bugkit.Site{
	Func:    "github.com/pelletier/go-toml/v2/internal/danger.SubsliceOffset",
	File:    "danger.go",
	Lines:   []int{16},
	Callers: []string{"github.com/pelletier/go-toml/v2.wrapDecodeError", "github.com/pelletier/go-toml/v2.(*decoder).FromParser"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a settings document into a generic value and into a
// flat map of strings (the shape of a key = "value" settings file).
func Decode(doc []byte) error {
	var v any
	if err := toml.Unmarshal(doc, &v); err != nil {
		return err
	}
	var m map[string]string
	return toml.Unmarshal(doc, &m)
}
