package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// MarkdownConfig tunes Markdown.
type MarkdownConfig struct {
	MaxDepth    int // nesting of block quotes and lists; default 3
	MaxBlocks   int // blocks per container; default 4
	MistakesPer int // per mille of documents passed through Corrupt; default 0
	// Mmark adds the syntax of the Mmark dialect (https://mmark.miek.nl):
	// citations, index items, cross references, callouts, sub- and
	// superscripts, asides, figures, block attributes, title blocks and
	// document divisions. Off, the generator draws exactly as before.
	Mmark bool
}

func (c MarkdownConfig) withDefaults() MarkdownConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxBlocks <= 0 {
		c.MaxBlocks = 4
	}
	return c
}

var (
	word   = gen.OneOf(gen.StringFrom("abcxyz0", 1, 5), gen.Tokens("foo", "bar", "0", "é", "&amp;", "&#35;", `\*`))
	indent = gen.Tokens("", " ", "  ", "   ", "    ", "\t", " \t", "\t\t")
	// attribute lists as goldmark's attribute syntax writes them.
	attrPart = gen.OneOf(
		gen.Map(gen.StringFrom("abc-_0", 0, 4), func(s string) string { return "#" + s }),
		gen.Map(gen.StringFrom("abc-_0", 0, 4), func(s string) string { return "." + s }),
		gen.Map(gen.StringFrom("abc", 1, 3), func(s string) string { return s + "=" + s }),
		gen.Map(gen.StringFrom("abc \"", 0, 4), func(s string) string { return `k="` + s + `"` }),
		gen.Tokens("k=1", "k=true", "k=[1, 2]", "k={a: b}", "k=null"),
	)
)

type mdWriter struct {
	t   *gfz.T
	cfg MarkdownConfig
}

func (w mdWriter) attrs() string {
	n := gen.IntRange(0, 3).Draw(w.t)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = attrPart.Draw(w.t)
	}
	return "{" + strings.Join(parts, gen.Tokens(" ", "  ", "\n").Draw(w.t)) + "}"
}

// inline draws a run of inline text: words, emphasis, code spans, links,
// images, autolinks, footnote references, raw HTML and hard breaks.
func (w mdWriter) inline(depth int) string {
	n := gen.IntRange(1, 5).Draw(w.t)
	var parts []string
	for range n {
		switch k := gen.IntRange(0, 12).Draw(w.t); {
		case k < 5 || depth <= 0:
			if w.cfg.Mmark && gen.IntRange(0, 3).Draw(w.t) == 0 {
				parts = append(parts, w.mmarkInline())
			} else {
				parts = append(parts, word.Draw(w.t))
			}
		case k == 5:
			d := gen.Tokens("*", "_", "**", "__", "~~", "~").Draw(w.t)
			parts = append(parts, d+w.inline(depth-1)+d)
		case k == 6:
			parts = append(parts, "`"+word.Draw(w.t)+"`")
		case k == 7:
			parts = append(parts, "["+w.inline(depth-1)+"]("+gen.Tokens("/u", "http://x.y", "<a b>", "/u \"t\"", "").Draw(w.t)+")")
		case k == 8:
			parts = append(parts, "!["+word.Draw(w.t)+"](/i.png)")
		case k == 9:
			parts = append(parts, gen.Tokens("<http://a.b>", "https://c.d/e", "www.x.y", "a@b.c").Draw(w.t))
		case k == 10:
			parts = append(parts, "[^"+gen.StringFrom("a1", 0, 3).Draw(w.t)+"]")
		case k == 11:
			parts = append(parts, gen.Tokens("<b>", "</b>", "<!-- c -->", "<br/>").Draw(w.t))
		default:
			parts = append(parts, gen.Tokens("  \n", "\\\n", "\n").Draw(w.t))
		}
	}
	return strings.Join(parts, gen.Tokens(" ", "", "\t").Draw(w.t))
}

// block draws one block, its lines without the container's prefixes.
func (w mdWriter) block(depth int) []string {
	if w.cfg.Mmark && gen.IntRange(0, 4).Draw(w.t) == 0 {
		return w.mmarkBlock(depth)
	}
	k := gen.IntRange(0, 13).Draw(w.t)
	if depth <= 0 && (k == 8 || k == 9) {
		k = 0
	}
	switch k {
	case 0, 1:
		return strings.Split(w.inline(2), "\n")
	case 2:
		h := strings.Repeat("#", gen.IntRange(1, 6).Draw(w.t)) + " " + w.inline(1)
		if gen.Bool().Draw(w.t) {
			h += " " + w.attrs()
		}
		return []string{h}
	case 3: // setext heading: text lines then an underline
		text := strings.Split(w.inline(1), "\n")
		if gen.IntRange(0, 2).Draw(w.t) == 0 {
			text = append(text, w.attrs())
		}
		return append(text, gen.Tokens("=", "-", "===", "---").Draw(w.t))
	case 4: // fenced code
		fence := gen.Tokens("```", "~~~", "````").Draw(w.t)
		lines := []string{fence + gen.Tokens("", "go", " x {.c}").Draw(w.t)}
		for range gen.IntRange(0, 3).Draw(w.t) {
			lines = append(lines, indent.Draw(w.t)+word.Draw(w.t))
		}
		if gen.IntRange(0, 3).Draw(w.t) > 0 {
			lines = append(lines, fence)
		}
		return lines
	case 5: // indented code
		return []string{"    " + word.Draw(w.t), indent.Draw(w.t) + "\t" + word.Draw(w.t)}
	case 6:
		return []string{gen.Tokens("***", "---", "___", "* * *", "- - -").Draw(w.t)}
	case 7: // table
		cols := gen.IntRange(1, 3).Draw(w.t)
		row := func() string {
			cells := make([]string, cols)
			for i := range cells {
				cells[i] = word.Draw(w.t)
			}
			return "| " + strings.Join(cells, " | ") + " |"
		}
		align := make([]string, cols)
		for i := range align {
			align[i] = gen.Tokens("---", ":--", "--:", ":-:").Draw(w.t)
		}
		return []string{row(), "|" + strings.Join(align, "|") + "|", row()}
	case 8: // block quote
		var lines []string
		for _, l := range w.blocks(depth - 1) {
			lines = append(lines, gen.Tokens(">", "> ", ">\t", " >").Draw(w.t)+l)
		}
		return lines
	case 9: // list
		marker := gen.Tokens("-", "*", "+", "1.", "2)").Draw(w.t)
		var lines []string
		for range gen.IntRange(1, 3).Draw(w.t) {
			sep := gen.Tokens(" ", "  ", "\t", "    ").Draw(w.t)
			item := w.blocks(depth - 1)
			if gen.IntRange(0, 3).Draw(w.t) == 0 {
				item = append([]string{"[" + gen.Tokens(" ", "x").Draw(w.t) + "] " + word.Draw(w.t)}, item...)
			}
			for i, l := range item {
				if i == 0 {
					lines = append(lines, marker+sep+l)
				} else {
					lines = append(lines, indent.Draw(w.t)+l)
				}
			}
		}
		return lines
	case 10: // footnote definition
		return []string{"[^" + gen.StringFrom("a1", 0, 3).Draw(w.t) + "]:" + gen.Tokens(" ", "\t", "").Draw(w.t) + w.inline(1)}
	case 11: // definition list
		return []string{word.Draw(w.t), ":" + gen.Tokens(" ", "\t", "   ").Draw(w.t) + w.inline(1)}
	case 12: // link reference definition
		return []string{"[" + word.Draw(w.t) + "]: " + gen.Tokens("/u", "<x>", "/u 't'").Draw(w.t)}
	default: // HTML block
		return []string{gen.Tokens("<div>", "<pre>", "<!--", "<?x", "<table>").Draw(w.t), word.Draw(w.t)}
	}
}

var mmarkRef = gen.OneOf(gen.StringFrom("RFCI0-29", 1, 7), gen.Tokens("RFC2119", "I-D.ietf-x", "BCP14"))

// mmarkInline draws an inline element of the Mmark dialect.
func (w mdWriter) mmarkInline() string {
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0: // citations: [@ref], several separated by ";", with a kind and a suffix
		n := gen.IntRange(1, 3).Draw(w.t)
		cites := make([]string, n)
		for i := range cites {
			cites[i] = "@" + gen.Tokens("", "", "!", "?", "-").Draw(w.t) + mmarkRef.Draw(w.t)
			if gen.IntRange(0, 3).Draw(w.t) == 0 {
				cites[i] += ", " + gen.Tokens("p. 4", "section 2", "").Draw(w.t)
			}
		}
		return "[" + strings.Join(cites, gen.Tokens(";", "; ", " ;").Draw(w.t)) + "]"
	case 1: // index items
		return gen.Tokens("(!", "(!!").Draw(w.t) + word.Draw(w.t) + gen.Tokens("", ", sub").Draw(w.t) + ")"
	case 2: // cross reference
		return "(#" + gen.StringFrom("abc-0", 1, 4).Draw(w.t) + gen.Tokens("", ", text").Draw(w.t) + ")"
	case 3: // callout
		return "<<" + gen.StringFrom("019", 1, 2).Draw(w.t) + ">>"
	case 4:
		return "H~" + word.Draw(w.t) + "~O"
	default:
		return "2^" + word.Draw(w.t) + "^"
	}
}

// mmarkBlock draws a block of the Mmark dialect.
func (w mdWriter) mmarkBlock(depth int) []string {
	switch gen.IntRange(0, 4).Draw(w.t) {
	case 0: // aside or figure: lines prefixed "A> " or "F> "
		p := gen.Tokens("A> ", "F> ", "A>", "F>").Draw(w.t)
		var lines []string
		for _, l := range w.blocks(max(depth-1, 0)) {
			lines = append(lines, p+l)
		}
		return lines
	case 1: // block attribute list before a block
		return append([]string{w.attrs()}, w.block(max(depth-1, 0))...)
	case 2: // title block
		return []string{"%%%", "title = \"" + word.Draw(w.t) + "\"", gen.Tokens("area = \"x\"", "[[author]]", "").Draw(w.t), "%%%"}
	case 3:
		return []string{gen.Tokens("{frontmatter}", "{mainmatter}", "{backmatter}", "{.allmatter}").Draw(w.t)}
	default: // figure with caption: "Figure: " after a block
		return append(w.block(max(depth-1, 0)), gen.Tokens("Figure: ", "Table: ", "Quote: ").Draw(w.t)+w.inline(1))
	}
}

// blocks draws a container's content: blocks separated by blank lines or
// not (lazy continuation lines are part of the grammar).
func (w mdWriter) blocks(depth int) []string {
	n := gen.IntRange(1, w.cfg.MaxBlocks).Draw(w.t)
	var lines []string
	for i := range n {
		if i > 0 && gen.Bool().Draw(w.t) {
			lines = append(lines, "")
		}
		lines = append(lines, w.block(depth)...)
	}
	return lines
}

// Markdown draws CommonMark documents with the GFM and goldmark extension
// syntax: ATX and setext headings (with attribute lists), paragraphs with
// inline markup, fenced and indented code, thematic breaks, tables, block
// quotes and lists nested up to MaxDepth with space and tab indentation,
// task items, footnotes, definition lists, link reference definitions and
// HTML blocks (and, with Mmark, that dialect's syntax). MistakesPer adds
// near-miss edits (Corrupt).
func Markdown(cfg MarkdownConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := mdWriter{t: t, cfg: cfg}
		doc := strings.Join(w.blocks(cfg.MaxDepth), "\n")
		if gen.Bool().Draw(t) {
			doc += "\n"
		}
		return Corrupt(t, doc, cfg.MistakesPer)
	}).Named("markdown")
}
