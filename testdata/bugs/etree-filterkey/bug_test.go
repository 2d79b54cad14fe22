package etreefilterkey

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is a plain target (etree has no fuzz target at v1.6.0):
// compile a path and run it on the catalog, seeded with paths in the
// style of the examples of the path language's documentation and of the
// project's path tests, over the catalog's names.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"/catalog",
		"//item[@lang='fr']/dc:title",
		".//item[year='1998'][1]",
		"./shelf/*[@status=\"available\"]",
		"//item/*[text()='worn spine']",
		".//item/price[@currency='EUR']/..",
		".//*[namespace-uri()='urn:example:extra']",
		"//shelf[2]/item[dc:creator]",
		"//*[local-name()='note'][namespace-prefix()]",
		"shelf/item[@code]//tag",
		"//desk[@x:staffed]",
		"./shelf[-1]//",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		_, _ = Find(path)
	})
}

// FuzzGfz is the gfz target: paths from the grammar generator over the
// catalog's names and values, a fifth of them with near-miss edits; a
// path that does not compile is an invalid input. No seeds: under plain
// go test it runs nothing.
func FuzzGfz(f *testing.F) {
	path := gens.EtreePath(gens.EtreePathConfig{
		Tags: Tags, Attrs: Attrs, Values: Values,
		Prefixes: Prefixes, NamespaceURIs: NamespaceURIs,
		MistakesPer: 200,
	})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Find(path.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the first of the two paths the fix adds to path_test.go's
// bad paths (the second, "./bookstore/book[@='WEB']", did not panic).
const reproducer = "./bookstore/book[='WEB']"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Find(reproducer) }, "index out of range [0] with length 0", IsBug)
	// The same read with the shortest quoted value, in a later segment,
	// after another filter, in double quotes.
	bugkit.ReproducerPanics(t, func() { _, _ = Find(`//shelf[@id='s2']/item[2][=""]`) }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this
// bug (no other panic of v1.6.0's parser or path compiler is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
