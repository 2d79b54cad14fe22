// Package goyaml generates YAML streams for fuzzing YAML parsers and the
// configuration loaders built on them, and near misses of them.
//
// Document(cfg) draws a stream of one to Config.MaxDocs documents
// separated by "---" (a document may end with "...", be preceded by
// %YAML 1.1 and %TAG directives, be empty, or hold a bare scalar on the
// "---" line). A document's root is a block mapping, a block sequence, a
// flow collection, a scalar or a block scalar. Block mappings have
// implicit keys ("key: value") and explicit ones ("? key" / ": value"),
// unique in their mapping, and merge keys ("<<: *base"); block sequences
// nest compactly ("- - a", "- k: v") and under keys at the key's
// indentation ("key:\n- a"); indentation steps vary between 1 and 4
// spaces. Flow collections ([a, b], {k: v}, with JSON-style "k":v
// entries, trailing commas and explicit keys) nest in both styles.
// Scalars are plain (words, numbers in every YAML 1.1 and 1.2 form,
// booleans, nulls, timestamps, multi-line plain text), single-quoted (with
// ”), double-quoted (every escape yaml.v3 knows: \0 \a \b \t \n \v \f \r
// \e \" \\ \N \_ \L \P \xXX \uXXXX \UXXXXXXXX, escaped spaces and tabs,
// raw Unicode), literal (|) and folded (>) block scalars with chomping
// indicators (-, +), indentation indicators and more-indented and blank
// lines. Nodes carry anchors (&a), aliases (*a) refer to anchored nodes
// already complete, tags are standard (!!str, !!int, !!seq, ...) and
// matched to their node, local (!thing), verbatim (!<...>) or through a
// %TAG handle. Comments stand on their own lines and after values. Line
// ends are LF or CRLF, one choice per stream.
//
// Every stream decodes with gopkg.in/yaml.v3 into Go values (tested in
// testdata/formats): keys are never repeated in a mapping, aliases never
// refer forward or to their own ancestors, merges name mappings. The
// generator avoids what YAML 1.2 allows and yaml.v3 rejects: the %YAML
// 1.2 directive and the \/ escape (Syntax.BadEscapes has the latter).
//
// Near(cfg) is Document with the near-miss step (package nearmiss):
// changed indentation, stray ':' and '-', unclosed flow collections and
// quotes, broken escapes, cut documents.
//
// Structure (node kinds, lengths, styles, indentation) is drawn with
// structure draws, characters and numbers with value draws.
package goyaml

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of Document and Near. Zero fields take the
// defaults.
type Config struct {
	MaxDepth  int      // nesting of collections; default 3
	MaxItems  int      // entries per mapping, items per sequence; default 4
	MaxDocs   int      // documents per stream; default 2
	MaxString int      // characters per generated scalar; default 8
	Keys      []string // preferred mapping keys (drawn often when set)
	Words     []string // preferred scalar values (drawn often when set)
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxDepth, 3)
	def(&c.MaxItems, 4)
	def(&c.MaxDocs, 2)
	def(&c.MaxString, 8)
	return c
}

// Syntax is the near-miss syntax of YAML.
var Syntax = nearmiss.Syntax{
	Name:       "yaml",
	Delims:     []string{":", ": ", "-", "- ", "? ", ",", "[", "]", "{", "}", "#", " #", "&", "*", "!", "|", ">", `"`, "'", "\n", "  ", "\t", "---", "...", "%"},
	Closers:    []string{"]", "}", `"`, "'"},
	Quotes:     []string{`"`, "'"},
	Escapes:    []string{`\`, "''"},
	BadEscapes: []string{`\/`, `\q`, `\x4`, `\u12`, `\U0011FFFF`, `\`, "'"},
	Indent:     true,
	Boundary:   " \t\r\n:,[]{}#&*!|>\"'",
}

// Document returns a generator of YAML streams.
func Document(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg}
		w.stream()
		return w.b.String()
	}).Named("goyaml.Document")
}

// Near returns a generator of near misses of Document(cfg): Document with
// the near-miss step (nearmiss.Of, default Config).
func Near(cfg Config) gen.Generator[string] {
	return nearmiss.Of(Document(cfg), Syntax, nearmiss.Config{}).Named("goyaml.Near")
}

// anchor is an anchored node, complete, that aliases may name.
type anchor struct {
	name    string
	mapping bool
}

type writer struct {
	s       *param.Source
	cfg     Config
	b       strings.Builder
	eol     string
	anchors []anchor // complete anchored nodes of the document
	named   int      // anchors named in the stream
	handle  bool     // the document declared the %TAG handle !e!
}

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }
func (w *writer) value(n int) int  { return int(w.s.Uintn(uint64(n), param.Value)) }
func (w *writer) pick(words []string) string {
	return words[w.value(len(words))]
}

func (w *writer) spaces(n int) { w.b.WriteString(strings.Repeat(" ", n)) }

func (w *writer) stream() {
	w.eol = "\n"
	if w.choice(8) == 7 {
		w.eol = "\r\n"
	}
	n := 1 + w.choice(w.cfg.MaxDocs)
	ended := true // the previous document ended with "..." (or none came before)
	for d := range n {
		w.anchors = w.anchors[:0]
		w.handle = false
		marker := d > 0
		if ended && w.choice(6) == 5 {
			if w.choice(2) == 0 {
				w.b.WriteString("%YAML 1.1" + w.eol)
			}
			if w.choice(2) == 0 {
				w.b.WriteString("%TAG !e! tag:example.com,2000:app/" + w.eol)
				w.handle = true
			}
			marker = true
		}
		if w.choice(6) == 5 {
			w.comment()
			w.b.WriteString(w.eol)
		}
		if !marker && w.choice(4) == 3 {
			marker = true
		}
		w.root(marker)
		ended = w.choice(5) == 4
		if ended {
			w.b.WriteString("..." + w.eol)
		}
	}
}

// comment writes "# ..." without the line end.
func (w *writer) comment() {
	w.b.WriteString(w.pick([]string{"#", "# ", "#\t"}))
	for range w.choice(8) {
		if w.choice(6) == 0 {
			w.b.WriteRune(w.unicode())
		} else {
			w.b.WriteByte(commentChars[w.value(len(commentChars))])
		}
	}
}

const commentChars = "abc xyz 019 #:-[]{}&*!|>'\"%@`,"

// root writes a document's root node; marker: the document starts with
// "---".
func (w *writer) root(marker bool) {
	k := w.choice(10)
	if !marker && k >= 7 {
		k -= 3
	}
	switch k {
	case 0, 1, 2:
		if marker {
			w.b.WriteString("---" + w.eol)
		}
		w.blockMapping(0, w.cfg.MaxDepth, false)
	case 3, 4:
		if marker {
			w.b.WriteString("---" + w.eol)
		}
		w.blockSequence(0, w.cfg.MaxDepth, false)
	case 5:
		if marker {
			w.b.WriteString("--- ")
		}
		w.b.WriteString(w.flow(w.cfg.MaxDepth, w.choice(2) == 0) + w.eol)
	case 6:
		if marker {
			w.b.WriteString("--- ")
		}
		w.b.WriteString(w.scalar(false, false, false) + w.eol)
	case 7:
		w.b.WriteString("---")
		w.blockScalar(0, 1+w.choice(2), false)
	case 8:
		w.b.WriteString("---" + w.eol) // an empty document
	default:
		w.b.WriteString("--- ")
		p := w.props(false, false)
		w.b.WriteString(p + w.scalar(false, false, p != "") + w.eol)
	}
}

// props draws node properties (a tag, an anchor, both or none) and
// returns them with a trailing space; the anchor is registered by done.
// collection: for a sequence or mapping.
func (w *writer) props(collection, mapping bool) string {
	var p string
	if w.choice(6) == 5 {
		switch {
		case collection && mapping && w.choice(2) == 0:
			p = "!!map "
		case collection && !mapping && w.choice(2) == 0:
			p = "!!seq "
		case w.handle && w.choice(3) == 0:
			p = "!e!" + w.pick([]string{"thing", "x", "a-b"}) + " "
		default:
			p = w.pick([]string{"!local ", "!thing ", "!<tag:example.com,2000:x> ", "! "})
		}
	}
	if w.choice(6) == 5 {
		w.named++
		p += "&" + w.pick([]string{"a", "base", "x_", "anchor-"}) + strconv.Itoa(w.named) + " "
	}
	return p
}

// done registers the anchor of props p, its node now complete.
func (w *writer) done(p string, mapping bool) {
	i := strings.IndexByte(p, '&')
	if i < 0 {
		return
	}
	name := p[i+1:]
	name = name[:strings.IndexByte(name, ' ')]
	w.anchors = append(w.anchors, anchor{name, mapping})
}

// alias returns "*name" for a complete anchored node, or "" if none.
func (w *writer) alias() string {
	if len(w.anchors) == 0 {
		return ""
	}
	return "*" + w.anchors[w.value(len(w.anchors))].name
}

// blockMapping writes a block mapping whose keys are at column indent;
// inline: the cursor already stands at that column on the current line.
func (w *writer) blockMapping(indent, depth int, inline bool) {
	n := 1 + w.choice(w.cfg.MaxItems)
	var keys []string
	merged := false
	for i := range n {
		if !(inline && i == 0) {
			if w.choice(10) == 9 {
				w.spaces(indent)
				w.comment()
				w.b.WriteString(w.eol)
			}
			w.spaces(indent)
		}
		if !merged && w.choice(8) == 7 {
			if m := w.mergeable(); m != "" {
				merged = true
				w.b.WriteString("<<: *" + m + w.eol)
				continue
			}
		}
		key := w.key(&keys)
		if w.choice(10) == 9 { // explicit key
			w.b.WriteString("? " + key + w.eol)
			if w.choice(4) == 3 {
				continue // no value: null
			}
			w.spaces(indent)
			w.b.WriteString(":")
			w.mapValue(indent, depth)
			continue
		}
		w.b.WriteString(key + ":")
		w.mapValue(indent, depth)
	}
}

// mergeable returns the name of a complete anchored mapping, or "".
func (w *writer) mergeable() string {
	var names []string
	for _, a := range w.anchors {
		if a.mapping {
			names = append(names, a.name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return names[w.value(len(names))]
}

// key draws a key unique among keys (by its value) and returns it as
// written: plain or quoted, with properties sometimes.
func (w *writer) key(keys *[]string) string {
	var text string
	switch c := w.choice(10); {
	case c < 3 && len(w.cfg.Keys) > 0:
		text = w.pick(w.cfg.Keys)
	case c == 3 && len(gen.Dictionary()) > 0:
		text = w.pick(gen.Dictionary())
	case c == 4:
		text = w.pick([]string{"", "1", "true", "null", "~", "-1", "0x1F", "1.5", "2001-12-14", "a b", "key with: colon", "#x", "- x", "ü", "日本", "'", `"`, "? q", "&a", "*a", "!t", "|", ">", "%", "@", "`"})
	default:
		text = w.plainText(1, 8, true)
	}
	if text == "<<" {
		text = "<<x" // not a merge key
	}
	base := text
	for i := 2; contains(*keys, text); i++ {
		text = base + strconv.Itoa(i)
	}
	*keys = append(*keys, text)
	var p string
	if w.choice(12) == 11 {
		p = w.pick([]string{"!!str ", "!key "})
	}
	if w.choice(12) == 11 {
		w.named++
		name := "k" + strconv.Itoa(w.named)
		p += "&" + name + " "
		w.anchors = append(w.anchors, anchor{name: name})
	}
	return p + w.render(text, true, true)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// render writes text as a scalar: plain when it can be and a draw says
// so, single- or double-quoted otherwise.
func (w *writer) render(text string, flowSafe, key bool) string {
	c := w.choice(6)
	if plainSafe(text, flowSafe, key) && c < 4 {
		return text
	}
	if c == 4 && singleSafe(text) {
		return "'" + strings.ReplaceAll(text, "'", "''") + "'"
	}
	return w.double(text)
}

// indicators are the characters that may not start a plain scalar.
const indicators = "-?:,[]{}#&*!|>'\"%@`"

// plainSafe reports whether s can be written as a plain scalar that reads
// back as s, on one line, in flow context when flow is set.
func plainSafe(s string, flow, key bool) bool {
	if s == "" || strings.IndexByte(indicators, s[0]) >= 0 || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	if flow && strings.ContainsAny(s, ",[]{}:") {
		return false
	}
	if key && strings.Contains(s, ":") {
		return false
	}
	for _, r := range s {
		if !printable(r) || r == '\t' || r == '\n' || r == '\r' || r == 0x85 || r == 0xFEFF {
			return false
		}
	}
	return true
}

// singleSafe reports whether s can be single-quoted on one line.
func singleSafe(s string) bool {
	for _, r := range s {
		if !printable(r) || r == '\n' || r == '\r' || r == '\t' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF {
			return false
		}
	}
	return true
}

// printable reports whether YAML allows r raw in a stream.
func printable(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7E || r == 0x85 ||
		r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// double returns s double-quoted, escaping what must be.
func (w *writer) double(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case !printable(r) || r < 0x20 || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF:
			switch {
			case r < 0x100:
				b.WriteString(`\x` + hex(uint64(r), 2))
			case r < 0x10000:
				b.WriteString(`\u` + hex(uint64(r), 4))
			default:
				b.WriteString(`\U` + hex(uint64(r), 8))
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func hex(v uint64, n int) string {
	s := strconv.FormatUint(v, 16)
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// unicode draws a printable non-ASCII character.
func (w *writer) unicode() rune {
	r := rune(0xA0 + w.s.Uint(2, param.Value)%0xD700)
	if r == 0xFEFF || r == 0x2028 || r == 0x2029 {
		r = 'é'
	}
	return r
}

// plainChars are the characters of generated plain scalars after the
// first; plainFirst those they start with.
const (
	plainFirst = "abcxyzABC019_~/("
	plainChars = "abcxyzABC019 -_./()=+;$^~"
)

// plainText draws text that plainSafe accepts (in flow context when
// flow is set).
func (w *writer) plainText(min, max int, flow bool) string {
	n := min + w.choice(max-min+1)
	var b strings.Builder
	b.WriteByte(plainFirst[w.value(len(plainFirst))])
	for i := 1; i < n; i++ {
		switch c := w.choice(12); {
		case c == 0:
			b.WriteRune(w.unicode())
		case c == 1 && !flow:
			b.WriteString(w.pick([]string{":x", "#", "a:b", "::"}))
		default:
			b.WriteByte(plainChars[w.value(len(plainChars))])
		}
	}
	s := strings.TrimRight(b.String(), " ")
	for strings.Contains(s, " #") || strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		s = strings.NewReplacer(" #", " _", ": ", ":_").Replace(s)
		s = strings.TrimSuffix(s, ":")
	}
	return s
}

// scalar returns a one-line scalar, in flow context when flow is set;
// tagged: properties precede it, so it takes no tag of its own.
func (w *writer) scalar(flow, key, tagged bool) string {
	switch c := w.choice(16); {
	case c < 3 && len(w.cfg.Words) > 0:
		return w.render(w.pick(w.cfg.Words), flow, key)
	case c == 3 && len(gen.Dictionary()) > 0:
		return w.render(w.pick(gen.Dictionary()), flow, key)
	case c < 6:
		return w.number()
	case c == 6:
		return w.pick([]string{"true", "false", "True", "FALSE", "yes", "no", "on", "off", "y", "n"})
	case c == 7:
		return w.pick([]string{"null", "~", "Null", "NULL"})
	case c == 8:
		return w.pick([]string{"2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2002-12-14", "2001-12-15T02:59:43.1Z", "12:30:45", "1:20"})
	case c == 9:
		return w.single()
	case c < 12:
		return w.doubleDrawn()
	case c == 12 && !tagged:
		t := w.pick([]string{"!!str ", "!!int ", "!!float ", "!!bool ", "!!null ", "!!binary ", "!<tag:yaml.org,2002:str> "})
		switch t {
		case "!!int ":
			return t + strconv.Itoa(int(int16(w.s.Uint(2, param.Value))))
		case "!!float ":
			return t + w.pick([]string{"1.5", "1", ".inf", "-.Inf", ".nan", "1e3"})
		case "!!bool ":
			return t + w.pick([]string{"true", "false"})
		case "!!null ":
			return t + w.pick([]string{"null", "~", "''"})
		case "!!binary ":
			return t + w.pick([]string{"aGVsbG8=", "R0lGODlhAQABAAAAACw=", "''"})
		}
		switch w.choice(3) {
		case 0:
			return t + w.single()
		case 1:
			return t + w.doubleDrawn()
		}
		return t + w.plainText(1, w.cfg.MaxString, flow)
	default:
		return w.plainText(1, w.cfg.MaxString, flow)
	}
}

func (w *writer) number() string {
	switch w.choice(6) {
	case 0:
		return w.pick([]string{"0", "-0", "+1", "0o17", "0x1F", "0xff", "017", "0b101", "1_000", ".inf", "-.inf", "+.INF", ".NaN", ".nan",
			"1e3", "-1.5e-3", "6.8523015e+5", "685.230_15e+03", "0.", ".5", "9223372036854775807", "-9223372036854775808",
			"18446744073709551616", "1e400", "190:20:30", "0x_1A"})
	case 1:
		return strconv.FormatInt(int64(w.s.Uint(8, param.Value)), 10)
	case 2:
		return strconv.FormatFloat(float64(int32(w.s.Uint(4, param.Value)))/64, 'g', -1, 64)
	default:
		return strconv.Itoa(int(int16(w.s.Uint(2, param.Value))))
	}
}

// single draws a single-quoted scalar.
func (w *writer) single() string {
	var b strings.Builder
	b.WriteByte('\'')
	for range w.choice(w.cfg.MaxString + 1) {
		switch w.choice(8) {
		case 0:
			b.WriteString("''")
		case 1:
			b.WriteRune(w.unicode())
		default:
			b.WriteByte(quotedChars[w.value(len(quotedChars))])
		}
	}
	b.WriteByte('\'')
	return b.String()
}

const quotedChars = "abc xyz 019 :#-,[]{}&*!|>\"%@`\\"

// doubleDrawn draws a double-quoted scalar with escapes.
func (w *writer) doubleDrawn() string {
	var b strings.Builder
	b.WriteByte('"')
	for range w.choice(w.cfg.MaxString + 1) {
		switch w.choice(8) {
		case 0:
			b.WriteString(w.pick([]string{`\0`, `\a`, `\b`, `\t`, "\\\t", `\n`, `\v`, `\f`, `\r`, `\e`, `\ `, `\"`, `\\`, `\N`, `\_`, `\L`, `\P`}))
		case 1:
			switch w.choice(3) {
			case 0:
				b.WriteString(`\x` + hex(uint64(w.value(256)), 2))
			case 1:
				b.WriteString(`\u` + hex(uint64(w.unicode()), 4))
			default:
				b.WriteString(`\U` + hex(uint64(0x10000+w.s.Uint(3, param.Value)%0x100000), 8))
			}
		case 2:
			b.WriteRune(w.unicode())
		default:
			c := quotedChars[w.value(len(quotedChars))]
			if c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// mapValue writes a mapping value after "key:" (and the line's end), for
// a key at column indent.
func (w *writer) mapValue(indent, depth int) {
	k := w.choice(14)
	if depth <= 0 && k >= 3 && k <= 7 {
		k = 13
	}
	switch k {
	case 0: // null
		if w.choice(3) == 2 {
			w.b.WriteString(" ")
			w.comment()
		}
		w.b.WriteString(w.eol)
	case 1:
		if a := w.alias(); a != "" {
			w.b.WriteString(" " + a + w.eol)
			return
		}
		w.scalarLine(indent)
	case 2:
		p := w.props(false, false)
		if p != "" {
			w.b.WriteString(" " + strings.TrimSuffix(p, " "))
		}
		w.blockScalar(indent, indent+1+w.choice(3), true)
		w.done(p, false)
	case 3, 4:
		p := w.props(true, true)
		if p != "" {
			w.b.WriteString(" " + strings.TrimSuffix(p, " "))
		}
		w.b.WriteString(w.eol)
		w.blockMapping(indent+w.step(), depth-1, false)
		w.done(p, true)
	case 5, 6:
		p := w.props(true, false)
		if p != "" {
			w.b.WriteString(" " + strings.TrimSuffix(p, " "))
		}
		w.b.WriteString(w.eol)
		in := indent // "key:\n- item" is allowed
		if w.choice(2) == 0 {
			in += w.step()
		}
		w.blockSequence(in, depth-1, false)
		w.done(p, false)
	case 7:
		m := w.choice(2) == 0
		p := w.props(true, m)
		w.b.WriteString(" " + p + w.flow(depth-1, m))
		w.trailing()
		w.done(p, m)
	default:
		w.scalarLine(indent)
	}
}

// step draws an indentation step.
func (w *writer) step() int { return []int{2, 2, 4, 1}[w.choice(4)] }

// trailing ends a line, with a comment sometimes.
func (w *writer) trailing() {
	if w.choice(8) == 7 {
		w.b.WriteString(w.pick([]string{" ", "  ", "\t"}))
		w.comment()
	}
	w.b.WriteString(w.eol)
}

// scalarLine writes " scalar" to the end of the line, sometimes a plain
// scalar continued on more-indented lines.
func (w *writer) scalarLine(indent int) {
	p := w.props(false, false)
	w.b.WriteString(w.pick([]string{" ", " ", " ", "  "}) + p)
	if w.choice(10) == 9 { // multi-line plain scalar
		w.b.WriteString(w.plainText(1, 6, false))
		for range 1 + w.choice(2) {
			w.b.WriteString(w.eol)
			w.spaces(indent + 2 + w.choice(3))
			w.b.WriteString(w.plainText(1, 6, false))
		}
		w.b.WriteString(w.eol)
		w.done(p, false)
		return
	}
	w.b.WriteString(w.scalar(false, false, p != ""))
	w.trailing()
	w.done(p, false)
}

// blockScalar writes a block scalar's header (after the current text) and
// its lines at column at (> parent); indicator: the header may give the
// indentation (at-parent, 1 to 9).
func (w *writer) blockScalar(parent, at int, indicator bool) {
	w.b.WriteString(" " + w.pick([]string{"|", ">"}))
	chomp := w.pick([]string{"", "", "-", "+"})
	explicit := indicator && at-parent <= 9 && w.choice(4) == 3
	if explicit {
		w.b.WriteString(strconv.Itoa(at - parent))
	}
	w.b.WriteString(chomp)
	if w.choice(8) == 7 {
		w.b.WriteString(" ")
		w.comment()
	}
	w.b.WriteString(w.eol)
	n := 1 + w.choice(4)
	for i := range n {
		switch c := w.choice(8); {
		case c == 0 && i > 0: // blank line
		case c == 1 && (i > 0 || explicit): // more indented
			w.spaces(at + 1 + w.choice(2))
			w.blockText()
		default:
			w.spaces(at)
			w.blockText()
		}
		w.b.WriteString(w.eol)
	}
	if chomp == "+" && w.choice(2) == 0 {
		w.b.WriteString(w.eol)
	}
}

// blockText writes one line of a block scalar (not starting with a
// space).
func (w *writer) blockText() {
	w.b.WriteByte(plainFirst[w.value(len(plainFirst))])
	for range w.choice(w.cfg.MaxString + 1) {
		switch w.choice(8) {
		case 0:
			w.b.WriteRune(w.unicode())
		case 1:
			w.b.WriteString(w.pick([]string{": ", " # ", "- ", "\t", "'", `"`, `\n`, "{", "]", "&a", "*a", "!x", "---", "..."}))
		default:
			w.b.WriteByte(plainChars[w.value(len(plainChars))])
		}
	}
}

// blockSequence writes a block sequence whose dashes are at column
// indent; inline: the cursor already stands there.
func (w *writer) blockSequence(indent, depth int, inline bool) {
	n := 1 + w.choice(w.cfg.MaxItems)
	for i := range n {
		if !(inline && i == 0) {
			if w.choice(12) == 11 {
				w.spaces(indent)
				w.comment()
				w.b.WriteString(w.eol)
			}
			w.spaces(indent)
		}
		w.b.WriteString("-")
		w.seqItem(indent, depth)
	}
}

// seqItem writes a sequence item after its "-" at column indent.
func (w *writer) seqItem(indent, depth int) {
	k := w.choice(12)
	if depth <= 0 && k >= 3 && k <= 6 {
		k = 11
	}
	switch k {
	case 0: // null
		w.b.WriteString(w.eol)
	case 1:
		if a := w.alias(); a != "" {
			w.b.WriteString(" " + a + w.eol)
			return
		}
		w.scalarLine(indent)
	case 2:
		p := w.props(false, false)
		if p != "" {
			w.b.WriteString(" " + strings.TrimSuffix(p, " "))
		}
		w.blockScalar(indent, indent+2, false)
		w.done(p, false)
	case 3, 4: // a mapping: compact, or after properties on their own line
		p := w.props(true, true)
		if p != "" {
			w.b.WriteString(" " + strings.TrimSuffix(p, " ") + w.eol)
			w.blockMapping(indent+2, depth-1, false)
		} else {
			w.b.WriteString(" ")
			w.blockMapping(indent+2, depth-1, true)
		}
		w.done(p, true)
	case 5: // a sequence
		p := w.props(true, false)
		if p != "" {
			w.b.WriteString(" " + strings.TrimSuffix(p, " ") + w.eol)
			w.blockSequence(indent+2, depth-1, false)
		} else {
			w.b.WriteString(" ")
			w.blockSequence(indent+2, depth-1, true)
		}
		w.done(p, false)
	case 6:
		m := w.choice(2) == 0
		p := w.props(true, m)
		w.b.WriteString(" " + p + w.flow(depth-1, m))
		w.trailing()
		w.done(p, m)
	default:
		w.scalarLine(indent)
	}
}

// flow returns a flow collection on one line: a mapping or a sequence.
func (w *writer) flow(depth int, mapping bool) string {
	var b strings.Builder
	n := w.choice(w.cfg.MaxItems + 1)
	sep := w.pick([]string{", ", ",", " , "})
	if !mapping {
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(w.flowNode(depth))
		}
		if n > 0 && w.choice(6) == 5 {
			b.WriteByte(',')
		}
		b.WriteByte(']')
		return b.String()
	}
	b.WriteByte('{')
	var keys []string
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		var text string
		if len(w.cfg.Keys) > 0 && w.choice(2) == 0 {
			text = w.pick(w.cfg.Keys)
		} else {
			text = w.plainText(1, 6, true)
		}
		if text == "<<" {
			text = "<<x" // not a merge key
		}
		base := text
		for j := 2; contains(keys, text); j++ {
			text = base + strconv.Itoa(j)
		}
		keys = append(keys, text)
		switch w.choice(8) {
		case 7: // JSON-like: "key":value
			b.WriteString(w.double(text) + ":" + w.flowNode(depth))
		case 6: // explicit key
			b.WriteString("? " + w.render(text, true, true) + " : " + w.flowNode(depth))
		default:
			b.WriteString(w.render(text, true, true) + ": " + w.flowNode(depth))
		}
	}
	if n > 0 && w.choice(6) == 5 {
		b.WriteByte(',')
	}
	b.WriteByte('}')
	return b.String()
}

// flowNode returns a node inside a flow collection.
func (w *writer) flowNode(depth int) string {
	k := w.choice(8)
	if depth <= 0 && k == 7 {
		k = 0
	}
	switch k {
	case 6:
		if a := w.alias(); a != "" {
			return a
		}
		return w.scalar(true, false, false)
	case 7:
		m := w.choice(2) == 0
		p := w.props(true, m)
		s := p + w.flow(depth-1, m)
		w.done(p, m)
		return s
	default:
		p := w.props(false, false)
		s := p + w.scalar(true, false, p != "")
		w.done(p, false)
		return s
	}
}
