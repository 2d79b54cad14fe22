// Package htmltemplatens pins golang.org/x/net at 2f5d2388922f
// (2018-09-21), where html.Parse calls a nil insertion mode when a
// <template> in the MathML or SVG namespace encloses another <template>:
// resetting the insertion mode takes the foreign <template> for an HTML
// one and pops an empty template-mode stack:
// https://github.com/golang/go/issues/27702 (fixed by golang/net cf3bd585).
package htmltemplatens

import (
	"bytes"
	"io"
	"strings"

	"example.com/bugkit"
	"golang.org/x/net/html"
)

// Issue is the upstream report.
const Issue = "https://github.com/golang/go/issues/27702"

// Site is the call of the nil insertion mode p.im in parseCurrentToken,
// called by the parser's loop. The version also has golang/go#27846 (an
// empty stack popped in inHeadIM), which panics elsewhere.
var Site = bugkit.Site{Func: "golang.org/x/net/html.(*parser).parseCurrentToken", File: "parse.go", Lines: []int{2188},
	Callers: []string{"golang.org/x/net/html.(*parser).parse"}}

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
