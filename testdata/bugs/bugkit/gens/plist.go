package gens

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// PlistConfig tunes Plist.
type PlistConfig struct {
	MaxDepth    int      // nesting of dictionaries and arrays; default 3
	Keys        []string // preferred dictionary keys (half of the keys when set)
	MistakesPer int      // per mille of documents passed through Corrupt; default 0
}

func (c PlistConfig) withDefaults() PlistConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	return c
}

// The dialects of the text property-list format.
const (
	plistOpenStep = iota // NeXT/Apple old-style: strings, data, dictionaries, arrays
	plistGNUStep         // OpenStep plus typed values <*I..> <*R..> <*B..> <*D..> and base64 data <[..]>
	plistStrings         // a .strings file: "key" = "value"; pairs without braces
)

var (
	// Characters of unquoted strings: letters, digits and _$+/:.- (the
	// old-style format's set); GNUstep accepts a few more.
	plistUnquotedFirst = gen.StringFrom("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$", 1, 1)
	plistUnquotedChars = gen.OneOfWeighted(
		gen.W(12, gen.StringFrom("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$+/:.-", 1, 1)),
		gen.W(1, gen.StringFrom("!#%&*?@^|~", 1, 1)),
	)
	// Characters and escapes of quoted strings: plain text, the C escapes,
	// \U and \u with four hex digits, \x with two (the library's extension),
	// octal escapes, raw whitespace and non-ASCII text, any rune now and then.
	plistQuotedChars = gen.OneOfWeighted(
		gen.W(12, gen.StringFrom("abcxyz ABC019-_.,:;=(){}<>/*'", 1, 1)),
		gen.W(3, gen.Tokens(`\n`, `\t`, `\r`, `\a`, `\b`, `\v`, `\f`, `\\`, `\"`, `\U4e16`, `\U754c`, `\u00e9`, `\U0100`,
			`\x41`, `\101`, `\310`, `\0`, `\12`, `\'`)),
		gen.W(1, gen.Tokens("\n", "\t", "é", "水", "€", "'")),
		gen.W(1, gen.Map(gen.Rune(), func(r rune) string {
			if r == '"' || r == '\\' {
				return "?"
			}
			return string(r)
		})),
	)
	plistSpace = gen.OneOfWeighted(
		gen.W(10, gen.Tokens("", " ")),
		gen.W(3, gen.Tokens("\n", "\t", "  ", "\r\n", "\n\t")),
		gen.W(1, gen.Tokens(" /* comment */", " /* a\n * b */ ", " // comment\n", " //\n", " /**/ ")),
	)
	plistFloat = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.IntRange(-100000, 100000), func(n int) string {
			return strconv.FormatFloat(float64(n)/64, 'g', -1, 64)
		})),
		gen.W(2, gen.Map(gen.Float64(), func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) })),
		gen.W(2, gen.Tokens("0", "1", "1.5", "-0.25", "3.141592653589793", "1e-07", "6.02e+23", "32", "64",
			"3.4028234663852886e+38", "1.7976931348623157e+308", "NaN", "+Inf", "-Inf")),
	)
	plistInt = gen.OneOfWeighted(
		gen.W(6, gen.Map(gen.IntRange(0, 1000), strconv.Itoa)),
		gen.W(2, gen.Map(gen.IntRange(-70000, 70000), strconv.Itoa)),
		gen.W(2, gen.Map(gen.Int64(), func(n int64) string { return strconv.FormatInt(n, 10) })),
		gen.W(1, gen.Tokens("18446744073709551615", "9223372036854775807", "-9223372036854775808", "4294967295", "8388608")),
	)
	plistDate = gen.Custom(func(t *gfz.T) string {
		return pad(gen.IntRange(1970, 2038).Draw(t), 4) + "-" + pad(gen.IntRange(1, 12).Draw(t), 2) + "-" +
			pad(gen.IntRange(1, 28).Draw(t), 2) + " " + pad(gen.IntRange(0, 23).Draw(t), 2) + ":" +
			pad(gen.IntRange(0, 59).Draw(t), 2) + ":" + pad(gen.IntRange(0, 59).Draw(t), 2) + " " +
			gen.Tokens("+0000", "-0700", "+0100", "+0530", "-1200").Draw(t)
	})
)

type plistWriter struct {
	t       *gfz.T
	cfg     PlistConfig
	dialect int
	pretty  bool // indented, one entry a line, as the writers print
}

// sp draws the space before an entry or a closing bracket: a new line
// indented to depth when pretty, else gap.
func (w *plistWriter) sp(depth int) string {
	if w.pretty {
		return "\n" + strings.Repeat("\t", max(depth, 0))
	}
	return w.gap()
}

// gap draws the space between two tokens of a line: nothing when pretty,
// else nothing, blanks, newlines or comments (after a blank: an unquoted
// string takes in a '/').
func (w *plistWriter) gap() string {
	if w.pretty {
		return ""
	}
	return plistSpace.Draw(w.t)
}

// unquoted draws an unquoted string.
func (w *plistWriter) unquoted() string {
	var b strings.Builder
	b.WriteString(plistUnquotedFirst.Draw(w.t))
	for range gen.IntRange(0, 10).Draw(w.t) {
		b.WriteString(plistUnquotedChars.Draw(w.t))
	}
	return b.String()
}

// quoted draws a quoted string (possibly empty).
func (w *plistWriter) quoted() string {
	var b strings.Builder
	b.WriteByte('"')
	for range gen.IntRange(0, 12).Draw(w.t) {
		b.WriteString(plistQuotedChars.Draw(w.t))
	}
	b.WriteByte('"')
	return b.String()
}

// str draws a string, quoted or unquoted; in a .strings file the strings
// are quoted most of the time.
func (w *plistWriter) str() string {
	n := gen.IntRange(0, 9).Draw(w.t)
	if w.dialect == plistStrings {
		n += 4
	}
	if n < 5 {
		return w.unquoted()
	}
	return w.quoted()
}

// key draws a dictionary key: one of the caller's keys half of the time
// (quoted when it needs to be, sometimes when it does not), else a string.
func (w *plistWriter) key() string {
	if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
		k := gen.Tokens(w.cfg.Keys...).Draw(w.t)
		if w.dialect == plistStrings || strings.ContainsAny(k, " \"'=;") || gen.IntRange(0, 3).Draw(w.t) == 0 {
			return strconv.Quote(k)
		}
		return k
	}
	return w.str()
}

// bytes draws the content of a data value.
func (w *plistWriter) bytes() []byte {
	n := gen.IntRange(0, 12).Draw(w.t)
	b := make([]byte, n)
	for i := range b {
		b[i] = gen.Byte().Draw(w.t)
	}
	return b
}

// data draws data in hex, bytes in groups of four separated by blanks as
// the writers print them, or with other whitespace, or none.
func (w *plistWriter) data() string {
	h := hex.EncodeToString(w.bytes())
	if gen.Bool().Draw(w.t) {
		h = strings.ToUpper(h)
	}
	sep := gen.Tokens(" ", " ", "", "\n", "\t ").Draw(w.t)
	var b strings.Builder
	b.WriteByte('<')
	for i := 0; i < len(h); i += 8 {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(h[i:min(i+8, len(h))])
	}
	b.WriteByte('>')
	return b.String()
}

// base64 draws GNUstep's base64 data, <[...]>.
func (w *plistWriter) base64() string {
	s := base64.StdEncoding.EncodeToString(w.bytes())
	if len(s) > 8 && gen.IntRange(0, 3).Draw(w.t) == 0 {
		s = s[:8] + "\n" + s[8:]
	}
	return "<[" + s + "]>"
}

// typed draws a GNUstep typed value: integer, real, boolean or date, its
// text after the type letter, in quotes now and then (<*I"5">, which
// GNUstep reads too).
func (w *plistWriter) typed() string {
	var typ, v string
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0:
		typ, v = "I", plistInt.Draw(w.t)
	case 1:
		typ, v = "R", plistFloat.Draw(w.t)
	case 2:
		typ, v = "B", gen.Tokens("Y", "N").Draw(w.t)
	default:
		typ, v = "D", plistDate.Draw(w.t)
	}
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		v = `"` + v + `"`
	}
	return "<*" + typ + v + ">"
}

// leaf draws a value that holds no other value.
func (w *plistWriter) leaf() string {
	if w.dialect == plistGNUStep {
		switch gen.IntRange(0, 11).Draw(w.t) {
		case 0, 1, 2, 3, 4:
			return w.typed()
		case 5:
			return w.base64()
		}
	}
	if gen.IntRange(0, 7).Draw(w.t) == 0 {
		return w.data()
	}
	return w.str()
}

// value draws any value: containers while depth allows.
func (w *plistWriter) value(depth int) string {
	if depth < w.cfg.MaxDepth {
		switch gen.IntRange(0, 9).Draw(w.t) {
		case 0, 1:
			return w.dict(depth)
		case 2, 3:
			return w.array(depth)
		case 4:
			if gen.IntRange(0, 3).Draw(w.t) == 0 {
				return w.uid()
			}
		}
	}
	return w.leaf()
}

// uid draws a keyed archiver's UID reference, {CF$UID = n;}.
func (w *plistWriter) uid() string {
	n := strconv.Itoa(gen.IntRange(0, 300).Draw(w.t))
	if w.dialect == plistGNUStep {
		n = "<*I" + n + ">"
	}
	return "{" + w.gap() + "CF$UID" + w.gap() + "=" + w.gap() + n + w.gap() + ";" + w.gap() + "}"
}

// entries draws the key = value; pairs of a dictionary (or of a .strings
// file), sometimes a key alone followed by ';'.
func (w *plistWriter) entries(depth int) string {
	var b strings.Builder
	for range gen.IntRange(0, 5).Draw(w.t) {
		b.WriteString(w.sp(depth + 1))
		b.WriteString(w.key())
		if gen.IntRange(0, 15).Draw(w.t) == 0 {
			b.WriteString(";")
			continue
		}
		eq := " = "
		if !w.pretty {
			eq = gen.Tokens(" = ", "=", " =", "= ").Draw(w.t)
		}
		v := w.str()
		if w.dialect != plistStrings {
			v = w.value(depth + 1)
		}
		b.WriteString(eq + v + w.gap() + ";")
	}
	return b.String()
}

func (w *plistWriter) dict(depth int) string {
	return "{" + w.entries(depth) + w.sp(depth) + "}"
}

// array draws ( v, v, ... ) with a trailing comma sometimes.
func (w *plistWriter) array(depth int) string {
	var parts []string
	for range gen.IntRange(0, 5).Draw(w.t) {
		parts = append(parts, w.sp(depth+1)+w.value(depth+1))
	}
	s := "(" + join(parts, ",")
	if len(parts) > 0 && gen.IntRange(0, 3).Draw(w.t) == 0 {
		s += ","
	}
	return s + w.sp(depth) + ")"
}

// Plist generates text property lists (the old-style format of NeXT and
// Apple, CFOldStylePList, and GNUstep's NSPropertyList): in the OpenStep
// dialect, dictionaries { key = value; } (a key alone with ';' too),
// arrays ( a, b, ) with optional trailing commas, strings unquoted or
// quoted with every escape (C escapes, \U and \u, \x, octal), data <0fbd
// 7777> in hex; in the GNUstep dialect also the typed values <*I..>,
// <*R..>, <*B..> and <*D..> (sometimes in quotes) and base64 data <[..]>;
// keyed archiver UIDs {CF$UID = n;}; .strings files ("key" = "value";
// pairs without braces); comments and whitespace between tokens, or
// indentation as the writers print it. The top level is mostly a
// dictionary. MistakesPer per mille go through Corrupt.
func Plist(cfg PlistConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &plistWriter{t: t, cfg: cfg}
		switch gen.IntRange(0, 19).Draw(t) {
		case 0, 1, 2, 3, 4, 5, 6:
			w.dialect = plistOpenStep
		case 7, 8, 9, 10, 11, 12, 13, 14, 15, 16:
			w.dialect = plistGNUStep
		default:
			w.dialect = plistStrings
		}
		w.pretty = gen.IntRange(0, 2).Draw(t) == 0
		var s string
		switch {
		case w.dialect == plistStrings:
			s = w.entries(-1) + "\n"
		case gen.IntRange(0, 9).Draw(t) < 6:
			s = w.dict(0)
		case gen.IntRange(0, 2).Draw(t) < 2:
			s = w.array(0)
		default:
			s = w.leaf()
		}
		if gen.IntRange(0, 9).Draw(t) == 0 {
			s = gen.Tokens("// !$*UTF8*$!\n", "/* settings */\n", "\n", "\xef\xbb\xbf").Draw(t) + s
		}
		return Corrupt(t, s, cfg.MistakesPer)
	})
}
