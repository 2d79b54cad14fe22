package generators

import (
	"math"
	"slices"
	"time"
	"unsafe"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/param"
)

// Integer is the set of integer types the edge-biased integer generators
// produce, including named types such as time.Duration or time.Month.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Float is the set of floating-point types of Floats and FloatRange.
type Float interface{ ~float32 | ~float64 }

// edgeMask selects the edge-value branch of biased numeric generators: a
// selector byte b picks an edge value iff b&edgeMask == 0 (one value in
// four), otherwise a uniform value.
const edgeMask = 3

// isSigned reports whether I is a signed integer type.
func isSigned[I Integer]() bool {
	var z I
	return z-1 < z
}

// bitSize returns the size of I in bits.
func bitSize[I Integer]() int {
	var z I
	return int(unsafe.Sizeof(z)) * 8
}

// integerBounds returns the minimum and maximum of I.
func integerBounds[I Integer]() (lo, hi I) {
	var z I
	if isSigned[I]() {
		hi = I(uint64(1)<<(bitSize[I]()-1) - 1)
		return -hi - 1, hi
	}
	return z, ^z
}

// Integers returns a generator of all values of I, biased toward edge
// values: a structure selector byte, then either (one time in four) an edge
// value — 0, 1, -1, the minimum, the maximum, and ±2^k, 2^k-1 for every k
// that fits — as a value draw of BytesFor(number of edges) bytes, or a
// uniform value of the type's size in bytes (1 for int8, 8 for int64).
func Integers[I Integer]() Generator[I] {
	lo, hi := integerBounds[I]()
	return IntegersRange(lo, hi)
}

// IntegersRange returns a generator of values of I in [lo, hi] (both
// inclusive) with the edge bias of Integers, restricted to the range (lo
// and hi are always edges): one structure selector byte, then BytesFor(k)
// value bytes for an edge (k edges in range), or BytesFor(hi-lo+1) value
// bytes for a uniform value. It panics if lo > hi.
func IntegersRange[I Integer](lo, hi I) Generator[I] {
	if lo > hi {
		panic("generators: IntegersRange with lo > hi")
	}
	edges := integerEdges(lo, hi)
	n := uint64(hi) - uint64(lo) + 1 // 0 stands for 2^64
	ne := uint64(len(edges))
	return Generator[I]{name: "Integers", draw: func(t *gfz.T) I {
		s := t.Source()
		if s.Uint(1, param.Structure)&edgeMask == 0 {
			return edges[s.Uintn(ne, param.Value)]
		}
		return lo + I(s.Uintn(n, param.Value))
	}}
}

// integerEdges lists the interesting values of [lo, hi] in a fixed order
// without duplicates.
func integerEdges[I Integer](lo, hi I) []I {
	var out []I
	add := func(v I) {
		if v >= lo && v <= hi && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	add(0)
	add(lo)
	add(hi)
	add(1)
	if isSigned[I]() {
		add(lo + 1)
		add(hi - 1)
		var z I
		add(z - 1)
	}
	size := bitSize[I]()
	for k := 1; k < size; k++ {
		p := I(1) << k
		if p <= 0 && !isSigned[I]() {
			break
		}
		if p > 0 {
			add(p)
			add(p - 1)
			if isSigned[I]() {
				add(-p)
			}
		}
	}
	return out
}

// Typed shorthands for Integers.

// Int8 returns Integers[int8]() (1 selector byte + 1 byte).
func Int8() Generator[int8] { return named(Integers[int8](), "Int8") }

// Int16 returns Integers[int16]() (1 selector byte + 1 or 2 bytes).
func Int16() Generator[int16] { return named(Integers[int16](), "Int16") }

// Int32 returns Integers[int32]() (1 selector byte + 1 or 4 bytes).
func Int32() Generator[int32] { return named(Integers[int32](), "Int32") }

// Int64 returns Integers[int64]() (1 selector byte + 1 or 8 bytes).
func Int64() Generator[int64] { return named(Integers[int64](), "Int64") }

// Uint returns Integers[uint]() (1 selector byte + 1 or 8 bytes on 64-bit).
func Uint() Generator[uint] { return named(Integers[uint](), "Uint") }

// Uint8 returns Integers[uint8]() (1 selector byte + 1 byte).
func Uint8() Generator[uint8] { return named(Integers[uint8](), "Uint8") }

// Uint16 returns Integers[uint16]() (1 selector byte + 1 or 2 bytes).
func Uint16() Generator[uint16] { return named(Integers[uint16](), "Uint16") }

// Uint32 returns Integers[uint32]() (1 selector byte + 1 or 4 bytes).
func Uint32() Generator[uint32] { return named(Integers[uint32](), "Uint32") }

// Uint64 returns Integers[uint64]() (1 selector byte + 1 or 8 bytes).
func Uint64() Generator[uint64] { return named(Integers[uint64](), "Uint64") }

// Duration returns Integers[time.Duration](): any duration, biased toward
// 0, ±1ns, the extremes and powers of two.
func Duration() Generator[time.Duration] {
	return named(Integers[time.Duration](), "Duration")
}

// DurationRange returns IntegersRange(lo, hi) for durations.
func DurationRange(lo, hi time.Duration) Generator[time.Duration] {
	return named(IntegersRange(lo, hi), "Duration")
}

func named[V any](g Generator[V], name string) Generator[V] {
	g.name = name
	return g
}

// Floats returns a generator of all float values of F, biased toward edge
// values: one structure selector byte, then either (one time in four) an
// edge value as a value draw of 1 byte — 0, -0, 1, -1, 0.5, the smallest
// positive normal and subnormal numbers, the largest finite values, +Inf,
// -Inf and NaN — or the raw bits of a value (4 bytes for float32, 8 for
// float64), which may also be any NaN or infinity.
func Floats[F Float]() Generator[F] {
	var z F
	is32 := unsafe.Sizeof(z) == 4
	var edges []F
	if is32 {
		edges = []F{0, F(math.Copysign(0, -1)), 1, -1, 0.5, math.SmallestNonzeroFloat32, 0x1p-126, math.MaxFloat32, -math.MaxFloat32,
			F(math.Inf(1)), F(math.Inf(-1)), F(math.NaN())}
	} else {
		edges = []F{0, F(math.Copysign(0, -1)), 1, -1, 0.5, F(math.SmallestNonzeroFloat64), 0x1p-1022, F(maxF64), F(-maxF64),
			F(math.Inf(1)), F(math.Inf(-1)), F(math.NaN())}
	}
	ne := uint64(len(edges))
	return Generator[F]{name: "Floats", draw: func(t *gfz.T) F {
		s := t.Source()
		if s.Uint(1, param.Structure)&edgeMask == 0 {
			return edges[s.Uintn(ne, param.Value)]
		}
		if is32 {
			return F(math.Float32frombits(uint32(s.Uint(4, param.Value))))
		}
		return F(math.Float64frombits(s.Uint(8, param.Value)))
	}}
}

// maxF64 is a variable so that F(maxF64) compiles for float32 type parameters.
var maxF64 = math.MaxFloat64

// Float64 returns Floats[float64]().
func Float64() Generator[float64] { return named(Floats[float64](), "Float64") }

// Float32 returns Floats[float32]().
func Float32() Generator[float32] { return named(Floats[float32](), "Float32") }

// FloatRange returns a generator of finite floats in [lo, hi]: one
// structure selector byte, then either (one time in four) an edge value —
// lo, hi, and 0, 1, -1 when in range — as a value draw of 1 byte, or a
// value draw of 8 bytes u mapped to lo + (hi-lo)*u/(2^64-1) (clamped to
// the range). It panics unless lo <= hi and both are finite.
func FloatRange[F Float](lo, hi F) Generator[F] {
	if !(lo <= hi) || math.IsInf(float64(lo), 0) || math.IsInf(float64(hi), 0) {
		panic("generators: FloatRange needs finite lo <= hi")
	}
	var edges []F
	for _, e := range []F{lo, hi, 0, 1, -1} {
		if e >= lo && e <= hi && !slices.Contains(edges, e) {
			edges = append(edges, e)
		}
	}
	ne := uint64(len(edges))
	return Generator[F]{name: "FloatRange", draw: func(t *gfz.T) F {
		s := t.Source()
		if s.Uint(1, param.Structure)&edgeMask == 0 {
			return edges[s.Uintn(ne, param.Value)]
		}
		u := float64(s.Uint(8, param.Value)) / float64(math.MaxUint64)
		// hi-lo overflows to +Inf for a range wider than MaxFloat64 (every
		// draw would be hi, and NaN for u 0): then a weighted sum. Other
		// ranges keep lo + (hi-lo)*u, so saved inputs draw the same values.
		d := float64(hi) - float64(lo)
		v := F(float64(lo) + d*u)
		if math.IsInf(d, 0) {
			v = F(float64(lo)*(1-u) + float64(hi)*u)
		}
		return min(max(v, lo), hi)
	}}
}
