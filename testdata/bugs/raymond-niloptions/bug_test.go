package raymondniloptions

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/aymerick/raymond"
	"github.com/gfz-dev/gfz"
)

// FuzzNative renders a template with the module's context (the project
// has no fuzz target; its "DUMP_TPL" switch only wrote test templates
// out for an external fuzzer), seeded with templates like those of the
// project's README and tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"<div class=\"entry\">\n  <h1>{{title}}</h1>\n  <div class=\"body\">\n    {{body}}\n  </div>\n</div>\n",
		"{{#if author}}<h1>{{author.firstName}} {{author.lastName}}</h1>{{else}}<h1>Unknown Author</h1>{{/if}}",
		"<ul class=\"people\">\n  {{#each people}}\n    <li>{{this}}</li>\n  {{/each}}\n</ul>",
		"{{#each posts}}{{@index}}: {{title}}{{#if @last}}.{{/if}}{{else}}<p class=\"empty\">No content</p>{{/each}}",
		"{{#with author}}<h2>By {{firstName}} {{lastName}}</h2>{{/with}}",
		"{{{body}}} {{&body}} \\{{escaped}}",
		"{{! a comment }}{{!-- a }} comment --}}{{> header}}",
		"{{#unless isActive}}<h3 class=\"warning\">WARNING</h3>{{/unless}}",
		"{{link title url}} {{upper site.name}} {{join people \", \"}}",
		"{{#each tags}}{{@key}}: {{this}} {{/each}}",
		"{{#equal nb 0}}nothing{{/equal}}",
		"{{#each posts as |post i|}}{{i}}. {{post.title}} {{~/each}}",
		"{{#people}}{{.}}{{/people}}{{^empty}}none{{/empty}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Render(s)
	})
}

// FuzzGfz is the gfz target: Handlebars templates from the grammar
// generator over the context's names and the registered helpers and
// partials, a tenth of them with near-miss edits; a template that does
// not parse or render is an invalid input. No seeds: under plain go test
// it runs nothing.
func FuzzGfz(f *testing.F) {
	var helpers []gens.HandlebarsHelper
	for _, name := range HelperNames {
		helpers = append(helpers, gens.HandlebarsHelper{Name: name, Params: Helpers[name]})
	}
	tpl := gens.Handlebars(gens.HandlebarsConfig{
		Fields: Fields, Lists: Lists, Objects: Objects, ItemFields: ItemFields,
		Helpers: helpers, Partials: PartialNames, MistakesPer: 100,
	})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Render(tpl.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's template (rendered there with an empty
// map[string]string; wat is not in Context either).
const reproducer = `{{#if wat[0].fnord}}wat{{/if}}`

func TestReproducer(t *testing.T) {
	const want = "invalid memory address or nil pointer dereference"
	bugkit.ReproducerPanics(t, func() { _, _ = Render(reproducer) }, want, IsBug)
	// The same through raymond.Render and the report's context.
	bugkit.ReproducerPanics(t, func() { _, _ = raymond.Render(reproducer, map[string]string{}) }, want, IsBug)
	// One argument too many, missing from the context, for the other
	// built-in helpers: each of Others.
	for _, tpl := range []string{
		`{{#unless isActive missing}}inactive{{/unless}}`,
		`{{#with nothing missing}}{{firstName}}{{else}}none{{/with}}`,
		`{{#each empty undefined}}<li>{{this}}</li>{{/each}}`,
		`{{#with author missing}}{{firstName}}{{/with}}`,
		`{{#each people null}}<li>{{this}}</li>{{/each}}`,
		`{{#equal nb 0 missing}}nothing{{/equal}}`,
		`{{lookup site "name" missing}}`,
	} {
		bugkit.ReproducerPanics(t, func() { _, _ = Render(tpl) }, want, IsBug)
	}
}

// TestOracleRejectsOtherPanics checks that other panics are not this bug
// (no other panic of v2.0.2 is reported): lookup of a negative index in
// a list (evalField indexes the slice with it: reflect.Value.Index
// panics, eval.go:340, reached through the options' Eval that the bug's
// lookup site also names), MustRender's documented panic on a template
// that does not parse, RegisterHelper's on a name already registered,
// and a nil options dereferenced outside the built-in helpers.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Render(`{{lookup people -1}}`) })
	bugkit.RejectsPanic(t, IsBug, func() { raymond.MustRender("{{#if title}}unclosed", Context) })
	bugkit.RejectsPanic(t, IsBug, func() { raymond.RegisterHelper("if", func() string { return "" }) })
	bugkit.RejectsPanic(t, IsBug, func() { _ = (*raymond.Options)(nil).HashProp("includeZero") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
