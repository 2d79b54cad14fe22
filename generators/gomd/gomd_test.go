package gomd_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/gomd"
	"github.com/gfz-dev/gfz/param"
)

// TestReplay checks that every document replays from the bytes it
// consumed, is valid UTF-8, and that Document is Join(Blocks). The parser
// checks (goldmark finds the blocks drawn) are in testdata/formats.
func TestReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, cfg := range []gomd.Config{{}, {MaxDepth: 5, MaxBlocks: 9, Words: []string{"# h", "- x", "\n", "|", "*"}, URLs: []string{"a b", "<x>"}}} {
		doc, near, blocks := gomd.Document(cfg), gomd.Near(cfg), gomd.Blocks(cfg)
		for i := range 500 {
			data := gentest.RandomBytes(r, 400)
			for _, rt := range []gentest.Replay[string]{gentest.RoundTrip(doc, data, uint64(i), 7), gentest.RoundTrip(near, data, uint64(i), 7)} {
				if rt.First != rt.Second || !rt.SameBytes {
					t.Fatalf("replay differs:\n%s\n---\n%s", rt.First, rt.Second)
				}
			}
			d := doc.Draw(gfz.NewT(param.New(data, uint64(i))))
			if !utf8.ValidString(d) {
				t.Fatalf("invalid UTF-8: %q", d)
			}
			if j := gomd.Join(blocks.Draw(gfz.NewT(param.New(data, uint64(i))))); j != d {
				t.Fatalf("Document %q, Join(Blocks) %q", d, j)
			}
		}
	}
}

// TestFeatures counts, over 2000 documents, the blocks drawn and the
// constructs of the text.
func TestFeatures(t *testing.T) {
	features := map[string]*regexp.Regexp{
		"ATX heading":        regexp.MustCompile(`(?m)^ {0,3}#{1,6}([ \t]|$)`),
		"setext heading":     regexp.MustCompile(`(?m)^ {0,3}(=+|-+) *$`),
		"nested list":        regexp.MustCompile(`(?m)^ +([-*+]|\d+[.)]) `),
		"task item":          regexp.MustCompile(`[-*+] +\[[ xX]\] `),
		"ordered start":      regexp.MustCompile(`(?m)^(0|[2-9]|\d\d+)[.)] `),
		"nested quote":       regexp.MustCompile(`(?m)^ *> ?> `),
		"quote in list":      regexp.MustCompile(`(?m)^([-*+]|\d+[.)]) +> `),
		"tilde fence":        regexp.MustCompile("~~~"),
		"info string":        regexp.MustCompile("(```|~~~)[a-z]"),
		"table alignment":    regexp.MustCompile(`:-+:`),
		"emphasis":           regexp.MustCompile(`(^|[ (])\*[^ *]`),
		"strong":             regexp.MustCompile(`\*\*[^ *]|__[^ _]`),
		"strikethrough":      regexp.MustCompile(`~~[^~ ]`),
		"code span":          regexp.MustCompile("[^`]`[^`]"),
		"inline link":        regexp.MustCompile(`\]\([^)]*\)`),
		"image":              regexp.MustCompile(`!\[`),
		"reference link":     regexp.MustCompile(`\]\[[^\]]*\]`),
		"autolink":           regexp.MustCompile(`<(https?|mailto):`),
		"extended autolink":  regexp.MustCompile(`(^| )www\.`),
		"raw inline HTML":    regexp.MustCompile(`[a-z] *<(span|a |br|x-y)`),
		"entity":             regexp.MustCompile(`&[a-zA-Z]+;`),
		"numeric reference":  regexp.MustCompile(`&#x?[0-9A-Fa-f]+;`),
		"backslash escape":   regexp.MustCompile(`\\[*_\[#<&]`),
		"hard break":         regexp.MustCompile(`(  |\\)\n`),
		"HTML comment block": regexp.MustCompile(`(?m)^<!--`),
		"HTML raw block":     regexp.MustCompile(`(?m)^<(pre|script|style|textarea)`),
		"lazy continuation":  regexp.MustCompile(`(?m)^ *>.*\n[a-zA-Z]`),
	}
	r := rand.New(rand.NewPCG(2, 2))
	g := gomd.Blocks(gomd.Config{})
	counts := map[string]int{}
	for i := range 2000 {
		blocks := g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 400), uint64(i))))
		seen := map[gomd.Kind]bool{}
		for _, b := range blocks {
			seen[b.Kind] = true
		}
		for k := range seen {
			counts["block "+k.String()]++
		}
		d := gomd.Join(blocks)
		for name, re := range features {
			if re.MatchString(d) {
				counts[name]++
			}
		}
	}
	for k := gomd.Paragraph; k <= gomd.LinkReference; k++ {
		if counts["block "+k.String()] < 50 {
			t.Errorf("%v: in %d/2000 documents", k, counts["block "+k.String()])
		}
	}
	for name := range features {
		if counts[name] < 10 {
			t.Errorf("%s: in %d/2000 documents", name, counts[name])
		}
	}
	t.Logf("counts over 2000 documents: %v", counts)
}

// TestZeros checks that all-zero bytes, where shrinking ends, give a
// one-word paragraph.
func TestZeros(t *testing.T) {
	d := gomd.Document(gomd.Config{}).Draw(gfz.NewT(param.New(make([]byte, 64), 0)))
	if d != "a\n" {
		t.Errorf("zeros: %q", d)
	}
}

func ExampleBlocks() {
	g := gomd.Blocks(gomd.Config{MaxBlocks: 4})
	for _, b := range g.Draw(gfz.NewT(param.New(nil, 10))) {
		fmt.Printf("%v:\n%s\n", b.Kind, b.Text)
	}
	// Output:
	// BlockQuote:
	//  > zz.'  `a  b` **a*
	// >
	//    > a19x1A-c.x A
	// B9
	// BlockQuote:
	// >    > ~~~~ js
	// > > ~~~~~
	// >    >
	// >  > xb  C-.  yc
	// >  >
	// >  > c9x9 a-_1xA.1 Bybbc_
	// Table:
	// | z'xcz Y x@y.zz  <https://a.b/c> | fyz'1 Yxay xb' ea_y_cA |
	// |--:|:--|
}

// Near misses: one document in four is left as drawn.
func ExampleNear() {
	g := gomd.Near(gomd.Config{MaxBlocks: 3})
	for _, seed := range []uint64{1, 2, 3} {
		fmt.Printf("%q\n", g.Draw(gfz.NewT(param.New(nil, seed))))
	}
	// Output:
	// "| C' e1.#yy xbyby. Z9 c9b a9c1 | dxaxx | xb |\n|--:|:-:|-|\n\n<script class=\"x\">\nY ybc\n\na < b && c\n</script>\n"
	// "- - -\n  _\n  a\n\nC9z\n"
	// "~~~w"
}
