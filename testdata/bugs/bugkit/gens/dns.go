package gens

import (
	"encoding/binary"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// DNSConfig tunes DNSMessage.
type DNSConfig struct {
	MaxRecords  int // questions, and records per section; default 3
	MistakesPer int // per mille of messages passed through CorruptBytes; default 0
}

func (c DNSConfig) withDefaults() DNSConfig {
	if c.MaxRecords <= 0 {
		c.MaxRecords = 3
	}
	return c
}

// DNS resource record types the generator writes.
const (
	dnsA     = 1
	dnsNS    = 2
	dnsCNAME = 5
	dnsSOA   = 6
	dnsPTR   = 12
	dnsMX    = 15
	dnsTXT   = 16
	dnsAAAA  = 28
	dnsSRV   = 33
	dnsOPT   = 41
	dnsSVCB  = 64
	dnsHTTPS = 65
)

var (
	dnsLabel = gen.OneOfWeighted(
		gen.W(4, gen.Tokens("example", "com", "www", "org", "a", "mail", "_tcp", "_http", "svc", "go", "dev", "xn--nxasmq6b")),
		gen.W(1, gen.StringFrom("abz09-_", 1, 8)),
		gen.W(1, gen.Map(gen.IntRange(0, 63), func(n int) string {
			b := make([]byte, n)
			for i := range b {
				b[i] = 'a' + byte(i%26)
			}
			return string(b)
		})),
	)
	dnsQType = gen.OneOfWeighted(
		gen.W(8, gen.SampledFrom(dnsA, dnsNS, dnsCNAME, dnsSOA, dnsPTR, dnsMX, dnsTXT, dnsAAAA, dnsSRV, dnsSVCB, dnsHTTPS)),
		gen.W(1, gen.SampledFrom(255, 252, 99, 0, 65535)),
	)
	dnsRRType = gen.OneOfWeighted(
		gen.W(10, gen.SampledFrom(dnsA, dnsNS, dnsCNAME, dnsSOA, dnsPTR, dnsMX, dnsTXT, dnsAAAA, dnsSRV, dnsSVCB, dnsHTTPS)),
		gen.W(1, gen.SampledFrom(dnsOPT)),
		gen.W(1, gen.SampledFrom(99, 257, 13, 0)),
	)
	dnsClass = gen.OneOfWeighted(gen.W(8, gen.Just(1)), gen.W(1, gen.SampledFrom(3, 4, 254, 255)))
)

type dnsWriter struct {
	t     *gfz.T
	cfg   DNSConfig
	b     []byte
	names []int // offsets of names written so far (targets of compression pointers)
}

func (w *dnsWriter) u16(v int) { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *dnsWriter) u32(v uint32) {
	w.b = binary.BigEndian.AppendUint32(w.b, v)
}

// name writes a domain name: labels ending in the root label, or in a
// compression pointer to a name written before.
func (w *dnsWriter) name() {
	start := len(w.b)
	n := gen.IntRange(0, 3).Draw(w.t)
	for range n {
		l := dnsLabel.Draw(w.t)
		w.b = append(w.b, byte(len(l)))
		w.b = append(w.b, l...)
	}
	if len(w.names) > 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
		off := gen.SampledFrom(w.names...).Draw(w.t)
		w.b = append(w.b, 0xC0|byte(off>>8), byte(off))
	} else {
		w.b = append(w.b, 0)
	}
	if start < 0x3FFF {
		w.names = append(w.names, start)
	}
}

func (w *dnsWriter) bytes(lo, hi int) {
	n := gen.IntRange(lo, hi).Draw(w.t)
	for range n {
		w.b = append(w.b, byte(gen.IntRange(0, 255).Draw(w.t)))
	}
}

// charString writes a length-prefixed character string.
func (w *dnsWriter) charString() {
	s := gen.OneOf(gen.Tokens("h2", "h3", "http/1.1", "v=spf1 -all", ""), gen.StringFrom("abc =;", 0, 12)).Draw(w.t)
	w.b = append(w.b, byte(len(s)))
	w.b = append(w.b, s...)
}

// svcParams writes SvcParams in increasing key order (mandatory, alpn,
// no-default-alpn, port, ipv4hint, ech, ipv6hint, a private key).
func (w *dnsWriter) svcParams() {
	key := -1
	for range gen.IntRange(0, 4).Draw(w.t) {
		key += gen.IntRange(1, 3).Draw(w.t)
		if key > 6 {
			key = 65000 + gen.IntRange(0, 500).Draw(w.t)
		}
		w.u16(key)
		lenAt := len(w.b)
		w.u16(0)
		switch key {
		case 0: // mandatory: a list of keys
			for range gen.IntRange(1, 3).Draw(w.t) {
				w.u16(gen.IntRange(1, 6).Draw(w.t))
			}
		case 1: // alpn
			for range gen.IntRange(1, 3).Draw(w.t) {
				w.charString()
			}
		case 2: // no-default-alpn: empty
		case 3: // port
			w.u16(gen.SampledFrom(443, 8443, 53, 0).Draw(w.t))
		case 4: // ipv4hint
			for range gen.IntRange(1, 2).Draw(w.t) {
				w.bytes(4, 4)
			}
		case 6: // ipv6hint
			for range gen.IntRange(1, 2).Draw(w.t) {
				w.bytes(16, 16)
			}
		default: // ech and private keys: opaque bytes
			w.bytes(0, 12)
		}
		binary.BigEndian.PutUint16(w.b[lenAt:], uint16(len(w.b)-lenAt-2))
		if key >= 65000 {
			break
		}
	}
}

// rdata writes the data of a record of type typ.
func (w *dnsWriter) rdata(typ int) {
	switch typ {
	case dnsA:
		w.bytes(4, 4)
	case dnsAAAA:
		w.bytes(16, 16)
	case dnsNS, dnsCNAME, dnsPTR:
		w.name()
	case dnsSOA:
		w.name()
		w.name()
		for range 5 {
			w.u32(uint32(gen.IntRange(0, 1<<20).Draw(w.t)))
		}
	case dnsMX:
		w.u16(gen.IntRange(0, 50).Draw(w.t))
		w.name()
	case dnsTXT:
		for range gen.IntRange(1, 3).Draw(w.t) {
			w.charString()
		}
	case dnsSRV:
		w.u16(gen.IntRange(0, 10).Draw(w.t))
		w.u16(gen.IntRange(0, 10).Draw(w.t))
		w.u16(gen.SampledFrom(443, 80, 5060).Draw(w.t))
		w.name()
	case dnsOPT:
		for range gen.IntRange(0, 2).Draw(w.t) {
			w.u16(gen.SampledFrom(8, 10, 12, 15, 65001).Draw(w.t))
			lenAt := len(w.b)
			w.u16(0)
			w.bytes(0, 8)
			binary.BigEndian.PutUint16(w.b[lenAt:], uint16(len(w.b)-lenAt-2))
		}
	case dnsSVCB, dnsHTTPS:
		w.u16(gen.IntRange(0, 3).Draw(w.t)) // priority; 0 is alias mode
		w.name()
		w.svcParams()
	default:
		w.bytes(0, 10)
	}
}

// record writes a resource record with its data length.
func (w *dnsWriter) record() {
	typ := dnsRRType.Draw(w.t)
	if typ == dnsOPT {
		w.b = append(w.b, 0) // the root name
	} else {
		w.name()
	}
	w.u16(typ)
	if typ == dnsOPT {
		w.u16(gen.SampledFrom(512, 1232, 4096).Draw(w.t))
		w.u32(uint32(gen.IntRange(0, 1).Draw(w.t)) << 15)
	} else {
		w.u16(dnsClass.Draw(w.t))
		w.u32(uint32(gen.IntRange(0, 86400).Draw(w.t)))
	}
	lenAt := len(w.b)
	w.u16(0)
	w.rdata(typ)
	binary.BigEndian.PutUint16(w.b[lenAt:], uint16(len(w.b)-lenAt-2))
}

// DNSMessage generates DNS messages in wire format: a header (drawn id,
// flags, opcode and rcode; counts that match the sections), questions,
// and answer, authority and additional records of the common types (A,
// AAAA, NS, CNAME, PTR, SOA, MX, TXT, SRV, OPT, SVCB and HTTPS with their
// SvcParams, unknown types) with correct data lengths and compressed
// names; MistakesPer per mille of them go through CorruptBytes.
func DNSMessage(cfg DNSConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		w := &dnsWriter{t: t, cfg: cfg}
		w.u16(gen.IntRange(0, 65535).Draw(t))
		w.u16(gen.IntRange(0, 65535).Draw(t) &^ 0x0040) // flags; Z bit clear
		var counts [4]int
		for i := range counts {
			counts[i] = gen.IntRange(0, cfg.MaxRecords).Draw(t)
			w.u16(counts[i])
		}
		for range counts[0] {
			w.name()
			w.u16(dnsQType.Draw(t))
			w.u16(dnsClass.Draw(t))
		}
		for _, n := range counts[1:] {
			for range n {
				w.record()
			}
		}
		return CorruptBytes(t, w.b, cfg.MistakesPer)
	})
}

// CorruptBytes is Corrupt for binary formats: b or, perMille times in a
// thousand, b with one to three edits at drawn positions: cut the rest,
// set a byte to a drawn value, insert a drawn byte, delete a span of up
// to 4 bytes, or repeat a span of up to 8 bytes.
func CorruptBytes(t *gfz.T, b []byte, perMille int) []byte {
	if gen.IntRange(0, 999).Draw(t) >= perMille {
		return b
	}
	for range gen.IntRange(1, 3).Draw(t) {
		pos := gen.IntRange(0, len(b)).Draw(t)
		switch gen.IntRange(0, 4).Draw(t) {
		case 0:
			b = b[:pos]
		case 1:
			if pos < len(b) {
				b[pos] = byte(gen.IntRange(0, 255).Draw(t))
			}
		case 2:
			b = append(b[:pos:pos], append([]byte{byte(gen.IntRange(0, 255).Draw(t))}, b[pos:]...)...)
		case 3:
			end := min(len(b), pos+gen.IntRange(1, 4).Draw(t))
			b = append(b[:pos:pos], b[end:]...)
		case 4:
			end := min(len(b), pos+gen.IntRange(1, 8).Draw(t))
			span := append([]byte(nil), b[pos:end]...)
			b = append(b[:end:end], append(span, b[end:]...)...)
		}
	}
	return b
}
