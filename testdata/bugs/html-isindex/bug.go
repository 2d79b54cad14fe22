// Package htmlisindex pins golang.org/x/net at 26e67e76b6c3 (2018-09-11),
// where html.Parse dereferences the nil form pointer in inBodyIM when an
// <isindex> start tag comes inside a <template> (the template's contents
// are in table-body mode, which hands the tag to the "in body" rules, and
// those assume a form element exists):
// https://github.com/golang/go/issues/27704 (fixed by golang/net 2f5d2388).
package htmlisindex

import (
	"bytes"
	"io"
	"strings"

	"example.com/bugkit"
	"golang.org/x/net/html"
)

// Issue is the upstream report.
const Issue = "https://github.com/golang/go/issues/27704"

// Site is the nil dereference of p.form (setting the action attribute of
// the form an <isindex action=...> implies) in the "in body" rules, reached
// through the table modes that template contents use.
// The version has two other template bugs (golang/go#27702: a nil
// insertion mode called in parseCurrentToken; golang/go#27846: an empty
// stack popped in inHeadIM), which panic elsewhere.
var Site = bugkit.Site{Func: "golang.org/x/net/html.inBodyIM", File: "parse.go", Lines: []int{988}}

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
