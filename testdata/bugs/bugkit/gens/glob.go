package gens

import (
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// GlobConfig tunes Glob.
type GlobConfig struct {
	MaxDepth int // nesting of alternative groups; default 2
	// Alphabet holds the literal characters of patterns and subjects;
	// empty: "abcz01-_ é".
	Alphabet string
	// Separators are the characters a case may declare as separators
	// (each is in a case's set or not); empty: "./".
	Separators  string
	MaxSubjects int // subjects per case; default 3
	MistakesPer int // per mille of patterns passed through Corrupt; default 0
}

func (c GlobConfig) withDefaults() GlobConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 2
	}
	if c.Alphabet == "" {
		c.Alphabet = "abcz01-_ é"
	}
	if c.Separators == "" {
		c.Separators = "./"
	}
	if c.MaxSubjects <= 0 {
		c.MaxSubjects = 3
	}
	return c
}

// GlobCase is a glob pattern, the separators it is compiled with, and
// strings to match it against.
type GlobCase struct {
	Pattern    string
	Separators string
	Subjects   []string
}

// globNode is one term of a pattern: what it is written as, and how to
// write a string it matches.
type globNode struct {
	kind     int          // globLit, globSep, globAny, globSuper, globSingle, globClass, globAlt
	text     string       // as written in the pattern
	plain    string       // globLit: the characters it matches
	alts     [][]globNode // globAlt
	inClass  []rune       // globClass: the characters it lists (ranges expanded)
	negClass bool
}

const (
	globLit = iota
	globSep
	globAny
	globSuper
	globSingle
	globClass
	globAlt
)

// globMeta are the characters the syntax gives a meaning outside classes
// (the comma only inside a group; escaping it is always allowed).
const globMeta = `*?[]{}\,`

var globRanges = [][2]rune{{'a', 'c'}, {'a', 'z'}, {'0', '9'}, {'x', 'z'}, {'A', 'Z'}, {'0', '1'}}

type globWriter struct {
	t    *gfz.T
	cfg  GlobConfig
	seps []rune // the case's separators
}

func (w *globWriter) char() rune {
	return []rune(gen.StringFrom(w.cfg.Alphabet, 1, 1).Draw(w.t))[0]
}

// literal draws a run of one to four literal characters, metacharacters
// escaped; now and then an escaped metacharacter.
func (w *globWriter) literal() globNode {
	var text, plain strings.Builder
	for range gen.IntRange(1, 4).Draw(w.t) {
		c := w.char()
		if gen.IntRange(0, 9).Draw(w.t) == 0 {
			c = []rune(gen.StringFrom(globMeta, 1, 1).Draw(w.t))[0]
		}
		if strings.ContainsRune(globMeta, c) {
			text.WriteByte('\\')
		}
		text.WriteRune(c)
		plain.WriteRune(c)
	}
	return globNode{kind: globLit, text: text.String(), plain: plain.String()}
}

// class draws a character class as the library documents it: a list of
// characters, [abc] or [!abc] (']' and '\\' escaped), or one range, [a-z]
// or [!a-z].
func (w *globWriter) class() globNode {
	n := globNode{kind: globClass}
	var b strings.Builder
	b.WriteByte('[')
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		n.negClass = true
		b.WriteByte('!')
	}
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		r := globRanges[gen.IntRange(0, len(globRanges)-1).Draw(w.t)]
		b.WriteRune(r[0])
		b.WriteByte('-')
		b.WriteRune(r[1])
		for c := r[0]; c <= r[1]; c++ {
			n.inClass = append(n.inClass, c)
		}
	} else {
		for range gen.IntRange(1, 3).Draw(w.t) {
			c := w.char()
			if gen.IntRange(0, 9).Draw(w.t) == 0 {
				c = []rune(gen.StringFrom(`]\!`, 1, 1).Draw(w.t))[0]
			}
			if c == '-' {
				c = '_' // a '-' second in the list would read as a range
			}
			if c == ']' || c == '\\' || (c == '!' && b.Len() == 1) {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
			n.inClass = append(n.inClass, c)
		}
	}
	b.WriteByte(']')
	n.text = b.String()
	return n
}

// term draws one term of a pattern.
func (w *globWriter) term(depth int) globNode {
	k := gen.IntRange(0, 11).Draw(w.t)
	if depth <= 0 && k == 11 {
		k = gen.IntRange(0, 10).Draw(w.t)
	}
	switch k {
	case 0, 1, 2, 3:
		return w.literal()
	case 4:
		if len(w.seps) > 0 {
			s := string(w.seps[gen.IntRange(0, len(w.seps)-1).Draw(w.t)])
			return globNode{kind: globSep, text: s}
		}
		return w.literal()
	case 5, 6:
		return globNode{kind: globAny, text: "*"}
	case 7:
		return globNode{kind: globSuper, text: "**"}
	case 8:
		return globNode{kind: globSingle, text: "?"}
	case 9, 10:
		return w.class()
	default:
		n := globNode{kind: globAlt}
		for range gen.IntRange(1, 4).Draw(w.t) {
			n.alts = append(n.alts, w.pattern(depth-1, 0, 3))
		}
		return n
	}
}

// pattern draws a sequence of lo to hi terms. Two wildcards in a row are
// kept apart by a literal, so that each is the wildcard it was drawn as.
func (w *globWriter) pattern(depth, lo, hi int) []globNode {
	var out []globNode
	for range gen.IntRange(lo, hi).Draw(w.t) {
		n := w.term(depth)
		if len(out) > 0 && (n.kind == globAny || n.kind == globSuper) {
			if p := out[len(out)-1].kind; p == globAny || p == globSuper {
				out = append(out, w.literal())
			}
		}
		out = append(out, n)
	}
	return out
}

func globText(ns []globNode) string {
	var b strings.Builder
	for _, n := range ns {
		if n.kind != globAlt {
			b.WriteString(n.text)
			continue
		}
		b.WriteByte('{')
		for i, a := range n.alts {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(globText(a))
		}
		b.WriteByte('}')
	}
	return b.String()
}

// nonSep draws a character of the alphabet that is not a separator.
func (w *globWriter) nonSep() rune {
	c := w.char()
	for i := 0; i < 4 && containsRune(w.seps, c); i++ {
		c = w.char()
	}
	if containsRune(w.seps, c) {
		return 'a'
	}
	return c
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// instance writes a string the terms match (as the syntax defines them).
func (w *globWriter) instance(ns []globNode, b *strings.Builder) {
	for _, n := range ns {
		switch n.kind {
		case globLit:
			b.WriteString(n.plain)
		case globSep:
			b.WriteString(n.text)
		case globAny:
			for range gen.IntRange(0, 4).Draw(w.t) {
				b.WriteRune(w.nonSep())
			}
		case globSuper:
			all := w.cfg.Alphabet + string(w.seps)
			b.WriteString(gen.StringFrom(all, 0, 6).Draw(w.t))
		case globSingle:
			b.WriteRune(w.nonSep())
		case globClass:
			if !n.negClass {
				b.WriteRune(n.inClass[gen.IntRange(0, len(n.inClass)-1).Draw(w.t)])
				continue
			}
			c := w.nonSep()
			for i := 0; i < 4 && containsRune(n.inClass, c); i++ {
				c = w.nonSep()
			}
			b.WriteRune(c)
		case globAlt:
			w.instance(n.alts[gen.IntRange(0, len(n.alts)-1).Draw(w.t)], b)
		}
	}
}

// subject draws a string to match: mostly one the pattern matches,
// sometimes one with a small edit, sometimes any string of the alphabet
// and separators.
func (w *globWriter) subject(ns []globNode) string {
	all := w.cfg.Alphabet + string(w.seps)
	switch k := gen.IntRange(0, 8).Draw(w.t); {
	case k < 6:
		var b strings.Builder
		w.instance(ns, &b)
		return b.String()
	case k < 8:
		var b strings.Builder
		w.instance(ns, &b)
		r := []rune(b.String())
		pos := gen.IntRange(0, len(r)).Draw(w.t)
		switch gen.IntRange(0, 2).Draw(w.t) {
		case 0: // insert
			c := []rune(gen.StringFrom(all, 1, 1).Draw(w.t))[0]
			r = append(r[:pos], append([]rune{c}, r[pos:]...)...)
		case 1: // delete
			if pos < len(r) {
				r = append(r[:pos], r[pos+1:]...)
			}
		default: // replace
			if pos < len(r) {
				r[pos] = []rune(gen.StringFrom(all, 1, 1).Draw(w.t))[0]
			}
		}
		return string(r)
	default:
		return gen.StringFrom(all, 0, 12).Draw(w.t)
	}
}

// Glob generates glob matching cases in the syntax of the glob libraries
// with separators (gobwas/glob's: `*` any run of non-separator
// characters, `**` any run of characters, `?` one non-separator
// character, classes `[abc]`, `[a-z]`, `[!...]` with escapes, groups of
// comma-separated alternative patterns `{a,b*}`, nested, and literal
// characters with `\` escapes of the metacharacters): a pattern, a set of
// separators drawn from the configured ones, and one to MaxSubjects
// strings, most of them strings the pattern matches (each wildcard, class
// and group filled in from the alphabet and separators), some with one
// edit, some arbitrary. MistakesPer per mille of the patterns go through
// Corrupt.
func Glob(cfg GlobConfig) gen.Generator[GlobCase] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) GlobCase {
		w := &globWriter{t: t, cfg: cfg}
		for _, r := range cfg.Separators {
			if gen.Bool().Draw(t) {
				w.seps = append(w.seps, r)
			}
		}
		ns := w.pattern(cfg.MaxDepth, 0, 6)
		c := GlobCase{Pattern: Corrupt(t, globText(ns), cfg.MistakesPer), Separators: string(w.seps)}
		for range gen.IntRange(1, cfg.MaxSubjects).Draw(t) {
			s := w.subject(ns)
			if !utf8.ValidString(s) {
				s = strings.ToValidUTF8(s, "?")
			}
			c.Subjects = append(c.Subjects, s)
		}
		return c
	})
}
