// Package goyamlflowmap pins github.com/goccy/go-yaml v1.17.1, where the
// error Unmarshal returns for an unterminated flow mapping whose last
// entry has no key token ({"000":0000A,) is a SyntaxError without a
// token, and its Error method dereferences the nil token:
// https://github.com/goccy/go-yaml/issues/718 (found by the project's
// fuzz target once it printed the errors; fixed in v1.18.0 by #719).
package goyamlflowmap

import (
	"example.com/bugkit"
	"github.com/goccy/go-yaml"
)

// Issue is the upstream report.
const Issue = "https://github.com/goccy/go-yaml/issues/718"

// Site is the dereference of the error's token in FormatError, any
// caller (SyntaxError.Error through FormatError, or another error type
// formatting a nil token: the fix guards FormatError itself).
var Site = bugkit.Site{Func: "github.com/goccy/go-yaml/internal/errors.FormatError", File: "error.go", Lines: []int{237}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document into a generic map and, as a program
// reporting a bad configuration file does, formats the error.
func Decode(doc []byte) (string, error) {
	v := map[string]any{}
	err := yaml.Unmarshal(doc, &v)
	if err != nil {
		return err.Error(), err
	}
	return "", nil
}
