package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// RegexpConfig tunes Regexp and RegexpSubject.
type RegexpConfig struct {
	MaxDepth int // nesting of groups; default 3
	// Alphabet holds the literal characters patterns and subjects draw
	// from; empty: "abc01 -".
	Alphabet    string
	MistakesPer int // per mille of patterns passed through Corrupt; default 0
}

func (c RegexpConfig) withDefaults() RegexpConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.Alphabet == "" {
		c.Alphabet = "abc01 -"
	}
	return c
}

var (
	// reEscapes are the escapes of the .NET and ECMAScript syntaxes: classes,
	// assertions, control and code-point escapes, escaped metacharacters.
	reEscapes = gen.Tokens(`\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\b`, `\B`, `\A`, `\z`, `\Z`, `\G`, `\t`, `\n`, `\r`,
		`\f`, `\v`, `\0`, `\x41`, `\u00e9`, `\cA`, `\.`, `\*`, `\+`, `\?`, `\(`, `\)`, `\[`, `\]`, `\{`, `\}`, `\|`,
		`\\`, `\/`, `\^`, `\$`, `\-`, `\p{L}`, `\P{Lu}`, `\p{IsGreek}`, `\e`, `\a`, `\101`)
	reClassEscapes = gen.Tokens(`\d`, `\w`, `\s`, `\D`, `\W`, `\S`, `\-`, `\]`, `\\`, `\^`, `\n`, `\t`, `\x20`, `\u0041`, `\b`, `\p{Nd}`)
	reQuantifier   = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("*", "+", "?")),
		gen.W(3, gen.Custom(func(t *gfz.T) string {
			lo := gen.IntRange(0, 4).Draw(t)
			if gen.IntRange(0, 9).Draw(t) == 0 {
				lo = gen.IntRange(5, 60).Draw(t)
			}
			switch gen.IntRange(0, 2).Draw(t) {
			case 0:
				return "{" + itoa(lo) + "}"
			case 1:
				return "{" + itoa(lo) + ",}"
			default:
				return "{" + itoa(lo) + "," + itoa(lo+gen.IntRange(0, 5).Draw(t)) + "}"
			}
		})),
	)
	reGroupNames = []string{"x", "num", "word"}
	reOptions    = gen.Tokens("i", "m", "s", "n", "x", "im", "-i", "i-s")
)

type reWriter struct {
	t      *gfz.T
	cfg    RegexpConfig
	groups int      // capturing groups opened so far
	names  []string // named groups opened so far
}

func (w *reWriter) literal() string {
	c := gen.StringFrom(w.cfg.Alphabet, 1, 1).Draw(w.t)
	if strings.ContainsAny(c, `\^$.|?*+()[]{}`) {
		return `\` + c
	}
	return c
}

// class draws a character class: [abc], [^a-c], with escapes inside.
func (w *reWriter) class() string {
	var b strings.Builder
	b.WriteByte('[')
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		b.WriteByte('^')
	}
	for range gen.IntRange(1, 4).Draw(w.t) {
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0:
			b.WriteString(reClassEscapes.Draw(w.t))
		case 1:
			lo := gen.StringFrom("abcx0", 1, 1).Draw(w.t)
			hi := gen.StringFrom("ez9", 1, 1).Draw(w.t)
			b.WriteString(lo + "-" + hi)
		default:
			c := gen.StringFrom(w.cfg.Alphabet, 1, 1).Draw(w.t)
			if c == "]" || c == `\` || c == "^" || c == "-" {
				c = `\` + c
			}
			b.WriteString(c)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// atom draws a literal, escape, class, dot, anchor, group or backreference.
func (w *reWriter) atom(depth int) string {
	k := gen.IntRange(0, 15).Draw(w.t)
	if depth <= 0 && k >= 8 {
		k = gen.IntRange(0, 7).Draw(w.t)
	}
	switch k {
	case 0, 1, 2:
		s := w.literal()
		for range gen.IntRange(0, 3).Draw(w.t) {
			s += w.literal()
		}
		return s
	case 3:
		return reEscapes.Draw(w.t)
	case 4:
		return w.class()
	case 5:
		return "."
	case 6:
		return gen.Tokens("^", "$").Draw(w.t)
	case 7:
		// a backreference to a group opened before, by number or name
		if len(w.names) > 0 && gen.Bool().Draw(w.t) {
			return `\k<` + gen.Tokens(w.names...).Draw(w.t) + `>`
		}
		if w.groups > 0 {
			return `\` + itoa(gen.IntRange(1, w.groups).Draw(w.t))
		}
		return w.literal()
	case 8, 9:
		w.groups++
		return "(" + w.alternation(depth-1) + ")"
	case 10, 11:
		return "(?:" + w.alternation(depth-1) + ")"
	case 12:
		name := gen.Tokens(reGroupNames...).Draw(w.t)
		w.groups++
		w.names = append(w.names, name)
		return "(?<" + name + ">" + w.alternation(depth-1) + ")"
	case 13:
		return gen.Tokens("(?=", "(?!", "(?<=", "(?<!").Draw(w.t) + w.alternation(depth-1) + ")"
	case 14:
		return "(?>" + w.alternation(depth-1) + ")"
	default:
		// inline options, for the rest of the group or a subexpression
		if gen.Bool().Draw(w.t) {
			return "(?" + reOptions.Draw(w.t) + ")"
		}
		return "(?" + reOptions.Draw(w.t) + ":" + w.alternation(depth-1) + ")"
	}
}

// sequence draws a concatenation of quantified atoms (possibly empty).
func (w *reWriter) sequence(depth int) string {
	var b strings.Builder
	for range gen.IntRange(0, 4).Draw(w.t) {
		a := w.atom(depth)
		b.WriteString(a)
		if a != "^" && a != "$" && gen.IntRange(0, 3).Draw(w.t) == 0 {
			b.WriteString(reQuantifier.Draw(w.t))
			if gen.IntRange(0, 3).Draw(w.t) == 0 {
				b.WriteByte('?') // lazy
			}
		}
	}
	return b.String()
}

// alternation draws sequences separated by |.
func (w *reWriter) alternation(depth int) string {
	s := w.sequence(depth)
	for range gen.IntRange(0, 4).Draw(w.t) / 3 {
		s += "|" + w.sequence(depth)
	}
	return s
}

// Regexp generates regular expressions in the syntax of .NET-style
// backtracking engines (which ECMAScript and RE2 patterns mostly share):
// alternation, concatenation, literals from the alphabet (metacharacters
// escaped), escapes (character classes, assertions, control, hex, Unicode
// and octal escapes, Unicode categories), bracketed classes with ranges,
// negation and escapes, the dot, anchors, capturing, non-capturing and
// named groups, lookahead and lookbehind, atomic groups, inline options,
// numbered and named backreferences to groups already opened, and every
// quantifier (*, +, ?, {n}, {n,}, {n,m}), greedy or lazy; MistakesPer per
// mille go through Corrupt.
func Regexp(cfg RegexpConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &reWriter{t: t, cfg: cfg}
		return Corrupt(t, w.alternation(cfg.MaxDepth), cfg.MistakesPer)
	})
}

// RegexpSubject generates the text a pattern is matched against: up to
// 24 characters of the alphabet, sometimes with a newline or a non-ASCII
// letter.
func RegexpSubject(cfg RegexpConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.OneOfWeighted(
		gen.W(8, gen.StringFrom(cfg.Alphabet, 0, 24)),
		gen.W(1, gen.StringFrom(cfg.Alphabet+"\néZ", 0, 24)),
	)
}
