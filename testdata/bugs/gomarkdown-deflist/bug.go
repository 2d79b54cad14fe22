// Package gomarkdowndeflist pins github.com/gomarkdown/markdown at
// afa4a469d4f9 (2024-07-23), where Parse never returns when a paragraph
// is followed by an empty definition-list item (an unclosed code fence,
// a blank line, then ": y"): paragraph hands the ":" line to list, which
// consumes nothing, and paragraph returns without advancing, so Block
// calls it again forever (adding an empty list each time):
// https://github.com/gomarkdown/markdown/issues/311 (CVE-2024-44337; fixed
// by a2a9c4f76ef5).
package gomarkdowndeflist

import (
	"example.com/bugkit"
	"github.com/gomarkdown/markdown"
)

// Issue is the upstream report.
const Issue = "https://github.com/gomarkdown/markdown/issues/311"

// Site is where the looping goroutine is found: paragraph's call of list
// for the definition-list item (block.go:1654, the branch the fix
// changed), called by Block. A dump taken at the instant Block is between
// two calls of paragraph does not match (the harness takes its dump after
// the timeout, when the loop spends nearly all its time in list and its
// finalisation).
var Site = bugkit.Site{Func: "github.com/gomarkdown/markdown/parser.(*Parser).paragraph", File: "block.go", Lines: []int{1654},
	Callers: []string{"github.com/gomarkdown/markdown/parser.(*Parser).Block"}}

// IsBug reports whether a dump of the goroutines taken while an input ran
// too long (a SIGQUIT dump, a test timeout) is this bug.
func IsBug(stack string) bool { return Site.MatchHang(stack) }

// Convert renders Markdown to HTML with the default parser (the common
// extensions, definition lists among them), as a blog or wiki engine
// does.
func Convert(src []byte) []byte { return markdown.ToHTML(src, nil, nil) }
