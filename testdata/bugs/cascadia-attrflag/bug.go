// Package cascadiaattrflag pins github.com/andybalholm/cascadia v1.3.0,
// whose selector parser panics (index out of range) on an attribute
// selector that ends, without its closing ']', right after the case
// flag of Selectors Level 4, as "[a=a i": parseAttributeSelector consumes
// the flag and then reads the next byte to look for the ']' without
// checking for the end of the selector. The flag was new in v1.3.0;
// fixed in v1.3.1 by commit a8d8085 ("Fix index out of bounds in
// parser": "When parsing an invalid selector like "[a=a i", the parser
// would panic with index out of bounds"):
// https://github.com/andybalholm/cascadia/commit/a8d808592956731592f7775c8d091fbac2b3ffb3
//
// A parser bug on a near miss: a valid attribute selector with a value
// and the flag, cut before its ']' (anywhere in the selector: inside
// :not(...) or :has(...) too).
package cascadiaattrflag

import (
	"strings"

	"example.com/bugkit"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// Issue is the upstream fix (the project has no issue for it).
const Issue = "https://github.com/andybalholm/cascadia/commit/a8d808592956731592f7775c8d091fbac2b3ffb3"

// Site is the read of p.s[p.i] after the case flag in
// parseAttributeSelector (parser.go:420), whatever the caller (the
// attribute selector can be in a compound selector at any nesting).
var Site = bugkit.Site{Func: "github.com/andybalholm/cascadia.(*parser).parseAttributeSelector", File: "parser.go", Lines: []int{420}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Page is the HTML document the selectors run on.
const Page = `<!DOCTYPE html>
<html lang="en"><head><title>Shop</title><link rel="stylesheet" href="/s.css" type="text/css"></head>
<body>
<div id="header" class="nav"><a href="https://example.org/" class="btn-primary active" title="Home">Home</a>
<a href="/docs/guide.pdf" data-id="7">Guide</a></div>
<div id="main"><p class="item">Hello <span>world</span></p><p class="item active" lang="fr-CA">Item 2</p>
<ul><li class="item">one</li><li>two</li><li class="item"><a href="#top">three</a></li><li></li></ul>
<table><tr><td>1</td><td class="x">2</td></tr></table>
<form><input type="checkbox" checked><input type="submit" disabled><input type="text" title="Name"></form></div>
<div id="footer"><p>say "hi"</p></div>
</body></html>`

// Tags, Classes, IDs and Attrs are the page's names, for the generator.
var (
	Tags    = []string{"html", "body", "div", "p", "a", "span", "ul", "li", "table", "td", "form", "input", "link"}
	Classes = []string{"nav", "btn-primary", "active", "item", "x"}
	IDs     = []string{"header", "main", "footer"}
	Attrs   = []string{"href", "class", "id", "type", "lang", "title", "data-id", "rel", "checked", "disabled"}
)

var page = mustParse(Page)

func mustParse(s string) *html.Node {
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		panic(err)
	}
	return doc
}

// Select compiles a selector list and returns the page's elements it
// matches, as goquery's Find and scrapers built on the module do.
func Select(selector string) ([]*html.Node, error) {
	sel, err := cascadia.Compile(selector)
	if err != nil {
		return nil, err
	}
	return sel.MatchAll(page), nil
}
