// Package blackfridaylinkref pins github.com/russross/blackfriday/v2
// v2.1.0 (its latest release), where Run indexes past the end of the
// input in scanLinkRef when a link reference definition's destination
// starts with "<" and the input ends there ("[0]:<"):
// https://github.com/russross/blackfriday/issues/416 (open; reported again
// as #695; the v1 form "[]:<" was #172, fixed in v1 by PR #176 and #250).
package blackfridaylinkref

import (
	"example.com/bugkit"
	"github.com/russross/blackfriday/v2"
)

// Issue is the upstream report.
const Issue = "https://github.com/russross/blackfriday/issues/416"

// Site is the index past the end of data in scanLinkRef (called by
// isReference). The version also has russross/blackfriday#696 (listItem,
// block.go:1369), which panics elsewhere.
var Site = bugkit.Site{Func: "github.com/russross/blackfriday/v2.scanLinkRef", File: "markdown.go", Lines: []int{659}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Convert renders Markdown to HTML with the default extensions
// (CommonExtensions: tables, fenced code, autolinks, strikethrough,
// heading IDs, definition lists...), as a blog or wiki engine does.
func Convert(src []byte) []byte { return blackfriday.Run(src) }
