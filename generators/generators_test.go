package generators_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/param"
)

// drawFrom draws one value of g from data (extended with seed 0).
func drawFrom[V any](g gen.Generator[V], data []byte) (V, *param.Source, *gfz.T) {
	src := param.New(data, 0)
	t := gfz.NewT(src)
	return g.Draw(t), src, t
}

// TestByteCosts checks the documented number of bytes each generator
// consumes.
func TestByteCosts(t *testing.T) {
	zeros := make([]byte, 64)
	five := bytes.Repeat([]byte{5}, 64)
	cases := []struct {
		name string
		data []byte
		draw func(*gfz.T)
		want int
	}{
		{"Bool", zeros, func(t *gfz.T) { gen.Bool().Draw(t) }, 1},
		{"Byte", zeros, func(t *gfz.T) { gen.Byte().Draw(t) }, 1},
		{"Int", zeros, func(t *gfz.T) { gen.Int().Draw(t) }, 8},
		{"IntRange(5,5)", zeros, func(t *gfz.T) { gen.IntRange(5, 5).Draw(t) }, 0},
		{"IntRange(0,1)", zeros, func(t *gfz.T) { gen.IntRange(0, 1).Draw(t) }, 1},
		{"IntRange(0,255)", zeros, func(t *gfz.T) { gen.IntRange(0, 255).Draw(t) }, 1},
		{"IntRange(0,256)", zeros, func(t *gfz.T) { gen.IntRange(0, 256).Draw(t) }, 2},
		{"IntRange(-1000,1000)", zeros, func(t *gfz.T) { gen.IntRange(-1000, 1000).Draw(t) }, 2},
		{"IntRange(0,1<<24)", zeros, func(t *gfz.T) { gen.IntRange(0, 1<<24).Draw(t) }, 4},
		{"Just", zeros, func(t *gfz.T) { gen.Just(3).Draw(t) }, 0},
		{"BytesRange(0,10) len 5", five, func(t *gfz.T) { gen.BytesRange(0, 10).Draw(t) }, 1 + 5},
		{"BytesRange(3,3)", five, func(t *gfz.T) { gen.BytesRange(3, 3).Draw(t) }, 0 + 3},
		{"Bytes len 5", five, func(t *gfz.T) { gen.Bytes().Draw(t) }, 1 + 5},
		{"String len 5", five, func(t *gfz.T) { gen.String().Draw(t) }, 1 + 5},
		{"StringRange(0,300) len 5", append([]byte{5, 0}, five...), func(t *gfz.T) { gen.StringRange(0, 300).Draw(t) }, 2 + 5},
		{"StringFrom(abc) len 5", five, func(t *gfz.T) { gen.StringFrom("abc", 0, 9).Draw(t) }, 1 + 5*1},
		{"StringFrom(1 rune) len 5", five, func(t *gfz.T) { gen.StringFrom("x", 0, 9).Draw(t) }, 1 + 5*0},
		{"SliceOf(IntRange(0,9)) len 5", five, func(t *gfz.T) { gen.SliceOf(gen.IntRange(0, 9), 0, 20).Draw(t) }, 1 + 5*1},
		{"SliceOf(Int) len 5", five, func(t *gfz.T) { gen.SliceOf(gen.Int(), 0, 20).Draw(t) }, 1 + 5*8},
		{"SliceOf(Bool,2,2)", five, func(t *gfz.T) { gen.SliceOf(gen.Bool(), 2, 2).Draw(t) }, 0 + 2},
		{"OneOf(1 alternative)", zeros, func(t *gfz.T) { gen.OneOf(gen.Int()).Draw(t) }, 0 + 8},
		{"OneOf(Bool, Int) picks Bool", zeros, func(t *gfz.T) { gen.OneOf(gen.Bool(), gen.Map(gen.Int(), func(int) bool { return true })).Draw(t) }, 1 + 1},
		{"OneOf(Bool, Int) picks Int", []byte{1, 0, 0, 0, 0, 0, 0, 0, 0}, func(t *gfz.T) {
			gen.OneOf(gen.Map(gen.Bool(), func(b bool) int { return 0 }), gen.Int()).Draw(t)
		}, 1 + 8},
		{"Map", zeros, func(t *gfz.T) { gen.Map(gen.IntRange(0, 300), func(i int) string { return "" }).Draw(t) }, 2},
		{"Custom", zeros, func(t *gfz.T) {
			gen.Custom(func(t *gfz.T) int { return gen.Int().Draw(t) + gen.IntRange(0, 9).Draw(t) }).Draw(t)
		}, 8 + 1},
	}
	for _, c := range cases {
		src := param.New(c.data, 0)
		c.draw(gfz.NewT(src))
		if got := src.Pos(); got != c.want {
			t.Errorf("%s consumed %d bytes, documented %d", c.name, got, c.want)
		}
	}
}

// TestDecoding checks the documented decoding of raw bytes to values.
func TestDecoding(t *testing.T) {
	if v, _, _ := drawFrom(gen.Bool(), []byte{0x02}); v {
		t.Error("Bool from 0x02 (low bit clear) = true")
	}
	if v, _, _ := drawFrom(gen.Bool(), []byte{0xff}); !v {
		t.Error("Bool from 0xff = false")
	}
	if v, _, _ := drawFrom(gen.IntRange(10, 20), []byte{5}); v != 15 {
		t.Errorf("IntRange(10, 20) from 5 = %d, want 15", v)
	}
	if v, _, _ := drawFrom(gen.IntRange(10, 20), []byte{12}); v != 11 {
		t.Errorf("IntRange(10, 20) from 12 = %d, want 11 (12 mod 11 + 10)", v)
	}
	if v, _, _ := drawFrom(gen.IntRange(0, 1000), []byte{0x01, 0x02}); v != 513 {
		t.Errorf("IntRange(0, 1000) from 01 02 = %d, want 513 (little-endian)", v)
	}
	if v, _, _ := drawFrom(gen.IntRange(-5, 5), []byte{0}); v != -5 {
		t.Errorf("IntRange(-5, 5) from 0 = %d, want -5", v)
	}
	if v, _, _ := drawFrom(gen.Int(), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}); v != -1 {
		t.Errorf("Int from ff*8 = %d, want -1", v)
	}
	if v, _, _ := drawFrom(gen.SliceOf(gen.IntRange(0, 9), 0, 20), []byte{3, 1, 12, 9}); !reflect.DeepEqual(v, []int{1, 2, 9}) {
		t.Errorf("SliceOf from 3 1 12 9 = %v, want [1 2 9]", v)
	}
	if v, _, _ := drawFrom(gen.SliceOf(gen.Bool(), 0, 3), []byte{0}); v == nil || len(v) != 0 {
		t.Errorf("empty SliceOf = %#v, want non-nil empty", v)
	}
	if v, _, _ := drawFrom(gen.String(), []byte{2, 'h', 'i'}); v != "hi" {
		t.Errorf("String from 2 h i = %q", v)
	}
	if v, _, _ := drawFrom(gen.StringFrom("ab€", 0, 5), []byte{3, 2, 0, 4}); v != "€ab" {
		t.Errorf("StringFrom = %q, want €ab", v)
	}
	abc := gen.OneOf(gen.Just("a"), gen.Just("b"), gen.Just("c"))
	if v, _, _ := drawFrom(abc, []byte{4}); v != "b" {
		t.Errorf("OneOf from 4 = %q, want b (4 mod 3)", v)
	}
}

// TestRecord checks spans and draw kinds.
func TestRecord(t *testing.T) {
	g := gen.SliceOf(gen.OneOf(gen.IntRange(0, 9), gen.Just(-1)), 0, 5).Named("doc")
	v, src, gt := drawFrom(g, []byte{2, 0, 7, 1})
	if !reflect.DeepEqual(v, []int{7, -1}) {
		t.Fatalf("value %v, want [7 -1]", v)
	}
	rec := src.Record()
	type span struct {
		name       string
		depth      int32
		start, end int32
	}
	var spans []span
	for _, s := range rec.Spans {
		spans = append(spans, span{s.Name, s.Depth, s.Start, s.End})
	}
	wantSpans := []span{
		{"doc", 0, 0, 4},
		{"OneOf", 1, 1, 3}, {"IntRange", 2, 2, 3},
		{"OneOf", 1, 3, 4}, {"Just", 2, 4, 4},
	}
	if !reflect.DeepEqual(spans, wantSpans) {
		t.Errorf("spans %+v\nwant %+v", spans, wantSpans)
	}
	var kinds []param.Kind
	for _, d := range rec.Draws {
		kinds = append(kinds, d.Kind)
	}
	wantKinds := []param.Kind{param.Structure, param.Structure, param.Value, param.Structure}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Errorf("kinds %v, want %v", kinds, wantKinds)
	}
	// Only the top-level draw is recorded for reports, under its label.
	if got, want := gt.Values(), "doc = []int{7, -1}\n"; got != want {
		t.Errorf("recorded values %q, want %q", got, want)
	}
}

// TestNamesAndLabels checks the values recorded for unlabeled and labeled
// top-level draws.
func TestNamesAndLabels(t *testing.T) {
	src := param.New([]byte{1, 7, 3, 'a', 'b', 'c'}, 0)
	gt := gfz.NewT(src)
	gen.Bool().Draw(gt)
	gen.IntRange(0, 9).Named("n").Draw(gt)
	gen.String().Draw(gt)
	want := "Bool = true\nn = 7\nString = \"abc\"\n"
	if got := gt.Values(); got != want {
		t.Errorf("values %q, want %q", got, want)
	}
	if s := gen.IntRange(0, 1).Named("x").String(); s != "x" {
		t.Errorf("String() = %q", s)
	}
}

// roundTrip draws g from random bytes, then replays the consumed bytes with
// a different extension seed and checks that the value and the consumed
// bytes are the same.
func roundTrip[V any](t *testing.T, name string, g gen.Generator[V]) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, uint64(len(name))))
	for i := range 300 {
		rt := gentest.RoundTrip(g, gentest.RandomBytes(r, 48), 0, 0xdeadbeef+uint64(i))
		// NaN != NaN for DeepEqual: then compare the printed (Go syntax) values.
		if !reflect.DeepEqual(rt.First, rt.Second) && rt.T1.Values() != rt.T2.Values() {
			t.Fatalf("%s: replay of %x gave %#v, first draw %#v", name, rt.Consumed, rt.Second, rt.First)
		}
		if !rt.SameBytes {
			t.Fatalf("%s: replay of %x consumed different bytes", name, rt.Consumed)
		}
	}
}

type pair struct {
	A int
	B string
}

func TestRoundTrip(t *testing.T) {
	roundTrip(t, "Bool", gen.Bool())
	roundTrip(t, "Byte", gen.Byte())
	roundTrip(t, "Int", gen.Int())
	roundTrip(t, "IntRange", gen.IntRange(-300, 70000))
	roundTrip(t, "Just", gen.Just("x"))
	roundTrip(t, "Bytes", gen.Bytes())
	roundTrip(t, "BytesRange", gen.BytesRange(2, 400))
	roundTrip(t, "String", gen.String())
	roundTrip(t, "StringFrom", gen.StringFrom("<>/ab=\"", 0, 30))
	roundTrip(t, "SliceOf", gen.SliceOf(gen.SliceOf(gen.IntRange(0, 9), 0, 4), 0, 10))
	roundTrip(t, "OneOf", gen.OneOf(gen.IntRange(0, 3), gen.Int(), gen.Just(42)))
	roundTrip(t, "Map", gen.Map(gen.Bytes(), func(b []byte) int { return len(b) }))
	roundTrip(t, "Custom", gen.Custom(func(t *gfz.T) pair {
		return pair{gen.IntRange(0, 99).Draw(t), gen.StringFrom("xyz", 0, 3).Draw(t)}
	}))
	var tree func(depth int) gen.Generator[string]
	tree = func(depth int) gen.Generator[string] {
		return gen.Custom(func(t *gfz.T) string {
			if depth == 0 || !gen.Bool().Draw(t) {
				return "."
			}
			return "(" + tree(depth-1).Draw(t) + tree(depth-1).Draw(t) + ")"
		})
	}
	roundTrip(t, "recursive Custom", tree(6))
}

func TestBadArguments(t *testing.T) {
	for name, f := range map[string]func(){
		"IntRange(2,1)":    func() { gen.IntRange(2, 1) },
		"SliceOf(-1)":      func() { gen.SliceOf(gen.Bool(), -1, 2) },
		"SliceOf(3,2)":     func() { gen.SliceOf(gen.Bool(), 3, 2) },
		"BytesRange(3,2)":  func() { gen.BytesRange(3, 2) },
		"StringFrom empty": func() { gen.StringFrom("", 0, 2) },
		"OneOf()":          func() { gen.OneOf[int]() },
		"Custom(nil)":      func() { gen.Custom[int](nil) },
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.HasPrefix(fmt.Sprint(r), "generators: ") {
					t.Errorf("%s: panic %v, want a generators: panic", name, r)
				}
			}()
			f()
		}()
	}
}
