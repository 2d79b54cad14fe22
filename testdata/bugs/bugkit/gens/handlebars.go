package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// HandlebarsHelper is a helper the host registers, with the number of
// arguments it takes.
type HandlebarsHelper struct {
	Name   string
	Params int
}

// HandlebarsConfig tunes Handlebars: the names of the host's data context
// and of its registered helpers and partials.
type HandlebarsConfig struct {
	Fields     []string // paths of values of the context: "title", "author.firstName"
	Lists      []string // paths of iterables (arrays, maps, structs), for each
	Objects    []string // paths of objects, for with
	ItemFields []string // fields of the iterated elements and of the objects
	Helpers    []HandlebarsHelper
	Partials   []string
	MaxDepth   int // nesting of blocks; default 3
	MaxNodes   int // nodes in a run of siblings; default 5
	// MistakesPer per mille of the templates go through Corrupt.
	MistakesPer int
}

func (c HandlebarsConfig) withDefaults() HandlebarsConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = 5
	}
	if len(c.Fields) == 0 {
		c.Fields = []string{"title"}
	}
	if len(c.Lists) == 0 {
		c.Lists = []string{"items"}
	}
	if len(c.Objects) == 0 {
		c.Objects = []string{"author"}
	}
	if len(c.ItemFields) == 0 {
		c.ItemFields = []string{"name"}
	}
	return c
}

var (
	// hbUnknown are names a template may use that the context may not
	// have: Handlebars renders a missing value as nothing.
	hbUnknown = gen.Tokens("name", "user", "items", "missing", "user.name", "page.title", "foo", "bar", "config.debug", "length")
	hbText    = gen.OneOfWeighted(
		gen.W(8, gen.Tokens("Hello", "world", "<div class=\"entry\">", "</div>", "<h1>", "</h1>", "<ul>", "</ul>", "<li>", "</li>", "<p>", "</p>", "by", "Posts:", "No content", "Total:", " ", ", ", ": ", "é", "\n", "\n  ")),
		gen.W(2, gen.Tokens("&amp;", "a < b", "{", "}", "\\{{escaped}}", "'", "\"", "\\", "@", "|", "  \n")),
	)
	hbComment  = gen.Tokens("TODO", "the author", "loop over posts", "don't escape", "{{nested", "")
	hbStrings  = gen.Tokens(`"bar"`, `"Look at me!"`, `"a \"quoted\" word"`, `'single'`, `""`, `"<b>bold</b>"`, `", "`, `"https://example.com/"`, `"header"`, `"title"`, `"0"`)
	hbHashKeys = gen.Tokens("class", "id", "title", "href", "sep", "name", "includeZero", "level")
	hbWS       = gen.OneOfWeighted(gen.W(8, gen.Just("")), gen.W(2, gen.Tokens(" ", "  ", "\n")))
)

// hbScope is what a block body can refer to: the fields of its context,
// its block parameters, and whether it iterates (@index, @key...).
type hbScope struct {
	fields []string
	params []string
	iter   bool
}

type hbWriter struct {
	t      *gfz.T
	cfg    HandlebarsConfig
	b      strings.Builder
	scopes []hbScope
}

func (w *hbWriter) pick(n int) int { return gen.IntRange(0, n-1).Draw(w.t) }

func (w *hbWriter) from(s []string) string { return s[w.pick(len(s))] }

func (w *hbWriter) scope() hbScope { return w.scopes[len(w.scopes)-1] }

// respell writes a dotted path in one of the spellings of the
// specification: dots, slashes, segment literals in brackets, a this.
// or ./ prefix.
func (w *hbWriter) respell(p string) string {
	switch w.pick(12) {
	case 0:
		return strings.ReplaceAll(p, ".", "/")
	case 1:
		segs := strings.Split(p, ".")
		if i := w.pick(len(segs)); !strings.HasPrefix(segs[i], "[") {
			segs[i] = "[" + segs[i] + "]"
		}
		return strings.Join(segs, ".")
	case 2:
		return "this." + p
	case 3:
		return "./" + p
	default:
		return p
	}
}

// path draws a path expression that makes sense in the current scope.
func (w *hbWriter) path() string {
	sc := w.scope()
	switch w.pick(14) {
	case 0, 1, 2, 3, 4, 5:
		return w.respell(w.from(sc.fields))
	case 6:
		if len(sc.params) > 0 {
			p := w.from(sc.params)
			if w.pick(2) == 0 {
				p += "." + w.from(w.cfg.ItemFields)
			}
			return p
		}
		return "this"
	case 7:
		if len(w.scopes) > 1 {
			return strings.Repeat("../", 1+w.pick(len(w.scopes)-1)) + w.from(w.scopes[0].fields)
		}
		return w.from(w.cfg.Fields)
	case 8:
		if sc.iter {
			return gen.Tokens("@index", "@key", "@first", "@last").Draw(w.t)
		}
		return "@root." + w.from(w.cfg.Fields)
	case 9:
		return gen.Tokens("this", ".", "this.length").Draw(w.t)
	case 10:
		return w.from(w.cfg.Lists)
	case 11:
		return "[" + gen.Tokens("first name", "title", "0", "x-y").Draw(w.t) + "]"
	default:
		return hbUnknown.Draw(w.t)
	}
}

// literal draws a string, number, boolean, null or undefined literal.
func (w *hbWriter) literal() string {
	switch w.pick(6) {
	case 0, 1:
		return hbStrings.Draw(w.t)
	case 2:
		return strconv.Itoa(gen.IntRange(-2, 12).Draw(w.t))
	case 3:
		return gen.Tokens("1.5", "0.0", "-3.25", "10").Draw(w.t)
	case 4:
		return gen.Tokens("true", "false").Draw(w.t)
	default:
		return gen.Tokens("null", "undefined").Draw(w.t)
	}
}

// param draws an argument: a path, a literal, or a subexpression.
func (w *hbWriter) param(depth int) string {
	switch w.pick(10) {
	case 0, 1, 2, 3, 4, 5:
		return w.path()
	case 6, 7, 8:
		return w.literal()
	default:
		if depth <= 0 {
			return w.path()
		}
		return "(" + w.call(depth-1) + ")"
	}
}

// args draws the arguments of a helper that takes n of them: n most of
// the time; the syntax takes any number, and a template may pass a wrong
// count (the helper then reports an error).
func (w *hbWriter) args(n, depth int) string {
	if w.pick(10) == 0 {
		n = w.pick(n + 3)
	}
	var b strings.Builder
	for range n {
		b.WriteString(" " + w.param(depth))
	}
	return b.String()
}

// hash draws hash arguments, key=value.
func (w *hbWriter) hash(depth int) string {
	var b strings.Builder
	for range 1 + w.pick(2) {
		b.WriteString(" " + hbHashKeys.Draw(w.t) + "=" + w.param(depth))
	}
	return b.String()
}

// call draws a helper call: a registered helper or a built-in one that
// returns a value (lookup, log), with its arguments, now and then with
// hash arguments.
func (w *hbWriter) call(depth int) string {
	var s string
	k := w.pick(len(w.cfg.Helpers) + 2)
	switch {
	case k < len(w.cfg.Helpers):
		h := w.cfg.Helpers[k]
		s = h.Name + w.args(h.Params, depth)
	case k == len(w.cfg.Helpers):
		s = "lookup" + w.args(2, depth)
	default:
		s = "log" + w.args(1, depth)
	}
	if w.pick(6) == 0 {
		s += w.hash(depth)
	}
	return s
}

// open and close draw the delimiters of a mustache, with whitespace
// control (~) now and then.
func (w *hbWriter) open() string {
	if w.pick(8) == 0 {
		return "{{~"
	}
	return "{{"
}

func (w *hbWriter) close() string {
	if w.pick(8) == 0 {
		return "~}}"
	}
	return "}}"
}

// mustache draws a statement that prints: a value (escaped or not), a
// helper call, a comment, a partial.
func (w *hbWriter) mustache() string {
	switch w.pick(12) {
	case 0, 1, 2, 3:
		return w.open() + hbWS.Draw(w.t) + w.path() + hbWS.Draw(w.t) + w.close()
	case 4:
		return "{{{" + hbWS.Draw(w.t) + w.path() + hbWS.Draw(w.t) + "}}}"
	case 5:
		return "{{&" + gen.Tokens("", " ").Draw(w.t) + w.path() + "}}"
	case 6, 7, 8:
		return w.open() + w.call(2) + w.close()
	case 9:
		if w.pick(2) == 0 {
			return "{{! " + hbComment.Draw(w.t) + " }}"
		}
		return "{{!-- " + gen.OneOf(hbComment, gen.Tokens("}} inside", "{{title}}")).Draw(w.t) + " --}}"
	default:
		return w.partial()
	}
}

// partial draws a partial call: a registered (or unknown) name, quoted or
// not, or a dynamic name, with a context argument or hash arguments.
func (w *hbWriter) partial() string {
	var name string
	switch {
	case len(w.cfg.Partials) > 0 && w.pick(6) > 0:
		name = w.from(w.cfg.Partials)
		if w.pick(5) == 0 {
			name = `"` + name + `"`
		}
	case w.pick(2) == 0:
		name = "(lookup " + w.path() + " " + w.param(0) + ")"
	default:
		name = gen.Tokens("footer", "userMessage", "missing").Draw(w.t)
	}
	s := "{{> " + name
	switch w.pick(4) {
	case 0:
		s += " " + w.path()
	case 1:
		s += w.hash(1)
	}
	return s + "}}"
}

// else writes an else section's separator: {{else}} or {{^}}.
func (w *hbWriter) elseTag() string {
	if w.pick(5) == 0 {
		return "{{^}}"
	}
	return w.open() + "else" + w.close()
}

// block draws a block: a built-in block helper (if with else-if chains,
// unless, each and with with block parameters, equal), a section over a
// context value, or an inverted section, around runs of nodes.
func (w *hbWriter) block(depth int) {
	sc := w.scope()
	inner := hbScope{fields: sc.fields, params: sc.params, iter: sc.iter}
	withParams := func(names ...string) {
		w.b.WriteString(" as |" + strings.Join(names, " ") + "|")
		inner.params = append(append([]string(nil), sc.params...), names...)
	}
	body := func(s hbScope) {
		w.scopes = append(w.scopes, s)
		w.nodes(depth - 1)
		w.scopes = w.scopes[:len(w.scopes)-1]
	}
	var name string
	switch w.pick(9) {
	case 0, 1, 2:
		name = "if"
		w.b.WriteString(w.open() + "#if" + w.args(1, 1))
		if w.pick(8) == 0 {
			w.b.WriteString(" includeZero=true")
		}
		w.b.WriteString(w.close())
		body(inner)
		if w.pick(4) == 0 {
			for range 1 + w.pick(2) {
				w.b.WriteString(w.open() + "else if" + w.args(1, 1) + w.close())
				body(inner)
			}
		}
	case 3:
		name = "unless"
		w.b.WriteString(w.open() + "#unless" + w.args(1, 1) + w.close())
		body(inner)
	case 4, 5:
		name = "each"
		w.b.WriteString(w.open() + "#each")
		if w.pick(6) == 0 {
			w.b.WriteString(w.args(1, 1))
		} else {
			w.b.WriteString(" " + w.respell(w.from(w.cfg.Lists)))
		}
		inner = hbScope{fields: w.cfg.ItemFields, iter: true}
		if w.pick(4) == 0 {
			if w.pick(2) == 0 {
				withParams(gen.Tokens("item", "post", "person").Draw(w.t))
			} else {
				withParams(gen.Tokens("item", "post", "value").Draw(w.t), gen.Tokens("i", "key", "idx").Draw(w.t))
			}
		}
		w.b.WriteString(w.close())
		body(inner)
	case 6:
		name = "with"
		w.b.WriteString(w.open() + "#with")
		if w.pick(6) == 0 {
			w.b.WriteString(w.args(1, 1))
		} else {
			w.b.WriteString(" " + w.respell(w.from(w.cfg.Objects)))
		}
		inner = hbScope{fields: w.cfg.ItemFields, iter: sc.iter}
		if w.pick(4) == 0 {
			withParams(gen.Tokens("a", "obj", "author").Draw(w.t))
		}
		w.b.WriteString(w.close())
		body(inner)
	case 7:
		name = "equal"
		w.b.WriteString(w.open() + "#equal" + w.args(2, 1) + w.close())
		body(inner)
	default:
		// A section (# on a value: iterated when a list, rendered when
		// truthy) or an inverted section (^: rendered when falsy).
		name = w.from(append(append([]string(nil), w.cfg.Lists...), w.cfg.Fields...))
		if w.pick(3) == 0 {
			w.b.WriteString(w.open() + "^" + name + w.close())
			body(inner)
			w.b.WriteString(w.open() + "/" + name + w.close())
			return
		}
		w.b.WriteString(w.open() + "#" + name + w.close())
		body(hbScope{fields: w.cfg.ItemFields, iter: true})
	}
	if w.pick(3) == 0 {
		w.b.WriteString(w.elseTag())
		body(hbScope{fields: sc.fields, params: sc.params, iter: sc.iter})
	}
	w.b.WriteString(w.open() + "/" + name + w.close())
}

// nodes writes a run of text, mustaches and blocks.
func (w *hbWriter) nodes(depth int) {
	for range w.pick(w.cfg.MaxNodes + 1) {
		switch k := w.pick(10); {
		case k < 4:
			w.b.WriteString(hbText.Draw(w.t))
		case k < 7 || depth <= 0:
			w.b.WriteString(w.mustache())
		default:
			w.b.WriteString(hbWS.Draw(w.t))
			w.block(depth)
			w.b.WriteString(hbWS.Draw(w.t))
		}
	}
}

// Handlebars generates Handlebars templates as the Handlebars language
// guide and raymond's documentation describe them: text (HTML, escaped
// mustaches) with mustaches that print a path (escaped, {{{ }}} or {{&
// }}), helper calls (the host's helpers, lookup and log) with paths,
// literals, subexpressions and hash arguments, comments in both forms,
// partials (by name, quoted, dynamic, with a context or hash arguments),
// whitespace control, and blocks: if with else-if chains and else,
// unless, each and with (with block parameters), equal, sections and
// inverted sections, with {{else}} or {{^}}. Paths are the context's
// names in the scope of their block (the elements' fields inside each and
// with, ../ to the parent, @root, @index, @key, @first, @last, block
// parameters), in the specification's spellings (dots, slashes, segment
// literals, this.), or names the context lacks. A helper gets the number
// of arguments it takes nine times in ten, any other count otherwise.
// MistakesPer per mille of the templates go through Corrupt.
func Handlebars(cfg HandlebarsConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &hbWriter{t: t, cfg: cfg, scopes: []hbScope{{fields: cfg.Fields}}}
		w.nodes(cfg.MaxDepth)
		if w.pick(3) == 0 {
			w.b.WriteString("\n")
		}
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	}).Named("handlebars")
}
