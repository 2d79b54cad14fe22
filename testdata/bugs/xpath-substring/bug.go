// Package xpathsubstring pins github.com/antchfx/xpath v1.3.8, whose
// substring() panics (slice bounds out of range) when its third argument
// reaches past the end of the string: substring("12345", 3, 5) slices
// m[2:7] of a five-byte string. The fix of issue #109 (v1.3.5) replaced
// an explicit panic by clamping the length to the length of the whole
// string instead of to what is left after the start, and a NaN length
// (number("abc"), 0 div 0) is not clamped at all and converts to the
// smallest int. Reported and fixed by pull request #138 ("Clip substring()
// to the window after start, not to the whole string"), released in
// v1.3.9:
// https://github.com/antchfx/xpath/pull/138
//
// An evaluation bug: a well-formed call of a core function whose start
// and length, numbers drawn from anywhere in the expression, together
// run past the string's end, the string being a literal or the value of
// a node of the document.
package xpathsubstring

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime"
	"slices"
	"strings"

	"example.com/bugkit"
	"github.com/antchfx/xpath"
)

// Issue is the upstream pull request that reports and fixes the bug.
const Issue = "https://github.com/antchfx/xpath/pull/138"

// Site is the slicing of the three-argument branch of substringFunc's
// closure (func.go:541 for a start of 1 or more, the report's; 536 and
// 539, the negative and zero starts, panic only on a NaN length), any
// caller. The two-argument branch's slice (func.go:518, a NaN start) is
// left out: v1.3.9 still panics there. The traceback names the closure
// github.com/antchfx/xpath.substringFunc.func1, or, when the compiler
// inlines substringFunc into the builder, (*builder).processFunction.
// substringFunc.funcN with an N that depends on the inlining (func7 under
// go test with Go 1.26): IsBug accepts both spellings.
var Site = bugkit.Site{Func: "github.com/antchfx/xpath.substringFunc.func1", File: "func.go", Lines: []int{536, 539, 541}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool {
	fr := bugkit.PanicFrames(stack)
	if len(fr) == 0 {
		return false
	}
	f := fr[0]
	return isSubstringClosure(f.Func) && path.Base(f.File) == Site.File && slices.Contains(Site.Lines, f.Line)
}

// isSubstringClosure reports whether fn is the closure substringFunc
// returns, in either spelling.
func isSubstringClosure(fn string) bool {
	for _, prefix := range []string{
		"github.com/antchfx/xpath.substringFunc.func",
		"github.com/antchfx/xpath.(*builder).processFunction.substringFunc.func",
	} {
		if n, ok := strings.CutPrefix(fn, prefix); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// Doc is the XML document the expressions run on.
const Doc = `<?xml version="1.0" encoding="UTF-8"?>
<library name="City Library" open="yes">
  <!-- catalogue of 2024 -->
  <shelf id="s1" floor="1">
    <book id="b1" lang="en" year="1999" price="12.50">
      <title>The Go Programming Language</title>
      <author>Alan Donovan</author>
      <author>Brian Kernighan</author>
      <tags><tag>go</tag><tag>programming</tag></tags>
    </book>
    <book id="b2" lang="fr" year="2005" price="30">
      <title>Le Petit Prince</title>
      <author>Antoine de Saint-Exupéry</author>
      <note>  first   edition  </note>
    </book>
  </shelf>
  <shelf id="s2" floor="2">
    <book id="b3" lang="de" year="2011" price="9.99">
      <title>Faust</title>
      <author>Goethe</author>
    </book>
    <magazine id="m1" issue="42"><title>XML Weekly</title><price>3</price></magazine>
    <dvd id="d1"/>
  </shelf>
</library>`

// Elements, Attributes and Strings are the document's names and a few
// of its values, for the generator.
var (
	Elements   = []string{"library", "shelf", "book", "title", "author", "tags", "tag", "note", "magazine", "price", "dvd"}
	Attributes = []string{"name", "open", "id", "floor", "lang", "year", "price", "issue"}
	Strings    = []string{"en", "fr", "b1", "s2", "Faust", "Goethe", "go", "2005", "12.50", "XML Weekly"}
)

// node is a node of the document: the root, an element, a text or a
// comment.
type node struct {
	typ      xpath.NodeType
	name     string
	data     string
	attrs    []xml.Attr
	parent   *node
	children []*node
	index    int // in parent.children
}

func (n *node) add(c *node) {
	c.parent = n
	c.index = len(n.children)
	n.children = append(n.children, c)
}

func (n *node) text(b *strings.Builder) {
	if n.typ == xpath.TextNode {
		b.WriteString(n.data)
		return
	}
	for _, c := range n.children {
		if c.typ != xpath.CommentNode {
			c.text(b)
		}
	}
}

// parseDoc reads an XML document into a tree.
func parseDoc(s string) (*node, error) {
	root := &node{typ: xpath.RootNode}
	cur := root
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return root, nil
			}
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &node{typ: xpath.ElementNode, name: tok.Name.Local, attrs: tok.Attr}
			cur.add(e)
			cur = e
		case xml.EndElement:
			cur = cur.parent
		case xml.CharData:
			if strings.TrimSpace(string(tok)) != "" {
				cur.add(&node{typ: xpath.TextNode, data: string(tok)})
			}
		case xml.Comment:
			cur.add(&node{typ: xpath.CommentNode, data: string(tok)})
		}
	}
}

var root = mustParse(Doc)

func mustParse(s string) *node {
	n, err := parseDoc(s)
	if err != nil {
		panic(err)
	}
	return n
}

// navigator is an xpath.NodeNavigator over the tree: a node and, when
// attr is not -1, one of its attributes.
type navigator struct {
	cur  *node
	attr int
}

func (n *navigator) NodeType() xpath.NodeType {
	if n.attr >= 0 {
		return xpath.AttributeNode
	}
	return n.cur.typ
}

func (n *navigator) LocalName() string {
	if n.attr >= 0 {
		return n.cur.attrs[n.attr].Name.Local
	}
	return n.cur.name
}

func (n *navigator) Prefix() string { return "" }

func (n *navigator) Value() string {
	if n.attr >= 0 {
		return n.cur.attrs[n.attr].Value
	}
	if n.cur.typ == xpath.CommentNode {
		return n.cur.data
	}
	var b strings.Builder
	n.cur.text(&b)
	return b.String()
}

func (n *navigator) Copy() xpath.NodeNavigator { c := *n; return &c }

func (n *navigator) MoveToRoot() { n.cur, n.attr = root, -1 }

func (n *navigator) MoveToParent() bool {
	if n.attr >= 0 {
		n.attr = -1
		return true
	}
	if n.cur.parent == nil {
		return false
	}
	n.cur = n.cur.parent
	return true
}

func (n *navigator) MoveToNextAttribute() bool {
	if n.cur.typ != xpath.ElementNode || n.attr+1 >= len(n.cur.attrs) {
		return false
	}
	n.attr++
	return true
}

func (n *navigator) MoveToChild() bool {
	if n.attr >= 0 || len(n.cur.children) == 0 {
		return false
	}
	n.cur = n.cur.children[0]
	return true
}

func (n *navigator) MoveToFirst() bool {
	if n.attr >= 0 || n.cur.parent == nil {
		return false
	}
	n.cur = n.cur.parent.children[0]
	return true
}

func (n *navigator) MoveToNext() bool {
	if n.attr >= 0 || n.cur.parent == nil || n.cur.index+1 >= len(n.cur.parent.children) {
		return false
	}
	n.cur = n.cur.parent.children[n.cur.index+1]
	return true
}

func (n *navigator) MoveToPrevious() bool {
	if n.attr >= 0 || n.cur.parent == nil || n.cur.index == 0 {
		return false
	}
	n.cur = n.cur.parent.children[n.cur.index-1]
	return true
}

func (n *navigator) MoveTo(other xpath.NodeNavigator) bool {
	o, ok := other.(*navigator)
	if !ok {
		return false
	}
	*n = *o
	return true
}

// maxNodes bounds the nodes read from a node-set result.
const maxNodes = 1000

// Evaluate compiles an XPath expression and evaluates it on the document,
// as xmlquery and htmlquery programs do: a number, string or boolean is
// formatted, a node set is read node by node (their values joined). The
// library reports some errors of evaluation (an argument of the wrong
// type) by panicking with an error value; those are returned as errors.
// A runtime error (an index or slice out of range, a nil dereference) is
// a crash and is not recovered.
func Evaluate(expr string) (res string, err error) {
	e, err := xpath.Compile(expr)
	if err != nil {
		return "", err
	}
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(runtime.Error); ok {
				panic(re)
			}
			if pe, ok := r.(error); ok {
				res, err = "", fmt.Errorf("xpath: evaluation: %w", pe)
				return
			}
			panic(r)
		}
	}()
	switch v := e.Evaluate(&navigator{cur: root, attr: -1}).(type) {
	case *xpath.NodeIterator:
		var parts []string
		for i := 0; i < maxNodes && v.MoveNext(); i++ {
			parts = append(parts, v.Current().LocalName()+"="+v.Current().Value())
		}
		return strings.Join(parts, "\n"), nil
	case nil:
		return "", errors.New("xpath: no result")
	default:
		return fmt.Sprint(v), nil
	}
}
