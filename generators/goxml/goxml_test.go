package goxml_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/param"
)

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, r.IntN(n))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

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
	} {
		g := goxml.Document(cfg)
		sawNS, sawRef := false, false
		for i := range 2000 {
			src1 := param.New(randomBytes(r, 300), uint64(i))
			doc := g.Draw(gfz.NewT(src1))
			if err := wellFormed(doc); err != nil {
				t.Fatalf("%+v: %v\n%s", cfg, err, doc)
			}
			sawNS = sawNS || strings.Contains(doc, "xmlns:")
			sawRef = sawRef || strings.Contains(doc, "&#")
			consumed := bytes.Clone(src1.Consumed())
			src2 := param.New(consumed, 3)
			if doc2 := g.Draw(gfz.NewT(src2)); doc2 != doc || !bytes.Equal(consumed, src2.Consumed()) {
				t.Fatalf("replay differs: %q vs %q", doc2, doc)
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
	// Output: <config port=""><config></config></config><!--_㍡-->
}
