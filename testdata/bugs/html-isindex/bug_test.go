package htmlisindex

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it for go test -fuzz, seeded
// with ordinary documents like those of the package's tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"<!DOCTYPE html><html><head><title>T</title></head><body><p>Hello, <b>world</b>!</p></body></html>",
		"<p>Links:</p><ul><li><a href=\"foo\">Foo</a><li><a href=\"/bar/baz\">BarBaz</a></ul>",
		"<table><tr><td>1<td>2</tr><caption>c</caption></table>",
		"<form action=\"/x\"><input name=q><select><option>a<option selected>b</select></form>",
		"<template><p>t</p></template><svg><circle r=1 /></svg><math><mi>x</mi></math>",
		"<div id=a class='b c'>text &amp; more<br><img src=i.png></div><!-- comment -->",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		_ = Parse(doc)
	})
}

// FuzzGfz is the gfz target: HTML from the grammar generator, a fifth of
// it with near-miss edits; a document whose tree Render rejects is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.HTML(gens.HTMLConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if err := Parse(doc.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the input of the upstream report.
const reproducer = "<template><tBody><isindex/action=0>"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Parse(reproducer) }, "nil pointer dereference", IsBug)
}

// TestOracleRejectsOtherPanics checks that the two other template bugs of
// this version (golang/go#27702 and #27846, inputs of their fixes' tests)
// are not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
	bugkit.RejectsPanic(t, IsBug, func() { _ = Parse("<math><template><mo><template>") })
	bugkit.RejectsPanic(t, IsBug, func() { _ = Parse("<math><template><mn><b></template>") })
}
