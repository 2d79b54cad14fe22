// Package htmlfragloop pins golang.org/x/net v0.32.0, where
// html.ParseFragment without a context element never returns on a
// fragment that ends inside foreign content after a <head> ("<svg><head>
// <title><select><input>"): at the end of the input, the "after head"
// rules insert an implied <body> and hand the error token back without
// consuming it, so the parser's loop runs them again forever (adding
// elements each time):
// https://github.com/golang/go/issues/70179 (fixed in v0.33.0 by golang/net
// b935f7b5).
package htmlfragloop

import (
	"bytes"
	"strings"

	"example.com/bugkit"
	"golang.org/x/net/html"
)

// Issue is the upstream report.
const Issue = "https://github.com/golang/go/issues/70179"

// Site is where the looping goroutine is found: afterHeadIM's insertion
// of the implied <body> (parse.go:841, where the fix stops on the error
// token), called by parseCurrentToken. A dump taken at the instant the
// loop is in parse or in the foreign-content check between two calls
// does not match (take another).
var Site = bugkit.Site{Func: "golang.org/x/net/html.afterHeadIM", File: "parse.go", Lines: []int{841},
	Callers: []string{"golang.org/x/net/html.(*parser).parseCurrentToken"}}

// IsBug reports whether a dump of the goroutines taken while an input ran
// too long (a SIGQUIT dump, a test timeout) is this bug.
func IsBug(stack string) bool { return Site.MatchHang(stack) }

// ParseSnippet parses an HTML fragment without a context element and
// renders its nodes back, as a program cleaning user-supplied snippets
// does; the error is Render's (ParseFragment fails only when its reader
// does).
func ParseSnippet(doc string) error {
	nodes, err := html.ParseFragment(strings.NewReader(doc), nil)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	for _, n := range nodes {
		if err := html.Render(&b, n); err != nil {
			return err
		}
	}
	return nil
}
