package formats

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gfz-dev/gfz/generators/gohtml"
	"github.com/gfz-dev/gfz/generators/gomd"
	"github.com/gfz-dev/gfz/generators/gotoml"
	"github.com/gfz-dev/gfz/generators/goyaml"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
	"gopkg.in/yaml.v3"
)

// featureN is the number of documents the feature tests parse per
// format; each feature must appear, as the parser reads it, in at least
// featureMin of them.
const (
	featureN   = 1000
	featureMin = 5
)

// countFeatures parses featureN documents of g with seen, which reports
// the features of one document, and checks every name in want.
func countFeatures(t *testing.T, name string, draw func(i int) string, seen func(doc string, add func(string)), want []string) {
	t.Helper()
	counts := map[string]int{}
	for i := range featureN {
		got := map[string]bool{}
		seen(draw(i), func(f string) { got[f] = true })
		for f := range got {
			counts[f]++
		}
	}
	for _, f := range want {
		if counts[f] < featureMin {
			t.Errorf("%s: %s in %d/%d documents", name, f, counts[f], featureN)
		}
	}
	t.Logf("%s: %v", name, counts)
}

func TestTOMLFeatures(t *testing.T) {
	g := gotoml.Document(gotoml.Config{})
	countFeatures(t, "toml", func(i int) string { return drawFrom(g, data(i, 4), uint64(i)) }, func(doc string, add func(string)) {
		var v map[string]any
		md, err := toml.Decode(doc, &v)
		if err != nil {
			add("error")
			return
		}
		for _, k := range md.Keys() {
			if len(k) >= 3 {
				add("key path of 3+")
			}
			switch md.Type(k...) {
			case "ArrayHash":
				add("array of tables")
			case "Hash":
				add("table")
			}
			for _, part := range k {
				if part == "" {
					add("empty key")
				}
				if strings.ContainsAny(part, " .\"'") {
					add("quoted key")
				}
			}
		}
		var walk func(x any)
		walk = func(x any) {
			switch x := x.(type) {
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			case []map[string]any:
				for _, e := range x {
					walk(e)
				}
			case []any:
				add("array")
				if len(x) == 0 {
					add("empty array")
				}
				kinds := map[string]bool{}
				for _, e := range x {
					kinds[strings.SplitN(typeName(e), " ", 2)[0]] = true
					walk(e)
				}
				if len(kinds) > 1 {
					add("mixed array")
				}
			default:
				add(typeName(x))
			}
		}
		walk(v)
	}, []string{"table", "array of tables", "key path of 3+", "empty key", "quoted key", "array", "empty array", "mixed array",
		"int", "int extreme", "float", "float inf", "float nan", "string", "string with newline", "bool",
		"offset date-time", "local date-time", "local date", "local time"})
}

func typeName(x any) string {
	switch x := x.(type) {
	case int64:
		if x == math.MaxInt64 || x == math.MinInt64 {
			return "int extreme"
		}
		return "int"
	case float64:
		switch {
		case math.IsInf(x, 0):
			return "float inf"
		case math.IsNaN(x):
			return "float nan"
		}
		return "float"
	case string:
		if strings.Contains(x, "\n") {
			return "string with newline"
		}
		return "string"
	case bool:
		return "bool"
	case time.Time:
		switch x.Location().String() { // the zones of BurntSushi/toml/internal
		case "datetime-local":
			return "local date-time"
		case "date-local":
			return "local date"
		case "time-local":
			return "local time"
		}
		return "offset date-time"
	case []any:
		return "array"
	case map[string]any:
		return "table"
	}
	return "other"
}

func TestYAMLFeatures(t *testing.T) {
	g := goyaml.Document(goyaml.Config{})
	countFeatures(t, "yaml", func(i int) string { return drawFrom(g, data(i, 4), uint64(i)) }, func(doc string, add func(string)) {
		d := yaml.NewDecoder(strings.NewReader(doc))
		docs := 0
		for {
			var n yaml.Node
			if err := d.Decode(&n); err != nil {
				break
			}
			docs++
			var walk func(n *yaml.Node)
			walk = func(n *yaml.Node) {
				if n.Anchor != "" {
					add("anchor")
				}
				if n.Style&yaml.TaggedStyle != 0 {
					add("explicit tag")
				}
				if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" {
					add("comment")
				}
				switch n.Kind {
				case yaml.AliasNode:
					add("alias")
				case yaml.ScalarNode:
					switch {
					case n.Style&yaml.LiteralStyle != 0:
						add("literal block")
					case n.Style&yaml.FoldedStyle != 0:
						add("folded block")
					case n.Style&yaml.SingleQuotedStyle != 0:
						add("single-quoted")
					case n.Style&yaml.DoubleQuotedStyle != 0:
						add("double-quoted")
					default:
						add("plain")
					}
					add("scalar " + n.ShortTag())
				case yaml.MappingNode:
					add("mapping")
					if n.Style&yaml.FlowStyle != 0 {
						add("flow mapping")
					}
					for i := 0; i+1 < len(n.Content); i += 2 {
						if n.Content[i].Value == "<<" && n.Content[i+1].Kind == yaml.AliasNode {
							add("merge")
						}
					}
				case yaml.SequenceNode:
					add("sequence")
					if n.Style&yaml.FlowStyle != 0 {
						add("flow sequence")
					}
				}
				for _, c := range n.Content {
					walk(c)
				}
			}
			walk(&n)
		}
		if docs > 1 {
			add("several documents")
		}
	}, []string{"anchor", "alias", "explicit tag", "comment", "literal block", "folded block", "single-quoted", "double-quoted", "plain",
		"scalar !!int", "scalar !!float", "scalar !!bool", "scalar !!null", "scalar !!str", "scalar !!timestamp", "scalar !!binary",
		"mapping", "flow mapping", "merge", "sequence", "flow sequence", "several documents"})
}

func TestMarkdownFeatures(t *testing.T) {
	g := gomd.Document(gomd.Config{})
	countFeatures(t, "markdown", func(i int) string { return drawFrom(g, data(i, 4), uint64(i)) }, func(doc string, add func(string)) {
		src := []byte(doc)
		root := markdown.Parser().Parse(text.NewReader(src))
		ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			add(n.Kind().String())
			switch n := n.(type) {
			case *ast.Emphasis:
				if n.Level == 2 {
					add("Strong")
				}
			case *ast.Heading:
				if n.Level == 6 {
					add("Heading 6")
				}
			case *ast.List:
				if n.IsOrdered() && n.Start != 1 {
					add("List start")
				}
				if !n.IsTight {
					add("loose List")
				}
				if _, ok := n.Parent().(*ast.ListItem); ok {
					add("nested List")
				}
			case *ast.Blockquote:
				if _, ok := n.Parent().(*ast.Blockquote); ok {
					add("nested Blockquote")
				}
			case *ast.FencedCodeBlock:
				if n.Info != nil {
					add("fence info")
				}
			case *ast.Text:
				if n.HardLineBreak() {
					add("hard break")
				}
			case *east.TableCell:
				if n.Alignment != east.AlignNone {
					add("aligned cell")
				}
			case *ast.Link:
				if _, ok := n.Parent().(*ast.Paragraph); ok && len(n.Title) > 0 {
					add("link title")
				}
			}
			return ast.WalkContinue, nil
		})
	}, []string{"Paragraph", "Heading", "Heading 6", "ThematicBreak", "FencedCodeBlock", "fence info", "CodeBlock", "Blockquote",
		"nested Blockquote", "List", "List start", "loose List", "nested List", "ListItem", "Table", "aligned cell", "HTMLBlock",
		"LinkReferenceDefinition", "Emphasis", "Strong", "Strikethrough", "CodeSpan", "Link", "link title", "Image", "AutoLink",
		"RawHTML", "TaskCheckBox", "hard break", "TextBlock"})
}

func TestHTMLFeatures(t *testing.T) {
	g := gohtml.Document(gohtml.Config{})
	countFeatures(t, "html", func(i int) string { return drawFrom(g, data(i, 4), uint64(i)) }, func(doc string, add func(string)) {
		root, err := html.Parse(strings.NewReader(doc))
		if err != nil {
			add("error")
			return
		}
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			switch n.Type {
			case html.DoctypeNode:
				add("doctype")
				if len(n.Attr) > 0 {
					add("legacy doctype")
				}
			case html.CommentNode:
				add("comment")
			case html.ElementNode:
				if n.Namespace != "" {
					add(n.Namespace + " element")
				}
				switch n.Data {
				case "table", "tbody", "td", "th", "caption", "form", "select", "option", "optgroup", "textarea", "script", "style",
					"template", "foreignObject", "annotation-xml", "li", "dd", "title", "button", "fieldset", "input", "img", "br":
					add(n.Data)
				}
				for _, a := range n.Attr {
					if a.Namespace != "" {
						add("namespaced attribute")
					}
					if a.Val == "" {
						add("empty attribute")
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(root)
	}, []string{"doctype", "legacy doctype", "comment", "svg element", "math element", "namespaced attribute", "empty attribute",
		"table", "tbody", "td", "th", "caption", "form", "select", "option", "optgroup", "textarea", "script", "style", "template",
		"foreignObject", "annotation-xml", "li", "dd", "title", "button", "fieldset", "input", "img", "br"})
}
