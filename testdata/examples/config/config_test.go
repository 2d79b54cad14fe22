package config

import (
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// The generator knows the syntax, not the schema: it draws element and
// attribute names and values from small vocabularies (the way Zest's XML
// generator drew names from string literals of the program under test) and
// always emits well-formed markup. Whether a document conforms to the
// schema is up to chance and feedback.
var (
	names  = []string{"config", "server", "route", "limit"}
	attrs  = []string{"name", "port", "path", "weight"}
	values = []string{"api", "web", "/", "/v1", "0", "1", "7", "80", "99999", ""}
)

func pick(t *gfz.T, words []string) string {
	return words[gen.IntRange(0, len(words)-1).Draw(t)]
}

func genElement(t *gfz.T, b *strings.Builder, depth int) {
	name := pick(t, names)
	b.WriteString("<" + name)
	for range gen.IntRange(0, 2).Draw(t) {
		b.WriteString(" " + pick(t, attrs) + `="` + pick(t, values) + `"`)
	}
	n := 0
	if depth > 0 {
		n = gen.IntRange(0, 3).Draw(t)
	}
	if n == 0 {
		b.WriteString("/>")
		return
	}
	b.WriteString(">")
	for range n {
		genElement(t, b, depth-1)
	}
	b.WriteString("</" + name + ">")
}

var document = gen.Custom(func(t *gfz.T) string {
	var b strings.Builder
	genElement(t, &b, 3)
	return b.String()
})

func FuzzShares(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		cfg, err := Load(document.Draw(t))
		t.Assume(err == nil)
		for name, shares := range Shares(cfg) {
			sum := 0
			for _, s := range shares {
				sum += s
			}
			if sum > 100 {
				t.Fatalf("server %s: shares add up to %d%%", name, sum)
			}
		}
	})
}

func TestLoad(t *testing.T) {
	cfg, err := Load(`<config><server name="api" port="80"><route path="/v1" weight="3"/><route path="/" weight="1"/></server></config>`)
	if err != nil {
		t.Fatal(err)
	}
	if got := Shares(cfg)["api"]; len(got) != 2 || got[0] != 75 || got[1] != 25 {
		t.Fatalf("shares = %v", got)
	}
	for _, bad := range []string{`<config/>`, `<config><server port="80"><route path="/" weight="1"/></server></config>`, `<config><x></y></config>`} {
		if _, err := Load(bad); err == nil {
			t.Errorf("Load(%q) succeeded", bad)
		}
	}
}
