package gens

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// MailConfig tunes Mail.
type MailConfig struct {
	MaxDepth    int // nesting of multiparts and message/rfc822 parts; default 3
	MaxParts    int // body parts of a multipart; default 4
	MistakesPer int // per mille of messages passed through Corrupt; default 0
}

func (c MailConfig) withDefaults() MailConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxParts <= 0 {
		c.MaxParts = 4
	}
	return c
}

// The vocabulary of messages: words of text (ASCII, Latin-1, other
// scripts, numbers, URLs and expressions with '=' as mail text holds
// them), names, addresses, domains, subjects, file names.
var (
	mailWords = gen.OneOfWeighted(
		gen.W(20, gen.Tokens("the", "a", "meeting", "report", "is", "attached", "please", "find", "we", "you", "will",
			"review", "tomorrow", "thanks", "for", "your", "message", "and", "of", "to", "in", "project", "budget",
			"schedule", "update", "invoice", "order", "shipped", "Hello", "Hi", "Regards", "Best", "team", "call",
			"at", "on", "Monday", "Friday", "draft", "version", "final", "see", "below", "questions", "let", "me",
			"know", "if", "have", "any", "gophers", "Gophercon", "server", "mail", "list", "subscribe")),
		gen.W(3, gen.Tokens("café", "Grüße", "naïve", "résumé", "Jörg", "Zürich", "señor", "Ärger", "Œuvre",
			"£10", "€5", "½", "«quote»", "—", "…")),
		gen.W(1, gen.Tokens("日本語", "中文", "русский", "Ελληνικά", "עברית", "العربية", "😀", "✓", "한국어")),
		gen.W(2, gen.Tokens("2015", "11:40", "42", "3.5%", "$1,200.00", "#123", "v0.9", "10-12", "(555) 010-0199")),
		gen.W(2, gen.Tokens("https://example.com/", "https://example.org/a?id=42&x=1", "http://example.net/unsubscribe?u=7a&l=3D",
			"a=b", "x = y + 1", "key=value;", "==", "=20", "50/50", "C:\\temp", "<tag>", "\"quoted\"", "it's",
			"user@example.com", "--", "~/", "_underscored_", "*bold*", "a\tb")),
	)
	mailNames      = gen.Tokens("Gopher", "Example User", "John Doe", "Mary Smith", "Jörg Müller", "José Núñez", "山田太郎", "O'Brien, Pat", "Postmaster", "Mail Delivery Subsystem")
	mailLocals     = gen.Tokens("from", "user", "john.doe", "mary", "postmaster", "no-reply", "j+tag", "first.last", "bounce-810_HTML-7698", "\"odd local\"", "admin", "info")
	mailDomains    = gen.Tokens("example.com", "example.org", "example.net", "mail.example.com", "sub.domain.example", "[192.0.2.1]", "localhost", "xn--mller-kva.example")
	mailSubjects   = gen.Tokens("Gophers at Gophercon", "Re: Meeting tomorrow", "Fwd: Invoice #123", "Your order has shipped", "Test", "", "Weekly report", "Re: Re: [list] question about MIME", "Grüße aus Zürich", "日本語の件名", "Urgent!!!", "Out of office: Re: schedule")
	mailFiles      = gen.Tokens("report.pdf", "photo.jpg", "fake.png", "data.csv", "invite.ics", "notes.txt", "archive.zip", "Résumé.pdf", "файл.doc", "my file (1).docx", "a;b=c.txt", "")
	mailCharsets   = gen.Tokens("utf-8", "UTF-8", "us-ascii", "iso-8859-1", "ISO-8859-15", "windows-1252", "koi8-r", "gb2312", "shift_jis", "big5", "utf-16", "x-unknown")
	mailTextCTE    = gen.Tokens("7bit", "8bit", "quoted-printable", "Quoted-Printable", "base64", "binary", "")
	mailBinaryCTE  = gen.Tokens("base64", "BASE64", "Base64", "binary", "quoted-printable", "7bit", "")
	mailBoundaries = gen.Tokens("----=_Part_0_1234567.1600000000000", "b1_2f3a4c", "===============123456789==", "Apple-Mail=_7E6A", "000000000000a1b2c3", "simple boundary", "frontier", "--==_mimepart_5f", "_001_boundary_", "outer", "inner", "x'()+_,-./:=?")
	mailDates      = gen.Tokens("Mon, 23 Jun 2015 11:40:36 -0400", "Tue, 1 Jul 2003 10:52:37 +0200", "Fri, 21 Nov 1997 09:55:06 -0600",
		"Thu, 13 Feb 1969 23:32:54 -0330", "21 Nov 97 09:55:06 GMT", "Sat, 29 Nov 2026 18:00:00 +0000 (UTC)", "Wed, 01 Jan 2020 00:00:00 Z",
		"Mon, 23 Jun 2015 11:40:36 PDT", "not a date")
)

type mailWriter struct {
	t   *gfz.T
	cfg MailConfig
	nl  string
	b   strings.Builder
}

// sentence draws words ending in a full stop, a question or an exclamation.
func (w *mailWriter) sentence() string {
	n := gen.IntRange(2, 16).Draw(w.t)
	words := make([]string, n)
	for i := range words {
		words[i] = mailWords.Draw(w.t)
	}
	return strings.Join(words, " ") + gen.Tokens(".", ".", ".", "?", "!", ":", "").Draw(w.t)
}

// paragraph draws one to eight sentences.
func (w *mailWriter) paragraph() string {
	n := gen.IntRange(1, 8).Draw(w.t)
	s := make([]string, n)
	for i := range s {
		s[i] = w.sentence()
	}
	return strings.Join(s, " ")
}

// wrap breaks a paragraph into lines of at most width characters at
// spaces (a word longer than width stays whole).
func wrap(p string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Split(p, " ") {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	return append(lines, line)
}

// plainText draws the text of a text/plain body, as lines (no line
// ends): paragraphs separated by blank lines, each wrapped at the
// writer's width or left on one line (as many clients send it), now and
// then a quoted reply and a signature.
func (w *mailWriter) plainText() []string {
	width := gen.Tokens("72", "76", "78", "none").Draw(w.t)
	var lines []string
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		lines = append(lines, gen.Tokens("Hello,", "Hi team,", "Dear Mary,", "Hi!").Draw(w.t), "")
	}
	for i := range gen.IntRange(1, 5).Draw(w.t) {
		if i > 0 {
			lines = append(lines, "")
		}
		p := w.paragraph()
		switch width {
		case "72":
			lines = append(lines, wrap(p, 72)...)
		case "76":
			lines = append(lines, wrap(p, 76)...)
		case "78":
			lines = append(lines, wrap(p, 78)...)
		default:
			lines = append(lines, p)
		}
	}
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		lines = append(lines, "", "On "+mailDates.Draw(w.t)+", "+mailNames.Draw(w.t)+" wrote:")
		for _, l := range wrap(w.paragraph(), 70) {
			lines = append(lines, gen.Tokens("> ", ">", "> > ").Draw(w.t)+l)
		}
	}
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		lines = append(lines, "", "-- ", mailNames.Draw(w.t), gen.Tokens("Example Corp.", "Sent from my phone", "+1 555 0100").Draw(w.t))
	}
	if gen.IntRange(0, 9).Draw(w.t) == 0 { // a trailing blank, or spaces at a line end
		lines = append(lines, gen.Tokens("", " ", "\t", "  ").Draw(w.t))
	}
	return lines
}

// htmlText draws an HTML body: a document or a fragment, pretty-printed
// one element a line, or all on one line (as generated newsletters are).
func (w *mailWriter) htmlText() []string {
	var el []string
	if gen.IntRange(0, 2).Draw(w.t) > 0 {
		el = append(el, gen.Tokens("<!DOCTYPE html>", `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">`).Draw(w.t),
			"<html>", `<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><title>`+mailSubjects.Draw(w.t)+"</title></head>",
			gen.Tokens("<body>", `<body style="font-family: Arial, sans-serif; color:#333333;">`, `<body bgcolor="#FFFFFF">`).Draw(w.t))
	}
	for range gen.IntRange(1, 5).Draw(w.t) {
		switch gen.IntRange(0, 5).Draw(w.t) {
		case 0:
			el = append(el, `<div style="margin:0 0 10px 0;">`+w.paragraph()+"</div>")
		case 1:
			el = append(el, `<a href="`+gen.Tokens("https://example.com/", "https://example.org/a?id=42&amp;x=1", "mailto:user@example.com", "cid:image001@example.com").Draw(w.t)+`">`+w.sentence()+"</a><br>")
		case 2:
			el = append(el, `<img src="cid:image001.png@01D0" alt="logo" width="120" height="40">`)
		case 3:
			el = append(el, "<table><tr><td>"+mailWords.Draw(w.t)+"</td><td>"+mailWords.Draw(w.t)+"</td></tr></table>")
		case 4:
			el = append(el, "<blockquote>"+w.paragraph()+"</blockquote>")
		default:
			el = append(el, "<p>"+w.paragraph()+"</p>")
		}
	}
	if len(el) > 0 && strings.HasPrefix(el[0], "<!DOCTYPE") {
		el = append(el, "</body>", "</html>")
	}
	if gen.Bool().Draw(w.t) {
		return []string{strings.Join(el, "")}
	}
	return el
}

// attachmentData draws the bytes of a non-text attachment: arbitrary
// bytes after a format's signature, or a text format (CSV, calendar).
func (w *mailWriter) attachmentData() []byte {
	sig := gen.Tokens("\x89PNG\r\n\x1a\n", "%PDF-1.4\n", "\xff\xd8\xff\xe0", "PK\x03\x04", "", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n", "name,age\r\nGopher,12\r\n").Draw(w.t)
	return append([]byte(sig), gen.BytesRange(0, 300).Draw(w.t)...)
}

// qpUnwrapped escapes text as quoted-printable does ('=', control and
// non-ASCII bytes, a blank at a line end) but keeps its lines as they are,
// without soft line breaks: the overlong lines some mailers send.
func qpUnwrapped(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		var b strings.Builder
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch {
			case c == '=' || c >= 0x7f || (c < ' ' && c != '\t') || ((c == ' ' || c == '\t') && j == len(l)-1):
				fmt.Fprintf(&b, "=%02X", c)
			default:
				b.WriteByte(c)
			}
		}
		out[i] = b.String()
	}
	return out
}

// encodeText encodes the lines of a text body for a transfer encoding:
// quoted-printable as an encoder writes it (lines of at most 76
// characters with soft breaks), escaped but unwrapped, or left as 8-bit
// text under the label; base64 in lines of 76 characters or one line;
// the others as they are.
func (w *mailWriter) encodeText(lines []string, cte string) string {
	text := strings.Join(lines, "\r\n")
	switch strings.ToLower(cte) {
	case "quoted-printable":
		switch gen.IntRange(0, 9).Draw(w.t) {
		case 0, 1: // escaped, not wrapped
			return strings.Join(qpUnwrapped(lines), w.nl)
		case 2: // not encoded at all
			return strings.Join(lines, w.nl)
		default:
			var b bytes.Buffer
			qw := quotedprintable.NewWriter(&b)
			if gen.IntRange(0, 4).Draw(w.t) == 0 {
				qw.Binary = true
			}
			_, _ = qw.Write([]byte(text))
			_ = qw.Close()
			return strings.ReplaceAll(b.String(), "\r\n", w.nl)
		}
	case "base64":
		return w.base64Lines([]byte(text))
	}
	return strings.Join(lines, w.nl)
}

// base64Lines encodes data in base64, in lines of 76 characters (RFC
// 2045), of 64, or on one line.
func (w *mailWriter) base64Lines(data []byte) string {
	s := base64.StdEncoding.EncodeToString(data)
	width := gen.Tokens("76", "76", "76", "64", "none").Draw(w.t)
	if width == "none" || s == "" {
		return s
	}
	n := 76
	if width == "64" {
		n = 64
	}
	var lines []string
	for len(s) > n {
		lines = append(lines, s[:n])
		s = s[n:]
	}
	return strings.Join(append(lines, s), w.nl)
}

// encodeBinary encodes attachment bytes for a transfer encoding.
func (w *mailWriter) encodeBinary(data []byte, cte string) string {
	switch strings.ToLower(cte) {
	case "base64", "":
		return w.base64Lines(data)
	case "quoted-printable":
		var b bytes.Buffer
		qw := quotedprintable.NewWriter(&b)
		qw.Binary = true
		_, _ = qw.Write(data)
		_ = qw.Close()
		return strings.ReplaceAll(b.String(), "\r\n", w.nl)
	}
	return string(data)
}

// word encodes s as an RFC 2047 encoded word now and then ("B" or "Q",
// in UTF-8), else returns it as is.
func (w *mailWriter) word(s string) string {
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0:
		return mime.BEncoding.Encode("UTF-8", s)
	case 1:
		return mime.QEncoding.Encode(gen.Tokens("utf-8", "UTF-8").Draw(w.t), s)
	}
	return s
}

// address draws a mailbox: an address, a display name with an address
// (plain, quoted, encoded), an address with a comment, or a group.
func (w *mailWriter) address() string {
	addr := mailLocals.Draw(w.t) + "@" + mailDomains.Draw(w.t)
	switch gen.IntRange(0, 7).Draw(w.t) {
	case 0, 1:
		return addr
	case 2:
		return "<" + addr + ">"
	case 3:
		return `"` + mailNames.Draw(w.t) + `" <` + addr + ">"
	case 4:
		return addr + " (" + mailNames.Draw(w.t) + ")"
	case 5:
		return gen.Tokens("undisclosed-recipients:;", "Team: "+addr+", "+addr+";").Draw(w.t)
	}
	name := mailNames.Draw(w.t)
	if strings.ContainsAny(name, ",'") {
		name = `"` + name + `"`
	}
	return w.word(name) + " <" + addr + ">"
}

// header writes a header field, folded at spaces when long, or now and
// then anyway, with a space or a tab.
func (w *mailWriter) header(name, value string) {
	line := name + ": " + value
	if len(line) > 78 || gen.IntRange(0, 19).Draw(w.t) == 0 {
		indent := gen.Tokens(" ", "\t", "        ").Draw(w.t)
		parts := wrap(line, 76)
		line = strings.Join(parts, w.nl+indent)
	}
	w.b.WriteString(line + w.nl)
}

// headerName spells a field name as RFC 5322 writes it or, now and then,
// in another case (names are case-insensitive).
func (w *mailWriter) headerName(name string) string {
	switch gen.IntRange(0, 19).Draw(w.t) {
	case 0:
		return strings.ToLower(name)
	case 1:
		return strings.ToUpper(name)
	}
	return name
}

// param writes one Content-Type or Content-Disposition parameter: a
// token, a quoted string, or an RFC 2231 extended value (with a charset,
// percent-encoded, or split in sections).
func (w *mailWriter) param(name, value string) string {
	token := value != "" && !strings.ContainsAny(value, " ()<>@,;:\\\"/[]?=\t'") && isASCII(value)
	switch {
	case !isASCII(value) && gen.Bool().Draw(w.t):
		var b strings.Builder
		for i := 0; i < len(value); i++ {
			c := value[i]
			if c < 0x80 && c > ' ' && !strings.ContainsRune("*'%()<>@,;:\\\"/[]?=", rune(c)) {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		return name + "*=utf-8''" + b.String()
	case len(value) > 6 && gen.IntRange(0, 5).Draw(w.t) == 0:
		half := len(value) / 2
		return name + `*0="` + value[:half] + `";` + w.nl + "\t" + name + `*1="` + value[half:] + `"`
	case token && gen.Bool().Draw(w.t):
		return name + "=" + value
	case !isASCII(value) && gen.Bool().Draw(w.t):
		return name + `="` + mime.QEncoding.Encode("utf-8", value) + `"`
	}
	return name + `="` + strings.ReplaceAll(value, `"`, `\"`) + `"`
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// contentType writes a Content-Type field: the media type, in its case or
// another, and its parameters separated by ';' and blanks or line folds.
func (w *mailWriter) contentType(media string, params ...string) {
	if gen.IntRange(0, 14).Draw(w.t) == 0 {
		media = strings.ToUpper(media[:1]) + media[1:]
	}
	v := media
	for _, p := range params {
		v += gen.Tokens("; ", ";", ";"+w.nl+"\t", "; "+w.nl+" ").Draw(w.t) + p
	}
	w.b.WriteString(w.headerName("Content-Type") + ": " + v + w.nl)
}

// disposition writes a Content-Disposition field.
func (w *mailWriter) disposition(kind, file string) {
	v := kind
	if file != "" {
		v += "; " + w.param("filename", file)
	}
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		v += "; size=" + gen.Tokens("1024", "0", "42").Draw(w.t) + "; creation-date=\"" + mailDates.Draw(w.t) + "\""
	}
	w.header(w.headerName("Content-Disposition"), v)
}

// cte writes the Content-Transfer-Encoding field, unless cte is empty.
func (w *mailWriter) cte(cte string) {
	if cte != "" {
		w.header(w.headerName("Content-Transfer-Encoding"), cte)
	}
}

// textPart writes the headers and body of a text/plain or text/html part.
func (w *mailWriter) textPart(html bool) {
	var lines []string
	media := "text/plain"
	if html {
		media = "text/html"
		lines = w.htmlText()
	} else {
		lines = w.plainText()
	}
	var params []string
	if gen.IntRange(0, 5).Draw(w.t) > 0 {
		params = append(params, w.param("charset", mailCharsets.Draw(w.t)))
	}
	if !html && gen.IntRange(0, 7).Draw(w.t) == 0 {
		params = append(params, "format=flowed", "delsp=yes")
	}
	w.contentType(media, params...)
	cte := mailTextCTE.Draw(w.t)
	w.cte(cte)
	if gen.IntRange(0, 7).Draw(w.t) == 0 {
		w.disposition("inline", "")
	}
	w.b.WriteString(w.nl)
	w.b.WriteString(w.encodeText(lines, cte))
}

// attachment writes a part holding a file: a media type, a name, a
// disposition, an encoded body.
func (w *mailWriter) attachment(inline bool) {
	file := mailFiles.Draw(w.t)
	media := gen.Tokens("application/pdf", "image/png", "image/jpeg", "application/octet-stream", "text/csv",
		"text/calendar", "application/zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document").Draw(w.t)
	var params []string
	if file != "" && gen.Bool().Draw(w.t) {
		params = append(params, w.param("name", file))
	}
	if media == "text/calendar" {
		params = append(params, "method=REQUEST", w.param("charset", "UTF-8"))
	}
	w.contentType(media, params...)
	cte := mailBinaryCTE.Draw(w.t)
	w.cte(cte)
	if inline {
		w.header(w.headerName("Content-ID"), "<image001.png@01D0>")
	}
	if gen.IntRange(0, 5).Draw(w.t) > 0 {
		kind := "attachment"
		if inline {
			kind = "inline"
		}
		w.disposition(kind, file)
	}
	if gen.IntRange(0, 9).Draw(w.t) == 0 {
		w.header("Content-Description", w.word(file))
	}
	w.b.WriteString(w.nl)
	w.b.WriteString(w.encodeBinary(w.attachmentData(), cte))
}

// multipart writes a multipart entity of a subtype: its Content-Type with
// the boundary, a preamble now and then, its body parts each after a
// delimiter line, the close delimiter, now and then an epilogue.
func (w *mailWriter) multipart(sub string, depth int) {
	boundary := mailBoundaries.Draw(w.t)
	if depth > 0 { // a nested boundary is no prefix of its parent's (RFC 2046 5.1.1)
		boundary = fmt.Sprint(depth) + "." + boundary
	}
	params := []string{w.param("boundary", boundary)}
	switch sub {
	case "related":
		params = append(params, `type="text/html"`)
	case "signed":
		params = append(params, `protocol="application/pgp-signature"`, "micalg=pgp-sha256")
	case "report":
		params = append(params, "report-type=delivery-status")
	}
	w.contentType("multipart/"+sub, params...)
	w.b.WriteString(w.nl)
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		w.b.WriteString(gen.Tokens("This is a multi-part message in MIME format.", "This is a MIME-encapsulated message", "").Draw(w.t) + w.nl + w.nl)
	}
	var kinds []string
	switch sub {
	case "alternative":
		kinds = []string{"text", "html"}
		if gen.IntRange(0, 5).Draw(w.t) == 0 {
			kinds = []string{"text"}
		}
	case "related":
		kinds = []string{"html"}
		for range gen.IntRange(1, 2).Draw(w.t) {
			kinds = append(kinds, "inline")
		}
	case "signed":
		kinds = []string{gen.Tokens("text", "mixed", "alternative").Draw(w.t), "signature"}
	case "report":
		kinds = []string{"text", "status", "message"}
	default: // mixed, digest
		first := gen.Tokens("text", "text", "html", "alternative", "related").Draw(w.t)
		kinds = []string{first}
		for range gen.IntRange(0, w.cfg.MaxParts-1).Draw(w.t) {
			kinds = append(kinds, gen.Tokens("attachment", "attachment", "attachment", "inline", "text", "message", "mixed").Draw(w.t))
		}
	}
	for _, k := range kinds {
		w.b.WriteString("--" + boundary + gen.Tokens("", "", "", " ", "\t").Draw(w.t) + w.nl)
		w.part(k, depth+1)
		w.b.WriteString(w.nl)
	}
	w.b.WriteString("--" + boundary + "--")
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0:
	case 1:
		w.b.WriteString(w.nl + w.nl + gen.Tokens("This is the epilogue.", "").Draw(w.t) + w.nl)
	default:
		w.b.WriteString(w.nl)
	}
}

// part writes a body part of a kind; past MaxDepth a multipart or a
// message becomes a text part.
func (w *mailWriter) part(kind string, depth int) {
	if depth >= w.cfg.MaxDepth && (kind == "mixed" || kind == "alternative" || kind == "related" || kind == "message") {
		kind = "text"
	}
	switch kind {
	case "text":
		w.textPart(false)
	case "html":
		w.textPart(true)
	case "attachment":
		w.attachment(false)
	case "inline":
		w.attachment(true)
	case "mixed", "alternative", "related":
		w.multipart(kind, depth)
	case "signature":
		w.contentType("application/pgp-signature", `name="signature.asc"`)
		w.b.WriteString(w.nl + "-----BEGIN PGP SIGNATURE-----" + w.nl + w.nl + w.base64Lines(gen.BytesRange(16, 90).Draw(w.t)) + w.nl + "-----END PGP SIGNATURE-----" + w.nl)
	case "status":
		w.contentType("message/delivery-status")
		w.b.WriteString(w.nl + "Reporting-MTA: dns; mx.example.com" + w.nl + w.nl + "Final-Recipient: rfc822; " + mailLocals.Draw(w.t) + "@" + mailDomains.Draw(w.t) + w.nl +
			"Action: failed" + w.nl + "Status: 5.1.1" + w.nl)
	case "message":
		w.contentType("message/rfc822")
		w.cte(gen.Tokens("", "7bit", "8bit").Draw(w.t))
		w.b.WriteString(w.nl)
		w.message(depth + 1)
	}
}

// message writes a whole message: the header fields of RFC 5322 (trace
// fields, originator and destination addresses, identification,
// informational fields, extension fields) and, most of the time, the
// MIME fields and a MIME body; otherwise a plain text body.
func (w *mailWriter) message(depth int) {
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		w.header("Received", "from mx.example.com (mx.example.com [192.0.2.1]) by mail.example.org (Postfix) with ESMTP id 4F3A2; "+mailDates.Draw(w.t))
	}
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		w.header("Return-Path", "<"+mailLocals.Draw(w.t)+"@"+mailDomains.Draw(w.t)+">")
	}
	type field struct{ name, value string }
	fields := []field{
		{"Date", mailDates.Draw(w.t)},
		{"From", w.address()},
		{"Subject", w.word(mailSubjects.Draw(w.t))},
	}
	to := []string{w.address()}
	for range gen.IntRange(0, 2).Draw(w.t) {
		to = append(to, w.address())
	}
	fields = append(fields, field{"To", strings.Join(to, ", ")})
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		fields = append(fields, field{"Cc", w.address()})
	}
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		fields = append(fields, field{"Reply-To", w.address()})
	}
	if gen.IntRange(0, 9).Draw(w.t) == 0 {
		fields = append(fields, field{"Sender", w.address()})
	}
	if gen.IntRange(0, 2).Draw(w.t) > 0 {
		fields = append(fields, field{"Message-ID", "<" + gen.StringFrom("0123456789abcdef.", 4, 20).Draw(w.t) + "@" + mailDomains.Draw(w.t) + ">"})
	}
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		fields = append(fields, field{"In-Reply-To", "<1234@example.com>"}, field{"References", "<1234@example.com> <5678@example.org>"})
	}
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		fields = append(fields, field{gen.Tokens("X-Mailer", "User-Agent", "X-Priority", "List-Unsubscribe", "X-Spam-Status").Draw(w.t),
			gen.Tokens("Apple Mail (2.3445)", "Mozilla Thunderbird", "3", "<mailto:unsub@example.com>, <https://example.com/u?id=1>", "No, score=-1.0").Draw(w.t)})
	}
	for i := range fields { // the order of the fields is free (RFC 5322 3.6)
		j := gen.IntRange(i, len(fields)-1).Draw(w.t)
		fields[i], fields[j] = fields[j], fields[i]
	}
	for _, f := range fields {
		w.header(w.headerName(f.name), f.value)
	}
	if gen.IntRange(0, 7).Draw(w.t) == 0 { // no MIME: a plain text body
		w.b.WriteString(w.nl)
		w.b.WriteString(strings.Join(w.plainText(), w.nl) + w.nl)
		return
	}
	w.header("MIME-Version", gen.Tokens("1.0", "1.0", "1.0 (Mac OS X Mail 8.2)").Draw(w.t))
	if depth >= w.cfg.MaxDepth {
		w.textPart(false)
		return
	}
	switch gen.IntRange(0, 9).Draw(w.t) {
	case 0, 1:
		w.textPart(false)
	case 2:
		w.textPart(true)
	case 3:
		w.attachment(false)
	case 4, 5:
		w.multipart("alternative", depth)
	case 6:
		w.multipart("related", depth)
	case 7:
		w.multipart(gen.Tokens("signed", "report", "digest").Draw(w.t), depth)
	default:
		w.multipart("mixed", depth)
	}
	if gen.Bool().Draw(w.t) {
		w.b.WriteString(w.nl)
	}
}

// Mail generates Internet messages (RFC 5322) with MIME bodies (RFC
// 2045-2049), as mail servers receive and store them: header fields in
// any order (dates, addresses with display names, quoted, encoded as RFC
// 2047 words, comments and groups; subjects; message IDs; trace and
// extension fields), folded with spaces or tabs, names in any case; then
// a single-part body (text/plain, text/html, an attachment) or a
// multipart (mixed, alternative, related, signed, report, digest) nested
// up to MaxDepth, with message/rfc822 parts holding whole messages. Text
// parts declare charsets and transfer encodings; a body is encoded as an
// encoder writes it (quoted-printable lines of at most 76 characters,
// base64 lines of 76), or as the malformed mail that tolerant parsers
// meet is (quoted-printable escaped without soft line breaks, or text
// under the label without encoding, base64 on one line). Parameters are
// tokens, quoted strings or RFC 2231 values; file names may be
// non-ASCII. Lines end in CRLF, or LF in a quarter of the messages (mbox
// and maildir files). MistakesPer per mille go through Corrupt.
func Mail(cfg MailConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &mailWriter{t: t, cfg: cfg, nl: "\r\n"}
		if gen.IntRange(0, 3).Draw(t) == 0 {
			w.nl = "\n"
		}
		w.message(0)
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	})
}
