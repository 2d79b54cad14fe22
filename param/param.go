// Package param implements gfz's parametric source: the byte sequence that
// parametric generators decode into structured values, and the record of
// every draw made from it.
//
// A Source reads bytes from a parameter sequence left to right. When the
// sequence is exhausted it is extended with bytes from a PRNG whose seed is
// fixed per execution, so the same (sequence, seed) pair always decodes the
// same way. Every draw consumes a fixed, documented number of bytes:
//
//   - Uint(w, k) consumes exactly w bytes (0 <= w <= 8), little-endian.
//   - Uintn(n, k) returns a value in [0, n) and consumes BytesFor(n) bytes:
//     0 bytes for n <= 1, otherwise the number of bytes needed to hold n-1.
//   - Range(lo, hi, k) returns a value in [lo, hi] (both inclusive) and
//     consumes BytesFor(hi-lo+1) bytes.
//
// The source can record each draw (offset, width, kind, enclosing span) and
// each span (a named generator call with the byte interval it consumed and
// its parent span): kinds separate structural choices (lengths,
// alternatives) from leaf values, and spans delimit the bytes produced by
// one generator call. The record is kept on demand (SetRecording): no
// engine of gfz reads it yet, and the fuzz-binary executor turns it off
// unless an engine asks for it; structure-aware engines are meant to build
// on it. Whether recording or not, the source counts the open spans, so
// Depth is always right.
package param

import (
	"math/bits"

	"github.com/gfz-dev/gfz/internal/intern"
)

// DefaultMaxSize is the default cap on the length of a parameter sequence
// (JQF's MAX_INPUT_SIZE).
const DefaultMaxSize = 10240

// Kind tells whether a draw chose structure or a value.
type Kind uint8

const (
	// Value draws produce leaf data (numbers, characters, ...).
	Value Kind = iota
	// Structure draws decide the shape of the generated input: lengths,
	// which alternative, whether to continue.
	Structure
)

func (k Kind) String() string {
	if k == Structure {
		return "structure"
	}
	return "value"
}

// Draw is one recorded read from the source.
type Draw struct {
	Offset int32 // offset of the first byte in the sequence
	Width  int32 // number of bytes consumed (may be 0)
	Kind   Kind
	Span   int32 // index into Record.Spans of the innermost open span, or -1
}

// Span is one recorded generator call.
type Span struct {
	Name   string // generator label
	Parent int32  // index of the enclosing span, or -1
	Depth  int32  // nesting depth; top-level spans have depth 0
	Start  int32  // offset of the first byte consumed inside the span
	End    int32  // offset just past the last byte consumed (End-Start bytes)
}

// Record is the draw and span log of one execution. Slices are reused by
// Source.Reset; copy a Record (Clone) to keep it. Span names are the names
// passed to Begin, copied once per distinct name and shared by all spans
// of that name.
type Record struct {
	Draws []Draw
	Spans []Span
}

// Clone returns a deep copy of r.
func (r *Record) Clone() *Record {
	return &Record{
		Draws: append([]Draw(nil), r.Draws...),
		Spans: append([]Span(nil), r.Spans...),
	}
}

// Exhausted is the panic value raised when a draw would grow the sequence
// beyond its cap. Callers treat it as an invalid input (an assumption
// failure), never as a bug in the target.
type Exhausted struct{ Max int }

func (e Exhausted) Error() string {
	return "gfz: parameter sequence exceeded its cap of " + itoa(e.Max) + " bytes"
}

// Source is a parametric source of randomness. The zero value is not
// usable; call New or Reset.
type Source struct {
	buf    []byte
	pos    int
	max    int
	rng    uint64
	cur    int32 // innermost open recorded span, or -1
	depth  int32 // number of open spans, recorded or not
	record bool
	rec    Record
	onRead func(pos int)
}

// New returns a Source reading data, extending it with PRNG bytes seeded by
// extSeed, capped at DefaultMaxSize bytes, recording draws.
func New(data []byte, extSeed uint64) *Source {
	s := &Source{}
	s.Reset(data, extSeed)
	return s
}

// Reset starts a new execution reading data. data is copied; the previous
// record is discarded (its slices are reused).
func (s *Source) Reset(data []byte, extSeed uint64) {
	if s.max == 0 {
		s.max = DefaultMaxSize
		s.record = true
	}
	if len(data) > s.max {
		data = data[:s.max]
	}
	s.buf = append(s.buf[:0], data...)
	s.pos = 0
	s.rng = extSeed
	s.cur = -1
	s.depth = 0
	s.rec.Draws = s.rec.Draws[:0]
	s.rec.Spans = s.rec.Spans[:0]
}

// SetMax sets the cap on the sequence length (values < 1 select
// DefaultMaxSize). It applies from the next draw on.
func (s *Source) SetMax(n int) {
	if n < 1 {
		n = DefaultMaxSize
	}
	s.max = n
}

// SetOnRead sets a function called with the new position after every
// read (nil: none). The fuzz binary's -repro uses it to report, as they
// happen, how many bytes an execution has read, so that the count is known
// even if the process dies during the execution.
func (s *Source) SetOnRead(fn func(pos int)) { s.onRead = fn }

// SetRecording turns the draw/span record on or off (default on for a
// Source from New). Call it between executions (after Reset, before the
// first draw). Recording costs one append per draw and per span (see
// docs/BENCHMARKS.md for the figures); Depth works either way.
func (s *Source) SetRecording(on bool) { s.record = on }

// Recording reports whether the source keeps the draw/span record.
func (s *Source) Recording() bool { return s.record }

// Pos returns the number of bytes consumed so far.
func (s *Source) Pos() int { return s.pos }

// Consumed returns the bytes consumed so far, including PRNG extension
// bytes: the sequence to save so that a replay decodes identically. The
// slice aliases internal storage until the next Reset.
func (s *Source) Consumed() []byte { return s.buf[:s.pos] }

// Record returns the record of the current execution. It aliases internal
// storage until the next Reset.
func (s *Source) Record() *Record { return &s.rec }

// splitmix64 step.
func (s *Source) next64() uint64 {
	s.rng += 0x9e3779b97f4a7c15
	z := s.rng
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// take consumes w bytes and returns the offset of the first.
func (s *Source) take(w int) int {
	off := s.pos
	end := off + w
	if end > s.max {
		panic(Exhausted{Max: s.max})
	}
	for len(s.buf) < end {
		v := s.next64()
		for i := 0; i < 8 && len(s.buf) < end; i++ {
			s.buf = append(s.buf, byte(v))
			v >>= 8
		}
	}
	s.pos = end
	if s.onRead != nil {
		s.onRead(end)
	}
	return off
}

func (s *Source) log(off, w int, k Kind) {
	if s.record {
		s.rec.Draws = append(s.rec.Draws, Draw{Offset: int32(off), Width: int32(w), Kind: k, Span: s.cur})
	}
}

// Uint consumes exactly w bytes (0 <= w <= 8) and returns them as a
// little-endian unsigned integer.
func (s *Source) Uint(w int, k Kind) uint64 {
	if w < 0 || w > 8 {
		panic("param: Uint width out of range [0, 8]")
	}
	off := s.take(w)
	s.log(off, w, k)
	var v uint64
	for i := w - 1; i >= 0; i-- {
		v = v<<8 | uint64(s.buf[off+i])
	}
	return v
}

// BytesFor returns the number of bytes a draw of a value in [0, n) consumes:
// 0 when n <= 1, otherwise ceil(bits(n-1) / 8). n == 0 stands for 2^64.
func BytesFor(n uint64) int {
	if n == 0 {
		return 8
	}
	if n == 1 {
		return 0
	}
	return (bits.Len64(n-1) + 7) / 8
}

// Uintn returns a value in [0, n) (n == 0 means the full uint64 range),
// consuming BytesFor(n) bytes. The raw little-endian value is reduced
// modulo n.
func (s *Source) Uintn(n uint64, k Kind) uint64 {
	v := s.Uint(BytesFor(n), k)
	if n == 0 {
		return v
	}
	return v % n
}

// Range returns a value in [lo, hi], both inclusive, consuming
// BytesFor(hi-lo+1) bytes. It panics if lo > hi.
func (s *Source) Range(lo, hi int64, k Kind) int64 {
	if lo > hi {
		panic("param: Range with lo > hi")
	}
	n := uint64(hi-lo) + 1 // wraps to 0 for the full int64 range
	return lo + int64(s.Uintn(n, k))
}

// Bytes consumes n bytes and returns a copy of them, recorded as one value
// draw.
func (s *Source) Bytes(n int) []byte {
	if n < 0 {
		panic("param: negative Bytes length")
	}
	off := s.take(n)
	s.log(off, n, Value)
	return append([]byte(nil), s.buf[off:off+n]...)
}

// Begin opens a span named name (a generator call); every Begin must be
// matched by End. The record keeps a copy of name, made once per distinct
// name, never name itself: a generator's name does not escape through
// Begin, so generators built inline in a fuzz function can stay on its
// stack.
func (s *Source) Begin(name string) {
	depth := s.depth
	s.depth++
	if !s.record {
		return
	}
	s.rec.Spans = append(s.rec.Spans, Span{Name: s.name(name), Parent: s.cur, Depth: depth, Start: int32(s.pos), End: int32(s.pos)})
	s.cur = int32(len(s.rec.Spans) - 1)
}

// name returns the stored copy of a span name (Begin does not retain its
// argument).
func (s *Source) name(n string) string { return intern.String(n) }

// End closes the innermost open span.
func (s *Source) End() {
	if s.depth > 0 {
		s.depth--
	}
	if !s.record || s.cur < 0 {
		return
	}
	sp := &s.rec.Spans[s.cur]
	sp.End = int32(s.pos)
	s.cur = sp.Parent
}

// Depth returns the number of currently open spans (0 outside any
// generator), whether the source records or not.
func (s *Source) Depth() int { return int(s.depth) }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
