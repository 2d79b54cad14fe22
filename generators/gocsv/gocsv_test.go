package gocsv_test

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/gocsv"
	"github.com/gfz-dev/gfz/param"
)

func read(doc string, cfg gocsv.Config) ([][]string, error) {
	r := csv.NewReader(strings.NewReader(doc))
	r.Comma = cfg.Comma
	if r.Comma == 0 {
		r.Comma = ','
	}
	r.Comment = cfg.Comment
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

var configs = []gocsv.Config{
	{},
	{Comma: ';', Comment: '#', Ragged: true, Words: []string{"a\r\nb", `"q"`, "#x", " lead", "ü;,"}},
	{Comma: '\t', Header: []string{"id", "name", "note\r\nmore"}, MaxRecords: 10},
	{Comma: '|', Comment: ';', MaxFields: 1},
}

// TestReadBack draws documents from random bytes: encoding/csv must read
// every one back into exactly the records drawn from the same bytes (CRLF
// in a preferred word or the header is drawn as LF, as encoding/csv reads
// it).
func TestReadBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, cfg := range configs {
		doc, recs := gocsv.Document(cfg), gocsv.Records(cfg)
		for i := range 1000 {
			data := gentest.RandomBytes(r, 200)
			rt := gentest.RoundTrip(doc, data, uint64(i), 9)
			if rt.First != rt.Second || !rt.SameBytes {
				t.Fatalf("%+v: replay differs: %q vs %q", cfg, rt.First, rt.Second)
			}
			want := recs.Draw(gfz.NewT(param.New(data, uint64(i))))
			got, err := read(rt.First, cfg)
			if err != nil {
				t.Fatalf("%+v: %v\n%q", cfg, err, rt.First)
			}
			if len(want) == 0 {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v: read %q, drew %q\n%q", cfg, got, want, rt.First)
			}
		}
	}
}

// TestFeatures counts the constructs of 2000 documents.
func TestFeatures(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	cfg := gocsv.Config{Comment: '#', Ragged: true}
	g := gocsv.Document(cfg)
	counts := map[string]int{}
	features := map[string]func(string) bool{
		"quoted field":        func(d string) bool { return strings.Contains(d, `"`) },
		"doubled quote":       func(d string) bool { return strings.Contains(d, `""`) },
		"quoted line break":   func(d string) bool { return strings.Contains(d, "\"\n") || strings.Contains(d, "\n\"") },
		"CRLF":                func(d string) bool { return strings.Contains(d, "\r\n") },
		"comment line":        func(d string) bool { return strings.HasPrefix(d, "#") || strings.Contains(d, "\n#") },
		"no final line end":   func(d string) bool { return d != "" && !strings.HasSuffix(d, "\n") },
		"empty field":         func(d string) bool { return strings.Contains(d, ",,") },
		"non-ASCII":           func(d string) bool { return strings.ContainsFunc(d, func(r rune) bool { return r > 0x7f }) },
		"number":              func(d string) bool { return strings.ContainsAny(d, "0123456789") },
		"several records":     func(d string) bool { return strings.Count(d, "\n") >= 3 },
		"one-field empty rec": func(d string) bool { return strings.Contains(d, "\n\"\"\n") },
	}
	for i := range 2000 {
		d := g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 200), uint64(i))))
		for name, f := range features {
			if f(d) {
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

// TestNear measures the near misses: many must fail to read or read other
// records than the document drawn, some must still read.
func TestNear(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	cfg := gocsv.Config{Comment: '#'}
	near, doc := gocsv.Near(cfg), gocsv.Document(cfg)
	const n = 2000
	broken, changed := 0, 0
	for i := range n {
		data := gentest.RandomBytes(r, 200)
		rt := gentest.RoundTrip(near, data, uint64(i), 5)
		if rt.First != rt.Second || !rt.SameBytes {
			t.Fatalf("replay differs: %q vs %q", rt.First, rt.Second)
		}
		orig := doc.Draw(gfz.NewT(param.New(data, uint64(i))))
		if rt.First != orig {
			changed++
		}
		if _, err := read(rt.First, cfg); err != nil {
			broken++
		}
	}
	t.Logf("near misses: %d/%d edited, %d/%d rejected by encoding/csv", changed, n, broken, n)
	if changed < n/2 || broken < n/10 || broken > changed {
		t.Errorf("near misses: %d/%d edited, %d rejected", changed, n, broken)
	}
}

func ExampleDocument() {
	g := gocsv.Document(gocsv.Config{Header: []string{"id", "name"}})
	// Two records after the header: the first holds the number 7 and a
	// generated field (a quote, a separator, 'a'), the second two empty
	// fields.
	t := gfz.NewT(param.New([]byte{2, 1, 7, 0, 7, 3, 1, 0, 5, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}, 0))
	doc := g.Draw(t)
	fmt.Printf("%q\n", doc)
	recs, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
	fmt.Printf("%q %v\n", recs, err)
	// Output:
	// "id,name\n7,\"\"\",a\"\n,\n"
	// [["id" "name"] ["7" "\",a"] ["" ""]] <nil>
}

// Near misses of CSV documents: Document with one to three edits, three
// times in four.
func ExampleNear() {
	g := gocsv.Near(gocsv.Config{MaxRecords: 2, MaxFields: 2})
	for i := range 4 {
		doc := g.Draw(gfz.NewT(param.New(nil, uint64(i))))
		_, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
		fmt.Printf("%q %v\n", doc, err)
	}
	// Output:
	// "\"-" parse error on line 1, column 3: extraneous or missing " in quoted-field
	// "1707818.33" <nil>
	// "\"0'\n1;c\"\r\n b9" <nil>
	// "\n" <nil>
}
