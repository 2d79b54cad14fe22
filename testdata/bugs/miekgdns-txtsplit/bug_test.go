package miekgdnstxtsplit

import (
	"strings"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/miekg/dns"
)

// FuzzNative is the project's fuzz target of the text parser (FuzzNewRR
// in fuzz.go at v1.1.59, the OSS-Fuzz target: inputs with $INCLUDE are
// skipped, NewRR parses the rest) turned native, seeded with records
// like those of the project's parse tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"miek.nl. 3600 IN A 127.0.0.1",
		"www.example.org. IN AAAA 2001:db8::1",
		"example.org. 300 IN MX 10 mail.example.org.",
		`example.org. IN TXT "v=spf1 -all" "second string"`,
		`a.example. TXT abc\"def\\ghi\032x`,
		"_sip._tcp.example.org. 86400 IN SRV 0 5 5060 sipserver.example.org.",
		"example.org. IN SOA ns.example.org. hostmaster.example.org. ( 2024010101 1h 15m 1w 1h )",
		`example.org. IN CAA 0 issue "letsencrypt.org"`,
		"example.org. 3600 IN HTTPS 1 . alpn=h2,h3 ipv4hint=192.0.2.1",
		`example.org. IN NAPTR 100 10 "U" "E2U+sip" "!^.*$!sip:info@example.org!" .`,
		"SW1A2AA.find.me.uk. LOC 51 30 12.748 N 00 07 39.611 W 0.00m 0.00m 0.00m 0.00m",
		`example.org. IN TYPE65280 \# 4 0A000001`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		str := string(data)
		if strings.Contains(strings.ToUpper(str), "$INCLUDE") {
			return
		}
		_, _ = dns.NewRR(str)
	})
}

// FuzzGfz is the gfz target: zone files from the grammar generator, a
// tenth of them with near-miss edits; a zone the parser rejects, or that
// does not pack and unpack, is an invalid input. No seeds: under plain go
// test it runs nothing.
func FuzzGfz(f *testing.F) {
	zone := gens.ZoneFile(gens.ZoneConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Load(zone.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer has the shape the fix describes and tests (a string ending
// in a backslash with nothing after it, TestEscapedStringOffset's `aaa\`
// at a 255-byte chunk): the OSS-Fuzz input is not public.
var reproducer = "$TTL 3600\n@ IN SOA ns.example.org. hostmaster.example.org. 1 7200 900 1209600 3600\n" +
	"txt IN TXT " + strings.Repeat("a", 254) + "\\\n"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Load(reproducer) }, "slice bounds out of range", IsBug)
	// Escapes count as one byte: 200 letters and 54 \DDD escapes, then the
	// backslash, at the end of the input; through NewRR and an SPF record.
	bugkit.ReproducerPanics(t, func() {
		_, _ = dns.NewRR("example.org. SPF " + strings.Repeat("a", 200) + strings.Repeat(`\032`, 54) + `\`)
	}, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this
// bug (no other panic of v1.1.59 is reported).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
