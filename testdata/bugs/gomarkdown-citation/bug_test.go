package gomarkdowncitation

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the project's go-fuzz target (fuzz.go: Parse(data, nil))
// as a native target, with the parser of Convert (the project's target
// uses the common extensions only, which never parse a citation), seeded
// with documents like those of the project's tests and Mmark's syntax
// page.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"# Heading\n\nSome *emphasis* and `code`.\n",
		"* foo\n* bar\n    * baz\n\n1. one\n2. two\n",
		"Name | Age\n-----|----\nBob  | 27\n\nTerm\n: Definition\n",
		"As shown in [@RFC2119; @!RFC8174, section 2] and (#intro).\n",
		"{#intro}\n## Introduction\n\nIndex (!item, sub) and H~2~O 2^10^.\n\nA> An aside.\n",
		"%%%\ntitle = \"Doc\"\n%%%\n\n{mainmatter}\n\n    code <<1>>\n\nFigure: A caption.\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_ = Convert(src)
	})
}

// FuzzGfz is the gfz target: Markdown documents with the Mmark dialect
// from the grammar generator, a fifth of them with near-miss edits. Every
// document is Markdown, so none is invalid. No seeds: under plain go test
// it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.Markdown(gens.MarkdownConfig{MistakesPer: 200, Mmark: true})
	gfz.Fuzz(f, func(t *gfz.T) {
		_ = Convert([]byte(doc.Draw(t)))
	})
}

// reproducer is the smallest input the advisory's description implies (a
// citation of "@" alone); the fix's test data is not public.
const reproducer = "[@]"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Convert([]byte(reproducer)) }, "index out of range", IsBug)
}

func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
