// Package dnsmsgsvcb pins golang.org/x/net v0.55.0, where
// dnsmessage.Message.Unpack slices past the message when an SVCB or
// HTTPS record's data length runs past the end of the message: the first
// pass over the SvcParams checks each value against the record's
// declared end only, the second copies the values out of the message:
// https://github.com/golang/net/pull/249 (fixed in v0.56.0).
//
// It needs a well-formed message up to that record (header counts,
// names, the record header) and an SVCB or HTTPS record with a
// parameter whose value the message cuts short.
package dnsmsgsvcb

import (
	"example.com/bugkit"
	"golang.org/x/net/dns/dnsmessage"
)

// Issue is the upstream report (the fix's pull request).
const Issue = "https://github.com/golang/net/pull/249"

// Site is the copy of a parameter's value in unpackSVCBResource's second
// pass.
var Site = bugkit.Site{Func: "golang.org/x/net/dns/dnsmessage.unpackSVCBResource", File: "svcb.go", Lines: []int{247}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Decode unpacks a DNS message held in a buffer of its own size, as a
// resolver reading a response from a file or from a buffer it cut to the
// packet's length does (with spare capacity after the message, the read
// past its end returns stale bytes instead of panicking).
func Decode(msg []byte) (dnsmessage.Message, error) {
	var m dnsmessage.Message
	err := m.Unpack(msg[:len(msg):len(msg)])
	return m, err
}
