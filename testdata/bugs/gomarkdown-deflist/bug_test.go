package gomarkdowndeflist

import (
	"runtime"
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/gomarkdown/markdown"
)

// FuzzNative is the project's go-fuzz target (fuzz.go: Parse(data, nil))
// as a native target, seeded with documents like those of the project's
// tests.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		markdown.Parse(data, nil)
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

// reproducer is the input of the fix's test (TestBug311).
const reproducer = "~~~~\xb4~\x94~\x94~\xd1\r\r:\xb4\x94\x94~\x9f~\xb4~\x94~\x94\x94"

// TestReproducer runs the reproducer in a goroutine: the bug is present
// when Convert has not returned after 3 seconds (it takes microseconds
// at the fixed version). The looping goroutine keeps running until the
// test binary exits.
func TestReproducer(t *testing.T) {
	dump, hung := bugkit.CatchHang(func() { _ = Convert([]byte(reproducer)) }, 3*time.Second)
	if !hung {
		t.Fatalf("Convert(%q) returned: the bug is not present at this version", reproducer)
	}
	// A dump taken at the instant Block is between two calls of paragraph
	// does not show the site: take up to ten more.
	for i := 0; i < 10 && !IsBug(dump); i++ {
		time.Sleep(10 * time.Millisecond)
		buf := make([]byte, 1<<20)
		dump = string(buf[:runtime.Stack(buf, true)])
	}
	if !IsBug(dump) {
		t.Errorf("IsBug does not recognise the hung goroutine (site %v):\n%s", Site, dump)
	}
}

func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
