// Package native holds what gfz needs to run unmodified native Go fuzz
// targets (func FuzzX(f *testing.F) { f.Fuzz(func(t *testing.T, a A, b B) {...}) }):
// the argument kinds native fuzzing accepts, the decoding of a parameter
// sequence into arguments (and its exact inverse, for seeds), and the
// native corpus file format ("go test fuzz v1" and one typed value per
// line) for any list of argument types.
//
// # Parameter encoding
//
// Arguments are decoded from the parameter sequence in order. A
// fixed-size argument takes its width in bytes, little-endian (bool: the
// low bit of one byte; floats: their IEEE bits; int and uint: 8 bytes on
// every platform). The []byte or string that is the last variable-length
// argument takes every byte left except those the fixed-size arguments
// after it need (so a target of a single []byte sees exactly the parameter
// bytes, as under go test -fuzz). Any other variable-length argument first
// draws a 4-byte length, reduced modulo the number of bytes left (minus
// what the arguments after it need) plus one, then takes that many bytes.
// Fixed-size arguments read past the end of the sequence get the source's
// PRNG bytes; variable-length ones never extend it. Encode is the exact
// inverse: decoding Encode(args) gives args.
package native

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/gfz-dev/gfz/param"
)

// Kind is one argument type native fuzzing accepts.
type Kind uint8

// The argument kinds. Byte is uint8 and Rune is int32, as in Go.
const (
	Bytes Kind = iota + 1
	String
	Bool
	Int
	Int8
	Int16
	Int32
	Int64
	Uint
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
)

var kindNames = [...]string{
	Bytes: "[]byte", String: "string", Bool: "bool",
	Int: "int", Int8: "int8", Int16: "int16", Int32: "int32", Int64: "int64",
	Uint: "uint", Uint8: "uint8", Uint16: "uint16", Uint32: "uint32", Uint64: "uint64",
	Float32: "float32", Float64: "float64",
}

var kindTypes = [...]reflect.Type{
	Bytes: reflect.TypeFor[[]byte](), String: reflect.TypeFor[string](), Bool: reflect.TypeFor[bool](),
	Int: reflect.TypeFor[int](), Int8: reflect.TypeFor[int8](), Int16: reflect.TypeFor[int16](),
	Int32: reflect.TypeFor[int32](), Int64: reflect.TypeFor[int64](),
	Uint: reflect.TypeFor[uint](), Uint8: reflect.TypeFor[uint8](), Uint16: reflect.TypeFor[uint16](),
	Uint32: reflect.TypeFor[uint32](), Uint64: reflect.TypeFor[uint64](),
	Float32: reflect.TypeFor[float32](), Float64: reflect.TypeFor[float64](),
}

// Supported lists the argument types native fuzzing accepts, for messages.
const Supported = "[]byte, string, bool, byte, rune, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64"

// String returns the Go name of the kind ("[]byte", "uint8", "int32", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Type returns the reflect type of the kind.
func (k Kind) Type() reflect.Type { return kindTypes[k] }

// Size returns the number of bytes a fixed-size kind takes, 0 for []byte
// and string.
func (k Kind) Size() int {
	switch k {
	case Bool, Int8, Uint8:
		return 1
	case Int16, Uint16:
		return 2
	case Int32, Uint32, Float32:
		return 4
	case Int, Int64, Uint, Uint64, Float64:
		return 8
	}
	return 0
}

// Variable reports whether k is []byte or string.
func (k Kind) Variable() bool { return k == Bytes || k == String }

// KindOf returns the kind of an argument type, which must be exactly one
// of the types native fuzzing accepts (not a named type over one), as the
// testing package requires.
func KindOf(t reflect.Type) (Kind, bool) {
	for k := Bytes; k <= Float64; k++ {
		if kindTypes[k] == t {
			return k, true
		}
	}
	return 0, false
}

// ParseKind returns the kind named by a Go type name as written in source
// or a corpus file: one of the names of String plus "byte" and "rune".
func ParseKind(name string) (Kind, bool) {
	switch name {
	case "byte":
		return Uint8, true
	case "rune":
		return Int32, true
	}
	for k := Bytes; k <= Float64; k++ {
		if kindNames[k] == name {
			return k, true
		}
	}
	return 0, false
}

// Types is the argument list of a fuzz function (without its *testing.T).
type Types []Kind

// ParseTypes parses a comma-separated list of type names (String's form).
func ParseTypes(s string) (Types, error) {
	if s == "" {
		return nil, errors.New("no argument types")
	}
	var ts Types
	for _, name := range strings.Split(s, ",") {
		k, ok := ParseKind(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("unsupported fuzz argument type %q (native fuzzing accepts %s)", name, Supported)
		}
		ts = append(ts, k)
	}
	return ts, nil
}

// String returns the comma-separated type names, e.g. "[]byte,string,int".
func (ts Types) String() string {
	names := make([]string, len(ts))
	for i, k := range ts {
		names[i] = k.String()
	}
	return strings.Join(names, ",")
}

// lastVariable returns the index of the last []byte or string argument,
// -1 if there is none.
func (ts Types) lastVariable() int {
	last := -1
	for i, k := range ts {
		if k.Variable() {
			last = i
		}
	}
	return last
}

// tails returns, for each argument, the bytes the arguments after it take
// besides the contents of variable-length ones: the widths of fixed-size
// arguments and of length draws. A variable-length argument leaves them.
func (ts Types) tails() []int {
	last := ts.lastVariable()
	tail := make([]int, len(ts))
	n := 0
	for i := len(ts) - 1; i >= 0; i-- {
		tail[i] = n
		switch k := ts[i]; {
		case !k.Variable():
			n += k.Size()
		case i != last:
			n += lengthWidth
		}
	}
	return tail
}

// SpanName is the name of argument i's span in the parameter record,
// e.g. "arg1 string".
func SpanName(i int, k Kind) string { return fmt.Sprintf("arg%d %s", i, k) }

// lengthWidth is the width of the length draw of a variable-length
// argument that is not the last one.
const lengthWidth = 4

// Arg is one decoded argument: U holds a fixed-size value's bits (the
// value's two's complement, or its IEEE bits, truncated to its width;
// bool: 0 or 1), B the bytes of a []byte or string.
type Arg struct {
	Kind Kind
	U    uint64
	B    []byte
}

// Decoder decodes arguments from a param.Source; it keeps the span names
// so that decoding allocates nothing but the variable-length values.
type Decoder struct {
	types Types
	last  int
	tail  []int // tail[i]: the bytes the arguments after i need besides their contents
	names []string
	gens  []uint64
}

// NewDecoder returns a decoder for ts.
func NewDecoder(ts Types) *Decoder {
	d := &Decoder{types: ts, last: ts.lastVariable(), tail: ts.tails()}
	for i, k := range ts {
		name := SpanName(i, k)
		d.names = append(d.names, name)
		d.gens = append(d.gens, param.HashString(name))
	}
	return d
}

// Types returns the decoder's argument types.
func (d *Decoder) Types() Types { return d.types }

// Decode reads the arguments from src, which was reset to a parameter
// sequence of dataLen bytes (after the source's cap), into args (len
// len(Types)). Each argument is one span named SpanName. It panics with
// param.Exhausted when the fixed-size arguments do not fit the cap.
func (d *Decoder) Decode(src *param.Source, dataLen int, args []Arg) {
	for i, k := range d.types {
		src.BeginCall(d.names[i], d.gens[i], uintptr(i+1), kindTypes[k])
		args[i].Kind = k
		args[i].U, args[i].B = 0, nil
		switch {
		case !k.Variable():
			v := src.Uint(k.Size(), param.Value)
			if k == Bool {
				v &= 1
			}
			args[i].U = v
		case i == d.last:
			args[i].B = src.Bytes(max(0, dataLen-src.Pos()-d.tail[i]))
		default:
			raw := src.Uint(lengthWidth, param.Structure)
			left := max(0, dataLen-src.Pos()-d.tail[i])
			args[i].B = src.Bytes(int(raw % uint64(left+1)))
		}
		src.End()
	}
}

// Encode returns the parameter sequence that decodes to args (their kinds
// must be ts): the exact inverse of Decode.
func (ts Types) Encode(args []Arg) ([]byte, error) {
	if len(args) != len(ts) {
		return nil, fmt.Errorf("%d values for %d fuzz arguments (%s)", len(args), len(ts), ts)
	}
	last := ts.lastVariable()
	var out []byte
	for i, k := range ts {
		a := args[i]
		if a.Kind != k {
			return nil, fmt.Errorf("argument %d: value of type %s, want %s", i, a.Kind, k)
		}
		switch {
		case !k.Variable():
			for j := 0; j < k.Size(); j++ {
				out = append(out, byte(a.U>>(8*j)))
			}
		case i == last:
			out = append(out, a.B...)
		default:
			n := uint64(len(a.B))
			if n > math.MaxUint32 {
				return nil, fmt.Errorf("argument %d: %d bytes is too long", i, n)
			}
			for j := 0; j < lengthWidth; j++ {
				out = append(out, byte(n>>(8*j)))
			}
			out = append(out, a.B...)
		}
	}
	return out, nil
}

// DecodeBytes decodes a whole parameter sequence (extended with PRNG bytes
// seeded by 0 where it is too short, as a fuzz execution of it with
// extension seed 0 does).
func (ts Types) DecodeBytes(data []byte) ([]Arg, error) {
	src := param.New(nil, 0)
	src.SetMax(max(len(data), param.DefaultMaxSize)) // a native input is never cut (see Codec.ExtendInput)
	src.Reset(data, 0)
	src.SetRecording(false)
	args := make([]Arg, len(ts))
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(param.Exhausted); ok {
					err = e
					return
				}
				panic(r)
			}
		}()
		NewDecoder(ts).Decode(src, len(data), args)
	}()
	return args, err
}

// Value returns the argument as a Go value of its kind's type.
func (a Arg) Value() any {
	switch a.Kind {
	case Bytes:
		return a.B
	case String:
		return string(a.B)
	case Bool:
		return a.U&1 != 0
	case Int:
		return int(int64(a.U))
	case Int8:
		return int8(a.U)
	case Int16:
		return int16(a.U)
	case Int32:
		return int32(a.U)
	case Int64:
		return int64(a.U)
	case Uint:
		return uint(a.U)
	case Uint8:
		return uint8(a.U)
	case Uint16:
		return uint16(a.U)
	case Uint32:
		return uint32(a.U)
	case Uint64:
		return a.U
	case Float32:
		return math.Float32frombits(uint32(a.U))
	case Float64:
		return math.Float64frombits(a.U)
	}
	return nil
}

// ArgOf returns the Arg of a Go value of one of the accepted types.
func ArgOf(v any) (Arg, bool) {
	k, ok := KindOf(reflect.TypeOf(v))
	if !ok {
		return Arg{}, false
	}
	return ArgOfValue(reflect.ValueOf(v), k), true
}

// ArgOfValue returns the Arg of rv, whose type is k's.
func ArgOfValue(rv reflect.Value, k Kind) Arg {
	a := Arg{Kind: k}
	switch {
	case k == Bytes:
		a.B = append([]byte(nil), rv.Bytes()...)
	case k == String:
		a.B = []byte(rv.String())
	case k == Bool:
		if rv.Bool() {
			a.U = 1
		}
	case k >= Int && k <= Int64:
		a.U = uint64(rv.Int())
	case k >= Uint && k <= Uint64:
		a.U = rv.Uint()
	case k == Float32:
		// Not through rv.Float: widening to float64 quiets a signalling
		// NaN, and the fuzz function must get the bits go test gives it.
		a.U = uint64(math.Float32bits(rv.Convert(float32Type).Interface().(float32)))
	case k == Float64:
		a.U = math.Float64bits(rv.Float())
	}
	if s := k.Size(); s > 0 && s < 8 {
		a.U &= 1<<(8*s) - 1
	}
	return a
}

var float32Type = reflect.TypeFor[float32]()

// Set stores the argument in rv, a settable value of its kind's type.
func (a Arg) Set(rv reflect.Value) {
	switch k := a.Kind; {
	case k == Bytes:
		if a.B == nil {
			// go test passes an empty []byte argument as a non-nil
			// empty slice (and replays gfz's files so); so does gfz.
			rv.SetBytes([]byte{})
			break
		}
		rv.SetBytes(a.B)
	case k == String:
		rv.SetString(string(a.B))
	case k == Bool:
		rv.SetBool(a.U&1 != 0)
	case k >= Int && k <= Int64:
		rv.SetInt(a.signed())
	case k >= Uint && k <= Uint64:
		rv.SetUint(a.U)
	case k == Float32:
		// Not through rv.SetFloat, which would quiet a signalling NaN.
		rv.Set(reflect.ValueOf(math.Float32frombits(uint32(a.U))).Convert(rv.Type()))
	case k == Float64:
		rv.SetFloat(math.Float64frombits(a.U))
	}
}

// signed returns a signed kind's value, sign-extended from its width.
func (a Arg) signed() int64 {
	s := uint(8 * a.Kind.Size())
	return int64(a.U<<(64-s)) >> (64 - s)
}
