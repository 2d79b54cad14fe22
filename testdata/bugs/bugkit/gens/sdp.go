package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// SDPConfig tunes SDP.
type SDPConfig struct {
	MaxMedia    int // media descriptions (m= sections); default 4
	MistakesPer int // per mille of descriptions passed through Corrupt; default 0
}

func (c SDPConfig) withDefaults() SDPConfig {
	if c.MaxMedia <= 0 {
		c.MaxMedia = 4
	}
	return c
}

// sdpCodec is an RTP payload format: its payload type, the rtpmap
// encoding (name/clock rate[/channels]), format parameters and whether
// it takes RTCP feedback.
type sdpCodec struct {
	pt       int
	encoding string
	fmtp     string
	feedback bool
}

// The payload formats of each media type: static payload types of the
// RTP audio/video profile (RFC 3551) and the dynamic ones browsers offer.
var (
	sdpAudioCodecs = []sdpCodec{
		{111, "opus/48000/2", "minptime=10;useinbandfec=1", true},
		{63, "red/48000/2", "111/111", false},
		{9, "G722/8000", "", false},
		{0, "PCMU/8000", "", false},
		{8, "PCMA/8000", "", false},
		{18, "G729/8000", "annexb=no", false},
		{3, "GSM/8000", "", false},
		{97, "iLBC/8000", "", false},
		{103, "ISAC/16000", "", false},
		{13, "CN/8000", "", false},
		{110, "telephone-event/48000", "0-15", false},
		{101, "telephone-event/8000", "0-16", false},
	}
	sdpVideoCodecs = []sdpCodec{
		{96, "VP8/90000", "", true},
		{97, "rtx/90000", "apt=96", false},
		{98, "VP9/90000", "profile-id=0", true},
		{99, "rtx/90000", "apt=98", false},
		{102, "H264/90000", "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f", true},
		{125, "H264/90000", "level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f", true},
		{45, "AV1/90000", "level-idx=5;profile=0;tier=0", true},
		{116, "red/90000", "", false},
		{117, "ulpfec/90000", "", false},
		{31, "H261/90000", "", false},
		{34, "H263/90000", "", false},
		{32, "MPV/90000", "", false},
	}
	sdpTextCodecs = []sdpCodec{
		{98, "t140/1000", "cps=30", false},
		{100, "red/1000", "98/98/98", false},
	}
)

var (
	sdpUsernames = gen.Tokens("-", "jdoe", "alice", "bob", "mozilla...THIS_IS_SDPARTA-99.0", "user_1")
	sdpIPv4      = gen.Tokens("10.47.16.5", "192.0.2.1", "198.51.100.7", "203.0.113.40", "127.0.0.1", "0.0.0.0", "172.16.0.12", "192.168.1.20")
	sdpIPv6      = gen.Tokens("2001:db8::1", "::1", "fe80::1c2a:3bff:fe4d:5e6f", "2001:DB8:85A3::8A2E:370:7334", "::")
	sdpHosts     = gen.Tokens("host.example.com", "pc33.example.org", "a1b2c3d4-e5f6-7890-abcd-ef0123456789.local", "media.example.net")
	sdpMcast4    = gen.Tokens("224.2.17.12/127", "224.2.36.42/127", "224.2.1.1/127/3", "233.252.0.1/64", "239.255.255.250/1")
	sdpMcast6    = gen.Tokens("FF15::101/3", "ff0e::db8:0:1", "FF1E:03AD::7F2E:172A:1E24/2")
	sdpText      = gen.Tokens("SDP Seminar", "-", " ", "A Seminar on the session description protocol", "Call with Bob",
		"Talk about SDP", "audio", "Main video feed", "webrtc session", "Tëst séance", "Pointless session")
	sdpURIs = gen.Tokens("http://www.example.com/seminars/sdp.pdf", "https://example.org/talk", "http://www.example.com/x?y=1#z",
		"urn:example:session", "sip:alice@example.com")
	sdpEmails = gen.Tokens("j.doe@example.com (Jane Doe)", "Jane Doe <j.doe@example.com>", "mjh@isi.edu (Mark Handley)", "alice@example.org")
	sdpPhones = gen.Tokens("+1 617 555-6011", "+44-171-380-7777 (Mark Handley)", "Jane Doe <+1 617 555-6011>", "+33 1 23 45 67 89")
	sdpBwType = gen.OneOfWeighted(gen.W(8, gen.Tokens("AS", "CT", "TIAS", "RS", "RR")), gen.W(1, gen.Tokens("X-YZ", "X-AT")))
	sdpKeys   = gen.Tokens("prompt", "clear:secret", "base64:MTIzNDU2Nzg5MA==", "uri:https://keys.example.com/k1")
	sdpUnits  = gen.OneOfWeighted(gen.W(3, gen.Just("")), gen.W(2, gen.Tokens("d", "h", "m", "s")))
	sdpHex    = "0123456789ABCDEF"
	sdpAlnum  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	sdpIceCh  = sdpAlnum + "+/"
	sdpExtURI = gen.Tokens(
		"urn:ietf:params:rtp-hdrext:ssrc-audio-level",
		"urn:ietf:params:rtp-hdrext:sdes:mid",
		"urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id",
		"urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id",
		"urn:ietf:params:rtp-hdrext:toffset",
		"http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time",
		"http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01",
		"urn:3gpp:video-orientation",
		"http://www.webrtc.org/experiments/rtp-hdrext/playout-delay",
	)
	sdpFeedback    = gen.Tokens("nack", "nack pli", "ccm fir", "goog-remb", "transport-cc", "ccm tmmbr", "trr-int 100")
	sdpDirections  = gen.Tokens("sendrecv", "sendonly", "recvonly", "inactive")
	sdpSetup       = gen.Tokens("actpass", "active", "passive", "holdconn")
	sdpClassicAttr = gen.Tokens("tool:sdpgen 1.0", "type:broadcast", "type:meeting", "charset:ISO-8859-1", "sdplang:en", "lang:en",
		"orient:landscape", "cat:SDP.seminars", "keywds:SDP seminar", "ptime:20", "maxptime:60", "framerate:30", "quality:10",
		"recvonly", "sendrecv", "rtcp:53020", "rtcp:53020 IN IP4 126.16.64.4")
)

type sdpWriter struct {
	t      *gfz.T
	cfg    SDPConfig
	webrtc bool
	eol    string
	b      strings.Builder
}

func (w *sdpWriter) line(typ byte, value string) {
	w.b.WriteByte(typ)
	w.b.WriteByte('=')
	w.b.WriteString(value)
	w.b.WriteString(w.eol)
}

func (w *sdpWriter) num(lo, hi int) string { return itoa(gen.IntRange(lo, hi).Draw(w.t)) }

// chance is true n times in d.
func (w *sdpWriter) chance(n, d int) bool { return gen.IntRange(0, d-1).Draw(w.t) < n }

// count draws how many times an optional repeated line occurs: 0 most
// of the time, up to hi.
func (w *sdpWriter) count(zeroIn10, hi int) int {
	if gen.IntRange(0, 9).Draw(w.t) < zeroIn10 {
		return 0
	}
	return gen.IntRange(1, hi).Draw(w.t)
}

// few draws how many times a line that is usually single occurs: 0
// zeroIn10 times in ten, else 1, and 2 one time in ten of those.
func (w *sdpWriter) few(zeroIn10 int) int {
	if gen.IntRange(0, 9).Draw(w.t) < zeroIn10 {
		return 0
	}
	if w.chance(1, 10) {
		return 2
	}
	return 1
}

// ntp draws an NTP time (seconds since 1900): ten digits, or 0.
func (w *sdpWriter) ntp() string {
	if w.chance(1, 4) {
		return "0"
	}
	return gen.Tokens("2873397496", "2873404696", "3034423619", "3042462419", "2882844526", "2898848070").Draw(w.t)
}

// typedTime draws a typed time: digits with an optional unit (d, h, m, s).
func (w *sdpWriter) typedTime(positive bool) string {
	var n string
	switch gen.IntRange(0, 3).Draw(w.t) {
	case 0:
		n = gen.Tokens("604800", "3600", "90000", "86400", "7200", "25200").Draw(w.t)
	case 1:
		n = w.num(1, 30)
	default:
		n = w.num(0, 1000)
	}
	if positive && n == "0" {
		n = "1"
	}
	return n + sdpUnits.Draw(w.t)
}

func (w *sdpWriter) ice() string  { return gen.StringFrom(sdpIceCh, 4, 8).Draw(w.t) }
func (w *sdpWriter) pwd() string  { return gen.StringFrom(sdpIceCh, 22, 32).Draw(w.t) }
func (w *sdpWriter) ssrc() string { return itoa(gen.IntRange(1, 1<<32-1).Draw(w.t)) }

func (w *sdpWriter) fingerprint() string {
	alg, n := "sha-256", 32
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0:
		alg, n = "sha-1", 20
	case 1:
		alg, n = "sha-512", 64
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = gen.StringFrom(sdpHex, 2, 2).Draw(w.t)
	}
	return "fingerprint:" + alg + " " + join(parts, ":")
}

// address draws an address type and a unicast address of it (or a host
// name).
func (w *sdpWriter) address() (string, string) {
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0:
		return "IP6", sdpIPv6.Draw(w.t)
	case 1:
		return gen.Tokens("IP4", "IP6").Draw(w.t), sdpHosts.Draw(w.t)
	default:
		return "IP4", sdpIPv4.Draw(w.t)
	}
}

// connection draws the value of a c= line: a unicast address, or a
// multicast one with its TTL and count.
func (w *sdpWriter) connection() string {
	if !w.webrtc && w.chance(1, 2) {
		if w.chance(1, 4) {
			return "IN IP6 " + sdpMcast6.Draw(w.t)
		}
		return "IN IP4 " + sdpMcast4.Draw(w.t)
	}
	at, a := w.address()
	return "IN " + at + " " + a
}

func (w *sdpWriter) bandwidth() string {
	return sdpBwType.Draw(w.t) + ":" + gen.Tokens("64", "128", "256", "512", "2000", "12345", "64000", "800", "0").Draw(w.t)
}

// timing writes a t= line and its r= lines (interval, active duration,
// offsets from the start time).
func (w *sdpWriter) timing() {
	if w.webrtc {
		w.line('t', "0 0")
	} else {
		w.line('t', w.ntp()+" "+w.ntp())
	}
	zero := 9
	if !w.webrtc {
		zero = 7
	}
	for range w.count(zero, 2) {
		fields := []string{w.typedTime(true), w.typedTime(false)}
		for range gen.IntRange(1, 3).Draw(w.t) {
			fields = append(fields, w.typedTime(false))
		}
		w.line('r', join(fields, " "))
	}
}

// zone writes a z= line: pairs of an adjustment time and an offset.
func (w *sdpWriter) zone() {
	var parts []string
	for range gen.IntRange(1, 3).Draw(w.t) {
		off := w.typedTime(false)
		if w.chance(1, 2) {
			off = "-" + off
		}
		parts = append(parts, gen.Tokens("2882844526", "2898848070", "3034423619", "3730928400").Draw(w.t)+" "+off)
	}
	w.line('z', join(parts, " "))
}

// candidate draws the value of an ICE candidate attribute (RFC 8839).
func (w *sdpWriter) candidate() string {
	var b strings.Builder
	b.WriteString("candidate:" + w.num(0, 4294967295) + " " + w.num(1, 2) + " ")
	tcp := w.chance(1, 5)
	if tcp {
		b.WriteString(gen.Tokens("tcp", "TCP").Draw(w.t))
	} else {
		b.WriteString(gen.Tokens("udp", "UDP").Draw(w.t))
	}
	b.WriteString(" " + w.num(1, 2130706431) + " ")
	_, addr := w.address()
	b.WriteString(addr + " " + w.num(1024, 65535) + " typ ")
	typ := gen.Tokens("host", "srflx", "prflx", "relay").Draw(w.t)
	b.WriteString(typ)
	if typ != "host" {
		b.WriteString(" raddr " + sdpIPv4.Draw(w.t) + " rport " + w.num(0, 65535))
	}
	if tcp {
		b.WriteString(" tcptype " + gen.Tokens("active", "passive", "so").Draw(w.t))
	}
	if w.chance(1, 2) {
		b.WriteString(" generation 0")
	}
	if w.chance(1, 3) {
		b.WriteString(" ufrag " + w.ice())
	}
	if w.chance(1, 4) {
		b.WriteString(" network-id " + w.num(1, 4) + " network-cost " + gen.Tokens("10", "50", "999").Draw(w.t))
	}
	return b.String()
}

// codecs draws the payload formats of an RTP media section, in a drawn
// order, at least one.
func (w *sdpWriter) codecs(all []sdpCodec) []sdpCodec {
	var out []sdpCodec
	for _, c := range all {
		if w.chance(2, 5) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = append(out, all[gen.IntRange(0, len(all)-1).Draw(w.t)])
	}
	if len(out) > 1 && w.chance(1, 3) {
		i := gen.IntRange(0, len(out)-1).Draw(w.t)
		out[0], out[i] = out[i], out[0]
	}
	return out
}

// media writes a media description: the m= line, then i=, c=, b=, k=
// and the a= lines of the media's kind.
func (w *sdpWriter) media(index int) {
	kind := gen.OneOfWeighted(
		gen.W(5, gen.Just("audio")), gen.W(5, gen.Just("video")), gen.W(2, gen.Just("application")),
		gen.W(1, gen.Just("text")), gen.W(1, gen.Just("message")),
	).Draw(w.t)
	port := "9"
	if !w.webrtc || w.chance(1, 4) {
		port = gen.Tokens("49170", "49172", "51372", "53000", "0", "5004", "9").Draw(w.t)
		if w.chance(1, 10) {
			port += "/" + w.num(1, 4)
		}
	}
	var codecs []sdpCodec
	var proto string
	var formats []string
	switch kind {
	case "audio", "video", "text":
		if w.webrtc {
			proto = gen.OneOfWeighted(gen.W(6, gen.Just("UDP/TLS/RTP/SAVPF")), gen.W(1, gen.Tokens("RTP/SAVPF", "TCP/TLS/RTP/SAVPF"))).Draw(w.t)
		} else {
			proto = gen.OneOfWeighted(gen.W(6, gen.Just("RTP/AVP")), gen.W(2, gen.Tokens("RTP/SAVP", "RTP/AVPF", "RTP/SAVPF")), gen.W(1, gen.Tokens("udp", "RTP/AVP/TCP"))).Draw(w.t)
		}
		table := sdpAudioCodecs
		switch kind {
		case "video":
			table = sdpVideoCodecs
		case "text":
			table = sdpTextCodecs
		}
		codecs = w.codecs(table)
		for _, c := range codecs {
			formats = append(formats, itoa(c.pt))
		}
	case "application":
		if w.webrtc && w.chance(3, 4) {
			proto, formats = "UDP/DTLS/SCTP", []string{"webrtc-datachannel"}
		} else {
			proto, formats = gen.Tokens("DTLS/SCTP", "UDP", "TCP").Draw(w.t), []string{gen.Tokens("5000", "wb", "t38").Draw(w.t)}
		}
	case "message":
		proto, formats = gen.Tokens("TCP/MSRP", "TCP/TLS/MSRP").Draw(w.t), []string{"*"}
	}
	w.line('m', kind+" "+port+" "+proto+" "+join(formats, " "))
	if w.chance(1, 8) {
		w.line('i', sdpText.Draw(w.t))
	}
	nc := w.count(6, 2)
	if w.webrtc {
		nc = 1
	}
	for range nc {
		w.line('c', w.connection())
	}
	for range w.count(8, 2) {
		w.line('b', w.bandwidth())
	}
	if w.chance(1, 20) {
		w.line('k', sdpKeys.Draw(w.t))
	}
	var attrs []string
	if w.webrtc {
		attrs = append(attrs, "rtcp:9 IN IP4 0.0.0.0")
		if w.chance(4, 5) {
			attrs = append(attrs, "ice-ufrag:"+w.ice(), "ice-pwd:"+w.pwd())
		}
		if w.chance(1, 2) {
			attrs = append(attrs, "ice-options:"+gen.Tokens("trickle", "trickle renomination", "ice2").Draw(w.t))
		}
		if w.chance(4, 5) {
			attrs = append(attrs, w.fingerprint())
		}
		attrs = append(attrs, "setup:"+sdpSetup.Draw(w.t), "mid:"+gen.Tokens(itoa(index), "audio", "video", "data", "m"+itoa(index)).Draw(w.t))
	}
	switch kind {
	case "audio", "video", "text":
		if w.webrtc || w.chance(1, 2) {
			for i := range gen.IntRange(0, 4).Draw(w.t) {
				ext := "extmap:" + itoa(i+1)
				if w.chance(1, 10) {
					ext = "extmap:" + gen.Tokens("14", "15", "255", "4096", "0").Draw(w.t)
				}
				if w.chance(1, 8) {
					ext += "/" + sdpDirections.Draw(w.t)
				}
				ext += " " + sdpExtURI.Draw(w.t)
				if w.chance(1, 10) {
					ext += " " + gen.Tokens("rtx", "header-ext-attr", "1").Draw(w.t)
				}
				attrs = append(attrs, ext)
			}
		}
		attrs = append(attrs, sdpDirections.Draw(w.t))
		if w.webrtc {
			if w.chance(3, 4) {
				attrs = append(attrs, "msid:"+gen.Tokens("stream0", "{4f7a3b2c-1d2e-4f5a-8b9c-0d1e2f3a4b5c}", "-").Draw(w.t)+" "+gen.Tokens("track0", "{6a8b9c0d-1e2f-4a5b-9c6d-7e8f9a0b1c2d}").Draw(w.t))
			}
			attrs = append(attrs, "rtcp-mux")
			if w.chance(1, 2) {
				attrs = append(attrs, "rtcp-rsize")
			}
		}
		for _, c := range codecs {
			if c.pt >= 96 || w.chance(2, 3) {
				attrs = append(attrs, "rtpmap:"+itoa(c.pt)+" "+c.encoding)
			}
			if c.feedback && (w.webrtc || w.chance(1, 3)) {
				for range gen.IntRange(0, 3).Draw(w.t) {
					attrs = append(attrs, "rtcp-fb:"+itoa(c.pt)+" "+sdpFeedback.Draw(w.t))
				}
			}
			if c.fmtp != "" && w.chance(3, 4) {
				attrs = append(attrs, "fmtp:"+itoa(c.pt)+" "+c.fmtp)
			}
		}
		if w.chance(1, 10) {
			attrs = append(attrs, "rtcp-fb:* "+sdpFeedback.Draw(w.t))
		}
		if kind == "audio" && w.chance(1, 3) {
			attrs = append(attrs, "ptime:"+gen.Tokens("10", "20", "30", "60").Draw(w.t))
		}
		if kind == "video" && w.webrtc && w.chance(1, 6) {
			attrs = append(attrs, "rid:h send", "rid:l send", "simulcast:send h;l")
		}
		if w.webrtc && w.chance(2, 3) {
			s1 := w.ssrc()
			cname := gen.StringFrom(sdpAlnum, 8, 16).Draw(w.t)
			if kind == "video" && w.chance(1, 2) {
				s2 := w.ssrc()
				attrs = append(attrs, "ssrc-group:FID "+s1+" "+s2, "ssrc:"+s1+" cname:"+cname, "ssrc:"+s2+" cname:"+cname)
			} else {
				attrs = append(attrs, "ssrc:"+s1+" cname:"+cname)
				if w.chance(1, 2) {
					attrs = append(attrs, "ssrc:"+s1+" msid:stream0 track0")
				}
			}
		}
	case "application":
		if formats[0] == "webrtc-datachannel" {
			attrs = append(attrs, "sctp-port:"+gen.Tokens("5000", "5001").Draw(w.t))
			if w.chance(2, 3) {
				attrs = append(attrs, "max-message-size:"+gen.Tokens("262144", "65536", "1073741823").Draw(w.t))
			}
		} else if formats[0] == "5000" {
			attrs = append(attrs, "sctpmap:5000 webrtc-datachannel "+gen.Tokens("1024", "65535").Draw(w.t))
		}
	case "message":
		attrs = append(attrs, "accept-types:"+gen.Tokens("text/plain", "message/cpim text/plain", "*").Draw(w.t),
			"path:msrp://"+sdpIPv4.Draw(w.t)+":"+w.num(1024, 65535)+"/"+gen.StringFrom(sdpAlnum, 6, 10).Draw(w.t)+";tcp")
	}
	if !w.webrtc {
		for range w.count(6, 3) {
			attrs = append(attrs, sdpClassicAttr.Draw(w.t))
		}
	}
	if w.webrtc && w.chance(1, 2) {
		for range gen.IntRange(1, 3).Draw(w.t) {
			attrs = append(attrs, w.candidate())
		}
		if w.chance(1, 2) {
			attrs = append(attrs, "end-of-candidates")
		}
	}
	for _, a := range attrs {
		w.line('a', a)
	}
}

// SDP generates session descriptions (RFC 8866, formerly RFC 4566): the
// session lines in their order (v=, o=, s=, then i=, u=, e=, p=, c=, b=
// when present, one or more t= each followed by its r= lines, z=, k=,
// a=) and media descriptions (m=, then i=, c=, b=, k=, a=). About two
// thirds are WebRTC offers (JSEP: t=0 0, BUNDLE groups, ICE credentials,
// fingerprints, setup roles, mids, header extensions, rtpmap/fmtp/rtcp-fb
// for each payload format, ssrc lines, candidates, data channels); the
// others are descriptions in the style of the RFC's examples (multicast
// connections with TTL, URIs, e-mail and phone lines, bandwidth, repeat
// times and time zones with typed times, keys, property attributes).
// Lines end in CRLF, or LF (which parsers must accept) in a tenth of the
// descriptions; MistakesPer per mille go through Corrupt.
func SDP(cfg SDPConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &sdpWriter{t: t, cfg: cfg, webrtc: gen.IntRange(0, 2).Draw(t) > 0, eol: "\r\n"}
		if gen.IntRange(0, 9).Draw(t) == 0 {
			w.eol = "\n"
		}
		w.line('v', "0")
		at, addr := w.address()
		id := w.num(1, 1<<31)
		if w.chance(1, 2) {
			id = gen.StringFrom("0123456789", 19, 19).Draw(t)
			id = gen.StringFrom("123456789", 1, 1).Draw(t) + id[1:]
		}
		w.line('o', sdpUsernames.Draw(t)+" "+id+" "+w.num(0, 5)+" IN "+at+" "+addr)
		w.line('s', sdpText.Draw(t))
		if !w.webrtc {
			if w.chance(1, 2) {
				w.line('i', sdpText.Draw(t))
			}
			if w.chance(1, 3) {
				w.line('u', sdpURIs.Draw(t))
			}
			for range w.few(5) {
				w.line('e', sdpEmails.Draw(t))
			}
			for range w.few(6) {
				w.line('p', sdpPhones.Draw(t))
			}
			if w.chance(2, 3) {
				w.line('c', w.connection())
			}
			for range w.count(6, 2) {
				w.line('b', w.bandwidth())
			}
		}
		nt := 1
		if !w.webrtc && w.chance(1, 4) {
			nt = gen.IntRange(2, 3).Draw(t)
		}
		for range nt {
			w.timing()
		}
		if !w.webrtc && w.chance(1, 6) {
			w.zone()
		}
		if !w.webrtc && w.chance(1, 10) {
			w.line('k', sdpKeys.Draw(t))
		}
		nm := gen.IntRange(0, cfg.MaxMedia).Draw(t)
		if w.webrtc {
			nm = max(nm, 1)
			mids := make([]string, nm)
			for i := range mids {
				mids[i] = itoa(i)
			}
			if w.chance(4, 5) {
				w.line('a', "group:BUNDLE "+join(mids, " "))
			}
			if w.chance(1, 3) {
				w.line('a', "extmap-allow-mixed")
			}
			if w.chance(1, 2) {
				w.line('a', "msid-semantic: WMS "+gen.Tokens("*", "stream0", "").Draw(t))
			}
			if w.chance(1, 5) {
				w.line('a', "ice-lite")
			}
			if w.chance(1, 4) {
				w.line('a', "ice-ufrag:"+w.ice())
				w.line('a', "ice-pwd:"+w.pwd())
			}
			if w.chance(1, 4) {
				w.line('a', w.fingerprint())
			}
		} else {
			for range w.count(4, 3) {
				w.line('a', sdpClassicAttr.Draw(t))
			}
		}
		for i := range nm {
			w.media(i)
		}
		return Corrupt(t, w.b.String(), cfg.MistakesPer)
	})
}
