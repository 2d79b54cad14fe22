// Package nearmiss turns valid documents into near misses: the same
// document with one to three edits of the kinds real malformed input has,
// so that a parser's error paths, recovery and half-built states are
// exercised as well as its happy path. Most parser bugs sit on input that is
// almost right.
//
// Of(g, syntax, cfg) wraps a generator of valid documents (the format
// packages gotoml, goyaml, gomd, gourl, gocsv and gohtml each offer
// Near(cfg), which is Of over their document generator with their
// Syntax); Apply edits a document already drawn. A Syntax tells the edits
// about the format: its delimiters, closing delimiters, quote kinds,
// escapes, whether indentation is significant. JSON, XML and GoSource are the syntaxes of
// the gojson, goxml and gosrc packages' output.
//
// # Draws
//
// One structure draw (2 bytes, a value in [0, 1000)) decides whether the
// document is edited (Config.PerMille); then the number of edits (1 to
// Config.MaxEdits, a structure draw) and, per edit, its kind (a structure
// draw), its position and its parameters (value draws). A position is a
// fixed 2-byte value scaled to the document's length, so the same bytes
// point at the same relative place when an earlier mutation changed the
// document's length. The edits:
//
//	truncate        cut the rest of the document, anywhere
//	truncate token  cut just before the next token boundary (Syntax.Boundary)
//	delete          delete a span of 1 to 16 bytes
//	duplicate       repeat a span of 1 to 32 bytes
//	insert          insert one of Syntax.Delims
//	drop close      delete the next closing delimiter (Syntax.Closers)
//	swap quote      replace the next quote by another kind (Syntax.Quotes)
//	break escape    replace the next escape by a broken one (Syntax.BadEscapes)
//	reindent        change the indentation of the next line (Syntax.Indent only)
//
// "Next" searches from the drawn position to the end, then from the start:
// an edit that needs a delimiter finds one whenever the document has one.
// Edits of a syntax that lacks what they need (no quotes, no escapes) are
// not drawn.
package nearmiss

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// Syntax describes a format to the edits. Zero fields disable the edits
// that need them, except Delims and Boundary, which have defaults.
type Syntax struct {
	// Name names the format in the near-miss generator's label.
	Name string
	// Delims are the tokens the insert edit adds: openers, closers,
	// separators, quotes, comment starts, newlines. Default: DefaultDelims.
	Delims []string
	// Closers are the closing delimiters the drop-close edit deletes
	// ("]", "}", "-->", "</"), longest first when one is a prefix of
	// another.
	Closers []string
	// Quotes are the quote kinds the swap-quote edit exchanges (`"`, `'`).
	Quotes []string
	// Escapes are what starts an escape in valid text (`\`, `&`, `%`); the
	// break-escape edit replaces one, with the character after it, by one
	// of BadEscapes. With no Escapes found it inserts a bad escape.
	Escapes []string
	// BadEscapes are broken escapes: an unknown escape letter, too few hex
	// digits, a reference without its end.
	BadEscapes []string
	// Indent tells that indentation is significant (YAML, Markdown): the
	// reindent edit changes a line's leading whitespace.
	Indent bool
	// Boundary holds the bytes that end a token, for truncation at a token
	// boundary. Default: DefaultBoundary.
	Boundary string
}

// Defaults of Syntax.
var (
	DefaultDelims = []string{"\n", " ", ",", ":", ";", "=", "(", ")", "[", "]", "{", "}", "<", ">", `"`, "'", `\`, "#"}
)

// DefaultBoundary is the default Syntax.Boundary: whitespace and ASCII
// punctuation.
const DefaultBoundary = " \t\r\n!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"

// Syntaxes of the output of the older format packages, which do not
// import nearmiss: Of(gojson.Value(cfg), nearmiss.JSON, nearmiss.Config{}).
var (
	JSON = Syntax{
		Name:       "json",
		Delims:     []string{"{", "}", "[", "]", ",", ":", `"`, `\`, "-", ".", "e", "0", "\n", "null", "tru"},
		Closers:    []string{"}", "]", `"`},
		Quotes:     []string{`"`, "'"},
		Escapes:    []string{`\`},
		BadEscapes: []string{`\x`, `\u12`, `\uD800`, `\`, `\'`, `\U0001F600`},
	}
	XML = Syntax{
		Name:       "xml",
		Delims:     []string{"<", ">", "/>", "</", "<!--", "-->", "<![CDATA[", "]]>", "<?", "?>", "&", ";", "=", `"`, "'", ":", "xmlns", "\n"},
		Closers:    []string{"]]>", "-->", "?>", "/>", "</", ">", `"`},
		Quotes:     []string{`"`, "'"},
		Escapes:    []string{"&"},
		BadEscapes: []string{"&", "&amp", "&#;", "&#x110000;", "&#0;", "&bogus;", "&#xZZ;"},
	}
	GoSource = Syntax{
		Name:       "go",
		Delims:     []string{"{", "}", "(", ")", "[", "]", ",", ";", ":", ":=", "=", ".", `"`, "`", "'", "/*", "*/", "//", "\n", "func", "return"},
		Closers:    []string{"}", ")", "]", `"`, "`", "*/"},
		Quotes:     []string{`"`, "`", "'"},
		Escapes:    []string{`\`},
		BadEscapes: []string{`\q`, `\x`, `\u12`, `\U00110000`, `\400`, `\`},
	}
)

// Config holds the knobs of Of and Apply. Zero fields take the defaults.
type Config struct {
	// PerMille is the share of documents edited, per mille (1 to 1000);
	// default DefaultPerMille. The rest pass unchanged, so a near-miss
	// generator still yields some valid documents.
	PerMille int
	// MaxEdits is the most edits made to one document; default 3.
	MaxEdits int
}

// DefaultPerMille is the default share of documents Of and Apply edit.
const DefaultPerMille = 750

func (c Config) withDefaults() Config {
	if c.PerMille <= 0 {
		c.PerMille = DefaultPerMille
	}
	if c.PerMille > 1000 {
		c.PerMille = 1000
	}
	if c.MaxEdits <= 0 {
		c.MaxEdits = 3
	}
	return c
}

// Of returns a generator that draws a document from g and then, with the
// probability cfg.PerMille sets, edits it (Apply). Its label is g's label
// with "+nearmiss".
func Of(g gen.Generator[string], syn Syntax, cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	syn = syn.withDefaults()
	kinds := syn.kinds()
	return gen.Custom(func(t *gfz.T) string {
		return apply(t.Source(), g.Draw(t), &syn, kinds, cfg)
	}).Named(g.String() + "+nearmiss")
}

// Apply edits doc as Of does, drawing from t: unchanged with probability
// 1 - cfg.PerMille/1000, otherwise with 1 to cfg.MaxEdits edits.
func Apply(t *gfz.T, doc string, syn Syntax, cfg Config) string {
	cfg = cfg.withDefaults()
	syn = syn.withDefaults()
	return apply(t.Source(), doc, &syn, syn.kinds(), cfg)
}

func (s Syntax) withDefaults() Syntax {
	if len(s.Delims) == 0 {
		s.Delims = DefaultDelims
	}
	if s.Boundary == "" {
		s.Boundary = DefaultBoundary
	}
	return s
}

// Edit kinds.
const (
	editTruncate = iota
	editTruncateToken
	editDelete
	editDuplicate
	editInsert
	editDropClose
	editSwapQuote
	editBreakEscape
	editReindent
)

// kinds lists the edits the syntax supports, in a fixed order.
func (s *Syntax) kinds() []int {
	k := []int{editTruncate, editTruncateToken, editDelete, editDuplicate, editInsert}
	if len(s.Closers) > 0 {
		k = append(k, editDropClose)
	}
	if len(s.Quotes) > 1 {
		k = append(k, editSwapQuote)
	}
	if len(s.BadEscapes) > 0 {
		k = append(k, editBreakEscape)
	}
	if s.Indent {
		k = append(k, editReindent)
	}
	return k
}

func apply(src *param.Source, doc string, syn *Syntax, kinds []int, cfg Config) string {
	if int(src.Uintn(1000, param.Structure)) >= cfg.PerMille {
		return doc
	}
	n := int(src.Range(1, int64(cfg.MaxEdits), param.Structure))
	for range n {
		doc = edit(src, doc, syn, kinds)
	}
	return doc
}

// position draws a position in [0, n]: two value bytes scaled to n.
func position(src *param.Source, n int) int {
	return int(src.Uint(2, param.Value) * uint64(n+1) >> 16)
}

// edit makes one edit of doc.
func edit(src *param.Source, doc string, syn *Syntax, kinds []int) string {
	kind := kinds[src.Uintn(uint64(len(kinds)), param.Structure)]
	pos := position(src, len(doc))
	switch kind {
	case editTruncate:
		return doc[:pos]
	case editTruncateToken:
		if i := strings.IndexAny(doc[pos:], syn.Boundary); i > 0 {
			return doc[:pos+i]
		} else if i == 0 {
			// At a boundary already: cut after the next token.
			rest := doc[pos+1:]
			if j := strings.IndexAny(rest, syn.Boundary); j >= 0 {
				return doc[:pos+1+j]
			}
		}
		return doc[:pos]
	case editDelete:
		end := min(len(doc), pos+int(src.Range(1, 16, param.Value)))
		return doc[:pos] + doc[end:]
	case editDuplicate:
		end := min(len(doc), pos+int(src.Range(1, 32, param.Value)))
		return doc[:end] + doc[pos:end] + doc[end:]
	case editInsert:
		d := syn.Delims[src.Uintn(uint64(len(syn.Delims)), param.Value)]
		return doc[:pos] + d + doc[pos:]
	case editDropClose:
		c := int(src.Uintn(uint64(len(syn.Closers)), param.Value))
		for k := range syn.Closers {
			closer := syn.Closers[(c+k)%len(syn.Closers)]
			if i := findFrom(doc, closer, pos); i >= 0 {
				return doc[:i] + doc[i+len(closer):]
			}
		}
		return doc
	case editSwapQuote:
		other := int(src.Uintn(uint64(len(syn.Quotes)-1), param.Value))
		i, q := findAnyFrom(doc, syn.Quotes, pos)
		if i < 0 {
			return doc[:pos] + syn.Quotes[other] + doc[pos:]
		}
		if other >= q {
			other++
		}
		return doc[:i] + syn.Quotes[other] + doc[i+len(syn.Quotes[q]):]
	case editBreakEscape:
		bad := syn.BadEscapes[src.Uintn(uint64(len(syn.BadEscapes)), param.Value)]
		i, e := findAnyFrom(doc, syn.Escapes, pos)
		if i < 0 {
			return doc[:pos] + bad + doc[pos:]
		}
		end := min(len(doc), i+len(syn.Escapes[e])+1)
		return doc[:i] + bad + doc[end:]
	default: // editReindent
		return reindent(doc, pos, int(src.Uintn(5, param.Value)))
	}
}

// findFrom returns the index of the first sub in s at or after from, or,
// when there is none, the first before it; -1 when s has no sub.
func findFrom(s, sub string, from int) int {
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return strings.Index(s, sub)
}

// findAnyFrom is findFrom for the nearest of several strings; it returns
// the index in s and which string it found.
func findAnyFrom(s string, subs []string, from int) (int, int) {
	best, which := -1, -1
	for _, part := range []string{s[from:], s} {
		for k, sub := range subs {
			if i := strings.Index(part, sub); i >= 0 && (best < 0 || i < best) {
				best, which = i, k
			}
		}
		if best >= 0 {
			if len(part) != len(s) {
				best += from
			}
			return best, which
		}
	}
	return -1, -1
}

// reindent changes the leading whitespace of the first line starting at or
// after pos (the first line when none does): op 0 adds a space, 1 adds two,
// 2 removes one whitespace byte, 3 turns the indentation into a tab, 4
// gives the line the indentation of the line before it.
func reindent(doc string, pos, op int) string {
	start := 0
	if pos > 0 {
		if i := strings.IndexByte(doc[pos-1:], '\n'); i >= 0 {
			start = pos + i
		}
	}
	end := start
	for end < len(doc) && (doc[end] == ' ' || doc[end] == '\t') {
		end++
	}
	lead := doc[start:end]
	switch op {
	case 0:
		lead = " " + lead
	case 1:
		lead = "  " + lead
	case 2:
		if lead != "" {
			lead = lead[1:]
		}
	case 3:
		lead = "\t"
	default:
		lead = ""
		if start > 0 {
			prev := strings.LastIndexByte(doc[:start-1], '\n') + 1
			p := prev
			for p < start && (doc[p] == ' ' || doc[p] == '\t') {
				p++
			}
			lead = doc[prev:p]
		}
	}
	return doc[:start] + lead + doc[end:]
}
