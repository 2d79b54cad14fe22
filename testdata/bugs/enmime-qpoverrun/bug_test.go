package enmimeqpoverrun

import (
	"bytes"
	"strings"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"github.com/jhillyerd/enmime"
)

// seeds are ordinary messages like those of the project's tests
// (testdata/mail, testdata/parts): the project's own fuzz seed, a
// multipart/alternative with a short quoted-printable text part, an
// attachment in base64, RFC 2047 headers with a Latin-1 body, a
// multipart/related with an inline image, a forwarded message.
var seeds = []string{
	"Date: Mon, 23 Jun 2015 11:40:36 -0400\nFrom: Gopher <from@example.com>\nTo: Example User <user@example.com>\nSubject: Gophers at Gophercon\n\nMessage body\n\n\n",

	"From: James Hillyerd <james@example.com>\r\nTo: user@example.com\r\nSubject: MIME alternative\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/alternative; boundary=\"Enmime-Test-100\"\r\n\r\n" +
		"--Enmime-Test-100\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"A text section with an equals sign =3D and caf=C3=A9, soft broken =\r\nhere.\r\n" +
		"--Enmime-Test-100\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>An <b>HTML</b> section</p>\r\n--Enmime-Test-100--\r\n",

	"From: a@example.com\r\nTo: b@example.com\r\nSubject: report\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=frontier\r\n\r\nThis is a multi-part message in MIME format.\r\n" +
		"--frontier\r\nContent-Type: text/plain\r\n\r\nThe report is attached.\r\n" +
		"--frontier\r\nContent-Type: application/pdf; name=\"report.pdf\"\r\nContent-Transfer-Encoding: base64\r\n" +
		"Content-Disposition: attachment; filename=\"report.pdf\"\r\n\r\nJVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoK\r\n--frontier--\r\n",

	"From: =?iso-8859-1?q?J=F6rg_M=FCller?= <joerg@example.de>\r\nTo: user@example.com\r\n" +
		"Subject: =?UTF-8?B?R3LDvMOfZSBhdXMgWsO8cmljaA==?=\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\nGr\xfc\xdfe!\r\n",

	"From: news@example.org\nTo: user@example.com\nSubject: Newsletter\nMIME-Version: 1.0\n" +
		"Content-Type: multipart/related; type=\"text/html\"; boundary=\"rel\"\n\n" +
		"--rel\nContent-Type: text/html; charset=us-ascii\nContent-Transfer-Encoding: 7bit\n\n<img src=\"cid:logo@example.org\"> Hello\n" +
		"--rel\nContent-Type: image/png\nContent-ID: <logo@example.org>\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--rel--\n",

	"From: b@example.com\r\nTo: c@example.com\r\nSubject: Fwd: hello\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nSee below.\r\n" +
		"--b1\r\nContent-Type: message/rfc822\r\n\r\nFrom: a@example.com\r\nSubject: hello\r\n\r\nHi!\r\n--b1--\r\n",
}

// FuzzNative is the project's fuzz target (envelope_fuzz_test.go at
// v0.9.4: ReadEnvelope, and fail when it returns both an envelope and an
// error) turned native on Read, seeded with the project's seed and a few
// messages like those of its tests.
func FuzzNative(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := enmime.ReadEnvelope(bytes.NewReader(b))
		if env != nil && err != nil {
			t.Error("envelope and error are not nil")
		}
		if err == nil {
			Summarize(env)
		}
	})
}

// FuzzGfz is the gfz target: messages from the grammar generator, a
// tenth of them with near-miss edits; a message enmime gives up on is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	msg := gens.Mail(gens.MailConfig{MistakesPer: 100})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Read([]byte(msg.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// text returns n characters of running text.
func text(n int) string {
	const s = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
	return strings.Repeat(s, n/len(s)+1)[:n]
}

// reproducer is the situation of the pull request's description and test
// (TestQPCleanerEqualSignOverflow: a "=3D" after 1023 characters of a
// line, with one byte left in the output buffer), as a message: the
// buffer is the 4096 bytes of the quoted-printable reader's bufio.Reader,
// whose first fill gets the body's first 4096 bytes, so three lines of
// 1022 characters (3072 bytes with their CRLFs) and a fourth line whose
// "=3D" comes after 1023 characters.
var reproducer = "From: sender@example.com\r\nTo: user@example.com\r\nSubject: long line\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: text/plain; charset=us-ascii\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
	text(1022) + "\r\n" + text(1022) + "\r\n" + text(1022) + "\r\n" + text(1023) + "=3D" + text(20) + "\r\n"

// nestedReproducer is the same in the HTML part of a multipart/alternative
// message: the escape (a UTF-8 "é") after 1022 characters, two bytes left.
var nestedReproducer = "From: sender@example.com\r\nTo: user@example.com\r\nSubject: long line\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n" +
	"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nshort text\r\n" +
	"--b1\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
	"<p>" + text(1019) + "\r\n" + text(1022) + "\r\n" + text(1022) + "\r\n" + text(1022) + "=C3=A9</p>\r\n" +
	"--b1--\r\n"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Read([]byte(reproducer)) }, "index out of range [4096] with length 4096", IsBug)
	bugkit.ReproducerPanics(t, func() { _, _ = Read([]byte(nestedReproducer)) }, "index out of range [4096] with length 4096", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug
// (no other panic of v0.9.4 is reported; the other overrun of the same
// line breaking, #220, was fixed in v0.9.3).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
