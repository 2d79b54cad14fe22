// Package enmimeqpoverrun pins github.com/jhillyerd/enmime v0.9.4, whose
// quoted-printable pre-cleaner panics (index out of range) while a message
// is read. QPCleaner sits between a part's body and Go's
// mime/quotedprintable reader: it re-encodes the bytes that reader would
// reject and, since the reader's 4096-byte buffer cannot hold longer
// lines, breaks every line at 1024 characters with a soft line break
// "=\r\n". When a valid escape ("=3D", "=C3") arrives on a line already
// 1022 or 1023 characters long, the cleaner first writes the soft break;
// if the caller's buffer had three bytes or fewer left, the break fills
// it (the rest goes to the cleaner's overflow), and the escape's '=' is
// then stored at dest[n] with n == len(dest) without a check.
//
// The reader is bufio's, filled by quotedprintable.Reader, so a message
// meets the panic when the body of a part labelled quoted-printable has a
// line longer than quoted-printable allows (RFC 2045: 76 characters),
// an escape at its 1023rd or 1024th character, and that escape falls in
// the last bytes of one fill of the 4096-byte buffer. Fixed in v0.10.0 by
// pull request #254 (commit d29462e, "fix: buffer overrun when quoted
// printable is at the end of line and output buffer"):
// https://github.com/jhillyerd/enmime/pull/254
//
// The line-breaking code came with pull request #203 (v0.9.2); v0.9.2 had
// a second overrun at the same break (#220, fixed in v0.9.3). v0.9.4 is
// the last release with this one only.
package enmimeqpoverrun

import (
	"bytes"

	"example.com/bugkit"
	"github.com/jhillyerd/enmime"
)

// Issue is the upstream report: the pull request that describes and
// fixes the overrun (the project has no issue for it).
const Issue = "https://github.com/jhillyerd/enmime/pull/254"

// Site is the store of the escape's '=' in QPCleaner.Read
// (internal/coding/quotedprint.go:103), whatever the caller: the cleaner
// runs under bufio.(*Reader).fill for every quoted-printable part, at
// any depth of the part tree.
var Site = bugkit.Site{Func: "github.com/jhillyerd/enmime/internal/coding.(*QPCleaner).Read", File: "quotedprint.go", Lines: []int{103}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Summary is what a mail client or a test mail server (Inbucket, the
// project's companion) keeps of a received message.
type Summary struct {
	Subject     string
	From        string
	Text        string
	HTML        string
	Attachments []string // file names
	Inlines     []string
	Errors      int // problems enmime recorded and recovered from
}

// Read parses a received message with enmime.ReadEnvelope and reads what a
// mail client shows of it. enmime is tolerant: most malformations become
// entries of Envelope.Errors; an error return means it gave up.
func Read(msg []byte) (*Summary, error) {
	env, err := enmime.ReadEnvelope(bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	return Summarize(env), nil
}

// Summarize reads the fields of a parsed message that a client shows.
func Summarize(env *enmime.Envelope) *Summary {
	s := &Summary{
		Subject: env.GetHeader("Subject"),
		From:    env.GetHeader("From"),
		Text:    env.Text,
		HTML:    env.HTML,
		Errors:  len(env.Errors),
	}
	if _, err := env.AddressList("To"); err != nil {
		s.Errors++
	}
	for _, p := range env.Attachments {
		s.Attachments = append(s.Attachments, p.FileName)
	}
	for _, p := range env.Inlines {
		s.Inlines = append(s.Inlines, p.FileName)
	}
	return s
}
