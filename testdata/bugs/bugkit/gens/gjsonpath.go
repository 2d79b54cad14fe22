package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gojson"
)

// PathConfig tunes GJSONPath.
type PathConfig struct {
	MaxDepth    int      // nesting of queries, multipaths and modifier arguments; default 2
	MaxParts    int      // components per path; default 4
	Keys        []string // preferred keys (the document generator's keys)
	MistakesPer int      // per mille of paths passed through Corrupt; default 0
}

func (c PathConfig) withDefaults() PathConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 2
	}
	if c.MaxParts <= 0 {
		c.MaxParts = 4
	}
	return c
}

var modifiers = []string{"@reverse", "@ugly", "@pretty", "@this", "@valid", "@flatten", "@join", "@keys", "@values", "@tostr", "@fromstr", "@group", "@dig"}

type pathWriter struct {
	t   *gfz.T
	cfg PathConfig
}

func (w pathWriter) key() string {
	if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
		return gen.Tokens(w.cfg.Keys...).Draw(w.t)
	}
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0:
		return gen.StringFrom("ab*?", 1, 4).Draw(w.t) // wildcards
	case 1:
		return gen.StringFrom("a", 1, 2).Draw(w.t) + gen.Tokens(`\.`, `\*`, `\?`, `\@`, `\|`, `\#`).Draw(w.t)
	case 2:
		return strconv.Itoa(gen.IntRange(0, 5).Draw(w.t))
	}
	return gen.StringFrom("abcxyz_", 1, 5).Draw(w.t)
}

// literal is the right-hand side of a query condition.
func (w pathWriter) literal() string {
	switch gen.IntRange(0, 4).Draw(w.t) {
	case 0:
		return strconv.Itoa(gen.IntRange(-3, 100).Draw(w.t))
	case 1:
		return strconv.Quote(gen.StringFrom("ab*?", 0, 3).Draw(w.t))
	case 2:
		return gen.Tokens("true", "false", "null").Draw(w.t)
	}
	return w.key()
}

func (w pathWriter) query(depth int) string {
	var cond string
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0:
		cond = w.path(depth - 1)
	case 1:
		cond = w.path(depth-1) + gen.Tokens("==", "!=", "<", "<=", ">", ">=", "%", "!%", "=").Draw(w.t) + w.literal()
	case 2:
		cond = gen.Tokens("==", "!=", ">").Draw(w.t) + w.literal()
	default:
		cond = w.path(depth-1) + "." + w.query(depth-1)
	}
	q := "#(" + cond + ")"
	if gen.Bool().Draw(w.t) {
		q += "#"
	}
	return q
}

// arg is a modifier argument: a JSON value or a string.
func (w pathWriter) arg() string {
	switch gen.IntRange(0, 2).Draw(w.t) {
	case 0:
		return gojson.Value(gojson.Config{MaxDepth: 2, MaxItems: 3, Keys: []string{"preserve", "prefix", "indent", "sortKeys", "width"}}).Draw(w.t)
	case 1:
		return strconv.Quote(gen.StringFrom("ab ", 0, 3).Draw(w.t))
	}
	return gen.Tokens("true", "{}", "[]", `{"sortKeys":true}`, `{"indent":"\t"}`).Draw(w.t)
}

func (w pathWriter) component(depth int) string {
	k := gen.IntRange(0, 9).Draw(w.t)
	if depth <= 0 && k >= 6 {
		k = 0
	}
	switch k {
	case 0, 1, 2:
		return w.key()
	case 3:
		return "#"
	case 4, 5:
		m := gen.Tokens(modifiers...).Draw(w.t)
		if gen.Bool().Draw(w.t) {
			m += ":" + w.arg()
		}
		return m
	case 6, 7:
		return w.query(depth)
	default: // multipath
		n := gen.IntRange(1, 3).Draw(w.t)
		parts := make([]string, n)
		obj := gen.Bool().Draw(w.t)
		for i := range parts {
			parts[i] = w.path(depth - 1)
			if obj && gen.Bool().Draw(w.t) {
				parts[i] = strconv.Quote(w.key()) + ":" + parts[i]
			}
		}
		if obj {
			return "{" + strings.Join(parts, ",") + "}"
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
}

func (w pathWriter) path(depth int) string {
	n := gen.IntRange(1, w.cfg.MaxParts).Draw(w.t)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(gen.Tokens(".", ".", "|").Draw(w.t))
		}
		b.WriteString(w.component(depth))
	}
	return b.String()
}

// GJSONPath draws gjson path expressions: keys with wildcards and escapes,
// array indexes and #, queries #(...) and #(...)# with comparison and
// pattern operators (nested), modifiers with JSON or string arguments,
// multipaths [..] and {..}, joined by . and |. MistakesPer adds near-miss
// edits (Corrupt).
func GJSONPath(cfg PathConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := pathWriter{t: t, cfg: cfg}
		return Corrupt(t, w.path(cfg.MaxDepth), cfg.MistakesPer)
	}).Named("path")
}
