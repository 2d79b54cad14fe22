package tdparsetmpleof

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/tdewolff/parse/v2"
)

// FuzzNative is a plain target (the project has no fuzz target of its
// HTML lexer at v2.7.6): a document and the template language, lexed
// to the end. Its seeds are templates like those of the project's
// TestTemplates and of minify's TestHTMLTemplates, plus an EJS, an ASP
// and a PHP view; every template action in them is closed and followed
// by more of the document.
func FuzzNative(f *testing.F) {
	for _, s := range []struct {
		doc  string
		lang uint8
	}{
		{"<p>{{.}}</p>", 0},
		{"<input type='{{.}}'/>", 0},
		{"<input {{if eq .Type 0}} selected {{end}}>", 0},
		{`a<p>  {{ printf "  !  " }}  </p>b`, 0},
		{`<option value="0" {{ if eq .Type 0 }}selected{{ end }}>Foo</option>`, 0},
		{"<style>a { color: {{.Color}} }</style>\n", 0},
		{"<script>alert( {{.Alert}} )</script>\n", 0},
		{"<ul>{{#each items}}<li>{{name}}</li>{{/each}}</ul>\n", 1},
		{"<h1><%= title %></h1>\n<% if (user) { %><p><%- user.name %></p><% } %>\n", 2},
		{"<table><% For Each item In items %><tr><td><%= item %></td></tr><% Next %></table>\n", 3},
		{"<!DOCTYPE html>\n<title><?= htmlspecialchars($title) ?></title>\n<?php foreach ($posts as $p): ?><a href=\"<?= $p->url ?>\">x</a><?php endforeach; ?>\n</body>\n", 4},
	} {
		f.Add(s.doc, s.lang)
	}
	f.Fuzz(func(t *testing.T, doc string, lang uint8) {
		_, _ = Tokenize(doc, Languages[int(lang)%len(Languages)])
	})
}

// FuzzGfz is the gfz target: a template language, then an HTML template
// in it from the grammar generator, a tenth of them with near-miss
// edits; a document the lexer rejects is an invalid input. No seeds:
// under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	docs := make([]gen.Generator[string], len(Languages))
	for i := range Languages {
		docs[i] = gens.HTMLTemplate(gens.HTMLTemplateConfig{Lang: gens.TemplateLang(i), MistakesPer: 100})
	}
	gfz.Fuzz(f, func(t *gfz.T) {
		i := gen.IntRange(0, len(Languages)-1).Draw(t)
		if _, err := Tokenize(docs[i].Draw(t), Languages[i]); err != nil {
			t.Skip(err)
		}
	})
}

// The fix's test cases (an action left open, and one with an open quote).
var reproducers = []string{"{{", "{{'"}

func TestReproducer(t *testing.T) {
	for _, doc := range reproducers {
		bugkit.ReproducerPanics(t, func() { _, _ = Tokenize(doc, Languages[0]) }, "index out of range", IsBug)
	}
	// The report's setting: a PHP view whose last block has no closing
	// tag, as a file that ends in code leaves it out.
	php := "<!DOCTYPE html>\n<title><?= $title ?></title>\n<p>Hello</p>\n<?php\nget_footer();\n"
	bugkit.ReproducerPanics(t, func() { _, _ = Tokenize(php, Languages[4]) }, "index out of range", IsBug)
	// An action closed exactly at the end of the input.
	layout := `{{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}`
	bugkit.ReproducerPanics(t, func() { _, _ = Tokenize(layout, Languages[0]) }, "index out of range", IsBug)
	// An apostrophe in a comment: the lexer skips the "string" it opens
	// to the end of the input.
	comment := "{{/* don't cache */}}\n<p>{{ .Name }}</p>\n"
	bugkit.ReproducerPanics(t, func() { _, _ = Tokenize(comment, Languages[0]) }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug
// (no other panic of v2.7.6's HTML lexer is reported): the generic one,
// and a read past an input's end in Input.Peek from another caller.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
	bugkit.RejectsPanic(t, IsBug, func() { parse.NewInputString("<p>").Peek(8) })
}
