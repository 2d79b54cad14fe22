package asn1berbinaryreal

import (
	"testing"
	"time"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	ber "github.com/go-asn1-ber/asn1-ber"
)

// seedMessages builds BER messages with the library's encoder, as the
// project's tests (ber_test.go) build theirs: an LDAP bind request, a
// record of universal types, a search result entry. None has a REAL.
func seedMessages() [][]byte {
	bind := ber.NewSequence("LDAP Request")
	bind.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, 1, "MessageID"))
	req := ber.Encode(ber.ClassApplication, ber.TypeConstructed, 0, nil, "Bind Request")
	req.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, 3, "Version"))
	req.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "cn=admin,dc=example,dc=com", "User Name"))
	req.AppendChild(ber.NewString(ber.ClassContext, ber.TypePrimitive, 0, "secret", "Password"))
	bind.AppendChild(req)

	rec := ber.NewSequence("record")
	rec.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, -1024, "n"))
	rec.AppendChild(ber.NewBoolean(ber.ClassUniversal, ber.TypePrimitive, ber.TagBoolean, true, "ok"))
	rec.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagUTF8String, "Grüße", "name"))
	rec.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagIA5String, "jdoe@example.com", "mail"))
	rec.AppendChild(ber.NewGeneralizedTime(ber.ClassUniversal, ber.TypePrimitive, ber.TagGeneralizedTime,
		time.Date(2019, 1, 2, 3, 4, 5, 0, time.UTC), "when"))
	rec.AppendChild(ber.Encode(ber.ClassUniversal, ber.TypePrimitive, ber.TagNULL, nil, "nothing"))

	entry := ber.NewSequence("LDAP Response")
	entry.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, 2, "MessageID"))
	res := ber.Encode(ber.ClassApplication, ber.TypeConstructed, 4, nil, "Search Result Entry")
	res.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "uid=jdoe,ou=People,dc=example,dc=org", "DN"))
	attrs := ber.NewSequence("Attributes")
	attr := ber.NewSequence("Attribute")
	attr.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "cn", "Type"))
	vals := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSet, nil, "Values")
	vals.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "John Doe", "Value"))
	attr.AppendChild(vals)
	attrs.AppendChild(attr)
	res.AppendChild(attrs)
	entry.AppendChild(res)

	return [][]byte{bind.Bytes(), rec.Bytes(), entry.Bytes()}
}

// FuzzNative is the project's fuzz target (FuzzDecodePacket, added with
// the fix in v1.5.5: DecodePacketErr with MaxPacketLengthBytes at 64 KiB,
// failing when decoding takes over 500 ms or returns neither a packet nor
// an error) turned native, plus reading the input as a stream through
// Decode. Seeded with messages the library encodes and short BER values
// like those of the project's tests (ber_test.go's EOF cases, the
// indefinite length, high tag numbers, long-form lengths); not with the
// project's seeds, which are the reproducers.
func FuzzNative(f *testing.F) {
	for _, b := range seedMessages() {
		f.Add(b)
	}
	for _, h := range []string{
		"3006020101020102",                   // SEQUENCE {1, 2}
		"30800201010201020000",               // the same, indefinite length
		"040a00010203040506070809",           // OCTET STRING of 10 octets
		"0481050102030405",                   // OCTET STRING, long-form length
		"0603550403",                         // OID 2.5.4.3
		"1f81000105",                         // [UNIVERSAL 128] primitive, high tag number
		"a0051303555341",                     // [0] { PrintableString "USA" }
		"180f32303139303130323033303430355a", // GeneralizedTime 20190102030405Z
		"300d02010142084a6f686e20446f65",     // SEQUENCE { 1, [APPLICATION 2] "John Doe" }
	} {
		f.Add(bugkit.Hex(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		p, err := ber.DecodePacketErr(data)
		if e := time.Since(start); e > 500*time.Millisecond {
			t.Fatalf("DecodePacketErr took too long: %s", e)
		}
		if p == nil && err == nil {
			t.Fatalf("DecodePacketErr returned a nil packet and no error")
		}
		_, _ = Decode(data)
	})
}

// FuzzGfz is the gfz target: streams of BER messages (LDAP messages and
// generic values, DER or BER) from the grammar generator, a fifth of them
// with byte-level near-miss edits; a stream Decode rejects is an invalid
// input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	stream := gens.BER(gens.BERConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode(stream.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// The reproducers: pull request #41's two (a binary REAL whose information
// octet 0x85 announces a two-octet exponent followed by one octet, and
// one whose information octet 0xcf announces a length octet that is not
// there), and go-ldap/ldap#452's (`=#090180` in ParseDN: a one-octet
// exponent and no octet at all).
var (
	reproducer    = []byte{0x09, 0x02, 0x85, 0x30}
	reproducerLen = []byte{0x09, 0x01, 0xcf}
	reproducerDN  = bugkit.Hex("090180")
)

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode(reproducer) }, "slice bounds out of range [:2] with capacity 1", IsBug)
	bugkit.ReproducerPanics(t, func() { _, _ = Decode(reproducerLen) }, "index out of range [0] with length 0", IsBug)
	bugkit.ReproducerPanics(t, func() { _ = ber.DecodePacket(reproducerDN) }, "slice bounds out of range [:1] with capacity 0", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug:
// no other panic of v1.5.4's decoder is reported, so the encoder's own
// panic on a REAL of a value that is not a float (NewReal, ber.go:617),
// and a generic panic.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { ber.NewReal(ber.ClassUniversal, ber.TypePrimitive, ber.TagRealFloat, "1.5", "x") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
