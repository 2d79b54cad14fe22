package formats

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"math/rand/v2"
	"net/url"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gocsv"
	"github.com/gfz-dev/gfz/generators/gohtml"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/generators/gomd"
	"github.com/gfz-dev/gfz/generators/gosrc"
	"github.com/gfz-dev/gfz/generators/gotoml"
	"github.com/gfz-dev/gfz/generators/gourl"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/generators/goyaml"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
	"gopkg.in/yaml.v3"
)

// data returns the parameter bytes of the i-th draw of a test: 512 bytes
// of a PCG stream fixed by i and salt (draws past them read the source's
// PRNG extension, seeded by i).
func data(i int, salt uint64) []byte {
	r := rand.New(rand.NewPCG(uint64(i), salt))
	b := make([]byte, 512)
	for j := range b {
		b[j] = byte(r.Uint32())
	}
	return b
}

// drawFrom draws a value of g from b, extended with seed.
func drawFrom[V any](g gen.Generator[V], b []byte, seed uint64) V {
	return g.Draw(gfz.NewT(param.New(b, seed)))
}

// format is a generator under test with the parser that checks it.
type format struct {
	name        string
	valid, near gen.Generator[string]
	// parse parses a document and returns a signature of what it found
	// (compared between a near miss and the document it was made from),
	// or the parser's error.
	parse func(doc string) (string, error)
	// coverpkg names the parser's packages for go test -coverpkg.
	coverpkg string
}

var formats = []format{
	{"toml", gotoml.Document(gotoml.Config{}), gotoml.Near(gotoml.Config{}), parseTOML, "github.com/BurntSushi/toml,github.com/BurntSushi/toml/internal"},
	{"yaml", goyaml.Document(goyaml.Config{}), goyaml.Near(goyaml.Config{}), parseYAML, "gopkg.in/yaml.v3"},
	{"markdown", gomd.Document(gomd.Config{}), gomd.Near(gomd.Config{}), parseMarkdown,
		"github.com/yuin/goldmark,github.com/yuin/goldmark/parser,github.com/yuin/goldmark/ast,github.com/yuin/goldmark/text,github.com/yuin/goldmark/util,github.com/yuin/goldmark/extension,github.com/yuin/goldmark/renderer/html"},
	{"html", gohtml.Document(gohtml.Config{}), gohtml.Near(gohtml.Config{}), parseHTML, "golang.org/x/net/html"},
	{"csv", gocsv.Document(gocsv.Config{}), gocsv.Near(gocsv.Config{}), parseCSV, "encoding/csv"},
	{"url", gourl.URL(gourl.Config{}), gourl.Near(gourl.Config{}), parseURL, "net/url"},
	{"json", gojson.Value(gojson.Config{Whitespace: true}), nearmiss.Of(gojson.Value(gojson.Config{Whitespace: true}), nearmiss.JSON, nearmiss.Config{}), parseJSON, "encoding/json"},
	{"xml", goxml.Document(goxml.Config{Namespaces: true}), nearmiss.Of(goxml.Document(goxml.Config{Namespaces: true}), nearmiss.XML, nearmiss.Config{}), parseXML, "encoding/xml"},
	{"go", gosrc.File(gosrc.Config{MaxDecls: 4}), nearmiss.Of(gosrc.File(gosrc.Config{MaxDecls: 4}), nearmiss.GoSource, nearmiss.Config{}), parseGo, "go/parser,go/scanner"},
}

func formatNamed(name string) format {
	for _, f := range formats {
		if f.name == name {
			return f
		}
	}
	panic("no format " + name)
}

func parseTOML(doc string) (string, error) {
	var v map[string]any
	if _, err := toml.Decode(doc, &v); err != nil {
		return "", err
	}
	return fmt.Sprint(v), nil
}

func parseYAML(doc string) (string, error) {
	d := yaml.NewDecoder(strings.NewReader(doc))
	var sig strings.Builder
	for {
		var v any
		err := d.Decode(&v)
		if errors.Is(err, io.EOF) {
			return sig.String(), nil
		}
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&sig, "%v\n", v)
	}
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// mdKinds returns the kinds of the top-level blocks goldmark finds.
func mdKinds(doc string) []gomd.Kind {
	root := markdown.Parser().Parse(text.NewReader([]byte(doc)))
	var out []gomd.Kind
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		k := gomd.Kind(255)
		switch n := n.(type) {
		case *ast.Paragraph:
			k = gomd.Paragraph
		case *ast.Heading:
			k = gomd.Heading
		case *ast.ThematicBreak:
			k = gomd.ThematicBreak
		case *ast.FencedCodeBlock:
			k = gomd.FencedCode
		case *ast.CodeBlock:
			k = gomd.IndentedCode
		case *ast.Blockquote:
			k = gomd.BlockQuote
		case *ast.List:
			k = gomd.BulletList
			if n.IsOrdered() {
				k = gomd.OrderedList
			}
		case *east.Table:
			k = gomd.Table
		case *ast.HTMLBlock:
			k = gomd.HTMLBlock
		case *ast.LinkReferenceDefinition:
			k = gomd.LinkReference
		}
		out = append(out, k)
	}
	return out
}

// parseMarkdown renders doc (a parser that fails would panic) and
// returns the kinds of all the nodes of its tree, blocks and inlines, in
// document order with their depth.
func parseMarkdown(doc string) (string, error) {
	var b bytes.Buffer
	if err := markdown.Convert([]byte(doc), &b); err != nil {
		return "", err
	}
	var sig strings.Builder
	depth := 0
	err := ast.Walk(markdown.Parser().Parse(text.NewReader([]byte(doc))), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			depth++
			fmt.Fprintf(&sig, "%d%s ", depth, n.Kind())
		} else {
			depth--
		}
		return ast.WalkContinue, nil
	})
	return sig.String(), err
}

// htmlTags returns the tags x/net/html's tokenizer finds in doc, CDATA
// sections allowed inside svg and math.
func htmlTags(doc string) []html.Token {
	z := html.NewTokenizer(strings.NewReader(doc))
	foreign := 0
	var out []html.Token
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			out = append(out, tok)
			if tok.Data == "svg" || tok.Data == "math" {
				switch tt {
				case html.StartTagToken:
					foreign++
				case html.EndTagToken:
					foreign--
				}
				z.AllowCDATA(foreign > 0)
			}
		}
	}
}

// parseHTML parses doc with x/net/html and fails when markup the
// generator wrote was not recognised as such by its tokenizer: a text
// token (outside raw text and CDATA) whose source holds "<" and a letter,
// "</" or "<!". It returns the sequence of tags.
func parseHTML(doc string) (string, error) {
	if _, err := html.Parse(strings.NewReader(doc)); err != nil {
		return "", err
	}
	z := html.NewTokenizer(strings.NewReader(doc))
	foreign := 0
	raw := false // the text token next is a raw-text element's content
	var sig strings.Builder
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return sig.String(), nil
		}
		src := string(z.Raw())
		tok := z.Token()
		switch tt {
		case html.TextToken:
			if !raw && !strings.HasPrefix(src, "<![CDATA[") {
				for i := 0; i+1 < len(src); i++ {
					if c := src[i+1]; src[i] == '<' && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!') {
						return "", fmt.Errorf("markup in text: %q", src)
					}
				}
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			sig.WriteString(tok.String())
			if tok.Data == "svg" || tok.Data == "math" {
				switch tt {
				case html.StartTagToken:
					foreign++
				case html.EndTagToken:
					foreign--
				}
				z.AllowCDATA(foreign > 0)
			}
		}
		raw = tt == html.StartTagToken && rawElems[tok.Data]
	}
}

var rawElems = map[string]bool{"script": true, "style": true, "textarea": true, "title": true, "xmp": true, "iframe": true, "noembed": true,
	"noframes": true, "noscript": true, "plaintext": true}

var voidElems = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true, "keygen": true}

// htmlBalanced checks that the tags x/net/html's tokenizer finds nest.
func htmlBalanced(doc string) error {
	var stack []string
	for _, t := range htmlTags(doc) {
		switch t.Type {
		case html.StartTagToken:
			if !voidElems[t.Data] {
				stack = append(stack, t.Data)
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != t.Data {
				return fmt.Errorf("</%s> closes %v", t.Data, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("left open: %v", stack)
	}
	return nil
}

func parseCSV(doc string) (string, error) {
	r := csv.NewReader(strings.NewReader(doc))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	return fmt.Sprint(recs), err
}

func parseURL(doc string) (string, error) {
	u, err := url.Parse(doc)
	if err != nil {
		return "", err
	}
	if _, err := url.ParseQuery(u.RawQuery); err != nil {
		return "", err
	}
	return u.String(), nil
}

func parseJSON(doc string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return "", err
	}
	return fmt.Sprint(v), nil
}

func parseXML(doc string) (string, error) {
	d := xml.NewDecoder(strings.NewReader(doc))
	n := 0
	for {
		_, err := d.Token()
		if err == io.EOF {
			return fmt.Sprint(n), nil
		}
		if err != nil {
			return "", err
		}
		n++
	}
}

func parseGo(doc string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", doc, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	return fmt.Sprint(len(f.Decls)), nil
}
