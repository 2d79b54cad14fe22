// Package goyamlmapvalue pins github.com/goccy/go-yaml v1.12.0, where
// Unmarshal dereferences a nil token when a mapping value starts with
// another value indicator ("0::"): the parser validates the value's
// column against a token it did not find:
// https://github.com/goccy/go-yaml/issues/479 (fixed by v1.13.4).
package goyamlmapvalue

import (
	"example.com/bugkit"
	"github.com/goccy/go-yaml"
)

// Issue is the upstream report.
const Issue = "https://github.com/goccy/go-yaml/issues/479"

// Site is the dereference in validateMapValue called by
// parseMappingValue.
var Site = bugkit.Site{Func: "github.com/goccy/go-yaml/parser.(*parser).validateMapValue", File: "parser.go", Lines: []int{219},
	Callers: []string{"github.com/goccy/go-yaml/parser.(*parser).parseMappingValue"}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document into a generic map, the way a program reading
// a configuration file does, and formats the error as it would report it.
func Decode(doc []byte) (string, error) {
	v := map[string]any{}
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return err.Error(), err
	}
	return "", nil
}
