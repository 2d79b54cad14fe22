// Package gocsv generates CSV documents (RFC 4180) for fuzzing CSV
// readers, and near misses of them.
//
// Records(cfg) draws the records of a document; Document(cfg) draws records
// and writes them: fields separated by Config.Comma, quoted when they must
// be (a separator, a quote, a line break, a leading comment character,
// the empty field of a one-field record) and sometimes when they need not be, embedded quotes
// doubled, quoted fields spanning lines, records ended by LF or CRLF (one
// choice per document), the last record's line ending optional, comment
// lines when Config.Comment is set, and an optional header record.
// Fields are empty, numbers, words from Config.Words and gen.Dictionary(),
// or generated text with separators, quotes, line breaks, spaces and
// non-ASCII characters. Every document reads back with encoding/csv
// (Comma and Comment set as in the Config, FieldsPerRecord -1) into
// exactly the records drawn.
//
// Near(cfg) is Document with the near-miss step (package nearmiss):
// unbalanced quotes, stray quotes in unquoted fields, cut records, extra
// separators.
//
// Structure (record and field counts, field kinds, quoting) is drawn with
// structure draws, characters and numbers with value draws.
package gocsv

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of Records, Document and Near. Zero fields take
// the defaults.
type Config struct {
	MaxRecords int      // records per document (0..MaxRecords, plus the header); default 6
	MaxFields  int      // fields per record (1..MaxFields); default 5
	MaxField   int      // characters per generated field; default 10
	Comma      rune     // field separator; default ','. Not '"', '\r', '\n', U+FFFD, nor Comment
	Comment    rune     // comment character; 0: no comment lines
	Header     []string // a header record written first, when set (CRLF in a field drawn as LF, as encoding/csv reads it)
	Words      []string // preferred field values (drawn often when set; CRLF drawn as LF)
	Ragged     bool     // records may differ in field count (default: all as long as the first)
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxRecords, 6)
	def(&c.MaxFields, 5)
	def(&c.MaxField, 10)
	if c.Comma == 0 || c.Comma == '"' || c.Comma == '\r' || c.Comma == '\n' || c.Comma == utf8.RuneError ||
		!utf8.ValidRune(c.Comma) || c.Comma == c.Comment {
		c.Comma = ','
	}
	if c.Comment == '"' || c.Comment == '\r' || c.Comment == '\n' || !utf8.ValidRune(c.Comment) || c.Comment == utf8.RuneError {
		c.Comment = 0
	}
	return c
}

// Syntax is the near-miss syntax of comma-separated documents; SyntaxFor
// gives the one of another Config.
var Syntax = SyntaxFor(Config{})

// SyntaxFor returns the near-miss syntax of the documents of cfg.
func SyntaxFor(cfg Config) nearmiss.Syntax {
	cfg = cfg.withDefaults()
	comma := string(cfg.Comma)
	delims := []string{comma, comma, `"`, `"`, `""`, "\n", "\r\n", "\r", " ", ",", ";", "\t"}
	if cfg.Comment != 0 {
		delims = append(delims, string(cfg.Comment))
	}
	return nearmiss.Syntax{
		Name:       "csv",
		Delims:     delims,
		Closers:    []string{`"`},
		Quotes:     []string{`"`, "'"},
		Escapes:    []string{`""`},
		BadEscapes: []string{`"`, `" "`, `"x`, `"""`},
		Boundary:   comma + "\"\r\n",
	}
}

// Records returns a generator of the records of a CSV document, the
// header (when Config.Header is set) first.
func Records(cfg Config) gen.Generator[[][]string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) [][]string {
		w := &writer{s: t.Source(), cfg: cfg}
		return w.records()
	}).Named("gocsv.Records")
}

// Document returns a generator of CSV documents.
func Document(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg}
		w.document(w.records())
		return w.b.String()
	}).Named("gocsv.Document")
}

// Near returns a generator of near misses of Document(cfg): Document with
// the near-miss step (nearmiss.Of, default Config).
func Near(cfg Config) gen.Generator[string] {
	return nearmiss.Of(Document(cfg), SyntaxFor(cfg), nearmiss.Config{}).Named("gocsv.Near")
}

type writer struct {
	s   *param.Source
	cfg Config
	b   strings.Builder
}

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }

func (w *writer) records() [][]string {
	var recs [][]string
	width := 0
	if len(w.cfg.Header) > 0 {
		h := make([]string, len(w.cfg.Header))
		for i, f := range w.cfg.Header {
			h[i] = lf(f)
		}
		recs = append(recs, h)
		width = len(w.cfg.Header)
	}
	n := int(w.s.Range(0, int64(w.cfg.MaxRecords), param.Structure))
	for range n {
		k := width
		if k == 0 || w.cfg.Ragged {
			k = int(w.s.Range(1, int64(w.cfg.MaxFields), param.Structure))
		}
		if width == 0 {
			width = k
		}
		rec := make([]string, k)
		for i := range rec {
			rec[i] = w.field()
		}
		recs = append(recs, rec)
	}
	return recs
}

// field draws one field's value.
func (w *writer) field() string {
	switch k := w.choice(8); {
	case k == 0:
		return ""
	case k == 1:
		return strconv.FormatInt(int64(int16(w.s.Uint(2, param.Value))), 10)
	case k == 2:
		return strconv.FormatFloat(float64(int32(w.s.Uint(4, param.Value)))/100, 'f', -1, 64)
	case k == 3 && len(w.cfg.Words) > 0:
		return lf(w.cfg.Words[w.s.Uintn(uint64(len(w.cfg.Words)), param.Value)])
	case k == 4 && len(gen.Dictionary()) > 0:
		d := gen.Dictionary()
		return lf(d[w.s.Uintn(uint64(len(d)), param.Value)])
	default:
		n := int(w.s.Range(0, int64(w.cfg.MaxField), param.Structure))
		var b strings.Builder
		for range n {
			switch c := w.choice(16); {
			case c == 0:
				b.WriteRune(w.cfg.Comma)
			case c == 1:
				b.WriteByte('"')
			case c == 2:
				b.WriteByte('\n')
			case c == 3:
				b.WriteByte(' ')
			case c == 4:
				r := rune(0xA0 + w.s.Uint(2, param.Value)%0xD700)
				b.WriteRune(r)
			default:
				b.WriteByte(fieldChars[w.s.Uintn(uint64(len(fieldChars)), param.Value)])
			}
		}
		return b.String()
	}
}

// lf returns f with each CRLF made LF: encoding/csv reads a quoted
// field's CRLF as LF, so a record holding CRLF would not read back as
// drawn.
func lf(f string) string {
	if !strings.Contains(f, "\r\n") {
		return f
	}
	return strings.ReplaceAll(f, "\r\n", "\n")
}

// fieldChars are the ASCII characters of generated fields besides the
// separator, quotes, spaces and line breaks.
const fieldChars = "abcxyzABC0129_-.;:/'#\t"

// document writes recs.
func (w *writer) document(recs [][]string) {
	eol := "\n"
	if w.choice(3) == 0 {
		eol = "\r\n"
	}
	for i, rec := range recs {
		if w.cfg.Comment != 0 && w.choice(6) == 0 {
			w.b.WriteRune(w.cfg.Comment)
			w.b.WriteString(" " + strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' {
					return ' '
				}
				return r
			}, w.field()) + eol)
		}
		for j, f := range rec {
			if j > 0 {
				w.b.WriteRune(w.cfg.Comma)
			}
			w.writeField(f, j == 0, len(rec) == 1)
		}
		if i < len(recs)-1 || w.choice(4) != 0 {
			w.b.WriteString(eol)
		}
	}
}

// writeField writes f, quoted when it must be or when a draw says so.
func (w *writer) writeField(f string, first, only bool) {
	must := strings.ContainsRune(f, w.cfg.Comma) || strings.ContainsAny(f, "\"\r\n") ||
		(f == "" && only) ||
		(first && w.cfg.Comment != 0 && strings.HasPrefix(f, string(w.cfg.Comment)))
	if !must && w.choice(6) != 0 {
		w.b.WriteString(f)
		return
	}
	w.b.WriteByte('"')
	w.b.WriteString(strings.ReplaceAll(f, `"`, `""`))
	w.b.WriteByte('"')
}
