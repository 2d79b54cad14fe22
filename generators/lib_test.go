package generators_test

import (
	"bytes"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

type node struct {
	Val  int16
	Next *node
	Kids []*node
}

type record struct {
	Name    string
	Port    int
	Tags    map[string]uint8
	Ratio   float32
	Grid    [2][3]bool
	Nested  struct{ A, B int8 }
	Opt     *string
	secret  int
	Timeout time.Duration
}

func TestRoundTripLibrary(t *testing.T) {
	roundTrip(t, "Int8", gen.Int8())
	roundTrip(t, "Int16", gen.Int16())
	roundTrip(t, "Int32", gen.Int32())
	roundTrip(t, "Int64", gen.Int64())
	roundTrip(t, "Uint", gen.Uint())
	roundTrip(t, "Uint8", gen.Uint8())
	roundTrip(t, "Uint16", gen.Uint16())
	roundTrip(t, "Uint32", gen.Uint32())
	roundTrip(t, "Uint64", gen.Uint64())
	roundTrip(t, "IntegersRange", gen.IntegersRange[int32](-70000, 12))
	roundTrip(t, "Duration", gen.Duration())
	roundTrip(t, "DurationRange", gen.DurationRange(time.Millisecond, time.Hour))
	roundTrip(t, "Float64", gen.Float64())
	roundTrip(t, "Float32", gen.Float32())
	roundTrip(t, "FloatRange", gen.FloatRange(-2.5, 1e6))
	roundTrip(t, "Rune", gen.Rune())
	roundTrip(t, "RuneAny", gen.RuneAny())
	roundTrip(t, "UTF8String", gen.UTF8String(0, 20))
	roundTrip(t, "StringOf", gen.StringOf(gen.RuneAny(), 1, 5))
	roundTrip(t, "Identifier", gen.Identifier(12))
	roundTrip(t, "MapOf", gen.MapOf(gen.IntRange(0, 5), gen.String(), 0, 10))
	roundTrip(t, "EntriesOf", gen.EntriesOf(gen.StringFrom("ab", 1, 2), gen.Bool(), 0, 10))
	roundTrip(t, "OneOfWeighted", gen.OneOfWeighted(gen.W(1, gen.Just(-1)), gen.W(300, gen.IntRange(0, 9))))
	roundTrip(t, "SampledFrom", gen.SampledFrom("a", "b", "c"))
	roundTrip(t, "Tokens", gen.Tokens("x", "y"))
	roundTrip(t, "TokensOr", gen.TokensOr([]string{"k1", "k2"}, gen.Identifier(4)))
	roundTrip(t, "DictionaryOr", gen.DictionaryOr(gen.Identifier(4)))
	roundTrip(t, "Ptr", gen.Ptr(gen.IntRange(0, 9)))
	roundTrip(t, "Optional", gen.Optional(gen.String()))
	roundTrip(t, "Zip", gen.Zip(gen.Bool(), gen.Int8()))
	roundTrip(t, "Bind", gen.Bind(gen.IntRange(1, 4), func(n int) gen.Generator[[]int] { return gen.SliceOf(gen.IntRange(0, n), n, n) }))
	roundTrip(t, "Recursive", gen.Recursive(gen.Just("x"), func(self gen.Generator[string]) gen.Generator[string] {
		return gen.Map(gen.SliceOf(self, 0, 3), func(s []string) string { return "(" + strings.Join(s, " ") + ")" })
	}, 6))
	roundTrip(t, "StringMatching", gen.StringMatching(`[a-z]+@(ex|test)\.(com|org){1,2}[^x]?.*`))
	roundTrip(t, "Of[record]", gen.Of[record](gen.Unexported()))
	roundTrip(t, "Of[node]", gen.Of[*node]())
	roundTrip(t, "Of[map]", gen.Of[map[string][]int]())
}

// TestFilter checks that Filter retries and then gives up as an invalid
// input, never looping forever.
func TestFilter(t *testing.T) {
	even := gen.Filter(gen.IntRange(0, 255), func(n int) bool { return n%2 == 0 }, 3)
	if v, src, _ := drawFrom(even, []byte{1, 3, 4}); v != 4 || src.Pos() != 3 {
		t.Errorf("Filter = %d after %d bytes, want 4 after 3", v, src.Pos())
	}
	roundTrip(t, "Filter", gen.Filter(gen.IntRange(0, 255), func(n int) bool { return n%4 != 0 }, 0))
	never := gen.Filter(gen.Int8(), func(int8) bool { return false }, 5)
	src := param.New(bytes.Repeat([]byte{7}, 40), 0)
	gt := gfz.NewT(src)
	func() {
		defer func() { recover() }()
		never.Draw(gt)
		t.Error("Filter that never accepts returned")
	}()
	if !gt.Skipped() || src.Pos() != 5*2 {
		t.Errorf("Filter that never accepts: skipped=%v after %d bytes, want skipped after 10", gt.Skipped(), src.Pos())
	}
}

func TestLibraryByteCosts(t *testing.T) {
	zeros := make([]byte, 64)
	ones := bytes.Repeat([]byte{1}, 64)
	cases := []struct {
		name string
		data []byte
		draw func(*gfz.T)
		want int
	}{
		{"Int8 edge", zeros, func(t *gfz.T) { gen.Int8().Draw(t) }, 1 + 1},
		{"Int8 uniform", ones, func(t *gfz.T) { gen.Int8().Draw(t) }, 1 + 1},
		{"Int64 uniform", ones, func(t *gfz.T) { gen.Int64().Draw(t) }, 1 + 8},
		{"Int64 edge", zeros, func(t *gfz.T) { gen.Int64().Draw(t) }, 1 + 1},
		{"Uint16 uniform", ones, func(t *gfz.T) { gen.Uint16().Draw(t) }, 1 + 2},
		{"IntegersRange(0,1000) uniform", ones, func(t *gfz.T) { gen.IntegersRange(0, 1000).Draw(t) }, 1 + 2},
		{"Float64 uniform", ones, func(t *gfz.T) { gen.Float64().Draw(t) }, 1 + 8},
		{"Float32 uniform", ones, func(t *gfz.T) { gen.Float32().Draw(t) }, 1 + 4},
		{"Float64 edge", zeros, func(t *gfz.T) { gen.Float64().Draw(t) }, 1 + 1},
		{"FloatRange uniform", ones, func(t *gfz.T) { gen.FloatRange(0.0, 1.0).Draw(t) }, 1 + 8},
		{"Rune ascii", zeros, func(t *gfz.T) { gen.Rune().Draw(t) }, 1 + 1},
		{"Rune BMP", []byte{2, 0, 0}, func(t *gfz.T) { gen.Rune().Draw(t) }, 1 + 2},
		{"Rune any", []byte{3, 0, 0, 0}, func(t *gfz.T) { gen.Rune().Draw(t) }, 1 + 3},
		{"RuneAny", zeros, func(t *gfz.T) { gen.RuneAny().Draw(t) }, 4},
		{"UTF8String len 1", ones, func(t *gfz.T) { gen.UTF8String(0, 10).Draw(t) }, 1 + 2},
		{"MapOf n=1", ones, func(t *gfz.T) { gen.MapOf(gen.Bool(), gen.Byte(), 0, 3).Draw(t) }, 1 + 2},
		{"OneOfWeighted", zeros, func(t *gfz.T) { gen.OneOfWeighted(gen.W(200, gen.Bool()), gen.W(100, gen.Bool())).Draw(t) }, 2 + 1},
		{"SampledFrom(3)", zeros, func(t *gfz.T) { gen.SampledFrom(1, 2, 3).Draw(t) }, 1},
		{"Ptr nil", zeros, func(t *gfz.T) { gen.Ptr(gen.Int8()).Draw(t) }, 1},
		{"Ptr", ones, func(t *gfz.T) { gen.Ptr(gen.Byte()).Draw(t) }, 1 + 1},
		{"Recursive leaf", zeros, func(t *gfz.T) {
			gen.Recursive(gen.Byte(), func(g gen.Generator[byte]) gen.Generator[byte] { return g }, 3).Draw(t)
		}, 1 + 1},
		{"Recursive full", ones, func(t *gfz.T) {
			gen.Recursive(gen.Byte(), func(g gen.Generator[byte]) gen.Generator[byte] { return g }, 3).Draw(t)
		}, 3 + 1},
		{"StringMatching", ones, func(t *gfz.T) { gen.StringMatching(`ab[0-9]x{2,3}(c|d)`).Draw(t) }, 1 + 1 + 1},
		{"Of[struct]", ones, func(t *gfz.T) {
			gen.Of[struct {
				A int8
				B bool
				p *int8
			}]().Draw(t)
		}, 2 + 1},
	}
	for _, c := range cases {
		src := param.New(c.data, 0)
		c.draw(gfz.NewT(src))
		if got := src.Pos(); got != c.want {
			t.Errorf("%s consumed %d bytes, documented %d", c.name, got, c.want)
		}
	}
}

func TestEdgeBias(t *testing.T) {
	seen := map[int8]bool{}
	for b := range 256 {
		v, _, _ := drawFrom(gen.Int8(), []byte{0, byte(b)})
		seen[v] = true
	}
	for _, want := range []int8{0, -1, 1, math.MinInt8, math.MaxInt8, 64, -64, 63} {
		if !seen[want] {
			t.Errorf("edge value %d never drawn", want)
		}
	}
	if v, _, _ := drawFrom(gen.IntegersRange[uint16](10, 20), []byte{0, 1}); v != 10 && v != 20 {
		t.Errorf("first edges of [10, 20] = %d", v)
	}
	for b := range 256 {
		v, _, _ := drawFrom(gen.IntegersRange[int](-3, 100), []byte{0, byte(b)})
		if v < -3 || v > 100 {
			t.Fatalf("edge %d out of range", v)
		}
	}
	if v, _, _ := drawFrom(gen.Float64(), []byte{0, 11}); !math.IsNaN(v) {
		t.Errorf("float edge 11 = %v, want NaN", v)
	}
}

func TestRunesAndStrings(t *testing.T) {
	r := newRand(7)
	for range 2000 {
		s, _, _ := drawFrom(gen.UTF8String(0, 30), r.bytes(80))
		if !utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 %q", s)
		}
		id, _, _ := drawFrom(gen.Identifier(8), r.bytes(10))
		if !regexp.MustCompile(`^[A-Za-z_][A-Za-z_0-9]*$`).MatchString(id) {
			t.Fatalf("bad identifier %q", id)
		}
	}
}

func TestStringMatching(t *testing.T) {
	res := []string{
		`[a-z]+@(ex|test)\.(com|org)`,
		`a*b+c?d{2}e{1,3}f{2,}`,
		`(?i)hello|wor.d`,
		`[^a-z0-9]{0,5}`,
		`\d{3}-\d{4}`,
		`[\x{10000}-\x{10010}\p{Greek}]+`,
		`(a|(b|c)*)+`,
		`^x.y$`,
		`(?s).{0,4}`,
		`[\x{D000}-\x{E100}]`,
		``,
	}
	r := newRand(3)
	for _, re := range res {
		g := gen.StringMatching(re)
		m := regexp.MustCompile(`^(?:` + re + `)$`)
		for range 500 {
			s, _, _ := drawFrom(g, r.bytes(40))
			if !m.MatchString(s) {
				t.Fatalf("StringMatching(%q) produced %q, which does not match", re, s)
			}
		}
	}
}

func TestMapOfDuplicates(t *testing.T) {
	// n=3: keys 1, 1, 2 with values 10, 11, 12: the first value of 1 is kept.
	g := gen.MapOf(gen.IntRange(0, 9), gen.IntRange(0, 99), 0, 5)
	m, src, _ := drawFrom(g, []byte{3, 1, 10, 1, 11, 2, 12})
	if !reflect.DeepEqual(m, map[int]int{1: 10, 2: 12}) || src.Pos() != 7 {
		t.Errorf("MapOf = %v after %d bytes", m, src.Pos())
	}
	e, _, _ := drawFrom(gen.EntriesOf(gen.IntRange(0, 9), gen.IntRange(0, 99), 0, 5), []byte{3, 2, 10, 1, 11, 2, 12})
	if !reflect.DeepEqual(e, []gen.Entry[int, int]{{2, 10}, {1, 11}}) {
		t.Errorf("EntriesOf = %v", e)
	}
}

func TestOf(t *testing.T) {
	r := newRand(5)
	port := gen.IntegersRange(1, 65535)
	g := gen.Of[record](gen.WithField[record]("Port", port), gen.WithType(gen.Just("fixed")), gen.MaxLen(3))
	sawTags, sawSecret := false, false
	for range 300 {
		v, _, _ := drawFrom(g, r.bytes(100))
		if v.Port < 1 || v.Port > 65535 || v.Name != "fixed" || len(v.Tags) > 3 || v.secret != 0 {
			t.Fatalf("Of[record] = %+v", v)
		}
		if v.Opt != nil && *v.Opt != "fixed" {
			t.Fatalf("WithType not applied through a pointer: %q", *v.Opt)
		}
		sawTags = sawTags || len(v.Tags) > 0
		w, _, _ := drawFrom(gen.Of[record](gen.Unexported()), r.bytes(100))
		sawSecret = sawSecret || w.secret != 0
	}
	if !sawTags || !sawSecret {
		t.Errorf("maps filled: %v, unexported filled: %v", sawTags, sawSecret)
	}
	// Recursive types terminate within the depth budget, even on bytes
	// that always choose to go deeper.
	deep, _, _ := drawFrom(gen.Of[*node](gen.MaxDepth(4)), bytes.Repeat([]byte{0xff}, 4096))
	var depth func(n *node) int
	depth = func(n *node) int {
		if n == nil {
			return 0
		}
		d := depth(n.Next)
		for _, k := range n.Kids {
			d = max(d, depth(k))
		}
		return d + 1
	}
	if d := depth(deep); d < 2 || d > 4 {
		t.Errorf("depth %d, want 2..4", d)
	}
}

func TestDecodeDictionary(t *testing.T) {
	got := gen.DecodeDictionary("a%2Cb,%22x+y%22,42,%ZZ")
	if !reflect.DeepEqual(got, []string{"a,b", `"x y"`, "42"}) {
		t.Errorf("DecodeDictionary = %q", got)
	}
	if len(gen.Dictionary()) != 0 {
		t.Errorf("Dictionary outside a fuzz binary = %q", gen.Dictionary())
	}
}

// rnd makes deterministic random byte slices for property tests.
type rnd struct{ s uint64 }

func newRand(seed uint64) *rnd { return &rnd{seed} }

func (r *rnd) bytes(max int) []byte {
	b := make([]byte, int(r.next()%uint64(max+1)))
	for i := range b {
		b[i] = byte(r.next())
	}
	return b
}

func (r *rnd) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	return z ^ (z >> 27)
}
