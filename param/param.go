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
// The source can record each draw (offset, width, kind, domain, enclosing
// span, execution index) and each span (a generator call: its identity,
// call site, value type, the byte interval it consumed, its parent span
// and execution index): kinds separate structural choices (lengths,
// alternatives) from leaf values, spans delimit the bytes produced by one
// generator call, and execution indexes (see Record) name each draw by its
// place in the tree of generator calls (and of the user's plain functions
// between them, implicit spans: Calls). The record is kept on demand
// (SetRecording): the fuzz-binary executor keeps it off unless an engine
// asks for it (the structure-aware engines do). Whether recording or not,
// the source counts the open spans, so Depth is always right.
//
// A guided execution (ResetGuided) takes each draw's bytes from a Guide by
// execution index instead of reading them in order: the structure-aware
// engines make children that way. A DrawGuide is also told each draw's
// domain and site before choosing (the engine "rl" picks values so).
package param

import (
	"math/bits"
	"reflect"

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

// Exhausted is the panic value raised when a draw would grow the sequence
// beyond its cap, or when an execution opens more than CallsPerByte
// generator calls per byte of the cap (generators of values that cost no
// bytes, such as a slice of constants of a huge drawn length, would
// otherwise run without end). Callers treat it as an invalid input (an
// assumption failure), never as a bug in the target.
type Exhausted struct {
	Max   int // the cap, in bytes
	Calls int // the calls opened, when that limit was passed; else 0
}

// CallsPerByte bounds the generator calls (Begin, BeginCall) of one
// execution: at most CallsPerByte times the sequence's cap.
const CallsPerByte = 64

func (e Exhausted) Error() string {
	if e.Calls > 0 {
		return "gfz: more than " + itoa(e.Calls-1) + " generator calls in one input (" + itoa(CallsPerByte) +
			" per byte of the parameter sequence's cap of " + itoa(e.Max) + " bytes): values that cost no bytes repeated without bound?"
	}
	return "gfz: parameter sequence exceeded its cap of " + itoa(e.Max) + " bytes"
}

// Source is a parametric source of randomness. The zero value is not
// usable; call New or Reset.
type Source struct {
	buf []byte
	pos int
	max int
	rng uint64
	// left holds the PRNG bytes of the last next64 output not appended
	// yet (nleft of them, low byte first): the extension is the PRNG's
	// outputs, 8 bytes each, one after the other, whatever the widths of
	// the draws that read it, so that params and the seed alone give it
	// back (a supervisor rebuilding a dead worker's input does).
	left   uint64
	nleft  int
	cur    int32 // innermost open recorded span, or -1
	depth  int32 // number of open spans, recorded or not
	calls  int   // Begin and BeginCall calls of this execution
	record bool
	rec    Record
	onRead func(pos int)
	guide  Guide
	// pending is the draw a DrawGuide is choosing for.
	pending Draw

	// Execution-index state while recording: frames[0] is the root.
	frames []frame
	sibs   []sibCount
}

// New returns a Source reading data, extending it with PRNG bytes seeded by
// extSeed, capped at DefaultMaxSize bytes, recording draws. The extension
// depends on data's length and extSeed only, not on the draws that read
// it: any prefix of data followed by the extension is what a Source with
// the same data and seed reads.
func New(data []byte, extSeed uint64) *Source {
	s := &Source{}
	s.Reset(data, extSeed)
	return s
}

// Reset starts a new execution reading data. data is copied; the previous
// record is discarded (its slices are reused). A guide set by ResetGuided
// is dropped.
func (s *Source) Reset(data []byte, extSeed uint64) {
	if s.max == 0 {
		s.max = DefaultMaxSize
		s.record = true
	}
	if len(data) > s.max {
		data = data[:s.max]
	}
	s.buf = append(s.buf[:0], data...)
	s.restart(extSeed)
	s.guide = nil
}

// ResetGuided starts a guided execution: every draw takes its bytes from
// g.Choice by its execution index (fresh PRNG bytes, seeded by extSeed,
// where g has none), and Consumed is the sequence so drawn, which replays
// identically in an ordinary execution. A guided execution records
// (SetRecording(true) is implied until the next Reset).
func (s *Source) ResetGuided(g Guide, extSeed uint64) {
	if s.max == 0 {
		s.max = DefaultMaxSize
	}
	s.buf = s.buf[:0]
	s.record = true
	s.restart(extSeed)
	s.guide = g
}

func (s *Source) restart(extSeed uint64) {
	s.pos = 0
	s.rng = extSeed
	s.left, s.nleft = 0, 0
	s.cur = -1
	s.depth = 0
	s.calls = 0
	s.rec.Draws = s.rec.Draws[:0]
	s.rec.Spans = s.rec.Spans[:0]
	s.frames = append(s.frames[:0], frame{force: -1, rec: -1})
	s.sibs = s.sibs[:0]
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
// first draw). Recording costs an append and an index hash per draw and
// per span (see docs/BENCHMARKS.md for the figures); Depth works either
// way.
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
// storage until the next Reset. The implicit spans still open (Calls) end
// at the current offset.
func (s *Source) Record() *Record {
	for i := len(s.frames) - 1; i > 0 && s.frames[i].implicit; i-- {
		s.rec.Spans[s.frames[i].rec].End = int32(s.pos)
	}
	return &s.rec
}

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
		if s.nleft == 0 {
			s.left, s.nleft = s.next64(), 8
		}
		s.buf = append(s.buf, byte(s.left))
		s.left >>= 8
		s.nleft--
	}
	s.pos = end
	if s.onRead != nil {
		s.onRead(end)
	}
	return off
}

// choose consumes w bytes for the draw with execution index idx: from the
// guide if there is one and it has bytes for idx, else as take does.
func (s *Source) choose(idx uint64, w int) int {
	if s.guide == nil {
		return s.take(w)
	}
	off := s.pos
	if off+w > s.max {
		panic(Exhausted{Max: s.max})
	}
	b, ok := s.guide.Choice(idx, w)
	if !ok {
		return s.take(w)
	}
	if len(b) > w {
		b = b[:w]
	}
	s.buf = append(s.buf[:off], b...)
	return s.take(w) // pads a short b with PRNG bytes
}

// draw consumes the w bytes of one draw and records it.
func (s *Source) draw(w int, k Kind, n uint64, lo int64) int {
	if !s.record {
		return s.take(w)
	}
	f := &s.frames[len(s.frames)-1]
	ord := uint64(f.draws)
	f.draws++
	idx := mix(f.index^0xd1b54a32d192ed03, ord)
	forced := f.force >= 0
	if forced {
		k = Kind(f.force)
	}
	d := Draw{
		Offset: int32(s.pos), Width: int32(w), Kind: k, Forced: forced, Span: s.cur,
		N: n, Lo: lo, Index: idx, Site: mix(f.key, ord),
	}
	var off int
	if dg, ok := s.guide.(DrawGuide); ok {
		// The guide gets a pointer into s (a local would escape: one
		// allocation per draw of every execution).
		s.pending = d
		off = s.chooseDraw(dg, &s.pending)
	} else {
		off = s.choose(idx, w)
	}
	d.Offset = int32(off)
	s.rec.Draws = append(s.rec.Draws, d)
	return off
}

// chooseDraw is choose for a DrawGuide.
func (s *Source) chooseDraw(g DrawGuide, d *Draw) int {
	w := int(d.Width)
	off := s.pos
	if off+w > s.max {
		panic(Exhausted{Max: s.max})
	}
	b, ok := g.ChooseDraw(d, &s.rec)
	if !ok {
		return s.take(w)
	}
	if len(b) > w {
		b = b[:w]
	}
	s.buf = append(s.buf[:off], b...)
	return s.take(w)
}

// Uint consumes exactly w bytes (0 <= w <= 8) and returns them as a
// little-endian unsigned integer.
func (s *Source) Uint(w int, k Kind) uint64 {
	if w < 0 || w > 8 {
		panic("param: Uint width out of range [0, 8]")
	}
	return s.le(s.draw(w, k, 0, 0), w)
}

func (s *Source) le(off, w int) uint64 {
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
func (s *Source) Uintn(n uint64, k Kind) uint64 { return s.uintn(n, k, 0) }

func (s *Source) uintn(n uint64, k Kind, lo int64) uint64 {
	w := BytesFor(n)
	v := s.le(s.draw(w, k, n, lo), w)
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
	return lo + int64(s.uintn(n, k, lo))
}

// Bytes consumes n bytes and returns a copy of them, recorded as one value
// draw.
func (s *Source) Bytes(n int) []byte {
	if n < 0 {
		panic("param: negative Bytes length")
	}
	off := s.draw(n, Value, 0, 0)
	if n == 0 {
		return nil
	}
	b := make([]byte, n) // make and copy: one allocation, not zeroed
	copy(b, s.buf[off:off+n])
	return b
}

// Begin opens a span named name (a generator call); every Begin must be
// matched by End. The span's generator identity is a hash of name, and it
// has no call site or type: generators use BeginCall. The record keeps a
// copy of name, made once per distinct name, never name itself: a
// generator's name does not escape through Begin, so generators built
// inline in a fuzz function can stay on its stack.
func (s *Source) Begin(name string) {
	if !s.record {
		s.depth++
		s.count()
		return
	}
	s.BeginCall(name, HashString(name), 0, nil)
}

// BeginCall opens a span for a call of the generator with identity gen
// (the same for every call of the same generator), made at call site
// (0: unknown) and producing a value of type typ (nil: unknown). Every
// BeginCall must be matched by End. Like Begin, it does not retain name.
func (s *Source) BeginCall(name string, gen uint64, site uintptr, typ reflect.Type) {
	s.depth++
	s.count()
	if !s.record {
		return
	}
	s.open(s.name(name), gen, site, typ, false)
}

// count counts a generator call, panicking with Exhausted past the limit
// of CallsPerByte per byte of the cap.
func (s *Source) count() {
	s.calls++
	if s.calls > s.max*CallsPerByte {
		panic(Exhausted{Max: s.max, Calls: s.calls})
	}
}

// open pushes a recorded span and its frame.
func (s *Source) open(name string, gen uint64, site uintptr, typ reflect.Type, implicit bool) {
	p := &s.frames[len(s.frames)-1]
	// Count the earlier calls p made from this call site.
	var k uint32
	found := false
	for i := int(p.sibStart); i < len(s.sibs); i++ {
		if s.sibs[i].site == site {
			k = s.sibs[i].n
			s.sibs[i].n++
			found = true
			break
		}
	}
	if !found {
		s.sibs = append(s.sibs, sibCount{site: site, n: 1})
	}
	key := mix(uint64(site), gen)
	idx := mix(p.index^key, uint64(k))
	s.rec.Spans = append(s.rec.Spans, Span{
		Name: name, Parent: s.cur, Depth: int32(len(s.frames) - 1), Start: int32(s.pos), End: int32(s.pos),
		Gen: gen, CallSite: site, Type: typ, Index: idx, Implicit: implicit,
	})
	s.cur = int32(len(s.rec.Spans) - 1)
	s.frames = append(s.frames, frame{
		index: idx, key: key, sibStart: int32(len(s.sibs)),
		force: p.force, implicit: implicit, rec: s.cur, gen: gen, site: site,
	})
}

// A Frame is a frame of the user's code through which a generator is
// called: a call of a plain function (not a generator) between the fuzz
// function, or the function a generator runs, and the generator's Draw.
type Frame struct {
	Func uint64  // the function's identity (the span's Gen)
	Site uintptr // where it was called: the frame's return address
	Name string  // the function's name (kept as it is: pass a static string)
}

// Calls tells a recording source the frames of the user's code through
// which the next generator call (BeginCall) is made, innermost first (the
// function that calls the generator first), so that each becomes a span
// of its own, marked Implicit (the generators package calls it from Draw;
// see docs/ENGINE.md, "The call tree"). The frames are taken relative to
// the innermost open generator call (or the top level): the implicit spans
// open above it that match the outermost frames (same function and call
// site) stay open, the others are closed (their End is the current
// offset), and the remaining frames are opened, each counted as a call
// from its site like a generator call, so the left and right calls of a
// recursive function get different execution indexes. An implicit span is
// closed by the next Calls that does not list it, by the End of the
// generator call it is in, or, at the top level, stays open until the end
// of the execution (Record sets its End). Calls with no frames closes the
// implicit spans above the innermost generator call. It does nothing while
// not recording.
func (s *Source) Calls(frames []Frame) {
	if !s.record {
		return
	}
	e := len(s.frames) - 1
	for s.frames[e].implicit {
		e--
	}
	m := 0 // frames matched, from the outermost (frames[len(frames)-1])
	for m < len(frames) && e+1+m < len(s.frames) {
		f, fr := &s.frames[e+1+m], &frames[len(frames)-1-m]
		if f.gen != fr.Func || f.site != fr.Site {
			break
		}
		m++
	}
	for len(s.frames) > e+1+m {
		s.pop()
	}
	for i := len(frames) - 1 - m; i >= 0; i-- {
		fr := &frames[i]
		s.open(fr.Name, fr.Func, fr.Site, nil, true)
	}
}

// pop closes the innermost open recorded span.
func (s *Source) pop() {
	n := len(s.frames)
	s.sibs = s.sibs[:s.frames[n-1].sibStart]
	s.frames = s.frames[:n-1]
	sp := &s.rec.Spans[s.cur]
	sp.End = int32(s.pos)
	s.cur = sp.Parent
}

// Mark forces kind k on every draw made inside the innermost open span
// (including nested spans), whatever kind those draws give: a generator
// author marks a choice structural (or a value) this way when gfz's own
// labelling is wrong for the target. It does nothing outside a span or
// while not recording.
func (s *Source) Mark(k Kind) {
	if !s.record || len(s.frames) < 2 {
		return
	}
	f := &s.frames[len(s.frames)-1]
	f.force = int8(k)
	sp := &s.rec.Spans[f.rec]
	sp.Mark, sp.Marked = k, true
}

// name returns the stored copy of a span name (Begin does not retain its
// argument).
func (s *Source) name(n string) string { return intern.String(n) }

// End closes the innermost open span opened by Begin or BeginCall, and
// first the implicit spans (Calls) inside it.
func (s *Source) End() {
	if s.depth > 0 {
		s.depth--
	}
	if !s.record || s.cur < 0 {
		return
	}
	for len(s.frames) > 1 && s.frames[len(s.frames)-1].implicit {
		s.pop()
	}
	if len(s.frames) > 1 {
		s.pop()
	}
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
