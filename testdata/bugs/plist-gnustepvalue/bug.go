// Package plistgnustepvalue pins howett.net/plist (github.com/DHowett/go-plist)
// v1.0.0, whose text property-list parser panics (index out of range [0]
// with length 0) on a GNUStep extended value written in its quoted form with
// nothing between the quotes, as <*B""> or <*I"">: parseGNUStepValue skips
// the opening quote, takes everything up to the '>' (a lone '"', so the
// "empty value" check passes), strips the trailing quote, and then reads the
// first byte of the now empty value to tell Y from N (booleans) or a minus
// sign (integers). The parser re-raises runtime errors, so the program that
// reads such a file crashes. Reported and fixed by pull request #79
// ("Address panic in parseGNUStepValue", found by fuzzing), merged as commit
// 5afcd13 and released in v1.0.1, which reports "truncated GNUStep extended
// value" instead: https://github.com/DHowett/go-plist/pull/79
//
// A near miss of the GNUStep dialect: a typed value in quotes whose content
// is missing; the same value unquoted (<*B>) or the quotes unbalanced (<*B">)
// are rejected with an error, as are the real and date types (<*R"">,
// <*D"">), which parse the empty string.
package plistgnustepvalue

import (
	"example.com/bugkit"
	"howett.net/plist"
)

// Issue is the upstream report (the pull request with the reproducer and the
// fix).
const Issue = "https://github.com/DHowett/go-plist/pull/79"

// Site is the read of v[0] in parseGNUStepValue: text_parser.go:460 for a
// boolean (the report's <*B"">), 449 for an integer (<*I"">); the fix guards
// both. Any caller: the value can be anywhere in the document.
var Site = bugkit.Site{Func: "howett.net/plist.(*textPlistParser).parseGNUStepValue", File: "text_parser.go", Lines: []int{449, 460}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Keys are the keys of the property lists an application keeps (bundle
// information, preferences), for the generator.
var Keys = []string{"CFBundleName", "CFBundleVersion", "CFBundleIdentifier", "NSPrincipalClass", "ApplicationName",
	"Version", "Enabled", "Count", "Ratio", "Modified", "Icon", "Items", "Name", "Size", "band-size"}

// Decode reads a property list (the library detects the format: XML,
// binary, OpenStep or GNUStep text) into an interface{}, as a program reads
// a settings or bundle file it does not know the shape of, and writes it
// back as XML, as a conversion tool does (plutil -convert xml1, the
// project's ply). It returns the format read and the XML document. (Writing
// the text formats back is not done: the library's text writer panics on
// any string holding a character above U+FFFF, pull request #66, never
// fixed, which would drown every other failure.)
func Decode(data []byte) (int, []byte, error) {
	var v interface{}
	format, err := plist.Unmarshal(data, &v)
	if err != nil {
		return 0, nil, err
	}
	out, err := plist.MarshalIndent(v, plist.XMLFormat, "\t")
	if err != nil {
		return format, nil, err
	}
	return format, out, nil
}
