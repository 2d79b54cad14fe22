// Package raymondniloptions pins github.com/aymerick/raymond v2.0.2 (the
// module's last release, v2.0.2+incompatible), a Handlebars
// implementation, whose evaluator hands a built-in helper a nil *Options
// when the helper is called with one argument more than it takes and that
// argument evaluates to nothing (a missing field, null, undefined), as
// {{#if wat[0].fnord}} (the lexer reads "wat" and "[0].fnord" as two
// arguments) or {{#if a b}} with b missing: callFunc's arity check
// (eval.go:594-603) accepts as many arguments as the helper has
// parameters, the options parameter included, and a missing argument
// becomes the zero value of the parameter's type (eval.go:612-613), so
// the last, options, parameter gets a nil pointer, and the helper panics
// with a nil pointer dereference at its first use of the options. Reported as
// https://github.com/aymerick/raymond/issues/34 ("Nil reference in `if`
// statement panics"), closed with the label "wontfix"; there is no fixed
// release (the mailgun/raymond/v2 fork, at v2.0.48, still panics).
//
// A semantic bug of the evaluator on a template that parses: a block or
// simple expression of a built-in helper (if, unless, with, each, lookup,
// equal) with one argument too many whose value is missing.
package raymondniloptions

import (
	"io"
	"log"
	"reflect"

	"example.com/bugkit"
	"github.com/aymerick/raymond"
)

// Issue is the upstream report.
const Issue = "https://github.com/aymerick/raymond/issues/34"

const pkg = "github.com/aymerick/raymond."

// Site is the report's panic: the if helper's includeZero check reads the
// nil options' hash (HashProp at helper.go:129, inlined through
// isIncludableZero).
var Site = bugkit.Site{Func: pkg + "(*Options).HashProp", File: "helper.go", Lines: []int{129},
	Callers: []string{pkg + "(*Options).isIncludableZero", pkg + "ifHelper"}}

// Others are the same nil options dereferenced first elsewhere, in the
// other built-in helpers that take options: unless (the same check),
// with and each (Inverse when the argument is falsy; FnWith, and each's
// data frame, when it is not), equal (Fn when both values are equal) and
// lookup (Eval when the object and the field name are given).
var Others = []bugkit.Site{
	{Func: pkg + "(*Options).HashProp", File: "helper.go", Lines: []int{129},
		Callers: []string{pkg + "(*Options).isIncludableZero", pkg + "unlessHelper"}},
	{Func: pkg + "(*Options).Inverse", File: "helper.go", Lines: []int{234}, Callers: []string{pkg + "withHelper"}},
	{Func: pkg + "(*Options).Inverse", File: "helper.go", Lines: []int{234}, Callers: []string{pkg + "eachHelper"}},
	{Func: pkg + "(*Options).evalBlock", File: "helper.go", Lines: []int{204},
		Callers: []string{pkg + "(*Options).FnWith", pkg + "withHelper"}},
	{Func: pkg + "(*Options).newIterDataFrame", File: "helper.go", Lines: []int{193}, Callers: []string{pkg + "eachHelper"}},
	{Func: pkg + "(*Options).evalBlock", File: "helper.go", Lines: []int{204},
		Callers: []string{pkg + "(*Options).Fn", pkg + "equalHelper"}},
	{Func: pkg + "(*Options).Eval", File: "helper.go", Lines: []int{251}, Callers: []string{pkg + "lookupHelper"}},
}

// IsBug reports whether a failure's stack trace is this bug: a panic at
// Site or at one of Others.
func IsBug(stack string) bool {
	if Site.MatchPanic(stack) {
		return true
	}
	for _, s := range Others {
		if s.MatchPanic(stack) {
			return true
		}
	}
	return false
}

// Person is a struct in the context (raymond reads exported fields by
// their name or its lower-case form, and calls methods).
type Person struct {
	FirstName string
	LastName  string
	Email     string
}

// FullName is a context function.
func (p Person) FullName() string { return p.FirstName + " " + p.LastName }

// Context is the data every template is rendered with, in the style of the
// project's README and tests: strings, numbers, booleans, a struct,
// arrays of strings and of objects, maps, empty and nil values.
var Context = map[string]interface{}{
	"title":      "My first post!",
	"body":       "<p>This is my first post!</p>",
	"author":     Person{FirstName: "Jean", LastName: "Valjean", Email: "jean@example.com"},
	"people":     []string{"Marcel", "Jean-Claude", "Yvette"},
	"isActive":   false,
	"isInactive": true,
	"nb":         0,
	"count":      3,
	"price":      9.99,
	"url":        "https://example.com/?a=1&b=2",
	"empty":      []string{},
	"nothing":    nil,
	"site":       map[string]interface{}{"name": "raymond", "url": "https://example.com/", "lang": "fr"},
	"tags":       map[string]string{"go": "Go", "hbs": "Handlebars"},
	"posts": []map[string]interface{}{
		{"id": 1, "title": "Hello", "body": "First", "published": true, "comments": []string{"nice", "+1"}},
		{"id": 2, "title": "<b>World</b>", "body": "", "published": false, "comments": []string{}},
	},
}

// Fields, Lists, Objects and ItemFields are the context's names, for the
// generator: values, iterables, objects (for with), and the fields of
// the iterated elements and objects.
var (
	Fields     = []string{"title", "body", "author.firstName", "author.lastName", "author.FullName", "isActive", "isInactive", "nb", "count", "price", "url", "nothing", "site.name", "site.url", "posts.[0].title", "people.[1]"}
	Lists      = []string{"people", "posts", "tags", "empty", "author", "posts.[0].comments"}
	Objects    = []string{"author", "site", "posts.[0]", "tags", "nothing"}
	ItemFields = []string{"title", "body", "id", "published", "comments", "firstName", "lastName", "email", "name", "url", "lang", "go"}
)

// Helpers are the custom helpers a program registers (none takes the
// options argument), with their number of parameters.
var Helpers = map[string]int{"upper": 1, "link": 2, "join": 2}

// HelperNames lists Helpers in a fixed order.
var HelperNames = []string{"upper", "link", "join"}

// Partials are the partials the program registers.
var Partials = map[string]string{
	"header": `<h1>{{title}}</h1>`,
	"person": `{{firstName}} {{lastName}}`,
	"item":   `<li>{{title}}{{#if published}} *{{/if}}</li>`,
}

// PartialNames lists Partials in a fixed order.
var PartialNames = []string{"header", "person", "item"}

func init() {
	// The log helper writes through the standard logger; a server sends
	// that to its log, here to nowhere.
	log.SetOutput(io.Discard)
	raymond.RegisterHelper("upper", func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if 'a' <= c && c <= 'z' {
				b[i] = c - 'a' + 'A'
			}
		}
		return string(b)
	})
	raymond.RegisterHelper("link", func(text, url string) raymond.SafeString {
		return raymond.SafeString(`<a href="` + raymond.Escape(url) + `">` + raymond.Escape(text) + `</a>`)
	})
	raymond.RegisterHelper("join", func(list interface{}, sep string) string {
		v := reflect.ValueOf(list)
		if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
			return raymond.Str(list)
		}
		out := ""
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				out += sep
			}
			out += raymond.Str(v.Index(i).Interface())
		}
		return out
	})
	for _, name := range PartialNames {
		raymond.RegisterPartial(name, Partials[name])
	}
}

// Render parses a template and renders it with Context, as a program that
// renders user-supplied or stored templates (e-mails, pages) does.
func Render(source string) (string, error) {
	tpl, err := raymond.Parse(source)
	if err != nil {
		return "", err
	}
	return tpl.Exec(Context)
}
