// Package shbquote pins mvdan.cc/sh/v3 v3.9.0, whose parser panics
// (slice bounds out of range [:-1]) on a backquoted command substitution
// in which a "$" that starts no expansion is followed by an escaped
// backslash, as "`\$\\000`": inside backquotes the lexer counts the
// backslashes it skips in the width of the rune it returns, and endLit
// cuts that width off a literal holding fewer bytes:
// https://github.com/mvdan/sh/issues/1098 (found by fuzzing; fixed in
// v3.10.0 by 0068634d, "syntax: include skipped backslashes in backticks
// for column numbers").
package shbquote

import (
	"strings"

	"example.com/bugkit"
	"mvdan.cc/sh/v3/syntax"
)

// Issue is the upstream report.
const Issue = "https://github.com/mvdan/sh/issues/1098"

// Site is the slice of the literal's bytes in the lexer's endLit (an
// inlined frame), any caller (advanceNameCont in the report; the other
// literal scanners end their literals there too).
var Site = bugkit.Site{Func: "mvdan.cc/sh/v3/syntax.(*Parser).endLit", File: "lexer.go", Lines: []int{827}}

// AssignSite is where the same shortened literal panics when it is an
// assignment (`a=\$\\0` inside backquotes): the parser slices the
// assignment's name and value out of it in getAssign. Such inputs panic
// at the fix's parent and not at the fix (0068634d): the same bug.
var AssignSite = bugkit.Site{Func: "mvdan.cc/sh/v3/syntax.(*Parser).getAssign", File: "parser.go", Lines: []int{1475}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) || AssignSite.MatchPanic(stack) }

// Format parses a Bash script keeping its comments and prints it back
// in the canonical format, as shfmt does.
func Format(src string) (string, error) {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}
