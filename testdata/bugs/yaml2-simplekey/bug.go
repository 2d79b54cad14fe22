// Package yaml2simplekey pins gopkg.in/yaml.v2 v2.1.1, where Unmarshal
// panics with "should not happen" in the scanner when a simple key is
// still possible at a position where a required one was saved: an
// indented mapping whose flow sequence runs on at a lesser indentation
// ("  0: [\n0]0"), a block sequence nested to depth 8 with such a flow
// collection, an explicit key with a multi-line quoted scalar:
// https://github.com/go-yaml/yaml/issues/116 (go-fuzz crashers; fixed in
// v2.2.0).
package yaml2simplekey

import (
	"example.com/bugkit"
	"gopkg.in/yaml.v2"
)

// Issue is the upstream report.
const Issue = "https://github.com/go-yaml/yaml/issues/116"

// Site is the scanner's explicit panic in yaml_parser_save_simple_key,
// re-raised by handleErr.
var Site = bugkit.Site{Func: "gopkg.in/yaml%2ev2.yaml_parser_save_simple_key", File: "scannerc.go", Lines: []int{877}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document into a generic map, the way a program reading
// a configuration file does.
func Decode(doc []byte) error {
	var v map[string]interface{}
	return yaml.Unmarshal(doc, &v)
}
