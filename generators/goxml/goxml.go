// Package goxml generates well-formed XML documents for fuzzing XML
// consumers, the way Zest's XML generator fed Maven and Ant.
//
// Document(cfg) draws a document: an optional XML declaration, optional
// comments and processing instructions, and one root element. Elements
// carry attributes (unique per element) and contain child elements, text
// (with the predefined entity references &amp; &lt; &gt; &quot; &apos; and
// decimal and hexadecimal character references), CDATA sections, comments
// and processing instructions, nested up to Config.MaxDepth. With
// Config.Namespaces, elements declare default and prefixed namespaces
// (xmlns, xmlns:p) and element and attribute names use only prefixes in
// scope, each prefix bound to a distinct URI.
//
// Element and attribute names come from Config.Names / Config.Attrs when
// given (schema-aware targets list their vocabulary), from gen.Dictionary()
// tokens that are valid XML names, and from generated names. A preferred
// name with a prefix ("xsl:template") is used as given, never prefixed
// again; Document does not declare its prefix. Every output
// is accepted by encoding/xml's strict decoder.
package goxml

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// Config holds the knobs of Document. Zero fields take the defaults.
type Config struct {
	MaxDepth    int      // element nesting; default 4
	MaxChildren int      // child nodes per element; default 4
	MaxAttrs    int      // attributes per element; default 3
	MaxText     int      // characters per text node; default 10
	Names       []string // preferred element names
	Attrs       []string // preferred attribute names
	Values      []string // preferred attribute values and text
	Namespaces  bool     // declare and use namespaces
	Root        string   // name of the root element (drawn like any other when empty)
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxDepth, 4)
	def(&c.MaxChildren, 4)
	def(&c.MaxAttrs, 3)
	def(&c.MaxText, 10)
	return c
}

// Document returns a generator of well-formed XML documents. It panics
// if a name of Config.Names, Config.Attrs or Config.Root is not an XML
// name encoding/xml accepts.
func Document(cfg Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	for _, f := range []struct {
		field string
		names []string
	}{{"Names", cfg.Names}, {"Attrs", cfg.Attrs}, {"Root", []string{cfg.Root}}} {
		for _, n := range f.names {
			if (n != "" || f.field != "Root") && !xmlName(n) {
				panic(fmt.Sprintf("goxml: Config.%s: %q is not an XML name", f.field, n))
			}
		}
	}
	return gen.Custom(func(t *gfz.T) string {
		w := &writer{s: t.Source(), cfg: cfg, dict: dictNames()}
		w.document()
		return w.b.String()
	}).Named("goxml.Document")
}

type writer struct {
	s        *param.Source
	cfg      Config
	b        strings.Builder
	dict     []string
	prefixes []string // namespace prefixes in scope
	nsCount  int
	root     string // name of the next element, when set
}

func (w *writer) choice(n int) int { return int(w.s.Uintn(uint64(n), param.Structure)) }

func (w *writer) document() {
	if w.choice(2) == 0 {
		w.b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	}
	for range w.choice(3) {
		w.misc()
	}
	w.root = w.cfg.Root
	w.element(w.cfg.MaxDepth)
	for range w.choice(2) {
		w.misc()
	}
}

func (w *writer) misc() {
	if w.choice(2) == 0 {
		w.b.WriteString("<!--" + strings.ReplaceAll(w.text(false), "-", "_") + "-->")
	} else {
		w.b.WriteString("<?pi-" + w.localName(nil) + " " + strings.ReplaceAll(w.text(false), "?>", "? >") + "?>")
	}
}

// dictNames returns the tokens of gen.Dictionary() usable as element and
// attribute names (isName, at most 24 bytes), in dictionary order. They
// are picked out once per dictionary, not at every draw (a fuzz binary's
// dictionary holds thousands of tokens): the dictionary is fixed for a
// fuzz binary, and changes under go test only while a regression input
// replays with the dictionary it was found with.
func dictNames() []string {
	d := gen.Dictionary()
	if c := namesCache.Load(); c != nil && sameSlice(c.dict, d) {
		return c.names
	}
	c := &dictNamesOf{dict: d}
	for _, w := range d {
		if isName(w) && len(w) <= 24 {
			c.names = append(c.names, w)
		}
	}
	namesCache.Store(c)
	return c.names
}

// dictNamesOf is dictNames' result for one dictionary.
type dictNamesOf struct{ dict, names []string }

var namesCache atomic.Pointer[dictNamesOf]

// sameSlice reports whether a and b are the same slice (same array, same
// length), not only equal.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// isName reports whether s is a simple XML name (ASCII letters, digits,
// '_', '-', '.'; not starting with a digit, '-', '.', or "xml" in any
// case).
func isName(s string) bool {
	if s == "" || len(s) >= 3 && strings.EqualFold(s[:3], "xml") {
		return false
	}
	for i, c := range []byte(s) {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// xmlName reports whether encoding/xml reads s as the name of an element
// and of an attribute.
func xmlName(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\r\n<>&\"'=/") {
		return false
	}
	d := xml.NewDecoder(strings.NewReader("<" + s + " " + s + `=""/>`))
	tok, err := d.Token()
	if err != nil {
		return false
	}
	st, ok := tok.(xml.StartElement)
	return ok && len(st.Attr) == 1
}

// localName draws a name from preferred, the dictionary or letters.
func (w *writer) localName(preferred []string) string {
	switch c := w.choice(4); {
	case len(preferred) > 0 && c < 2:
		return preferred[w.s.Uintn(uint64(len(preferred)), param.Value)]
	case c == 2 && len(w.dict) > 0:
		return w.dict[w.s.Uintn(uint64(len(w.dict)), param.Value)]
	default:
		n := int(w.s.Range(1, 6, param.Structure))
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdefghijklmnopqrstuvwxyz_"[w.s.Uintn(27, param.Value)]
		}
		return string(b)
	}
}

// qname adds a prefix in scope to a local name, sometimes (not to a
// preferred name that has its own prefix).
func (w *writer) qname(preferred []string) string {
	local := w.localName(preferred)
	if len(w.prefixes) > 0 && w.choice(3) == 0 && !strings.Contains(local, ":") {
		return w.prefixes[w.choice(len(w.prefixes))] + ":" + local
	}
	return local
}

func (w *writer) element(depth int) {
	mark := len(w.prefixes)
	var attrs []string
	var seen []string
	if w.cfg.Namespaces {
		if w.choice(4) == 0 {
			attrs = append(attrs, `xmlns="urn:gfz:default:`+strconv.Itoa(w.choice(4))+`"`)
		}
		if w.choice(3) == 0 {
			w.nsCount++
			p := "n" + strconv.Itoa(w.nsCount)
			attrs = append(attrs, `xmlns:`+p+`="urn:gfz:`+p+`"`)
			w.prefixes = append(w.prefixes, p)
		}
	}
	name := w.root
	if name == "" {
		name = w.qname(w.cfg.Names)
	}
	w.root = ""
	n := int(w.s.Range(0, int64(w.cfg.MaxAttrs), param.Structure))
	for range n {
		a := w.qname(w.cfg.Attrs)
		dup := false
		for _, s := range seen {
			dup = dup || s == a
		}
		if dup {
			continue
		}
		seen = append(seen, a)
		attrs = append(attrs, a+`="`+w.attrValue()+`"`)
	}
	w.b.WriteString("<" + name)
	for _, a := range attrs {
		w.b.WriteString(" " + a)
	}
	kids := 0
	if depth > 0 {
		kids = int(w.s.Range(0, int64(w.cfg.MaxChildren), param.Structure))
	}
	if kids == 0 && w.choice(2) == 0 {
		w.b.WriteString("/>")
		w.prefixes = w.prefixes[:mark]
		return
	}
	w.b.WriteString(">")
	for range kids {
		switch w.choice(8) {
		case 0, 1, 2, 3:
			w.element(depth - 1)
		case 4, 5:
			w.b.WriteString(w.text(true))
		case 6:
			w.b.WriteString("<![CDATA[" + strings.ReplaceAll(w.text(false), "]]>", "]] >") + "]]>")
		default:
			w.misc()
		}
	}
	w.b.WriteString("</" + name + ">")
	w.prefixes = w.prefixes[:mark]
}

func (w *writer) attrValue() string {
	if len(w.cfg.Values) > 0 && w.choice(2) == 0 {
		return escape(w.cfg.Values[w.s.Uintn(uint64(len(w.cfg.Values)), param.Value)], true)
	}
	return w.text(true)
}

// text draws character data; with refs, markup characters are escaped and
// entity and character references may appear, otherwise the text has no
// '<' or '&' and is raw.
func (w *writer) text(refs bool) string {
	if len(w.cfg.Values) > 0 && w.choice(3) == 0 {
		v := w.cfg.Values[w.s.Uintn(uint64(len(w.cfg.Values)), param.Value)]
		if refs {
			return escape(v, true)
		}
		// Raw (CDATA): no markup, and only characters XML allows.
		return strings.Map(charRef, strings.NewReplacer("<", " ", "&", " ").Replace(v))
	}
	var b strings.Builder
	n := int(w.s.Range(0, int64(w.cfg.MaxText), param.Structure))
	for range n {
		switch c := w.choice(8); {
		case refs && c == 0:
			b.WriteString([]string{"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"}[w.s.Uintn(5, param.Value)])
		case refs && c == 1:
			r := charRef(rune(w.s.Uint(2, param.Value)))
			if w.choice(2) == 0 {
				b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
			} else {
				b.WriteString("&#x" + strconv.FormatInt(int64(r), 16) + ";")
			}
		case c == 2:
			b.WriteRune(charRef(0x80 + rune(w.s.Uint(2, param.Value))%0xFF00))
		default:
			b.WriteByte(textChars[w.s.Uintn(uint64(len(textChars)), param.Value)])
		}
	}
	s := b.String()
	if refs {
		s = strings.ReplaceAll(s, `"`, "&quot;")
	}
	return s
}

// textChars are the ASCII characters of generated text.
const textChars = "abc xyz019\t\n.,;:-_=/'\"!"

// charRef maps r to a character allowed in XML 1.0.
func charRef(r rune) rune {
	switch {
	case r == 0x9 || r == 0xA || r == 0xD:
		return r
	case r < 0x20:
		return r + 0x40
	case r >= 0xD800 && r <= 0xDFFF, r >= 0xFFFE:
		return 'X'
	}
	return r
}

// escape makes s safe as attribute value or text.
func escape(s string, attr bool) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;") // "]]>" may not appear in character data
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(charRef(r))
		}
	}
	return b.String()
}
