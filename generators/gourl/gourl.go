// Package gourl generates URLs and relative references (RFC 3986, with the
// Unicode of IRIs) for fuzzing URL parsers, routers and anything that takes
// a link, and near misses of them.
//
// URL(cfg) draws one of:
//
//   - an absolute URL with an authority: a scheme (common or generated, in
//     any letter case), optional userinfo (user, user:password, with
//     percent-escapes), a host (registered names with dashes, underscores
//     and a trailing dot; IPv4; IPv6 in every textual form, with embedded
//     IPv4 and zone identifiers; Unicode and punycode labels, raw or
//     percent-encoded), an optional port (empty, leading zeros, up to
//     five digits), a path of segments (unreserved characters, sub-delims,
//     ':' and '@', percent-escapes in both cases, Unicode, empty, "." and
//     ".." segments), a query of key=value parameters (empty keys and
//     values, repeated keys, '+' for spaces, brackets) and a fragment;
//   - an opaque URI: mailto:, urn:, tel:, data:, news:;
//   - a relative reference (unless Config.Absolute): network-path
//     ("//host/p"), absolute-path, relative-path (a first segment with ':'
//     written "./a:b"), dot segments, query only, fragment only, empty.
//
// Every output parses with net/url.Parse, prints back (URL.String) to a
// string that parses and prints the same, and has a query url.ParseQuery
// accepts.
//
// Near(cfg) is URL with the near-miss step (package nearmiss): stray
// delimiters, broken percent-escapes, unbalanced IPv6 brackets, cut URLs.
//
// Which kind of URL and component, and lengths, are structure draws;
// characters and numbers are value draws.
package gourl

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of URL and Near. Zero fields take the defaults.
type Config struct {
	Schemes     []string // preferred schemes (drawn half of the time when set)
	Hosts       []string // preferred hosts, written as given, port included if any (drawn half of the time when set)
	Words       []string // preferred path segments, query keys and values (escaped as needed)
	MaxSegments int      // path segments; default 4
	MaxParams   int      // query parameters; default 3
	Absolute    bool     // only absolute URLs and opaque URIs, no relative references
}

func (c Config) withDefaults() Config {
	if c.MaxSegments <= 0 {
		c.MaxSegments = 4
	}
	if c.MaxParams <= 0 {
		c.MaxParams = 3
	}
	return c
}

// Syntax is the near-miss syntax of URLs.
var Syntax = nearmiss.Syntax{
	Name:       "url",
	Delims:     []string{":", "/", "//", "?", "#", "@", "[", "]", "%", "&", "=", ".", "..", " ", ":80", "\\", "\t", "\n", "%00", "[::", "::"},
	Closers:    []string{"]", "/"},
	Escapes:    []string{"%"},
	BadEscapes: []string{"%", "%G", "%2", "%zz", "%%", "%u00e9", "%C3"},
	Boundary:   ":/?#[]@&=+;,.",
}

// URL returns a generator of URLs and relative references.
func URL(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg}
		w.url()
		return w.b.String()
	}).Named("gourl.URL")
}

// Near returns a generator of near misses of URL(cfg): URL with the
// near-miss step (nearmiss.Of, default Config).
func Near(cfg Config) gen.Generator[string] {
	return nearmiss.Of(URL(cfg), Syntax, nearmiss.Config{}).Named("gourl.Near")
}

type writer struct {
	s   *param.Source
	cfg Config
	b   strings.Builder
}

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }
func (w *writer) value(n int) int  { return int(w.s.Uintn(uint64(n), param.Value)) }

func (w *writer) pick(words []string) string { return words[w.value(len(words))] }

func (w *writer) url() {
	k := w.choice(10)
	if w.cfg.Absolute && k >= 8 {
		k -= 2
	}
	switch {
	case k < 6:
		w.scheme()
		w.b.WriteString("://")
		w.authority()
		w.path(false)
		w.query()
		w.fragment()
	case k < 8:
		w.opaque()
	default:
		w.relative()
	}
}

var schemes = []string{"http", "https", "ftp", "ws", "wss", "file", "git+ssh", "s3", "coap", "chrome-extension"}

func (w *writer) scheme() {
	var s string
	switch c := w.choice(8); {
	case len(w.cfg.Schemes) > 0 && c < 4:
		w.b.WriteString(w.pick(w.cfg.Schemes))
		return
	case c < 6:
		s = w.pick(schemes)
	default:
		n := w.choice(6)
		b := []byte{gen.AlphaLower[w.value(26)]}
		for range n {
			b = append(b, "abcxyz019+-."[w.value(12)])
		}
		s = string(b)
	}
	if w.choice(8) == 7 { // letter case varies
		s = strings.ToUpper(s)
	}
	w.b.WriteString(s)
}

// Character classes of RFC 3986.
const (
	unreserved = gen.AlphaLower + gen.AlphaUpper + gen.Digits + "-._~"
	subDelims  = "!$&'()*+,;="
)

// escaped writes a percent-escape of a byte, in either case.
func (w *writer) escaped(c byte) {
	const upper, lower = "0123456789ABCDEF", "0123456789abcdef"
	hex := upper
	if w.choice(4) == 0 {
		hex = lower
	}
	w.b.WriteByte('%')
	w.b.WriteByte(hex[c>>4])
	w.b.WriteByte(hex[c&15])
}

// text writes up to max characters from chars, percent-escapes and Unicode.
func (w *writer) text(chars string, min, max int, unicode bool) {
	n := int(w.s.Range(int64(min), int64(max), param.Structure))
	for range n {
		switch c := w.choice(10); {
		case c == 0:
			w.escaped(byte(w.value(256)))
		case c == 1 && unicode:
			w.b.WriteRune(nonASCII[w.value(len(nonASCII))])
		default:
			w.b.WriteByte(chars[w.value(len(chars))])
		}
	}
}

// nonASCII are the Unicode characters of IRIs written raw.
var nonASCII = []rune("üéßøåñçж例え日本語中文ไทยπΩ€☃😀")

// word writes a preferred or dictionary word, escaping what must be
// escaped in a component whose raw characters are safe.
func (w *writer) word(safe string) bool {
	var s string
	switch c := w.choice(8); {
	case len(w.cfg.Words) > 0 && c < 3:
		s = w.pick(w.cfg.Words)
	case c == 3 && len(gen.Dictionary()) > 0:
		s = w.pick(gen.Dictionary())
	default:
		return false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(safe, s[i]) >= 0 {
			w.b.WriteByte(s[i])
		} else {
			w.escaped(s[i])
		}
	}
	return true
}

func (w *writer) authority() {
	if w.choice(5) == 0 {
		w.text(unreserved+subDelims, 0, 6, false)
		if w.choice(2) == 0 {
			w.b.WriteByte(':')
			w.text(unreserved+subDelims+":", 0, 6, false)
		}
		w.b.WriteByte('@')
	}
	if !w.host() {
		return // a preferred host, which may hold its port
	}
	if w.choice(3) == 0 {
		w.b.WriteByte(':')
		switch w.choice(6) {
		case 0: // empty port
		case 1:
			w.b.WriteString(w.pick([]string{"0", "80", "443", "8080", "65535", "65536", "99999", "080", "00000"}))
		default:
			w.b.WriteString(strconv.Itoa(w.value(65536)))
		}
	}
}

// host writes a host; false when it is a preferred host, written as
// given.
func (w *writer) host() bool {
	switch c := w.choice(12); {
	case len(w.cfg.Hosts) > 0 && c < 6:
		w.b.WriteString(w.pick(w.cfg.Hosts))
		return false
	case c < 5:
		w.regName()
	case c < 7:
		w.ipv4()
	case c < 9:
		w.b.WriteByte('[')
		w.ipv6()
		if w.choice(4) == 0 { // zone identifier
			w.b.WriteString("%25")
			w.b.WriteString(w.pick([]string{"eth0", "en1", "1", "lo", "wlan0.2", "Ethernet_3"}))
		}
		w.b.WriteByte(']')
	case c < 11:
		w.idna()
	default:
		w.b.WriteString(w.pick([]string{"localhost", "", "example.com.", "a", "0", "127.0.0.1", "[::1]", "0x7f.1", "2130706433"}))
	}
	return true
}

const labelChars = gen.AlphaLower + gen.Digits + "-_" + gen.AlphaUpper

func (w *writer) regName() {
	n := int(w.s.Range(1, 4, param.Structure))
	for i := range n {
		if i > 0 {
			w.b.WriteByte('.')
		}
		if w.choice(4) == 0 {
			w.b.WriteString(w.pick([]string{"www", "example", "com", "org", "co", "uk", "local", "internal"}))
			continue
		}
		m := int(w.s.Range(1, 8, param.Structure))
		for range m {
			w.b.WriteByte(labelChars[w.value(len(labelChars))])
		}
	}
	if w.choice(8) == 0 {
		w.b.WriteByte('.')
	}
}

func (w *writer) ipv4() {
	for i := range 4 {
		if i > 0 {
			w.b.WriteByte('.')
		}
		switch w.choice(4) {
		case 0:
			w.b.WriteString(w.pick([]string{"0", "255", "127", "1", "10", "192", "168"}))
		default:
			w.b.WriteString(strconv.Itoa(w.value(256)))
		}
	}
}

// ipv6 writes a valid IPv6 address in one of its textual forms: eight
// groups, or six and an IPv4 address; a run of zero groups written "::" or
// not; hex digits in either case.
func (w *writer) ipv6() {
	v4 := w.choice(5) == 4
	n := 8
	if v4 {
		n = 6
	}
	groups := make([]string, n)
	for i := range groups {
		g := uint64(0)
		if w.choice(3) != 0 {
			g = w.s.Uint(2, param.Value)
		}
		groups[i] = strconv.FormatUint(g, 16)
		if w.choice(6) == 0 {
			groups[i] = strings.ToUpper(groups[i])
		}
	}
	if w.choice(3) == 2 { // no "::"
		w.b.WriteString(strings.Join(groups, ":"))
		if v4 {
			w.b.WriteByte(':')
			w.ipv4()
		}
		return
	}
	// "::" stands for groups[from:to], at least one group.
	from := w.choice(n)
	to := n - w.choice(n-from)
	w.b.WriteString(strings.Join(groups[:from], ":") + "::" + strings.Join(groups[to:], ":"))
	if v4 {
		if to < n {
			w.b.WriteByte(':')
		}
		w.ipv4()
	}
}

var unicodeLabels = []string{"bücher", "例え", "пример", "münchen", "ελληνικά", "日本", "xn--bcher-kva", "xn--r8jz45g", "xn--e1afmkfd", "faß", "ǅ"}

// idna writes a host with Unicode or punycode labels, raw or escaped.
func (w *writer) idna() {
	n := int(w.s.Range(1, 3, param.Structure))
	escape := w.choice(4) == 0
	for i := range n {
		if i > 0 {
			w.b.WriteByte('.')
		}
		l := w.pick(unicodeLabels)
		if !escape {
			w.b.WriteString(l)
			continue
		}
		for j := 0; j < len(l); j++ {
			if l[j] >= 0x80 {
				w.escaped(l[j])
			} else {
				w.b.WriteByte(l[j])
			}
		}
	}
	w.b.WriteString(w.pick([]string{"", ".com", ".example", ".рф", ".中国"}))
}

// pathChars are the characters a path segment holds raw.
const pathChars = unreserved + subDelims + ":@"

// path writes a path of "/"-prefixed segments; lead: nothing precedes it,
// so its first segment is not empty (which would make "//" the start of an
// authority).
func (w *writer) path(lead bool) {
	n := w.choice(w.cfg.MaxSegments + 1)
	for i := range n {
		w.b.WriteByte('/')
		if i == 0 && lead {
			w.text(pathChars, 1, 8, true)
		} else {
			w.segment(pathChars)
		}
	}
	if n > 0 && w.choice(4) == 0 {
		w.b.WriteByte('/')
	}
}

func (w *writer) segment(chars string) {
	switch w.choice(12) {
	case 0: // empty segment
	case 1:
		w.b.WriteString(w.pick([]string{".", "..", "...", "%2e", "%2E%2e", "index.html", "~user", "a;p=1", "%2F", "%00"}))
	case 2:
		if !w.word(unreserved) {
			w.text(chars, 1, 8, true)
		}
	default:
		w.text(chars, 1, 8, true)
	}
}

// queryChars are the characters of query keys and values written raw:
// not '&', '=', '+' or ';', which separate or mean space.
const queryChars = unreserved + "!$'()*,:@/?"

func (w *writer) query() {
	if w.choice(3) == 0 {
		w.params()
	}
}

// params writes '?' and the query's parameters.
func (w *writer) params() {
	w.b.WriteByte('?')
	n := w.choice(w.cfg.MaxParams + 1)
	for i := range n {
		if i > 0 {
			w.b.WriteByte('&')
		}
		switch w.choice(8) {
		case 0: // key only
			w.qword()
		case 1: // empty key or value
			w.b.WriteString(w.pick([]string{"=", "a=", "=b", "a[]=1", "a[b]=c", "q=a+b", "q=%20", "&"}))
		default:
			w.qword()
			w.b.WriteByte('=')
			w.qword()
		}
	}
}

func (w *writer) qword() {
	if w.word(unreserved) {
		return
	}
	n := w.choice(7)
	for range n {
		switch c := w.choice(12); {
		case c == 0:
			w.escaped(byte(w.value(256)))
		case c == 1:
			w.b.WriteByte('+')
		case c == 2:
			w.b.WriteRune(nonASCII[w.value(len(nonASCII))])
		default:
			w.b.WriteByte(queryChars[w.value(len(queryChars))])
		}
	}
}

func (w *writer) fragment() {
	if w.choice(4) != 0 {
		return
	}
	w.b.WriteByte('#')
	w.text(pathChars+"/?", 0, 8, true)
}

func (w *writer) opaque() {
	switch w.choice(5) {
	case 0:
		w.b.WriteString("mailto:")
		w.text(unreserved+"!$'*+", 1, 6, false)
		w.b.WriteByte('@')
		w.regName()
		if w.choice(3) == 0 {
			w.b.WriteString("?subject=")
			w.qword()
		}
	case 1:
		w.b.WriteString("urn:" + w.pick([]string{"isbn", "uuid", "ietf:rfc", "x-gfz"}) + ":")
		w.text(pathChars, 1, 12, false)
	case 2:
		w.b.WriteString("tel:" + w.pick([]string{"+", "", "+1-"}))
		for range w.choice(10) + 1 {
			w.b.WriteByte("0123456789-."[w.value(12)])
		}
	case 3:
		w.b.WriteString("data:" + w.pick([]string{"", "text/plain", "text/html;charset=utf-8", "image/png;base64", ";base64"}) + ",")
		w.text(unreserved+"+/=", 0, 12, false)
	default:
		w.b.WriteString("news:")
		w.text(unreserved, 1, 10, false)
	}
	w.fragment()
}

func (w *writer) relative() {
	k := w.choice(7)
	switch k {
	case 0: // network-path reference
		w.b.WriteString("//")
		w.authority()
		w.path(false)
	case 1: // absolute-path reference
		w.b.WriteByte('/')
		w.text(pathChars, 1, 8, true)
		w.path(false)
	case 2, 3: // relative-path reference; its first segment has no ':'
		w.segment(unreserved + subDelims + "@")
		if w.b.Len() == 0 {
			w.b.WriteByte('.')
		}
		w.path(false)
		if s := w.b.String(); strings.IndexByte(s[:strings.IndexByte(s+"/", '/')], ':') >= 0 {
			// a picked first segment may hold ':'
			w.b.Reset()
			w.b.WriteString("./" + s)
		}
	case 4:
		p := w.pick([]string{"..", ".", "../..", "./", "../a/./b/../c", ""})
		w.b.WriteString(p)
		w.path(p == "" || p == "./")
	case 5: // query only
		w.params()
		w.fragment()
		return
	default: // fragment only
		w.b.WriteByte('#')
		w.text(pathChars+"/?", 0, 8, true)
		return
	}
	if s := w.b.String(); k != 0 && twoSlashes(s) {
		// The path decodes to "//..." ("%2F/a", "/%2f"): net/url prints
		// such a path re-escaped from its decoded form when its raw form
		// is not the canonical one (raw Unicode), as "//...", which reads
		// back as an authority. A dot segment first keeps the reference's
		// kind and its path's meaning.
		w.b.Reset()
		if s[0] == '/' {
			w.b.WriteString("/.")
		} else {
			w.b.WriteString("./")
		}
		w.b.WriteString(s)
	}
	w.query()
	w.fragment()
}

// twoSlashes reports whether the path s starts with decodes to "//": its
// first two characters are each '/' or a percent-escape of it.
func twoSlashes(s string) bool {
	for range 2 {
		switch {
		case strings.HasPrefix(s, "/"):
			s = s[1:]
		case len(s) >= 3 && s[0] == '%' && s[1] == '2' && (s[2] == 'F' || s[2] == 'f'):
			s = s[3:]
		default:
			return false
		}
	}
	return true
}
