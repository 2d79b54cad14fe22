package formats

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/formatreg"
	"github.com/gfz-dev/gfz/param"
)

// typical holds seeds of each format as projects' fuzz targets have them:
// a few short documents in the style of their tests and examples.
var typical = map[string][]string{
	"json": {
		`{"name":{"first":"Tom","last":"Anderson"},"age":37,"children":["Sara","Alex","Jack"]}`,
		`[1, 2.5, -3e2, true, null, "x"]`,
		"{\n  \"a\": {\"b\": [ {}, [] ]}\n}\n",
		`{}`,
	},
	"go": {
		"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n",
		"package p\n\ntype T struct{ A, B int }\n\nfunc (t *T) Sum() int { return t.A + t.B }\n",
		"package p; var x = []int{1, 2, 3}",
	},
	"xml": {
		`<?xml version="1.0" encoding="UTF-8"?><note><to>Tove</to><from>Jani</from></note>`,
		"<catalog>\n  <book id=\"bk101\"><author>Gambardella</author><price>44.95</price></book>\n</catalog>\n",
		`<svg xmlns="http://www.w3.org/2000/svg" width="10"><rect x="1" y="1"/></svg>`,
		`<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title><!-- c --><![CDATA[<a>]]></feed>`,
		// Roots named as HTML elements, but with a namespace: XML.
		`<data xmlns="urn:example:config"><map key="a">1</map></data>`,
		`<c:table xmlns:c="urn:example:cal"><c:time>10:00</c:time></c:table>`,
	},
	"html": {
		"<!DOCTYPE html>\n<html><head><title>T</title></head><body><p>Hello</body></html>\n",
		`<p>Some <b>bold</b> and <i>italic</i> text`,
		`<table><tr><td>1<td>2</table>`,
		`<div class="a"><a href="/x">link</a><br></div>`,
		`<ul><li>one<li>two</ul>`,
		// XHTML: well-formed, with a namespace, but html is HTML's root.
		`<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>`,
	},
	"toml": {
		"title = \"TOML Example\"\n\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00Z # dates\n",
		"[database]\nports = [ 8001, 8001, 8002 ]\nconnection_max = 5000\nenabled = true\n",
		"[[fruit]]\n  name = \"apple\"\n  [[fruit.variety]]\n    name = \"red delicious\"\n",
		"str = \"\"\"\nRoses are red\nViolets are blue\"\"\"\nlit = 'C:\\Users'\n",
		"a = [ [ 1, 2 ], [\"a\", \"b\"] ]\nb = -3.5e+2\n",
		"# a comment\nkey = \"value\"\nx.y.z = 1\n\"quoted key\" = 'lit'\n",
		"arr = [\n  1,\n  2, # two\n]\ninline = { x = 1, y = { z = 2 } }\n",
	},
	"yaml": {
		"a: 1\nb:\n  c: [1, 2]\n  d: {e: f}\n",
		"---\n- name: x\n  value: 1\n- name: y\n  value: |\n    literal\n    text\n",
		"key: value\nlist:\n  - one\n  - two\nfolded: >\n  some folded\n  text\n",
		"anchors:\n  base: &b {x: 1}\n  derived:\n    <<: *b\n    y: 2\n",
		"%YAML 1.1\n---\n!!map {a: b}\n...\n",
		"{a: 1, b: [x, y]}",
	},
	"csv": {
		"first_name,last_name,username\nRob,Pike,rob\nKen,Thompson,ken\n",
		"a,b,c\n1,2,3\n",
		"\"quoted, field\",x\n\"with \"\"quotes\"\"\",y\n",
		"id;name\n1;x\n",
		"x,y\r\n1,2\r\n",
	},
	"url": {
		"http://example.com/path?q=1#frag",
		"https://user:pass@host:8080/a/b/../c?x=y&z",
		"mailto:someone@example.com",
		"/relative/path?query=1",
		"ftp://[::1]:21/file",
	},
	"markdown": {
		"# Heading\n\nSome *emphasis* and `code`.\n",
		"- foo\n- bar\n  - baz\n\n1. one\n2. two\n",
		"> quote\n> - item\n>\n> text\n",
		"```go\nfmt.Println()\n```\n\n    indented\n",
		"| a | b |\n|---|:-:|\n| 1 | 2 |\n\nterm\n: definition\n\n[^1]: note\n",
		"[link](/uri \"title\") ![img](/i.png) <http://a.b> ~~del~~\n",
		"Title\n=====\n\nA paragraph with **strong** text.\n",
	},
}

func docs(ss []string) [][]byte {
	var out [][]byte
	for _, s := range ss {
		out = append(out, []byte(s))
	}
	return out
}

// TestRegistered: every format formatreg knows is registered, with a
// title.
func TestRegistered(t *testing.T) {
	var got []string
	for _, f := range formatreg.Registered() {
		got = append(got, f.Name)
	}
	if strings.Join(got, " ") != strings.Join(formatreg.Names, " ") {
		t.Errorf("registered %v, want %v", got, formatreg.Names)
	}
}

// TestTypicalSeeds: each format's typical seeds are recognised as that
// format, every one of them.
func TestTypicalSeeds(t *testing.T) {
	for _, name := range formatreg.Names {
		c := formatreg.Choose(docs(typical[name]))
		if c.Format.Name != name || c.Matched != len(typical[name]) || c.Total != len(typical[name]) {
			t.Errorf("%s seeds: chose %q (%d of %d), want %s (all %d)", name, c.Format.Name, c.Matched, c.Total, name, len(typical[name]))
		}
	}
}

// TestSniffersExclusive: a sniffer accepts no typical seed of a format
// after it in formatreg.Names (the later format would lose the tie), and
// the ones it accepts of earlier formats are listed here.
func TestSniffersExclusive(t *testing.T) {
	// Accepted on purpose: YAML is a superset of JSON; a JSON array is
	// one CSV record; a TOML or YAML comment line is a Markdown heading,
	// a YAML sequence a Markdown list; an XML root named as an HTML
	// element, with a namespace, starts as HTML does (XML wins the tie).
	allowed := map[string]bool{"yaml<json": true, "csv<json": true, "markdown<toml": true, "markdown<yaml": true, "markdown<go": true, "html<xml": true}
	for i, f := range formatreg.Registered() {
		for j, name := range formatreg.Names {
			if i == j {
				continue
			}
			for _, d := range typical[name] {
				if !f.Sniff([]byte(d)) {
					continue
				}
				if j > i || !allowed[f.Name+"<"+name] {
					t.Errorf("the %s sniffer accepts a %s seed: %q", f.Name, name, d)
				}
			}
		}
	}
}

// TestMixedSeeds: with seeds of two formats the majority is chosen only
// when it holds two thirds of them; empty seeds do not count.
func TestMixedSeeds(t *testing.T) {
	toml, md := typical["toml"], typical["markdown"]
	for _, c := range []struct {
		seeds []string
		want  string
	}{
		{append(append([]string{}, toml[:4]...), md[:2]...), "toml"}, // 4 of 6
		{append(append([]string{}, toml[:3]...), md[:2]...), ""},     // 3 of 5
		{append(append([]string{}, toml[:2]...), "", " \n"), "toml"}, // blanks not counted
		{[]string{"", ""}, ""},
		{nil, ""},
	} {
		got := formatreg.Choose(docs(c.seeds))
		if got.Format.Name != c.want {
			t.Errorf("seeds %q: chose %q (%d of %d), want %q", c.seeds, got.Format.Name, got.Matched, got.Total, c.want)
		}
	}
}

// TestBinaryAndPlainSeeds: binary data and plain words look like no
// format.
func TestBinaryAndPlainSeeds(t *testing.T) {
	for _, seeds := range [][]string{
		{"\x00\x01\x02\xff", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "GIF89a\x01\x00\x01\x00\x80\x00\x00"},
		{"hello", "some words here", "12345", "ab cd"},
		{"name.last", "age", "children.#", "friends.#.first"},
	} {
		if c := formatreg.Choose(docs(seeds)); c.Format.Name != "" {
			t.Errorf("seeds %q: chose %s (%d of %d), want none", seeds, c.Format.Name, c.Matched, c.Total)
		}
	}
}

// TestDraw: every format draws documents from PRNG bytes alone,
// deterministically per seed, mostly different across seeds, and they
// look like the format often enough (near misses need not).
func TestDraw(t *testing.T) {
	for _, f := range formatreg.Registered() {
		seen := map[string]bool{}
		like := 0
		const n = 200
		for seed := range uint64(n) {
			doc, ok := formatreg.Generate(f, param.New(nil, seed))
			if !ok {
				t.Errorf("%s: seed %d: no document", f.Name, seed)
				continue
			}
			again, _ := formatreg.Generate(f, param.New(nil, seed))
			if !bytes.Equal(doc, again) {
				t.Errorf("%s: seed %d: two draws differ", f.Name, seed)
			}
			seen[string(doc)] = true
			if f.Sniff(doc) {
				like++
			}
		}
		if len(seen) < n/2 {
			t.Errorf("%s: %d distinct documents of %d", f.Name, len(seen), n)
		}
		t.Logf("%s: %d distinct of %d, %d look like %s", f.Name, len(seen), n, like, f.Title)
		if like < n/10 {
			t.Errorf("%s: only %d of %d drawn documents look like %s", f.Name, like, n, f.Title)
		}
	}
}

func ExampleRegistered() {
	for _, f := range formatreg.Registered() {
		fmt.Print(f.Name, " ")
	}
	fmt.Println()
	// Output: json go xml html toml yaml csv url markdown
}

// BenchmarkDraw: the cost of one document of each format, drawn from a
// fresh seed as the format mix draws them.
func BenchmarkDraw(b *testing.B) {
	for _, f := range formatreg.Registered() {
		b.Run(f.Name, func(b *testing.B) {
			src := param.New(nil, 0)
			src.SetRecording(false)
			size := 0
			for i := 0; i < b.N; i++ {
				src.Reset(nil, uint64(i))
				doc, _ := formatreg.Generate(f, src)
				size += len(doc)
			}
			b.ReportMetric(float64(size)/float64(b.N), "bytes/doc")
		})
	}
}
