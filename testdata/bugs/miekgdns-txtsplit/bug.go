// Package miekgdnstxtsplit pins github.com/miekg/dns v1.1.59, whose zone
// file parser panics (slice bounds out of range) on a character string of
// a TXT-like record (TXT, SPF, AVC, NINFO) that reaches a multiple of 255
// bytes with a backslash that escapes nothing, as a bare word of 254
// letters and a backslash at the end of the line: v1.1.59 began to split
// long strings into 255-byte chunks counting escapes as the byte they
// stand for (escapedStringOffset, new in that version), and for a
// trailing backslash the offset it returns is one past the end of the
// token, which endingToTxtSlice slices up to. Found by OSS-Fuzz; fixed in
// v1.1.60 by https://github.com/miekg/dns/pull/1557 ("Fix possible
// out-of-bounds read in endingToTxtSlice", commit 76926c7).
//
// A combination: a string of exactly 255k bytes once escapes count as
// one, ended by a lone backslash (at the end of the line or the input).
package miekgdnstxtsplit

import (
	"strings"

	"example.com/bugkit"
	"github.com/miekg/dns"
)

// Issue is the upstream fix (OSS-Fuzz found the crash; the pull request
// describes it).
const Issue = "https://github.com/miekg/dns/pull/1557"

// Site is the slice of the token to the chunk's end in endingToTxtSlice
// (scan_rr.go:60), whatever the record type that parses its data with it.
var Site = bugkit.Site{Func: "github.com/miekg/dns.endingToTxtSlice", File: "scan_rr.go", Lines: []int{60}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Origin is the zone's origin when the file sets none.
const Origin = "example.org."

// Load reads a zone file as an authoritative server or a zone tool does:
// every record through the zone parser ($INCLUDE not allowed, at most
// 10,000 records), then the zone printed back and packed in a response
// message and unpacked again. It returns the records and the first error.
func Load(zone string) ([]dns.RR, error) {
	zp := dns.NewZoneParser(strings.NewReader(zone), Origin, "db.example.org")
	var rrs []dns.RR
	for rr, ok := zp.Next(); ok && len(rrs) < 10000; rr, ok = zp.Next() {
		rrs = append(rrs, rr)
	}
	if err := zp.Err(); err != nil {
		return nil, err
	}
	var out strings.Builder
	for _, rr := range rrs {
		out.WriteString(rr.String())
		out.WriteByte('\n')
	}
	m := new(dns.Msg)
	m.SetQuestion(Origin, dns.TypeAXFR)
	m.Response = true
	m.Answer = rrs
	m.Compress = true
	wire, err := m.Pack()
	if err != nil {
		return nil, err
	}
	if err := new(dns.Msg).Unpack(wire); err != nil {
		return nil, err
	}
	return rrs, nil
}
