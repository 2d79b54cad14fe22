package generators

import (
	"strings"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/param"
)

// Rune returns a generator of valid Unicode scalar values (never a
// surrogate): one structure selector byte b, then by b&3:
//
//	0, 1  ASCII: 1 value byte, mod 128
//	2     the Basic Multilingual Plane without surrogates: 2 value bytes,
//	      mod 0xF800, values from 0xD800 on shifted past the surrogates
//	3     any scalar value: 3 value bytes, mod 0x10F800, shifted likewise
func Rune() Generator[rune] {
	return Generator[rune]{name: "Rune", draw: drawRune}
}

func drawRune(t *gfz.T) rune {
	s := t.Source()
	var r rune
	switch s.Uint(1, param.Structure) & 3 {
	case 0, 1:
		return rune(s.Uint(1, param.Value) % 128)
	case 2:
		r = rune(s.Uint(2, param.Value) % (0x10000 - 0x800))
	default:
		r = rune(s.Uint(3, param.Value) % (utf8.MaxRune + 1 - 0x800))
	}
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}

// RuneAny returns a generator of arbitrary rune values, valid or not
// (surrogates, negative values, values past utf8.MaxRune): 4 value bytes,
// little-endian two's complement.
func RuneAny() Generator[rune] {
	return Generator[rune]{name: "RuneAny", draw: func(t *gfz.T) rune {
		return rune(int32(uint32(t.Source().Uint(4, param.Value))))
	}}
}

// StringOf returns a generator of strings of min to max runes drawn from r:
// the length n is a structure draw of BytesFor(max-min+1) bytes, then n
// draws of r. Invalid runes from r encode as U+FFFD (as string(rune) does).
// It panics if min < 0 or min > max.
func StringOf(r Generator[rune], min, max int) Generator[string] {
	checkLen("StringOf", min, max)
	usable("StringOf", r)
	return Generator[string]{name: "StringOf", draw: func(t *gfz.T) string {
		n := int(t.Source().Range(int64(min), int64(max), param.Structure))
		var b strings.Builder
		for range n {
			b.WriteRune(r.Draw(t))
		}
		return b.String()
	}}
}

// UTF8String returns StringOf(Rune(), min, max): valid UTF-8 strings of
// min to max runes, mostly ASCII.
func UTF8String(min, max int) Generator[string] {
	return named(StringOf(Rune(), min, max), "UTF8String")
}

// Common alphabets for StringFrom.
const (
	AlphaLower   = "abcdefghijklmnopqrstuvwxyz"
	AlphaUpper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	Digits       = "0123456789"
	HexDigits    = "0123456789abcdef"
	Alphanumeric = AlphaLower + AlphaUpper + Digits
	// Printable is the printable ASCII characters, space included.
	Printable = " !\"#$%&'()*+,-./" + Digits + ":;<=>?@" + AlphaUpper + "[\\]^_`" + AlphaLower + "{|}~"
)

// Identifier returns a generator of identifiers of 1 to max characters: a
// letter or underscore, then letters, digits or underscores. The length is
// a structure draw of BytesFor(max) bytes, then one value byte per
// character. It panics if max < 1.
func Identifier(max int) Generator[string] {
	if max < 1 {
		panic("generators: Identifier with max < 1")
	}
	const first = AlphaLower + AlphaUpper + "_"
	const rest = first + Digits
	return Generator[string]{name: "Identifier", draw: func(t *gfz.T) string {
		s := t.Source()
		n := int(s.Range(1, int64(max), param.Structure))
		b := make([]byte, 1, prealloc(n))
		b[0] = first[s.Uintn(uint64(len(first)), param.Value)]
		for i := 1; i < n; i++ {
			b = append(b, rest[s.Uintn(uint64(len(rest)), param.Value)])
		}
		return string(b)
	}}
}
