// Package dateparseretrynil pins github.com/araddon/dateparse at
// v0.0.0-20210207001429-0eec95c9db7e (the master of February 2021; the
// project has no tagged release), where parsing with the
// RetryAmbiguousDateWithSwap(true) option panics (nil pointer dereference)
// on any string whose format the scanner does not recognise: parseTime
// installs, when the option is on, a deferred function that reads
// p.ambiguousMD to decide whether to retry a mm/dd date as dd/mm, but
// parseTime's early error returns ("Could not find format for ...",
// "unrecognized format, too short") set its named result p to nil, and the
// deferred function dereferences it. Every entry point that takes the
// options is affected (ParseAny, ParseIn, ParseLocal, ParseFormat,
// ParseStrict, MustParse). The option came with pull request #89 (2020);
// fixed by pull request #124 ("Fix possible panic", a nil check in the
// deferred function, merged as commit 6b43995,
// v0.0.0-20210429162001-6b43995a97de):
// https://github.com/araddon/dateparse/pull/124
//
// An error path on malformed input: a string the scanner gives up on (a
// leading blank or punctuation, a word that is no month or weekday, a
// number too short to be a year, the empty string, a form this version
// does not know such as mm-dd-yyyy), parsed with the option that
// day-first dates call for. The scanner's recursive calls (after it drops
// an ordinal suffix or a weekday) pass the options on, so the nil can also
// come from an inner call.
package dateparseretrynil

import (
	"time"

	"example.com/bugkit"
	"github.com/araddon/dateparse"
)

// Issue is the upstream report (the fix's pull request, whose description
// reports the panic; no issue was filed).
const Issue = "https://github.com/araddon/dateparse/pull/124"

// Site is the read of p.ambiguousMD in parseTime's deferred function
// (parseany.go:243), whatever entry point called parseTime.
var Site = bugkit.Site{Func: "github.com/araddon/dateparse.parseTime.func1", File: "parseany.go", Lines: []int{243}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// options are those of an importer that takes dates in unknown formats from
// anywhere: month first by default (the library's default), and a date
// whose month is out of range retried day first (the option's documented
// purpose: 20/5/2006 is the 20th of May).
var options = []dateparse.ParserOption{dateparse.RetryAmbiguousDateWithSwap(true)}

// Parse does what a log or spreadsheet importer does with a timestamp
// column of unknown format: it parses the string in UTC with
// ParseIn and the day/month swap retry, then asks ParseFormat for the
// layout it detected (to parse the rest of the column with time.Parse).
func Parse(s string) (time.Time, string, error) {
	t, err := dateparse.ParseIn(s, time.UTC, options...)
	if err != nil {
		return time.Time{}, "", err
	}
	layout, err := dateparse.ParseFormat(s, options...)
	if err != nil {
		return time.Time{}, "", err
	}
	return t.UTC(), layout, nil
}
