// Package htmlnodestack pins golang.org/x/net at ed066c81e75e
// (2019-01-19), where html.Parse pops an empty stack in inHeadIM when a
// </template> end tag closes a <template> of the MathML or SVG namespace
// after an HTML element inside it: the parser looks up the open
// <template> without checking its namespace, so it handles the end tag as
// closing an HTML template that was never opened:
// https://github.com/golang/go/issues/27846 (fixed by golang/net 4b62a64f).
package htmlnodestack

import (
	"bytes"
	"io"
	"strings"

	"example.com/bugkit"
	"golang.org/x/net/html"
)

// Issue is the upstream report.
const Issue = "https://github.com/golang/go/issues/27846"

// Site is the </template> rule of inHeadIM, where it pops the template
// insertion mode stack (the report's trace) or, through
// clearActiveFormattingElements, the active formatting elements (the
// second input of the fix's tests): both are empty.
var Site = bugkit.Site{Func: "golang.org/x/net/html.inHeadIM", File: "parse.go", Lines: []int{LineClear, LinePop},
	Inner: []string{"golang.org/x/net/html.(*insertionModeStack).pop", "golang.org/x/net/html.(*nodeStack).pop",
		"golang.org/x/net/html.(*parser).clearActiveFormattingElements"}}

// The lines of the two pops in inHeadIM at the pinned version.
const (
	LineClear = 675
	LinePop   = 676
)

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Parse parses an HTML document and renders it back, as a program that
// sanitises or rewrites pages does; the error is Render's (Parse fails
// only when its reader does).
func Parse(doc string) error {
	n, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return err
	}
	var b bytes.Buffer
	return html.Render(io.Writer(&b), n)
}
