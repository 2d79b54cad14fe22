// Package goldmarklist pins github.com/yuin/goldmark v1.1.9, where
// Convert panics with "interface conversion: ast.Node is *ast.CodeBlock,
// not *ast.ListItem" in the list parser (lastOffset) on a list inside a
// block quote whose continuation lines are indented with tabs:
// https://github.com/yuin/goldmark/issues/45.
package goldmarklist

import (
	"bytes"

	"example.com/bugkit"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// Issue is the upstream report.
const Issue = "https://github.com/yuin/goldmark/issues/45"

// Site is where the bug panics: the type assertion in lastOffset (inlined
// into, or called from, (*listParser).Continue).
var Site = bugkit.Site{
	Func:    "github.com/yuin/goldmark/parser.lastOffset",
	File:    "list.go",
	Callers: []string{"github.com/yuin/goldmark/parser.(*listParser).Continue"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// markdown is configured as the project's own fuzz target (fuzz/fuzz.go)
// at this version: unsafe HTML, GFM, footnotes, definition lists,
// typographer.
var markdown = goldmark.New(
	goldmark.WithRendererOptions(html.WithUnsafe()),
	goldmark.WithExtensions(extension.DefinitionList, extension.Footnote, extension.GFM, extension.Typographer),
)

// Convert renders a Markdown document to HTML.
func Convert(src []byte) error {
	var b bytes.Buffer
	return markdown.Convert(src, &b)
}
