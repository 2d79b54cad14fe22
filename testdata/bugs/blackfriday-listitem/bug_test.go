package blackfridaylistitem

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it for go test -fuzz (the
// project has none), seeded with documents like those of its tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"# Heading\n\nSome *emphasis* and `code`.\n",
		"* foo\n* bar\n    * baz\n\n1. one\n2. two\n",
		"> quote\n> - item\n>\n> text\n",
		"```go\nfmt.Println()\n```\n\n    indented\n",
		"Name | Age\n-----|----\nBob  | 27\n\nTerm\n: Definition\n",
		"[link](/uri \"title\") ![img](/i.png) http://a.b ~~del~~\n\n[ref]: /url \"T\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_ = Convert(src)
	})
}

// FuzzGfz is the gfz target: Markdown documents from the grammar
// generator, a fifth of them with near-miss edits. Every document is
// Markdown, so none is invalid. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.Markdown(gens.MarkdownConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		_ = Convert([]byte(doc.Draw(t)))
	})
}

// reproducer is the input of the upstream report.
const reproducer = ": \n\n0\n00"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Convert([]byte(reproducer)) }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that the other reported panic of
// this version (russross/blackfriday#416) is not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
	bugkit.RejectsPanic(t, IsBug, func() { _ = Convert([]byte("[0]:<")) })
}
