// Package htmlselectloop pins golang.org/x/net at 4b62a64f59f7
// (2019-01-25), where html.Parse never returns on a <select> inside a
// table whose content holds MathML with another <select>
// ("<table><math><select><mi><select></table>"): in "in select in table"
// mode the </table> end tag implies a </select> that closes nothing, and
// the tag is reprocessed in the same mode forever:
// https://github.com/golang/go/issues/27842 (fixed by golang/net d26f9f9a).
package htmlselectloop

import (
	"bytes"
	"io"
	"strings"

	"example.com/bugkit"
	"golang.org/x/net/html"
)

// Issue is the upstream report.
const Issue = "https://github.com/golang/go/issues/27842"

// Site is where the looping goroutine is found: inSelectInTableIM, which
// implies the </select> and reprocesses the table tag (any line: the
// loop runs through it, and a dump taken in its callees shows it too).
var Site = bugkit.Site{Func: "golang.org/x/net/html.inSelectInTableIM", File: "parse.go"}

// IsBug reports whether a dump of the goroutines taken while an input ran
// too long (a SIGQUIT dump, a test timeout) is this bug.
func IsBug(stack string) bool { return Site.MatchHang(stack) }

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
