// Package globemptyalt pins github.com/gobwas/glob v0.2.3, whose matcher
// panics (slice bounds out of range) when a pattern holds a group of
// alternatives that can only match the empty string (an empty group
// "{}", a group of empty alternatives "{,}", or a "{" left open at the
// end of the pattern, which the v0.2.3 parser accepts) among terms of
// fixed length, and the string ends right where that group is matched,
// as "0{" on "0" (issue #56) or "/{a{*.json{" with '/' as separator on
// "/a/b/c/d/e/foo.json" (issue #59). The compiler glues the terms into a
// row of fixed-length matchers in which the group is a zero-length
// matcher; the row's matchAll walks the string once per matcher to
// take as many characters as the matcher's length, and for a length of
// zero at the end of the string it still slices one byte past it:
// https://github.com/gobwas/glob/issues/59 (first reported as #56; both
// closed by the v1 rewrite, pull request #73: the row matcher no longer
// exists in v1.0.0, where the reproducers do not panic).
//
// A matcher bug: the pattern must compile and the matched string must
// line up with the fixed-length terms before the empty group.
package globemptyalt

import (
	"example.com/bugkit"
	"github.com/gobwas/glob"
)

// Issue is the upstream report (issue #56 is the same bug, reported
// first with the pattern "0{").
const Issue = "https://github.com/gobwas/glob/issues/59"

// Site is the slicing s[idx:idx+next+1] in Row.matchAll (match/row.go:34),
// whatever the caller: Row.Match (the row is the whole pattern, "0{") or
// Row.Index (the row is a part of a larger matcher, issue #59's).
var Site = bugkit.Site{Func: "github.com/gobwas/glob/match.Row.matchAll", File: "row.go", Lines: []int{34}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Match compiles pattern with the runes of separators as separators and
// reports which of subjects it matches, as a file filter, a host allow
// list or a topic router built on the module does with a user's pattern.
func Match(pattern, separators string, subjects ...string) ([]bool, error) {
	g, err := glob.Compile(pattern, []rune(separators)...)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(subjects))
	for i, s := range subjects {
		out[i] = g.Match(s)
	}
	return out, nil
}
