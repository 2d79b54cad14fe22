package xpathsubstring

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is a plain target (the project has no fuzz target at
// v1.3.8): compile and evaluate on the document, seeded with expressions
// like those of the project's tests (xpath_function_test.go,
// xpath_predicate_test.go, xpath_axes_test.go).
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"//book[@lang='en']/title",
		"count(//book)",
		`concat(//book[1]/title, ", ", //book[1]/@year)`,
		"//shelf[2]/*[position() > 1]",
		"sum(//book/@price) div count(//book)",
		`//book[contains(title, "Prince")]/author`,
		"normalize-space(//note)",
		`translate("bar", "abc", "ABC")`,
		"//author/ancestor::shelf/@id",
		"boolean(//*[@issue]) and not(//dvd/text())",
		"//title[starts-with(., 'F')] | //magazine/price",
		"string-length(//book[last()]/title) mod 3",
		`substring-before("1999/04/01", "/")`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Evaluate(s)
	})
}

// FuzzGfz is the gfz target: XPath 1.0 expressions from the grammar
// generator over the document's names, a fifth of them with near-miss
// edits; an expression that does not compile or whose evaluation the
// library rejects is an invalid input. No seeds: under plain go test it
// runs nothing.
func FuzzGfz(f *testing.F) {
	expr := gens.XPath(gens.XPathConfig{Elements: Elements, Attributes: Attributes, Strings: Strings, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Evaluate(expr.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the first expression of pull request #138's report (its
// start and length together pass the string's end).
const reproducer = `substring("12345", 3, 5)`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Evaluate(reproducer) }, "slice bounds out of range", IsBug)
	// The report's NaN length, and the string taken from the document.
	bugkit.ReproducerPanics(t, func() { _, _ = Evaluate(`substring("12345", 1, number("abc"))`) }, "slice bounds out of range", IsBug)
	bugkit.ReproducerPanics(t, func() { _, _ = Evaluate(`//book[substring(title, 4, 10) = "Go"]`) }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that other panics of v1.3.8 are not
// this bug: number() without its optional argument dereferences a nil
// argument query in functionArgs (issue #118's panic, fixed for string()
// only in v1.3.5), and substring's two-argument form with a NaN start
// slices at func.go:518, which v1.3.9 does not fix.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Evaluate("number()") })
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Evaluate(`substring("abc", number("x"))`) })
}
