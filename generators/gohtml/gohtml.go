// Package gohtml generates HTML5 documents, tag soup included, for fuzzing
// HTML tokenizers, parsers, sanitizers and scrapers, and near misses of
// them.
//
// Document(cfg) draws a document: an optional doctype (HTML5, in any
// case, or a legacy public one), comments, then either a whole document
// (html, head with title, meta, link, base, style and script; body) or a
// fragment of body content. Content holds text with named (with and
// without the semicolon), decimal and hexadecimal character references;
// elements of every content model (sections, headings, paragraphs,
// lists, definition lists, inline formatting, links, pre, blockquote,
// template, details) with attributes double-quoted, single-quoted,
// unquoted or without a value, in any letter case; void elements (br,
// img, input, hr, meta, wbr, ...) with or without the self-closing slash;
// tables (caption, colgroup, thead, tbody, tfoot, rows, header and data
// cells); forms (inputs of many types, select with options and groups,
// textarea, button, label, fieldset, legend); raw text in script and style
// and escapable raw text in textarea and title, holding what looks like
// markup; comments; and foreign content: SVG (camelCase attributes,
// self-closing elements, CDATA sections, foreignObject back to HTML) and
// MathML (annotation-xml). Unless Config.WellFormed is set, a share of
// the content is tag soup the HTML5 parser has to repair: misnested
// formatting elements (<b><i></b></i>), blocks inside paragraphs, omitted
// end tags (li, p, td, option), stray end tags, text and rows in the
// wrong table sections, nested anchors and forms, duplicate attributes.
//
// Every output tokenizes cleanly: tags, attributes, comments and raw text
// are complete, so what a parser repairs is tree structure only. With
// Config.WellFormed, elements also nest properly and every non-void
// element is closed (tested with a tag-balance checker; the parser
// checks with golang.org/x/net/html are in testdata/formats).
//
// Near(cfg) is Document with the near-miss step (package nearmiss):
// unclosed tags, quotes and comments, stray '<' and '&', broken character
// references, cut documents.
//
// Structure (element kinds, nesting, attribute forms, lengths) is drawn
// with structure draws, characters with value draws.
package gohtml

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of Document and Near. Zero fields take the
// defaults.
type Config struct {
	MaxDepth    int      // element nesting; default 4
	MaxChildren int      // child nodes per element; default 3
	MaxAttrs    int      // attributes per element; default 3
	MaxText     int      // characters per text node; default 10
	Words       []string // preferred text and attribute values (escaped as needed)
	WellFormed  bool     // no tag soup: proper nesting, every element closed
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxDepth, 4)
	def(&c.MaxChildren, 3)
	def(&c.MaxAttrs, 3)
	def(&c.MaxText, 10)
	return c
}

// Syntax is the near-miss syntax of HTML.
var Syntax = nearmiss.Syntax{
	Name: "html",
	Delims: []string{"<", ">", "</", "/>", "<!--", "-->", "--!>", "<!", "&", ";", "=", `"`, "'", " ", "\n", "<script>", "</script>",
		"<table>", "<svg>", "<math>", "<p>", "</p>", "<![CDATA[", "]]>", "<a>", "</a>", "<b>", "</b>"},
	Closers:    []string{"-->", "]]>", "</", "/>", ">", `"`, "'"},
	Quotes:     []string{`"`, "'"},
	Escapes:    []string{"&"},
	BadEscapes: []string{"&", "&#", "&#x", "&#;", "&#x110000;", "&#0;", "&#xD800;", "&amp", "&ampx;", "&bogus;", "&#9999999999;"},
	Boundary:   " \t\n<>=\"'/&;",
}

// Document returns a generator of HTML documents.
func Document(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg}
		w.document()
		return w.b.String()
	}).Named("gohtml.Document")
}

// Near returns a generator of near misses of Document(cfg): Document with
// the near-miss step (nearmiss.Of, default Config).
func Near(cfg Config) gen.Generator[string] {
	return nearmiss.Of(Document(cfg), Syntax, nearmiss.Config{}).Named("gohtml.Near")
}

type writer struct {
	s   *param.Source
	cfg Config
	b   strings.Builder
}

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }
func (w *writer) value(n int) int  { return int(w.s.Uintn(uint64(n), param.Value)) }
func (w *writer) pick(words []string) string {
	return words[w.value(len(words))]
}

// soup reports whether to write tag soup here: never when WellFormed,
// else one time in n.
func (w *writer) soup(n int) bool {
	return !w.cfg.WellFormed && w.choice(n) == n-1
}

// doctypes are the doctypes of documents; the first is none.
var doctypes = []string{"", "<!DOCTYPE html>", "<!doctype html>", "<!DOCTYPE html>", "<!DocType HTML>", "<!DOCTYPE html>",
	`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">`,
	`<!DOCTYPE html SYSTEM "about:legacy-compat">`, "<!DOCTYPE html5>"}

func (w *writer) document() {
	// One draw for the doctype, none included, so that removing it moves
	// no other draw.
	if d := doctypes[w.choice(len(doctypes))]; d != "" {
		w.b.WriteString(d)
		w.newline()
	}
	if w.choice(6) == 5 {
		w.comment()
		w.newline()
	}
	if w.choice(2) == 0 {
		w.content(w.cfg.MaxDepth) // a fragment of body content
		return
	}
	omit := w.soup(3) // omitted html, head and body tags
	if !omit {
		w.b.WriteString("<html" + w.attrs([]string{"lang", "dir", "class"}) + ">")
		w.b.WriteString("<head>")
	}
	w.head()
	if !omit {
		w.b.WriteString("</head>")
		w.newline()
		w.b.WriteString("<body" + w.attrs([]string{"class", "onload", "id"}) + ">")
	}
	w.content(w.cfg.MaxDepth)
	if !omit {
		w.b.WriteString("</body></html>")
	}
	w.newline()
}

func (w *writer) newline() {
	if w.choice(2) == 0 {
		w.b.WriteString(w.pick([]string{"\n", "\n", "\r\n", "\n  "}))
	}
}

func (w *writer) head() {
	n := w.choice(5)
	for range n {
		switch w.choice(6) {
		case 0:
			w.b.WriteString("<title>" + w.rcdata("title") + "</title>")
		case 1:
			w.b.WriteString(w.pick([]string{`<meta charset="utf-8">`, `<meta charset=utf-8 />`,
				`<meta name="viewport" content="width=device-width, initial-scale=1">`, `<meta http-equiv="refresh" content="0; url=/x">`}))
		case 2:
			w.b.WriteString(w.pick([]string{`<link rel="stylesheet" href="/s.css">`, `<link rel=icon href=data:,>`, `<base href="/root/">`}))
		case 3:
			w.b.WriteString("<style>" + w.rawText("style") + "</style>")
		default:
			w.b.WriteString("<script" + w.pick([]string{"", ` type="module"`, " async", ` src="/a.js"`, ` type="text/template"`}) + ">" + w.rawText("script") + "</script>")
		}
		w.newline()
	}
}

// content writes up to MaxChildren nodes of flow content.
func (w *writer) content(depth int) {
	n := w.choice(w.cfg.MaxChildren + 1)
	for range n {
		w.node(depth)
	}
}

// flowElems and phraseElems are elements with ordinary content; their
// end tags are written (in soup, sometimes not or misnested).
var (
	flowElems   = []string{"div", "p", "section", "article", "nav", "aside", "header", "footer", "main", "blockquote", "pre", "h1", "h2", "h3", "h6", "address", "figure", "center", "details", "dialog"}
	phraseElems = []string{"span", "b", "i", "em", "strong", "a", "code", "small", "sub", "sup", "u", "s", "q", "abbr", "mark", "font", "label", "nobr", "big", "tt"}
	voidElems   = []string{"br", "img", "hr", "input", "wbr", "embed", "source", "track", "area", "col", "meta", "link", "param", "keygen"}
	attrNames   = []string{"id", "class", "style", "title", "href", "src", "alt", "data-x", "aria-label", "onclick", "lang", "hidden", "tabindex", "role", "name", "value", "xml:lang", "CLASS", "x-y_z"}
)

// node writes one node of flow content.
func (w *writer) node(depth int) {
	k := w.choice(24)
	if depth <= 0 && k >= 6 {
		k %= 6
	}
	if k >= 6 && w.choice(3) == 0 {
		k = 0 // a leaf: keep the expected size of a document bounded
	}
	switch {
	case k < 3:
		w.text()
	case k == 3:
		w.comment()
	case k == 4:
		w.void()
	case k == 5:
		w.newlineAlways()
	case k < 10:
		w.element(w.pick(flowElems), depth)
	case k < 14:
		w.element(w.pick(phraseElems), depth)
	case k == 14:
		w.list(depth)
	case k == 15:
		w.table(depth)
	case k == 16:
		w.form(depth)
	case k == 17:
		w.svg(depth)
	case k == 18:
		w.math(depth)
	case k == 19:
		if w.choice(2) == 0 {
			w.b.WriteString("<script>" + w.rawText("script") + "</script>")
		} else {
			w.b.WriteString("<style>" + w.rawText("style") + "</style>")
		}
	case k == 20:
		w.b.WriteString("<textarea" + w.attrs([]string{"name", "rows"}) + ">" + w.rcdata("textarea") + "</textarea>")
	case k == 21:
		w.b.WriteString("<template>")
		w.content(depth - 1)
		w.b.WriteString("</template>")
	default:
		if w.cfg.WellFormed {
			w.element(w.pick(phraseElems), depth)
			return
		}
		w.misnest(depth)
	}
}

func (w *writer) newlineAlways() { w.b.WriteString(w.pick([]string{"\n", " ", "\t", "\r\n", "\n\n"})) }

// name writes an element name, in another letter case sometimes.
func (w *writer) name(n string) string {
	switch w.choice(10) {
	case 8:
		return strings.ToUpper(n)
	case 9:
		return strings.ToUpper(n[:1]) + n[1:]
	}
	return n
}

// element writes <name attrs>content</name>; in soup, the end tag may be
// missing or in another case.
func (w *writer) element(name string, depth int) {
	open := w.name(name)
	w.b.WriteString("<" + open + w.attrs(attrNames))
	if !w.cfg.WellFormed && w.choice(16) == 15 {
		w.b.WriteString("/") // a self-closing slash on a non-void element: ignored
	}
	w.b.WriteString(">")
	w.content(depth - 1)
	if w.soup(8) {
		return // omitted end tag
	}
	w.b.WriteString("</" + w.name(name) + ">")
}

func (w *writer) void() {
	name := w.pick(voidElems)
	var names []string
	switch name {
	case "img":
		names = []string{"src", "alt", "width", "srcset", "loading"}
	case "input":
		names = []string{"type", "name", "value", "checked", "disabled", "placeholder"}
	default:
		names = attrNames
	}
	w.b.WriteString("<" + w.name(name) + w.attrs(names) + w.pick([]string{">", ">", "/>", " />"}))
}

// attrs writes up to MaxAttrs attributes chosen among names, with a
// leading space each; in soup, a name may repeat.
func (w *writer) attrs(names []string) string {
	n := w.choice(w.cfg.MaxAttrs + 1)
	var b strings.Builder
	var seen []string
	for range n {
		name := w.pick(names)
		if contains(seen, strings.ToLower(name)) && (w.cfg.WellFormed || w.choice(4) != 3) {
			continue
		}
		seen = append(seen, strings.ToLower(name))
		b.WriteString(w.pick([]string{" ", " ", "\n", "  ", "\t"}) + name)
		b.WriteString(w.attrValue(name))
	}
	if n > 0 && w.choice(6) == 5 {
		b.WriteByte(' ')
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// attrValue writes ="value", ='value', =value or nothing.
func (w *writer) attrValue(name string) string {
	v := w.value1(name)
	switch w.choice(8) {
	case 0:
		return ""
	case 1:
		if v != "" && !strings.ContainsAny(v, " \t\n\r\f\"'=<>`") {
			return w.pick([]string{"=", " = "}) + v
		}
	case 2:
		return "='" + strings.ReplaceAll(v, "'", "&#39;") + "'"
	}
	return `="` + strings.ReplaceAll(v, `"`, "&quot;") + `"`
}

// value1 draws an attribute's value.
func (w *writer) value1(name string) string {
	if len(w.cfg.Words) > 0 && w.choice(3) == 0 {
		return escapeAmp(w.pick(w.cfg.Words))
	}
	if d := gen.Dictionary(); len(d) > 0 && w.choice(6) == 0 {
		return escapeAmp(w.pick(d))
	}
	switch name {
	case "href", "src":
		return w.pick([]string{"/", "http://example.com/a?b=1&amp;c=2", "javascript:alert(1)", "#top", "data:text/html,<b>x</b>", "//cdn.x/y.js", "mailto:a@b", "?q=a&b", ""})
	case "style":
		return w.pick([]string{"color: red", "display:none", "background:url(x)", "width: expression(alert(1))", ""})
	case "type":
		return w.pick([]string{"text", "checkbox", "radio", "hidden", "submit", "image", "file", "number", "date", "color", "range", "password", "bogus"})
	case "onclick", "onload":
		return w.pick([]string{"alert(1)", "f(this); return false", "a<b && c>d"})
	}
	var b strings.Builder
	for range w.choice(w.cfg.MaxText + 1) {
		switch w.choice(8) {
		case 0:
			b.WriteString(w.pick(charRefs))
		case 1:
			b.WriteRune(w.unicode())
		default:
			b.WriteByte(valueChars[w.value(len(valueChars))])
		}
	}
	return b.String()
}

const valueChars = "abc xyz 019 -_./:;#?=<>'\"`"

// escapeAmp escapes '&' that do not start a character reference, so that
// a word reads as itself; quotes are escaped where they are written.
func escapeAmp(s string) string { return strings.ReplaceAll(s, "&", "&amp;") }

// charRefs are character references: named with and without ';',
// decimal, hexadecimal, out-of-range and bogus ones.
var charRefs = []string{"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&nbsp;", "&copy;", "&eacute;", "&Eacute;", "&#60;", "&#x3C;", "&#X3c;",
	"&#x1F600;", "&#0;", "&#128;", "&#xD800;", "&#x110000;", "&amp", "&copy", "&notin;", "&notit;", "&hellip;", "&NotNestedLessLess;", "&bogus;", "& "}

func (w *writer) unicode() rune {
	r := rune(0xA0 + w.s.Uint(2, param.Value)%0xD700)
	return r
}

// text writes a text node: characters, references, a '<' that starts no
// tag.
func (w *writer) text() {
	if len(w.cfg.Words) > 0 && w.choice(3) == 0 {
		w.b.WriteString(escapeText(w.pick(w.cfg.Words)))
		return
	}
	if d := gen.Dictionary(); len(d) > 0 && w.choice(6) == 0 {
		w.b.WriteString(escapeText(w.pick(d)))
		return
	}
	for range 1 + w.choice(w.cfg.MaxText) {
		switch w.choice(10) {
		case 9:
			w.b.WriteString(w.pick(charRefs))
		case 8:
			w.b.WriteRune(w.unicode())
		case 7:
			if w.cfg.WellFormed {
				w.b.WriteString("&lt;")
			} else {
				w.b.WriteString(w.pick([]string{"< ", "<3", "<=", "<\t", "1 <\n"})) // a "<" that starts no tag
			}
		default:
			w.b.WriteByte(textChars[w.value(len(textChars))])
		}
	}
}

const textChars = "abc xyz ABC 019 .,;:!?-_()'\"=/\n\t"

func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// comment writes a comment whose text never ends it early.
func (w *writer) comment() {
	var b strings.Builder
	for range w.choice(8) {
		switch w.choice(8) {
		case 0:
			b.WriteString(w.pick([]string{"<b>", "-", " - ", "<!", "<!-", "-- ", "]]>", "<script>", "&amp;"}))
		default:
			b.WriteByte(textChars[w.value(len(textChars))])
		}
	}
	s := b.String()
	for strings.Contains(s, "--") || strings.HasPrefix(s, ">") || strings.HasPrefix(s, "->") || strings.HasSuffix(s, "-") || strings.Contains(s, "<!-") {
		s = strings.NewReplacer("--", "- ", "<!-", "<! ").Replace(s)
		s = strings.TrimPrefix(strings.TrimPrefix(s, "->"), ">")
		s = strings.TrimSuffix(s, "-")
	}
	w.b.WriteString("<!--" + s + "-->")
}

// rawText draws the content of a script or style element: text that
// looks like markup but never holds its end tag.
func (w *writer) rawText(elem string) string {
	var b strings.Builder
	for range w.choice(6) {
		switch w.choice(6) {
		case 0:
			b.WriteString(w.pick([]string{"<!--", "-->", "</div>", "<b>", "</scrip>", "</styl>", "<script>", "a < b", "&amp;", "]]>", "</"}))
		case 1:
			if elem == "script" {
				b.WriteString(w.pick([]string{"var x = 1;", "if (a<b) { f('</' + 'script>') }", "document.write(\"<p>\")", "/* c */", "`${x}`", "// <!--"}))
			} else {
				b.WriteString(w.pick([]string{"p { color: red }", "a::before { content: \"<\" }", "@import url(x);", "/* </p> */", "@media (min-width: 1px) {}"}))
			}
		default:
			b.WriteByte(textChars[w.value(len(textChars))])
		}
	}
	s := b.String()
	// Never the end tag, in any case; in scripts, never "<!--" followed
	// by "<script" (the double-escaped state, where "</script>" would
	// not end the element).
	for strings.Contains(strings.ToLower(s), "</"+elem) || elem == "script" && strings.Contains(strings.ToLower(s), "<!--") {
		s = strings.NewReplacer("</", "< /", "</"+strings.ToUpper(elem), "< /", "<!--", "< !--").Replace(s)
	}
	return s
}

// rcdata draws the content of a textarea or title: text with character
// references and markup that is only text, never the end tag.
func (w *writer) rcdata(elem string) string {
	var b strings.Builder
	for range w.choice(6) {
		switch w.choice(5) {
		case 0:
			b.WriteString(w.pick([]string{"<b>x</b>", "&amp;", "&lt;/" + elem + "&gt;", "</" + elem[:2], "<!-- c -->", "&#x41;"}))
		default:
			b.WriteByte(textChars[w.value(len(textChars))])
		}
	}
	s := b.String()
	for strings.Contains(strings.ToLower(s), "</"+elem) {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "</", "< /"), "</", "< /")
	}
	return s
}

func (w *writer) list(depth int) {
	tag := w.pick([]string{"ul", "ol", "menu", "dl"})
	w.b.WriteString("<" + w.name(tag) + w.attrs([]string{"start", "type", "reversed", "class"}) + ">")
	n := 1 + w.choice(3)
	for range n {
		item := "li"
		if tag == "dl" {
			item = w.pick([]string{"dt", "dd"})
		}
		w.b.WriteString("<" + item + ">")
		w.content(depth - 2)
		if !w.soup(3) {
			w.b.WriteString("</" + item + ">")
		}
	}
	w.b.WriteString("</" + w.name(tag) + ">")
}

func (w *writer) table(depth int) {
	w.b.WriteString("<table" + w.attrs([]string{"border", "summary", "class"}) + ">")
	if w.choice(4) == 0 {
		w.b.WriteString("<caption>")
		w.inline()
		w.b.WriteString("</caption>")
	}
	if w.choice(4) == 0 {
		w.b.WriteString("<colgroup><col span=\"2\"><col></colgroup>")
	}
	if w.soup(6) {
		w.text() // text in the table: fostered out of it
	}
	sections := 1 + w.choice(2)
	for s := range sections {
		sec := "tbody"
		if sections == 2 && s == 0 {
			sec = w.pick([]string{"thead", "tfoot"})
		}
		implicit := !w.cfg.WellFormed && sec == "tbody" && w.choice(2) == 0 // rows straight in <table>
		if !implicit {
			w.b.WriteString("<" + sec + ">")
		}
		for range 1 + w.choice(3) {
			w.b.WriteString("<tr>")
			for range 1 + w.choice(3) {
				cell := "td"
				if sec == "thead" || w.choice(4) == 0 {
					cell = "th"
				}
				w.b.WriteString("<" + cell + w.attrs([]string{"colspan", "rowspan", "scope", "headers"}) + ">")
				w.content(depth - 2)
				if !w.soup(3) {
					w.b.WriteString("</" + cell + ">")
				}
			}
			if !w.soup(3) {
				w.b.WriteString("</tr>")
			}
		}
		if !implicit {
			w.b.WriteString("</" + sec + ">")
		}
	}
	w.b.WriteString("</table>")
}

// inline writes a short run of phrasing content without elements that
// would need closing in soup.
func (w *writer) inline() {
	w.text()
	if w.choice(2) == 0 {
		w.b.WriteString("<b>")
		w.text()
		w.b.WriteString("</b>")
	}
}

func (w *writer) form(depth int) {
	w.b.WriteString("<form" + w.pick([]string{"", ` action="/submit" method="post"`, " action=? method=GET", ` enctype="multipart/form-data"`}) + ">")
	for range 1 + w.choice(4) {
		switch w.choice(7) {
		case 0:
			w.b.WriteString(`<label for="f">`)
			w.inline()
			w.b.WriteString("</label>")
		case 1:
			w.b.WriteString("<input" + w.attrs([]string{"type", "name", "value", "checked", "required", "min", "max", "pattern", "list"}) + ">")
		case 2:
			w.b.WriteString("<select" + w.attrs([]string{"name", "multiple", "size"}) + ">")
			for range 1 + w.choice(3) {
				if w.choice(4) == 0 {
					w.b.WriteString(`<optgroup label="g"><option>a</option></optgroup>`)
					continue
				}
				w.b.WriteString("<option" + w.attrs([]string{"value", "selected", "disabled"}) + ">")
				w.text()
				if !w.soup(3) {
					w.b.WriteString("</option>")
				}
			}
			w.b.WriteString("</select>")
		case 3:
			w.b.WriteString("<textarea>" + w.rcdata("textarea") + "</textarea>")
		case 4:
			w.b.WriteString("<button" + w.attrs([]string{"type", "name", "formaction"}) + ">")
			w.inline()
			w.b.WriteString("</button>")
		case 5:
			w.b.WriteString("<fieldset><legend>")
			w.inline()
			w.b.WriteString("</legend>")
			w.content(depth - 2)
			w.b.WriteString("</fieldset>")
		default:
			if w.soup(2) {
				w.b.WriteString("<form><input name=nested></form>") // nested form: the inner one is dropped
			} else {
				w.void()
			}
		}
	}
	w.b.WriteString("</form>")
}

func (w *writer) svg(depth int) {
	w.b.WriteString(`<svg` + w.pick([]string{"", ` viewBox="0 0 10 10"`, ` xmlns="http://www.w3.org/2000/svg" width=10`, ` preserveAspectRatio="none"`}) + ">")
	for range 1 + w.choice(4) {
		switch w.choice(8) {
		case 0:
			w.b.WriteString(w.pick([]string{`<path d="M0 0L10 10z"/>`, `<circle cx="5" cy="5" r="4" />`, `<rect width="1" height="1"></rect>`, `<use xlink:href="#a"/>`}))
		case 1:
			w.b.WriteString("<text x=1>")
			w.text()
			w.b.WriteString("</text>")
		case 2:
			w.b.WriteString("<![CDATA[" + strings.ReplaceAll(w.rcdata("svg"), "]]>", "]] >") + "]]>")
		case 3:
			w.b.WriteString("<foreignObject><div>") // back to HTML
			w.content(depth - 2)
			w.b.WriteString("</div></foreignObject>")
		case 4:
			w.b.WriteString(`<g clipPathUnits="userSpaceOnUse"><linearGradient gradientTransform="rotate(1)"/></g>`)
		case 5:
			w.b.WriteString("<title>t</title><desc>")
			w.inline()
			w.b.WriteString("</desc>")
		case 6:
			w.b.WriteString("<style>a{}</style><script>x=1</script>")
		default:
			w.comment()
		}
	}
	w.b.WriteString("</svg>")
}

func (w *writer) math(depth int) {
	w.b.WriteString("<math" + w.pick([]string{"", ` display="block"`}) + ">")
	for range 1 + w.choice(4) {
		switch w.choice(6) {
		case 0:
			w.b.WriteString("<mi>x</mi><mo>=</mo><mn>" + strconv.Itoa(w.value(100)) + "</mn>")
		case 1:
			w.b.WriteString("<mfrac><mi>a</mi><mi>b</mi></mfrac>")
		case 2:
			w.b.WriteString(`<annotation-xml encoding="text/html"><div>`)
			w.content(depth - 2)
			w.b.WriteString("</div></annotation-xml>")
		case 3:
			w.b.WriteString("<mtext>")
			w.text()
			w.b.WriteString("</mtext>")
		case 4:
			w.b.WriteString("<mi><svg><circle/></svg></mi>")
		default:
			w.b.WriteString("<ms>&amp;</ms><mglyph/><malignmark/>")
		}
	}
	w.b.WriteString("</math>")
}

// misnest writes tag soup the tree builder repairs.
func (w *writer) misnest(depth int) {
	switch w.choice(10) {
	case 0: // misnested formatting elements (the adoption agency)
		a, b := w.pick([]string{"b", "i", "em", "a", "font"}), w.pick([]string{"i", "u", "strong", "s"})
		w.b.WriteString("<" + a + "><" + b + ">")
		w.text()
		w.b.WriteString("</" + a + ">")
		w.text()
		w.b.WriteString("</" + b + ">")
	case 1: // a block inside a paragraph
		w.b.WriteString("<p>")
		w.text()
		w.b.WriteString("<" + w.pick([]string{"div", "table", "ul", "h1", "pre"}) + ">")
		w.text()
		w.b.WriteString("</p>")
		w.text()
	case 2: // formatting across blocks
		w.b.WriteString("<b><p>")
		w.text()
		w.b.WriteString("</b>")
		w.text()
		w.b.WriteString("</p>")
	case 3: // stray end tags
		w.b.WriteString(w.pick([]string{"</p>", "</br>", "</div>", "</table>", "</html>", "</body>", "</li>", "</x-y>", "</sarcasm>"}))
	case 4: // implied end tags
		w.b.WriteString(w.pick([]string{"<p>a<p>b", "<li>a<li>b", "<dt>a<dd>b", "<option>a<option>b", "<td>cell", "<tr><td>x", "<h1><h2>x</h1></h2>"}))
	case 5: // nested anchors and buttons
		w.b.WriteString(w.pick([]string{`<a href="1">x<a href="2">y</a></a>`, "<button><button>b</button></button>", "<nobr>a<nobr>b"}))
	case 6: // body-only elements in odd places
		w.b.WriteString(w.pick([]string{"<html><body class=late>", "<head><title>late</title></head>", "<frameset></frameset>", "<body>", "<caption>x</caption>", "<col>"}))
	case 7: // a table with content where it may not be
		w.b.WriteString("<table><tr><div>")
		w.text()
		w.b.WriteString("</div><td>")
		w.content(depth - 2)
		w.b.WriteString("</table>")
	case 8: // unclosed formatting elements, reopened in the next block
		w.b.WriteString("<p><b><i>")
		w.text()
		w.b.WriteString("<p>")
		w.text()
		w.b.WriteString("</p>")
	default: // select and template oddities
		w.b.WriteString(w.pick([]string{"<select><div>x</div><option>o</select>", "<template><tr><td>t</template>", "<select><select>", "<table><template><td>x</template></table>"}))
	}
}
