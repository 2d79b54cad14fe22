// Package gomd generates Markdown documents (CommonMark with the GitHub
// Flavored Markdown extensions) for fuzzing Markdown parsers and
// renderers, and near misses of them.
//
// Blocks(cfg) draws a document as its top-level blocks; Join writes them
// separated by blank lines; Document(cfg) is both. The blocks: paragraphs,
// ATX headings (levels 1 to 6, closing sequences, empty) and setext
// headings, thematic breaks, fenced code (backticks or tildes, three to
// five, info strings, indented fences) and indented code, block quotes and
// bullet and ordered lists (start numbers, "." and ")", loose and tight,
// task items, nested up to Config.MaxDepth, with any block inside and lazy
// continuation lines), GFM tables (alignments, escaped pipes, rows of
// other lengths), HTML blocks of all seven kinds, and link reference
// definitions. Inline content holds emphasis and strong emphasis with '*'
// and '_', strikethrough, code spans (with backticks inside), inline,
// reference, collapsed and shortcut links, images, autolinks and GFM
// extended autolinks, raw inline HTML, entity and numeric character
// references, backslash escapes, and soft and hard line breaks.
//
// The blocks are written so that a CommonMark parser finds exactly them,
// in order, at the top level: lines never start with what would open
// another block, fences are closed, two lists never meet. goldmark (in
// testdata/formats) finds them in all of 2000 default documents and in
// 1999 of 2000 deeply nested ones. Text comes from Config.Words and
// gen.Dictionary() besides generated words.
//
// Near(cfg) is Document with the near-miss step (package nearmiss):
// changed indentation that moves content in and out of lists and code,
// unclosed fences, emphasis, links and HTML, stray markers.
//
// Structure (block and inline kinds, nesting, lengths) is drawn with
// structure draws, characters with value draws.
package gomd

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of Blocks, Document and Near. Zero fields take
// the defaults.
type Config struct {
	MaxDepth  int      // nesting of block quotes and lists; default 3
	MaxBlocks int      // top-level blocks (1..MaxBlocks); default 5
	MaxInline int      // inline elements per run of text; default 6
	Words     []string // preferred words of text (line breaks become spaces)
	URLs      []string // preferred link destinations
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxDepth, 3)
	def(&c.MaxBlocks, 5)
	def(&c.MaxInline, 6)
	return c
}

// Kind is the kind of a top-level block.
type Kind uint8

// The kinds of blocks.
const (
	Paragraph Kind = iota
	Heading        // ATX or setext
	ThematicBreak
	FencedCode
	IndentedCode
	BlockQuote
	BulletList
	OrderedList
	Table
	HTMLBlock
	LinkReference // a link reference definition (CommonMark parsers may keep no node for it)
	numKinds
)

var kindNames = [...]string{"Paragraph", "Heading", "ThematicBreak", "FencedCode", "IndentedCode", "BlockQuote", "BulletList",
	"OrderedList", "Table", "HTMLBlock", "LinkReference"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Block is a top-level block: its kind and its text, lines joined by "\n"
// without a final line end.
type Block struct {
	Kind Kind
	Text string
}

// Join writes blocks as a document: separated by blank lines, ended by a
// line end.
func Join(blocks []Block) string {
	var b strings.Builder
	for i, bl := range blocks {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(bl.Text)
	}
	if len(blocks) > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// Syntax is the near-miss syntax of Markdown.
var Syntax = nearmiss.Syntax{
	Name: "markdown",
	Delims: []string{"\n", "\n\n", "*", "**", "_", "~~", "`", "```", "~~~", "[", "]", "(", ")", "![", "<", ">", "> ", "- ", "1. ", "#", "# ",
		"|", "---", "===", "    ", "\t", "\\", "&", ":"},
	Closers:    []string{"```", "~~~", "**", "__", "~~", "*", "_", "`", "]", ")", ">", "-->", "|"},
	Quotes:     []string{"*", "_", "`"},
	Escapes:    []string{`\`, "&"},
	BadEscapes: []string{`\`, "&", "&#", "&#x;", "&amp", "&#99999999;", "&bogus;"},
	Indent:     true,
	Boundary:   " \t\n*_`[]()<>!|#",
}

// Blocks returns a generator of documents as top-level blocks.
func Blocks(cfg Config) gen.Generator[[]Block] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []Block {
		w := &writer{s: t.Source(), cfg: cfg}
		return w.document()
	}).Named("gomd.Blocks")
}

// Document returns a generator of Markdown documents: Join(Blocks(cfg)).
func Document(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg}
		return Join(w.document())
	}).Named("gomd.Document")
}

// Near returns a generator of near misses of Document(cfg): Document with
// the near-miss step (nearmiss.Of, default Config).
func Near(cfg Config) gen.Generator[string] {
	return nearmiss.Of(Document(cfg), Syntax, nearmiss.Config{}).Named("gomd.Near")
}

type writer struct {
	s      *param.Source
	cfg    Config
	labels []string // link reference labels defined so far
	flush  bool     // the block follows a list: no indentation, which would put it in the list
}

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }
func (w *writer) value(n int) int  { return int(w.s.Uintn(uint64(n), param.Value)) }
func (w *writer) pick(words []string) string {
	return words[w.value(len(words))]
}

func (w *writer) document() []Block {
	n := 1 + w.choice(w.cfg.MaxBlocks)
	out := make([]Block, 0, n)
	prev := Kind(numKinds)
	for range n {
		k, lines := w.block(w.cfg.MaxDepth, prev)
		out = append(out, Block{k, strings.Join(lines, "\n")})
		prev = k
	}
	return out
}

// block draws a block after one of kind prev (numKinds: none) and returns
// its kind and lines.
func (w *writer) block(depth int, prev Kind) (Kind, []string) {
	k := Kind(w.choice(int(numKinds) + 3)) // paragraphs count four times
	if k >= numKinds {
		k = Paragraph
	}
	if depth <= 0 && (k == BlockQuote || k == BulletList || k == OrderedList) {
		k = Paragraph
	}
	// Two lists of one kind would merge, and so would two indented code
	// blocks; an indented code block after a list would join its last
	// item.
	afterList := prev == BulletList || prev == OrderedList
	if afterList && (k == prev || k == IndentedCode) || k == IndentedCode && prev == IndentedCode {
		k = Paragraph
	}
	w.flush = afterList
	defer func() { w.flush = false }()
	switch k {
	case Heading:
		return k, w.heading()
	case ThematicBreak:
		return k, []string{w.indent() + w.pick([]string{"***", "---", "___", "* * *", "- - -", "_____", "*\t*\t*", "---   "})}
	case FencedCode:
		return k, w.fenced()
	case IndentedCode:
		return k, w.indented()
	case BlockQuote:
		return k, w.quote(depth - 1)
	case BulletList, OrderedList:
		return k, w.list(depth-1, k == OrderedList)
	case Table:
		return k, w.table()
	case HTMLBlock:
		return k, w.html()
	case LinkReference:
		return k, w.linkRef()
	}
	return Paragraph, strings.Split(w.indent()+w.inline(2, true), "\n")
}

// indent draws 0 to 3 spaces of indentation, mostly none.
func (w *writer) indent() string {
	if w.choice(6) == 5 && !w.flush {
		return strings.Repeat(" ", 1+w.choice(3))
	}
	return ""
}

func (w *writer) heading() []string {
	if w.choice(4) == 3 { // setext
		lines := strings.Split(w.indent()+w.inline(1, true), "\n")
		return append(lines, w.indent()+w.pick([]string{"=", "===", "-", "---", "=====  "}))
	}
	h := w.indent() + strings.Repeat("#", 1+w.choice(6))
	if w.choice(8) == 7 {
		return []string{h} // empty heading
	}
	h += w.pick([]string{" ", " ", "\t", "  "}) + w.inline(1, false)
	if w.choice(6) == 5 {
		h += " " + strings.Repeat("#", 1+w.choice(4))
	}
	return []string{h}
}

func (w *writer) fenced() []string {
	c := w.pick([]string{"`", "~"})
	fence := strings.Repeat(c, 3+w.choice(3))
	in := w.indent()
	info := w.pick([]string{"", "", "go", "python {.x}", " js", "c++ title=\"a b\"", "weird~"})
	if c == "`" {
		info = strings.ReplaceAll(info, "`", "")
	}
	lines := []string{in + fence + info}
	for range w.choice(4) {
		lines = append(lines, w.pick([]string{"", "  ", "    ", "\t"})+w.codeLine())
	}
	return append(lines, w.indent()+fence+strings.Repeat(c, w.choice(2)))
}

// codeLine draws a line of code (never a fence).
func (w *writer) codeLine() string {
	var b strings.Builder
	b.WriteString(w.pick([]string{"x", "func", "if", "<div>", "# not", "- not", "> not", "*", "1.", "|a|", "\\", "&amp;", "a := 1"}))
	for range w.choice(6) {
		b.WriteByte(codeChars[w.value(len(codeChars))])
	}
	return b.String()
}

const codeChars = "abc xyz 019 {}()[]<>*_`~#-+=|\\&;:'\"\t"

func (w *writer) indented() []string {
	lines := []string{"    " + w.codeLine()}
	for range w.choice(3) {
		switch w.choice(4) {
		case 0:
			lines = append(lines, "", "    "+w.codeLine()) // a blank line inside
		case 1:
			lines = append(lines, "\t"+w.codeLine())
		default:
			lines = append(lines, w.pick([]string{"    ", "     ", "        "})+w.codeLine())
		}
	}
	return lines
}

// blocks draws one to three blocks separated by blank lines, for a
// container, and returns their lines and the first one's kind (last
// when last is set).
func (w *writer) blocks(depth int, last bool) ([]string, Kind) {
	n := 1 + w.choice(3)
	var lines []string
	prev, first := Kind(numKinds), Kind(numKinds)
	for i := range n {
		if i > 0 {
			lines = append(lines, "")
		}
		k, bl := w.block(depth, prev)
		lines = append(lines, bl...)
		prev = k
		if i == 0 {
			first = k
		}
	}
	if last {
		return lines, prev
	}
	return lines, first
}

func (w *writer) quote(depth int) []string {
	flush := w.flush // after a list: no indentation before '>'
	inner, last := w.blocks(depth, true)
	out := make([]string, len(inner))
	for i, l := range inner {
		p := w.pick([]string{"> ", "> ", ">", " > ", "   > "})
		if flush {
			p = strings.TrimLeft(p, " ")
		}
		switch {
		case l == "":
			p = strings.TrimRight(p, " \t")
		case l[0] == ' ' || l[0] == '\t':
			p = "> " // keep the content's indentation relative to "> "
		}
		out[i] = p + l
	}
	// A lazy continuation line ends a final paragraph sometimes.
	if w.choice(6) == 5 && last == Paragraph {
		out = append(out, w.word())
	}
	return out
}

func (w *writer) list(depth int, ordered bool) []string {
	var marker string
	start := 1
	if ordered {
		switch w.choice(4) {
		case 0:
			start = w.pick1([]int{0, 2, 9, 10, 99, 123456789, 999999990})
		case 1:
			start = w.value(1000)
		}
		marker = w.pick([]string{".", ")"})
	} else {
		marker = w.pick([]string{"-", "*", "+"})
	}
	loose := w.choice(3) == 0
	n := 1 + w.choice(3)
	var out []string
	for i := range n {
		if i > 0 && loose {
			out = append(out, "")
		}
		m := marker
		if ordered {
			m = strconv.Itoa(start+i) + marker
		}
		sp := w.pick([]string{" ", " ", " ", "  ", "   ", "    "})
		width := len(m) + len(sp)
		var item []string
		first := Paragraph
		if w.choice(8) == 7 && !loose && i < n-1 {
			item = []string{""} // an empty item (not last: a blank line would follow it)
		} else {
			item, first = w.itemBlocks(depth, m)
		}
		if !ordered && first == Paragraph && item[0] != "" && w.choice(5) == 4 {
			item[0] = w.pick([]string{"[ ] ", "[x] ", "[X] "}) + item[0]
		}
		for j, l := range item {
			switch {
			case j == 0 && l == "":
				out = append(out, m)
			case j == 0:
				out = append(out, m+sp+l)
			case l == "":
				out = append(out, "")
			default:
				out = append(out, strings.Repeat(" ", width)+l)
			}
		}
	}
	return out
}

func (w *writer) pick1(v []int) int { return v[w.value(len(v))] }

// itemBlocks draws a list item's blocks. A first line that starts with
// whitespace (indented code, an indented paragraph) would move the item's
// content column, and one made of the marker's character would make the
// item a thematic break: such a line becomes a line of text.
// It returns the lines and the first block's kind.
func (w *writer) itemBlocks(depth int, marker string) ([]string, Kind) {
	lines, first := w.blocks(depth, false)
	if l := lines[0]; l[0] == ' ' || l[0] == '\t' || isBreak(marker+" "+l) {
		lines[0] = w.inline(1, false)
		first = numKinds
	}
	return lines, first
}

// isBreak reports whether l is a thematic break.
func isBreak(l string) bool {
	l = strings.TrimLeft(l, " ")
	if l == "" || strings.IndexByte("-*_", l[0]) < 0 {
		return false
	}
	n := 0
	for i := range len(l) {
		switch l[i] {
		case l[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func (w *writer) table() []string {
	cols := 1 + w.choice(4)
	edge := w.choice(3) != 0 // leading and trailing pipes
	row := func(n int) string {
		cells := make([]string, n)
		for i := range cells {
			cells[i] = strings.ReplaceAll(w.inline(0, false), "|", `\|`)
		}
		if edge {
			return "| " + strings.Join(cells, " | ") + " |"
		}
		if n == 1 {
			return cells[0] + " |"
		}
		return strings.Join(cells, " | ")
	}
	align := make([]string, cols)
	for i := range align {
		align[i] = w.pick([]string{"---", ":--", "--:", ":-:", "-", ":------:"})
	}
	delim := strings.Join(align, "|")
	if edge || cols == 1 {
		delim = "|" + delim + "|"
	}
	lines := []string{row(cols), delim}
	for range w.choice(4) {
		n := cols
		if w.choice(4) == 3 {
			n = 1 + w.choice(cols+1) // more or fewer cells
		}
		lines = append(lines, row(n))
	}
	return lines
}

func (w *writer) html() []string {
	text := w.word() + " " + w.word()
	switch w.choice(7) {
	case 0: // 1: raw text elements, to their closing tag
		tag := w.pick([]string{"pre", "script", "style", "textarea"})
		return []string{"<" + tag + w.pick([]string{">", " class=\"x\">", ">" + text}), text, "", "a < b && c", "</" + tag + ">" + w.pick([]string{"", " after"})}
	case 1: // 2: comments
		return []string{"<!-- " + text, "", "-- inside --" + w.pick([]string{"", "-"}) + " -->"}
	case 2: // 3: processing instructions
		return []string{"<?php echo 1; ?>" + w.pick([]string{"", " x"})}
	case 3: // 4: declarations
		return []string{w.pick([]string{"<!DOCTYPE html>", "<!ELEMENT br EMPTY>"})}
	case 4: // 5: CDATA
		return []string{"<![CDATA[", text, "]]>"}
	case 5: // 6: block-level tags, to a blank line
		tag := w.pick([]string{"div", "table", "p", "ul", "section", "details", "h1", "DIV", "iframe"})
		return []string{w.indent() + "<" + tag + w.pick([]string{">", " id=\"a\">", "/>", ""}), "  " + text, "</" + tag + ">"}
	default: // 7: any complete tag alone on its line
		tag := w.pick([]string{"span", "a href=\"/x\"", "custom-el", "b", "/em", "x data-y='1'", "img src=x /"})
		return []string{"<" + tag + ">", text}
	}
}

func (w *writer) linkRef() []string {
	label := w.word()
	if w.choice(3) == 0 {
		label += " " + w.pick([]string{"Foo", "ẞ", "*b*", `\]`, "  x"})
	}
	w.labels = append(w.labels, label)
	dest := w.dest()
	title := w.pick([]string{"", "", ` "title"`, " 'single'", " (paren)", "\n  \"next line\""})
	return strings.Split(w.indent()+"["+label+"]:"+w.pick([]string{" ", "", "\t"})+dest+title, "\n")
}

// dest draws a link destination (never empty: an empty one needs <>).
func (w *writer) dest() string {
	if len(w.cfg.URLs) > 0 && w.choice(2) == 0 {
		u := strings.Map(func(r rune) rune {
			if r <= ' ' || r == 0x7f {
				return '_'
			}
			return r
		}, w.pick(w.cfg.URLs))
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(u) + ">"
	}
	return w.pick([]string{"/url", "http://example.com/a?b=c#d", "<>", "<with space>", "a(b)c", "%20", "mailto:x@y.z", "../rel", "#frag", `\(x\)`, "ü"})
}

// firstChars start generated words: letters, so that no line of text
// starts a block.
const (
	firstChars = "abcdefxyzABCXYZ"
	wordChars  = "abcxyz019_-.'"
)

// word draws a word of text.
func (w *writer) word() string {
	switch c := w.choice(10); {
	case c == 9:
		return w.pick([]string{"foo", "bar", "ünïcödé", "日本語", "über", "naïve", "a1", "x_y_z", "snake_case_word", "don't"})
	}
	n := w.choice(6)
	b := []byte{firstChars[w.value(len(firstChars))]}
	for range n {
		b = append(b, wordChars[w.value(len(wordChars))])
	}
	return string(b)
}

// safeWord draws a word from Config.Words or the dictionary when it has
// them (line breaks made spaces), to put after a generated word.
func (w *writer) safeWord() (string, bool) {
	var s string
	switch c := w.choice(6); {
	case c < 2 && len(w.cfg.Words) > 0:
		s = w.pick(w.cfg.Words)
	case c == 2 && len(gen.Dictionary()) > 0:
		s = w.pick(gen.Dictionary())
	default:
		return "", false
	}
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '|' {
			return ' '
		}
		return r
	}, s), true
}

// inline draws a run of inline content that starts with a word; breaks:
// it may hold line breaks (each followed by a word).
func (w *writer) inline(depth int, breaks bool) string {
	var b strings.Builder
	b.WriteString(w.word())
	n := w.choice(w.cfg.MaxInline)
	for range n {
		k := w.choice(20)
		if depth <= 0 && k >= 4 && k <= 8 {
			k = 0
		}
		b.WriteString(w.pick([]string{" ", " ", " ", "", "  "}))
		switch k {
		case 0, 1, 2:
			b.WriteString(w.word())
		case 3:
			if s, ok := w.safeWord(); ok {
				b.WriteString(s)
			} else {
				b.WriteString(w.word())
			}
		case 4: // emphasis
			d := w.pick([]string{"*", "_", "**", "__", "***", "~~", "~", "*__", "**_"})
			closeD := reverse(d)
			b.WriteString(d + w.inline(depth-1, false) + closeD)
		case 5: // inline link or image
			bang := w.pick([]string{"", "", "!"})
			b.WriteString(bang + "[" + w.inline(depth-1, false) + "](" + w.dest() + w.pick([]string{"", ` "t"`, " 't'", " (t)"}) + ")")
		case 6: // reference links
			label := w.word()
			if len(w.labels) > 0 && w.choice(3) != 0 {
				label = w.labels[w.value(len(w.labels))]
			}
			switch w.choice(3) {
			case 0:
				b.WriteString("[" + w.inline(depth-1, false) + "][" + label + "]")
			case 1:
				b.WriteString("[" + label + "][]")
			default:
				b.WriteString("[" + label + "]")
			}
		case 7: // nested brackets and odd emphasis runs
			b.WriteString(w.pick([]string{"[a [b] c]", "*a **b** c*", "**a*", "_a__", "*(*foo*)*", "a*\"foo\"*", "__foo, __bar__, baz__", "~~a~b~~"}))
		case 8:
			b.WriteString(w.pick([]string{"<span>", "</b>", "<a href=\"x\" title='y'>", "<!-- c -->", "<?pi?>", "<br/>", "<x-y z=1>", "<![CDATA[d]]>"}))
		case 9: // code spans
			b.WriteString(w.pick([]string{"`x`", "`` a`b ``", "` `` `", "`a  b`", "```c```", "`\\`", "`<a>`"}))
		case 10:
			b.WriteString(w.pick([]string{"<https://a.b/c>", "<mailto:x@y.z>", "<a@b.c>", "www.example.com", "https://x.y/z?q=1", "x@y.zz", "http://a.b/(c)"}))
		case 11:
			b.WriteString(w.pick([]string{"&amp;", "&copy;", "&#35;", "&#x1F600;", "&bogus;", "&#0;", "&nbsp;", "&ngE;"}))
		case 12:
			b.WriteString(w.pick([]string{`\*`, `\_`, `\[`, `\\`, "\\`", `\#`, `\<`, `\a`, `\&`}))
		case 13:
			if breaks {
				b.WriteString(w.pick([]string{"  \n", "\\\n", "\n", "\n", "   \n"}) + w.word())
			} else {
				b.WriteString(w.word())
			}
		default:
			b.WriteString(w.word())
		}
	}
	return b.String()
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
