package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// ZoneConfig tunes ZoneFile.
type ZoneConfig struct {
	MaxRecords  int // record and directive lines after the zone's head; default 12
	MistakesPer int // per mille of zones passed through Corrupt; default 0
}

func (c ZoneConfig) withDefaults() ZoneConfig {
	if c.MaxRecords <= 0 {
		c.MaxRecords = 12
	}
	return c
}

const (
	zoneHex    = "0123456789abcdef"
	zoneBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)

var (
	zoneLabel = gen.OneOfWeighted(
		gen.W(8, gen.Tokens("www", "mail", "ns1", "ns2", "ftp", "api", "host", "srv", "a", "b-1", "_sip", "_tcp",
			"_udp", "_dmarc", "_domainkey", "selector1", "_443", "_acme-challenge", "cdn", "xn--bcher-kva")),
		gen.W(3, gen.StringFrom("abcdefxyz0129-", 1, 12)),
		gen.W(1, gen.Tokens(`a\.b`, `\065bc`, `x\ y`, `sp\032ace`, "UPPER", "63-"+strings.Repeat("x", 60))),
	)
	// zoneTTL draws a TTL: seconds, or BIND's unit form (1h30m, 2d, 1w).
	zoneTTL = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("300", "3600", "86400", "60", "0", "604800", "2147483647", "1800", "7200")),
		gen.W(3, gen.Custom(func(t *gfz.T) string {
			var b strings.Builder
			for range gen.IntRange(1, 3).Draw(t) {
				b.WriteString(itoa(gen.IntRange(1, 90).Draw(t)))
				b.WriteString(gen.Tokens("s", "m", "h", "d", "w", "H", "M", "D", "W").Draw(t))
			}
			return b.String()
		})),
		gen.W(1, gen.Map(gen.IntRange(0, 1<<32), itoa)),
	)
	zoneClass = gen.OneOfWeighted(gen.W(10, gen.Just("IN")), gen.W(1, gen.Tokens("CH", "HS", "CLASS1", "in", "ANY", "NONE", "CLASS255")))
	zoneSpace = gen.OneOfWeighted(gen.W(8, gen.Just(" ")), gen.W(3, gen.Just("\t")), gen.W(1, gen.Tokens("  ", "\t\t", " \t")))
	// zoneTextChar draws one character of a character string: text,
	// the punctuation of mail and web records, or an escape (\" \\ \;
	// \DDD, an escaped letter).
	zoneTextChar = gen.OneOfWeighted(
		gen.W(20, gen.StringFrom("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789", 1, 1)),
		gen.W(4, gen.StringFrom("=:;.,-_/@+!~*'%?&#()[]{}", 1, 1)),
		gen.W(2, gen.Tokens(`\"`, `\\`, `\;`, `\032`, `\255`, `\000`, `\t`, `\(`)),
		gen.W(1, gen.Tokens("é", "ü", "€")),
	)
	zoneWordChar = gen.OneOfWeighted(
		gen.W(20, gen.StringFrom("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789=:.,-_/@+!~*'%?&#", 1, 1)),
		gen.W(2, gen.Tokens(`\"`, `\\`, `\;`, `\032`, `\ `, `\(`, `\)`, `\065`)),
	)
	zoneTXTRecords = gen.Tokens(
		"v=spf1 ip4:192.0.2.0/24 include:_spf.example.com ~all",
		"v=spf1 mx a -all",
		"v=DMARC1; p=quarantine; rua=mailto:dmarc@example.org; pct=100",
		"google-site-verification=rXOxyZounnZasA8Z7oaD3c14JdjS9aKSWvsR1EbUSIQ",
		"MS=ms12345678",
		"v=STSv1; id=20190429T010101;",
	)
	zoneTypes = gen.OneOfWeighted(
		gen.W(30, gen.Tokens("A", "AAAA", "NS", "CNAME", "MX", "TXT", "SRV", "PTR", "CAA", "SOA")),
		gen.W(10, gen.Tokens("SPF", "DNAME", "NAPTR", "HINFO", "SSHFP", "TLSA", "DS", "DNSKEY", "LOC", "URI",
			"SVCB", "HTTPS", "RP", "AFSDB", "APL", "NSEC", "CERT", "CDS", "SMIMEA", "OPENPGPKEY", "AVC", "NINFO")),
		gen.W(2, gen.Tokens("generic", "a", "Mx", "TYPE65280")),
	)
)

type zoneWriter struct {
	t   *gfz.T
	cfg ZoneConfig
	b   strings.Builder
}

func (w *zoneWriter) sp() string { return zoneSpace.Draw(w.t) }

// name draws a domain name: relative to the origin (one to three labels),
// absolute (in the zone or another one), @ (the origin) or the root.
func (w *zoneWriter) name() string {
	k := gen.IntRange(0, 11).Draw(w.t)
	switch {
	case k < 6 || k == 10:
		var parts []string
		if k == 10 {
			parts = append(parts, "*")
		}
		for range gen.IntRange(1, 3).Draw(w.t) {
			parts = append(parts, zoneLabel.Draw(w.t))
		}
		return join(parts, ".")
	case k < 9:
		var parts []string
		for range gen.IntRange(0, 2).Draw(w.t) {
			parts = append(parts, zoneLabel.Draw(w.t))
		}
		parts = append(parts, gen.Tokens("example.org.", "example.net.", "example.com.", "org.").Draw(w.t))
		return join(parts, ".")
	case k == 9:
		return "@"
	default:
		return "."
	}
}

func (w *zoneWriter) num(lo, hi int) string { return itoa(gen.IntRange(lo, hi).Draw(w.t)) }

func (w *zoneWriter) ipv4() string {
	return w.num(0, 255) + "." + w.num(0, 255) + "." + w.num(0, 255) + "." + w.num(0, 255)
}

func (w *zoneWriter) ipv6() string {
	if gen.Bool().Draw(w.t) {
		return gen.Tokens("2001:db8::1", "::1", "fe80::1:2", "2001:db8:0:0:1:0:0:1", "::ffff:192.0.2.1", "2001:DB8:85A3::8A2E:370:7334", "::").Draw(w.t)
	}
	var groups []string
	for range gen.IntRange(1, 8).Draw(w.t) {
		groups = append(groups, gen.StringFrom(zoneHex, 1, 4).Draw(w.t))
	}
	if len(groups) < 8 {
		return "2001:db8::" + join(groups[:min(len(groups), 6)], ":")
	}
	return join(groups, ":")
}

func (w *zoneWriter) hex(lo, hi int) string {
	n := gen.IntRange(lo, hi).Draw(w.t)
	return gen.StringFrom(zoneHex, 2*n, 2*n).Draw(w.t)
}

// base64 draws base64 text of n groups of four characters, the last one
// sometimes padded.
func (w *zoneWriter) base64(lo, hi int) string {
	n := gen.IntRange(lo, hi).Draw(w.t)
	s := gen.StringFrom(zoneBase64, 4*n, 4*n).Draw(w.t)
	if n > 0 {
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0:
			s = s[:len(s)-1] + "="
		case 1:
			s = s[:len(s)-2] + "=="
		}
	}
	return s
}

// text draws the content of a character string: usually short, sometimes
// long (up to 400 characters, as long SPF records and DKIM keys are).
func (w *zoneWriter) text(quoted bool) string {
	n := gen.IntRange(0, 24).Draw(w.t)
	if gen.IntRange(0, 7).Draw(w.t) == 0 {
		n = gen.IntRange(25, 400).Draw(w.t)
	}
	chars := zoneTextChar
	if !quoted {
		chars = zoneWordChar
		n = max(n, 1)
	}
	var b strings.Builder
	for range n {
		b.WriteString(chars.Draw(w.t))
	}
	return b.String()
}

// charString draws one character string, quoted (the common form) or a
// bare word.
func (w *zoneWriter) charString() string {
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		return w.text(false)
	}
	return `"` + w.text(true) + `"`
}

// txt draws the data of a TXT-like record: one or more character
// strings, from well-known records (SPF, DMARC, DKIM with a public key of
// a drawn size, verification tokens) or drawn text, sometimes in
// parentheses over several lines.
func (w *zoneWriter) txt() string {
	var parts []string
	for range gen.IntRange(1, 3).Draw(w.t) {
		switch gen.IntRange(0, 9).Draw(w.t) {
		case 0, 1:
			parts = append(parts, `"`+zoneTXTRecords.Draw(w.t)+`"`)
		case 2, 3:
			key := w.base64(10, 100)
			if gen.Bool().Draw(w.t) {
				parts = append(parts, `"v=DKIM1; k=rsa; p=`+key+`"`)
			} else {
				// the key split in strings of at most 255 bytes, as signers publish it
				head := `"v=DKIM1; k=rsa; "`
				for len(key) > 0 {
					n := min(len(key), gen.IntRange(64, 255).Draw(w.t))
					head += w.sp() + `"` + key[:n] + `"`
					key = key[n:]
				}
				parts = append(parts, head)
			}
		default:
			parts = append(parts, w.charString())
		}
	}
	if len(parts) > 1 && gen.IntRange(0, 3).Draw(w.t) == 0 {
		return "( " + join(parts, "\n"+w.sp()) + " )"
	}
	return join(parts, w.sp())
}

func (w *zoneWriter) loc() string {
	lat := w.num(0, 90) + " " + w.num(0, 59) + " " + w.num(0, 59) + "." + w.num(0, 999) + " " + gen.Tokens("N", "S").Draw(w.t)
	long := w.num(0, 180) + " " + w.num(0, 59) + " " + w.num(0, 59) + " " + gen.Tokens("E", "W").Draw(w.t)
	if gen.Bool().Draw(w.t) {
		lat = w.num(0, 90) + " " + gen.Tokens("N", "S").Draw(w.t)
	}
	s := lat + " " + long + " " + gen.Tokens("-2.00m", "10m", "0", "100.5m", "-100000.00m").Draw(w.t)
	for range gen.IntRange(0, 3).Draw(w.t) {
		s += " " + gen.Tokens("1m", "10000m", "10m", "0.00m", "90000000m").Draw(w.t)
	}
	return s
}

func (w *zoneWriter) svcParams() string {
	var ps []string
	for range gen.IntRange(0, 4).Draw(w.t) {
		switch gen.IntRange(0, 8).Draw(w.t) {
		case 0:
			ps = append(ps, "alpn="+gen.Tokens("h2", "h3", "h2,h3", `"h2,http/1.1"`, `h3\,x`).Draw(w.t))
		case 1:
			ps = append(ps, "port="+w.num(0, 65535))
		case 2:
			ps = append(ps, "ipv4hint="+w.ipv4())
		case 3:
			ps = append(ps, "ipv6hint="+w.ipv6())
		case 4:
			ps = append(ps, "ech="+w.base64(1, 12))
		case 5:
			ps = append(ps, "mandatory="+gen.Tokens("alpn", "port", "alpn,ipv4hint", "key65333").Draw(w.t))
		case 6:
			ps = append(ps, "no-default-alpn")
		case 7:
			ps = append(ps, "dohpath="+gen.Tokens(`/dns-query{?dns}`, `"/q{?dns}"`).Draw(w.t))
		default:
			ps = append(ps, "key"+w.num(7, 65534)+"="+w.text(false))
		}
	}
	return join(ps, " ")
}

// rdata draws the data of a record of type typ in its presentation format.
func (w *zoneWriter) rdata(typ string) string {
	s := w.sp()
	switch strings.ToUpper(typ) {
	case "A":
		return w.ipv4()
	case "AAAA":
		return w.ipv6()
	case "NS", "CNAME", "PTR", "DNAME":
		return w.name()
	case "MX":
		return w.num(0, 65535) + s + w.name()
	case "SOA":
		times := []string{w.num(1, 1<<31), zoneTTL.Draw(w.t), zoneTTL.Draw(w.t), zoneTTL.Draw(w.t), zoneTTL.Draw(w.t)}
		if gen.Bool().Draw(w.t) {
			times[0] = "20" + w.num(10, 26) + "0" + w.num(1, 9) + "1" + w.num(0, 9) + "0" + w.num(1, 9)
		}
		if gen.IntRange(0, 2).Draw(w.t) > 0 {
			// the usual layout: one field a line, with comments
			return w.name() + s + w.name() + " (\n" + s + times[0] + " ; serial\n" + s + times[1] + " ; refresh\n" +
				s + times[2] + " ; retry\n" + s + times[3] + " ; expire\n" + s + times[4] + " ) ; minimum"
		}
		return w.name() + s + w.name() + s + join(times, s)
	case "TXT", "SPF", "AVC", "NINFO":
		return w.txt()
	case "SRV":
		return w.num(0, 65535) + s + w.num(0, 65535) + s + gen.Tokens("443", "5060", "80", "0", "65535").Draw(w.t) + s + w.name()
	case "CAA":
		tag := gen.Tokens("issue", "issuewild", "iodef", "contactemail", "tbs").Draw(w.t)
		val := gen.Tokens(`"letsencrypt.org"`, `"ca.example.net; account=230123"`, `";"`, `"mailto:security@example.org"`, `""`).Draw(w.t)
		return gen.Tokens("0", "128", "1").Draw(w.t) + s + tag + s + val
	case "NAPTR":
		return w.num(0, 65535) + s + w.num(0, 65535) + s + gen.Tokens(`"U"`, `"S"`, `""`, `"a"`).Draw(w.t) + s +
			gen.Tokens(`"E2U+sip"`, `"SIP+D2U"`, `""`).Draw(w.t) + s +
			gen.Tokens(`"!^.*$!sip:info@example.org!"`, `""`, `"!^\\+44(.*)$!\\1!"`).Draw(w.t) + s + w.name()
	case "HINFO":
		return w.charString() + s + w.charString()
	case "SSHFP":
		return w.num(1, 4) + s + w.num(1, 2) + s + w.hex(20, 32)
	case "TLSA", "SMIMEA":
		return w.num(0, 3) + s + w.num(0, 1) + s + w.num(0, 2) + s + w.hex(20, 64)
	case "DS", "CDS":
		return w.num(0, 65535) + s + gen.Tokens("8", "13", "5", "RSASHA256").Draw(w.t) + s + w.num(1, 4) + s + w.hex(20, 48)
	case "DNSKEY":
		key := w.base64(8, 60)
		if gen.Bool().Draw(w.t) {
			return gen.Tokens("256", "257").Draw(w.t) + " 3 " + gen.Tokens("8", "13", "15").Draw(w.t) + " (\n" + s + key[:len(key)/2] + "\n" + s + key[len(key)/2:] + " )"
		}
		return gen.Tokens("256", "257", "0").Draw(w.t) + s + "3" + s + gen.Tokens("8", "13", "15", "5").Draw(w.t) + s + key
	case "OPENPGPKEY":
		return w.base64(4, 60)
	case "CERT":
		return gen.Tokens("PKIX", "1", "PGP", "URI").Draw(w.t) + s + w.num(0, 65535) + s + gen.Tokens("8", "0", "RSASHA1").Draw(w.t) + s + w.base64(2, 30)
	case "LOC":
		return w.loc()
	case "URI":
		return w.num(0, 65535) + s + w.num(0, 65535) + s + gen.Tokens(`"https://www.example.org/"`, `"ftp://ftp.example.org/public"`, `""`).Draw(w.t)
	case "SVCB", "HTTPS":
		p := w.num(0, 3)
		if p == "0" {
			return p + s + w.name()
		}
		return p + s + w.name() + s + w.svcParams()
	case "RP":
		return w.name() + s + w.name()
	case "AFSDB":
		return w.num(1, 2) + s + w.name()
	case "APL":
		var ps []string
		for range gen.IntRange(0, 3).Draw(w.t) {
			neg := gen.Tokens("", "", "!").Draw(w.t)
			if gen.Bool().Draw(w.t) {
				ps = append(ps, neg+"1:"+w.ipv4()+"/"+w.num(0, 32))
			} else {
				ps = append(ps, neg+"2:"+w.ipv6()+"/"+w.num(0, 128))
			}
		}
		return join(ps, s)
	case "NSEC":
		var ts []string
		for range gen.IntRange(0, 5).Draw(w.t) {
			ts = append(ts, gen.Tokens("A", "NS", "SOA", "MX", "TXT", "AAAA", "RRSIG", "NSEC", "DNSKEY", "TYPE1234").Draw(w.t))
		}
		return w.name() + s + join(ts, " ")
	}
	// RFC 3597's generic form, for a type by number or a known type.
	data := w.hex(0, 12)
	n := len(data) / 2
	if gen.IntRange(0, 9).Draw(w.t) == 0 {
		n = gen.IntRange(0, 20).Draw(w.t)
	}
	return `\#` + s + itoa(n) + s + data
}

// record writes one resource record: owner (or blank, the previous
// owner), optional TTL and class in either order, type and data, and
// sometimes a comment.
func (w *zoneWriter) record(owner string) {
	if owner == "" {
		owner = w.sp()
	} else {
		owner += w.sp()
	}
	w.b.WriteString(owner)
	ttl, class := "", ""
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		ttl = zoneTTL.Draw(w.t) + w.sp()
	}
	if gen.IntRange(0, 2).Draw(w.t) > 0 {
		class = zoneClass.Draw(w.t) + w.sp()
	}
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		w.b.WriteString(class + ttl)
	} else {
		w.b.WriteString(ttl + class)
	}
	typ := zoneTypes.Draw(w.t)
	switch typ {
	case "generic":
		typ = gen.Tokens("TYPE"+w.num(1, 65535), "A", "MX", "TXT").Draw(w.t)
		w.b.WriteString(typ + w.sp() + w.rdata("generic"))
	default:
		w.b.WriteString(typ + w.sp() + w.rdata(typ))
	}
	if gen.IntRange(0, 5).Draw(w.t) == 0 {
		w.b.WriteString(w.sp() + "; " + gen.StringFrom("abcdefgh ()\";0123", 0, 20).Draw(w.t))
	}
	w.b.WriteString("\n")
}

// generate writes a $GENERATE directive: a small range with an optional
// step, owner and data templates with $ and ${offset,width,base}.
func (w *zoneWriter) generate() {
	lo := gen.IntRange(0, 20).Draw(w.t)
	rng := itoa(lo) + "-" + itoa(lo+gen.IntRange(0, 30).Draw(w.t))
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		rng += "/" + w.num(1, 5)
	}
	mod := gen.Tokens("$", "$", "${0,3,d}", "${1,2,x}", "${-1,0,X}", "${0,4,o}", "${2}", `\$`, "$$").Draw(w.t)
	lhs := gen.Tokens("host-", "", "a", "dyn-").Draw(w.t) + mod + gen.Tokens("", ".sub", "-x").Draw(w.t)
	typ := gen.Tokens("A", "PTR", "CNAME", "TXT", "AAAA").Draw(w.t)
	var rhs string
	switch typ {
	case "A":
		rhs = "192.0.2." + gen.Tokens("$", "${0,0,d}", "1").Draw(w.t)
	case "AAAA":
		rhs = "2001:db8::" + gen.Tokens("$", "${0,0,x}").Draw(w.t)
	case "TXT":
		rhs = `"item ` + gen.Tokens("$", "${0,3,d}").Draw(w.t) + `"`
	default:
		rhs = "host-" + gen.Tokens("$", "${0,3,d}").Draw(w.t) + gen.Tokens(".example.org.", "").Draw(w.t)
	}
	opt := ""
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		opt = zoneTTL.Draw(w.t) + " "
	}
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		opt += "IN "
	}
	w.b.WriteString("$GENERATE " + rng + " " + lhs + " " + opt + typ + " " + rhs + "\n")
}

// ZoneFile generates DNS zone files (RFC 1035 master files, as BIND and
// the DNS libraries read them): usually a head of $ORIGIN, $TTL, the SOA
// record and NS records, then records of the common types (A, AAAA, NS,
// CNAME, MX, TXT, SRV, PTR, CAA) and of many others (SPF, DNAME, NAPTR,
// HINFO, SSHFP, TLSA, DS, DNSKEY, LOC, URI, SVCB and HTTPS with their
// parameters, RP, AFSDB, APL, NSEC, CERT, generic TYPEnnn with RFC 3597's
// \# form) in presentation format; owners relative, absolute, @, wildcard
// or blank (the previous owner); TTLs with units; classes; character
// strings quoted or bare with escapes, short or long, DKIM keys whole or
// split; parentheses over several lines; comments; $ORIGIN, $TTL and
// $GENERATE directives between the records; MistakesPer per mille go
// through Corrupt.
func ZoneFile(cfg ZoneConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &zoneWriter{t: t, cfg: cfg}
		owner := ""
		if gen.IntRange(0, 3).Draw(t) > 0 {
			// the usual head of a zone
			if gen.Bool().Draw(t) {
				w.b.WriteString("$ORIGIN example.org.\n")
			}
			w.b.WriteString("$TTL " + zoneTTL.Draw(t) + "\n")
			w.b.WriteString(gen.Tokens("@", "example.org.").Draw(t) + w.sp() + "IN" + w.sp() + "SOA" + w.sp() + w.rdata("SOA") + "\n")
			for range gen.IntRange(1, 2).Draw(t) {
				w.b.WriteString(w.sp() + "IN" + w.sp() + "NS" + w.sp() + w.name() + "\n")
			}
			owner = "@"
		}
		for range gen.IntRange(1, cfg.MaxRecords).Draw(t) {
			switch k := gen.IntRange(0, 19).Draw(t); {
			case k == 0:
				w.b.WriteString("$TTL " + zoneTTL.Draw(t) + "\n")
			case k == 1:
				w.b.WriteString("$ORIGIN " + gen.Tokens("sub", "sub.example.org.", "example.org.", "example.net.").Draw(t) + "\n")
			case k == 2:
				w.generate()
			case k == 3:
				w.b.WriteString(gen.Tokens("\n", "; a comment line\n", "\t; indented comment\n").Draw(t))
			default:
				if owner == "" || gen.IntRange(0, 2).Draw(t) > 0 {
					owner = w.name()
					w.record(owner)
				} else {
					w.record("")
				}
			}
		}
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	})
}
