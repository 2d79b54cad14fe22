// Package yaml3unknownevent pins gopkg.in/yaml.v3 at 496545a6307b
// (2021-01-07), where Unmarshal panics with "attempted to parse unknown
// event (please report): none" when the input ends in a truncated UTF-8
// sequence after a node's properties: the scanner's error leaves an empty
// event that the decoder does not expect:
// https://github.com/go-yaml/yaml/issues/666 (CVE-2022-28948; fixed in
// v3.0.0).
package yaml3unknownevent

import (
	"example.com/bugkit"
	"gopkg.in/yaml.v3"
)

// Issue is the upstream report.
const Issue = "https://github.com/go-yaml/yaml/issues/666"

// Site is the decoder's explicit panic (failf through handleErr's
// re-panic) on an event kind it does not know. The version also has
// go-yaml/yaml#665 (a nil dereference in yaml_parser_split_stem_comment),
// which panics elsewhere.
var Site = bugkit.Site{Func: "gopkg.in/yaml%2ev3.(*parser).parse", File: "decode.go", Lines: []int{163}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document the way a program reading a configuration
// file does.
func Decode(doc []byte) error {
	var v any
	return yaml.Unmarshal(doc, &v)
}
