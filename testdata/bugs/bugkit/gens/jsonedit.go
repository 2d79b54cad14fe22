package gens

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// JSONEditConfig tunes JSONEditDocument and JSONEditPath.
type JSONEditConfig struct {
	MaxDepth int // nesting of objects and arrays; default 3
	MaxItems int // members of an object, elements of an array; default 5
	// Keys are the program's member names: half of the names of the
	// documents when set, and the components of JSONEditPath's paths of
	// the program's own schema.
	Keys        []string
	MistakesPer int // per mille of documents passed through Corrupt; default 0
}

func (c JSONEditConfig) withDefaults() JSONEditConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 5
	}
	return c
}

// JSONEditDoc is a drawn JSON text and the key path of every value in it
// but the top-level one, in document order, as path-based JSON libraries
// take paths: one component per step, a member's name unescaped, an array
// element's index written "[i]". The paths are those of the text before
// any near-miss edit.
type JSONEditDoc struct {
	Text  string
	Paths [][]string
}

var (
	// jeTextChars are the characters of string values: printable ASCII,
	// the short escapes, \u escapes (control characters, BMP characters,
	// a surrogate pair, and any code unit), raw non-ASCII UTF-8.
	jeTextChars = gen.OneOfWeighted(
		gen.W(12, gen.StringFrom("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 .,:;-_/@#!?'()[]{}<>=+*&%$~", 1, 1)),
		gen.W(2, gen.Tokens(`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`)),
		gen.W(1, gen.Tokens(`\u00e9`, `\u0000`, `\u001f`, `\u0041`, `\u2028`, `\ufeff`, `\ud83d\ude00`)),
		gen.W(1, gen.Map(gen.IntRange(0, 0xffff), func(n int) string { return jeU(n) })),
		gen.W(1, gen.Tokens("é", "ü", "ß", "水", "€", "😀", "\u2028")),
	)
	// jeNameRunes are the characters of generated member names: mostly
	// identifier characters, sometimes punctuation, a quote or backslash
	// (escaped when written), a space or non-ASCII letters.
	jeNameRunes = gen.OneOfWeighted(
		gen.W(12, gen.StringFrom("abcdefghijklmnopqrstuvwxyz_0123456789", 1, 1)),
		gen.W(2, gen.Tokens("A", "Z", "-", ".", "$", "@", " ", "/", ":", "[", "]")),
		gen.W(1, gen.Tokens(`"`, `\`, "\n", "\t", "é", "水", "😀")),
	)
	jeEdgeNumbers = gen.Tokens("0", "-0", "1", "-1", "0.0", "1e3", "1E-7", "-0.0e+0", "9007199254740993",
		"-9223372036854775808", "18446744073709551616", "1e400", "5e-324", "123456789012345678901234567890", "0.1")
	jeWhitespace = gen.Tokens(" ", "  ", "\t", "\n", "\r\n", "\n    ")
)

// jeU writes the \u escape of the code unit n.
func jeU(n int) string {
	s := strconv.FormatInt(int64(n), 16)
	return `\u` + strings.Repeat("0", 4-len(s)) + s
}

// Layouts of a document's insignificant whitespace.
const (
	jeCompact   = iota // {"a":1,"b":[2]}
	jeSpaced           // {"a": 1, "b": [2]}
	jeIndented         // one member or element a line, two spaces a level
	jeIrregular        // whitespace runs drawn at token boundaries
)

type jeWriter struct {
	t      *gfz.T
	cfg    JSONEditConfig
	layout int
	b      strings.Builder
	paths  [][]string
}

// brk writes the whitespace after an opening bracket or a comma, or
// before a closing bracket, of a container at depth level.
func (w *jeWriter) brk(level int) {
	switch w.layout {
	case jeIndented:
		w.b.WriteString("\n" + strings.Repeat("  ", level))
	case jeIrregular:
		w.maybeWS()
	}
}

// afterComma writes the whitespace after a comma.
func (w *jeWriter) afterComma(level int) {
	if w.layout == jeSpaced {
		w.b.WriteByte(' ')
		return
	}
	w.brk(level)
}

// afterColon writes the whitespace after a name separator.
func (w *jeWriter) afterColon() {
	switch w.layout {
	case jeSpaced, jeIndented:
		w.b.WriteByte(' ')
	case jeIrregular:
		w.maybeWS()
	}
}

func (w *jeWriter) maybeWS() {
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		w.b.WriteString(jeWhitespace.Draw(w.t))
	}
}

func (w *jeWriter) number() string {
	switch gen.IntRange(0, 6).Draw(w.t) {
	case 0, 1:
		return strconv.Itoa(gen.IntRange(-100, 1000).Draw(w.t))
	case 2:
		return jeEdgeNumbers.Draw(w.t)
	case 3: // fraction
		return strconv.Itoa(gen.IntRange(-100, 100).Draw(w.t)) + "." + gen.StringFrom("0123456789", 1, 6).Draw(w.t)
	case 4: // exponent
		m := strconv.Itoa(gen.IntRange(-9, 9).Draw(w.t))
		if gen.Bool().Draw(w.t) {
			m += "." + gen.StringFrom("0123456789", 1, 3).Draw(w.t)
		}
		return m + gen.Tokens("e", "E").Draw(w.t) + gen.Tokens("", "+", "-").Draw(w.t) + strconv.Itoa(gen.IntRange(0, 320).Draw(w.t))
	case 5:
		return strconv.FormatInt(gen.Int64().Draw(w.t), 10)
	}
	f := gen.Float64().Draw(w.t)
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if f != f || strings.Contains(s, "Inf") { // NaN and infinities have no JSON number
		return "0"
	}
	return s
}

// str writes a string value.
func (w *jeWriter) str() {
	w.b.WriteByte('"')
	for range gen.IntRange(0, 12).Draw(w.t) {
		w.b.WriteString(jeTextChars.Draw(w.t))
	}
	w.b.WriteByte('"')
}

// name returns a member name, unescaped: one of Keys half of the time
// when set, else a generated one of up to 8 characters (the empty name
// one time in nine).
func (w *jeWriter) name() string {
	if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
		return gen.Tokens(w.cfg.Keys...).Draw(w.t)
	}
	var b strings.Builder
	for range gen.IntRange(0, 8).Draw(w.t) {
		b.WriteString(jeNameRunes.Draw(w.t))
	}
	return b.String()
}

// quoteName writes name as a JSON string: the quote, the backslash and
// control characters escaped, a slash or a non-ASCII character escaped
// one time in four.
func (w *jeWriter) quoteName(name string) {
	w.b.WriteByte('"')
	for _, r := range name {
		switch {
		case r == '"':
			w.b.WriteString(`\"`)
		case r == '\\':
			w.b.WriteString(`\\`)
		case r == '\n':
			w.b.WriteString(`\n`)
		case r == '\t':
			w.b.WriteString(`\t`)
		case r < 0x20:
			w.b.WriteString(jeU(int(r)))
		case (r == '/' || r >= 0x80) && gen.IntRange(0, 3).Draw(w.t) == 0:
			if r == '/' {
				w.b.WriteString(`\/`)
			} else if r > 0xffff {
				r -= 0x10000
				w.b.WriteString(jeU(0xd800+int(r>>10)) + jeU(0xdc00+int(r&0x3ff)))
			} else {
				w.b.WriteString(jeU(int(r)))
			}
		default:
			w.b.WriteRune(r)
		}
	}
	w.b.WriteByte('"')
}

// jeStep returns path extended by one component, in a new slice.
func jeStep(path []string, c string) []string {
	return append(append(make([]string, 0, len(path)+1), path...), c)
}

// value writes a value at path (nil for the top level) at nesting level
// level, with depth levels of containers left.
func (w *jeWriter) value(path []string, level, depth int) {
	if path != nil {
		w.paths = append(w.paths, path)
	}
	k := gen.IntRange(0, 13).Draw(w.t)
	if depth <= 0 && k >= 9 {
		k %= 9
	}
	switch {
	case k < 4:
		w.str()
	case k < 7:
		w.b.WriteString(w.number())
	case k < 9:
		w.b.WriteString(gen.Tokens("true", "false", "null").Draw(w.t))
	case k < 12:
		w.object(path, level, depth-1)
	default:
		w.array(path, level, depth-1)
	}
}

func (w *jeWriter) object(path []string, level, depth int) {
	n := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	w.b.WriteByte('{')
	var names []string
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
			w.afterComma(level + 1)
		} else {
			w.brk(level + 1)
		}
		name := w.name()
		// Names should be unique (RFC 8259, 4): a repeated one is kept one
		// time in eight, else made unique with the member's index.
		if slices.Contains(names, name) && gen.IntRange(0, 7).Draw(w.t) != 0 {
			name += strconv.Itoa(i)
		}
		names = append(names, name)
		w.quoteName(name)
		if w.layout == jeIrregular {
			w.maybeWS()
		}
		w.b.WriteByte(':')
		w.afterColon()
		w.value(jeStep(path, name), level+1, depth)
	}
	if n > 0 {
		w.brk(level)
	}
	w.b.WriteByte('}')
}

func (w *jeWriter) array(path []string, level, depth int) {
	n := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	w.b.WriteByte('[')
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
			w.afterComma(level + 1)
		} else {
			w.brk(level + 1)
		}
		w.value(jeStep(path, "["+strconv.Itoa(i)+"]"), level+1, depth)
	}
	if n > 0 {
		w.brk(level)
	}
	w.b.WriteByte(']')
}

// JSONEditDocument draws JSON texts (RFC 8259) with the key path of each
// of their values: an object at the top most of the time (an array, or
// rarely a scalar, otherwise); objects and arrays nested to MaxDepth,
// with up to MaxItems members or elements; member names from Keys half of
// the time when set, else generated (punctuation, spaces, quotes,
// non-ASCII, escapes), unique in their object but now and then; strings
// with every escape, numbers with fractions, exponents and large
// magnitudes, true, false, null; in one of four layouts (compact, spaced,
// indented, irregular whitespace with leading and trailing runs).
// MistakesPer per mille of the texts go through Corrupt.
func JSONEditDocument(cfg JSONEditConfig) gen.Generator[JSONEditDoc] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) JSONEditDoc {
		w := &jeWriter{t: t, cfg: cfg, layout: gen.IntRange(0, 3).Draw(t)}
		if w.layout == jeIrregular {
			w.maybeWS()
		}
		switch gen.IntRange(0, 19).Draw(t) {
		case 0:
			w.value(nil, 0, 0)
		case 1, 2:
			w.array(nil, 0, cfg.MaxDepth-1)
		default:
			w.object(nil, 0, cfg.MaxDepth-1)
		}
		if w.layout == jeIrregular {
			w.maybeWS()
		}
		return JSONEditDoc{Text: Corrupt(t, w.b.String(), cfg.MistakesPer), Paths: w.paths}
	}).Named("jsonedit")
}

// JSONEditPath draws the key paths a program reads or edits in doc: most
// of the time the path of one of its values; else a path of the
// program's schema (one to three components, a quarter of them array
// indexes 0-3, the others names from Keys half of the time), present in
// doc or not; else one of doc's paths with its last component changed
// (another name or index).
func JSONEditPath(doc JSONEditDoc, cfg JSONEditConfig) gen.Generator[[]string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []string {
		w := &jeWriter{t: t, cfg: cfg}
		component := func() string {
			if gen.IntRange(0, 3).Draw(t) == 0 {
				return "[" + strconv.Itoa(gen.IntRange(0, 3).Draw(t)) + "]"
			}
			return w.name()
		}
		k := gen.IntRange(0, 9).Draw(t)
		if len(doc.Paths) == 0 && (k < 7 || k == 9) {
			k = 7
		}
		if k == 7 || k == 8 {
			p := make([]string, gen.IntRange(1, 3).Draw(t))
			for i := range p {
				p[i] = component()
			}
			return p
		}
		p := append([]string(nil), doc.Paths[gen.IntRange(0, len(doc.Paths)-1).Draw(t)]...)
		if k == 9 {
			p[len(p)-1] = component()
		}
		return p
	}).Named("jsonedit path")
}
