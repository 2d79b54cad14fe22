package gens

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// JSONStreamConfig tunes JSONStream.
type JSONStreamConfig struct {
	MaxDepth int // nesting of objects and arrays; default 4
	MaxItems int // members of an object, elements of an array; default 8
	// Keys are the program's member names: half of the names when set.
	Keys        []string
	MistakesPer int // per mille of streams passed through Corrupt; default 0
}

func (c JSONStreamConfig) withDefaults() JSONStreamConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 8
	}
	return c
}

// How a producer writes the characters of strings (RFC 8259, 7: any
// character may be escaped; the quote, the backslash and the control
// characters must be).
const (
	jsonStreamRaw   = iota // UTF-8 as is (Go, JavaScript, Rust serializers)
	jsonStreamASCII        // every non-ASCII character as \uXXXX, astral ones as surrogate pairs (Python's ensure_ascii)
	jsonStreamPHP          // as jsonStreamASCII, and the solidus escaped (PHP's json_encode defaults)
	jsonStreamHTML         // UTF-8, with <, >, & and U+2028, U+2029 as \u escapes (Go's encoding/json)
	jsonStreamMixed        // each character's form drawn (hand-edited or concatenated sources)
)

// Layouts of the insignificant whitespace.
const (
	jsonStreamCompact   = iota // {"a":1,"b":[2]}
	jsonStreamSpaced           // {"a": 1, "b": [2]}
	jsonStreamIndented         // one member or element a line
	jsonStreamIrregular        // whitespace runs drawn at token boundaries
)

var (
	// jsonStreamWords are words of the scripts string values are written
	// in: ASCII, accented Latin, Cyrillic, Greek, Chinese, Japanese,
	// Korean, Arabic, Hebrew, Devanagari, and emoji (astral characters).
	jsonStreamWords = [][]string{
		{"the", "data", "value", "user", "item", "order", "status", "ok", "error", "hello", "world", "new", "test", "json", "stream", "page", "id", "list", "Gopher", "Kelvin", "a", "b", "c"},
		{"café", "naïve", "Größe", "señor", "façade", "Ærø", "crème", "brûlée", "Zürich", "São", "Paulo", "ß", "déjà", "vu"},
		{"привет", "мир", "данные", "пользователь", "заказ", "Москва"},
		{"καλημέρα", "κόσμε", "δεδομένα", "Αθήνα"},
		{"数据", "漫画", "天才", "東京", "中文", "用户", "订单", "北京", "设计"},
		{"ひらがな", "カタカナ", "こんにちは", "日本語", "東京都"},
		{"한국어", "안녕하세요", "서울", "데이터"},
		{"مرحبا", "بيانات", "العربية"},
		{"שלום", "עברית"},
		{"नमस्ते", "हिन्दी"},
		{"😀", "🎉", "👍", "❤️", "🚀", "🇯🇵", "𝄞", "𠀋"},
	}
	jsonStreamFieldNames = []string{"id", "name", "title", "type", "value", "data", "items", "created_at", "updatedAt", "url",
		"tags", "description", "user", "count", "status", "lang", "text", "summary", "images", "small", "large", "date",
		"platform", "price", "currency", "enabled", "metadata", "children", "parent", "version", "email", "score", "x", "y"}
	jsonStreamNumbers = gen.Tokens("0", "-0", "1", "-1", "0.1", "3.14", "1e3", "1E-7", "-2.5e+10", "9007199254740993",
		"-9223372036854775808", "18446744073709551615", "1e308", "5e-324", "123456789012345678901234567890", "0.000001")
	jsonStreamSpace = gen.Tokens(" ", "  ", "\t", "\n", "\r\n", "\n  ", " \n")
)

type jsonStreamWriter struct {
	t      *gfz.T
	cfg    JSONStreamConfig
	style  int
	layout int
	indent string
	b      strings.Builder
}

// jsonStreamU returns the \u escape of the UTF-16 code unit u.
func jsonStreamU(u int) string {
	s := strconv.FormatInt(int64(u), 16)
	return `\u` + strings.Repeat("0", 4-len(s)) + s
}

// escapeRune writes r in its \u form (a surrogate pair above U+FFFF).
func (w *jsonStreamWriter) escapeRune(r rune) {
	if r > 0xffff {
		r -= 0x10000
		w.b.WriteString(jsonStreamU(0xd800+int(r>>10)) + jsonStreamU(0xdc00+int(r&0x3ff)))
		return
	}
	w.b.WriteString(jsonStreamU(int(r)))
}

// quote writes s as a JSON string in the stream's escaping style (in the
// mixed style, in one drawn for the string).
func (w *jsonStreamWriter) quote(s string) {
	style := w.style
	if style == jsonStreamMixed {
		style = gen.IntRange(jsonStreamRaw, jsonStreamHTML).Draw(w.t)
	}
	w.b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			w.b.WriteString(`\"`)
		case r == '\\':
			w.b.WriteString(`\\`)
		case r == '\n':
			w.b.WriteString(`\n`)
		case r == '\t':
			w.b.WriteString(`\t`)
		case r == '\r':
			w.b.WriteString(`\r`)
		case r == '\b':
			w.b.WriteString(`\b`)
		case r == '\f':
			w.b.WriteString(`\f`)
		case r < 0x20:
			w.escapeRune(r)
		case r == '/' && style == jsonStreamPHP:
			w.b.WriteString(`\/`)
		case r >= 0x80 && (style == jsonStreamASCII || style == jsonStreamPHP):
			w.escapeRune(r)
		case (r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029) && style == jsonStreamHTML:
			w.escapeRune(r)
		default:
			w.b.WriteRune(r)
		}
	}
	w.b.WriteByte('"')
}

// word draws a word: ASCII two times in three, else from another script.
func (w *jsonStreamWriter) word() string {
	script := 0
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		script = gen.IntRange(1, len(jsonStreamWords)-1).Draw(w.t)
	}
	return gen.Tokens(jsonStreamWords[script]...).Draw(w.t)
}

// jsonStreamSeps are the separators between the words of a text, spaces
// most of the time, with punctuation, markup, and now and then a line
// break, a quote or a character that must be escaped.
var jsonStreamSeps = gen.Tokens(" ", " ", " ", " ", " ", " ", " ", " ", " ", " ", " ", " ",
	", ", ". ", "! ", "? ", "、", "。", "…", " - ", " & ", " <b>", "</b> ", " / ",
	"\n", "\n\n", "\t", ` "`, `" `, `\`, "\u2028", "\x01", "\u00a0")

// words draws n words of one script (a sentence or a paragraph), a word
// of another script now and then.
func (w *jsonStreamWriter) words(n int) string {
	script := 0
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		script = gen.IntRange(1, len(jsonStreamWords)-1).Draw(w.t)
	}
	own := gen.Tokens(jsonStreamWords[script]...)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(jsonStreamSeps.Draw(w.t))
		}
		if gen.IntRange(0, 7).Draw(w.t) == 0 {
			b.WriteString(w.word())
		} else {
			b.WriteString(own.Draw(w.t))
		}
	}
	return b.String()
}

// text draws the content of a string value.
func (w *jsonStreamWriter) text() string {
	switch gen.IntRange(0, 11).Draw(w.t) {
	case 0:
		return ""
	case 1, 2, 3:
		return w.word()
	case 4, 5:
		return w.words(gen.IntRange(2, 8).Draw(w.t))
	case 6, 7: // a description, a summary, a comment: a long text
		return w.words(gen.IntRange(8, 60).Draw(w.t))
	case 8:
		path := []string{"https://example.org", "http://localhost:8080", "https://cdn.example.com/pic/cover"}[gen.IntRange(0, 2).Draw(w.t)]
		for range gen.IntRange(0, 4).Draw(w.t) {
			path += "/" + gen.StringFrom("abcdefghijklmnopqrstuvwxyz0123456789_-.", 1, 12).Draw(w.t)
		}
		if gen.Bool().Draw(w.t) {
			path += "?q=" + w.word() + "&page=" + strconv.Itoa(gen.IntRange(0, 99).Draw(w.t))
		}
		return path
	case 9:
		return strconv.Itoa(gen.IntRange(1990, 2030).Draw(w.t)) + "-0" + strconv.Itoa(gen.IntRange(1, 9).Draw(w.t)) + "-1" +
			strconv.Itoa(gen.IntRange(0, 9).Draw(w.t)) + "T12:" + strconv.Itoa(gen.IntRange(10, 59).Draw(w.t)) + ":00" +
			gen.Tokens("Z", "+09:00", "-05:00", ".123Z").Draw(w.t)
	case 10:
		return strconv.Itoa(gen.IntRange(0, 1<<30).Draw(w.t))
	}
	// any characters: a code point of any plane (valid UTF-8)
	var b strings.Builder
	for range gen.IntRange(1, 12).Draw(w.t) {
		r := gen.Rune().Draw(w.t)
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

// name draws a member name: one of Keys half of the time when set, else a
// common field name, a generated identifier, or a word of any script.
func (w *jsonStreamWriter) name() string {
	if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
		return gen.Tokens(w.cfg.Keys...).Draw(w.t)
	}
	switch gen.IntRange(0, 9).Draw(w.t) {
	case 0, 1, 2, 3, 4:
		return gen.Tokens(jsonStreamFieldNames...).Draw(w.t)
	case 5, 6:
		sep := gen.Tokens("_", "", "-").Draw(w.t)
		return gen.Tokens(jsonStreamFieldNames...).Draw(w.t) + sep + gen.Tokens(jsonStreamFieldNames...).Draw(w.t)
	case 7, 8:
		return w.word()
	}
	return gen.Tokens("", " ", "a b", "$ref", "@type", "key.with.dots", "0", "-1", "名前", "ключ").Draw(w.t)
}

func (w *jsonStreamWriter) number() string {
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0, 1:
		return strconv.Itoa(gen.IntRange(-100, 10000).Draw(w.t))
	case 2:
		return jsonStreamNumbers.Draw(w.t)
	case 3:
		return strconv.Itoa(gen.IntRange(-1000, 1000).Draw(w.t)) + "." + gen.StringFrom("0123456789", 1, 8).Draw(w.t)
	case 4:
		m := strconv.Itoa(gen.IntRange(-9, 9).Draw(w.t))
		if gen.Bool().Draw(w.t) {
			m += "." + gen.StringFrom("0123456789", 1, 4).Draw(w.t)
		}
		return m + gen.Tokens("e", "E").Draw(w.t) + gen.Tokens("", "+", "-").Draw(w.t) + strconv.Itoa(gen.IntRange(0, 308).Draw(w.t))
	}
	return strconv.FormatInt(gen.Int64().Draw(w.t), 10)
}

func (w *jsonStreamWriter) ws() {
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		w.b.WriteString(jsonStreamSpace.Draw(w.t))
	}
}

// openWS writes the whitespace after an opening bracket or a comma, at
// nesting level level; closeWS the whitespace before a closing bracket.
func (w *jsonStreamWriter) openWS(level int, afterComma bool) {
	switch w.layout {
	case jsonStreamSpaced:
		if afterComma {
			w.b.WriteByte(' ')
		}
	case jsonStreamIndented:
		w.b.WriteString("\n" + strings.Repeat(w.indent, level))
	case jsonStreamIrregular:
		w.ws()
	}
}

func (w *jsonStreamWriter) closeWS(level int) {
	switch w.layout {
	case jsonStreamIndented:
		w.b.WriteString("\n" + strings.Repeat(w.indent, level))
	case jsonStreamIrregular:
		w.ws()
	}
}

func (w *jsonStreamWriter) colon() {
	if w.layout == jsonStreamIrregular {
		w.ws()
	}
	w.b.WriteByte(':')
	switch w.layout {
	case jsonStreamSpaced, jsonStreamIndented:
		w.b.WriteByte(' ')
	case jsonStreamIrregular:
		w.ws()
	}
}

// value writes a value at nesting level level with depth levels of
// containers left.
func (w *jsonStreamWriter) value(level, depth int) {
	k := gen.IntRange(0, 19).Draw(w.t)
	if depth <= 0 && k >= 13 {
		k %= 13
	}
	switch {
	case k < 7:
		w.quote(w.text())
	case k < 10:
		w.b.WriteString(w.number())
	case k < 13:
		w.b.WriteString(gen.Tokens("true", "false", "null").Draw(w.t))
	case k < 17:
		w.object(level, depth-1, nil)
	default:
		w.array(level, depth-1)
	}
}

// object writes an object; with names set, it has those members (a record
// of a list), else it draws its own.
func (w *jsonStreamWriter) object(level, depth int, names []string) {
	if names == nil {
		n := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
		for i := range n {
			name := w.name()
			// Names should be unique (RFC 8259, 4): a repeated one is kept
			// one time in eight.
			if slices.Contains(names, name) && gen.IntRange(0, 7).Draw(w.t) != 0 {
				name += strconv.Itoa(i)
			}
			names = append(names, name)
		}
	}
	w.b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.openWS(level+1, i > 0)
		w.quote(name)
		w.colon()
		w.value(level+1, depth)
	}
	if len(names) > 0 {
		w.closeWS(level)
	}
	w.b.WriteByte('}')
}

// array writes an array: of values of any kind, or a list of records
// (objects with the same members), of strings or of numbers.
func (w *jsonStreamWriter) array(level, depth int) {
	n := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	kind := gen.IntRange(0, 3).Draw(w.t)
	if depth <= 0 && kind == 1 {
		kind = 0
	}
	var names []string
	if kind == 1 {
		for range gen.IntRange(1, w.cfg.MaxItems).Draw(w.t) {
			if name := w.name(); !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	w.b.WriteByte('[')
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.openWS(level+1, i > 0)
		switch kind {
		case 0:
			w.value(level+1, depth)
		case 1:
			w.object(level+1, depth-1, names)
		case 2:
			w.quote(w.text())
		default:
			w.b.WriteString(w.number())
		}
	}
	if n > 0 {
		w.closeWS(level)
	}
	w.b.WriteByte(']')
}

// JSONStream draws streams of JSON texts (RFC 8259) as a program reads
// them from a connection or a file with a streaming decoder: most of the
// time one text, else several separated by newlines (JSON Lines), other
// whitespace or nothing between brackets. A text is an object most of the
// time (an array, or rarely a scalar, otherwise); objects and arrays are
// nested to MaxDepth with up to MaxItems members or elements, among them
// lists of records with the same members, of strings and of numbers;
// member names are common field names, identifiers, words of many scripts,
// now and then odd ones (empty, spaces, dots) or a repeated one, and Keys
// half of the time when set. Strings hold words, sentences and long texts
// in one of eleven scripts (emoji and other characters beyond the BMP
// too), URLs, timestamps, digits or any characters, with the characters
// that must be escaped; each stream is written in one producer's escaping
// style (UTF-8 as is, non-ASCII as \u escapes with surrogate pairs, the
// same with the solidus escaped, HTML-safe, or mixed character by
// character) and one layout (compact, spaced, indented with two or four
// spaces or a tab, irregular whitespace). Numbers have fractions,
// exponents and large magnitudes. MistakesPer per mille of the streams go
// through Corrupt.
func JSONStream(cfg JSONStreamConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &jsonStreamWriter{t: t, cfg: cfg}
		w.style = gen.OneOfWeighted(
			gen.W(5, gen.Just(jsonStreamRaw)),
			gen.W(3, gen.Just(jsonStreamASCII)),
			gen.W(1, gen.Just(jsonStreamPHP)),
			gen.W(1, gen.Just(jsonStreamHTML)),
			gen.W(1, gen.Just(jsonStreamMixed)),
		).Draw(t)
		w.layout = gen.IntRange(0, 3).Draw(t)
		w.indent = gen.Tokens("  ", "    ", "\t").Draw(t)
		count := 1
		if gen.IntRange(0, 3).Draw(t) == 0 {
			count = gen.IntRange(2, 6).Draw(t)
		}
		sep := gen.Tokens("\n", "\n", "\r\n", " ", "\n\n", "").Draw(t)
		for i := range count {
			if i > 0 {
				w.b.WriteString(sep)
			}
			if w.layout == jsonStreamIrregular {
				w.ws()
			}
			switch k := gen.IntRange(0, 19).Draw(t); {
			case k == 0:
				w.value(0, 0)
				if sep == "" {
					w.b.WriteByte(' ') // two numbers must not run together
				}
			case k < 5:
				w.array(0, cfg.MaxDepth-1)
			default:
				w.object(0, cfg.MaxDepth-1, nil)
			}
		}
		if gen.Bool().Draw(t) {
			w.b.WriteString("\n")
		}
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	}).Named("jsonstream")
}
