// Package gojson generates syntactically valid JSON texts (RFC 8259) for
// fuzzing JSON consumers.
//
// Value(cfg) draws a JSON value as text: null, true, false, numbers
// (integers, fractions, exponents, negative zero, big magnitudes), strings
// (with short escapes, \u escapes, surrogate pairs and raw UTF-8), arrays
// and objects, nested up to Config.MaxDepth. Object keys come from
// Config.Keys when given (schema-aware targets list their field names
// there), mixed with gen.Dictionary() tokens and generated identifiers.
// Every output satisfies json.Valid.
//
// Structure (which kind of value, lengths, which key) is drawn with
// structure draws, leaves (digits, characters) with value draws.
package gojson

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of Value. Zero fields take the defaults.
type Config struct {
	MaxDepth   int      // nesting of arrays and objects; default 4
	MaxItems   int      // elements per array, members per object; default 5
	MaxString  int      // characters per generated string; default 12
	Keys       []string // preferred object keys (drawn half of the time when non-empty)
	Values     []string // preferred string values (drawn half of the time when non-empty)
	Whitespace bool     // insert optional whitespace between tokens
}

func (c Config) withDefaults() Config {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 5
	}
	if c.MaxString <= 0 {
		c.MaxString = 12
	}
	return c
}

// Value returns a generator of JSON texts holding one value of any kind.
func Value(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg}
		w.value(cfg.MaxDepth)
		return w.b.String()
	}).Named("gojson.Value")
}

// Object returns a generator of JSON texts holding one object.
func Object(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg}
		w.object(cfg.MaxDepth - 1)
		return w.b.String()
	}).Named("gojson.Object")
}

type writer struct {
	s   *param.Source
	cfg Config
	b   strings.Builder
}

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }

func (w *writer) ws() {
	if w.cfg.Whitespace && w.choice(4) == 0 {
		w.b.WriteString([]string{" ", "\n", "\t", "\r\n  "}[w.choice(4)])
	}
}

func (w *writer) value(depth int) {
	w.ws()
	k := w.choice(8)
	if depth <= 0 && k >= 6 {
		k %= 6
	}
	switch k {
	case 0:
		w.b.WriteString([]string{"null", "true", "false"}[w.choice(3)])
	case 1, 2:
		w.number()
	case 3, 4, 5:
		w.str(w.cfg.Values)
	case 6:
		w.array(depth - 1)
	default:
		w.object(depth - 1)
	}
	w.ws()
}

func (w *writer) array(depth int) {
	w.b.WriteByte('[')
	n := int(w.s.Range(0, int64(w.cfg.MaxItems), param.Structure))
	if n == 0 {
		w.ws()
	}
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.value(depth)
	}
	w.b.WriteByte(']')
}

func (w *writer) object(depth int) {
	w.b.WriteByte('{')
	n := int(w.s.Range(0, int64(w.cfg.MaxItems), param.Structure))
	if n == 0 {
		w.ws()
	}
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.ws()
		w.str(w.cfg.Keys)
		w.ws()
		w.b.WriteByte(':')
		w.value(depth)
	}
	w.b.WriteByte('}')
}

func (w *writer) number() {
	s := w.s
	switch w.choice(6) {
	case 0: // small integer
		w.b.WriteString(strconv.Itoa(int(s.Uint(1, param.Value)) - 128))
	case 1: // any int64
		w.b.WriteString(strconv.FormatInt(int64(s.Uint(8, param.Value)), 10))
	case 2: // edge numbers
		w.b.WriteString([]string{"0", "-0", "1", "-1", "0.5", "1e308", "-1e309", "4e-324", "9007199254740993",
			"18446744073709551616", "-9223372036854775809", "1E+2", "0.0", "2147483648"}[s.Uintn(14, param.Value)])
	default: // int part, optional fraction, optional exponent
		if s.Uint(1, param.Value)&1 == 1 {
			w.b.WriteByte('-')
		}
		w.b.WriteString(strconv.Itoa(int(s.Uint(2, param.Value))))
		if w.choice(2) == 0 {
			w.b.WriteString("." + strconv.Itoa(int(s.Uint(2, param.Value))))
		}
		if w.choice(3) == 0 {
			w.b.WriteString([]string{"e", "E", "e+", "e-", "E-"}[s.Uintn(5, param.Value)])
			w.b.WriteString(strconv.Itoa(int(s.Uint(1, param.Value) % 40)))
		}
	}
}

// str writes a JSON string: a preferred word (half of the time when words
// is non-empty), a dictionary token, or generated characters.
func (w *writer) str(words []string) {
	var text string
	switch c := w.choice(4); {
	case len(words) > 0 && c < 2:
		text = words[w.s.Uintn(uint64(len(words)), param.Value)]
	case c == 2 && len(gen.Dictionary()) > 0:
		d := gen.Dictionary()
		text = d[w.s.Uintn(uint64(len(d)), param.Value)]
	default:
		w.b.WriteByte('"')
		n := int(w.s.Range(0, int64(w.cfg.MaxString), param.Structure))
		for range n {
			w.char()
		}
		w.b.WriteByte('"')
		return
	}
	w.quote(text)
}

// quote writes text as a JSON string (invalid UTF-8 becomes U+FFFD).
func (w *writer) quote(text string) {
	w.b.WriteByte('"')
	for _, r := range text {
		switch {
		case r == '"' || r == '\\':
			w.b.WriteByte('\\')
			w.b.WriteRune(r)
		case r < 0x20:
			w.b.WriteString(`\u00`)
			w.b.WriteString(strconv.FormatInt(int64(r)>>4, 16) + strconv.FormatInt(int64(r)&15, 16))
		default:
			w.b.WriteRune(r)
		}
	}
	w.b.WriteByte('"')
}

// char writes one character of a string, escaped or raw.
func (w *writer) char() {
	s := w.s
	switch w.choice(8) {
	case 0:
		w.b.WriteString([]string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`}[s.Uintn(8, param.Value)])
	case 1: // \u escape of any BMP code unit except lone surrogates
		u := s.Uint(2, param.Value)
		if u >= 0xD800 && u <= 0xDFFF {
			u -= 0x800
		}
		w.b.WriteString(`\u` + hex4(u))
	case 2: // surrogate pair
		r := 0x10000 + rune(s.Uint(3, param.Value)%0x100000)
		hi, lo := 0xD800+(r-0x10000)>>10, 0xDC00+(r-0x10000)&0x3FF
		w.b.WriteString(`\u` + hex4(uint64(hi)) + `\u` + hex4(uint64(lo)))
	case 3: // raw non-ASCII
		r := rune(0x80 + s.Uint(2, param.Value)%0xD780)
		if !utf8.ValidRune(r) {
			r = 'é'
		}
		w.b.WriteRune(r)
	default: // printable ASCII without " and \
		c := byte(0x20 + s.Uint(1, param.Value)%95)
		if c == '"' || c == '\\' {
			c = '_'
		}
		w.b.WriteByte(c)
	}
}

func hex4(u uint64) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[u>>12&15], digits[u>>8&15], digits[u>>4&15], digits[u&15]})
}
