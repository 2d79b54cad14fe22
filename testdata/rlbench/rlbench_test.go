// Package rlbench measures valid and unique valid inputs per engine
// (docs/BENCHMARKS.md, "RLCheck"): each target draws the same values and
// applies the same validity check as an example or realistic target, and
// stops there (the property is not what is measured). With GFZ_UNIQUE set
// to a file name, a target counts the distinct valid values it generated
// (their printed form) and keeps the count in that file (rewritten in
// place at every new one); measure.sh runs the targets.
package rlbench

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gojson"
	"github.com/gfz-dev/gfz/testdata/examples/bst"
	"github.com/gfz-dev/gfz/testdata/examples/config"
	"github.com/gfz-dev/gfz/testdata/targets/jsonorder"
)

var (
	uniq    = map[string]struct{}{}
	uniqOut *os.File
)

func init() {
	if p := os.Getenv("GFZ_UNIQUE"); p != "" {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			panic(err)
		}
		uniqOut = f
	}
}

// valid counts v as a valid value.
func valid(v string) {
	if uniqOut == nil {
		return
	}
	if _, ok := uniq[v]; ok {
		return
	}
	uniq[v] = struct{}{}
	uniqOut.WriteAt([]byte(fmt.Sprintf("%12d\n", len(uniq))), 0)
}

// The bst example's generator and validity (testdata/examples/bst).
func genTree(t *gfz.T, depth int) *bst.Node {
	if depth == 0 || !gen.Bool().Draw(t) {
		return nil
	}
	n := &bst.Node{Key: gen.IntRange(0, 63).Draw(t)}
	n.Left = genTree(t, depth-1)
	n.Right = genTree(t, depth-1)
	return n
}

var tree = gen.Custom(func(t *gfz.T) *bst.Node { return genTree(t, 5) })

func show(n *bst.Node, b *strings.Builder) {
	if n == nil {
		b.WriteByte('.')
		return
	}
	fmt.Fprintf(b, "(%d ", n.Key)
	show(n.Left, b)
	show(n.Right, b)
	b.WriteByte(')')
}

func FuzzBST(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		root := tree.Draw(t)
		t.Assume(root != nil && bst.Valid(root))
		var b strings.Builder
		show(root, &b)
		valid(b.String())
	})
}

// The config example's generator and validity (testdata/examples/config).
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

func FuzzConfig(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		doc := document.Draw(t)
		_, err := config.Load(doc)
		t.Assume(err == nil)
		valid(doc)
	})
}

// The jsonorder target's generators and validity (testdata/targets/jsonorder).
var (
	syntaxDoc = gojson.Object(gojson.Config{
		MaxDepth: 4, MaxItems: 4,
		Keys:   []string{"id", "customer", "name", "email", "items", "sku", "quantity", "price", "currency", "notes", "labels"},
		Values: []string{"o-1", "Ada", "ada@example.com", "EUR", "USD", "A-100"},
	})
	item = gen.Of[jsonorder.Item](
		gen.WithField[jsonorder.Item]("SKU", gen.Tokens("A-100", "B-7", "C-3", "")),
		gen.WithField[jsonorder.Item]("Quantity", gen.IntegersRange(-1, 5)),
		gen.WithField[jsonorder.Item]("Price", gen.FloatRange(-1.0, 1000.0)),
	)
	order = gen.Of[jsonorder.Order](
		gen.WithField[jsonorder.Order]("ID", gen.Tokens("o-1", "o-2", "o-3", "")),
		gen.WithField[jsonorder.Order]("Currency", gen.Tokens("EUR", "USD", "GBP")),
		gen.WithField[jsonorder.Order]("Items", gen.SliceOf(item, 0, 3)),
		gen.WithField[jsonorder.Customer]("Name", gen.Tokens("Ada", "Bob", "Cy", "")),
		gen.WithField[jsonorder.Customer]("Email", gen.Tokens("ada@example.com", "bob@b.org", "c@d", "bob")),
		gen.MaxLen(3),
	)
	typedDoc = gen.Map(order, func(o jsonorder.Order) string {
		b, err := json.Marshal(o)
		if err != nil {
			panic(err)
		}
		return string(b)
	})
	jsonDoc = gen.OneOf(syntaxDoc, typedDoc).Named("document")
)

func FuzzJSON(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		doc := jsonDoc.Draw(t)
		_, stage, _ := jsonorder.Load(doc)
		t.Assume(stage == jsonorder.Valid)
		valid(doc)
	})
}
