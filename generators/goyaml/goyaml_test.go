package goyaml_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/goyaml"
	"github.com/gfz-dev/gfz/param"
)

// TestReplay checks that every stream replays from the bytes it consumed
// and is valid UTF-8. The parser checks are in testdata/formats, a module
// that may require a YAML parser.
func TestReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, cfg := range []goyaml.Config{{}, {MaxDepth: 6, MaxDocs: 4, Keys: []string{"<<", "a: b", "- x"}, Words: []string{"'", "\"", "\n", "\x00", "#"}}} {
		doc, near := goyaml.Document(cfg), goyaml.Near(cfg)
		for i := range 500 {
			data := gentest.RandomBytes(r, 400)
			for _, rt := range []gentest.Replay[string]{gentest.RoundTrip(doc, data, uint64(i), 7), gentest.RoundTrip(near, data, uint64(i), 7)} {
				if rt.First != rt.Second || !rt.SameBytes {
					t.Fatalf("replay differs:\n%s\n---\n%s", rt.First, rt.Second)
				}
			}
			if d := doc.Draw(gfz.NewT(param.New(data, uint64(i)))); !utf8.ValidString(d) {
				t.Fatalf("invalid UTF-8: %q", d)
			}
		}
	}
}

// TestFeatures counts, over 2000 streams, the constructs the package
// documents, by the text that writes them.
func TestFeatures(t *testing.T) {
	features := map[string]*regexp.Regexp{
		"block mapping":         regexp.MustCompile(`(?m)^\w[^:\n]*: `),
		"nested mapping":        regexp.MustCompile(`(?m)^ +[^ \n-][^:\n]*:( |$)`),
		"block sequence":        regexp.MustCompile(`(?m)^ *- `),
		"compact sequence":      regexp.MustCompile(`(?m)^ *- - `),
		"compact mapping":       regexp.MustCompile(`(?m)^ *- [^ \n'"][^:\n]*: `),
		"zero-indented seq":     regexp.MustCompile(`(?m)^(\w[^:\n]*):\r?\n- `),
		"explicit key":          regexp.MustCompile(`(?m)^ *\? `),
		"merge key":             regexp.MustCompile(`<<: \*`),
		"flow sequence":         regexp.MustCompile(`\[[^\]\n]*\]`),
		"flow mapping":          regexp.MustCompile(`\{[^}\n]*: [^}\n]*\}`),
		"JSON-like flow entry":  regexp.MustCompile(`\{[^}\n]*"[^"\n]*":[^ ]`),
		"single-quoted":         regexp.MustCompile(`'[^'\n]*''[^'\n]*'`),
		"double-quoted escape":  regexp.MustCompile(`"[^"\n]*\\[0abtnvfreN_LP ]`),
		"\\x \\u \\U escapes":   regexp.MustCompile(`\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})`),
		"literal block":         regexp.MustCompile(`\|[0-9]?[-+]?( #.*)?\r?\n`),
		"folded block":          regexp.MustCompile(`>[0-9]?[-+]?( #.*)?\r?\n`),
		"chomping indicator":    regexp.MustCompile(`[|>][0-9]?[-+]\r?\n`),
		"indentation indicator": regexp.MustCompile(`[|>][1-9]`),
		"anchor":                regexp.MustCompile(`&[a-z_-]+[0-9]+ `),
		"alias":                 regexp.MustCompile(`\*[a-z_-]+[0-9]+`),
		"standard tag":          regexp.MustCompile(`!![a-z]+ `),
		"local tag":             regexp.MustCompile(`!(local|thing) `),
		"verbatim tag":          regexp.MustCompile(`!<tag:`),
		"%TAG handle":           regexp.MustCompile(`!e![a-z]`),
		"%YAML directive":       regexp.MustCompile(`(?m)^%YAML 1\.1`),
		"several documents":     regexp.MustCompile(`(?m)^---`),
		"document end":          regexp.MustCompile(`(?m)^\.\.\.`),
		"comment line":          regexp.MustCompile(`(?m)^ *#`),
		"trailing comment":      regexp.MustCompile(`\S[ \t]+#`),
		"multi-line plain":      regexp.MustCompile(`(?m): \w[^\n"']*\r?\n {2,}\w`),
		"null":                  regexp.MustCompile(`: (~|null)|:\r?\n\w`),
		"timestamp":             regexp.MustCompile(`\d{4}-\d\d-\d\d`),
		"special float":         regexp.MustCompile(`\.(inf|INF|Inf|nan|NaN)`),
		"CRLF":                  regexp.MustCompile(`\r\n`),
	}
	r := rand.New(rand.NewPCG(2, 2))
	g := goyaml.Document(goyaml.Config{})
	counts := map[string]int{}
	for i := range 2000 {
		d := g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 400), uint64(i))))
		for name, re := range features {
			if re.MatchString(d) {
				counts[name]++
			}
		}
	}
	for name := range features {
		if counts[name] < 10 {
			t.Errorf("%s: in %d/2000 streams", name, counts[name])
		}
	}
	t.Logf("feature counts over 2000 streams: %v", counts)
}

// TestZeros checks that all-zero bytes, where shrinking ends, give a
// one-entry mapping with a short key.
func TestZeros(t *testing.T) {
	d := goyaml.Document(goyaml.Config{}).Draw(gfz.NewT(param.New(make([]byte, 64), 0)))
	if len(d) > 8 {
		t.Errorf("zeros: %q", d)
	}
}

func ExampleDocument() {
	g := goyaml.Document(goyaml.Config{Keys: []string{"name", "port", "tags"}})
	for _, seed := range []uint64{4, 17} {
		fmt.Printf("%s~~~\n", g.Draw(gfz.NewT(param.New(nil, seed))))
	}
	// Output:
	// -
	// - 31620
	// - ! True
	// - !!seq
	//   - &base1 null
	//   - {'name': [1 z뽁9 , Null],tags: !<tag:example.com,2000:x> -27972,}
	//   - B0/CxC
	//   - &anchor-2
	//     #	[0z
	//     z: *base1
	//     port: C
	//       1a:x+
	//     port2: !!bool false
	// ~~~
	// %YAML 1.1
	// %TAG !e! tag:example.com,2000:app/
	// ---
	// #
	// 'y. z咭.(/': 190:20:30 #*
	// ...
	// ---
	// ~~~
}

// Near misses: one stream in four is left valid.
func ExampleNear() {
	g := goyaml.Near(goyaml.Config{Keys: []string{"name", "port", "tags"}})
	for _, seed := range []uint64{4, 17} {
		fmt.Printf("%q\n", g.Draw(gfz.NewT(param.New(nil, seed))))
	}
	// Output:
	// "-\n- 31620\n- ! True\n- !!seq\n  - &base1 null\n  - {name': [1 z뽁9 , Null],tags: !<tag:example.com,2000:x> -27972,\n  - B0/CxC\n  - &anchor-2\n    #\t[0z\n    z: *base1\n    port: C\n      1a:x+\n    port2: !!bool false\n"
	// "%YAML 1.1\n%TAG !e! tag:example.com,2000:app/\n---\n#\n'y. z咭.(/': 190:20:30 #*\n...\n---\n"
}
