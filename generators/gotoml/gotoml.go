// Package gotoml generates TOML 1.0 documents for fuzzing TOML decoders
// and configuration loaders, and near misses of them.
//
// Document(cfg) draws a document: key/value pairs in the root table, then
// [table] and [[array of tables]] sections, with comments on their own
// lines and after values, blank lines, spaces and tabs around '=' and
// inside headers, and LF or CRLF line ends (one choice per document).
// Keys are bare (including ones that look like numbers, booleans or
// dates), basic-quoted with escapes, literal-quoted or empty, and dotted
// (a.b.c = 1, siblings sharing a prefix). Headers define new tables,
// sub-tables of the current one, tables below implicit super-tables
// ([a.b.c]) and, later, those super-tables themselves, arrays of tables
// and their repeated elements, and arrays of tables below an element.
// Values are basic strings (every escape: \b \t \n \f \r \" \\ \uXXXX
// \UXXXXXXXX, raw Unicode), multi-line basic strings (raw newlines and
// tabs, runs of one or two quotes, line-ending backslashes, a quote before
// the closing delimiter), literal and multi-line literal strings, integers
// in decimal, hexadecimal, octal and binary with underscores and signs,
// int64 extremes, floats (fractions, exponents with leading zeros,
// underscores, ±inf, ±nan, -0.0), booleans, offset date-times (T, t or
// space; fractions of 1 to 9 digits; Z, z or ±hh:mm), local date-times,
// local dates and local times, arrays (mixed types, nested, over lines
// with comments and trailing commas) and inline tables, nested up to
// Config.MaxDepth.
//
// The generator tracks every table and key it defines, so documents never
// define a key or table twice, extend an inline table or an array value,
// or turn a dotted-key table into a [table]: they are valid TOML 1.0 (and
// 1.1). Keys come from Config.Keys and gen.Dictionary() besides generated
// and edge-case names; strings from Config.Words and the dictionary.
//
// Near(cfg) is Document with the near-miss step (package nearmiss):
// unclosed brackets and strings, stray '=' and '.', swapped quotes, broken
// escapes, cut lines.
//
// Structure (sections, kinds of keys and values, lengths) is drawn with
// structure draws, characters and numbers with value draws.
package gotoml

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of Document and Near. Zero fields take the
// defaults.
type Config struct {
	MaxDepth  int      // nesting of arrays and inline tables; default 3
	MaxPairs  int      // key/value pairs per table; default 4
	MaxTables int      // [table] and [[array]] sections; default 4
	MaxString int      // characters per generated string; default 8
	Keys      []string // preferred keys (drawn often when set)
	Words     []string // preferred string values (drawn often when set)
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxDepth, 3)
	def(&c.MaxPairs, 4)
	def(&c.MaxTables, 4)
	def(&c.MaxString, 8)
	return c
}

// Syntax is the near-miss syntax of TOML.
var Syntax = nearmiss.Syntax{
	Name:       "toml",
	Delims:     []string{"=", ".", ",", "[", "]", "[[", "]]", "{", "}", `"`, "'", `"""`, "'''", "#", "\n", " ", "\\", ":", "-", "+", "_", "T", "Z", "e", "0x"},
	Closers:    []string{"]]", "]", "}", `"""`, "'''", `"`, "'"},
	Quotes:     []string{`"`, "'", `"""`, "'''"},
	Escapes:    []string{`\`},
	BadEscapes: []string{`\q`, `\x41`, `\u12`, `\U0011FFFF`, `\uD800`, `\`, `\ `, `\e`},
	Boundary:   " \t\r\n=.,[]{}\"'#",
}

// Document returns a generator of TOML documents.
func Document(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg, defs: map[string]kind{}}
		w.document()
		return w.b.String()
	}).Named("gotoml.Document")
}

// Near returns a generator of near misses of Document(cfg): Document with
// the near-miss step (nearmiss.Of, default Config).
func Near(cfg Config) gen.Generator[string] {
	return nearmiss.Of(Document(cfg), Syntax, nearmiss.Config{}).Named("gotoml.Near")
}

// kind is what a key path names.
type kind uint8

const (
	kValue    kind = iota + 1 // a key with a value (scalar, array, inline table)
	kHeader                   // a table defined by a [header]
	kImplicit                 // a super-table created by a header path, not yet defined
	kDotted                   // a table created by dotted keys
	kArray                    // an array of tables
)

type writer struct {
	s    *param.Source
	cfg  Config
	b    strings.Builder
	eol  string
	defs map[string]kind // path (segments joined by sep) -> kind
	// headers, implicit and arrays list the paths of each kind, in order.
	headers, implicit, arrays []string
	cur                       string   // path of the current table ("" for the root)
	dotted                    []string // dotted-key tables created in the current section
	inlines                   int      // inline tables written, for their private paths
}

// sep starts each segment of a path in writer.defs (names may hold any
// other byte); the root table's path is "".
const sep = "\x00"

func join(path, name string) string { return path + sep + name }

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }
func (w *writer) value(n int) int  { return int(w.s.Uintn(uint64(n), param.Value)) }
func (w *writer) pick(words []string) string {
	return words[w.value(len(words))]
}

func (w *writer) document() {
	w.eol = "\n"
	if w.choice(4) == 3 {
		w.eol = "\r\n"
	}
	if w.choice(4) == 3 {
		w.comment()
		w.b.WriteString(w.eol)
	}
	w.pairs(w.cfg.MaxPairs)
	n := w.choice(w.cfg.MaxTables + 1)
	for range n {
		if w.choice(2) == 1 {
			w.b.WriteString(w.eol)
		}
		w.section()
		w.pairs(w.cfg.MaxPairs)
	}
}

// comment writes "# ..." without the line end.
func (w *writer) comment() {
	w.b.WriteString(w.pick([]string{"#", "# ", "#\t", " # "}))
	n := w.choice(8)
	for range n {
		switch w.choice(6) {
		case 0:
			w.b.WriteRune(w.unicode())
		default:
			w.b.WriteByte(commentChars[w.value(len(commentChars))])
		}
	}
}

const commentChars = "abc xyz 019#=[]{}\"'\\\t.,"

// unicode draws a non-ASCII character that TOML allows raw.
func (w *writer) unicode() rune {
	r := rune(0x80 + w.s.Uint(2, param.Value)%0xF780)
	if r >= 0xD800 && r <= 0xDFFF || r < 0xA0 {
		r = 'é'
	}
	return r
}

// ws writes optional whitespace.
func (w *writer) ws() {
	if w.choice(4) == 3 {
		w.b.WriteString(w.pick([]string{" ", "  ", "\t", " \t"}))
	}
}

// lineEnd ends a line, with a comment sometimes.
func (w *writer) lineEnd() {
	if w.choice(6) == 5 {
		w.ws()
		w.comment()
	}
	w.b.WriteString(w.eol)
}

// name draws a key's name (not yet quoted).
func (w *writer) name() string {
	switch c := w.choice(10); {
	case c < 3 && len(w.cfg.Keys) > 0:
		return w.pick(w.cfg.Keys)
	case c == 3 && len(gen.Dictionary()) > 0:
		return w.pick(gen.Dictionary())
	case c == 4:
		return w.pick(oddNames)
	default:
		n := 1 + w.choice(6)
		b := make([]byte, n)
		for i := range b {
			b[i] = bareChars[w.value(len(bareChars))]
		}
		return string(b)
	}
}

// bareChars are the characters of bare keys.
const bareChars = "abcdefghijklmnopqrstuvwxyz_-0123456789ABCXYZ"

// oddNames are edge-case key names: bare keys that look like other
// tokens, and names that must be quoted.
var oddNames = []string{"1234", "-", "_", "true", "false", "inf", "nan", "1979-05-27", "0x10", "-1", "a.b", "", " ", "a b",
	"ü", "日本", `"`, "'", `\`, "#", "=", "[x]", "\t", "key\n", "é'\"", "\x7f", "\U0001F600", "3.14"}

// fresh returns name, or name with a number appended, so that it is not
// defined yet in the table at path.
func (w *writer) fresh(path, name string) string {
	if _, used := w.defs[join(path, name)]; !used {
		return name
	}
	for i := 2; ; i++ {
		n := name + strconv.Itoa(i)
		if _, used := w.defs[join(path, n)]; !used {
			return n
		}
	}
}

// key writes a key name: bare when it can be (mostly), basic-quoted or
// literal-quoted.
func (w *writer) key(name string) {
	bare := name != ""
	literal := utf8.ValidString(name) // a literal string is raw: invalid UTF-8 would stay
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			bare = false
		}
		if r == '\'' || r < 0x20 && r != '\t' || r == 0x7f {
			literal = false
		}
	}
	c := w.choice(8)
	switch {
	case bare && c < 6:
		w.b.WriteString(name)
	case literal && (c == 6 || !bare && c < 4):
		w.b.WriteString("'" + name + "'")
	default:
		w.basic(name)
	}
}

// basic writes s as a basic string, escaping what must be escaped and,
// sometimes, what need not be.
func (w *writer) basic(s string) {
	w.b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			w.b.WriteByte('\\')
			w.b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			if i := strings.IndexRune("\b\t\n\f\r", r); i >= 0 && w.choice(2) == 0 {
				w.b.WriteString(`\` + string("btnfr"[i]))
			} else {
				w.b.WriteString(`\u` + hex(uint64(r), 4))
			}
		case r >= 0x80 && w.choice(4) == 0:
			if r > 0xFFFF || w.choice(2) == 0 {
				w.b.WriteString(`\U` + hex(uint64(r), 8))
			} else {
				w.b.WriteString(`\u` + hex(uint64(r), 4))
			}
		default:
			w.b.WriteRune(r)
		}
	}
	w.b.WriteByte('"')
}

// hex formats v in n hex digits, upper or lower case.
func hex(v uint64, n int) string {
	s := strconv.FormatUint(v, 16)
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// path writes a header's key path.
func (w *writer) path(p string) {
	for i, seg := range strings.Split(p, sep)[1:] {
		if i > 0 {
			if w.choice(6) == 0 {
				w.b.WriteString(w.pick([]string{" .", ". ", " . ", "\t.\t"}))
			} else {
				w.b.WriteByte('.')
			}
		}
		w.key(seg)
	}
}

// header writes [p] or [[p]].
func (w *writer) header(p string, array bool) {
	open, close := "[", "]"
	if array {
		open, close = "[[", "]]"
	}
	w.b.WriteString(open)
	w.ws()
	w.path(p)
	w.ws()
	w.b.WriteString(close)
	w.lineEnd()
}

// section writes a [table] or [[array]] header and makes it current.
func (w *writer) section() {
	w.dotted = w.dotted[:0]
	k := w.choice(8)
	switch {
	case k == 1 && w.cur != "": // a sub-table of the current table
		p := join(w.cur, w.fresh(w.cur, w.name()))
		w.define(p, kHeader)
		w.header(p, false)
	case k == 2: // a table below implicit super-tables
		p := join("", w.fresh("", w.name()))
		w.define(p, kImplicit)
		for range 1 + w.choice(2) {
			p = join(p, w.name()) // fresh: the super-table is new
			w.define(p, kImplicit)
		}
		w.implicit = w.implicit[:len(w.implicit)-1]
		w.define(p, kHeader)
		w.header(p, false)
	case k == 3 && w.pendingImplicit() >= 0: // define a super-table
		i := w.pendingImplicit()
		p := w.implicit[i]
		w.implicit = append(w.implicit[:i], w.implicit[i+1:]...)
		w.defs[p] = kHeader
		w.headers = append(w.headers, p)
		w.cur = p
		w.header(p, false)
	case k == 4: // a new array of tables
		p := join("", w.fresh("", w.name()))
		w.define(p, kArray)
		w.header(p, true)
	case k == 5 && len(w.arrays) > 0: // the next element of an array
		p := w.arrays[w.value(len(w.arrays))]
		w.reset(p)
		w.cur = p
		w.header(p, true)
	case k == 6 && w.cur != "": // an array of tables in the current table
		p := join(w.cur, w.fresh(w.cur, w.name()))
		w.define(p, kArray)
		w.header(p, true)
	default: // a new table
		p := join("", w.fresh("", w.name()))
		w.define(p, kHeader)
		w.header(p, false)
	}
}

// pendingImplicit returns the index of a super-table not yet defined
// that still exists (an array's new element drops those below it), or -1.
func (w *writer) pendingImplicit() int {
	for i := len(w.implicit) - 1; i >= 0; i-- {
		if w.defs[w.implicit[i]] == kImplicit {
			return i
		}
	}
	return -1
}

// define records a new table or array at p; a header or array becomes
// the current table.
func (w *writer) define(p string, k kind) {
	w.defs[p] = k
	switch k {
	case kHeader:
		w.headers = append(w.headers, p)
		w.cur = p
	case kArray:
		w.arrays = append(w.arrays, p)
		w.cur = p
	case kImplicit:
		w.implicit = append(w.implicit, p)
	}
}

// reset forgets what the current element of the array at p holds: the
// next [[p]] starts an empty table.
func (w *writer) reset(p string) {
	prefix := p + sep
	for k := range w.defs {
		if strings.HasPrefix(k, prefix) {
			delete(w.defs, k)
		}
	}
	keep := func(list []string) []string {
		out := list[:0]
		for _, q := range list {
			if !strings.HasPrefix(q, prefix) {
				out = append(out, q)
			}
		}
		return out
	}
	w.headers, w.implicit, w.arrays = keep(w.headers), keep(w.implicit), keep(w.arrays)
}

// pairs writes up to max key/value lines in the current table.
func (w *writer) pairs(max int) {
	n := w.choice(max + 1)
	for range n {
		if w.choice(8) == 7 {
			w.comment()
			w.b.WriteString(w.eol)
		}
		w.pairKey(w.cur, &w.dotted)
		w.ws()
		w.b.WriteByte('=')
		w.ws()
		w.val(w.cfg.MaxDepth, false)
		w.lineEnd()
	}
}

// pairKey writes the key of a pair in the table at path, simple or
// dotted, defining it in defs; dotted lists the dotted-key tables of the
// section (or inline table) that may take more keys.
func (w *writer) pairKey(path string, dotted *[]string) {
	parent := path
	if len(*dotted) > 0 && w.choice(3) == 0 {
		// a sibling of an earlier dotted key: a.b = 1, then a.c = 2
		parent = (*dotted)[w.value(len(*dotted))]
		w.writeDotted(path, parent)
		w.dot()
	} else if w.choice(5) == 0 {
		// a new dotted key: its first parts are new tables
		n := 1 + w.choice(2)
		for range n {
			name := w.fresh(parent, w.name())
			parent = join(parent, name)
			w.defs[parent] = kDotted
			*dotted = append(*dotted, parent)
			w.key(name)
			w.dot()
		}
	}
	name := w.fresh(parent, w.name())
	w.defs[join(parent, name)] = kValue
	w.key(name)
}

// writeDotted writes the key path of the dotted table q below path.
func (w *writer) writeDotted(path, q string) {
	rel := strings.TrimPrefix(q, path+sep)
	for i, seg := range strings.Split(rel, sep) {
		if i > 0 {
			w.dot()
		}
		w.key(seg)
	}
}

func (w *writer) dot() {
	if w.choice(8) == 0 {
		w.b.WriteString(w.pick([]string{" .", ". ", " . "}))
	} else {
		w.b.WriteByte('.')
	}
}

// val writes a value; inline: inside an inline table.
func (w *writer) val(depth int, inline bool) {
	k := w.choice(16)
	if depth <= 0 && k >= 14 {
		k -= 4
	}
	switch {
	case k < 2:
		w.basicString()
	case k == 2:
		w.multiBasic()
	case k == 3:
		w.literal()
	case k == 4:
		w.multiLiteral()
	case k < 7:
		w.integer()
	case k < 9:
		w.float()
	case k == 9:
		w.b.WriteString(w.pick([]string{"true", "false"}))
	case k < 12:
		w.datetime()
	case k < 14:
		w.b.WriteString(w.pick([]string{"0", "1", "-1", "true", `""`, "''", "[]", "{}", "0.0", "1979-05-27"}))
	case k == 14:
		w.array(depth-1, inline)
	default:
		w.inlineTable(depth - 1)
	}
}

// word draws a string's content: a preferred word, a dictionary token or
// nothing (the caller generates characters).
func (w *writer) word() (string, bool) {
	switch c := w.choice(8); {
	case c < 3 && len(w.cfg.Words) > 0:
		return w.pick(w.cfg.Words), true
	case c == 3 && len(gen.Dictionary()) > 0:
		return w.pick(gen.Dictionary()), true
	}
	return "", false
}

func (w *writer) basicString() {
	if s, ok := w.word(); ok {
		w.basic(s)
		return
	}
	w.b.WriteByte('"')
	n := w.choice(w.cfg.MaxString + 1)
	for range n {
		w.basicChar()
	}
	w.b.WriteByte('"')
}

// basicChar writes one character of a basic string, raw or escaped.
func (w *writer) basicChar() {
	switch w.choice(10) {
	case 0:
		w.b.WriteString(w.pick([]string{`\b`, `\t`, `\n`, `\f`, `\r`, `\"`, `\\`}))
	case 1:
		r := w.unicode()
		if w.choice(2) == 0 {
			w.b.WriteString(`\u` + hex(uint64(r), 4))
		} else {
			w.b.WriteString(`\U` + hex(uint64(r), 8))
		}
	case 2:
		w.b.WriteString(w.pick([]string{`\u0000`, `\u001F`, `\u007f`, `\uFFFF`, `\U0010FFFF`, `\U0001F600`, `\u00E9`, "\t", `\uFEFF`}))
	case 3:
		w.b.WriteRune(w.unicode())
	default:
		w.b.WriteByte(strChars[w.value(len(strChars))])
	}
}

// strChars are the ASCII characters strings hold raw; litChars those of
// literal strings.
const (
	strChars = "abc xyz ABC 019 #=[]{},.'/"
	litChars = "abc xyz ABC 019 #=[]{},./\\"
)

func (w *writer) multiBasic() {
	w.b.WriteString(`"""`)
	if w.choice(2) == 0 {
		w.b.WriteString(w.eol) // trimmed
	}
	n := w.choice(w.cfg.MaxString + 1)
	quotes := false // the last piece was a run of quotes
	for range n {
		switch c := w.choice(12); {
		case c == 0:
			w.b.WriteString(w.eol)
		case c == 1:
			w.b.WriteByte('\t')
		case c == 2 && !quotes:
			w.b.WriteString(w.pick([]string{`"`, `""`}))
			quotes = true
			continue
		case c == 3: // line-ending backslash
			w.b.WriteString(`\` + w.pick([]string{"", " ", "\t"}) + w.eol + w.pick([]string{"", "  ", "\t"}))
		default:
			w.basicChar()
		}
		quotes = false
	}
	if !quotes && w.choice(6) == 0 {
		w.b.WriteString(w.pick([]string{`"`, `""`})) // quotes next to the closing delimiter
	}
	w.b.WriteString(`"""`)
}

func (w *writer) literal() {
	if s, ok := w.word(); ok && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r == '\'' || r < 0x20 && r != '\t' || r == 0x7f }) {
		w.b.WriteString("'" + s + "'")
		return
	}
	w.b.WriteByte('\'')
	n := w.choice(w.cfg.MaxString + 1)
	for range n {
		w.literalChar()
	}
	w.b.WriteByte('\'')
}

func (w *writer) literalChar() {
	switch w.choice(8) {
	case 0:
		w.b.WriteRune(w.unicode())
	case 1:
		w.b.WriteString(w.pick([]string{`\`, `\n`, `"`, `\u0041`, "\t", `C:\Users`, `<\i\c*\s*>`}))
	default:
		w.b.WriteByte(litChars[w.value(len(litChars))])
	}
}

func (w *writer) multiLiteral() {
	w.b.WriteString("'''")
	if w.choice(2) == 0 {
		w.b.WriteString(w.eol)
	}
	n := w.choice(w.cfg.MaxString + 1)
	quotes := false
	for range n {
		switch c := w.choice(8); {
		case c == 0:
			w.b.WriteString(w.eol)
		case c == 1 && !quotes:
			w.b.WriteString(w.pick([]string{"'", "''"}))
			quotes = true
			continue
		default:
			w.literalChar()
		}
		quotes = false
	}
	if !quotes && w.choice(6) == 0 {
		w.b.WriteString(w.pick([]string{"'", "''"}))
	}
	w.b.WriteString("'''")
}

func (w *writer) integer() {
	switch w.choice(8) {
	case 0:
		w.b.WriteString(w.pick([]string{"0", "+0", "-0", "9223372036854775807", "-9223372036854775808", "+99", "1_000",
			"5_349_221", "1_2_3_4", "0x7FFFFFFFFFFFFFFF", "0xdead_BEEF", "0o755", "0o0", "0b0", "0b1_0", "0x0", "0x00_ff"}))
	case 1: // any int64
		w.b.WriteString(strconv.FormatInt(int64(w.s.Uint(8, param.Value)), 10))
	case 2, 3: // small, with a sign and underscores sometimes
		if w.choice(4) == 0 {
			w.b.WriteString(w.pick([]string{"+", "-"}))
		}
		w.digits(strconv.FormatUint(w.s.Uint(3, param.Value), 10))
	default: // hexadecimal, octal, binary
		v := w.s.Uint(8, param.Value) >> (1 + w.value(63)) // never past int64
		switch w.choice(3) {
		case 0:
			s := strconv.FormatUint(v, 16)
			if w.choice(2) == 0 {
				s = strings.ToUpper(s)
			}
			w.b.WriteString("0x")
			w.zeros()
			w.digits(s)
		case 1:
			w.b.WriteString("0o")
			w.zeros()
			w.digits(strconv.FormatUint(v, 8))
		default:
			w.b.WriteString("0b")
			w.zeros()
			w.digits(strconv.FormatUint(v, 2))
		}
	}
}

// zeros writes leading zeros sometimes (allowed after 0x, 0o, 0b).
func (w *writer) zeros() {
	if w.choice(6) == 0 {
		w.b.WriteString(w.pick([]string{"0", "00", "0000"}))
	}
}

// digits writes d with underscores between some digits, sometimes.
func (w *writer) digits(d string) {
	if len(d) < 2 || w.choice(4) != 0 {
		w.b.WriteString(d)
		return
	}
	for i := range len(d) {
		if i > 0 && w.choice(3) == 0 {
			w.b.WriteByte('_')
		}
		w.b.WriteByte(d[i])
	}
}

func (w *writer) float() {
	switch w.choice(6) {
	case 0:
		w.b.WriteString(w.pick([]string{"inf", "+inf", "-inf", "nan", "+nan", "-nan", "-0.0", "+0.0", "0.0", "0e0", "1e06",
			"3.141_592", "6.626e-34", "224_617.445_991_228", "5e+22", "1E-7", "-2E+2", "1.7976931348623157e308", "5e-324", "0.1"}))
	case 1: // any finite float64
		f := w.s.Uint(8, param.Value)
		s := strconv.FormatFloat(float64FromBits(f), 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		w.b.WriteString(s)
	default: // int part, fraction, exponent
		if w.choice(4) == 0 {
			w.b.WriteString(w.pick([]string{"+", "-"}))
		}
		w.digits(strconv.FormatUint(w.s.Uint(2, param.Value), 10))
		frac, exp := true, w.choice(3) == 0
		if exp {
			frac = w.choice(2) == 0
		}
		if frac {
			w.b.WriteByte('.')
			w.digits(w.pick([]string{"0", "5", "25", "000001", "14159", "999999999999"}))
		}
		if exp {
			w.b.WriteString(w.pick([]string{"e", "E", "e+", "E-", "e-", "e0", "e-0"}))
			w.digits(strconv.Itoa(w.value(300)))
		}
	}
}

// float64FromBits returns the float64 of the bits, made finite.
func float64FromBits(b uint64) float64 {
	if b>>52&0x7FF == 0x7FF { // infinity or NaN
		b &^= 1 << 62
	}
	return math.Float64frombits(b)
}

func (w *writer) datetime() {
	switch w.choice(4) {
	case 0: // offset date-time
		w.date()
		w.b.WriteString(w.pick([]string{"T", "t", " "}))
		w.time()
		if w.choice(3) == 0 {
			w.b.WriteString(w.pick([]string{"Z", "z"}))
		} else {
			w.b.WriteString(w.pick([]string{"+", "-"}) + pad(w.value(24), 2) + ":" + pad(w.value(60), 2))
		}
	case 1: // local date-time
		w.date()
		w.b.WriteString(w.pick([]string{"T", "t", " "}))
		w.time()
	case 2:
		w.date()
	default:
		w.time()
	}
}

func (w *writer) date() {
	y := w.value(10000)
	if w.choice(2) == 0 {
		y = 1970 + w.value(100)
	}
	m := 1 + w.value(12)
	d := 1 + w.value(daysIn(y, m))
	w.b.WriteString(pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2))
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func (w *writer) time() {
	w.b.WriteString(pad(w.value(24), 2) + ":" + pad(w.value(60), 2) + ":" + pad(w.value(60), 2))
	if w.choice(3) == 0 {
		n := 1 + w.choice(9)
		w.b.WriteByte('.')
		for range n {
			w.b.WriteByte(byte('0' + w.value(10)))
		}
	}
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// array writes an array value: on one line, or over lines with comments
// and a trailing comma (not inside inline tables).
func (w *writer) array(depth int, inline bool) {
	n := w.choice(5)
	multi := !inline && n > 0 && w.choice(3) == 0
	w.b.WriteByte('[')
	if multi {
		w.b.WriteString(w.eol + "  ")
	} else {
		w.ws()
	}
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
			if multi {
				if w.choice(3) == 0 {
					w.ws()
					w.comment()
				}
				w.b.WriteString(w.eol + "  ")
			} else {
				w.ws()
			}
		}
		w.val(depth, inline)
	}
	if multi {
		if w.choice(2) == 0 {
			w.b.WriteByte(',')
		}
		if w.choice(3) == 0 {
			w.ws()
			w.comment()
		}
		w.b.WriteString(w.eol)
	} else if n > 0 && w.choice(4) == 0 {
		w.b.WriteByte(',')
	}
	w.ws()
	w.b.WriteByte(']')
}

// inlineTable writes { k = v, ... } on one line, its keys in a private
// namespace.
func (w *writer) inlineTable(depth int) {
	w.b.WriteByte('{')
	n := w.choice(4)
	if n > 0 {
		w.b.WriteByte(' ')
	}
	// A private path: a fresh segment no document key can spell.
	w.inlines++
	path := "\x01" + strconv.Itoa(w.inlines)
	var dotted []string
	for i := range n {
		if i > 0 {
			w.b.WriteString(w.pick([]string{", ", ",", " , "}))
		}
		w.pairKey(path, &dotted)
		w.ws()
		w.b.WriteByte('=')
		w.ws()
		w.val(depth, true)
	}
	if n > 0 {
		w.b.WriteByte(' ')
	}
	w.b.WriteByte('}')
}
