package gohtml_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/gohtml"
	"github.com/gfz-dev/gfz/param"
)

// tag is a start or end tag found by tokenize.
type tag struct {
	name        string // lower case
	end, closed bool   // an end tag; a start tag ending in "/>"
}

// rawText are the elements whose content is text up to their end tag.
var rawText = map[string]bool{"script": true, "style": true, "textarea": true, "title": true, "xmp": true, "iframe": true, "noembed": true, "noframes": true}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tokenize finds the tags of doc as an HTML5 tokenizer does, and fails on
// what the generator promises never to write: a tag, attribute, comment,
// CDATA section or raw-text element left open.
func tokenize(doc string) ([]tag, error) {
	var tags []tag
	i := 0
	for i < len(doc) {
		if doc[i] != '<' {
			i++
			continue
		}
		rest := doc[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			j := strings.Index(rest[4:], "-->")
			if j < 0 {
				return nil, fmt.Errorf("unclosed comment at %d", i)
			}
			if c := rest[4 : 4+j]; strings.HasPrefix(c, ">") || strings.HasPrefix(c, "->") || strings.Contains(c, "--!>") {
				return nil, fmt.Errorf("comment ended early at %d", i)
			}
			i += 4 + j + 3
		case strings.HasPrefix(rest, "<![CDATA["):
			j := strings.Index(rest, "]]>")
			if j < 0 {
				return nil, fmt.Errorf("unclosed CDATA at %d", i)
			}
			i += j + 3
		case strings.HasPrefix(rest, "<!"), strings.HasPrefix(rest, "<?"):
			j := strings.IndexByte(rest, '>')
			if j < 0 {
				return nil, fmt.Errorf("unclosed declaration at %d", i)
			}
			i += j + 1
		case len(rest) > 2 && rest[1] == '/' && isLetter(rest[2]), len(rest) > 1 && isLetter(rest[1]):
			t, n, err := startOrEnd(rest)
			if err != nil {
				return nil, fmt.Errorf("at %d: %w", i, err)
			}
			tags = append(tags, t)
			i += n
			if !t.end && !t.closed && rawText[t.name] {
				j := indexEndTag(doc[i:], t.name)
				if j < 0 {
					return nil, fmt.Errorf("unclosed <%s> at %d", t.name, i)
				}
				i += j
			}
		default:
			i++ // a '<' that starts no tag
		}
	}
	return tags, nil
}

// startOrEnd reads the tag at the start of s and returns it and its
// length.
func startOrEnd(s string) (tag, int, error) {
	var t tag
	i := 1
	if s[1] == '/' {
		t.end = true
		i = 2
	}
	start := i
	for i < len(s) && !strings.ContainsRune(" \t\n\r\f/>", rune(s[i])) {
		i++
	}
	t.name = strings.ToLower(s[start:i])
	for {
		for i < len(s) && strings.ContainsRune(" \t\n\r\f", rune(s[i])) {
			i++
		}
		if i >= len(s) {
			return t, 0, errors.New("unclosed tag " + t.name)
		}
		switch s[i] {
		case '>':
			return t, i + 1, nil
		case '/':
			if i+1 < len(s) && s[i+1] == '>' {
				t.closed = true
				return t, i + 2, nil
			}
			i++
			continue
		}
		// an attribute
		for i < len(s) && !strings.ContainsRune(" \t\n\r\f/>=", rune(s[i])) {
			if s[i] == '"' || s[i] == '\'' || s[i] == '<' {
				return t, 0, fmt.Errorf("%q in an attribute name of %s", s[i], t.name)
			}
			i++
		}
		for i < len(s) && strings.ContainsRune(" \t\n\r\f", rune(s[i])) {
			i++
		}
		if i < len(s) && s[i] == '=' {
			i++
			for i < len(s) && strings.ContainsRune(" \t\n\r\f", rune(s[i])) {
				i++
			}
			if i >= len(s) {
				return t, 0, errors.New("unclosed tag " + t.name)
			}
			switch q := s[i]; q {
			case '"', '\'':
				j := strings.IndexByte(s[i+1:], q)
				if j < 0 {
					return t, 0, errors.New("unclosed attribute value in " + t.name)
				}
				i += j + 2
			case '>':
				return t, 0, errors.New("missing attribute value in " + t.name)
			default:
				for i < len(s) && !strings.ContainsRune(" \t\n\r\f>", rune(s[i])) {
					if strings.ContainsRune("\"'<=`", rune(s[i])) {
						return t, 0, fmt.Errorf("%q in an unquoted attribute value of %s", s[i], t.name)
					}
					i++
				}
			}
		}
	}
}

// indexEndTag returns the index of the end tag of name in s (a "</name"
// in any case, then a space, '/' or '>'), or -1.
func indexEndTag(s, name string) int {
	low := strings.ToLower(s)
	for off := 0; ; {
		j := strings.Index(low[off:], "</"+name)
		if j < 0 {
			return -1
		}
		k := off + j + 2 + len(name)
		if k < len(s) && strings.ContainsRune(" \t\n\r\f/>", rune(s[k])) {
			return off + j
		}
		off = k
	}
}

var void = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true, "keygen": true}

// balanced checks that the tags nest: every start tag but void and
// self-closed ones is closed by its end tag, innermost first.
func balanced(tags []tag) error {
	var stack []string
	for _, t := range tags {
		switch {
		case t.end && (len(stack) == 0 || stack[len(stack)-1] != t.name):
			return fmt.Errorf("</%s> closes %v", t.name, stack)
		case t.end:
			stack = stack[:len(stack)-1]
		case !t.closed && !void[t.name]:
			stack = append(stack, t.name)
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("left open: %v", stack)
	}
	return nil
}

// TestTokens draws documents from random bytes: every one tokenizes
// cleanly, WellFormed ones also balance, and every draw replays.
func TestTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, cfg := range []gohtml.Config{{}, {WellFormed: true}, {MaxDepth: 6, Words: []string{`"'<>&`, "</script>", "<!--", "a b"}}} {
		g := gohtml.Document(cfg)
		for i := range 1000 {
			rt := gentest.RoundTrip(g, gentest.RandomBytes(r, 300), uint64(i), 3)
			if rt.First != rt.Second || !rt.SameBytes {
				t.Fatalf("replay differs:\n%s\n---\n%s", rt.First, rt.Second)
			}
			doc := rt.First
			if !utf8.ValidString(doc) {
				t.Fatalf("invalid UTF-8: %q", doc)
			}
			tags, err := tokenize(doc)
			if err != nil {
				t.Fatalf("%+v: %v\n%s", cfg, err, doc)
			}
			if cfg.WellFormed {
				if err := balanced(tags); err != nil {
					t.Fatalf("WellFormed: %v\n%s", err, doc)
				}
			}
		}
	}
}

// TestSoup checks that the default configuration writes tag soup (some
// documents do not balance) and WellFormed does not.
func TestSoup(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	g := gohtml.Document(gohtml.Config{})
	unbalanced := 0
	for i := range 1000 {
		tags, err := tokenize(g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 300), uint64(i)))))
		if err != nil {
			t.Fatal(err)
		}
		if balanced(tags) != nil {
			unbalanced++
		}
	}
	t.Logf("tag soup: %d/1000 documents do not balance", unbalanced)
	if unbalanced < 100 || unbalanced > 900 {
		t.Errorf("tag soup: %d/1000 documents do not balance", unbalanced)
	}
}

// TestFeatures counts, over 6000 documents, the constructs the package
// documents.
func TestFeatures(t *testing.T) {
	features := map[string]*regexp.Regexp{
		"doctype":           regexp.MustCompile(`(?i)^<!doctype`),
		"whole document":    regexp.MustCompile(`<html[ >]`),
		"head":              regexp.MustCompile(`<head>`),
		"title":             regexp.MustCompile(`<title>`),
		"void element":      regexp.MustCompile(`(?i)<(br|img|hr|input|wbr)[ />]`),
		"self-closing void": regexp.MustCompile(`(?i)<(br|img|hr|input|wbr)[^>]*/>`),
		"double-quoted":     regexp.MustCompile(`[a-z]="[^"]*"`),
		"single-quoted":     regexp.MustCompile(`[a-z]='[^']*'`),
		"unquoted":          regexp.MustCompile(`[a-z] ?= ?[^"' >]+[ >]`),
		"valueless":         regexp.MustCompile(`<[a-z]+[^>]* (hidden|checked|disabled|async|required|multiple|reversed|selected)[ >]`),
		"upper-case tag":    regexp.MustCompile(`<[A-Z][A-Z]+[ >]`),
		"named reference":   regexp.MustCompile(`&[a-zA-Z]+;`),
		"no-semicolon ref":  regexp.MustCompile(`&(amp|copy)[^;a-z]`),
		"numeric reference": regexp.MustCompile(`&#[xX]?[0-9a-fA-F]+;`),
		"comment":           regexp.MustCompile(`<!--`),
		"script":            regexp.MustCompile(`<script[ >]`),
		"style":             regexp.MustCompile(`<style>`),
		"textarea":          regexp.MustCompile(`<textarea`),
		"table":             regexp.MustCompile(`<table`),
		"thead or tfoot":    regexp.MustCompile(`<t(head|foot)>`),
		"th":                regexp.MustCompile(`<th[ >]`),
		"caption":           regexp.MustCompile(`<caption>`),
		"form":              regexp.MustCompile(`<form`),
		"select":            regexp.MustCompile(`<select`),
		"optgroup":          regexp.MustCompile(`<optgroup`),
		"svg":               regexp.MustCompile(`<svg`),
		"svg CDATA":         regexp.MustCompile(`<!\[CDATA\[`),
		"foreignObject":     regexp.MustCompile(`<foreignObject>`),
		"math":              regexp.MustCompile(`<math`),
		"annotation-xml":    regexp.MustCompile(`<annotation-xml`),
		"template":          regexp.MustCompile(`<template>`),
		"list":              regexp.MustCompile(`(?i)<(ul|ol|menu|dl)[ >]`),
		"misnested":         regexp.MustCompile(`<(b|i|em|a|font)><(i|u|strong|s)>[^<]*</(b|i|em|a|font)>`),
		"stray end tag":     regexp.MustCompile(`</(br|sarcasm|x-y)>`),
		"nested anchor":     regexp.MustCompile(`<a href="1">x<a`),
	}
	// The rarest (a nested anchor: one of three picks of one of the
	// misnesting cases) is in about 0.5% of the documents (50-55 of
	// 10,000 at three seeds, 2026-11-28): 6000 make about 32, far from
	// the floor of 10, which 2000 (about 11) met by luck.
	const docs = 6000
	r := rand.New(rand.NewPCG(2, 2))
	g := gohtml.Document(gohtml.Config{})
	counts := map[string]int{}
	for i := range docs {
		d := g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 300), uint64(i))))
		for name, re := range features {
			if re.MatchString(d) {
				counts[name]++
			}
		}
	}
	for name := range features {
		if counts[name] < 10 {
			t.Errorf("%s: in %d/%d documents", name, counts[name], docs)
		}
	}
	t.Logf("feature counts over %d documents: %v", docs, counts)
}

// TestNear checks that near misses break the tokenization promise often
// and not always.
func TestNear(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	near, valid := gohtml.Near(gohtml.Config{WellFormed: true}), gohtml.Document(gohtml.Config{WellFormed: true})
	const n = 1000
	edited, broken := 0, 0
	for i := range n {
		data := gentest.RandomBytes(r, 300)
		d := near.Draw(gfz.NewT(param.New(data, uint64(i))))
		if d != valid.Draw(gfz.NewT(param.New(data, uint64(i)))) {
			edited++
		}
		if tags, err := tokenize(d); err != nil || balanced(tags) != nil {
			broken++
		}
	}
	t.Logf("near misses: %d/%d edited, %d/%d not well-formed", edited, n, broken, n)
	if edited < n/2 || broken < edited/3 || broken >= edited {
		t.Errorf("near misses: %d/%d edited, %d not well-formed", edited, n, broken)
	}
}

func ExampleDocument() {
	g := gohtml.Document(gohtml.Config{MaxDepth: 3, MaxAttrs: 2})
	for _, seed := range []uint64{13, 16} {
		fmt.Printf("%s\n~~~\n", g.Draw(gfz.NewT(param.New(nil, seed))))
	}
	// Output:
	// <!DOCTYPE html>
	// <html  dir='??z&notin;#z'><head></head>
	//   <body id=''>0,-_.);<sup	name=" &#x3C;>ࡖ">㞄(&bogus;?,& 0 x<=</SUP>轮?</body></html>
	// ~~~
	// <!DOCTYPE html SYSTEM "about:legacy-compat">
	//   yC< !A;≨ǖ_㤇&copy!09
	// ~~~
}

func ExampleNear() {
	g := gohtml.Near(gohtml.Config{MaxDepth: 2, WellFormed: true})
	for _, seed := range []uint64{1, 2, 3} {
		fmt.Printf("%q\n", g.Draw(gfz.NewT(param.New(nil, seed))))
	}
	// Output:
	// "<!DocType HTML>\r\n<!--C 9b--L>\r\n<!--C 9b--><html dir=\"x;&#X3c;២&#60;먑\" ><head><</title>a</title>\n</head>\n  <b<a>ody id=\"\" class=\"'&amp_/'->.&bogus;\"><textarea>b</textarea></body></html>"
	// "<!DOCTYPE html5>\n  <form action=? method=GET><label for=\"f\">z\t</label><br  CLASS=\"-<a_ᢛ`.';\" aria-label=\"&#60;\" /><select size=\"-  >9:-.y\"\tmultiple><option\tselected='\u1cff0&#128;<`' disabled=\";#&quot;:0\">0</option></select></form>"
	// "<!DOCTYPE html<html><head></head><body\tid=\"0#bc&#x110000;&#x3C;`杋\">C1_&lt;<blockquote\nname=\"0.>>  b#\" xml:lang=\"a9 <\"\nhref='mailto:a@b'><math><mfrac><mi>a</mi><mi>b</mi></mfrac><mi>x</mi><mo>=</mo><mn>92</mn><mi>x</mi><mo>=</mo><mn>43</mn></math><template><meta class=\"_a?x.\">_:b;0</template><ul\tstart=\" \"><li>9A 1&lt;A)-\"</li><li><input  placeholder=\":_y <\"></li></ul></Blockquote>&NotNestedLessLess;.慟</body></html>\n  "
}
