package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// TemplateLang is a template language HTMLTemplate writes its actions in.
type TemplateLang int

// The template languages: their delimiters are {{ }} (Go, Handlebars),
// <% %> (EJS, ASP) and <? ?> (PHP).
const (
	TmplGo         TemplateLang = iota // Go's text/template and html/template (Hugo's layouts)
	TmplHandlebars                     // Handlebars (and Mustache)
	TmplEJS                            // EJS (embedded JavaScript)
	TmplASP                            // classic ASP (VBScript)
	TmplPHP                            // PHP
)

// HTMLTemplateConfig tunes HTMLTemplate.
type HTMLTemplateConfig struct {
	Lang        TemplateLang
	MaxDepth    int // nesting of elements and blocks; default 3
	MaxNodes    int // nodes in a run of siblings; default 4
	MistakesPer int // per mille of documents passed through Corrupt; default 0
}

func (c HTMLTemplateConfig) withDefaults() HTMLTemplateConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = 4
	}
	return c
}

var (
	tmplTags      = []string{"div", "p", "span", "a", "ul", "ol", "li", "h1", "h2", "section", "article", "nav", "header", "footer", "main", "table", "tr", "td", "th", "form", "label", "button", "select", "option", "textarea", "em", "strong", "small", "title", "svg"}
	tmplVoidTags  = []string{"br", "hr", "img", "input", "meta", "link"}
	tmplAttrNames = []string{"id", "class", "href", "src", "alt", "title", "name", "type", "value", "action", "method", "style", "lang", "rel", "data-id", "aria-label", "placeholder", "for"}
	tmplWords     = gen.OneOfWeighted(
		gen.W(8, gen.Tokens("Hello", "world", "Welcome", "Posts", "Read more", "Home", "About", "Contact", "Search", "Login", "Total:", "Price", "no items", "Next", "Previous", "by", "on", "and", "été", "über")),
		gen.W(2, gen.Tokens("&amp;", "&lt;", "&copy;", "&nbsp;", "&#8212;", "don't", "it's", "\"quoted\"", "a < b", "5 > 3", "{", "}", "%", "?")),
	)
	tmplAttrValues = gen.Tokens("main", "nav-item active", "/posts/", "https://example.com/", "logo.png", "text", "submit", "post", "en", "stylesheet", "btn btn-primary", "color: red", "q", "")
	// tmplComment is the text of a comment: prose, as people write it.
	tmplComment = gen.Tokens("TODO", "header", "main content", "don't cache this", "the user's name", "list of posts", "see layout", "FIXME: escape", "end of loop", "it's a hack", "fallback for \"old\" browsers", "")
	tmplWS      = gen.OneOfWeighted(gen.W(8, gen.Just(" ")), gen.W(2, gen.Tokens("", "\n", "  ", "\n  ", "\t")))
	tmplNL      = gen.OneOfWeighted(gen.W(6, gen.Just("\n")), gen.W(3, gen.Just("")), gen.W(1, gen.Tokens("\n  ", "\n\n", "\r\n", " ")))
)

// tmplLang holds what one template language's actions are made of.
type tmplLang struct {
	fields gen.Generator[string] // a value reference: .Title, user.name, $title
	strs   gen.Generator[string] // a string literal of the language
}

var tmplLangs = [...]tmplLang{
	TmplGo: {
		fields: gen.Tokens(".", ".Title", ".Site.Title", ".Params.description", ".User.Name", ".Content", ".Permalink", ".Date", "$post.Title", "$i", "$.Site.BaseURL", ".Items", ".Count"),
		strs:   gen.Tokens(`"main"`, `"%s - %d"`, `"it's"`, `"say \"hi\""`, "`raw`", `'x'`, `"2006-01-02"`, `""`, `"partials/header.html"`)},
	TmplHandlebars: {
		fields: gen.Tokens("title", "this", "user.name", "post.body", "@index", "../title", "items.length", "author.[first-name]", "this.url", "@root.site"),
		strs:   gen.Tokens(`"main"`, `'it'`, `"say \"hi\""`, `"MMMM Do"`, `""`, `'don\'t'`)},
	TmplEJS: {
		fields: gen.Tokens("title", "user.name", "post.body", "items.length", "locals.site", "item", "i", "user.email", "posts[0].title"),
		strs:   gen.Tokens(`"main"`, `'it\'s'`, `"say \"hi\""`, "`${title}`", `'partials/header'`, `''`, `"a'b"`)},
	TmplASP: {
		fields: gen.Tokens("title", "rs(\"name\")", "Session(\"user\")", "Request.QueryString(\"q\")", "i", "item", "Request.Form(\"email\")", "total"),
		strs:   gen.Tokens(`"main"`, `"it's"`, `"say ""hi"""`, `""`, `"<br>"`)},
	TmplPHP: {
		fields: gen.Tokens("$title", "$user['name']", "$post->title", "$i", "$item", "count($items)", "$_GET['q']", "$config[\"site\"]", "$this->name"),
		strs:   gen.Tokens(`'main'`, `'it\'s'`, `"say \"hi\" $name"`, `"{$user['name']}"`, `''`, `'header.php'`, `"a'b"`)},
}

type tmplWriter struct {
	t   *gfz.T
	cfg HTMLTemplateConfig
	l   tmplLang
	b   strings.Builder
}

func (w *tmplWriter) pick(n int) int { return gen.IntRange(0, n-1).Draw(w.t) }

// expr draws an expression of the language: a value, a string, a call,
// a comparison.
func (w *tmplWriter) expr() string {
	f, s := w.l.fields.Draw(w.t), w.l.strs.Draw(w.t)
	switch w.cfg.Lang {
	case TmplGo:
		switch w.pick(6) {
		case 0, 1:
			return f
		case 2:
			return f + " | " + gen.Tokens("html", "urlquery", "upper", "safeHTML", "len", "printf \"%v\"").Draw(w.t)
		case 3:
			return "printf " + s + " " + f
		case 4:
			return gen.Tokens("eq", "ne", "lt", "gt", "and", "or").Draw(w.t) + " " + f + " " + gen.OneOf(w.l.strs, w.l.fields, gen.Tokens("0", "1", "true")).Draw(w.t)
		default:
			return gen.Tokens("index", "default", "partial", "len", "not").Draw(w.t) + " " + gen.OneOf(w.l.strs, w.l.fields).Draw(w.t) + " " + f
		}
	case TmplHandlebars:
		switch w.pick(4) {
		case 0, 1:
			return f
		case 2:
			return gen.Tokens("formatDate", "lookup", "t", "concat").Draw(w.t) + " " + f + " " + s
		default:
			return gen.Tokens("uppercase", "json", "log").Draw(w.t) + " " + f
		}
	case TmplEJS:
		switch w.pick(5) {
		case 0, 1:
			return f
		case 2:
			return f + " " + gen.Tokens("===", "!==", "||", "&&", "+", ">").Draw(w.t) + " " + gen.OneOf(w.l.strs, w.l.fields, gen.Tokens("0", "null", "true")).Draw(w.t)
		case 3:
			return f + " ? " + s + " : " + w.l.strs.Draw(w.t)
		default:
			return gen.Tokens("JSON.stringify", "escape", "include", "String").Draw(w.t) + "(" + gen.OneOf(w.l.strs, w.l.fields).Draw(w.t) + ")"
		}
	case TmplASP:
		switch w.pick(4) {
		case 0, 1:
			return f
		case 2:
			return f + " " + gen.Tokens("&", "=", "<>", "And", "Or", "+").Draw(w.t) + " " + gen.OneOf(w.l.strs, w.l.fields, gen.Tokens("0", "True", "Nothing")).Draw(w.t)
		default:
			return gen.Tokens("Server.HTMLEncode", "Trim", "Len", "CStr", "FormatDateTime").Draw(w.t) + "(" + gen.OneOf(w.l.strs, w.l.fields).Draw(w.t) + ")"
		}
	default: // PHP
		switch w.pick(5) {
		case 0, 1:
			return f
		case 2:
			return f + " " + gen.Tokens("===", "!=", ".", "??", "&&", ">").Draw(w.t) + " " + gen.OneOf(w.l.strs, w.l.fields, gen.Tokens("0", "null", "true")).Draw(w.t)
		case 3:
			return f + " ? " + s + " : " + w.l.strs.Draw(w.t)
		default:
			return gen.Tokens("htmlspecialchars", "esc_html", "strtoupper", "date", "number_format", "json_encode").Draw(w.t) + "(" + gen.OneOf(w.l.strs, w.l.fields).Draw(w.t) + ")"
		}
	}
}

// output draws an action that prints a value.
func (w *tmplWriter) output() string {
	e := w.expr()
	switch w.cfg.Lang {
	case TmplGo:
		l, r := "{{", "}}"
		if w.pick(6) == 0 {
			l, r = gen.Tokens("{{", "{{- ").Draw(w.t), gen.Tokens("}}", " -}}").Draw(w.t)
		}
		return l + tmplWS.Draw(w.t) + e + tmplWS.Draw(w.t) + r
	case TmplHandlebars:
		switch w.pick(6) {
		case 0:
			return "{{{" + e + "}}}"
		case 1:
			return "{{~" + e + "~}}"
		default:
			return "{{" + tmplWS.Draw(w.t) + e + tmplWS.Draw(w.t) + "}}"
		}
	case TmplEJS:
		return gen.Tokens("<%=", "<%-", "<%=", "<%_=").Draw(w.t) + " " + e + " " + gen.Tokens("%>", "%>", "-%>").Draw(w.t)
	case TmplASP:
		if w.pick(4) == 0 {
			return "<% Response.Write(" + e + ") %>"
		}
		return "<%= " + e + " %>"
	default:
		switch w.pick(4) {
		case 0, 1:
			return "<?= " + e + " ?>"
		case 2:
			return "<?php echo " + e + "; ?>"
		default:
			return "<?php print(" + e + ")" + gen.Tokens(";", "").Draw(w.t) + " ?>"
		}
	}
}

// statement draws an action that prints nothing: an assignment, an
// include, a comment.
func (w *tmplWriter) statement() string {
	c := tmplComment.Draw(w.t)
	switch w.cfg.Lang {
	case TmplGo:
		switch w.pick(4) {
		case 0:
			return "{{/* " + c + " */}}"
		case 1:
			return "{{- /* " + c + " */ -}}"
		case 2:
			return "{{ template " + w.l.strs.Draw(w.t) + " . }}"
		default:
			return "{{ $" + gen.Tokens("x", "title", "n").Draw(w.t) + " := " + w.expr() + " }}"
		}
	case TmplHandlebars:
		switch w.pick(3) {
		case 0:
			return "{{! " + c + " }}"
		case 1:
			return "{{!-- " + c + " --}}"
		default:
			return "{{> " + gen.Tokens("header", "footer", "post-card", "(lookup . 'name')").Draw(w.t) + " }}"
		}
	case TmplEJS:
		switch w.pick(3) {
		case 0:
			return "<%# " + c + " %>"
		case 1:
			return "<%- include(" + w.l.strs.Draw(w.t) + ") %>"
		default:
			return "<% " + gen.Tokens("var", "let", "const").Draw(w.t) + " x = " + w.expr() + "; " + gen.Tokens("%>", "_%>", "-%>").Draw(w.t)
		}
	case TmplASP:
		switch w.pick(3) {
		case 0:
			return "<% ' " + c + " %>"
		case 1:
			return "<!-- #include file=\"" + gen.Tokens("header.asp", "footer.inc").Draw(w.t) + "\" -->"
		default:
			return "<% " + gen.Tokens("Dim x", "x = "+w.expr(), "Set rs = conn.Execute("+w.l.strs.Draw(w.t)+")", "Option Explicit").Draw(w.t) + " %>"
		}
	default:
		switch w.pick(5) {
		case 0:
			return "<?php // " + c + " ?>"
		case 1:
			return "<?php /* " + c + " */ ?>"
		case 2:
			return "<?php # " + c + " ?>"
		case 3:
			return "<?php " + gen.Tokens("include", "require_once", "require").Draw(w.t) + " " + w.l.strs.Draw(w.t) + "; ?>"
		default:
			return "<?php " + w.l.fields.Draw(w.t) + " = " + w.expr() + "; ?>"
		}
	}
}

// block draws a control structure of the language around runs of nodes:
// a condition with its alternatives, a loop, a scope.
func (w *tmplWriter) block(depth int) {
	body := func() { w.nodes(depth - 1) }
	e := w.expr()
	switch w.cfg.Lang {
	case TmplGo:
		switch w.pick(5) {
		case 0, 1:
			w.b.WriteString("{{ if " + e + " }}")
			body()
			if w.pick(3) == 0 {
				w.b.WriteString("{{ else if " + w.expr() + " }}")
				body()
			}
			if w.pick(2) == 0 {
				w.b.WriteString("{{ else }}")
				body()
			}
		case 2:
			w.b.WriteString("{{ range " + gen.Tokens("", "$i, $e := ", "$post := ").Draw(w.t) + w.l.fields.Draw(w.t) + " }}")
			body()
			if w.pick(4) == 0 {
				w.b.WriteString("{{ else }}")
				body()
			}
		case 3:
			w.b.WriteString("{{ with " + e + " }}")
			body()
		default:
			w.b.WriteString("{{ block " + w.l.strs.Draw(w.t) + " . }}")
			body()
		}
		w.b.WriteString(gen.Tokens("{{ end }}", "{{end}}", "{{- end }}").Draw(w.t))
	case TmplHandlebars:
		name := gen.Tokens("if", "unless", "each", "with").Draw(w.t)
		w.b.WriteString("{{#" + name + " " + w.l.fields.Draw(w.t) + "}}")
		body()
		if w.pick(3) == 0 {
			w.b.WriteString("{{else}}")
			body()
		}
		w.b.WriteString("{{/" + name + "}}")
	case TmplEJS:
		switch w.pick(3) {
		case 0:
			w.b.WriteString("<% if (" + e + ") { %>")
			body()
			if w.pick(2) == 0 {
				w.b.WriteString("<% } else { %>")
				body()
			}
			w.b.WriteString("<% } %>")
		case 1:
			w.b.WriteString("<% " + w.l.fields.Draw(w.t) + ".forEach(function(item" + gen.Tokens("", ", i").Draw(w.t) + ") { %>")
			body()
			w.b.WriteString("<% }) %>")
		default:
			w.b.WriteString("<% for (let i = 0; i < " + w.l.fields.Draw(w.t) + "; i++) { -%>")
			body()
			w.b.WriteString("<% } %>")
		}
	case TmplASP:
		if w.pick(2) == 0 {
			w.b.WriteString("<% If " + e + " Then %>")
			body()
			if w.pick(2) == 0 {
				w.b.WriteString("<% Else %>")
				body()
			}
			w.b.WriteString("<% End If %>")
		} else {
			w.b.WriteString("<% For Each item In " + w.l.fields.Draw(w.t) + " %>")
			body()
			w.b.WriteString("<% Next %>")
		}
	default:
		switch w.pick(3) {
		case 0: // the alternative syntax of views
			w.b.WriteString("<?php if (" + e + "): ?>")
			body()
			if w.pick(2) == 0 {
				w.b.WriteString("<?php else: ?>")
				body()
			}
			w.b.WriteString("<?php endif; ?>")
		case 1:
			w.b.WriteString("<?php foreach (" + w.l.fields.Draw(w.t) + " as " + gen.Tokens("$item", "$key => $value").Draw(w.t) + "): ?>")
			body()
			w.b.WriteString("<?php endforeach; ?>")
		default:
			w.b.WriteString("<?php if (" + e + ") { ?>")
			body()
			w.b.WriteString("<?php } ?>")
		}
	}
}

// attrs writes the attributes of a start tag: plain values in every
// quoting style, values holding actions, boolean attributes, and actions
// that print whole attributes.
func (w *tmplWriter) attrs() {
	for range gen.IntRange(0, 3).Draw(w.t) {
		w.b.WriteString(" ")
		name := gen.Tokens(tmplAttrNames...).Draw(w.t)
		switch w.pick(8) {
		case 0:
			w.b.WriteString(name)
		case 1:
			w.b.WriteString(name + `="` + tmplAttrValues.Draw(w.t) + `"`)
		case 2:
			w.b.WriteString(name + "='" + tmplAttrValues.Draw(w.t) + "'")
		case 3:
			w.b.WriteString(name + "=" + w.output())
		case 4, 5:
			pre := gen.Tokens("", "", "/posts/", "item ", "#").Draw(w.t)
			q := gen.Tokens(`"`, `"`, "'").Draw(w.t)
			w.b.WriteString(name + "=" + q + pre + w.output() + q)
		case 6:
			w.b.WriteString(name + `="` + tmplAttrValues.Draw(w.t) + " ")
			w.cond(func() { w.b.WriteString(gen.Tokens("active", "hidden", "selected").Draw(w.t)) })
			w.b.WriteString(`"`)
		default:
			w.cond(func() { w.b.WriteString(gen.Tokens("checked", "disabled", "selected", `class="active"`).Draw(w.t)) })
		}
	}
}

// cond writes inner under a one-line condition of the language.
func (w *tmplWriter) cond(inner func()) {
	f := w.l.fields.Draw(w.t)
	switch w.cfg.Lang {
	case TmplGo:
		w.b.WriteString("{{if " + f + "}}")
		inner()
		w.b.WriteString("{{end}}")
	case TmplHandlebars:
		w.b.WriteString("{{#if " + f + "}}")
		inner()
		w.b.WriteString("{{/if}}")
	case TmplEJS:
		w.b.WriteString("<% if (" + f + ") { %>")
		inner()
		w.b.WriteString("<% } %>")
	case TmplASP:
		w.b.WriteString("<% If " + f + " Then %>")
		inner()
		w.b.WriteString("<% End If %>")
	default:
		w.b.WriteString("<?php if (" + f + "): ?>")
		inner()
		w.b.WriteString("<?php endif; ?>")
	}
}

// raw writes a script or style element whose content may hold actions.
func (w *tmplWriter) raw() {
	if w.pick(2) == 0 {
		w.b.WriteString(gen.Tokens("<script>", `<script type="text/javascript">`, `<script type="module">`).Draw(w.t) + tmplNL.Draw(w.t))
		for range gen.IntRange(1, 3).Draw(w.t) {
			switch w.pick(4) {
			case 0:
				w.b.WriteString("var data = " + w.output() + ";")
			case 1:
				w.b.WriteString(`const url = "` + w.output() + `";`)
			case 2:
				w.b.WriteString("if (a < b && c > d) { console.log('it\\'s'); }")
			default:
				w.b.WriteString("document.title = \"x\"; // " + tmplComment.Draw(w.t))
			}
			w.b.WriteString(tmplNL.Draw(w.t))
		}
		w.b.WriteString("</script>")
		return
	}
	w.b.WriteString("<style>" + tmplNL.Draw(w.t))
	for range gen.IntRange(1, 2).Draw(w.t) {
		switch w.pick(3) {
		case 0:
			w.b.WriteString("body { color: " + w.output() + "; }")
		case 1:
			w.b.WriteString(`.hero { background: url("` + w.output() + `"); }`)
		default:
			w.b.WriteString("a:hover > span { margin: 0 auto; } /* " + tmplComment.Draw(w.t) + " */")
		}
		w.b.WriteString(tmplNL.Draw(w.t))
	}
	w.b.WriteString("</style>")
}

// nodes writes a run of sibling nodes: elements, text, actions, blocks,
// comments, scripts and styles.
func (w *tmplWriter) nodes(depth int) { w.run(depth, 0) }

// run writes from least to MaxNodes sibling nodes.
func (w *tmplWriter) run(depth, least int) {
	for range gen.IntRange(least, w.cfg.MaxNodes).Draw(w.t) {
		switch k := w.pick(16); {
		case k < 4 && depth > 0:
			tag := gen.Tokens(tmplTags...).Draw(w.t)
			w.b.WriteString("<" + tag)
			w.attrs()
			w.b.WriteString(">")
			w.nodes(depth - 1)
			if w.pick(8) > 0 {
				w.b.WriteString("</" + tag + ">")
			}
		case k < 5:
			w.b.WriteString("<" + gen.Tokens(tmplVoidTags...).Draw(w.t))
			w.attrs()
			w.b.WriteString(gen.Tokens(">", " />", "/>").Draw(w.t))
		case k < 8:
			w.b.WriteString(tmplWords.Draw(w.t))
		case k < 11:
			w.b.WriteString(w.output())
		case k < 12:
			w.b.WriteString(w.statement())
		case k < 14 && depth > 0:
			w.block(depth)
		case k < 15:
			w.b.WriteString("<!-- " + tmplComment.Draw(w.t) + " -->")
		default:
			if depth > 0 {
				w.raw()
			} else {
				w.b.WriteString(tmplWords.Draw(w.t))
			}
		}
		w.b.WriteString(tmplNL.Draw(w.t))
	}
}

// phpCode writes a PHP file that holds only code: its closing tag is
// omitted as PSR-12 requires, or present, as older files have it.
func (w *tmplWriter) phpCode() {
	w.b.WriteString("<?php\n")
	if w.pick(2) == 0 {
		w.b.WriteString(gen.Tokens("declare(strict_types=1);\n\n", "namespace App\\Views;\n\n", "defined('ABSPATH') || exit;\n\n").Draw(w.t))
	}
	for range gen.IntRange(1, 5).Draw(w.t) {
		switch w.pick(6) {
		case 0:
			w.b.WriteString(w.l.fields.Draw(w.t) + " = " + w.expr() + ";")
		case 1:
			w.b.WriteString("// " + tmplComment.Draw(w.t))
		case 2:
			w.b.WriteString("echo " + w.expr() + ";")
		case 3:
			w.b.WriteString("if (" + w.expr() + ") {\n    return " + w.l.strs.Draw(w.t) + ";\n}")
		case 4:
			w.b.WriteString("function " + gen.Tokens("render", "get_title", "h").Draw(w.t) + "($x) {\n    return htmlspecialchars($x, ENT_QUOTES);\n}")
		default:
			w.b.WriteString(gen.Tokens("require_once", "include").Draw(w.t) + " __DIR__ . " + w.l.strs.Draw(w.t) + ";")
		}
		w.b.WriteString("\n")
	}
	if w.pick(3) == 0 {
		w.b.WriteString("?>")
	}
}

// HTMLTemplate generates HTML templates in the language of cfg.Lang:
// HTML documents or fragments (elements with attributes, text with
// character references, comments, scripts and styles) with the
// language's actions in text, in attribute values, as whole attributes
// and inside scripts and styles: output expressions, statements and
// comments, and blocks (conditions with their alternatives, loops,
// scopes) around runs of nodes. A Go layout may be wrapped in a define
// block, and a PHP file may hold only code (an eighth of them). A file
// ends in a newline most of the time.
// MistakesPer per mille of the documents go through Corrupt.
func HTMLTemplate(cfg HTMLTemplateConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &tmplWriter{t: t, cfg: cfg, l: tmplLangs[cfg.Lang]}
		switch {
		case cfg.Lang == TmplPHP && w.pick(8) == 0:
			w.phpCode()
		default:
			if cfg.Lang == TmplGo && w.pick(4) == 0 {
				w.b.WriteString(`{{ define "main" }}` + tmplNL.Draw(w.t))
				w.run(cfg.MaxDepth, 1)
				w.b.WriteString("{{ end }}")
				break
			}
			if w.pick(3) == 0 {
				w.b.WriteString(gen.Tokens("<!DOCTYPE html>", "<!doctype html>").Draw(w.t) + "\n")
			}
			w.run(cfg.MaxDepth, 1)
		}
		if w.pick(4) > 0 {
			w.b.WriteString("\n")
		}
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	})
}
