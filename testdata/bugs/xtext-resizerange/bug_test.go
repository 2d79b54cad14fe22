package xtextresizerange

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it for go test -fuzz (the
// project had none at this version), seeded with headers like those of
// the package's tests and examples.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"da, en-gb;q=0.8, en;q=0.7",
		"nl, fr-CH, *;q=0.5",
		"zh-Hant-TW, zh;q=0.9",
		"sr-Latn-RS, en-US-u-co-phonebk",
		"de-1901-u-co-phonebk-t-en-m0-ungegn, x-private",
		"en-GB-oed;q=0.3, i-klingon, und-Latn",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		_, _ = Negotiate(header)
	})
}

// FuzzGfz is the gfz target: Accept-Language headers from the BCP 47
// grammar generator, a fifth of them with near-miss edits; a header that
// does not parse is an invalid input. No seeds: under plain go test it
// runs nothing.
func FuzzGfz(f *testing.F) {
	header := gens.AcceptLanguage(gens.LangConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Negotiate(header.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the input of the fix's test.
const reproducer = "00-t-0o"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Negotiate(reproducer) }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// (an index out of range in Tag.findTypeForKey on a -u- extension, gone
// in v0.3.6; found by the generator while writing this module) is not
// this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Negotiate("en-fonipa_u-luabb-hc-ca-d-lsa4-72d") })
}
