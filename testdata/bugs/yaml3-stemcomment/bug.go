// Package yaml3stemcomment pins gopkg.in/yaml.v3 at v3.0.0 (the release
// that fixed CVE-2022-28948), where Unmarshal dereferences a nil pointer
// in yaml_parser_split_stem_comment when a head comment precedes a block
// sequence whose first item is itself a block sequence:
// https://github.com/go-yaml/yaml/issues/665 (fixed in v3.0.1).
package yaml3stemcomment

import (
	"example.com/bugkit"
	"gopkg.in/yaml.v3"
)

// Issue is the upstream report.
const Issue = "https://github.com/go-yaml/yaml/issues/665"

// Site is the nil dereference in yaml_parser_split_stem_comment, any
// caller (the report's is yaml_parser_parse_block_sequence_entry).
var Site = bugkit.Site{Func: "gopkg.in/yaml%2ev3.yaml_parser_split_stem_comment", File: "parserc.go", Lines: []int{789}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a document the way a program reading a configuration
// file does.
func Decode(doc []byte) error {
	var v any
	return yaml.Unmarshal(doc, &v)
}
