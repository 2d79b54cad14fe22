package native

import (
	"math"
	"strings"
	"testing"
)

// shrinkTo runs ShrinkArgs rounds to their fixpoint on the arguments in,
// keeping a candidate when fails says it still fails and SimplerArgs says
// it is simpler, as the engine's shrinker does; it returns the arguments
// reached and the number of candidates run.
func shrinkTo(t *testing.T, ts Types, in []Arg, fails func([]Arg) bool) ([]Arg, int) {
	t.Helper()
	c := Codec{Types: ts}
	best, err := ts.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	tried := map[string]bool{}
	try := func(cand []byte) bool {
		if tried[string(cand)] || !c.SimplerArgs(cand, best) {
			return false
		}
		tried[string(cand)] = true
		runs++
		args, err := ts.DecodeBytes(cand)
		if err != nil || !fails(args) {
			return false
		}
		best = append([]byte(nil), cand...)
		return true
	}
	for {
		before := string(best)
		c.ShrinkArgs(func() []byte { return best }, try, func() bool { return runs > 100_000 })
		if string(best) == before {
			break
		}
	}
	out, err := ts.DecodeBytes(best)
	if err != nil {
		t.Fatal(err)
	}
	return out, runs
}

func TestMagnitudeRoundTrip(t *testing.T) {
	for _, v := range []any{
		int8(0), int8(1), int8(-1), int8(127), int8(-128), int16(-300), int32(math.MinInt32), int(-7), int64(math.MinInt64), int64(math.MaxInt64),
		uint8(200), uint16(65535), uint32(7), uint(9), uint64(math.MaxUint64), true, false,
		float32(-2.5), float32(3), math.Copysign(0, -1), math.Inf(-1), 1e300,
	} {
		a, _ := ArgOf(v)
		mag, neg := magnitude(a)
		if got := withMagnitude(a, mag, neg); got.U != a.U {
			t.Errorf("%T %v: magnitude %d, %v gives back %v", v, v, mag, neg, got.Value())
		}
		if z := withMagnitude(a, 0, false); z.U != 0 {
			t.Errorf("%T: magnitude 0 has bits %x", v, z.U)
		}
	}
}

// TestShrinkArgsFixed: fixed-size arguments reach the value closest to 0
// that fails, keeping their sign where only that sign fails.
func TestShrinkArgsFixed(t *testing.T) {
	ts := Types{Int8, Uint32, Bool, Float64, Int}
	in := []Arg{{Kind: Int8, U: uint64(uint8(0x90))}, {Kind: Uint32, U: 123456}, {Kind: Bool, U: 1}, {Kind: Float64, U: math.Float64bits(-1234.5)}, {Kind: Int, U: uint64(1 << 40)}}
	got, _ := shrinkTo(t, ts, in, func(a []Arg) bool {
		return a[0].Value().(int8) < -5 && a[1].Value().(uint32) >= 1000 && a[2].Value().(bool) &&
			math.Abs(a[3].Value().(float64)) > 2 && a[4].Value().(int) != 0
	})
	want := "arg0 int8 = int8(-6)\narg1 uint32 = uint32(1000)\narg2 bool = bool(true)\narg3 float64 = float64(2.0000000000000004)\narg4 int = int(1)\n"
	if d := Describe(got); d != want {
		t.Errorf("shrunk to\n%swant\n%s", d, want)
	}
}

// TestShrinkArgsContents: a []byte and a string argument (the first with
// its length encoded before it) lose their junk and get the simplest
// bytes; the bytes a failure needs stay.
func TestShrinkArgsContents(t *testing.T) {
	ts := Types{String, Bytes}
	in := []Arg{{Kind: String, B: []byte("\x01\xfe<<key=value>>\x00")}, {Kind: Bytes, B: []byte("\xff\xfeabcBUG!\x00\x01zz")}}
	got, runs := shrinkTo(t, ts, in, func(a []Arg) bool {
		return strings.Contains(string(a[0].B), "=") && strings.Contains(string(a[1].B), "BUG!")
	})
	if d, want := Describe(got), "arg0 string = string(\"=\")\narg1 []byte = []byte(\"BUG!\")\n"; d != want {
		t.Errorf("shrunk to\n%swant\n%s(%d runs)", d, want, runs)
	}
}

// TestSimplerArgsOrder: the order the shrinker keeps candidates by.
func TestSimplerArgsOrder(t *testing.T) {
	ts := Types{Int16, Bytes}
	enc := func(k int16, b string) []byte {
		p, err := ts.Encode([]Arg{{Kind: Int16, U: uint64(uint16(k))}, {Kind: Bytes, B: []byte(b)}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	c := Codec{Types: ts}
	for _, pair := range [][2][]byte{
		{enc(500, "ab"), enc(1, "abc")},  // fewer bytes first
		{enc(1, "abc"), enc(2, "abc")},   // then smaller magnitude
		{enc(2, "abc"), enc(-2, "abc")},  // positive before negative
		{enc(-2, "abc"), enc(-3, "abc")}, //
		{enc(0, "0bc"), enc(0, "abc")},   // digits before letters
		{enc(0, "abc"), enc(0, "ab\x00")},
	} {
		if !c.SimplerArgs(pair[0], pair[1]) || c.SimplerArgs(pair[1], pair[0]) {
			t.Errorf("%x should be simpler than %x", pair[0], pair[1])
		}
	}
	if c.SimplerArgs(enc(3, "x"), enc(3, "x")) {
		t.Error("an input is simpler than itself")
	}
}

// TestShrinkArgsNaN: a NaN that a failure needs shrinks to the NaN
// math.NaN returns, never to another NaN of smaller bits; one the failure
// does not need becomes a number.
func TestShrinkArgsNaN(t *testing.T) {
	ts := Types{Float64, Float32, Float64}
	in := []Arg{
		{Kind: Float64, U: 0xfff8000000000abc},                                     // a negative NaN of other bits
		{Kind: Float32, U: uint64(math.Float32bits(float32(math.NaN())) | 0x1234)}, // another float32 NaN
		{Kind: Float64, U: math.Float64bits(math.NaN())},
	}
	got, _ := shrinkTo(t, ts, in, func(a []Arg) bool {
		return math.IsNaN(a[0].Value().(float64)) && math.IsNaN(float64(a[1].Value().(float32))) &&
			(math.IsNaN(a[2].Value().(float64)) || a[2].Value().(float64) > 100)
	})
	if got[0].U != math.Float64bits(math.NaN()) || got[1].U != uint64(math.Float32bits(float32(math.NaN()))) {
		t.Errorf("NaNs shrunk to %#x, %#x, want math.NaN's", got[0].U, got[1].U)
	}
	if f := got[2].Value().(float64); f <= 100 || f > 100.00000000001 {
		t.Errorf("a NaN the failure does not need shrunk to %v, want the first float above 100", f)
	}
	if m, _ := magnitude(Arg{Kind: Float64, U: 0x7ff0000000000001}); m <= math.Float64bits(math.Inf(1))+1 {
		t.Errorf("a NaN of small bits has magnitude %#x: simpler than math.NaN's", m)
	}
}
