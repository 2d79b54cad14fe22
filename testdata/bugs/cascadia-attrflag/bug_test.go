package cascadiaattrflag

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/andybalholm/cascadia"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the project's go-fuzz target (fuzz/fuzz.go at v1.3.0:
// compile, and fail when an error comes with a selector) turned native,
// plus matching the compiled selector on the page, seeded with selectors
// like those of the project's tests (test_resources/valid_selectors.json).
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"div",
		"#main p.item",
		"ul > li:nth-child(2n+1)",
		`a[href^="https://"]`,
		"input[type=checkbox]:checked",
		"p:not(.active), td ~ td",
		"li:has(a) + li",
		`p:contains("Hello")`,
		":root > body div:first-of-type",
		"[lang|=fr]",
		`li:matches(^\w+$)`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := cascadia.Compile(s)
		if err != nil {
			if sel != nil {
				t.Fatal("sel != nil on error")
			}
			return
		}
		sel.MatchAll(page)
	})
}

// FuzzGfz is the gfz target: selector lists from the grammar generator
// over the page's names, a fifth of them with near-miss edits; a
// selector that does not compile is an invalid input. No seeds: under
// plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	sel := gens.CSSSelector(gens.CSSSelectorConfig{Tags: Tags, Classes: Classes, IDs: IDs, Attrs: Attrs, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Select(sel.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the fix's selector (its commit message and the test case
// it adds to test_resources/invalid_selectors.json).
const reproducer = "[a=a i"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Select(reproducer) }, "index out of range", IsBug)
	// The same read inside a functional pseudo-class.
	bugkit.ReproducerPanics(t, func() { _, _ = Select(`a:not([href$=".pdf" I`) }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this
// bug (no other panic of v1.3.0 is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
