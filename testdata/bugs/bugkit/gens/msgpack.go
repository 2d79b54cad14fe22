package gens

import (
	"encoding/binary"
	"math"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// MsgPackConfig tunes MsgPack.
type MsgPackConfig struct {
	MaxDepth    int      // nesting of arrays and maps; default 3
	MaxItems    int      // elements of an array, pairs of a map; default 4
	Keys        []string // preferred string map keys (half of the string keys when set)
	MistakesPer int      // per mille of values passed through CorruptBytes; default 0
}

func (c MsgPackConfig) withDefaults() MsgPackConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 4
	}
	return c
}

var (
	// mpInts draws integers: small ones mostly, the boundaries of each
	// encoding's range too.
	mpInts = gen.OneOfWeighted(
		gen.W(6, gen.Map(gen.IntRange(-40, 200), func(n int) int64 { return int64(n) })),
		gen.W(2, gen.SampledFrom[int64](127, 128, 255, 256, -32, -33, -128, -129, 65535, 65536, -32768, -32769,
			math.MaxUint32, math.MaxUint32+1, math.MinInt32, math.MaxInt64, math.MinInt64)),
		gen.W(1, gen.Int64()),
	)
	mpFloats = gen.OneOfWeighted(
		gen.W(3, gen.Float64()),
		gen.W(2, gen.SampledFrom(0.0, math.Copysign(0, -1), 1.0, -1.5, 3.4028234663852886e+38, 1e300, math.Inf(1), math.Inf(-1), math.NaN())),
		gen.W(1, gen.Map(gen.IntRange(-100000, 100000), func(n int) float64 { return float64(n) / 100 })),
	)
)

type mpWriter struct {
	t   *gfz.T
	cfg MsgPackConfig
	b   []byte
}

func (w *mpWriter) u8(v byte)    { w.b = append(w.b, v) }
func (w *mpWriter) u16(v uint16) { w.b = binary.BigEndian.AppendUint16(w.b, v) }
func (w *mpWriter) u32(v uint32) { w.b = binary.BigEndian.AppendUint32(w.b, v) }
func (w *mpWriter) u64(v uint64) { w.b = binary.BigEndian.AppendUint64(w.b, v) }

// longer reports whether to write a length or integer in a wider form
// than the shortest (allowed; some encoders always use one width).
func (w *mpWriter) longer() bool { return gen.IntRange(0, 11).Draw(w.t) == 0 }

// size writes the head of a string, binary, array or map of n elements:
// fixed is the fix-format base (0 when the family has none), fixMax its
// largest count, w8/w16/w32 the codes of the sized forms (w8 0 when
// there is none).
func (w *mpWriter) size(n int, fixed byte, fixMax int, w8, w16, w32 byte) {
	switch {
	case fixed != 0 && n <= fixMax && !w.longer():
		w.u8(fixed | byte(n))
	case w8 != 0 && n <= math.MaxUint8 && !w.longer():
		w.u8(w8)
		w.u8(byte(n))
	case n <= math.MaxUint16 && !w.longer():
		w.u8(w16)
		w.u16(uint16(n))
	default:
		w.u8(w32)
		w.u32(uint32(n))
	}
}

func (w *mpWriter) integer(v int64) {
	switch {
	case v >= 0 && v <= 127 && !w.longer():
		w.u8(byte(v))
	case v < 0 && v >= -32 && !w.longer():
		w.u8(byte(int8(v)))
	case v >= 0:
		switch {
		case v <= math.MaxUint8 && !w.longer():
			w.u8(0xcc)
			w.u8(byte(v))
		case v <= math.MaxUint16 && !w.longer():
			w.u8(0xcd)
			w.u16(uint16(v))
		case v <= math.MaxUint32 && !w.longer():
			w.u8(0xce)
			w.u32(uint32(v))
		default:
			w.u8(0xcf)
			w.u64(uint64(v))
		}
	default:
		switch {
		case v >= math.MinInt8 && !w.longer():
			w.u8(0xd0)
			w.u8(byte(int8(v)))
		case v >= math.MinInt16 && !w.longer():
			w.u8(0xd1)
			w.u16(uint16(int16(v)))
		case v >= math.MinInt32 && !w.longer():
			w.u8(0xd2)
			w.u32(uint32(int32(v)))
		default:
			w.u8(0xd3)
			w.u64(uint64(v))
		}
	}
}

func (w *mpWriter) float(f float64) {
	if float64(float32(f)) == f || math.IsNaN(f) {
		if gen.Bool().Draw(w.t) {
			w.u8(0xca)
			w.u32(math.Float32bits(float32(f)))
			return
		}
	}
	w.u8(0xcb)
	w.u64(math.Float64bits(f))
}

func (w *mpWriter) str(s string) {
	w.size(len(s), 0xa0, 31, 0xd9, 0xda, 0xdb)
	w.b = append(w.b, s...)
}

func (w *mpWriter) text() string {
	s := ""
	for range gen.IntRange(0, 10).Draw(w.t) {
		s += binTextChars.Draw(w.t)
	}
	return s
}

func (w *mpWriter) rawBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(gen.IntRange(0, 255).Draw(w.t))
	}
	return b
}

func (w *mpWriter) bin() {
	b := w.rawBytes(gen.IntRange(0, 12).Draw(w.t))
	w.size(len(b), 0, 0, 0xc4, 0xc5, 0xc6)
	w.b = append(w.b, b...)
}

// ext writes an extension: the timestamp type (-1) in its three sizes
// half of the time, else an application type with any data, in the
// fixext forms when the size is 1, 2, 4, 8 or 16.
func (w *mpWriter) ext() {
	var typ int8
	var data []byte
	if gen.Bool().Draw(w.t) {
		typ = -1
		switch gen.IntRange(0, 2).Draw(w.t) {
		case 0: // timestamp 32: seconds
			data = binary.BigEndian.AppendUint32(nil, uint32(gen.IntRange(0, math.MaxInt32).Draw(w.t)))
		case 1: // timestamp 64: nanoseconds (30 bits) and seconds (34 bits)
			ns := uint64(gen.IntRange(0, 999999999).Draw(w.t))
			sec := uint64(gen.IntRange(0, 1<<34-1).Draw(w.t))
			data = binary.BigEndian.AppendUint64(nil, ns<<34|sec)
		default: // timestamp 96: nanoseconds and signed seconds
			data = binary.BigEndian.AppendUint32(nil, uint32(gen.IntRange(0, 999999999).Draw(w.t)))
			data = binary.BigEndian.AppendUint64(data, uint64(mpInts.Draw(w.t)))
		}
	} else {
		typ = int8(gen.IntRange(-128, 127).Draw(w.t))
		data = w.rawBytes(gen.SampledFrom(0, 1, 2, 3, 4, 8, 16, 5, 20).Draw(w.t))
	}
	fix := map[int]byte{1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8}[len(data)]
	if fix != 0 && !w.longer() {
		w.u8(fix)
	} else {
		w.size(len(data), 0, 0, 0xc7, 0xc8, 0xc9)
	}
	w.u8(byte(typ))
	w.b = append(w.b, data...)
}

// key writes a map key: mostly a string, else an integer or any other
// value (MessagePack allows any key).
func (w *mpWriter) key(depth int) {
	switch gen.IntRange(0, 9).Draw(w.t) {
	case 0, 1:
		w.integer(mpInts.Draw(w.t))
	case 2:
		w.value(depth - 1)
	default:
		if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
			w.str(gen.Tokens(w.cfg.Keys...).Draw(w.t))
		} else {
			w.str(w.text())
		}
	}
}

func (w *mpWriter) array(depth int) {
	n := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	w.size(n, 0x90, 15, 0, 0xdc, 0xdd)
	for range n {
		w.value(depth - 1)
	}
}

func (w *mpWriter) mapValue(depth int) {
	n := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	w.size(n, 0x80, 15, 0, 0xde, 0xdf)
	for range n {
		w.key(depth)
		w.value(depth - 1)
	}
}

// value writes one value; depth bounds the nesting of arrays and maps.
func (w *mpWriter) value(depth int) {
	k := gen.IntRange(0, 11).Draw(w.t)
	if depth <= 0 && k >= 9 {
		k = gen.IntRange(0, 8).Draw(w.t)
	}
	switch k {
	case 0, 1:
		w.integer(mpInts.Draw(w.t))
	case 2:
		w.float(mpFloats.Draw(w.t))
	case 3, 4:
		if len(w.cfg.Keys) > 0 && gen.IntRange(0, 3).Draw(w.t) == 0 {
			w.str(gen.Tokens(w.cfg.Keys...).Draw(w.t))
		} else {
			w.str(w.text())
		}
	case 5:
		w.u8(gen.SampledFrom[byte](0xc0, 0xc2, 0xc3).Draw(w.t)) // nil, false, true
	case 6:
		w.bin()
	case 7:
		w.ext()
	case 8:
		w.integer(mpInts.Draw(w.t))
	case 9:
		w.array(depth)
	default:
		w.mapValue(depth)
	}
}

// MsgPack draws MessagePack values (the msgpack spec, with the
// timestamp extension): a map at the top most of the time (as messages
// and records are), else any value. Values are integers in every
// encoding (fixint, 8 to 64 bits signed and unsigned, sometimes wider
// than needed), 32- and 64-bit floats, strings and binary data with
// every length form, nil and booleans, arrays and maps (map keys mostly
// strings, from Keys half of the time when set, else integers or any
// value), timestamps in their three sizes and application extensions in
// the fixext and ext forms. MistakesPer per mille of them go through
// CorruptBytes.
func MsgPack(cfg MsgPackConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		w := &mpWriter{t: t, cfg: cfg}
		if gen.IntRange(0, 4).Draw(t) == 0 {
			w.value(cfg.MaxDepth)
		} else {
			w.mapValue(cfg.MaxDepth)
		}
		return CorruptBytes(t, w.b, cfg.MistakesPer)
	}).Named("msgpack")
}
