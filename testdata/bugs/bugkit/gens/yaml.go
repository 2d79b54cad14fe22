package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// YAMLConfig tunes YAML.
type YAMLConfig struct {
	MaxDepth    int // nesting of mappings and sequences; default 3
	MaxEntries  int // entries per mapping or sequence; default 3
	MaxDocs     int // documents per stream; default 2
	MistakesPer int // per mille of streams passed through Corrupt; default 0
}

func (c YAMLConfig) withDefaults() YAMLConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxEntries <= 0 {
		c.MaxEntries = 3
	}
	if c.MaxDocs <= 0 {
		c.MaxDocs = 2
	}
	return c
}

var (
	yamlPlain = gen.OneOfWeighted(
		gen.W(6, gen.StringFrom("abcxyz0 ", 1, 6)),
		gen.W(3, gen.Tokens("0", "-1", "0x1F", "0o17", "1.5", "1e3", ".inf", "-.Inf", ".nan", "true", "False", "yes", "no",
			"null", "~", "2001-12-14t21:59:43.10-05:00", "2002-12-14", "a b", "a:b", "a#b", "<<", "=", "é")),
	)
	yamlDQ = gen.OneOfWeighted(
		gen.W(6, gen.StringFrom("abc 0:#-", 0, 5)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\"`, `\\`, `\x41`, `\u00e9`, `\U0001F600`, `\0`, `\ `, `\_`, `\N`, "\n", "\\\n")),
	)
	yamlSQ      = gen.OneOf(gen.StringFrom("abc 0:#-\"", 0, 5), gen.Tokens("''", "\n", "a''b"))
	yamlKey     = gen.OneOfWeighted(gen.W(6, gen.StringFrom("abkxyz0", 1, 4)), gen.W(1, gen.Tokens("<<", "? x", "0", "true", "null")))
	yamlTag     = gen.Tokens("!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!!binary", "!!timestamp", "!!merge", "!x", "!", "!<tag:yaml.org,2002:str>", "!e!x")
	yamlAnchor  = gen.StringFrom("ab0", 1, 3)
	yamlComment = gen.Map(gen.StringFrom("abc #:-", 0, 5), func(s string) string { return "#" + s })
	yamlIndent  = gen.Tokens("  ", "  ", "    ", " ", "   ")
)

type yamlWriter struct {
	t       *gfz.T
	cfg     YAMLConfig
	anchors []string
}

// props draws the optional node properties: a tag and an anchor.
func (w *yamlWriter) props() string {
	var p []string
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		p = append(p, yamlTag.Draw(w.t))
	}
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		a := yamlAnchor.Draw(w.t)
		w.anchors = append(w.anchors, a)
		p = append(p, "&"+a)
	}
	if len(p) == 0 {
		return ""
	}
	return strings.Join(p, " ") + " "
}

func (w *yamlWriter) alias() string {
	if len(w.anchors) > 0 && gen.IntRange(0, 3).Draw(w.t) > 0 {
		return "*" + gen.Tokens(w.anchors...).Draw(w.t)
	}
	return "*" + yamlAnchor.Draw(w.t)
}

// scalar draws a flow scalar (plain, double- or single-quoted) or an alias.
func (w *yamlWriter) scalar() string {
	switch gen.IntRange(0, 11).Draw(w.t) {
	case 0, 1, 2, 3, 4, 5:
		return w.props() + yamlPlain.Draw(w.t)
	case 6, 7:
		return w.props() + `"` + yamlDQ.Draw(w.t) + yamlDQ.Draw(w.t) + `"`
	case 8, 9:
		return w.props() + `'` + yamlSQ.Draw(w.t) + `'`
	case 10:
		return w.alias()
	default:
		return w.props()
	}
}

// flow draws a flow node: a scalar, [sequence] or {mapping}.
func (w *yamlWriter) flow(depth int) string {
	k := gen.IntRange(0, 3).Draw(w.t)
	if depth <= 0 || k < 2 {
		return w.scalar()
	}
	n := gen.IntRange(0, w.cfg.MaxEntries).Draw(w.t)
	items := make([]string, n)
	for i := range items {
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0:
			items[i] = w.scalar() + ": " + w.flow(depth-1)
		case 1:
			items[i] = "? " + w.flow(depth-1)
		default:
			items[i] = w.flow(depth - 1)
		}
	}
	sep := gen.Tokens(", ", ",", ",\n", " , ").Draw(w.t)
	trail := gen.Tokens("", "", ",").Draw(w.t)
	if k == 2 {
		return w.props() + "[" + strings.Join(items, sep) + trail + "]"
	}
	return w.props() + "{" + strings.Join(items, sep) + trail + "}"
}

// blockScalar draws a literal or folded scalar, its lines indented by ind.
func (w *yamlWriter) blockScalar(ind string) string {
	h := gen.Tokens("|", ">", "|-", ">+", "|2", ">1-", "|+").Draw(w.t)
	var b strings.Builder
	b.WriteString(w.props() + h)
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		b.WriteString(" " + yamlComment.Draw(w.t))
	}
	for range gen.IntRange(0, 3).Draw(w.t) {
		b.WriteString("\n" + ind + gen.Tokens("", "", "", " ", " ", "\t").Draw(w.t) + gen.StringFrom("abc 0#:", 0, 5).Draw(w.t))
	}
	return b.String()
}

// value writes the value of a mapping entry or sequence item whose line
// is indented by ind: inline (a flow node or block scalar) or a nested
// block collection on the following lines.
func (w *yamlWriter) value(b *strings.Builder, ind string, depth int) {
	switch k := gen.IntRange(0, 5).Draw(w.t); {
	case depth > 0 && k <= 1:
		p := strings.TrimSpace(w.props())
		if p != "" {
			b.WriteString(" " + p)
		}
		if gen.IntRange(0, 4).Draw(w.t) == 0 {
			b.WriteString(" " + yamlComment.Draw(w.t))
		}
		b.WriteString("\n")
		w.block(b, ind+yamlIndent.Draw(w.t), depth-1)
	case k == 2:
		b.WriteString(" " + w.blockScalar(ind+yamlIndent.Draw(w.t)) + "\n")
	default:
		b.WriteString(" " + w.flow(depth))
		if gen.IntRange(0, 5).Draw(w.t) == 0 {
			b.WriteString(" " + yamlComment.Draw(w.t))
		}
		b.WriteString("\n")
	}
}

// block writes a block mapping or sequence at indentation ind.
func (w *yamlWriter) block(b *strings.Builder, ind string, depth int) {
	seq := gen.IntRange(0, 2).Draw(w.t) == 0
	n := gen.IntRange(1, w.cfg.MaxEntries).Draw(w.t)
	for range n {
		if gen.IntRange(0, 6).Draw(w.t) == 0 {
			b.WriteString(ind + yamlComment.Draw(w.t) + "\n")
		}
		if gen.IntRange(0, 9).Draw(w.t) == 0 {
			b.WriteString("\n")
		}
		switch {
		case seq:
			b.WriteString(ind + "-")
			w.value(b, ind, depth)
		case gen.IntRange(0, 7).Draw(w.t) == 0: // explicit key
			b.WriteString(ind + "? " + w.flow(depth) + "\n" + ind + ":")
			w.value(b, ind, depth)
		default:
			key := yamlKey.Draw(w.t)
			switch gen.IntRange(0, 5).Draw(w.t) {
			case 0:
				key = `"` + key + `"`
			case 1:
				key = w.props() + key
			}
			b.WriteString(ind + key + ":")
			w.value(b, ind, depth)
		}
	}
}

// YAML generates YAML streams: one or more documents (with or without
// "---" and "..." markers and %YAML/%TAG directives) of block mappings and
// sequences nested to MaxDepth with varied indentation, flow collections,
// every scalar style (plain, quoted with escapes, literal and folded with
// indentation and chomping indicators), tags, anchors and aliases,
// explicit keys, merge keys and comments; MistakesPer per mille of them go
// through Corrupt. Aliases may name anchors not defined (some streams are
// invalid YAML on purpose).
func YAML(cfg YAMLConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &yamlWriter{t: t, cfg: cfg}
		var b strings.Builder
		docs := gen.IntRange(1, cfg.MaxDocs).Draw(t)
		for i := range docs {
			if gen.IntRange(0, 5).Draw(t) == 0 {
				b.WriteString(gen.Tokens("%YAML 1.2\n", "%YAML 1.1\n", "%TAG !e! tag:e.com,2000:\n").Draw(t))
			}
			if i > 0 || gen.IntRange(0, 2).Draw(t) == 0 {
				b.WriteString("---")
				if gen.IntRange(0, 3).Draw(t) == 0 {
					b.WriteString(" " + w.flow(1))
					b.WriteString("\n")
					continue
				}
				b.WriteString("\n")
			}
			if gen.IntRange(0, 4).Draw(t) == 0 {
				b.WriteString(yamlComment.Draw(t) + "\n")
			}
			if gen.IntRange(0, 5).Draw(t) == 0 {
				b.WriteString(w.flow(cfg.MaxDepth) + "\n")
			} else {
				w.block(&b, "", cfg.MaxDepth)
			}
			if gen.IntRange(0, 5).Draw(t) == 0 {
				b.WriteString("...\n")
			}
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
