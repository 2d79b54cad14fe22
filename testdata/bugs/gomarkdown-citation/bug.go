// Package gomarkdowncitation pins github.com/gomarkdown/markdown at
// 7478c230c7cd (2023-09-16), where parsing with the Mmark extension
// indexes past the end of a citation in citation() when a citation is
// only "@" ("[@]", or "[@x;@]"):
// https://github.com/gomarkdown/markdown/security/advisories/GHSA-m9xq-6h2j-65r2
// (CVE-2023-42821, GO-2023-2094; fixed by 14b16010c2ee).
package gomarkdowncitation

import (
	"example.com/bugkit"
	"github.com/gomarkdown/markdown"
	"github.com/gomarkdown/markdown/parser"
)

// Issue is the upstream report.
const Issue = "https://github.com/gomarkdown/markdown/security/advisories/GHSA-m9xq-6h2j-65r2"

// Site is the read of the citation's kind character, citation[1], in
// citation (citation.go:69, the line the advisory names).
var Site = bugkit.Site{Func: "github.com/gomarkdown/markdown/parser.citation", File: "citation.go", Lines: []int{69}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Convert renders Markdown with the common extensions and the Mmark
// dialect (as a tool writing RFCs in Mmark does) to HTML.
func Convert(src []byte) []byte {
	p := parser.NewWithExtensions(parser.CommonExtensions | parser.Mmark)
	return markdown.ToHTML(src, p, nil)
}
