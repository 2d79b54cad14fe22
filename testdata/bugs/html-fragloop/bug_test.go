package htmlfragloop

import (
	"runtime"
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it for go test -fuzz, seeded
// with ordinary snippets like those of the package's tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"<p>Hello, <b>world</b>!</p>",
		"<p>Links:</p><ul><li><a href=\"foo\">Foo</a><li><a href=\"/bar/baz\">BarBaz</a></ul>",
		"<table><tr><td>1<td>2</tr><caption>c</caption></table>",
		"<form action=\"/x\"><input name=q><select><option>a<option selected>b</select></form>",
		"<template><p>t</p></template><svg><circle r=1 /></svg><math><mi>x</mi></math>",
		"<div id=a class='b c'>text &amp; more<br><img src=i.png></div><!-- comment -->",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		_ = ParseSnippet(doc)
	})
}

// FuzzGfz is the gfz target: HTML from the grammar generator, a fifth of
// it with near-miss edits; a fragment whose nodes Render rejects is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.HTML(gens.HTMLConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if err := ParseSnippet(doc.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the input the fix added to the package's tests.
const reproducer = "<svg><head><title><select><input>"

// TestReproducer runs the reproducer in a goroutine: the bug is present
// when ParseSnippet has not returned after 3 seconds (it takes
// microseconds at the fixed version). The looping goroutine keeps running
// until the test binary exits.
func TestReproducer(t *testing.T) {
	dump, hung := bugkit.CatchHang(func() { _ = ParseSnippet(reproducer) }, 3*time.Second)
	if !hung {
		t.Fatalf("ParseSnippet(%q) returned: the bug is not present at this version", reproducer)
	}
	// A dump taken at the instant the loop is between two calls of
	// afterHeadIM does not show the site: take up to ten more.
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
