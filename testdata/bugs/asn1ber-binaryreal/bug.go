// Package asn1berbinaryreal pins github.com/go-asn1-ber/asn1-ber v1.5.4
// (the BER codec of go-ldap), whose decoder panics on a universal REAL
// (tag 9) in the binary encoding of X.690 8.5.7 whose contents end before
// the exponent octets the information octet announces: parseBinaryFloat
// slices the exponent octets (real.go:98) without checking that they are
// there ("slice bounds out of range [:2] with capacity 1"), and reads the
// length octet of the fourth exponent form (real.go:92) without checking
// that there is one ("index out of range [0] with length 0"). Every caller
// that reads BER from outside (ReadPacket on an LDAP connection,
// DecodePacket, DecodePacketErr, go-ldap's ParseDN on a `#` hex value)
// crashes instead of returning an error. Found by fuzzing; reported with
// its fix in pull request #41 ("Address panics in parseBinaryFloat, add
// fuzzer", merged September 2023, released in v1.5.5), and against
// go-ldap, whose ParseDN reached it, as go-ldap/ldap#452:
// https://github.com/go-asn1-ber/asn1-ber/pull/41
//
// A near miss of a well-formed REAL: the information octet and the length
// agree on fewer contents octets than the exponent needs.
package asn1berbinaryreal

import (
	"bytes"
	"errors"
	"io"

	"example.com/bugkit"
	ber "github.com/go-asn1-ber/asn1-ber"
)

// Issue is the upstream report (the pull request that fixes it, with the
// reproducers; go-ldap/ldap#452 reports the same panic through ParseDN).
const Issue = "https://github.com/go-asn1-ber/asn1-ber/pull/41"

// Site is the two unchecked reads of parseBinaryFloat: the exponent's
// length octet (real.go:92) and the exponent octets (real.go:98), whatever
// the caller (ParseReal, from readPacket or from a program).
var Site = bugkit.Site{Func: "github.com/go-asn1-ber/asn1-ber.parseBinaryFloat", File: "real.go", Lines: []int{92, 98}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

func init() {
	// The library reads a primitive element's contents into a buffer of
	// the declared length; MaxPacketLengthBytes (2 GiB by default) is the
	// documented bound, which a server lowers. The project's fuzz target
	// (v1.5.5) sets the same 64 KiB.
	ber.MaxPacketLengthBytes = 1 << 16
}

// errEmpty is Decode's error for a stream without a message.
var errEmpty = errors.New("no message")

// Decode reads the BER messages of a stream (the bytes an LDAP client or
// server receives on a connection) one after the other with ReadPacket,
// as go-ldap's reader loop and LDAP servers built on asn1-ber do, until
// the stream ends, and prints each message's tree with WritePacket (the
// library's debug output, which such programs log). The first read error
// is returned with the messages read before it.
func Decode(data []byte) ([]*ber.Packet, error) {
	r := bytes.NewReader(data)
	var msgs []*ber.Packet
	for r.Len() > 0 {
		p, err := ber.ReadPacket(r)
		if err != nil {
			return msgs, err
		}
		ber.WritePacket(io.Discard, p)
		msgs = append(msgs, p)
	}
	if len(msgs) == 0 {
		return nil, errEmpty
	}
	return msgs, nil
}
