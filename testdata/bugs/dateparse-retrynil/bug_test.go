package dateparseretrynil

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/araddon/dateparse"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is a plain target (the project has no fuzz target at this
// version): a string through Parse, seeded with dates in the forms of the
// project's README and tests (ISO 8601, US and day-first numeric dates,
// mail and asctime dates, month names, a Unix timestamp, a Chinese date),
// all of which parse.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"2012-11-05T09:41:27Z",
		"2019-03-14 16:20:08.512 +0100 CET",
		"7/4/2016 11:30 PM",
		"23/11/2009 08:15:00",
		"2015.06.30",
		"Tue, 09 Aug 2011 21:04:37 -0500",
		"Sat Dec  1 06:05:04 2018",
		"March 3rd, 1998",
		"18 Apr 2021 13:07",
		"1461234567",
		"2017年09月26日",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _, _ = Parse(s)
	})
}

// FuzzGfz is the gfz target: date strings from the grammar generator, a
// tenth of them with near-miss edits; a string the library rejects is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	date := gens.DateString(gens.DateStringConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, _, err := Parse(date.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducers are the inputs of the fix's test (TestParseErrors, which it
// runs again with RetryAmbiguousDateWithSwap(true)) that panic at this
// version: a one-digit number, a JSON object, a number list, a word pair,
// and a date with a leading blank.
var reproducers = []string{`{"hello"}`, "3", "5,000-9,999", "xyzq-baad", " 2018-01-02 17:08:09 -07:00"}

func TestReproducer(t *testing.T) {
	// The fix's test calls ParseAny with the option.
	bugkit.ReproducerPanics(t, func() { _, _ = dateparse.ParseAny(reproducers[0], dateparse.RetryAmbiguousDateWithSwap(true)) }, "nil pointer dereference", IsBug)
	for _, s := range reproducers {
		bugkit.ReproducerPanics(t, func() { _, _, _ = Parse(s) }, "nil pointer dereference", IsBug)
	}
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: MustParse's documented panic on a string it cannot
// parse (without the option; no other panic of this version is
// reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _ = dateparse.MustParse("NOT GONNA HAPPEN") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
