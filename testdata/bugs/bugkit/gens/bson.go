package gens

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// BSONConfig tunes BSON.
type BSONConfig struct {
	MaxDepth    int      // nesting of documents, arrays and code with scope; default 3
	MaxItems    int      // elements of a document or array; default 5
	Keys        []string // preferred element names (half of the names when set)
	MistakesPer int      // per mille of documents passed through CorruptBytes; default 0
}

func (c BSONConfig) withDefaults() BSONConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxItems <= 0 {
		c.MaxItems = 5
	}
	return c
}

// BSON element types (bsonspec.org, version 1.1).
const (
	bsonDouble     = 0x01
	bsonString     = 0x02
	bsonDocument   = 0x03
	bsonArray      = 0x04
	bsonBinary     = 0x05
	bsonUndefined  = 0x06
	bsonObjectID   = 0x07
	bsonBool       = 0x08
	bsonDateTime   = 0x09
	bsonNull       = 0x0a
	bsonRegex      = 0x0b
	bsonDBPointer  = 0x0c
	bsonJavaScript = 0x0d
	bsonSymbol     = 0x0e
	bsonCodeScope  = 0x0f
	bsonInt32      = 0x10
	bsonTimestamp  = 0x11
	bsonInt64      = 0x12
	bsonDecimal128 = 0x13
	bsonMinKey     = 0xff
	bsonMaxKey     = 0x7f
)

var (
	// bsonTypes are the element types in rough order of how often
	// documents hold them: strings, numbers and nested documents first,
	// the deprecated types last.
	bsonTypes = gen.OneOfWeighted(
		gen.W(6, gen.SampledFrom[byte](bsonString, bsonInt32, bsonInt64, bsonDouble, bsonBool, bsonNull)),
		gen.W(3, gen.SampledFrom[byte](bsonDocument, bsonArray)),
		gen.W(3, gen.SampledFrom[byte](bsonBinary, bsonObjectID, bsonDateTime, bsonTimestamp, bsonDecimal128, bsonRegex)),
		gen.W(1, gen.SampledFrom[byte](bsonUndefined, bsonDBPointer, bsonJavaScript, bsonSymbol, bsonCodeScope, bsonMinKey, bsonMaxKey)),
	)
	// bsonScalarTypes are the types without nested documents.
	bsonScalarTypes = gen.SampledFrom[byte](bsonString, bsonInt32, bsonInt64, bsonDouble, bsonBool, bsonNull,
		bsonBinary, bsonObjectID, bsonDateTime, bsonTimestamp, bsonDecimal128, bsonRegex, bsonJavaScript, bsonSymbol, bsonMinKey, bsonMaxKey)
	bsonNameChars = gen.OneOfWeighted(
		gen.W(10, gen.StringFrom("abcdefxyz_ABZ0129", 1, 1)),
		gen.W(1, gen.Tokens("$", ".", " ", "-", "é", "水", "😀")),
	)
	bsonTextChars = gen.OneOfWeighted(
		gen.W(10, gen.StringFrom("abcdefxyz ABZ0129.,:-_/", 1, 1)),
		gen.W(1, gen.Tokens("é", "ü", "水", "€", "😀", "\n", "\t", "\"", "\\", "\x00")),
	)
	bsonInt32s = gen.OneOfWeighted(
		gen.W(4, gen.IntRange(-100, 1000)),
		gen.W(1, gen.SampledFrom(0, -1, math.MaxInt32, math.MinInt32, math.MaxInt16, 1<<24)),
		gen.W(1, gen.Map(gen.Int32(), func(n int32) int { return int(n) })),
	)
	bsonInt64s = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.IntRange(-100000, 100000), func(n int) int64 { return int64(n) })),
		gen.W(1, gen.SampledFrom[int64](0, -1, math.MaxInt64, math.MinInt64, 1<<53, 1700000000000, -62135596800000, 253402300799999)),
		gen.W(1, gen.Int64()),
	)
	bsonDoubles = gen.OneOfWeighted(
		gen.W(3, gen.Float64()),
		gen.W(2, gen.SampledFrom(0.0, math.Copysign(0, -1), 1.0, -1.5, 3.141592653589793, 1e300, 5e-324, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN())),
		gen.W(1, gen.Map(gen.IntRange(-1000000, 1000000), func(n int) float64 { return float64(n) / 100 })),
	)
	bsonBinarySubtypes = gen.OneOfWeighted(
		gen.W(6, gen.SampledFrom[byte](0x00, 0x04)),
		gen.W(3, gen.SampledFrom[byte](0x01, 0x02, 0x03, 0x05, 0x06, 0x07, 0x08, 0x80)),
		gen.W(1, gen.Map(gen.IntRange(0, 255), func(n int) byte { return byte(n) })),
	)
	bsonRegexOptions = gen.SampledFrom("", "i", "m", "x", "im", "imsx", "ilmsux", "s", "u", "l")
	bsonRegexPattern = gen.OneOf(
		gen.Tokens("^a", "a.*b$", "[0-9]+", "\\d{3}-\\d{4}", "(foo|bar)", "", "\\\\", "^\\s*$"),
		gen.StringFrom("abc.*+?[]()^$|\\09", 0, 10),
	)
	bsonCode = gen.Tokens("function() { return 1; }", "this.a > 3", "x", "", "emit(this.k, 1)", "return db.c.find({a: 1});")
)

type bsonWriter struct {
	t   *gfz.T
	cfg BSONConfig
	b   []byte
}

func (w *bsonWriter) i32(v int32) { w.b = binary.LittleEndian.AppendUint32(w.b, uint32(v)) }
func (w *bsonWriter) i64(v int64) { w.b = binary.LittleEndian.AppendUint64(w.b, uint64(v)) }

// reserve appends a 4-byte length placeholder and returns its offset.
func (w *bsonWriter) reserve() int {
	at := len(w.b)
	w.b = append(w.b, 0, 0, 0, 0)
	return at
}

// fill writes at at the number of bytes from at to the end.
func (w *bsonWriter) fill(at int) {
	binary.LittleEndian.PutUint32(w.b[at:], uint32(len(w.b)-at))
}

func (w *bsonWriter) text(lo, hi int, chars gen.Generator[string]) string {
	s := ""
	for range gen.IntRange(lo, hi).Draw(w.t) {
		s += chars.Draw(w.t)
	}
	return s
}

// cstring appends s and its terminating NUL byte (s holds none).
func (w *bsonWriter) cstring(s string) {
	for i := 0; i < len(s); i++ {
		if s[i] != 0 {
			w.b = append(w.b, s[i])
		}
	}
	w.b = append(w.b, 0)
}

// str appends a BSON string: its length (with the NUL byte), the bytes
// (which may hold NUL bytes) and the NUL byte.
func (w *bsonWriter) str(s string) {
	w.i32(int32(len(s) + 1))
	w.b = append(w.b, s...)
	w.b = append(w.b, 0)
}

func (w *bsonWriter) name() string {
	if len(w.cfg.Keys) > 0 && gen.Bool().Draw(w.t) {
		return gen.Tokens(w.cfg.Keys...).Draw(w.t)
	}
	return w.text(0, 8, bsonNameChars)
}

func (w *bsonWriter) raw(n int) {
	for range n {
		w.b = append(w.b, byte(gen.IntRange(0, 255).Draw(w.t)))
	}
}

// binary appends a binary value: its length, the subtype and data of
// the size the subtype calls for (16 bytes for UUIDs and MD5, a nested
// length for the old binary subtype), any size otherwise.
func (w *bsonWriter) binaryValue() {
	sub := bsonBinarySubtypes.Draw(w.t)
	at := w.reserve()
	w.b = append(w.b, sub)
	start := len(w.b)
	switch sub {
	case 0x03, 0x04, 0x05:
		w.raw(16)
	case 0x02:
		n := gen.IntRange(0, 12).Draw(w.t)
		w.i32(int32(n))
		w.raw(n)
	default:
		w.raw(gen.IntRange(0, 20).Draw(w.t))
	}
	binary.LittleEndian.PutUint32(w.b[at:], uint32(len(w.b)-start))
}

// value appends the value of an element of type typ.
func (w *bsonWriter) value(typ byte, depth int) {
	switch typ {
	case bsonDouble:
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(bsonDoubles.Draw(w.t)))
	case bsonString, bsonJavaScript, bsonSymbol:
		if typ == bsonJavaScript && gen.Bool().Draw(w.t) {
			w.str(bsonCode.Draw(w.t))
		} else {
			w.str(w.text(0, 12, bsonTextChars))
		}
	case bsonDocument:
		w.document(depth-1, false)
	case bsonArray:
		w.document(depth-1, true)
	case bsonBinary:
		w.binaryValue()
	case bsonObjectID:
		w.i32(int32(gen.IntRange(1500000000, 1800000000).Draw(w.t))) // big-endian in real ids; any bytes are valid
		w.raw(8)
	case bsonBool:
		w.b = append(w.b, byte(gen.IntRange(0, 1).Draw(w.t)))
	case bsonDateTime:
		w.i64(bsonInt64s.Draw(w.t))
	case bsonRegex:
		w.cstring(bsonRegexPattern.Draw(w.t))
		w.cstring(bsonRegexOptions.Draw(w.t))
	case bsonDBPointer:
		w.str(w.text(1, 10, bsonNameChars))
		w.raw(12)
	case bsonCodeScope:
		at := w.reserve()
		w.str(bsonCode.Draw(w.t))
		w.document(depth-1, false)
		w.fill(at)
	case bsonInt32:
		w.i32(int32(bsonInt32s.Draw(w.t)))
	case bsonTimestamp:
		w.i32(int32(gen.IntRange(0, 1000).Draw(w.t)))          // increment
		w.i32(int32(gen.IntRange(0, math.MaxInt32).Draw(w.t))) // seconds
	case bsonInt64:
		w.i64(bsonInt64s.Draw(w.t))
	case bsonDecimal128:
		w.raw(16)
	}
	// undefined, null, min key and max key have no value bytes
}

// document appends a document (or an array: element names "0", "1"...):
// its length, its elements and the terminating NUL byte.
func (w *bsonWriter) document(depth int, array bool) {
	at := w.reserve()
	n := gen.IntRange(0, w.cfg.MaxItems).Draw(w.t)
	for i := range n {
		typ := bsonTypes.Draw(w.t)
		if depth <= 0 {
			typ = bsonScalarTypes.Draw(w.t)
		}
		w.b = append(w.b, typ)
		if array {
			w.cstring(strconv.Itoa(i))
		} else {
			w.cstring(w.name())
		}
		w.value(typ, depth)
	}
	w.b = append(w.b, 0)
	w.fill(at)
}

// BSON draws BSON documents (bsonspec.org): elements of every type,
// doubles, strings with any content, embedded documents and arrays
// (nested to MaxDepth), binary data of every subtype (UUID and MD5
// sized, the old binary subtype with its inner length, user-defined),
// ObjectIds, booleans, UTC datetimes, nulls, regular expressions with
// options, JavaScript code (with scope), 32- and 64-bit integers,
// timestamps, decimal128 values and the deprecated undefined, DBPointer
// and symbol types, min and max keys, with every length field computed;
// element names from Keys half of the time when set. MistakesPer per
// mille of them go through CorruptBytes.
func BSON(cfg BSONConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		w := &bsonWriter{t: t, cfg: cfg}
		w.document(cfg.MaxDepth, false)
		return CorruptBytes(t, w.b, cfg.MistakesPer)
	}).Named("bson")
}
