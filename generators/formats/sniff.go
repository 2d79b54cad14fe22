package formats

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"go/parser"
	"go/token"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"
)

// The sniffers: each tells whether one seed looks like a document of its
// format. formatreg.Choose counts the seeds each one accepts and picks the
// format most of them look like (ties to the earlier in formatreg.Names),
// so a sniffer may accept documents of a stricter format that comes
// before it (the YAML sniffer accepts JSON); what it must not do is accept
// documents of a later format (the XML sniffer refuses a fragment of HTML
// elements).

// text reports whether doc is text: valid UTF-8 without control
// characters other than tab, line feed, carriage return and form feed.
// Every format here is text; binary seeds look like none.
func text(doc []byte) bool {
	if !utf8.Valid(doc) {
		return false
	}
	for _, c := range doc {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			return false
		}
	}
	return true
}

// lines splits doc into lines without their line ends (LF or CRLF).
func lines(doc []byte) []string {
	s := strings.ReplaceAll(string(doc), "\r\n", "\n")
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// sniffJSON: an object or an array that encoding/json accepts (a lone
// number or string is valid JSON but says little).
func sniffJSON(doc []byte) bool {
	t := bytes.TrimSpace(doc)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t)
}

// sniffGo: a Go file (package clause and all) that go/parser accepts.
func sniffGo(doc []byte) bool {
	if !text(doc) || !bytes.Contains(doc, []byte("package")) {
		return false
	}
	_, err := parser.ParseFile(token.NewFileSet(), "", doc, parser.SkipObjectResolution)
	return err == nil
}

// htmlElements are the names of HTML elements (not SVG's or MathML's): a
// well-formed document whose root is one of them, without an XML
// declaration, is HTML rather than XML.
var htmlElements = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`a abbr address area article aside audio b base bdi bdo blockquote body br button
		canvas caption center cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed
		fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html i iframe
		img input ins isindex kbd label legend li link main map mark marquee menu meta meter nav noscript object ol
		optgroup option output p param picture plaintext pre progress q rp rt ruby s samp script section select
		small source span strike strong style sub summary sup table tbody td template textarea tfoot th thead time
		title tr track tt u ul var video wbr xmp`) {
		m[n] = true
	}
	return m
}()

// sniffXML: a well-formed XML document (encoding/xml's strict tokenizer
// reads it to the end) with one root element, unless it is HTML: no XML
// declaration and a root that is an HTML element without a namespace
// (html's excepted: XHTML is HTML here).
func sniffXML(doc []byte) bool {
	t := bytes.TrimSpace(doc)
	if len(t) == 0 || t[0] != '<' || !text(t) {
		return false
	}
	d := xml.NewDecoder(bytes.NewReader(t))
	depth, roots, decl, ns := 0, 0, false, false
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return false
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				root = tk.Name.Local
				// Namespaces are XML's: a root with a prefix or an xmlns
				// declaration (<data xmlns="urn:x">, <x:map>) is XML
				// whatever its local name, but for XHTML's html.
				ns = tk.Name.Space != ""
				for _, a := range tk.Attr {
					ns = ns || a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns"
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.ProcInst:
			decl = decl || tk.Target == "xml"
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(tk)) > 0 {
				return false
			}
		}
	}
	if roots != 1 || depth != 0 {
		return false
	}
	r := strings.ToLower(root)
	return decl || !htmlElements[r] || ns && r != "html"
}

// sniffHTML: a document with an HTML doctype or html element, or one
// whose first tag (after comments only) is an HTML element's start tag.
func sniffHTML(doc []byte) bool {
	if !text(doc) {
		return false
	}
	low := strings.ToLower(string(doc))
	if strings.Contains(low, "<!doctype html") || strings.Contains(low, "<html") {
		return true
	}
	t := strings.TrimSpace(low)
	for strings.HasPrefix(t, "<!--") { // comments before the first tag
		end := strings.Index(t, "-->")
		if end < 0 {
			return false
		}
		t = strings.TrimSpace(t[end+3:])
	}
	if len(t) < 2 || t[0] != '<' {
		return false
	}
	k := 1
	for k < len(t) && (isLetter(t[k]) || k > 1 && t[k] >= '0' && t[k] <= '9') {
		k++
	}
	return k > 1 && k < len(t) && strings.IndexByte("> /\t\n\r", t[k]) >= 0 && htmlElements[t[1:k]]
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// sniffCSV: records encoding/csv reads without error, all with the same
// number of fields, at least two, separated by commas, semicolons or
// tabs; a single record must not have a space after a separator (prose
// does).
func sniffCSV(doc []byte) bool {
	if !text(doc) {
		return false
	}
	for _, comma := range []rune{',', ';', '\t'} {
		if bytes.ContainsRune(doc, comma) && csvWith(doc, comma) {
			return true
		}
	}
	return false
}

// csvWith is sniffCSV with one separator.
func csvWith(doc []byte, comma rune) bool {
	r := csv.NewReader(bytes.NewReader(doc))
	r.Comma = comma
	recs, err := r.ReadAll()
	if err != nil || len(recs) == 0 || len(recs[0]) < 2 {
		return false
	}
	return len(recs) > 1 || !bytes.Contains(doc, []byte(string(comma)+" "))
}

// sniffURL: one line without spaces that net/url parses, with a scheme of
// two letters or more and a host or an opaque part (http://h/p,
// mailto:a@b), or an absolute path or network-path reference (/p?q,
// //h/p).
func sniffURL(doc []byte) bool {
	s := strings.TrimSuffix(strings.TrimSuffix(string(doc), "\n"), "\r")
	if s == "" || !text(doc) || strings.ContainsAny(s, " \t\n\r\f") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if u.Scheme != "" {
		return len(u.Scheme) >= 2 && (u.Host != "" || u.Opaque != "")
	}
	return strings.HasPrefix(s, "/") && len(s) > 1
}

// sniffTOML: every line (but one in ten) outside multi-line strings and
// arrays is blank, a comment, a [table] or [[array]] header, or a key =
// value pair with a dotted, bare or quoted key; at least one is a header
// or a pair.
func sniffTOML(doc []byte) bool {
	if !text(doc) {
		return false
	}
	good, bad := 0, 0
	var open string // the delimiter of a multi-line string under way
	nest := 0       // brackets and braces open over lines
	for _, l := range lines(doc) {
		if open != "" {
			if i := strings.Index(l, open); i >= 0 {
				rest := l[i+len(open):]
				open = ""
				open, nest = scanTOMLValue(rest, nest)
			}
			continue
		}
		if nest > 0 {
			open, nest = scanTOMLValue(l, nest)
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case t == "" || t[0] == '#':
		case t[0] == '[':
			if tomlHeader(t) {
				good++
			} else {
				bad++
			}
		default:
			n := tomlKey(t)
			if n == 0 {
				bad++
				continue
			}
			v := strings.TrimLeft(t[n:], " \t")
			if !strings.HasPrefix(v, "=") || strings.TrimSpace(v[1:]) == "" {
				bad++
				continue
			}
			good++
			open, nest = scanTOMLValue(strings.TrimSpace(v[1:]), 0)
		}
	}
	return good > 0 && bad*10 <= good
}

// tomlKey returns the length of the (dotted) key at the start of s, 0 if
// there is none.
func tomlKey(s string) int {
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		start := i
		switch {
		case i < len(s) && (s[i] == '"' || s[i] == '\''):
			q := s[i]
			i++
			for i < len(s) && s[i] != q {
				if q == '"' && s[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(s) {
				return 0
			}
			i++
		default:
			for i < len(s) && (isLetter(s[i]) || s[i] >= '0' && s[i] <= '9' || s[i] == '_' || s[i] == '-') {
				i++
			}
			if i == start {
				return 0
			}
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] == '.' {
			i = j + 1
			continue
		}
		return i
	}
}

// tomlHeader reports whether t is a [table] or [[array]] header, maybe
// followed by a comment.
func tomlHeader(t string) bool {
	dbl := strings.HasPrefix(t, "[[")
	s := t[1:]
	if dbl {
		s = t[2:]
	}
	n := tomlKey(s)
	if n == 0 {
		return false
	}
	rest := strings.TrimLeft(s[n:], " \t")
	closer := "]"
	if dbl {
		closer = "]]"
	}
	if !strings.HasPrefix(rest, closer) {
		return false
	}
	rest = strings.TrimSpace(rest[len(closer):])
	return rest == "" || rest[0] == '#'
}

// scanTOMLValue scans a value (or the rest of a line inside one) for what
// goes on to the next lines: a multi-line string left open (its
// delimiter) and the brackets and braces left open (nest, given the count
// before s).
func scanTOMLValue(s string, nest int) (open string, n int) {
	n = nest
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '#':
			return "", n
		case '[', '{':
			n++
		case ']', '}':
			if n > 0 {
				n--
			}
		case '"', '\'':
			q := string(c)
			if strings.HasPrefix(s[i:], q+q+q) {
				end := strings.Index(s[i+3:], q+q+q)
				if end < 0 {
					return q + q + q, n
				}
				i += 3 + end + 2
				continue
			}
			for i++; i < len(s) && s[i] != c; i++ {
				if c == '"' && s[i] == '\\' {
					i++
				}
			}
		}
	}
	return "", n
}

// sniffYAML: JSON or a flow collection, or block YAML: every line (but
// one in ten) is blank, a comment, a directive, a document marker, a
// mapping entry ("key:" followed by a space or the line's end), a sequence
// entry, or a line inside a block scalar or more indented than the entry
// before it (a continuation); at least one is a mapping entry or a
// document marker (a bare list is as much Markdown as YAML).
func sniffYAML(doc []byte) bool {
	if !text(doc) {
		return false
	}
	t := bytes.TrimSpace(doc)
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return json.Valid(t) || flowBalanced(t)
	}
	good, bad, marks := 0, 0, 0
	entryIndent := -1 // indentation of the last entry line, -1 before one
	block := -1       // indentation of the entry whose block scalar runs, -1 if none
	for _, l := range lines(doc) {
		tl := strings.TrimSpace(l)
		ind := len(l) - len(strings.TrimLeft(l, " "))
		if block >= 0 {
			if tl == "" || ind > block {
				continue
			}
			block = -1
		}
		switch {
		case tl == "" || tl[0] == '#':
			continue
		case strings.HasPrefix(tl, "%YAML") || strings.HasPrefix(tl, "%TAG") || tl == "---" || strings.HasPrefix(tl, "--- ") || tl == "...":
			marks++
			good++
			entryIndent = -1
			continue
		case entryIndent >= 0 && ind > entryIndent && !strings.HasPrefix(tl, "- ") && tl != "-" && yamlKey(tl) == 0:
			continue // a continuation of the entry above
		}
		if strings.ContainsRune("!&*[{\"'", rune(tl[0])) && yamlKey(tl) == 0 {
			good++ // a node: tagged, anchored, an alias, flow or quoted
			entryIndent = ind
			continue
		}
		rest, ok := "", false
		item := tl
		for strings.HasPrefix(item, "- ") || item == "-" {
			item = strings.TrimLeft(strings.TrimPrefix(item, "-"), " ")
			rest, ok = item, true
		}
		if n := yamlKey(item); n > 0 {
			marks++
			rest, ok = strings.TrimSpace(item[n+1:]), true
		}
		if !ok {
			bad++
			continue
		}
		good++
		entryIndent = ind
		if r := strings.TrimSpace(stripComment(rest)); r != "" && (r[0] == '|' || r[0] == '>') && len(r) <= 3 {
			block = ind
		}
	}
	return marks > 0 && bad*10 <= good
}

// yamlKey returns the length of a mapping key at the start of s when a
// colon follows it and then a space or the end ("key: v", "key:"), 0 if
// s is no mapping entry.
func yamlKey(s string) int {
	if s == "" || strings.HasPrefix(s, "? ") {
		return 0
	}
	if s[0] == '"' || s[0] == '\'' {
		q := s[0]
		i := 1
		for i < len(s) && s[i] != q {
			if q == '"' && s[i] == '\\' {
				i++
			}
			i++
		}
		if i+1 < len(s) && s[i+1] == ':' && (i+2 == len(s) || s[i+2] == ' ') {
			return i + 1
		}
		return 0
	}
	if strings.ContainsRune("[]{},#&*!|>%@`", rune(s[0])) {
		return 0
	}
	for i := 0; i < len(s); i++ {
		if s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ') {
			if i == 0 {
				return 0
			}
			return i
		}
		if s[i] == '#' && i > 0 && s[i-1] == ' ' {
			return 0
		}
	}
	return 0
}

// stripComment drops a " #" comment from the end of a YAML line.
func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
}

// flowBalanced reports whether t, which starts with a bracket or brace,
// has its brackets and braces balanced outside quoted strings and ends
// with the closer of the first.
func flowBalanced(t []byte) bool {
	var stack []byte
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case '[', '{':
			stack = append(stack, c)
		case ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != map[byte]byte{']': '[', '}': '{'}[c] {
				return false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 && len(bytes.TrimSpace(t[i+1:])) > 0 {
				return false
			}
		case '"', '\'':
			for i++; i < len(t) && t[i] != c; i++ {
				if c == '"' && t[i] == '\\' {
					i++
				}
			}
			if i >= len(t) {
				return false
			}
		}
	}
	return len(stack) == 0
}

// sniffMarkdown: at least one line with a block mark of CommonMark (an ATX
// heading, a list item, a block quote, a code fence, a table row, a
// thematic break or a setext underline under text) or inline markup
// (links, images, code spans, strong emphasis, autolinks).
func sniffMarkdown(doc []byte) bool {
	if !text(doc) {
		return false
	}
	prevText := false
	for _, l := range lines(doc) {
		t := strings.TrimLeft(l, " ")
		indent := len(l) - len(t)
		if indent <= 3 && mdBlockMark(t, prevText) {
			return true
		}
		if mdInline(t) {
			return true
		}
		prevText = strings.TrimSpace(t) != ""
	}
	return false
}

// mdBlockMark reports whether t (a line without its indentation of up to
// three spaces) opens a Markdown block; prevText tells whether the line
// before was text (for setext underlines).
func mdBlockMark(t string, prevText bool) bool {
	switch {
	case t == "":
		return false
	case t[0] == '#':
		n := len(t) - len(strings.TrimLeft(t, "#"))
		return n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
	case t[0] == '>':
		return true
	case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
		return true
	case len(t) >= 2 && strings.ContainsRune("-*+", rune(t[0])) && (t[1] == ' ' || t[1] == '\t'):
		return true
	case t[0] == '|' && len(strings.TrimSpace(t)) > 1 && strings.HasSuffix(strings.TrimSpace(t), "|"):
		return true
	}
	if i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && i <= 9 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return true
	}
	s := strings.ReplaceAll(strings.TrimSpace(t), " ", "")
	if len(s) >= 3 && (strings.Trim(s, "-") == "" || strings.Trim(s, "*") == "" || strings.Trim(s, "_") == "") {
		return true // a thematic break, or a setext underline
	}
	return prevText && len(s) >= 1 && strings.Trim(s, "=") == ""
}

// mdInline reports whether a line holds inline Markdown: a link or image
// ("](" after a "["), a code span, strong emphasis, or an autolink.
func mdInline(t string) bool {
	if i := strings.Index(t, "["); i >= 0 && strings.Contains(t[i:], "](") {
		return true
	}
	if i := strings.Index(t, "`"); i >= 0 && strings.Contains(t[i+1:], "`") {
		return true
	}
	for _, m := range []string{"**", "__"} {
		if i := strings.Index(t, m); i >= 0 && strings.Contains(t[i+2:], m) {
			return true
		}
	}
	return strings.Contains(t, "<http://") || strings.Contains(t, "<https://")
}
