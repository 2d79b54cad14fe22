package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// HTMLConfig tunes HTML.
type HTMLConfig struct {
	MaxDepth    int // nesting of elements; default 4
	MaxNodes    int // child nodes per element; default 4
	MistakesPer int // per mille of documents passed through Corrupt; default 0
}

func (c HTMLConfig) withDefaults() HTMLConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = 4
	}
	return c
}

// HTMLTags are the element names HTML draws: the elements the HTML
// tree-construction algorithm treats specially (document structure,
// tables, forms and select, formatting elements, raw-text elements,
// template, obsolete elements still in the parsing rules), MathML and SVG
// with their integration points, and a few ordinary or unknown names.
var HTMLTags = []string{
	"html", "head", "body", "title", "base", "link", "meta", "style", "script", "noscript", "template",
	"p", "div", "span", "a", "b", "i", "em", "strong", "u", "s", "font", "nobr", "code", "big", "small", "tt", "strike",
	"ul", "ol", "li", "dl", "dt", "dd", "h1", "h2", "pre", "listing", "blockquote", "center", "address", "main",
	"table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th",
	"form", "input", "button", "select", "option", "optgroup", "textarea", "label", "keygen", "isindex", "fieldset",
	"frameset", "frame", "iframe", "noframes", "noembed", "xmp", "plaintext", "object", "applet", "marquee", "embed",
	"img", "image", "br", "hr", "wbr", "area", "param", "source", "track", "ruby", "rb", "rt", "rp",
	"math", "mi", "mo", "mn", "ms", "mtext", "mglyph", "malignmark", "annotation-xml",
	"svg", "foreignObject", "desc", "g", "path", "circle",
	"x", "foo", "menu", "dialog", "details", "summary", "search",
}

var (
	htmlTag = gen.OneOfWeighted(
		gen.W(12, gen.Tokens(HTMLTags...)),
		gen.W(1, gen.Map(gen.Zip(gen.Tokens(HTMLTags...), gen.IntRange(0, 1<<16)), func(v gen.Tuple2[string, int]) string {
			// the tokenizer lower-cases names: vary the case
			b := []byte(v.A)
			for i := range b {
				if v.B>>(i%16)&1 == 1 && b[i] >= 'a' && b[i] <= 'z' {
					b[i] -= 'a' - 'A'
				}
			}
			return string(b)
		})),
		gen.W(1, gen.StringFrom("abxyz-:", 1, 6)),
	)
	htmlAttrName = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("id", "class", "name", "type", "value", "href", "src", "action", "prompt", "style",
			"color", "face", "size", "encoding", "definitionURL", "xlink:href", "xml:lang", "xmlns", "hidden", "selected")),
		gen.W(1, gen.StringFrom("abxyz-:", 1, 6)),
	)
	htmlAttrValue = gen.OneOf(
		gen.StringFrom("abc 0", 0, 4),
		gen.Tokens("text/html", "hidden", "application/xhtml+xml", "http://x.y/", "0", "#", "&amp;", "&lt;"),
	)
	htmlText = gen.OneOfWeighted(
		gen.W(6, gen.StringFrom("abc xyz0", 1, 6)),
		gen.W(2, gen.Tokens(" ", "\n", "\t", "&amp;", "&lt;", "&gt", "&#x41;", "&#0;", "&nbsp;", "&notit;", "<", ">", "&", "\x00", "é")),
	)
	htmlSep = gen.OneOfWeighted(gen.W(8, gen.Just(" ")), gen.W(1, gen.Tokens("\n", "  ", "\t", "/")))
)

type htmlWriter struct {
	t   *gfz.T
	cfg HTMLConfig
	b   strings.Builder
}

func (w *htmlWriter) startTag(tag string) {
	w.b.WriteString("<" + tag)
	for range gen.IntRange(0, 3).Draw(w.t) {
		w.b.WriteString(htmlSep.Draw(w.t) + htmlAttrName.Draw(w.t))
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0: // boolean attribute
		case 1:
			w.b.WriteString("=" + strings.ReplaceAll(htmlAttrValue.Draw(w.t), " ", ""))
		case 2:
			w.b.WriteString(`="` + htmlAttrValue.Draw(w.t) + `"`)
		default:
			w.b.WriteString(`='` + htmlAttrValue.Draw(w.t) + `'`)
		}
	}
	if gen.IntRange(0, 7).Draw(w.t) == 0 {
		w.b.WriteString("/")
	}
	w.b.WriteString(">")
}

// nodes writes up to MaxNodes sibling nodes.
func (w *htmlWriter) nodes(depth int) {
	for range gen.IntRange(0, w.cfg.MaxNodes).Draw(w.t) {
		switch k := gen.IntRange(0, 11).Draw(w.t); {
		case k < 6 && depth > 0: // element: start tag, children, end tag (often omitted)
			tag := htmlTag.Draw(w.t)
			w.startTag(tag)
			w.nodes(depth - 1)
			if gen.IntRange(0, 2).Draw(w.t) > 0 {
				w.b.WriteString("</" + tag + ">")
			}
		case k < 6 || k == 6: // a start tag alone (void, or left open)
			w.startTag(htmlTag.Draw(w.t))
		case k == 7: // a stray end tag
			w.b.WriteString("</" + htmlTag.Draw(w.t) + ">")
		case k == 8 || k == 9:
			w.b.WriteString(htmlText.Draw(w.t))
		case k == 10:
			w.b.WriteString(gen.Tokens("<!-- c -->", "<!---->", "<!-- a -- b -->", "<!--", "<![CDATA[x]]>", "<?php x ?>", "<!x>").Draw(w.t))
		default:
			w.b.WriteString(gen.Tokens("<!DOCTYPE html>", "<!doctype html public \"-//W3C//DTD HTML 4.01//EN\">", "<!DOCTYPE>").Draw(w.t))
		}
	}
}

// HTML generates HTML documents (or fragments): nested elements with
// attributes in every quoting style, end tags often omitted or stray,
// text with character references, comments, CDATA and doctypes, over the
// tag names of HTMLTags; MistakesPer per mille of them go through Corrupt.
// Every string is HTML a browser parses; the structure is what the tree
// construction algorithm has to repair.
func HTML(cfg HTMLConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &htmlWriter{t: t, cfg: cfg}
		w.nodes(cfg.MaxDepth)
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	})
}
