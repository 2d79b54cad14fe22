// Package hcl1decodemap pins github.com/hashicorp/hcl (HCL 1) at 197e8d3
// (2015-12-18), where decoding into an interface{} panics with an index
// out of range when two blocks of the same type are merged and one of
// them has, as its label, the name of a block nested in the other
// ("section { subsection {} }" and "section "subsection" {}"): filtering
// the merged list by that key leaves an item with no keys, which
// decodeMap indexes:
// https://github.com/hashicorp/hcl/issues/73 (gone by v1.0.0).
//
// A semantic bug of the decoder: the document must parse, and its
// structure must repeat a block type with a label equal to the name of a
// block nested in another instance of that type.
package hcl1decodemap

import (
	"example.com/bugkit"
	"github.com/hashicorp/hcl"
)

// Issue is the upstream report.
const Issue = "https://github.com/hashicorp/hcl/issues/73"

// Site is the index of the item's first key in decodeMap.
var Site = bugkit.Site{Func: "github.com/hashicorp/hcl.(*decoder).decodeMap", File: "decoder.go", Lines: []int{330}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode decodes a configuration into a generic value, as the report's
// program (and the go-fuzz target of hashicorp/hcl#126) does.
func Decode(src string) (any, error) {
	var out interface{}
	err := hcl.Decode(&out, src)
	return out, err
}
