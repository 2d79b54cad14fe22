// Package generators holds gfz's parametric generators. Import it as gen:
//
//	import gen "github.com/gfz-dev/gfz/generators"
//
// A Generator[V] turns bytes of the execution's parameter sequence into a
// value of type V. Generators are plain values, cheap to build (build them
// inline or once in a package variable) and composable: SliceOf, OneOf, Map
// and Custom combine them into generators of structured inputs.
//
// # Byte costs
//
// Every draw consumes a fixed number of bytes, read by the param package
// (little-endian; param.BytesFor(n) is 0 for n <= 1, otherwise the number
// of bytes that hold n-1). Structure draws decide the shape of the value
// (lengths, alternatives); value draws produce its leaves.
//
//	generator                 bytes consumed                                        kind
//	Bool()                    1 (true iff the low bit is set)                       value
//	Byte()                    1                                                     value
//	Int()                     8 (two's complement, little-endian)                   value
//	IntRange(lo, hi)          BytesFor(hi-lo+1); raw value mod (hi-lo+1), plus lo   value
//	Just(v)                   0
//	Bytes()                   BytesRange(0, 64)
//	BytesRange(min, max)      BytesFor(max-min+1) for the length n, then n          structure, value
//	String()                  StringRange(0, 64)
//	StringRange(min, max)     as BytesRange; the bytes are the string (any bytes)   structure, value
//	StringFrom(abc, min, max) length as BytesRange, then BytesFor(k) per character,  structure, value
//	                          k = number of runes in abc
//	SliceOf(g, min, max)      BytesFor(max-min+1) for the length n, then n draws    structure, g's
//	                          of g
//	OneOf(g1, ..., gk)        BytesFor(k) for the index i, then a draw of g(i+1)    structure, g's
//	Map(g, f)                 what g consumes
//	Custom(fn)                what fn draws
//
// The rest of the library (each function documents its exact costs):
//
//	generator                       bytes consumed                                 kind
//	Integers[I](), Int8() ... Uint64() 1 selector b; b&3 == 0: edge value,         structure, value
//	  IntegersRange(lo, hi)         BytesFor(#edges); else BytesFor(hi-lo+1)
//	  Duration(), DurationRange     (uniform; the type's size for full ranges)
//	Floats[F](), Float64(), Float32() 1 selector; edge: 1; else 8 (float64) or 4    structure, value
//	FloatRange(lo, hi)              1 selector; edge: 1; else 8                    structure, value
//	Rune()                          1 selector; then 1 (ASCII), 2 (BMP) or 3       structure, value
//	RuneAny()                       4                                              value
//	StringOf(r, min, max)           BytesFor(max-min+1) for n, then n draws of r    structure, r's
//	Identifier(max)                 BytesFor(max) for n, then n bytes              structure, value
//	MapOf, EntriesOf(k, v, min, max) BytesFor(max-min+1) for n, then n (k, v) draws structure, k's, v's
//	OneOfWeighted(alts...)          BytesFor(sum of weights), then the draw         structure, g's
//	SampledFrom(vs...), Tokens      BytesFor(len(vs))                              value
//	Ptr(g), Optional(g)             1 (nil/absent when b&3 == 0), then g's draw    structure, g's
//	Filter(g, keep, tries)          what the tries consume                         g's
//	Recursive(base, extend, d)      1 per level (b&1 == 0: base), then the draw     structure, g's
//	Deferred(fn)                    what the generator fn returns consumes          g's
//	Permutation(s)                  BytesFor(n-i) per index i = 0..n-2: n-1 bytes   structure
//	                                for n <= 256 elements
//	SliceOfDistinct(g, min, max),   BytesFor(max-min+1) for n, then g's draws until structure, g's
//	  SliceOfDistinctBy, MapOfValues n distinct, repeats included (at most
//	                                DefaultDistinctTries per element)
//	DictionaryOr, TokensOr          1 (b&1 == 0: a token, BytesFor(#tokens)),      structure, value
//	                                else the fallback; nothing extra when empty
//	StringMatching(re)              per node: class BytesFor(size), . like Rune,   structure, value
//	                                | BytesFor(#alternatives), x{n,m} BytesFor(m-n+1)
//	Of[T]()                         per kind as above; see Of
//
// Domain generators live in subpackages: gojson (JSON values), goxml
// (well-formed XML with namespaces and references), gosrc (Go source
// files that parse, and type-check), gotoml (TOML 1.0 documents), goyaml
// (YAML streams), gomd (CommonMark and GFM documents), gohtml (HTML tag
// soup or balanced markup), gourl (URLs and relative references) and
// gocsv (RFC 4180 records); nearmiss turns any of them into almost-valid
// input (truncations, dropped closers, broken escapes...), which is where
// parsers keep their bugs. See docs/GENERATORS.md.
//
// Lengths are drawn first (not continue/stop bytes), so the length of a
// slice is one mutable structure draw.
//
// # Spans and reported values
//
// Each Draw opens a span in the parameter source named after the generator
// (its label when it has one, see Named) and closes it when the value is
// made, so that a source that records (param.Source.SetRecording) knows
// which bytes each generator call consumed, and with what identity, call
// site and value type: the structure-aware engines build the call tree of
// an input from them (see AsStructure). A Draw called from the user's code
// while the source records also tells it the frames of the user's plain
// functions it was called through (param.Source.Calls): a recursive
// function drawing from t, with no generator of its own, gets a span per
// call. A Draw made while no other
// generator is drawing (a top-level draw, gfz.T.TopLevel; inside an
// action of gfz.T.Repeat, no other generator of that action) records
// its value with gfz.T.Note when the T keeps values (gfz.T.Noting);
// failure reports print those values in Go syntax under the generator's
// label. Draw keeps no reference to the generator, so a generator built
// inline in a fuzz function (gen.IntRange(0, 9).Draw(t)) does not have to
// be allocated on the heap when its constructor is inlined.
package generators

import (
	"math/bits"
	"reflect"
	"runtime"
	"sync"
	"unsafe"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/internal/callsite"
	"github.com/gfz-dev/gfz/param"
)

// Generator produces values of type V from a gfz.T's parameter source.
// The zero Generator is not usable; build one with the functions of this
// package.
type Generator[V any] struct {
	name  string
	label string
	draw  func(*gfz.T) V
	// id is the generator's identity (see identity) for library
	// generators: a hash of the constructor's name, parameters and parts.
	// For Custom it holds nothing and user is set: the identity then comes
	// from fn's source position.
	id   uint64
	user bool
	mark int8 // 0: none; 1 + a param.Kind forced on the draws inside
}

// Draw generates a value from t's parameter source.
//
// When the source records (a structure-aware engine runs), the call is
// recorded with the generator's identity, the place of the call in the
// caller's code and the value's type: the execution index of every draw
// (see param.Record) rests on them. Draw is never inlined, so that it can
// find its call site cheaply.
//
//go:noinline
func (g Generator[V]) Draw(t *gfz.T) V {
	if g.draw == nil {
		panic("generators: Draw of the zero Generator (" + zeroHint + ")")
	}
	s := t.Source()
	top := t.TopLevel()
	name := g.label
	if name == "" {
		name = g.name
	}
	if s.Recording() {
		site := callsite.Caller()
		userCalls(s, site)
		s.BeginCall(name, g.identity(), site, reflect.TypeFor[V]())
		if g.mark != 0 {
			s.Mark(param.Kind(g.mark - 1))
		}
	} else {
		s.Begin(name)
	}
	v := g.draw(t)
	s.End()
	if top && t.Noting() {
		t.Note(name, v)
	}
	return v
}

// userCalls tells s the frames of the user's code between the function
// that called Draw and the library (param.Source.Calls): the plain
// functions, recursive ones included, through which the user's code
// reached this generator call become spans of the call tree. Call it
// directly from Draw, with Draw's call site (when it is in gfz's library,
// one cached lookup).
//
//go:noinline
func userCalls(s *param.Source, site uintptr) {
	if callsite.Library(site) {
		return
	}
	// The frames go into a buffer reused from draw to draw (a deep
	// recursion has dozens of user frames above each draw: a buffer made
	// for each would be most of a recording engine's garbage).
	bp := framePool.Get().(*[]callsite.Frame)
	frames, ok := callsite.User(1, site, (*bp)[:0]) // F is Draw
	if ok {
		s.Calls(asParamFrames(frames))
	}
	*bp = frames[:0] // keeps the larger array when User grew it
	framePool.Put(bp)
}

// framePool holds the frame buffers of userCalls (Calls copies the frames,
// so a buffer is free again once it returns).
var framePool = sync.Pool{New: func() any {
	b := make([]callsite.Frame, 0, 64)
	return &b
}}

// callsite.Frame and param.Frame have the same fields (the two packages
// may not import each other): the frames are passed without a copy.
func asParamFrames(fs []callsite.Frame) []param.Frame {
	return unsafe.Slice((*param.Frame)(unsafe.Pointer(unsafe.SliceData(fs))), len(fs))
}

// The conversions above need one layout.
var _ = param.Frame(callsite.Frame{})
var _ [unsafe.Sizeof(param.Frame{}) - unsafe.Sizeof(callsite.Frame{})]struct{}
var _ [unsafe.Sizeof(callsite.Frame{}) - unsafe.Sizeof(param.Frame{})]struct{}

// identity is the generator's identity in execution indexes and for
// structure-aware crossover. For a library generator it hashes the
// constructor's name, its parameters and the identities of the generators
// it is built from; for Custom, the source position (file and line) of
// the function given to it. So two generators built the same way have the
// same identity in every execution, in every process of the same program,
// however the compiler inlined their constructors (an inlined closure is a
// copy of the function with another address). Two function literals on
// one line share an identity. A label does not change it; neither do the
// functions given to Map, Filter or Bind, nor, for a combinator (SliceOf,
// Map, Ptr, ...) of a Custom generator, which function that generator
// runs: resolving a function's source position costs a lookup that would
// stop the constructors from being inlined.
func (g Generator[V]) identity() uint64 {
	if g.user {
		return sourceID(codeOf(g.draw))
	}
	if g.id == 0 {
		return nameID(g.name)
	}
	return param.Mix(g.id, 0)
}

// codeOf returns the address of fn's code, or 0 for nil.
func codeOf[F any](fn F) uintptr {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&fn))
	if p == nil {
		return 0
	}
	return *(*uintptr)(p)
}

// sourceIDs caches sourceID by code address.
var sourceIDs sync.Map // uintptr -> uint64

// sourceID returns a hash of the source position of the function whose
// code starts at pc.
func sourceID(pc uintptr) uint64 {
	if v, ok := sourceIDs.Load(pc); ok {
		return v.(uint64)
	}
	id := uint64(pc)
	if fn := runtime.FuncForPC(pc); fn != nil {
		file, line := fn.FileLine(fn.Entry())
		id = param.Mix(param.HashString(file), uint64(line))
	}
	sourceIDs.Store(pc, id)
	return id
}

// ids combines parts into an identity. It is cheap enough for the
// constructors that call it to stay inlinable (an inlined constructor's
// closure can stay on the caller's stack); identity mixes the result
// thoroughly.
func ids(a, b uint64) uint64 { return (bits.RotateLeft64(a, 23) ^ b) * 0x9e3779b97f4a7c15 }

// nameID is the identity part of a constructor's name.
func nameID(name string) uint64 { return param.HashString(name) }

// Name parts of the identities that constructors compute.
var (
	idMap      = nameID("Map")
	idIntRange = nameID("IntRange")
	idSliceOf  = nameID("SliceOf")
	idOneOf    = nameID("OneOf")
	idPtr      = nameID("Ptr")
	idOptional = nameID("Optional")
	idFilter   = nameID("Filter")
)

// AsStructure returns g with every choice it makes marked structural, for
// the structure-aware engines (docs/ENGINE.md): they mutate its draws as
// decisions about the shape of the input, whatever kind gfz gives them.
// Use it when a choice decides the shape of what is generated in a way gfz
// cannot see (gfz labels lengths and alternatives, and learns the rest
// while fuzzing).
func (g Generator[V]) AsStructure() Generator[V] {
	g.mark = 1 + int8(param.Structure)
	return g
}

// AsValue returns g with every choice it makes marked a value (leaf
// data), the reverse of AsStructure.
func (g Generator[V]) AsValue() Generator[V] {
	g.mark = 1 + int8(param.Value)
	return g
}

// Named returns g with a label: reports show top-level values drawn by the
// returned generator under label, and its spans carry label instead of the
// generator's name.
func (g Generator[V]) Named(label string) Generator[V] {
	g.label = label
	return g
}

// String returns the generator's label, or its name when it has none.
func (g Generator[V]) String() string {
	if g.label != "" {
		return g.label
	}
	return g.name
}

// Custom turns fn, any function that draws from t, into a generator. fn
// may call other generators' Draw; recursive generators are written this
// way.
func Custom[V any](fn func(t *gfz.T) V) Generator[V] {
	if fn == nil {
		panic("generators: Custom with a nil function")
	}
	return Generator[V]{name: "Custom", draw: fn, user: true}
}

// Just returns a generator that always produces v and consumes no bytes.
func Just[V any](v V) Generator[V] {
	return Generator[V]{name: "Just", draw: func(*gfz.T) V { return v }}
}

// Map returns a generator that draws from g and converts the value with f.
func Map[V, W any](g Generator[V], f func(V) W) Generator[W] {
	usable("Map", g)
	if f == nil {
		panic("generators: Map with a nil function")
	}
	return Generator[W]{name: "Map", draw: func(t *gfz.T) W { return f(g.Draw(t)) }, id: ids(idMap, g.id)}
}

// Bool returns a generator of booleans: one byte, true iff its low bit is
// set.
func Bool() Generator[bool] {
	return Generator[bool]{name: "Bool", draw: drawBool}
}

// Uintn(2) reads one byte and keeps its low bit, like Uint(1)&1, but
// records the draw's two-value domain.
func drawBool(t *gfz.T) bool { return t.Source().Uintn(2, param.Value) == 1 }

// Byte returns a generator of bytes: one byte, as is.
func Byte() Generator[byte] {
	return Generator[byte]{name: "Byte", draw: drawByte}
}

func drawByte(t *gfz.T) byte { return byte(t.Source().Uint(1, param.Value)) }

// Int returns a generator of ints over the full range: eight bytes,
// little-endian two's complement.
func Int() Generator[int] {
	return Generator[int]{name: "Int", draw: drawInt}
}

func drawInt(t *gfz.T) int { return int(t.Source().Uint(8, param.Value)) }

// IntRange returns a generator of ints in [lo, hi], both inclusive. It
// consumes param.BytesFor(hi-lo+1) bytes: none when lo == hi, one for up to
// 256 values. It panics if lo > hi.
func IntRange(lo, hi int) Generator[int] {
	if lo > hi {
		panic("generators: IntRange with lo > hi")
	}
	return Generator[int]{name: "IntRange", draw: func(t *gfz.T) int {
		return int(t.Source().Range(int64(lo), int64(hi), param.Value))
	}, id: ids(ids(idIntRange, uint64(lo)), uint64(hi))}
}

// Default length bounds of Bytes and String.
const (
	DefaultMinLen = 0
	DefaultMaxLen = 64
)

// Bytes returns a generator of byte slices of DefaultMinLen to
// DefaultMaxLen bytes; see BytesRange.
func Bytes() Generator[[]byte] { return BytesRange(DefaultMinLen, DefaultMaxLen) }

// BytesRange returns a generator of byte slices of min to max bytes (both
// inclusive): the length n is a structure draw of param.BytesFor(max-min+1)
// bytes, then the n bytes of the slice are one value draw. The slice is
// never nil. It panics if min < 0 or min > max.
func BytesRange(min, max int) Generator[[]byte] {
	checkLen("BytesRange", min, max)
	return Generator[[]byte]{name: "Bytes", draw: func(t *gfz.T) []byte {
		s := t.Source()
		n := int(s.Range(int64(min), int64(max), param.Structure))
		if b := s.Bytes(n); b != nil {
			return b
		}
		return []byte{} // never nil (Source.Bytes(0) is)
	}}
}

// String returns a generator of strings of DefaultMinLen to DefaultMaxLen
// bytes; see StringRange.
func String() Generator[string] { return StringRange(DefaultMinLen, DefaultMaxLen) }

// StringRange returns a generator of strings of min to max bytes, drawn
// like BytesRange. The bytes are used as they are, so strings need not be
// valid UTF-8.
func StringRange(min, max int) Generator[string] {
	checkLen("StringRange", min, max)
	return Generator[string]{name: "String", draw: func(t *gfz.T) string {
		s := t.Source()
		n := int(s.Range(int64(min), int64(max), param.Structure))
		return string(s.Bytes(n))
	}}
}

// StringFrom returns a generator of strings of min to max characters taken
// from alphabet: the length n is a structure draw of
// param.BytesFor(max-min+1) bytes, then each character is a value draw of
// param.BytesFor(k) bytes choosing one of the k runes of alphabet. It
// panics if alphabet is empty, min < 0 or min > max.
func StringFrom(alphabet string, min, max int) Generator[string] {
	checkLen("StringFrom", min, max)
	runes := []rune(alphabet)
	if len(runes) == 0 {
		panic("generators: StringFrom with an empty alphabet")
	}
	k := uint64(len(runes))
	return Generator[string]{name: "StringFrom", draw: func(t *gfz.T) string {
		s := t.Source()
		n := int(s.Range(int64(min), int64(max), param.Structure))
		out := make([]rune, 0, prealloc(n))
		for range n {
			out = append(out, runes[s.Uintn(k, param.Value)])
		}
		return string(out)
	}}
}

// SliceOf returns a generator of slices of min to max elements (both
// inclusive) drawn from g: the length n is a structure draw of
// param.BytesFor(max-min+1) bytes, then g draws n elements in order. The
// slice is never nil. It panics if min < 0 or min > max.
func SliceOf[V any](g Generator[V], min, max int) Generator[[]V] {
	checkLen("SliceOf", min, max)
	usable("SliceOf", g)
	return Generator[[]V]{name: "SliceOf", draw: func(t *gfz.T) []V {
		n := int(t.Source().Range(int64(min), int64(max), param.Structure))
		out := make([]V, 0, prealloc(n))
		for range n {
			out = append(out, g.Draw(t))
		}
		return out
	}, id: ids(ids(idSliceOf, g.id), uint64(min)<<32|uint64(max))}
}

// OneOf returns a generator that draws from one of gs: the index is a
// structure draw of param.BytesFor(len(gs)) bytes (none for a single
// alternative), then the chosen generator draws. It panics if gs is empty.
func OneOf[V any](gs ...Generator[V]) Generator[V] {
	if len(gs) == 0 {
		panic("generators: OneOf with no generators")
	}
	for _, g := range gs {
		usable("OneOf", g)
	}
	gs = append([]Generator[V](nil), gs...)
	n := uint64(len(gs))
	id := idOneOf
	for _, g := range gs {
		id = ids(id, g.identity())
	}
	return Generator[V]{name: "OneOf", draw: func(t *gfz.T) V {
		return gs[t.Source().Uintn(n, param.Structure)].Draw(t)
	}, id: id}
}

// usable panics, naming the constructor fn, when g is the zero Generator:
// most often a generator variable used before it is assigned, such as a
// recursive generator that refers to itself (build those with Recursive,
// or refer to the variable through Deferred).
func usable[V any](fn string, g Generator[V]) {
	if g.draw == nil {
		panic("generators: " + fn + " of the zero Generator (" + zeroHint + ")")
	}
}

const zeroHint = "a generator variable used before it is assigned? a generator that refers to itself needs Deferred or Recursive"

func checkLen(fn string, min, max int) {
	if min < 0 || min > max {
		panic("generators: " + fn + " with bad length bounds (want 0 <= min <= max)")
	}
}

// preallocMax bounds what a generator allocates for a drawn length before
// drawing the elements: a length near a large max (math.MaxInt) would
// otherwise panic in make or take gigabytes before the parameter
// sequence's size limit ends the draws.
const preallocMax = 1024

// prealloc is the capacity to allocate for n elements.
func prealloc(n int) int { return min(n, preallocMax) }
