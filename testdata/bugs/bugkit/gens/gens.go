// Package gens holds the generators of the bug suite's gfz targets: a TOML
// document generator, a Markdown document generator and a gjson path
// generator, each a grammar of the format built with the generators
// library, plus Corrupt, the generic "near miss" step that edits a drawn
// document (truncation, insertion, deletion, duplication) so that parsers
// also see almost-valid input. None of them knows any bug of the suite.
package gens

import (
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// edits are the characters Corrupt inserts: the punctuation of the
// suite's formats, whitespace, a digit, letters and a non-ASCII rune.
var editChars = gen.OneOfWeighted(
	gen.W(6, gen.StringFrom("\"'\\[]{}()=#.,:;|@*?!<>`~-_+ \t\n0aeuxT", 1, 1)),
	gen.W(1, gen.Map(gen.Rune(), func(r rune) string { return string(r) })),
)

// Corrupt returns doc or, perMille times in a thousand (one structure
// draw), doc with one to three edits at drawn positions: cut the rest,
// insert a character, delete a span of up to 4 bytes, or repeat a span
// of up to 8 bytes.
func Corrupt(t *gfz.T, doc string, perMille int) string {
	if gen.IntRange(0, 999).Draw(t) >= perMille {
		return doc
	}
	n := gen.IntRange(1, 3).Draw(t)
	for range n {
		pos := gen.IntRange(0, len(doc)).Draw(t)
		switch gen.IntRange(0, 3).Draw(t) {
		case 0:
			doc = doc[:pos]
		case 1:
			doc = doc[:pos] + editChars.Draw(t) + doc[pos:]
		case 2:
			end := min(len(doc), pos+gen.IntRange(1, 4).Draw(t))
			doc = doc[:pos] + doc[end:]
		case 3:
			end := min(len(doc), pos+gen.IntRange(1, 8).Draw(t))
			doc = doc[:end] + doc[pos:end] + doc[end:]
		}
	}
	return doc
}

// join writes parts separated by sep.
func join(parts []string, sep string) string { return strings.Join(parts, sep) }

// binTextChars draws the characters of the text strings of the binary
// formats (CBOR, MessagePack): mostly ASCII, some multi-byte, control and
// quote characters, and now and then any valid rune.
var binTextChars = gen.OneOfWeighted(
	gen.W(8, gen.StringFrom("abcxyz ABC019-_:./", 1, 1)),
	gen.W(1, gen.Tokens("é", "ü", "水", "€", "😀", "\n", "\"", "\\", "\x00")),
	gen.W(1, gen.Map(gen.Rune(), func(r rune) string {
		if !utf8.ValidRune(r) {
			return "?"
		}
		return string(r)
	})),
)
