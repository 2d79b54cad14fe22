package gotoml_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/gotoml"
	"github.com/gfz-dev/gfz/param"
)

// TestReplay checks that every document replays from the bytes it
// consumed and is valid UTF-8 (TOML's encoding). The parser checks are in
// testdata/formats, a module that may require a TOML decoder.
func TestReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, cfg := range []gotoml.Config{{}, {MaxDepth: 6, MaxTables: 10, Keys: []string{"a", "a.b", "x y"}, Words: []string{"'", `"""`, "\n", "\x00"}},
		// Invalid UTF-8 in the preferred words and keys: written escaped, never raw.
		{Keys: []string{"\xff", "k\xc3"}, Words: []string{"a\xffb", "\xc3"}}} {
		doc, near := gotoml.Document(cfg), gotoml.Near(cfg)
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

// TestFeatures counts, over 2000 documents, the constructs the package
// documents, by the text that writes them.
func TestFeatures(t *testing.T) {
	features := map[string]*regexp.Regexp{
		"table":               regexp.MustCompile(`(?m)^\[[^\[]`),
		"array of tables":     regexp.MustCompile(`(?m)^\[\[`),
		"dotted header":       regexp.MustCompile(`(?m)^\[[^\]\n]*\.`),
		"inline table":        regexp.MustCompile(`=\s*\{`),
		"empty inline table":  regexp.MustCompile(`\{\}`),
		"dotted key":          regexp.MustCompile(`(?m)^[A-Za-z0-9_-]+\s*\.\s*[A-Za-z0-9_"'-]`),
		"quoted key":          regexp.MustCompile(`(?m)^"[^"\n]*"\s*=`),
		"literal key":         regexp.MustCompile(`(?m)^'[^'\n]*'\s*=`),
		"basic string":        regexp.MustCompile(`= ?"[^"]`),
		"escape \\u":          regexp.MustCompile(`\\u[0-9a-fA-F]{4}`),
		"escape \\U":          regexp.MustCompile(`\\U[0-9a-fA-F]{8}`),
		"short escape":        regexp.MustCompile(`\\[btnfr"\\]`),
		"multi-line basic":    regexp.MustCompile(`"""`),
		"line-ending \\":      regexp.MustCompile(`\\[ \t]*\r?\n`),
		"literal string":      regexp.MustCompile(`= ?'[^']`),
		"multi-line literal":  regexp.MustCompile(`'''`),
		"hex":                 regexp.MustCompile(`0x[0-9a-fA-F]`),
		"octal":               regexp.MustCompile(`0o[0-7]`),
		"binary":              regexp.MustCompile(`0b[01]`),
		"underscore number":   regexp.MustCompile(`[0-9]_[0-9]`),
		"inf":                 regexp.MustCompile(`[=,\[ ]\s*[+-]?inf`),
		"nan":                 regexp.MustCompile(`[=,\[ ]\s*[+-]?nan`),
		"exponent":            regexp.MustCompile(`[0-9][eE][+-]?[0-9]`),
		"offset date-time":    regexp.MustCompile(`\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)`),
		"local date-time":     regexp.MustCompile(`\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?($|[^Zz+\-.\d])`),
		"local date":          regexp.MustCompile(`= ?\d{4}-\d\d-\d\d\s*($|[,\]#])`),
		"local time":          regexp.MustCompile(`= ?\d\d:\d\d:\d\d`),
		"fraction of seconds": regexp.MustCompile(`:\d\d\.\d`),
		"multi-line array":    regexp.MustCompile(`\[\r?\n  `),
		"trailing comma":      regexp.MustCompile(`,\s*\]`),
		"comment":             regexp.MustCompile(`#`),
		"CRLF":                regexp.MustCompile(`\r\n`),
		"boolean":             regexp.MustCompile(`= ?(true|false)`),
		"nested array":        regexp.MustCompile(`\[\s*\[`),
	}
	r := rand.New(rand.NewPCG(2, 2))
	g := gotoml.Document(gotoml.Config{})
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
			t.Errorf("%s: in %d/2000 documents", name, counts[name])
		}
	}
	t.Logf("feature counts over 2000 documents: %v", counts)
}

// TestZeros checks that all-zero bytes, where shrinking ends, give the
// smallest document: the empty one.
func TestZeros(t *testing.T) {
	if d := gotoml.Document(gotoml.Config{}).Draw(gfz.NewT(param.New(make([]byte, 64), 0))); d != "" {
		t.Errorf("zeros: %q", d)
	}
}

func ExampleDocument() {
	g := gotoml.Document(gotoml.Config{Keys: []string{"name", "port"}, MaxTables: 2})
	for _, seed := range []uint64{3, 14} {
		fmt.Printf("%s---\n", g.Draw(gfz.NewT(param.New(nil, seed))))
	}
	// Output:
	// # ஔ,]
	// port="a]\u0466[\\깊\U000037e8"
	// # }ڸ\饫,'9
	// port2=+29309.000001e-0251
	// #	耲ボ,.[\
	// 6t-  ='''
	// 以b'''''
	// [name.e2mb6 	]
	// '	' 	={}
	// ---
	// 6sCz0.phykz	=0b1_0
	// 's0Z_'=2054-12-11T01:45:27
	// -= 	0
	// 6sCz0 ."9"=  0x6
	//
	// [-gcB]
	// #䆕\0 a
	// name.6aesr.a=false
	// name2 =  2046-09-26T13:57:12.71759
	// "\u007f".port=01:40:42
	// [[3]]
	// 'mC'=-26036.25e-03_8
	// 'Z-wfz4'=1_2_3_4
	// ---
}

// The near misses of the same documents: one draw in four is left valid.
func ExampleNear() {
	g := gotoml.Near(gotoml.Config{Keys: []string{"name", "port"}, MaxTables: 2})
	for _, seed := range []uint64{3, 14} {
		fmt.Printf("%q\n", g.Draw(gfz.NewT(param.New(nil, seed))))
	}
	// Output:
	// "# ஔ,]\nport=\"a]\\u0466[\\\\깊\\U000037e8\"\n# }ڸ\\饫,'9\nport2=+29309.000001e-0251\n#\t耲ボ,.[\\\n6t-  ='''\n以b'''''\n[name.e2mb6 \t]\n'\t' \t={}\n"
	// "6sCz0.phykz\t=0b1_0\n's0Z_'=2054-12-11T01:45:27\n-= \t0\n6sCz0 .\"9\"=  0x6\n\n[-gcB]\n#䆕\\0 a\nname.6aesr.a=false\nname2 =  2046-09-26T13:57:12.71759\n\"\\u007f\".port=01:40:42\n[[3]]\n'mC'=-26036.25e-03_8\n'Z-wfz4'=1_2_3_4\n"
}
