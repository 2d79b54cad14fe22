package goldmarklist

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the project's fuzz target (fuzz/fuzz.go, written for
// go-fuzz) as a native target, seeded with short CommonMark spec-style
// examples.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"# Heading\n\nSome *emphasis* and `code`.\n",
		"- foo\n- bar\n  - baz\n\n1. one\n2. two\n",
		"> quote\n> - item\n>\n> text\n",
		"```go\nfmt.Println()\n```\n\n    indented\n",
		"| a | b |\n|---|:-:|\n| 1 | 2 |\n\nterm\n: definition\n\n[^1]: note\n",
		"[link](/uri \"title\") ![img](/i.png) <http://a.b> ~~del~~\n",
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
		if err := Convert([]byte(doc.Draw(t))); err != nil {
			t.Fatal(err)
		}
	})
}

// reproducer is the input of the upstream report.
const reproducer = ">*\t>\n> \t0\n>\t\t0\n>0"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Convert([]byte(reproducer)) }, "not *ast.ListItem", IsBug)
}

func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
