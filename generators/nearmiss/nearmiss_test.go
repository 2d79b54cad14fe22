package nearmiss_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/generators/gosrc"
	"github.com/gfz-dev/gfz/generators/goxml"
	"github.com/gfz-dev/gfz/generators/nearmiss"
	"github.com/gfz-dev/gfz/param"
)

func xmlValid(doc string) bool {
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}

func goValid(src string) bool {
	_, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	return err == nil
}

// TestStdFormats applies the near-miss step to the older format
// generators, whose outputs the standard library checks: the share edited
// follows PerMille, most edits break the document, some do not, and every
// draw replays.
func TestStdFormats(t *testing.T) {
	cases := []struct {
		name  string
		g     gen.Generator[string]
		syn   nearmiss.Syntax
		valid func(string) bool
		n     int
	}{
		{"json", gojson.Value(gojson.Config{}), nearmiss.JSON, func(s string) bool { return json.Valid([]byte(s)) }, 2000},
		{"xml", goxml.Document(goxml.Config{}), nearmiss.XML, xmlValid, 1000},
		{"go", gosrc.File(gosrc.Config{MaxDecls: 3}), nearmiss.GoSource, goValid, 300},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		near := nearmiss.Of(c.g, c.syn, nearmiss.Config{})
		edited, broken := 0, 0
		for i := range c.n {
			data := gentest.RandomBytes(r, 400)
			rt := gentest.RoundTrip(near, data, uint64(i), 3)
			if rt.First != rt.Second || !rt.SameBytes {
				t.Fatalf("%s: replay differs: %q vs %q", c.name, rt.First, rt.Second)
			}
			orig := c.g.Draw(gfz.NewT(param.New(data, uint64(i))))
			if !c.valid(orig) {
				t.Fatalf("%s: the valid generator drew an invalid document %q", c.name, orig)
			}
			if rt.First != orig {
				edited++
			}
			if !c.valid(rt.First) {
				broken++
			}
		}
		t.Logf("%s: %d/%d edited, %d/%d invalid", c.name, edited, c.n, broken, c.n)
		lo, hi := c.n*nearmiss.DefaultPerMille/1000*85/100, c.n*nearmiss.DefaultPerMille/1000*105/100
		if edited < lo || edited > hi {
			t.Errorf("%s: %d/%d edited, want %d..%d", c.name, edited, c.n, lo, hi)
		}
		if broken < edited/2 || broken >= edited {
			t.Errorf("%s: %d of %d edited documents invalid: want most but not all", c.name, broken, edited)
		}
	}
}

// TestPerMille checks the gate: 1000 edits every document, and a
// document is edited or passes unchanged with the gate's bytes alone.
func TestPerMille(t *testing.T) {
	g := nearmiss.Of(gen.Just(`{"a": [1, "b\n"]}`), nearmiss.JSON, nearmiss.Config{PerMille: 1000, MaxEdits: 1})
	r := rand.New(rand.NewPCG(4, 4))
	same := 0
	for i := range 1000 {
		if g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 20), uint64(i)))) == `{"a": [1, "b\n"]}` {
			same++
		}
	}
	// A cut, deletion or duplication at the very end leaves the
	// document as it was: a few in a hundred.
	if same > 50 {
		t.Errorf("PerMille 1000: %d/1000 documents unchanged", same)
	}
	// Bytes 0xE7 0x03 = 999 >= 750: unchanged, with nothing more drawn.
	src := param.New([]byte{0xE7, 0x03}, 0)
	if got := nearmiss.Apply(gfz.NewT(src), "[1]", nearmiss.JSON, nearmiss.Config{}); got != "[1]" || src.Pos() != 2 {
		t.Errorf("gate 999: %q after %d bytes", got, src.Pos())
	}
}

// Apply edits a document drawn elsewhere: here a truncation (kind 0) at
// the middle.
func ExampleApply() {
	t := gfz.NewT(param.New([]byte{0, 0, 0, 0, 0x00, 0x80}, 0))
	fmt.Println(nearmiss.Apply(t, `{"key": [1, 2]}`, nearmiss.JSON, nearmiss.Config{}))
	// Output: {"key":
}

// Of makes a near-miss generator of any document generator.
func ExampleOf() {
	near := nearmiss.Of(gojson.Value(gojson.Config{}), nearmiss.JSON, nearmiss.Config{PerMille: 1000})
	for i := range 4 {
		doc := near.Draw(gfz.NewT(param.New(nil, uint64(i))))
		fmt.Printf("%q %v\n", doc, json.Valid([]byte(doc)))
	}
	// Output:
	// "{\"\\u20a8\\uda59\\uddf4\\u9e6B3\\\"鱸i\\u896a\"}" false
	// "" false
	// "[{\"\\t\":124,\"*Oپ\":{\"Xa\\ud8fc\\ude82\\u17fbv&t\\ud8de\\udfc7}\":false,\"<T\\ue583꽶붴.x9`\":\"S\\ud96e\\ude45q\\\"J8\\u31bb\"},\"1\\ub103\\u58b5\\rS\":\"r\",\"e\\tX9\\uda07\\udeda12[B\":\"Uud82e\\udd2,dW\\udb6a\\udeceU\\ufc66Kv'},\"\\u9a02\\u8704\\u8e28D戉J\\\\\\ud92a\\udc02\"]" false
	// "" false
}
