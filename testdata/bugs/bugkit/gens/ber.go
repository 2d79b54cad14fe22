package gens

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// BERConfig tunes BER.
type BERConfig struct {
	MaxDepth    int // nesting of constructed values; default 4
	MaxItems    int // elements of a SEQUENCE, SET or SEQUENCE OF; default 4
	MaxMessages int // messages of a stream; default 2
	MistakesPer int // per mille of streams passed through CorruptBytes; default 0
}

func (c BERConfig) withDefaults() BERConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 4
	}
	if c.MaxMessages <= 0 {
		c.MaxMessages = 2
	}
	return c
}

// Identifier octets (ITU-T X.690, 8.1.2): the class in bits 8-7, the
// constructed bit 6, the tag number in bits 5-1 (31: more octets follow).
const (
	berUniversal   = 0x00
	berApplication = 0x40
	berContext     = 0x80
	berPrivate     = 0xc0
)

// Universal tag numbers (X.680, 8.4).
const (
	berTagBoolean         = 1
	berTagInteger         = 2
	berTagBitString       = 3
	berTagOctetString     = 4
	berTagNull            = 5
	berTagOID             = 6
	berTagReal            = 9
	berTagEnumerated      = 10
	berTagUTF8String      = 12
	berTagRelativeOID     = 13
	berTagSequence        = 16
	berTagSet             = 17
	berTagNumericString   = 18
	berTagPrintableString = 19
	berTagT61String       = 20
	berTagIA5String       = 22
	berTagUTCTime         = 23
	berTagGeneralizedTime = 24
	berTagGraphicString   = 25
	berTagVisibleString   = 26
	berTagGeneralString   = 27
	berTagUniversalString = 28
	berTagBMPString       = 30
)

// berItem is one encoded value before its identifier and length octets:
// implicit tagging replaces class and tag, explicit tagging wraps it.
type berItem struct {
	class byte
	cons  bool
	tag   int
	body  []byte // contents octets
}

// Kinds of generic values.
const (
	berKBoolean = iota
	berKInteger
	berKBigInteger
	berKEnumerated
	berKBitString
	berKOctetString
	berKNull
	berKOID
	berKRelativeOID
	berKReal
	berKString
	berKTime
	berKSequence
	berKSet
	berKExplicit
	berKImplicit
	berKConsString
)

var (
	berPrimitiveKinds = gen.OneOfWeighted(
		gen.W(4, gen.Just(berKInteger)),
		gen.W(4, gen.Just(berKOctetString)),
		gen.W(4, gen.Just(berKString)),
		gen.W(2, gen.Just(berKBoolean)),
		gen.W(2, gen.Just(berKOID)),
		gen.W(2, gen.Just(berKTime)),
		gen.W(1, gen.Just(berKNull)),
		gen.W(1, gen.Just(berKEnumerated)),
		gen.W(1, gen.Just(berKBitString)),
		gen.W(1, gen.Just(berKReal)),
		gen.W(1, gen.Just(berKRelativeOID)),
		gen.W(1, gen.Just(berKBigInteger)),
	)
	berConstructedKinds = gen.OneOfWeighted(
		gen.W(5, gen.Just(berKSequence)),
		gen.W(2, gen.Just(berKSet)),
		gen.W(2, gen.Just(berKExplicit)),
		gen.W(3, gen.Just(berKImplicit)),
		gen.W(1, gen.Just(berKConsString)),
	)
	// berLengthForms: the shortest definite form, a longer definite
	// form (leading zero octets, or the long form of a short length), or
	// the indefinite form (constructed values only).
	berLengthForms = gen.OneOfWeighted(gen.W(17, gen.Just(0)), gen.W(2, gen.Just(1)), gen.W(2, gen.Just(2)))
	berInts        = gen.OneOfWeighted(
		gen.W(6, gen.Map(gen.IntRange(-50, 300), func(n int) int64 { return int64(n) })),
		gen.W(2, gen.SampledFrom[int64](0, 127, 128, 255, 256, -128, -129, 32767, 32768, -32769, 65535, 1<<31-1, -1<<31,
			1<<32, math.MaxInt64, math.MinInt64)),
		gen.W(1, gen.Int64()),
	)
	berTagNumbers = gen.OneOfWeighted(
		gen.W(8, gen.IntRange(0, 10)),
		gen.W(2, gen.IntRange(11, 30)),
		gen.W(1, gen.IntRange(31, 300)),
		gen.W(1, gen.SampledFrom(1000, 16383, 16384, 1<<21-1, 1<<21, 1<<28)),
	)
	berTagClasses = gen.OneOfWeighted(gen.W(6, gen.Just[byte](berContext)), gen.W(2, gen.Just[byte](berApplication)), gen.W(1, gen.Just[byte](berPrivate)))
	// berOIDs are object identifiers seen in LDAP and X.509 data.
	berOIDs = gen.SampledFrom(
		[]int{2, 5, 4, 3}, []int{2, 5, 4, 10}, []int{2, 5, 29, 17}, []int{1, 2, 840, 113549, 1, 1, 11},
		[]int{1, 2, 840, 10045, 4, 3, 2}, []int{1, 3, 6, 1, 4, 1, 1466, 20037}, []int{1, 2, 840, 113556, 1, 4, 319},
		[]int{2, 16, 840, 1, 101, 3, 4, 2, 1}, []int{0, 9, 2342, 19200300, 100, 1, 25}, []int{1, 3, 6, 1, 5, 5, 7, 3, 1},
	)
	berPrintable = gen.OneOfWeighted(
		gen.W(2, gen.Tokens("US", "Example Corp", "John Smith", "Sales", "Berlin", "O'Neil (Ltd.)", "a=b, c/d?", "")),
		gen.W(3, gen.StringFrom("ABCXYZabcxyz0189 '()+,-./:=?", 0, 16)),
	)
	berIA5 = gen.OneOfWeighted(
		gen.W(2, gen.Tokens("jdoe@example.com", "ldap://ldap.example.org/dc=example,dc=org", "http://x.test/a?b#c", "*", "")),
		gen.W(2, gen.StringFrom("abcxyz@.:/-_09 ABC\t\n\"\\{}~", 0, 16)),
		gen.W(1, gen.Map(gen.SliceOf(gen.IntRange(0, 0x7e), 0, 8), func(cs []int) string {
			b := make([]byte, len(cs))
			for i, c := range cs {
				b[i] = byte(c)
			}
			return string(b)
		})),
	)
	berVisible = gen.StringFrom("abcxyz ABC019~!@#$%^&*()_+{}|:<>?", 0, 16)
	berNumeric = gen.StringFrom("0123456789 ", 0, 12)
	// berLatin draws the text of T61String, GraphicString and
	// GeneralString: ASCII and some Latin-1 octets.
	berLatin = gen.OneOfWeighted(
		gen.W(4, gen.StringFrom("abcxyz ABC019-.,", 0, 12)),
		gen.W(1, gen.Map(gen.SliceOf(gen.IntRange(0x20, 0xff), 0, 8), func(cs []int) string {
			b := make([]byte, len(cs))
			for i, c := range cs {
				b[i] = byte(c)
			}
			return string(b)
		})),
	)
	berAttrs = gen.Tokens("cn", "sn", "uid", "mail", "objectClass", "memberOf", "ou", "dc", "userPassword",
		"description", "telephoneNumber", "givenName", "member", "1.1", "*", "+", "entryUUID", "modifyTimestamp")
	berDNs = gen.OneOfWeighted(
		gen.W(4, gen.Tokens("", "dc=example,dc=com", "cn=admin,dc=example,dc=com", "uid=jdoe,ou=People,dc=example,dc=org",
			"ou=Groups,dc=example,dc=org", "cn=Doe\\, John,ou=Sales,o=Example", "cn=schema", "CN=Users,DC=corp,DC=local")),
		gen.W(1, gen.StringFrom("abcxyz=,+\\ #019", 0, 20)),
	)
	berResultCodes = gen.OneOfWeighted(
		gen.W(6, gen.SampledFrom[int64](0, 1, 2, 3, 4, 10, 14, 32, 34, 49, 50, 53, 65, 68)),
		gen.W(1, gen.Map(gen.IntRange(0, 200), func(n int) int64 { return int64(n) })),
	)
	berControlOIDs = gen.Tokens("1.2.840.113556.1.4.319", "1.2.840.113556.1.4.473", "2.16.840.1.113730.3.4.2",
		"1.3.6.1.4.1.4203.1.10.1", "1.3.6.1.1.12", "1.2.840.113556.1.4.805")
	berExtendedOIDs = gen.Tokens("1.3.6.1.4.1.1466.20037", "1.3.6.1.4.1.4203.1.11.1", "1.3.6.1.4.1.4203.1.11.3", "1.3.6.1.1.8")
)

type berWriter struct {
	t   *gfz.T
	cfg BERConfig
	der bool // DER: shortest definite lengths, canonical values
}

// berIdentifier returns the identifier octets of a value: one octet for tag
// numbers up to 30, else the high-tag-number form, base 128 with the top
// bit set on all but the last octet.
func berIdentifier(class byte, cons bool, tag int) []byte {
	first := class
	if cons {
		first |= 0x20
	}
	if tag < 31 {
		return []byte{first | byte(tag)}
	}
	return append([]byte{first | 0x1f}, berBase128(uint64(tag))...)
}

// berBase128 encodes n in base 128, most significant group first, the
// top bit set on all but the last octet.
func berBase128(n uint64) []byte {
	b := []byte{byte(n & 0x7f)}
	for n >>= 7; n > 0; n >>= 7 {
		b = append([]byte{byte(n&0x7f) | 0x80}, b...)
	}
	return b
}

// berUnsigned is n in the fewest big-endian octets (one for zero).
func berUnsigned(n uint64) []byte {
	b := []byte{byte(n)}
	for n >>= 8; n > 0; n >>= 8 {
		b = append([]byte{byte(n)}, b...)
	}
	return b
}

// berInt is v in the fewest two's complement octets (X.690, 8.3.2).
func berInt(v int64) []byte {
	b := []byte{byte(v)}
	for v >= 128 || v < -128 {
		v >>= 8
		b = append([]byte{byte(v)}, b...)
	}
	return b
}

// encode returns the value's identifier, length and contents octets.
// BER streams draw the length form of each value; DER uses the shortest.
func (w *berWriter) encode(it berItem) []byte {
	out := berIdentifier(it.class, it.cons, it.tag)
	n := len(it.body)
	form := 0
	if !w.der {
		form = berLengthForms.Draw(w.t)
	}
	switch {
	case form == 2 && it.cons:
		out = append(out, 0x80)
		out = append(out, it.body...)
		return append(out, 0, 0) // end-of-contents
	case form >= 1:
		// a definite length in the long form, with up to two leading
		// zero octets
		l := berUnsigned(uint64(n))
		for range gen.IntRange(0, 2).Draw(w.t) {
			l = append([]byte{0}, l...)
		}
		out = append(out, 0x80|byte(len(l)))
		out = append(out, l...)
	case n < 128:
		out = append(out, byte(n))
	default:
		l := berUnsigned(uint64(n))
		out = append(out, 0x80|byte(len(l)))
		out = append(out, l...)
	}
	return append(out, it.body...)
}

func berPrim(tag int, body []byte) berItem { return berItem{class: berUniversal, tag: tag, body: body} }

// berCons builds a constructed value of the given class and tag from the
// encodings of its elements.
func berCons(class byte, tag int, elems ...[]byte) berItem {
	return berItem{class: class, cons: true, tag: tag, body: bytes.Join(elems, nil)}
}

func (w *berWriter) octets(lo, hi int) []byte {
	b := make([]byte, gen.IntRange(lo, hi).Draw(w.t))
	for i := range b {
		b[i] = byte(gen.IntRange(0, 255).Draw(w.t))
	}
	return b
}

func (w *berWriter) utf8Text(lo, hi int) string {
	var sb strings.Builder
	for range gen.IntRange(lo, hi).Draw(w.t) {
		sb.WriteString(binTextChars.Draw(w.t))
	}
	return sb.String()
}

func (w *berWriter) boolean() []byte {
	if gen.Bool().Draw(w.t) {
		return []byte{0}
	}
	if !w.der && gen.IntRange(0, 3).Draw(w.t) == 0 {
		return []byte{byte(gen.IntRange(1, 255).Draw(w.t))} // BER: any non-zero octet is TRUE
	}
	return []byte{0xff}
}

// bigInteger is an INTEGER of 9 to 20 octets (serial numbers, keys).
func (w *berWriter) bigInteger() []byte {
	b := w.octets(9, 20)
	if b[0] == 0 || b[0] == 0xff {
		b[0] = byte(gen.IntRange(1, 0x7f).Draw(w.t))
	}
	return b
}

// bitString: the number of unused bits of the last octet (0 when there
// is none; zero bits in DER) and the octets.
func (w *berWriter) bitString() []byte {
	data := w.octets(0, 10)
	unused := 0
	if len(data) > 0 {
		unused = gen.IntRange(0, 7).Draw(w.t)
		if w.der {
			data[len(data)-1] &^= byte(1<<unused - 1)
		}
	}
	return append([]byte{byte(unused)}, data...)
}

func (w *berWriter) octetString() []byte {
	if gen.Bool().Draw(w.t) {
		return []byte(w.utf8Text(0, 16))
	}
	return w.octets(0, 16)
}

// oid draws the arcs of an object identifier: a known one, or a first
// arc of 0 to 2, a second below 40 (any under 2) and up to five more.
func (w *berWriter) oid() []int {
	if gen.Bool().Draw(w.t) {
		return berOIDs.Draw(w.t)
	}
	first := gen.IntRange(0, 2).Draw(w.t)
	second := gen.IntRange(0, 39).Draw(w.t)
	if first == 2 && gen.Bool().Draw(w.t) {
		second = gen.IntRange(0, 1<<20).Draw(w.t)
	}
	arcs := []int{first, second}
	for range gen.IntRange(0, 5).Draw(w.t) {
		arcs = append(arcs, gen.OneOf(gen.IntRange(0, 127), gen.IntRange(128, 1<<28)).Draw(w.t))
	}
	return arcs
}

// berOIDBody encodes arcs (X.690, 8.19): the first two as 40*first+second,
// each subidentifier in base 128.
func berOIDBody(arcs []int) []byte {
	b := berBase128(uint64(arcs[0]*40 + arcs[1]))
	for _, a := range arcs[2:] {
		b = append(b, berBase128(uint64(a))...)
	}
	return b
}

func (w *berWriter) relativeOID() []byte {
	var b []byte
	for range gen.IntRange(1, 4).Draw(w.t) {
		b = append(b, berBase128(uint64(gen.OneOf(gen.IntRange(0, 127), gen.IntRange(128, 1<<21)).Draw(w.t)))...)
	}
	return b
}

// real encodes a REAL (X.690, 8.5): zero as no octets; a special value
// (the infinities, NaN, minus zero); in BER a decimal form (ISO 6093 NR1,
// NR2 or NR3 after the form octet); or the binary form: an information
// octet (sign, base 2, 8 or 16, scale factor F, exponent format), the
// exponent in two's complement (one, two or three octets, or a length
// octet and the octets) and the mantissa N, unsigned, so that the value
// is sign x N x 2^F x base^exponent. DER uses base 2, F = 0 and an odd N
// (X.690, 11.3.1).
func (w *berWriter) real() []byte {
	form := gen.OneOfWeighted(gen.W(1, gen.Just(0)), gen.W(1, gen.Just(1)), gen.W(2, gen.Just(2)), gen.W(4, gen.Just(3))).Draw(w.t)
	if w.der && form == 2 {
		form = 3
	}
	switch form {
	case 0:
		return nil
	case 1:
		return []byte{gen.SampledFrom[byte](0x40, 0x41, 0x42, 0x43).Draw(w.t)}
	case 2:
		return w.decimalReal()
	}
	sign := gen.Bool().Draw(w.t)
	baseBits, f := 0, 0
	if !w.der {
		baseBits = gen.OneOfWeighted(gen.W(3, gen.Just(0)), gen.W(1, gen.Just(1)), gen.W(1, gen.Just(2))).Draw(w.t)
		f = gen.OneOfWeighted(gen.W(3, gen.Just(0)), gen.W(1, gen.IntRange(1, 3))).Draw(w.t)
	}
	n := gen.OneOfWeighted(
		gen.W(3, gen.Map(gen.IntRange(1, 255), func(v int) uint64 { return uint64(v) })),
		gen.W(2, gen.Map(gen.IntRange(1, 1<<24), func(v int) uint64 { return uint64(v) })),
		gen.W(2, gen.Map(gen.Uint64(), func(v uint64) uint64 { return v&(1<<53-1) | 1 })),
	).Draw(w.t)
	// exponents that keep the value within float64's range mostly, now
	// and then one far outside it
	bits := []int{1, 3, 4}[baseBits]
	e := gen.OneOfWeighted(
		gen.W(4, gen.IntRange(-60, 60)),
		gen.W(2, gen.IntRange(-1000/bits, 1000/bits)),
		gen.W(1, gen.IntRange(-(1<<24), 1<<24)),
	).Draw(w.t)
	if w.der {
		for n%2 == 0 {
			n >>= 1
			e++
		}
	}
	exp := berInt(int64(e))
	info := byte(0x80 | baseBits<<4 | f<<2)
	if sign {
		info |= 0x40
	}
	var out []byte
	if len(exp) <= 3 && (w.der || gen.IntRange(0, 5).Draw(w.t) > 0) {
		out = append([]byte{info | byte(len(exp)-1)}, exp...)
	} else {
		out = append([]byte{info | 3, byte(len(exp))}, exp...)
	}
	return append(out, berUnsigned(n)...)
}

// decimalReal is the decimal form: a form octet (1, 2 or 3 for NR1, NR2,
// NR3) and the number in characters, never zero.
func (w *berWriter) decimalReal() []byte {
	ip := gen.IntRange(0, 99999).Draw(w.t)
	frac := gen.StringFrom("0123456789", 1, 4).Draw(w.t)
	if ip == 0 && strings.Trim(frac, "0") == "" {
		ip = gen.IntRange(1, 9).Draw(w.t)
	}
	lead := gen.OneOfWeighted(gen.W(4, gen.Just("")), gen.W(1, gen.Tokens(" ", "  "))).Draw(w.t)
	sign := gen.OneOfWeighted(gen.W(3, gen.Just("")), gen.W(2, gen.Just("-")), gen.W(1, gen.Just("+"))).Draw(w.t)
	point := gen.OneOfWeighted(gen.W(3, gen.Just(".")), gen.W(1, gen.Just(","))).Draw(w.t)
	switch nr := gen.IntRange(1, 3).Draw(w.t); nr {
	case 1:
		return fmt.Appendf([]byte{1}, "%s%s%d", lead, sign, max(ip, 1))
	case 2:
		return fmt.Appendf([]byte{2}, "%s%s%d%s%s", lead, sign, ip, point, frac)
	default:
		es := gen.SampledFrom("", "+", "-").Draw(w.t)
		return fmt.Appendf([]byte{3}, "%s%s%d%s%sE%s%d", lead, sign, ip, point, frac, es, gen.IntRange(0, 300).Draw(w.t))
	}
}

// str draws a character string type and its text in that type's
// character set: UTF-8, printable, IA5, visible, numeric, Latin (T61,
// graphic, general), BMP (UCS-2) and universal (UCS-4) strings.
func (w *berWriter) str() berItem {
	switch gen.OneOfWeighted(gen.W(4, gen.Just(0)), gen.W(3, gen.Just(1)), gen.W(3, gen.Just(2)), gen.W(1, gen.Just(3)),
		gen.W(1, gen.Just(4)), gen.W(1, gen.Just(5)), gen.W(1, gen.Just(6)), gen.W(1, gen.Just(7))).Draw(w.t) {
	case 0:
		return berPrim(berTagUTF8String, []byte(w.utf8Text(0, 16)))
	case 1:
		return berPrim(berTagPrintableString, []byte(berPrintable.Draw(w.t)))
	case 2:
		return berPrim(berTagIA5String, []byte(berIA5.Draw(w.t)))
	case 3:
		return berPrim(berTagVisibleString, []byte(berVisible.Draw(w.t)))
	case 4:
		return berPrim(berTagNumericString, []byte(berNumeric.Draw(w.t)))
	case 5:
		return berPrim(gen.SampledFrom(berTagT61String, berTagGraphicString, berTagGeneralString).Draw(w.t), []byte(berLatin.Draw(w.t)))
	case 6:
		var b []byte
		for _, r := range w.utf8Text(0, 8) {
			if r > 0xffff || (r >= 0xd800 && r < 0xe000) {
				r = '?'
			}
			b = binary.BigEndian.AppendUint16(b, uint16(r))
		}
		return berPrim(berTagBMPString, b)
	default:
		var b []byte
		for _, r := range w.utf8Text(0, 8) {
			b = binary.BigEndian.AppendUint32(b, uint32(r))
		}
		return berPrim(berTagUniversalString, b)
	}
}

// time draws a UTCTime (YYMMDDhhmm[ss] and Z or an offset; DER: with
// seconds and Z) or a GeneralizedTime (YYYYMMDDHH[MM[SS]] with a
// fraction of the last unit after '.' or ',', and Z, an offset of hours
// or of hours and minutes, or local time; DER: seconds, a fraction
// without trailing zeros, Z).
func (w *berWriter) time() berItem {
	year := gen.IntRange(1950, 2049).Draw(w.t)
	date := fmt.Sprintf("%02d%02d%02d%02d", gen.IntRange(1, 12).Draw(w.t), gen.IntRange(1, 28).Draw(w.t),
		gen.IntRange(0, 23).Draw(w.t), gen.IntRange(0, 59).Draw(w.t))
	sec := fmt.Sprintf("%02d", gen.IntRange(0, 59).Draw(w.t))
	offset := fmt.Sprintf("%c%02d%02d", gen.SampledFrom('+', '-').Draw(w.t), gen.IntRange(0, 14).Draw(w.t), gen.SampledFrom(0, 30, 45).Draw(w.t))
	if gen.Bool().Draw(w.t) {
		s := fmt.Sprintf("%02d%s", year%100, date)
		if w.der || gen.IntRange(0, 2).Draw(w.t) > 0 {
			s += sec
		}
		if w.der || gen.IntRange(0, 3).Draw(w.t) > 0 {
			s += "Z"
		} else {
			s += offset
		}
		return berPrim(berTagUTCTime, []byte(s))
	}
	s := fmt.Sprintf("%04d%s", year+gen.SampledFrom(0, 0, 0, 100, -100).Draw(w.t), date)
	precision := 2
	if !w.der {
		precision = gen.OneOfWeighted(gen.W(4, gen.Just(2)), gen.W(1, gen.Just(1)), gen.W(1, gen.Just(0))).Draw(w.t)
	}
	switch precision {
	case 0:
		s = s[:10]
	case 2:
		s += sec
	}
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		frac := gen.StringFrom("0123456789", 1, 4).Draw(w.t)
		if w.der {
			frac = strings.TrimRight(frac, "0")
		}
		if frac != "" {
			point := "."
			if !w.der && gen.IntRange(0, 3).Draw(w.t) == 0 {
				point = ","
			}
			s += point + frac
		}
	}
	switch z := gen.OneOfWeighted(gen.W(6, gen.Just(0)), gen.W(2, gen.Just(1)), gen.W(1, gen.Just(2)), gen.W(1, gen.Just(3))).Draw(w.t); {
	case w.der || z == 0:
		s += "Z"
	case z == 1:
		s += offset
	case z == 2:
		s += offset[:3]
	}
	return berPrim(berTagGeneralizedTime, []byte(s))
}

// value draws a generic ASN.1 value: a primitive of a universal type or,
// above depth zero, a SEQUENCE, a SET (DER: its elements in order of
// their encodings), a value tagged explicitly or implicitly with a
// context-specific, application or private tag, or (BER) an OCTET
// STRING in the constructed form, its segments primitive OCTET STRINGs.
func (w *berWriter) value(depth int) berItem {
	kind := berPrimitiveKinds.Draw(w.t)
	if depth > 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
		kind = berConstructedKinds.Draw(w.t)
	}
	switch kind {
	case berKBoolean:
		return berPrim(berTagBoolean, w.boolean())
	case berKInteger:
		return berPrim(berTagInteger, berInt(berInts.Draw(w.t)))
	case berKBigInteger:
		return berPrim(berTagInteger, w.bigInteger())
	case berKEnumerated:
		return berPrim(berTagEnumerated, berInt(int64(gen.IntRange(0, 20).Draw(w.t))))
	case berKBitString:
		return berPrim(berTagBitString, w.bitString())
	case berKOctetString:
		return berPrim(berTagOctetString, w.octetString())
	case berKNull:
		return berPrim(berTagNull, nil)
	case berKOID:
		return berPrim(berTagOID, berOIDBody(w.oid()))
	case berKRelativeOID:
		return berPrim(berTagRelativeOID, w.relativeOID())
	case berKReal:
		return berPrim(berTagReal, w.real())
	case berKString:
		return w.str()
	case berKTime:
		return w.time()
	case berKSequence, berKSet:
		var elems [][]byte
		for range gen.IntRange(0, w.cfg.MaxItems).Draw(w.t) {
			elems = append(elems, w.encode(w.value(depth-1)))
		}
		tag := berTagSequence
		if kind == berKSet {
			tag = berTagSet
			if w.der {
				slices.SortFunc(elems, bytes.Compare)
			}
		}
		return berCons(berUniversal, tag, elems...)
	case berKExplicit:
		return berCons(berTagClasses.Draw(w.t), berTagNumbers.Draw(w.t), w.encode(w.value(depth-1)))
	case berKImplicit:
		it := w.value(depth - 1)
		it.class, it.tag = berTagClasses.Draw(w.t), berTagNumbers.Draw(w.t)
		return it
	default: // berKConsString
		if w.der {
			return berPrim(berTagOctetString, w.octetString())
		}
		var segs [][]byte
		for range gen.IntRange(1, 3).Draw(w.t) {
			segs = append(segs, w.encode(berPrim(berTagOctetString, w.octetString())))
		}
		return berCons(berUniversal, berTagOctetString, segs...)
	}
}

// ostr is an OCTET STRING holding s.
func (w *berWriter) ostr(s string) []byte {
	return w.encode(berPrim(berTagOctetString, []byte(s)))
}

func (w *berWriter) integer(v int64) []byte { return w.encode(berPrim(berTagInteger, berInt(v))) }

func (w *berWriter) enumerated(v int64) []byte { return w.encode(berPrim(berTagEnumerated, berInt(v))) }

func (w *berWriter) seq(elems ...[]byte) []byte {
	return w.encode(berCons(berUniversal, berTagSequence, elems...))
}

// ctx is a context-specific primitive [tag] holding s.
func (w *berWriter) ctx(tag int, s string) []byte {
	return w.encode(berItem{class: berContext, tag: tag, body: []byte(s)})
}

func (w *berWriter) attrValue() string {
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		return string(w.octets(0, 12))
	}
	return w.utf8Text(0, 14)
}

// ldapResult is the components of an LDAPResult (RFC 4511, 4.1.9):
// resultCode, matchedDN, diagnosticMessage, [3] referral.
func (w *berWriter) ldapResult() [][]byte {
	elems := [][]byte{w.enumerated(berResultCodes.Draw(w.t)), w.ostr(berDNs.Draw(w.t)), w.ostr(w.utf8Text(0, 12))}
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		var uris [][]byte
		for range gen.IntRange(1, 2).Draw(w.t) {
			uris = append(uris, w.ostr("ldap://"+gen.Tokens("ldap2.example.com", "x.test:389").Draw(w.t)+"/"+berDNs.Draw(w.t)))
		}
		elems = append(elems, w.encode(berCons(berContext, 3, uris...)))
	}
	return elems
}

// attribute is a PartialAttribute: type and a SET OF values.
func (w *berWriter) attribute(minVals int) []byte {
	var vals [][]byte
	for range gen.IntRange(minVals, 3).Draw(w.t) {
		vals = append(vals, w.ostr(w.attrValue()))
	}
	return w.seq(w.ostr(berAttrs.Draw(w.t)), w.encode(berCons(berUniversal, berTagSet, vals...)))
}

// filter is a search Filter (RFC 4511, 4.5.1.7).
func (w *berWriter) filter(depth int) []byte {
	choice := gen.IntRange(3, 9).Draw(w.t)
	if depth > 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
		choice = gen.IntRange(0, 2).Draw(w.t)
	}
	ava := func() [][]byte { return [][]byte{w.ostr(berAttrs.Draw(w.t)), w.ostr(w.attrValue())} }
	switch choice {
	case 0, 1: // and, or: SET OF Filter
		var fs [][]byte
		for range gen.IntRange(1, 3).Draw(w.t) {
			fs = append(fs, w.filter(depth-1))
		}
		return w.encode(berCons(berContext, choice, fs...))
	case 2: // not
		return w.encode(berCons(berContext, 2, w.filter(depth-1)))
	case 4: // substrings: type, SEQUENCE OF initial [0], any [1], final [2]
		var subs [][]byte
		n := gen.IntRange(1, 3).Draw(w.t)
		for i := range n {
			tag := 1
			if i == 0 && gen.Bool().Draw(w.t) {
				tag = 0
			} else if i == n-1 && gen.Bool().Draw(w.t) {
				tag = 2
			}
			subs = append(subs, w.ctx(tag, w.utf8Text(1, 6)))
		}
		return w.encode(berCons(berContext, 4, w.ostr(berAttrs.Draw(w.t)), w.seq(subs...)))
	case 7: // present: the attribute description, primitive
		return w.ctx(7, berAttrs.Draw(w.t))
	case 9: // extensibleMatch: [1] matchingRule, [2] type, [3] matchValue, [4] dnAttributes
		var elems [][]byte
		if gen.Bool().Draw(w.t) {
			elems = append(elems, w.ctx(1, gen.Tokens("caseIgnoreMatch", "2.5.13.2", "1.2.840.113556.1.4.803").Draw(w.t)))
		}
		if len(elems) == 0 || gen.Bool().Draw(w.t) {
			elems = append(elems, w.ctx(2, berAttrs.Draw(w.t)))
		}
		elems = append(elems, w.ctx(3, w.attrValue()))
		if gen.Bool().Draw(w.t) {
			elems = append(elems, w.encode(berItem{class: berContext, tag: 4, body: w.boolean()}))
		}
		return w.encode(berCons(berContext, 9, elems...))
	default: // equalityMatch, greaterOrEqual, lessOrEqual, approxMatch
		return w.encode(berCons(berContext, choice, ava()...))
	}
}

// protocolOp draws an LDAP operation (RFC 4511, section 4): requests and
// responses, in their [APPLICATION n] tags.
func (w *berWriter) protocolOp() []byte {
	app := func(tag int, elems ...[]byte) []byte { return w.encode(berCons(berApplication, tag, elems...)) }
	switch op := gen.SampledFrom(0, 1, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 19, 23, 24).Draw(w.t); op {
	case 0: // bindRequest: version, name, simple [0] or sasl [3]
		auth := w.ctx(0, gen.Tokens("", "secret", "p@ssw0rd").Draw(w.t))
		if gen.IntRange(0, 2).Draw(w.t) == 0 {
			elems := [][]byte{w.ostr(gen.Tokens("EXTERNAL", "GSSAPI", "DIGEST-MD5", "PLAIN").Draw(w.t))}
			if gen.Bool().Draw(w.t) {
				elems = append(elems, w.ostr(string(w.octets(0, 16))))
			}
			auth = w.encode(berCons(berContext, 3, elems...))
		}
		return app(0, w.integer(int64(gen.SampledFrom(3, 3, 2, 1, 127).Draw(w.t))), w.ostr(berDNs.Draw(w.t)), auth)
	case 1: // bindResponse, with serverSaslCreds [7] now and then
		elems := w.ldapResult()
		if gen.IntRange(0, 3).Draw(w.t) == 0 {
			elems = append(elems, w.ctx(7, string(w.octets(0, 12))))
		}
		return app(1, elems...)
	case 2, 10, 16: // unbindRequest (NULL), delRequest (LDAPDN), abandonRequest (MessageID): primitive
		body := []byte(nil)
		if op == 10 {
			body = []byte(berDNs.Draw(w.t))
		} else if op == 16 {
			body = berInt(int64(gen.IntRange(0, 1000).Draw(w.t)))
		}
		return w.encode(berItem{class: berApplication, tag: op, body: body})
	case 3: // searchRequest
		var attrs [][]byte
		for range gen.IntRange(0, 3).Draw(w.t) {
			attrs = append(attrs, w.ostr(berAttrs.Draw(w.t)))
		}
		return app(3, w.ostr(berDNs.Draw(w.t)), w.enumerated(int64(gen.IntRange(0, 2).Draw(w.t))),
			w.enumerated(int64(gen.IntRange(0, 3).Draw(w.t))), w.integer(int64(gen.SampledFrom(0, 1, 100, 1000).Draw(w.t))),
			w.integer(int64(gen.SampledFrom(0, 30, 3600).Draw(w.t))), w.encode(berPrim(berTagBoolean, w.boolean())),
			w.filter(3), w.seq(attrs...))
	case 4: // searchResEntry: objectName, SEQUENCE OF PartialAttribute
		var attrs [][]byte
		for range gen.IntRange(0, 3).Draw(w.t) {
			attrs = append(attrs, w.attribute(0))
		}
		return app(4, w.ostr(berDNs.Draw(w.t)), w.seq(attrs...))
	case 6: // modifyRequest: object, SEQUENCE OF {operation, modification}
		var changes [][]byte
		for range gen.IntRange(1, 3).Draw(w.t) {
			changes = append(changes, w.seq(w.enumerated(int64(gen.IntRange(0, 2).Draw(w.t))), w.attribute(0)))
		}
		return app(6, w.ostr(berDNs.Draw(w.t)), w.seq(changes...))
	case 8: // addRequest: entry, SEQUENCE OF Attribute
		var attrs [][]byte
		for range gen.IntRange(1, 3).Draw(w.t) {
			attrs = append(attrs, w.attribute(1))
		}
		return app(8, w.ostr(berDNs.Draw(w.t)), w.seq(attrs...))
	case 12: // modDNRequest: entry, newrdn, deleteoldrdn, [0] newSuperior
		elems := [][]byte{w.ostr(berDNs.Draw(w.t)), w.ostr(gen.Tokens("cn=new", "uid=x", "ou=a+cn=b").Draw(w.t)),
			w.encode(berPrim(berTagBoolean, w.boolean()))}
		if gen.Bool().Draw(w.t) {
			elems = append(elems, w.ctx(0, berDNs.Draw(w.t)))
		}
		return app(12, elems...)
	case 14: // compareRequest: entry, AttributeValueAssertion
		return app(14, w.ostr(berDNs.Draw(w.t)), w.seq(w.ostr(berAttrs.Draw(w.t)), w.ostr(w.attrValue())))
	case 19: // searchResRef: SEQUENCE OF URI
		var uris [][]byte
		for range gen.IntRange(1, 2).Draw(w.t) {
			uris = append(uris, w.ostr("ldap://x.test/"+berDNs.Draw(w.t)))
		}
		return app(19, uris...)
	case 23: // extendedReq: [0] requestName, [1] requestValue
		elems := [][]byte{w.ctx(0, berExtendedOIDs.Draw(w.t))}
		if gen.Bool().Draw(w.t) {
			elems = append(elems, w.ctx(1, string(w.encode(w.value(1)))))
		}
		return app(23, elems...)
	case 24: // extendedResp: LDAPResult, [10] responseName, [11] responseValue
		elems := w.ldapResult()
		if gen.Bool().Draw(w.t) {
			elems = append(elems, w.ctx(10, berExtendedOIDs.Draw(w.t)))
		}
		if gen.Bool().Draw(w.t) {
			elems = append(elems, w.ctx(11, string(w.octets(0, 12))))
		}
		return app(24, elems...)
	default: // 5, 7, 9, 11, 15: searchResDone, modify, add, del, compare responses
		return app(op, w.ldapResult()...)
	}
}

// control is a Control (RFC 4511, 4.1.11): controlType, criticality,
// controlValue (for the paged results control, its BER value).
func (w *berWriter) control() []byte {
	typ := berControlOIDs.Draw(w.t)
	elems := [][]byte{w.ostr(typ)}
	if gen.Bool().Draw(w.t) {
		elems = append(elems, w.encode(berPrim(berTagBoolean, w.boolean())))
	}
	if gen.Bool().Draw(w.t) {
		val := string(w.octets(0, 8))
		if typ == "1.2.840.113556.1.4.319" {
			val = string(w.seq(w.integer(int64(gen.SampledFrom(0, 100, 500).Draw(w.t))), w.ostr(string(w.octets(0, 8)))))
		}
		elems = append(elems, w.ostr(val))
	}
	return w.seq(elems...)
}

// ldapMessage is an LDAPMessage: messageID, protocolOp, [0] controls.
func (w *berWriter) ldapMessage() []byte {
	elems := [][]byte{w.integer(int64(gen.OneOf(gen.IntRange(0, 100), gen.IntRange(0, 1<<31-1)).Draw(w.t))), w.protocolOp()}
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		var cs [][]byte
		for range gen.IntRange(1, 2).Draw(w.t) {
			cs = append(cs, w.control())
		}
		elems = append(elems, w.encode(berCons(berContext, 0, cs...)))
	}
	return w.seq(elems...)
}

// BER draws streams of BER-encoded messages (ITU-T X.690): one to
// MaxMessages values, each an LDAP message (RFC 4511: message id,
// operation of every kind with filters, attributes, results, controls)
// or a generic value, mostly a record (a SEQUENCE): every universal primitive type (BOOLEAN, INTEGER
// up to 20 octets, ENUMERATED, BIT STRING, OCTET STRING, NULL, OBJECT
// IDENTIFIER, RELATIVE-OID, REAL in its zero, special, decimal and
// binary forms, the character string types in their character sets,
// UTCTime and GeneralizedTime), SEQUENCE and SET (to MaxDepth), explicit
// and implicit tags of the other classes, low and high tag numbers.
// A third of the streams are DER (shortest definite lengths, canonical
// booleans, reals, times and SET order); the rest draw BER's freedoms:
// long-form and indefinite lengths, constructed OCTET STRINGs, other
// REAL bases, scale factors and exponent formats, time precisions and
// offsets. MistakesPer per mille of the streams go through CorruptBytes.
func BER(cfg BERConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		w := &berWriter{t: t, cfg: cfg, der: gen.IntRange(0, 2).Draw(t) == 0}
		var b []byte
		for range gen.IntRange(1, cfg.MaxMessages).Draw(t) {
			if gen.Bool().Draw(t) {
				b = append(b, w.ldapMessage()...)
				continue
			}
			// a record (a SEQUENCE of values) mostly, any value else
			if gen.IntRange(0, 3).Draw(t) == 0 {
				b = append(b, w.encode(w.value(cfg.MaxDepth))...)
				continue
			}
			var elems [][]byte
			for range gen.IntRange(1, cfg.MaxItems).Draw(t) {
				elems = append(elems, w.encode(w.value(cfg.MaxDepth-1)))
			}
			b = append(b, w.seq(elems...)...)
		}
		return CorruptBytes(t, b, cfg.MistakesPer)
	}).Named("ber")
}
