package goxml_test

import (
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/param"
)

// wellFormed decodes doc with encoding/xml's strict decoder and checks that
// every prefix is bound.
func wellFormed(doc string) error {
	d := xml.NewDecoder(strings.NewReader(doc))
	roots := 0
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
			names := append([]xml.Name{tok.Name}, func() []xml.Name {
				var ns []xml.Name
				for _, a := range tok.Attr {
					ns = append(ns, a.Name)
				}
				return ns
			}()...)
			for _, n := range names {
				if n.Space != "" && n.Space != "xmlns" && !strings.HasPrefix(n.Space, "urn:gfz:") {
					return fmt.Errorf("unbound prefix %q", n.Space)
				}
			}
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		return fmt.Errorf("%d root elements", roots)
	}
	return nil
}

func TestWellFormed(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, cfg := range []goxml.Config{
		{},
		{Namespaces: true, MaxDepth: 6},
		{Names: []string{"config", "server"}, Attrs: []string{"name", "port"}, Values: []string{"a<&\"b", "80"}},
		// User values with "]]>" and a control character, as text, in
		// CDATA and in attributes (">" was not escaped, and CDATA kept
		// the control character).
		{Names: []string{"a", "b-c"}, Attrs: []string{"id"}, Values: []string{"]]>", "\x01", "<&\"'", "\t\n"}},
	} {
		g := goxml.Document(cfg)
		sawNS, sawRef := false, false
		for i := range 2000 {
			rt := gentest.RoundTrip(g, gentest.RandomBytes(r, 300), uint64(i), 3)
			doc := rt.First
			if err := wellFormed(doc); err != nil {
				t.Fatalf("%+v: %v\n%s", cfg, err, doc)
			}
			sawNS = sawNS || strings.Contains(doc, "xmlns:")
			sawRef = sawRef || strings.Contains(doc, "&#")
			if rt.Second != doc || !rt.SameBytes {
				t.Fatalf("replay differs: %q vs %q", rt.Second, doc)
			}
		}
		if sawNS != cfg.Namespaces || !sawRef {
			t.Errorf("%+v: namespaces %v, character references %v", cfg, sawNS, sawRef)
		}
	}
}

func ExampleDocument() {
	g := goxml.Document(goxml.Config{Names: []string{"config", "server"}, Attrs: []string{"port"}})
	t := gfz.NewT(param.New([]byte{1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1}, 0))
	fmt.Println(g.Draw(t))
	// Output: <config port=""><config></config></config><?pi-dgfk b;?>
}

// TestPrefixedNames: a preferred name with its own prefix is used as
// given under Namespaces (a prefix in scope was put before it: "n1:p:b").
func TestPrefixedNames(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	g := goxml.Document(goxml.Config{Namespaces: true, Names: []string{"p:b"}, Attrs: []string{"q:c"}})
	saw := false
	for i := range 2000 {
		doc := gentest.RoundTrip(g, gentest.RandomBytes(r, 300), uint64(i), 3).First
		if strings.Contains(doc, ":p:b") || strings.Contains(doc, ":q:c") {
			t.Fatalf("a prefix before a prefixed name: %s", doc)
		}
		saw = saw || strings.Contains(doc, "<p:b")
	}
	if !saw {
		t.Error("the preferred name p:b was never drawn")
	}
}

// TestBadNames: Document refuses names encoding/xml does not read as
// names, naming the field and the name.
func TestBadNames(t *testing.T) {
	for _, c := range []struct {
		cfg  goxml.Config
		want string
	}{
		{goxml.Config{Names: []string{"ok", "1a"}}, `Config.Names: "1a"`},
		{goxml.Config{Attrs: []string{"a b"}}, `Config.Attrs: "a b"`},
		{goxml.Config{Root: "<r>"}, `Config.Root: "<r>"`},
		{goxml.Config{Names: []string{""}}, `Config.Names: ""`},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, c.want) {
					t.Errorf("%+v: panic %v, want one with %s", c.cfg, r, c.want)
				}
			}()
			goxml.Document(c.cfg)
		}()
	}
	// Names encoding/xml reads are accepted, Unicode and prefixes included.
	goxml.Document(goxml.Config{Names: []string{"été", "p:b", "a-b.c", "_x"}, Attrs: []string{"xml:lang"}, Root: "r"})
}
