// Package blackfridaylistitem pins github.com/russross/blackfriday/v2
// v2.1.0 (its latest release), where Run indexes past the end of a list
// item in listItem when a definition list's ":" marker line is followed by
// a blank line and an item whose content ends the input:
// https://github.com/russross/blackfriday/issues/696 (open; the same
// input is among gomarkdown/markdown's fuzz crashers, fixed in that fork).
package blackfridaylistitem

import (
	"example.com/bugkit"
	"github.com/russross/blackfriday/v2"
)

// Issue is the upstream report.
const Issue = "https://github.com/russross/blackfriday/issues/696"

// Site is the index past the end of data in listItem, any caller (list,
// called by block or by paragraph). The version also has
// russross/blackfriday#416 (scanLinkRef, markdown.go:659), which panics
// elsewhere.
var Site = bugkit.Site{Func: "github.com/russross/blackfriday/v2.(*Markdown).listItem", File: "block.go", Lines: []int{1369}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Convert renders Markdown to HTML with the default extensions
// (CommonExtensions: tables, fenced code, autolinks, strikethrough,
// heading IDs, definition lists...), as a blog or wiki engine does.
func Convert(src []byte) []byte { return blackfriday.Run(src) }
