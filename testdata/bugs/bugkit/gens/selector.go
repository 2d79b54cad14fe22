package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// CSSSelectorConfig tunes CSSSelector.
type CSSSelectorConfig struct {
	MaxDepth int // nesting of functional pseudo-classes (:not, :has...); default 2
	// Tags, Classes, IDs and Attrs are the names the selectors use most of
	// the time (the caller's document); empty: a few common ones.
	Tags, Classes, IDs, Attrs []string
	MistakesPer               int // per mille of selectors passed through Corrupt; default 0
}

func (c CSSSelectorConfig) withDefaults() CSSSelectorConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 2
	}
	if len(c.Tags) == 0 {
		c.Tags = []string{"div", "p", "a", "span", "ul", "li", "table", "td", "input"}
	}
	if len(c.Classes) == 0 {
		c.Classes = []string{"item", "active", "nav", "btn-primary"}
	}
	if len(c.IDs) == 0 {
		c.IDs = []string{"main", "header", "footer"}
	}
	if len(c.Attrs) == 0 {
		c.Attrs = []string{"href", "class", "id", "type", "lang", "title", "data-id"}
	}
	return c
}

var (
	selIdentChars = gen.OneOfWeighted(
		gen.W(12, gen.StringFrom("abcdefghijklmnopqrstuvwxyzABCZ-_0123456789", 1, 1)),
		gen.W(1, gen.Tokens(`\31 `, `\:`, `\.`, `\#`, `\\`, `\e9 `, "é", "水")),
	)
	selAttrOps     = gen.OneOfWeighted(gen.W(8, gen.Tokens("=", "~=", "|=", "^=", "$=", "*=")), gen.W(1, gen.Tokens("!=", "#=")))
	selCombinators = gen.OneOfWeighted(
		gen.W(6, gen.Tokens(" ", " > ", ">", " + ", " ~ ")),
		gen.W(1, gen.Tokens("\t", "  >  ", "\n~", "+", " /* c */ ")),
	)
	selNth = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("1", "2", "odd", "even", "2n", "2n+1", "-n+3", "3n-1", "n", "+5", "-2n+ 4", "0n+0", "ODD", "n+ 2", "- n+1")),
		gen.W(2, gen.Custom(func(t *gfz.T) string {
			return itoa(gen.IntRange(0, 12).Draw(t)) + "n" + gen.Tokens("+", "-", " + ", " - ").Draw(t) + itoa(gen.IntRange(0, 12).Draw(t))
		})),
	)
	selSimplePseudo = gen.Tokens("first-child", "last-child", "first-of-type", "last-of-type", "only-child", "only-of-type",
		"empty", "root", "link", "input", "enabled", "disabled", "checked", "hover", "visited", "focus", "target", "First-Child")
	selPseudoElements = gen.Tokens("before", "after", "first-line", "first-letter", "selection", "placeholder", "marker")
	selText           = gen.Tokens("Hello", "world", "", "a b", `say \"hi\"`, "é", "Item 2", `back\\slash`)
	selRegex          = gen.Tokens(`^\d+$`, `[a-z]+`, `(?i)hello`, `item \d`, `.*`, `^$`, `a|b`, `x{2,}`)
)

type selWriter struct {
	t   *gfz.T
	cfg CSSSelectorConfig
}

// ident draws an identifier: one of the caller's names most of the time,
// else drawn characters (with escapes, non-ASCII letters).
func (w *selWriter) ident(names []string) string {
	if gen.IntRange(0, 4).Draw(w.t) > 0 {
		return gen.Tokens(names...).Draw(w.t)
	}
	var b strings.Builder
	b.WriteString(gen.StringFrom("abcdefghijklmnopqrstuvwxyz_-", 1, 1).Draw(w.t))
	for range gen.IntRange(0, 8).Draw(w.t) {
		b.WriteString(selIdentChars.Draw(w.t))
	}
	return b.String()
}

// str draws a quoted string, in single or double quotes, with escapes.
func (w *selWriter) str(s string) string {
	if gen.Bool().Draw(w.t) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, `\"`, `"`) + "'"
}

// attr draws an attribute selector: presence, or an operator and a value
// (identifier or string; a regular expression for #=), with the case
// flag sometimes, whitespace here and there.
func (w *selWriter) attr() string {
	ws := func() string { return gen.Tokens("", "", "", " ").Draw(w.t) }
	name := w.ident(w.cfg.Attrs)
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		return "[" + ws() + name + ws() + "]"
	}
	op := selAttrOps.Draw(w.t)
	var val string
	switch {
	case op == "#=":
		val = "(" + selRegex.Draw(w.t) + ")"
	case gen.Bool().Draw(w.t):
		val = w.str(gen.Tokens("en", "https://", ".pdf", "item", "", "a b", "text/css", `\"q\"`).Draw(w.t))
	default:
		val = w.ident(append(append([]string{"en", "submit", "checkbox", "x"}, w.cfg.Classes...), w.cfg.IDs...))
	}
	flag := ""
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		flag = " " + gen.Tokens("i", "I", "s").Draw(w.t)
	}
	return "[" + ws() + name + ws() + op + ws() + val + flag + ws() + "]"
}

// pseudo draws a pseudo-class: a simple one, or a functional one with
// its argument (selectors, text, a regular expression, an An+B
// expression, a language).
func (w *selWriter) pseudo(depth int) string {
	k := gen.IntRange(0, 9).Draw(w.t)
	if depth <= 0 && k >= 8 {
		k = gen.IntRange(0, 7).Draw(w.t)
	}
	switch k {
	case 0, 1, 2:
		return ":" + selSimplePseudo.Draw(w.t)
	case 3, 4:
		return ":" + gen.Tokens("nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type").Draw(w.t) + "(" + selNth.Draw(w.t) + ")"
	case 5:
		return ":" + gen.Tokens("contains", "containsOwn").Draw(w.t) + "(" + w.str(selText.Draw(w.t)) + ")"
	case 6:
		return ":" + gen.Tokens("matches", "matchesOwn").Draw(w.t) + "(" + selRegex.Draw(w.t) + ")"
	case 7:
		return ":lang(" + gen.Tokens("en", "fr-CA", "de", "EN-us").Draw(w.t) + ")"
	default:
		return ":" + gen.Tokens("not", "has", "haschild").Draw(w.t) + "(" + w.group(depth-1) + ")"
	}
}

// compound draws a sequence of simple selectors: an optional type or
// universal selector, then IDs, classes, attribute selectors and
// pseudo-classes.
func (w *selWriter) compound(depth int) string {
	var b strings.Builder
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0, 1, 2:
		b.WriteString(w.ident(w.cfg.Tags))
	case 3:
		b.WriteString("*")
	}
	n := gen.IntRange(0, 3).Draw(w.t)
	if b.Len() == 0 {
		n = max(n, 1)
	}
	for range n {
		switch gen.IntRange(0, 9).Draw(w.t) {
		case 0, 1:
			b.WriteString("#" + w.ident(w.cfg.IDs))
		case 2, 3, 4:
			b.WriteString("." + w.ident(w.cfg.Classes))
		case 5, 6:
			b.WriteString(w.attr())
		default:
			b.WriteString(w.pseudo(depth))
		}
	}
	return b.String()
}

// complex draws compound selectors joined by combinators.
func (w *selWriter) complex(depth int) string {
	s := w.compound(depth)
	for range gen.IntRange(0, 6).Draw(w.t) / 2 {
		s += selCombinators.Draw(w.t) + w.compound(depth)
	}
	return s
}

// group draws a selector list: complex selectors separated by commas.
func (w *selWriter) group(depth int) string {
	parts := []string{w.complex(depth)}
	for range gen.IntRange(0, 5).Draw(w.t) / 3 {
		parts = append(parts, w.complex(depth))
	}
	return join(parts, gen.Tokens(", ", ",", " , ").Draw(w.t))
}

// CSSSelector generates CSS selector lists (Selectors Level 3 and 4, plus
// the extensions of the Go selector engines: :contains, :matches,
// :has, :haschild, the != and #= attribute operators): type and
// universal selectors, IDs, classes, attribute selectors with every
// operator, string or identifier values and the case flags, simple and
// functional pseudo-classes (:nth-* with An+B expressions, :not/:has
// nested to MaxDepth, :lang, text and regular-expression matches), an
// occasional pseudo-element, combinators, comments and escapes in
// identifiers; MistakesPer per mille go through Corrupt.
func CSSSelector(cfg CSSSelectorConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &selWriter{t: t, cfg: cfg}
		s := w.group(cfg.MaxDepth)
		if gen.IntRange(0, 19).Draw(t) == 0 {
			s += gen.Tokens("::", ":").Draw(t) + selPseudoElements.Draw(t)
		}
		if gen.IntRange(0, 9).Draw(t) == 0 {
			s = gen.Tokens(" ", "\n", "/* x */").Draw(t) + s + gen.Tokens(" ", "\t").Draw(t)
		}
		return Corrupt(t, s, cfg.MistakesPer)
	})
}
