package gens

import (
	"encoding/binary"
	"math"
	"unicode/utf8"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// CBORConfig tunes CBOR.
type CBORConfig struct {
	MaxDepth    int      // nesting of arrays, maps and tags; default 3
	MaxItems    int      // elements of an array, pairs of a map, chunks of a string; default 4
	Keys        []string // preferred text-string map keys (half of the text keys when set)
	MistakesPer int      // per mille of items passed through CorruptBytes; default 0
}

func (c CBORConfig) withDefaults() CBORConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 4
	}
	return c
}

// CBOR major types (RFC 8949, section 3.1).
const (
	cborUint   = 0
	cborNint   = 1
	cborBytes  = 2
	cborText   = 3
	cborArray  = 4
	cborMap    = 5
	cborTag    = 6
	cborSimple = 7
)

var (
	cborDateTime = gen.OneOf(
		gen.Tokens("2013-03-21T20:04:00Z", "1970-01-01T00:00:00Z", "2024-02-29T12:30:45.123456789+05:30", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59-07:00"),
		gen.Map(gen.Zip(gen.IntRange(0, 9999), gen.Zip(gen.IntRange(1, 12), gen.IntRange(1, 28))), func(v gen.Tuple2[int, gen.Tuple2[int, int]]) string {
			return pad(v.A, 4) + "-" + pad(v.B.A, 2) + "-" + pad(v.B.B, 2) + "T10:20:30Z"
		}),
		gen.StringFrom("0123456789-:TZ.+", 0, 24),
	)
	// cborArg draws the argument of a head: small values are the common
	// case, the boundaries of each head size are drawn too.
	cborArg = gen.OneOfWeighted(
		gen.W(6, gen.Map(gen.IntRange(0, 23), func(n int) uint64 { return uint64(n) })),
		gen.W(3, gen.Map(gen.IntRange(24, 1000), func(n int) uint64 { return uint64(n) })),
		gen.W(2, gen.SampledFrom[uint64](24, 255, 256, 65535, 65536, 1<<32-1, 1<<32, 1<<53, 1<<63, math.MaxUint64)),
		gen.W(1, gen.Uint64()),
	)
	cborTagNum = gen.OneOfWeighted(
		gen.W(6, gen.SampledFrom[uint64](0, 1, 2, 3, 4, 5, 21, 22, 23, 24, 32, 33, 34, 36, 55799, 256, 25, 28, 29, 258, 259, 1001)),
		gen.W(1, cborArg),
	)
	cborFloat = gen.OneOfWeighted(
		gen.W(4, gen.Float64()),
		gen.W(2, gen.SampledFrom(0.0, math.Copysign(0, -1), 1.0, 1.5, -4.1, 100000.0, 65504.0, 5.960464477539063e-8, 1.0e+300, math.Inf(1), math.Inf(-1), math.NaN(), 3.4028234663852886e+38)),
		gen.W(1, gen.Map(gen.Int64(), func(n int64) float64 { return float64(n) / 1000 })),
	)
)

type cborWriter struct {
	t   *gfz.T
	cfg CBORConfig
	b   []byte
}

// head writes an initial byte and its argument in the shortest form or,
// sometimes, in a longer one (well-formed, not preferred serialization).
func (w *cborWriter) head(major byte, arg uint64) {
	size := 0
	switch {
	case arg < 24:
	case arg <= math.MaxUint8:
		size = 1
	case arg <= math.MaxUint16:
		size = 2
	case arg <= math.MaxUint32:
		size = 4
	default:
		size = 8
	}
	if size < 8 && gen.IntRange(0, 15).Draw(w.t) == 0 {
		size = []int{1, 2, 4, 8}[gen.IntRange(0, 3).Draw(w.t)]
		if arg > math.MaxUint8 && size == 1 {
			size = 8
		}
		if arg > math.MaxUint16 && size == 2 || arg > math.MaxUint32 && size == 4 {
			size = 8
		}
	}
	m := major << 5
	switch size {
	case 0:
		w.b = append(w.b, m|byte(arg))
	case 1:
		w.b = append(w.b, m|24, byte(arg))
	case 2:
		w.b = binary.BigEndian.AppendUint16(append(w.b, m|25), uint16(arg))
	case 4:
		w.b = binary.BigEndian.AppendUint32(append(w.b, m|26), uint32(arg))
	default:
		w.b = binary.BigEndian.AppendUint64(append(w.b, m|27), arg)
	}
}

func (w *cborWriter) text(lo, hi int) string {
	n := gen.IntRange(lo, hi).Draw(w.t)
	s := ""
	for range n {
		s += binTextChars.Draw(w.t)
	}
	return s
}

func (w *cborWriter) rawBytes() []byte {
	n := gen.IntRange(0, 12).Draw(w.t)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(gen.IntRange(0, 255).Draw(w.t))
	}
	return b
}

// str writes a byte or text string, definite-length or, a sixth of the
// time, indefinite-length in chunks of the same major type.
func (w *cborWriter) str(major byte, s []byte) {
	if gen.IntRange(0, 5).Draw(w.t) != 0 {
		w.head(major, uint64(len(s)))
		w.b = append(w.b, s...)
		return
	}
	w.b = append(w.b, major<<5|31)
	chunks := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	if len(s) > 0 {
		chunks = max(chunks, 1)
	}
	for i := range chunks {
		n := len(s) // the last chunk takes the rest
		if i < chunks-1 {
			n = gen.IntRange(0, len(s)).Draw(w.t)
		}
		if major == cborText {
			for n < len(s) && !utf8.RuneStart(s[n]) {
				n++
			}
		}
		w.head(major, uint64(n))
		w.b = append(w.b, s[:n]...)
		s = s[n:]
	}
	w.b = append(w.b, 0xff)
}

func (w *cborWriter) textString() {
	if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
		w.str(cborText, []byte(gen.Tokens(w.cfg.Keys...).Draw(w.t)))
		return
	}
	w.str(cborText, []byte(w.text(0, 8)))
}

// key writes a map key: mostly a text string, as in most documents, else
// an integer or any other item (CBOR allows any key).
func (w *cborWriter) key(depth int) {
	switch gen.IntRange(0, 9).Draw(w.t) {
	case 0, 1:
		w.head(byte(gen.IntRange(0, 1).Draw(w.t)), uint64(gen.IntRange(0, 30).Draw(w.t)))
	case 2:
		w.item(depth - 1)
	default:
		w.textString()
	}
}

func (w *cborWriter) float(f float64) {
	switch gen.IntRange(0, 2).Draw(w.t) {
	case 0:
		if h, ok := cborHalf(f); ok {
			w.b = binary.BigEndian.AppendUint16(append(w.b, 0xf9), h)
			return
		}
		fallthrough
	case 1:
		if float64(float32(f)) == f || math.IsNaN(f) {
			w.b = binary.BigEndian.AppendUint32(append(w.b, 0xfa), math.Float32bits(float32(f)))
			return
		}
	}
	w.b = binary.BigEndian.AppendUint64(append(w.b, 0xfb), math.Float64bits(f))
}

// cborHalf returns the IEEE 754 half-precision encoding of f when f is
// exactly representable in it.
func cborHalf(f float64) (uint16, bool) {
	switch {
	case math.IsNaN(f):
		return 0x7e00, true
	case math.IsInf(f, 1):
		return 0x7c00, true
	case math.IsInf(f, -1):
		return 0xfc00, true
	}
	var sign uint16
	if math.Signbit(f) {
		sign, f = 0x8000, -f
	}
	if f == 0 {
		return sign, true
	}
	frac, exp := math.Frexp(f) // f = frac * 2^exp, frac in [0.5, 1)
	e := exp + 14              // biased exponent of 1.x form
	if e >= 1 && e <= 30 {
		m := (frac*2 - 1) * 1024
		if m == math.Trunc(m) {
			return sign | uint16(e)<<10 | uint16(m), true
		}
		return 0, false
	}
	if e < 1 { // subnormal: f = m * 2^-24
		m := f * (1 << 24)
		if m == math.Trunc(m) && m < 1024 {
			return sign | uint16(m), true
		}
	}
	return 0, false
}

// tagContent writes the content of a tag: the type the tag defines
// most of the time, any item otherwise.
func (w *cborWriter) tagContent(num uint64, depth int) {
	if gen.IntRange(0, 4).Draw(w.t) == 0 {
		w.item(depth - 1)
		return
	}
	switch num {
	case 0:
		w.str(cborText, []byte(cborDateTime.Draw(w.t)))
	case 1:
		if gen.Bool().Draw(w.t) {
			w.integer()
		} else {
			w.float(cborFloat.Draw(w.t))
		}
	case 2, 3:
		w.str(cborBytes, w.rawBytes())
	case 4, 5:
		w.head(cborArray, 2)
		w.integer()
		w.integer()
	case 21, 22, 23, 24:
		w.str(cborBytes, w.rawBytes())
	case 32, 33, 34, 36:
		w.str(cborText, []byte(gen.Tokens("http://example.com/a?b=c", "aGVsbG8=", "aGVsbG8", "[a-z]+", "text/plain", "").Draw(w.t)))
	default:
		w.item(depth - 1)
	}
}

func (w *cborWriter) integer() {
	w.head(byte(gen.IntRange(0, 1).Draw(w.t)), cborArg.Draw(w.t))
}

// item writes one data item; depth bounds the nesting of arrays, maps
// and tags.
func (w *cborWriter) item(depth int) {
	k := gen.IntRange(0, 11).Draw(w.t)
	if depth <= 0 && k >= 8 {
		k = gen.IntRange(0, 7).Draw(w.t)
	}
	switch k {
	case 0, 1:
		w.integer()
	case 2:
		w.str(cborBytes, w.rawBytes())
	case 3, 4:
		w.textString()
	case 5:
		w.float(cborFloat.Draw(w.t))
	case 6:
		w.b = append(w.b, gen.SampledFrom[byte](0xf4, 0xf5, 0xf6, 0xf7).Draw(w.t)) // false, true, null, undefined
	case 7:
		if gen.Bool().Draw(w.t) {
			w.b = append(w.b, 0xe0|byte(gen.IntRange(0, 19).Draw(w.t))) // simple(0..19)
		} else {
			w.b = append(w.b, 0xf8, byte(gen.IntRange(32, 255).Draw(w.t))) // simple(32..255)
		}
	case 8, 9:
		w.array(depth)
	case 10:
		w.mapItem(depth)
	default:
		num := cborTagNum.Draw(w.t)
		w.head(cborTag, num)
		w.tagContent(num, depth)
	}
}

// open draws a container's item count and whether it is
// indefinite-length (a quarter of them), and writes its head.
func (w *cborWriter) open(major byte) (n int, indef bool) {
	n = gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	indef = gen.IntRange(0, 3).Draw(w.t) == 0
	if indef {
		w.b = append(w.b, major<<5|31)
	} else {
		w.head(major, uint64(n))
	}
	return n, indef
}

func (w *cborWriter) array(depth int) {
	n, indef := w.open(cborArray)
	for range n {
		w.item(depth - 1)
	}
	if indef {
		w.b = append(w.b, 0xff)
	}
}

func (w *cborWriter) mapItem(depth int) {
	n, indef := w.open(cborMap)
	for range n {
		w.key(depth)
		w.item(depth - 1)
	}
	if indef {
		w.b = append(w.b, 0xff)
	}
}

// CBOR draws CBOR data items (RFC 8949): a map at the top most of the
// time (as documents and records are), else any item. Items are unsigned
// and negative integers with every head size (sometimes not the
// shortest), byte and text strings (definite-length or in indefinite-
// length chunks), arrays and maps (definite- or indefinite-length; map
// keys mostly text strings, from Keys half of the time when set, else
// integers or any item), tags with the content their number defines
// (date/time strings, epoch times, bignums, decimal fractions, expected
// encodings, URIs and other text, self-described CBOR) or any content,
// simple values (false, true, null, undefined, unassigned ones) and
// half-, single- and double-precision floats. MistakesPer per mille of
// them go through CorruptBytes.
func CBOR(cfg CBORConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		w := &cborWriter{t: t, cfg: cfg}
		if gen.IntRange(0, 4).Draw(t) == 0 {
			w.item(cfg.MaxDepth)
		} else {
			w.mapItem(cfg.MaxDepth)
		}
		return CorruptBytes(t, w.b, cfg.MistakesPer)
	}).Named("cbor")
}
