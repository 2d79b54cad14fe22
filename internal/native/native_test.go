package native

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// sampleValues has, for every kind, values that exercise its edges.
var sampleValues = []any{
	[]byte{}, []byte("a\x00\xff\n"), "", "héllo\"`\n", true, false,
	int(0), int(-1), int(math.MaxInt64), int(math.MinInt64),
	int8(-128), int8(127), int16(-300), int32(-5), int32('é'), int32(0x7fffffff), int32(0x110000), int64(math.MinInt64),
	uint(math.MaxUint64), uint8(0), uint8('x'), uint8(255), uint16(65535), uint32(1 << 31), uint64(1<<64 - 1),
	float32(1.5), float32(math.Inf(-1)), float32(math.NaN()), float32(math.Copysign(0, -1)), float32(3e38),
	float64(0.1), float64(-1e300), math.Inf(1), math.NaN(), math.Float64frombits(0x7ff8000000000001), math.Copysign(0, -1), float64(5),
}

func argsOf(t *testing.T, vals ...any) (Types, []Arg) {
	t.Helper()
	var ts Types
	var args []Arg
	for _, v := range vals {
		a, ok := ArgOf(v)
		if !ok {
			t.Fatalf("ArgOf(%T) not supported", v)
		}
		ts = append(ts, a.Kind)
		args = append(args, a)
	}
	return ts, args
}

// sameValue compares values bit for bit (NaN, -0).
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	}
	return reflect.DeepEqual(a, b)
}

// TestRoundTripEveryKind: for every sample value alone, and for all of
// them together in one argument list (several variable-length arguments,
// fixed ones between), Decode(Encode(v)) == v, and the corpus file of v
// parses back to v.
func TestRoundTripEveryKind(t *testing.T) {
	lists := [][]any{sampleValues, {"a", []byte("bc"), 7, "", []byte("last")}, {[]byte("only")}, {int8(1), false}}
	for _, v := range sampleValues {
		lists = append(lists, []any{v}, []any{v, "tail"}, []any{"head", v})
	}
	for _, vals := range lists {
		ts, args := argsOf(t, vals...)
		data, err := ts.Encode(args)
		if err != nil {
			t.Fatalf("Encode(%v): %v", vals, err)
		}
		got, err := ts.DecodeBytes(data)
		if err != nil {
			t.Fatalf("DecodeBytes: %v", err)
		}
		file := FormatFile(got)
		parsed, err := ParseFile(file, ts)
		if err != nil {
			t.Fatalf("ParseFile(%s): %v", file, err)
		}
		for i, v := range vals {
			if !sameValue(got[i].Value(), v) {
				t.Errorf("%s: arg %d decoded %#v, want %#v", ts, i, got[i].Value(), v)
			}
			if !sameValue(parsed[i].Value(), v) {
				t.Errorf("%s: arg %d from file is %#v, want %#v", ts, i, parsed[i].Value(), v)
			}
		}
		data2, err := Codec{Types: ts}.DecodeFile(Codec{Types: ts}.EncodeFile(data))
		if err != nil || string(data2) != string(data) {
			t.Errorf("%s: codec round trip %q -> %q (%v)", ts, data, data2, err)
		}
	}
}

// TestSingleBytesIsRaw: a target of one []byte sees the parameter bytes
// exactly, as under go test -fuzz.
func TestSingleBytesIsRaw(t *testing.T) {
	ts := Types{Bytes}
	for _, data := range []string{"", "x", "\x00\x01\x02 arbitrary"} {
		args, err := ts.DecodeBytes([]byte(data))
		if err != nil || string(args[0].B) != data {
			t.Errorf("DecodeBytes(%q) = %q, %v", data, args[0].B, err)
		}
	}
}

// TestDecodeShortInput: any byte sequence decodes (short ones are
// extended), fixed-size arguments from little-endian bytes.
func TestDecodeShortInput(t *testing.T) {
	ts := Types{Uint16, Bool, String, Int8}
	args, err := ts.DecodeBytes([]byte{0x34, 0x12, 0x03})
	if err != nil {
		t.Fatal(err)
	}
	if args[0].Value() != uint16(0x1234) || args[1].Value() != true {
		t.Errorf("decoded %v %v, want 0x1234 true", args[0].Value(), args[1].Value())
	}
}

// TestGoWrittenFiles: files in the forms the go command writes parse.
func TestGoWrittenFiles(t *testing.T) {
	file := "go test fuzz v1\r\n[]byte(\"a\")\nstring(`raw`)\n\nbyte('\\x00')\nrune('é')\nint32(-7)\nfloat64(-Inf)\nmath.Float64frombits(0x7ff8000000000001)\nfloat32(+Inf)\nuint(5)\nbool(true)\nint(-3)\n"
	ts := Types{Bytes, String, Uint8, Int32, Int32, Float64, Float64, Float32, Uint, Bool, Int}
	args, err := ParseFile([]byte(file), ts)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{[]byte("a"), "raw", uint8(0), int32('é'), int32(-7), math.Inf(-1), math.Float64frombits(0x7ff8000000000001), float32(math.Inf(1)), uint(5), true, -3}
	for i, w := range want {
		if !sameValue(args[i].Value(), w) {
			t.Errorf("value %d = %#v, want %#v", i, args[i].Value(), w)
		}
	}
}

// TestParseFileErrors: wrong types, counts and literals are refused with
// a message naming the problem.
func TestParseFileErrors(t *testing.T) {
	for _, c := range []struct {
		file string
		ts   Types
		want string
	}{
		{"go test fuzz v1\nint(5)\n", Types{Int64}, "type int, want int64"},
		{"go test fuzz v1\nint(5)\n", Types{Int, Int}, "1 values, want 2"},
		{"go test fuzz v1\nint8(300)\n", Types{Int8}, "out of range"},
		{"go test fuzz v1\nbyte('世')\n", Types{Uint8}, "fit a byte"},
		{"go test fuzz v1\nstring(5)\n", Types{String}, "string literal"},
		{"go test fuzz v2\n", Types{String}, "bad header"},
		{"go test fuzz v1\nfoo(1)\n", Types{String}, "unsupported type"},
	} {
		_, err := ParseFile([]byte(c.file), c.ts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFile(%q) = %v, want an error containing %q", c.file, err, c.want)
		}
	}
}

// TestFormatFile: the forms written, those go test writes for the same
// values (internal/fuzz's encoder: fmt's %v of a float, FloatNNfrombits
// only for a NaN other than math.NaN's, %q of a byte and of a valid rune),
// each read back to the same bits.
func TestFormatFile(t *testing.T) {
	_, args := argsOf(t, "a\n", 5, uint8('x'), uint8(0), int32('é'), math.NaN(), 1.5, true, []byte("b"),
		math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.Float64frombits(0x7ff8000000000002), 1e21,
		float32(math.NaN()), float32(math.Copysign(0, -1)), float32(math.Inf(-1)), math.Float32frombits(0x7fc00001), float32(0.1),
		uint8('\n'), uint8(0xff), uint8(0x7f), int32('世'), int32(-1), int32(0xd800))
	got := string(FormatFile(args))
	want := "go test fuzz v1\nstring(\"a\\n\")\nint(5)\nbyte('x')\nbyte('\\x00')\nrune('é')\nfloat64(NaN)\nfloat64(1.5)\nbool(true)\n[]byte(\"b\")\n" +
		"float64(-0)\nfloat64(+Inf)\nfloat64(-Inf)\nmath.Float64frombits(0x7ff8000000000002)\nfloat64(1e+21)\n" +
		"float32(NaN)\nfloat32(-0)\nfloat32(-Inf)\nmath.Float32frombits(0x7fc00001)\nfloat32(0.1)\n" +
		"byte('\\n')\nbyte('ÿ')\nbyte('\\x7f')\nrune('世')\nint32(-1)\nint32(55296)\n"
	if got != want {
		t.Errorf("FormatFile =\n%s\nwant\n%s", got, want)
	}
	var ts Types
	for _, a := range args {
		ts = append(ts, a.Kind)
	}
	back, err := ParseFile([]byte(got), ts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range args {
		if back[i].U != args[i].U || string(back[i].B) != string(args[i].B) {
			t.Errorf("argument %d: read back as %+v, written from %+v", i, back[i], args[i])
		}
	}
}

func TestParseTypes(t *testing.T) {
	ts, err := ParseTypes("[]byte,string,byte,rune,float64")
	if err != nil || ts.String() != "[]byte,string,uint8,int32,float64" {
		t.Errorf("ParseTypes = %v, %v", ts, err)
	}
	if _, err := ParseTypes("int,complex128"); err == nil || !strings.Contains(err.Error(), "complex128") {
		t.Errorf("ParseTypes(complex128) = %v, want an error naming it", err)
	}
}

// TestExtendInput: an input extended for saving decodes as its execution
// did (short inputs get the PRNG bytes of their fixed-size arguments; the
// variable-length ones are not lengthened).
func TestExtendInput(t *testing.T) {
	c := Codec{Types: Types{String, Int8, Uint32}}
	for _, in := range []string{"", "ab", "abcdefgh"} {
		src := param.New([]byte(in), 99)
		src.SetRecording(false)
		want := make([]Arg, 3)
		NewDecoder(c.Types).Decode(src, len(in), want)
		ext := c.ExtendInput([]byte(in), 99, 1<<20)
		got, err := c.Types.DecodeBytes(ext)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !sameValue(got[i].Value(), want[i].Value()) {
				t.Errorf("%q: arg %d replays as %#v, executed as %#v", in, i, got[i].Value(), want[i].Value())
			}
		}
	}
}
