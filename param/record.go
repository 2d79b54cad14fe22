package param

import "reflect"

// Draw is one recorded read from the source.
type Draw struct {
	Offset int32 // offset of the first byte in the sequence
	Width  int32 // number of bytes consumed (may be 0)
	Kind   Kind  // as the generator said, or as a Mark of an enclosing span forces
	Forced bool  // Kind was forced by a Mark
	Span   int32 // index into Record.Spans of the innermost open span, or -1
	// N is the size of the draw's domain: the raw little-endian value v
	// of its Width bytes decodes to Lo + v mod N (Uintn, Range). N == 0
	// means every raw value is distinct (Uint, Bytes, and Uintn(0)).
	N  uint64
	Lo int64
	// Index is the draw's execution index (see Record).
	Index uint64
	// Site identifies where the draw is made, without the repetition
	// counts of Index: the call site and generator of its span and its
	// ordinal among the span's draws. Every execution of the same place
	// in the generators' code gives the same Site.
	Site uint64
}

// Span is one recorded generator call, or one call of a plain function
// of the user's through which generators were called (Implicit).
type Span struct {
	Name   string // generator label
	Parent int32  // index of the enclosing span, or -1
	Depth  int32  // nesting depth; top-level spans have depth 0
	Start  int32  // offset of the first byte consumed inside the span
	End    int32  // offset just past the last byte consumed (End-Start bytes)
	// Gen is the generator's identity (BeginCall), the same for every
	// call of the same generator; for Begin, a hash of the name.
	Gen uint64
	// CallSite is where the generator was called (0: unknown).
	CallSite uintptr
	// Type is the type of the value the call produces (nil: unknown).
	Type reflect.Type
	// Index is the span's execution index (see Record).
	Index uint64
	// Mark is the Kind forced on every draw inside the span (Mark), and
	// Marked tells whether one is.
	Mark   Kind
	Marked bool
	// Implicit tells a span made from a frame of the user's code (a call
	// of a plain function, see Source.Calls) from a generator call: its
	// Gen is the function's identity, its CallSite the frame's return
	// address, its Name the function's name and its Type nil.
	Implicit bool
}

// Record is the draw and span log of one execution. Slices are reused by
// Source.Reset; copy a Record (Clone) to keep it. Span names are the names
// passed to Begin, copied once per distinct name and shared by all spans
// of that name.
//
// # Execution indexes
//
// Every span and draw has an execution index: a 64-bit hash of its place
// in the tree of generator calls, independent of byte offsets. A span's
// index hashes its parent's index (0 at the top level), its call site, its
// generator, and how many earlier calls its parent made from the same
// call site; a draw's index hashes its span's index and its ordinal among
// the span's own draws. So the elements of a slice are told apart by their
// ordinal, two calls of one generator on different lines of a fuzz
// function by their call site, and removing a node's left subtree leaves
// the indexes of its right subtree unchanged: the right child is called
// from another line. This is JQF's execution indexing (call site plus
// count at each level of the call stack) over generator calls and, when
// the generators say (Calls), the calls of the user's plain functions
// between them: implicit spans are counted and hashed as generator calls
// are.
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

// Raw returns the raw little-endian value of the draw's bytes in data
// (the sequence the record was made from), at most 8 bytes.
func (d *Draw) Raw(data []byte) uint64 {
	var v uint64
	end := int(d.Offset + d.Width)
	if end > len(data) {
		end = len(data)
	}
	for i := min(end, int(d.Offset)+8) - 1; i >= int(d.Offset); i-- {
		v = v<<8 | uint64(data[i])
	}
	return v
}

// Decoded returns the draw's value reduced to its domain (Raw mod N), the
// number its generator saw before adding Lo. Two byte strings that give
// the same Decoded value make the generator do the same thing. For a draw
// of more than 8 bytes (Bytes) it is only the first 8 bytes' value.
func (d *Draw) Decoded(data []byte) uint64 {
	v := d.Raw(data)
	if d.N != 0 {
		v %= d.N
	}
	return v
}

// A Guide supplies, by execution index, the bytes of the draws of a
// guided execution (Source.ResetGuided): the bytes an earlier execution
// drew at the same place, or changed ones. JQF's execution-indexed
// mutation works this way.
type Guide interface {
	// Choice returns the bytes for the draw with execution index idx that
	// consumes w bytes. ok false lets the source draw w fresh bytes from
	// its PRNG; a slice shorter than w is padded with PRNG bytes, a longer
	// one is cut.
	Choice(idx uint64, w int) (b []byte, ok bool)
}

// A DrawGuide is a Guide that is told everything the source knows about
// each draw before choosing its bytes: a guided source calls ChooseDraw
// instead of Choice. d has every field set but Offset (its Index, Site,
// Width, domain N and Lo, Kind, and Span, the innermost open span); rec
// is the record so far (its Spans include every open span; d is not yet
// in Draws). Both are only valid during the call. The result is used as
// Choice's is. The engine "rl" chooses each value from the draw's domain
// this way.
type DrawGuide interface {
	Guide
	ChooseDraw(d *Draw, rec *Record) (b []byte, ok bool)
}

// Index hashing (a 64-bit mix, splitmix64's finaliser over a running
// state).
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// Mix combines two 64-bit identities into one (a strong 64-bit hash
// step). Generators use it to derive their identities from their parts.
func Mix(a, b uint64) uint64 { return mix(a, b) }

// HashString is a 64-bit FNV-1a hash of s, for identities derived from
// names.
func HashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// frame is an open span's execution-index state (or the root's).
type frame struct {
	index    uint64 // the span's execution index
	key      uint64 // hash of the span's call site and generator (Draw.Site's base)
	draws    uint32 // draws made directly in the span so far
	sibStart int32  // start of this frame's call-site counters in Source.sibs
	force    int8   // kind forced on draws inside: -1 none, else a Kind
	implicit bool   // the span is a frame of the user's code (Calls)
	rec      int32  // index of the recorded span, or -1 for the root
	// gen and site: the span's generator identity and call site, by
	// which Calls matches an open implicit span with a frame.
	gen  uint64
	site uintptr
}

// sibCount counts the calls a frame made from one call site.
type sibCount struct {
	site uintptr
	n    uint32
}
