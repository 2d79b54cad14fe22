// Package xtextresizerange pins golang.org/x/text v0.3.4, where
// language.Parse (and ParseAcceptLanguage, which calls it) slices out of
// range in the tag scanner's resizeRange when canonicalising a tag shrinks
// or grows a subtag in the scanner's buffer (a "-t-" extension after an
// ill-formed language, "00-t-0o"):
// https://github.com/golang/go/issues/42536 (fixed in v0.3.5 by
// golang/text 4482a91).
package xtextresizerange

import (
	"example.com/bugkit"
	"golang.org/x/text/language"
)

// Issue is the upstream report.
const Issue = "https://github.com/golang/go/issues/42536"

// Site is the slice expression of resizeRange, any caller (replace, from
// parseTag or parseExtensions).
var Site = bugkit.Site{Func: "golang.org/x/text/internal/language.(*scanner).resizeRange", File: "parse.go", Lines: []int{142}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Negotiate parses an HTTP Accept-Language header and matches it against
// the languages a server supports, as a web server choosing a
// translation does.
func Negotiate(header string) (language.Tag, error) {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil {
		return language.Und, err
	}
	tag, _, _ := matcher.Match(tags...)
	return tag, nil
}

var matcher = language.NewMatcher([]language.Tag{language.English, language.German, language.BrazilianPortuguese, language.SimplifiedChinese, language.Make("sr-Latn")})
