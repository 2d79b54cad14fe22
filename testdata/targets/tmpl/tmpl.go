// Package tmpl holds two realistic gfz targets on Go's template packages,
// whose inputs are generated templates (actions, pipelines, variables, if,
// range, with, define, template, block, break and continue, comments, trim
// markers, the builtin functions) run against a fixed data value:
//
//   - FuzzTemplate: text/template's parser and executor. An input is
//     INVALID when text/template does not parse it. A panic anywhere in
//     text/template is a FAILURE, and so is a violation of the round-trip
//     property checked on parsed templates: the text printed from a parse
//     tree parses again and prints the same text.
//   - FuzzHTMLTemplate: html/template's contextual escaper on templates
//     whose text moves it between HTML, attribute, URL, script, style,
//     comment and RCDATA contexts. An input is INVALID when it does not
//     parse; a panic is a FAILURE, and so is an execution whose output or
//     error differs from the template's first execution (the escaper
//     rewrites the template once, on the first execution).
//
// Execution errors (a missing field, calling a non-function, a wrong
// argument type, a template html/template refuses to escape) are ordinary
// results of a valid template.
package tmpl

import (
	"bytes"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"strings"
	"text/template"
)

// Funcs are the extra functions templates may call.
var Funcs = template.FuncMap{
	"upper": strings.ToUpper,
	"join":  strings.Join,
	"add":   func(a, b int) int { return a + b },
	"fail":  func() (string, error) { return "", errors.New("fail called") },
	"list":  func(v ...any) []any { return v },
}

// Item is an element of Data's slices.
type Item struct {
	Name  string
	Count int
	Tags  []string
	Next  *Item
}

// String prints an item without addresses, so that a template printing
// one prints the same text in every execution.
func (i Item) String() string { return fmt.Sprintf("item(%s,%d,%v)", i.Name, i.Count, i.Tags) }

// Label is a method with a result, callable from a template.
func (i Item) Label(prefix string) string { return prefix + i.Name }

// Data is the value every template runs against.
type Data struct {
	Title string
	N     int
	Ok    bool
	Items []Item
	Map   map[string]int
	Any   any
	Ptr   *Item
	Nil   *Item
	Fn    func(int) int
}

// Value returns a fresh Data (templates cannot modify it, but a fresh one
// keeps executions independent).
func Value() Data {
	a := &Item{Name: "a", Count: 1, Tags: []string{"x"}}
	return Data{
		Title: "Hello, <world> & \"you\"",
		N:     3,
		Ok:    true,
		Items: []Item{*a, {Name: "b", Count: 2, Next: a}, {Name: "", Count: -1, Tags: []string{"y", "z"}}},
		Map:   map[string]int{"one": 1, "two": 2, "zero": 0},
		Any:   []int{4, 5},
		Ptr:   a,
		Fn:    func(x int) int { return x * 2 },
	}
}

// ErrWriteLimit ends an execution whose output grew past Limit bytes.
var ErrWriteLimit = errors.New("output limit reached")

// Limit caps one execution's output.
const Limit = 1 << 16

type limited struct{ n int }

func (w *limited) Write(p []byte) (int, error) {
	w.n += len(p)
	if w.n > Limit {
		return 0, ErrWriteLimit
	}
	return len(p), nil
}

// Parse parses src as a template named "t" with Funcs.
func Parse(src string) (*template.Template, error) {
	return template.New("t").Funcs(Funcs).Parse(src)
}

// RoundTrip checks that every tree of tm prints as text that parses again
// and prints the same.
func RoundTrip(tm *template.Template) error {
	for _, t := range tm.Templates() {
		if t.Tree == nil || t.Tree.Root == nil {
			continue
		}
		printed := t.Tree.Root.String()
		again, err := template.New(t.Name()).Funcs(Funcs).Parse(printed)
		if err != nil {
			return fmt.Errorf("template %q printed as %q does not parse: %w", t.Name(), printed, err)
		}
		if again.Tree == nil || again.Tree.Root == nil {
			if strings.TrimSpace(printed) != "" {
				return fmt.Errorf("template %q printed as %q parses to nothing", t.Name(), printed)
			}
			continue
		}
		if p2 := again.Tree.Root.String(); p2 != printed {
			return fmt.Errorf("template %q: printed %q, reprinted %q", t.Name(), printed, p2)
		}
	}
	return nil
}

// Execute runs tm on a fresh Value, its output capped at Limit bytes.
func Execute(tm *template.Template) error {
	return tm.Execute(&limited{}, Value())
}

// ParseHTML parses src as an html/template named "t" with Funcs.
func ParseHTML(src string) (*htmltemplate.Template, error) {
	return htmltemplate.New("t").Funcs(htmltemplate.FuncMap(Funcs)).Parse(src)
}

// ExecuteHTMLTwice runs tm twice on the same Value (the first execution
// escapes the template; a template may print addresses, which must be the
// same: Data has no channel, which a range would drain), and reports an
// error when the two runs give different output or different errors; err
// is the first run's error.
func ExecuteHTMLTwice(tm *htmltemplate.Template) (err, mismatch error) {
	var a, b bytes.Buffer
	v := Value()
	errA := tm.Execute(&capped{&a}, v)
	errB := tm.Execute(&capped{&b}, v)
	if a.String() != b.String() || fmt.Sprint(errA) != fmt.Sprint(errB) {
		return errA, fmt.Errorf("two executions differ: %q (error %v), then %q (error %v)", a.String(), errA, b.String(), errB)
	}
	return errA, nil
}

// capped is a buffer that refuses output past Limit bytes.
type capped struct{ b *bytes.Buffer }

func (w *capped) Write(p []byte) (int, error) {
	if w.b.Len()+len(p) > Limit {
		return 0, ErrWriteLimit
	}
	return w.b.Write(p)
}
