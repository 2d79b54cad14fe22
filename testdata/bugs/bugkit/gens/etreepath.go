package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// EtreePathConfig tunes EtreePath.
type EtreePathConfig struct {
	// Tags, Attrs and Values are the document's element names (with
	// their namespace prefixes, as "dc:title"), attribute names and
	// text or attribute values, drawn most of the time; empty: a few
	// generic ones.
	Tags, Attrs, Values []string
	// Prefixes and NamespaceURIs are the document's namespace prefixes
	// and URIs, for the namespace functions; may be empty.
	Prefixes, NamespaceURIs []string
	MaxSegments             int // segments of a path after its start; default 4
	MistakesPer             int // per mille of paths passed through Corrupt; default 0
}

func (c EtreePathConfig) withDefaults() EtreePathConfig {
	if len(c.Tags) == 0 {
		c.Tags = []string{"root", "item", "name", "value"}
	}
	if len(c.Attrs) == 0 {
		c.Attrs = []string{"id", "type", "lang"}
	}
	if len(c.Values) == 0 {
		c.Values = []string{"1", "en", "a b", ""}
	}
	if c.MaxSegments <= 0 {
		c.MaxSegments = 4
	}
	return c
}

// etpNameChars are the characters of drawn XML names (after a first
// letter or underscore): letters, digits, '-', '.', '_' and a few
// non-ASCII letters.
var etpNameChars = gen.OneOfWeighted(
	gen.W(10, gen.StringFrom("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-._", 1, 1)),
	gen.W(1, gen.Tokens("é", "ß", "水", "Ω")),
)

// etpStarts are the starts of a path (relative, from the root, from the
// current element, from its parent); etpSeps the separators of segments
// (a child step, a descendant step).
var (
	etpStarts = gen.OneOfWeighted(
		gen.W(4, gen.Tokens("")),
		gen.W(3, gen.Tokens("/", "//")),
		gen.W(3, gen.Tokens("./", ".//")),
		gen.W(1, gen.Tokens("../", "./../")),
	)
	etpSeps = gen.OneOfWeighted(gen.W(5, gen.Tokens("/")), gen.W(1, gen.Tokens("//")))
)

type etpWriter struct {
	t   *gfz.T
	cfg EtreePathConfig
}

// name draws one of names most of the time, else an XML name drawn
// character by character (sometimes with a namespace prefix).
func (w *etpWriter) name(names []string) string {
	if len(names) > 0 && gen.IntRange(0, 4).Draw(w.t) > 0 {
		return gen.Tokens(names...).Draw(w.t)
	}
	var b strings.Builder
	if len(w.cfg.Prefixes) > 0 && gen.IntRange(0, 3).Draw(w.t) == 0 {
		b.WriteString(gen.Tokens(w.cfg.Prefixes...).Draw(w.t) + ":")
	}
	b.WriteString(gen.StringFrom("abcdefghijklmnopqrstuvwxyz_", 1, 1).Draw(w.t))
	for range gen.IntRange(0, 7).Draw(w.t) {
		b.WriteString(etpNameChars.Draw(w.t))
	}
	return b.String()
}

// value draws a filter's comparison value: one of the document's values
// or drawn text, in single quotes or (etree 1.3 on) double quotes; a
// value holds the other kind of quote now and then, never its own.
func (w *etpWriter) value(pool []string) string {
	var v string
	switch k := gen.IntRange(0, 5).Draw(w.t); {
	case k <= 3 && len(pool) > 0:
		v = gen.Tokens(pool...).Draw(w.t)
	case k == 4:
		v = gen.Tokens("", " ", "it's", `say "hi"`, "a/b", "[x]", "1.5", "é").Draw(w.t)
	default:
		v = gen.StringFrom("abcdefghijklmnopqrstuvwxyz0123456789 -:/.", 0, 12).Draw(w.t)
	}
	switch {
	case !strings.Contains(v, "'") && (strings.Contains(v, `"`) || gen.IntRange(0, 2).Draw(w.t) > 0):
		return "'" + v + "'"
	case !strings.Contains(v, `"`):
		return `"` + v + `"`
	default:
		return "'" + strings.ReplaceAll(v, "'", "") + "'"
	}
}

// filter draws one bracketed filter of the path language: an attribute
// (present, or with a value), a child element (present, or with its
// text), a position, or a function (text, local-name, name,
// namespace-prefix, namespace-uri), with or without a value.
func (w *etpWriter) filter() string {
	var f string
	switch gen.IntRange(0, 11).Draw(w.t) {
	case 0, 1:
		f = "@" + w.name(w.cfg.Attrs)
	case 2, 3, 4:
		f = "@" + w.name(w.cfg.Attrs) + "=" + w.value(w.cfg.Values)
	case 5:
		f = w.name(w.cfg.Tags)
	case 6:
		f = w.name(w.cfg.Tags) + "=" + w.value(w.cfg.Values)
	case 7, 8:
		if gen.IntRange(0, 5).Draw(w.t) == 0 {
			f = gen.Tokens("0", "-1", "-2", "10", "01").Draw(w.t)
		} else {
			f = itoa(gen.IntRange(1, 4).Draw(w.t))
		}
	case 9:
		f = gen.Tokens("text()", "namespace-prefix()", "namespace-uri()").Draw(w.t)
	default:
		switch gen.IntRange(0, 4).Draw(w.t) {
		case 0:
			f = "text()=" + w.value(w.cfg.Values)
		case 1:
			f = "local-name()=" + w.value(w.cfg.Tags)
		case 2:
			f = "name()=" + w.value(w.cfg.Tags)
		case 3:
			f = "namespace-prefix()=" + w.value(append([]string{""}, w.cfg.Prefixes...))
		default:
			f = "namespace-uri()=" + w.value(append([]string{""}, w.cfg.NamespaceURIs...))
		}
	}
	return "[" + f + "]"
}

// segment draws a selector (an element name, '*', '.' or '..') and its
// filters.
func (w *etpWriter) segment() string {
	var s string
	switch gen.IntRange(0, 9).Draw(w.t) {
	case 6, 7:
		s = "*"
	case 8:
		s = "."
	case 9:
		s = ".."
	default:
		s = w.name(w.cfg.Tags)
	}
	if s == "." || s == ".." {
		// Filters on . and .. are allowed but rare in practice.
		if gen.IntRange(0, 3).Draw(w.t) > 0 {
			return s
		}
	}
	for range gen.IntRange(0, 5).Draw(w.t) / 2 {
		s += w.filter()
	}
	return s
}

// EtreePath generates paths of etree's path language (the package
// documentation of path.go): an optional start ('/' for the root, './',
// './/', '//', '../'), then segments separated by '/' or '//' (a
// descendant step), each a selector (a tag, possibly prefixed, '*', '.',
// '..') followed by filters ([@attr], [@attr='val'], [tag], [tag='val'],
// [n], [text()], [text()='val'], [local-name()='val'], [name()='val'],
// [namespace-prefix()], [namespace-prefix()='val'], [namespace-uri()],
// [namespace-uri()='val'], values in single or double quotes), sometimes
// ending in '//'; MistakesPer per mille go through Corrupt.
func EtreePath(cfg EtreePathConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &etpWriter{t: t, cfg: cfg}
		var b strings.Builder
		b.WriteString(etpStarts.Draw(t))
		n := gen.IntRange(1, cfg.MaxSegments).Draw(t)
		for i := range n {
			if i > 0 {
				b.WriteString(etpSeps.Draw(t))
			}
			b.WriteString(w.segment())
		}
		if gen.IntRange(0, 14).Draw(t) == 0 {
			b.WriteString("//")
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
