package formats

import (
	"fmt"
	"hash/fnv"
	"testing"

	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gohtml"
	"github.com/gfz-dev/gfz/generators/gomd"
	"github.com/gfz-dev/gfz/generators/gotoml"
	"github.com/gfz-dev/gfz/generators/goyaml"
)

// validN is the number of documents each valid generator draws.
const validN = 2000

// TestValid draws validN documents per generator and configuration and
// parses them with a real parser: at least 99% must be valid. The TOML
// and YAML generators promise 100%; Markdown is valid when goldmark finds
// exactly the top-level blocks drawn; HTML when every tag written is
// recognised, and, for WellFormed, the tags balance.
func TestValid(t *testing.T) {
	cases := []struct {
		name  string
		check func(i int) error
	}{
		{"toml", docCheck(gotoml.Document(gotoml.Config{}), parseTOML)},
		{"toml deep", docCheck(gotoml.Document(gotoml.Config{MaxDepth: 5, MaxTables: 8, Keys: []string{"a", "a.b", "", "x y", "ü"},
			Words: []string{"'", `"""`, "\n", "\x00", "\x7f", "\\"}}), parseTOML)},
		{"yaml", docCheck(goyaml.Document(goyaml.Config{}), parseYAML)},
		{"yaml deep", docCheck(goyaml.Document(goyaml.Config{MaxDepth: 5, MaxItems: 5, MaxDocs: 4, Keys: []string{"<<", "a: b", "- x", "", "~"},
			Words: []string{"'", `"`, "\n", "\x00", "#", "a: b", "- c", "|"}}), parseYAML)},
		{"markdown", mdCheck(gomd.Config{})},
		{"markdown deep", mdCheck(gomd.Config{MaxDepth: 5, MaxBlocks: 8, Words: []string{"# h", "- x", "\n", "|", "*", "<div>"}, URLs: []string{"a b", "<x>"}})},
		{"html", docCheck(gohtml.Document(gohtml.Config{}), parseHTML)},
		{"html well-formed", func(i int) error {
			doc := drawFrom(gohtml.Document(gohtml.Config{WellFormed: true}), data(i, 1), uint64(i))
			if _, err := parseHTML(doc); err != nil {
				return err
			}
			return htmlBalanced(doc)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := 0
			for i := range validN {
				if err := c.check(i); err != nil {
					bad++
					if bad <= 3 {
						t.Logf("document %d: %v", i, err)
					}
				}
			}
			t.Logf("%s: %d/%d valid (%.2f%%)", c.name, validN-bad, validN, 100*float64(validN-bad)/validN)
			if bad*100 > validN {
				t.Errorf("%s: %d/%d invalid, want at most 1%%", c.name, bad, validN)
			}
		})
	}
}

// docCheck checks the i-th document of g with parse.
func docCheck(g gen.Generator[string], parse func(string) (string, error)) func(int) error {
	return func(i int) error {
		doc := drawFrom(g, data(i, 1), uint64(i))
		if _, err := parse(doc); err != nil {
			return fmt.Errorf("%v\n%s", err, doc)
		}
		return nil
	}
}

// mdCheck checks that goldmark finds the blocks gomd.Blocks drew.
func mdCheck(cfg gomd.Config) func(int) error {
	g := gomd.Blocks(cfg)
	return func(i int) error {
		blocks := drawFrom(g, data(i, 1), uint64(i))
		want := make([]gomd.Kind, len(blocks))
		for j, b := range blocks {
			want[j] = b.Kind
		}
		doc := gomd.Join(blocks)
		if got := mdKinds(doc); fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("drew %v, goldmark found %v\n%s", want, got, doc)
		}
		return nil
	}
}

// nearN is the number of near misses drawn per format.
const nearN = 1000

// TestNear draws nearN near misses per format and compares each with the
// document it was made from (the valid generator drawn from the same
// bytes): how many the edits changed, how many the parser rejects, and
// how many it reads differently. Most edited documents must be rejected
// or read differently, and some must still parse.
func TestNear(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			edited, rejected, differs := 0, 0, 0
			for i := range nearN {
				b := data(i, 2)
				orig := drawFrom(f.valid, b, uint64(i))
				doc := drawFrom(f.near, b, uint64(i))
				if doc == orig {
					continue
				}
				edited++
				sig, err := f.parse(doc)
				if err != nil {
					rejected++
					continue
				}
				if want, err := f.parse(orig); err == nil && sig != want {
					differs++
				}
			}
			t.Logf("%s: %d/%d edited; of those %d rejected (%.0f%%), %d read differently (%.0f%%), %d read the same",
				f.name, edited, nearN, rejected, pct(rejected, edited), differs, pct(differs, edited), edited-rejected-differs)
			if edited < nearN/2 {
				t.Errorf("only %d/%d near misses edited", edited, nearN)
			}
			if rejected+differs < edited/2 {
				t.Errorf("%d rejected and %d read differently of %d edited: want most", rejected, differs, edited)
			}
			if rejected == edited {
				t.Errorf("every edited near miss rejected: want some that still parse")
			}
		})
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// TestDeterminism draws 300 documents per generator twice, in a different
// order, and requires the same documents.
func TestDeterminism(t *testing.T) {
	for _, f := range formats {
		for _, g := range []struct {
			kind string
			gen  gen.Generator[string]
		}{{"valid", f.valid}, {"near", f.near}} {
			first := make([]uint64, 300)
			for i := range first {
				first[i] = hash(drawFrom(g.gen, data(i, 3), uint64(i)))
			}
			for i := len(first) - 1; i >= 0; i-- {
				if h := hash(drawFrom(g.gen, data(i, 3), uint64(i))); h != first[i] {
					t.Fatalf("%s %s: document %d differs between two draws from the same bytes", f.name, g.kind, i)
				}
			}
		}
	}
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
