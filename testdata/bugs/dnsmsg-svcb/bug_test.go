package dnsmsgsvcb

import (
	"reflect"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"golang.org/x/net/dns/dnsmessage"
)

// seedMsgs are messages like the project's smallTestMsg and largeTestMsg
// (message_test.go), the seeds of its FuzzUnpackPack.
func seedMsgs() []dnsmessage.Message {
	name := dnsmessage.MustNewName("example.com.")
	a := func(ip byte) dnsmessage.Resource {
		return dnsmessage.Resource{Header: dnsmessage.ResourceHeader{Name: name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET},
			Body: &dnsmessage.AResource{A: [4]byte{127, 0, 0, ip}}}
	}
	small := dnsmessage.Message{
		Header:      dnsmessage.Header{Response: true, Authoritative: true},
		Questions:   []dnsmessage.Question{{Name: name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET}},
		Answers:     []dnsmessage.Resource{a(1)},
		Authorities: []dnsmessage.Resource{a(1)},
		Additionals: []dnsmessage.Resource{a(1)},
	}
	hdr := func(t dnsmessage.Type) dnsmessage.ResourceHeader {
		return dnsmessage.ResourceHeader{Name: name, Type: t, Class: dnsmessage.ClassINET}
	}
	large := dnsmessage.Message{
		Header:    dnsmessage.Header{Response: true, Authoritative: true},
		Questions: []dnsmessage.Question{{Name: name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET}},
		Answers: []dnsmessage.Resource{
			a(1), a(2),
			{Header: hdr(dnsmessage.TypeAAAA), Body: &dnsmessage.AAAAResource{AAAA: [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}},
			{Header: hdr(dnsmessage.TypeCNAME), Body: &dnsmessage.CNAMEResource{CNAME: dnsmessage.MustNewName("alias.example.com.")}},
			{Header: hdr(dnsmessage.TypeSOA), Body: &dnsmessage.SOAResource{NS: dnsmessage.MustNewName("ns1.example.com."), MBox: dnsmessage.MustNewName("mb.example.com."), Serial: 1, Refresh: 2, Retry: 3, Expire: 4, MinTTL: 5}},
			{Header: hdr(dnsmessage.TypePTR), Body: &dnsmessage.PTRResource{PTR: dnsmessage.MustNewName("ptr.example.com.")}},
			{Header: hdr(dnsmessage.TypeMX), Body: &dnsmessage.MXResource{Pref: 7, MX: dnsmessage.MustNewName("mx.example.com.")}},
			{Header: hdr(dnsmessage.TypeSRV), Body: &dnsmessage.SRVResource{Priority: 8, Weight: 9, Port: 11, Target: dnsmessage.MustNewName("srv.example.com.")}},
			{Header: hdr(dnsmessage.TypeTXT), Body: &dnsmessage.TXTResource{TXT: []string{"So Long, and Thanks for All the Fish"}}},
		},
		Authorities: []dnsmessage.Resource{
			{Header: hdr(dnsmessage.TypeNS), Body: &dnsmessage.NSResource{NS: dnsmessage.MustNewName("ns1.example.com.")}},
		},
		Additionals: []dnsmessage.Resource{
			{Header: hdr(dnsmessage.TypeTXT), Body: &dnsmessage.TXTResource{TXT: []string{"Hamster Huey and the Gooey Kablooie"}}},
		},
	}
	return []dnsmessage.Message{small, large}
}

// FuzzNative is the project's own target at this version
// (dns/dnsmessage FuzzUnpackPack: unpack, pack, unpack again, compare),
// unpacking through Decode, seeded with messages like the project's.
func FuzzNative(f *testing.F) {
	for _, msg := range seedMsgs() {
		b, err := msg.Pack()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		m, err := Decode(msg)
		if err != nil {
			return
		}
		packed, err := m.Pack()
		if err != nil {
			t.Fatalf("failed to pack message that was successfully unpacked: %v", err)
		}
		m2, err := Decode(packed)
		if err != nil {
			t.Fatalf("failed to unpack message that was succesfully packed: %v", err)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatal("unpack(msg) is not deep equal to unpack(pack(unpack(msg)))")
		}
	})
}

// FuzzGfz is the gfz target: DNS messages from the wire-format generator,
// a fifth of them with near-miss byte edits; a message that does not
// unpack is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	msg := gens.DNSMessage(gens.DNSConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode(msg.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is an SVCB answer (priority 1, target svc.example.com.,
// alpn "h2") cut one byte short: the pull request's description, built
// with dnsmessage.Builder.
func reproducer(t *testing.T) []byte {
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{Response: true})
	if err := b.StartAnswers(); err != nil {
		t.Fatal(err)
	}
	r := dnsmessage.SVCBResource{Priority: 1, Target: dnsmessage.MustNewName("svc.example.com.")}
	r.SetParam(dnsmessage.SVCParamALPN, []byte("\x02h2"))
	if err := b.SVCBResource(dnsmessage.ResourceHeader{Name: dnsmessage.MustNewName("example.com."), Class: dnsmessage.ClassINET}, r); err != nil {
		t.Fatal(err)
	}
	msg, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return msg[:len(msg)-1]
}

func TestReproducer(t *testing.T) {
	msg := reproducer(t)
	bugkit.ReproducerPanics(t, func() { _, _ = Decode(msg) }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
