package native

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"

	"github.com/gfz-dev/gfz/param"
)

// Mutation of a native target's inputs argument by argument (the engine
// "args", internal/engine/args.go, through engine.ArgMutation): a child is
// its parent's arguments, decoded, with a few small edits, each to one
// argument and fitting its type, re-encoded. A []byte or string argument
// gets chunk edits (remove, insert, duplicate, copy, overwrite, truncate),
// byte edits (bit flip, set, small arithmetic, interesting values, swap),
// dictionary tokens inserted or written over, a chunk of the same argument
// of another input, or a decimal number in its text replaced; an integer
// small arithmetic, an interesting value of its width, a dictionary
// number, a bit flip, its negation; a float arithmetic, scaling,
// interesting values; a bool is flipped. Re-encoding keeps every length
// prefix right, so an edit never moves bytes from one argument into
// another, and the fixed-size arguments are changed as numbers, not as
// the bytes at a random offset of the sequence.
//
// Every random choice comes from the engine's source (rand), so the same
// run seed gives the same children.

// A Mutator makes the children of one target's inputs. It is not safe for
// concurrent use: it keeps scratch buffers.
type Mutator struct {
	types  Types
	tail   []int    // Types.tails
	last   int      // Types.lastVariable
	dict   [][]byte // tokens for []byte and string arguments
	ints   []uint64 // dictionary tokens that are integers (two's complement)
	floats []float64
	args   []Arg
	owned  [][]byte // per argument: the storage of an edited []byte or string
	mine   []bool   // per argument: its contents are in owned (this child's copy)
	other  []Arg
	next   func() uint64
	mix    *Mix          // SetMix
	src    *param.Source // the mix's source, reused
	grim   *grimoire     // EnableGrimoire (grimoire.go)
}

// NewMutator returns a mutator of ts's inputs drawing tokens from dict
// (the code's literals; may be empty): every token for []byte and string
// arguments, those that parse as Go integer or float literals for numbers.
func NewMutator(ts Types, dict [][]byte) *Mutator {
	m := &Mutator{types: ts, tail: ts.tails(), last: ts.lastVariable()}
	for _, t := range dict {
		if len(t) == 0 {
			continue
		}
		m.dict = append(m.dict, t)
		s := string(t)
		if v, err := strconv.ParseInt(s, 0, 64); err == nil {
			m.ints = append(m.ints, uint64(v))
		} else if u, err := strconv.ParseUint(s, 0, 64); err == nil {
			m.ints = append(m.ints, u)
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			m.floats = append(m.floats, f)
		}
	}
	m.args = make([]Arg, len(ts))
	m.owned = make([][]byte, len(ts))
	m.mine = make([]bool, len(ts))
	m.other = make([]Arg, len(ts))
	return m
}

// NewArgMutator implements engine.ArgMutation: the codec's mutator, as an
// engine.ArgMutator.
func (c Codec) NewArgMutator(dict [][]byte) any {
	m := NewMutator(c.Types, dict)
	m.SetMix(c.Mix)
	return m
}

// decodeInto decodes data into args as Decode does, without a
// param.Source: fixed-size arguments read past the end of data get zero
// bytes (the engine's inputs are whole executions' consumed bytes, so
// they never do), and the contents of []byte and string arguments alias
// data.
func (m *Mutator) decodeInto(data []byte, args []Arg) {
	pos := 0
	for i, k := range m.types {
		a := &args[i]
		a.Kind, a.U, a.B = k, 0, nil
		switch {
		case !k.Variable():
			var v uint64
			for j := 0; j < k.Size(); j++ {
				if pos < len(data) {
					v |= uint64(data[pos]) << (8 * j)
				}
				pos++
			}
			if k == Bool {
				v &= 1
			}
			a.U = v
		case i == m.last:
			p := min(pos, len(data))
			n := max(0, len(data)-p-m.tail[i])
			a.B = data[p : p+n]
			pos = p + n
		default:
			var raw uint64
			for j := 0; j < lengthWidth; j++ {
				if pos < len(data) {
					raw |= uint64(data[pos]) << (8 * j)
				}
				pos++
			}
			left := max(0, len(data)-min(pos, len(data))-m.tail[i])
			n := int(raw % uint64(left+1))
			p := min(pos, len(data))
			a.B = data[p : p+n]
			pos = p + n
		}
	}
}

// appendEncoded appends the parameter sequence of args (Types.Encode,
// without its checks: the kinds are the mutator's and lengths are capped
// by the size limit) to dst.
func (m *Mutator) appendEncoded(dst []byte, args []Arg) []byte {
	for i, k := range m.types {
		a := args[i]
		switch {
		case !k.Variable():
			for j := 0; j < k.Size(); j++ {
				dst = append(dst, byte(a.U>>(8*j)))
			}
		case i == m.last:
			dst = append(dst, a.B...)
		default:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(a.B)))
			dst = append(dst, a.B...)
		}
	}
	return dst
}

// encodedLen is the length of args' parameter sequence.
func (m *Mutator) encodedLen(args []Arg) int {
	n := 0
	for i, k := range m.types {
		switch {
		case !k.Variable():
			n += k.Size()
		case i == m.last:
			n += len(args[i].B)
		default:
			n += lengthWidth + len(args[i].B)
		}
	}
	return n
}

// below returns a uniform int in [0, n), n >= 1.
func (m *Mutator) below(n int) int {
	return int((m.next() >> 32) * uint64(uint32(n)) >> 32)
}

// MutateArgs implements engine.ArgMutator: it writes into dst (reusing
// its storage) a child of parent made by edits successive edits (at least
// one), each to one argument chosen uniformly, and returns it. The child
// is at most maxSize bytes long; other returns another input of the
// target (nil if none), whose arguments splicing reads.
func (m *Mutator) MutateArgs(rand func() uint64, dst, parent []byte, edits, maxSize int, other func() []byte) []byte {
	m.next = rand
	m.decodeInto(parent, m.args)
	clear(m.mine)
	size := m.encodedLen(m.args)
	for range max(edits, 1) {
		i := m.below(len(m.types))
		a := &m.args[i]
		if !a.Kind.Variable() {
			m.mutateFixed(a)
			continue
		}
		if !m.mine[i] {
			// Copy on first write: the contents alias the parent.
			m.owned[i] = append(m.owned[i][:0], a.B...)
			a.B, m.mine[i] = m.owned[i], true
		}
		old := len(a.B)
		a.B = m.mutateBytes(a.B, max(0, maxSize-size), i, other)
		m.owned[i] = a.B
		size += len(a.B) - old
	}
	return m.appendEncoded(dst[:0], m.args)
}

// mutateFixed applies one edit to a fixed-size argument.
func (m *Mutator) mutateFixed(a *Arg) {
	switch k := a.Kind; {
	case k == Bool:
		a.U ^= 1
	case k == Float32 || k == Float64:
		m.mutateFloat(a)
	default:
		m.mutateInt(a)
	}
}

// Integer edits.
const (
	intSmall = iota // add or subtract 1..16
	intLarge        // add or subtract 1..2^(4*width)
	intInteresting
	intDict
	intFlip
	intNegate
	intRandom
	numIntOps
)

// intWeights are the integer edits' relative weights.
var intWeights = [numIntOps]int{intSmall: 6, intLarge: 2, intInteresting: 4, intDict: 3, intFlip: 2, intNegate: 1, intRandom: 1}

// pick returns an index of weights chosen by weight, skipping those
// whose weight is zero or that ok rejects (nil: all allowed); -1 if none
// is left.
func (m *Mutator) pick(weights []int, ok func(int) bool) int {
	total := 0
	for i, w := range weights {
		if ok == nil || ok(i) {
			total += w
		}
	}
	if total == 0 {
		return -1
	}
	x := m.below(total)
	for i, w := range weights {
		if ok != nil && !ok(i) {
			continue
		}
		if x < w {
			return i
		}
		x -= w
	}
	return 0
}

// mutateInt applies one edit to an integer argument, keeping its width
// (the value wraps as the Go type does).
func (m *Mutator) mutateInt(a *Arg) {
	width := a.Kind.Size()
	signed := a.Kind >= Int && a.Kind <= Int64
	v := a.U
	op := m.pick(intWeights[:], func(i int) bool { return i != intDict || len(m.ints) > 0 })
	switch op {
	case intSmall, intLarge:
		d := uint64(1 + m.below(16))
		if op == intLarge {
			d = 1 + m.next()%(uint64(1)<<min(4*width, 32))
		}
		if m.next()&1 == 0 {
			v += d
		} else {
			v -= d
		}
	case intInteresting:
		vals := interestingInts(width, signed)
		v = vals[m.below(len(vals))]
	case intDict:
		v = m.ints[m.below(len(m.ints))]
	case intFlip:
		v ^= 1 << m.below(8*width)
	case intNegate:
		v = -v
	case intRandom:
		v = m.next()
	}
	if width < 8 {
		v &= 1<<(8*width) - 1
	}
	if v == a.U {
		v ^= 1 // an edit always changes the value
	}
	a.U = v
}

// interestingInts lists, per width and signedness, the boundary values an
// integer edit may set (two's complement, truncated later).
func interestingInts(width int, signed bool) []uint64 {
	return interesting[width][b2i(signed)]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var interesting = func() (t [9][2][]uint64) {
	small := []int64{0, 1, 2, 3, 7, 8, 9, 10, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 255, 256, 512, 1000, 1023, 1024, 4095, 4096, 10000, 32767, 32768, 65535, 65536, 1 << 20, 1e6, 1 << 24, 1e9}
	for _, w := range []int{1, 2, 4, 8} {
		for s := range 2 {
			bitsW := uint(8 * w)
			seen := map[uint64]bool{}
			var list []uint64
			add := func(v uint64) {
				if bitsW < 64 {
					v &= 1<<bitsW - 1
				}
				if !seen[v] {
					seen[v] = true
					list = append(list, v)
				}
			}
			for _, v := range small {
				if bitsW < 64 && uint64(v) >= 1<<bitsW {
					continue
				}
				add(uint64(v))
				if s == 1 {
					add(uint64(-v))
				}
			}
			add(^uint64(0)) // -1, or the unsigned maximum
			if s == 1 {
				add(1<<(bitsW-1) - 1) // max
				add(1 << (bitsW - 1)) // min
			} else {
				add(1<<(bitsW-1) - 1)
				add(1 << (bitsW - 1))
				add(^uint64(0) - 1)
			}
			t[w][s] = list
		}
	}
	return t
}()

// Float edits.
const (
	floatSmall = iota // add or subtract 1..16
	floatScale        // multiply or divide by 2..10
	floatInteresting
	floatDict
	floatNegate
	floatFlip // one bit of the IEEE representation
	numFloatOps
)

var floatWeights = [numFloatOps]int{floatSmall: 4, floatScale: 2, floatInteresting: 4, floatDict: 3, floatNegate: 1, floatFlip: 2}

var interestingFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, 10, 100, 1e-7, 1e7, 1e-300, 1e300,
	math.MaxFloat32, math.SmallestNonzeroFloat32, math.MaxFloat64, math.SmallestNonzeroFloat64,
	1 << 53, 1<<53 + 1, math.Inf(1), math.Inf(-1), math.NaN(),
}

// mutateFloat applies one edit to a float argument.
func (m *Mutator) mutateFloat(a *Arg) {
	is32 := a.Kind == Float32
	var f float64
	if is32 {
		f = float64(math.Float32frombits(uint32(a.U)))
	} else {
		f = math.Float64frombits(a.U)
	}
	op := m.pick(floatWeights[:], func(i int) bool { return i != floatDict || len(m.floats) > 0 })
	switch op {
	case floatSmall:
		d := float64(1 + m.below(16))
		if m.next()&1 == 0 {
			f += d
		} else {
			f -= d
		}
	case floatScale:
		d := float64(2 + m.below(9))
		if m.next()&1 == 0 {
			f *= d
		} else {
			f /= d
		}
	case floatInteresting:
		f = interestingFloats[m.below(len(interestingFloats))]
	case floatDict:
		f = m.floats[m.below(len(m.floats))]
	case floatNegate:
		f = -f
	case floatFlip:
		if is32 {
			a.U ^= 1 << m.below(32)
		} else {
			a.U ^= 1 << m.below(64)
		}
		return
	}
	var u uint64
	if is32 {
		u = uint64(math.Float32bits(float32(f)))
	} else {
		u = math.Float64bits(f)
	}
	if u == a.U {
		u ^= 1 // an edit always changes the value
	}
	a.U = u
}

// Edits of []byte and string arguments.
const (
	bytesRemove = iota
	bytesInsertRandom
	bytesInsertRepeat
	bytesDuplicate
	bytesCopy
	bytesOverwrite
	bytesTruncate
	bytesFlip
	bytesSet
	bytesArith
	bytesArithWide
	bytesInteresting
	bytesSwap
	bytesNumber
	bytesDictInsert
	bytesDictOverwrite
	bytesSplice
	numBytesOps
)

// bytesWeights are the relative weights of the edits of []byte and
// string arguments (an edit that cannot apply, such as removing from an
// empty argument or a dictionary edit without a dictionary, is skipped).
var bytesWeights = [numBytesOps]int{
	bytesRemove: 4, bytesInsertRandom: 3, bytesInsertRepeat: 1, bytesDuplicate: 3, bytesCopy: 2,
	bytesOverwrite: 2, bytesTruncate: 2, bytesFlip: 3, bytesSet: 3, bytesArith: 3, bytesArithWide: 1,
	bytesInteresting: 2, bytesSwap: 1, bytesNumber: 2, bytesDictInsert: 3, bytesDictOverwrite: 3,
	bytesSplice: 2,
}

// chunkLen returns a chunk length in [1, limit] (limit >= 1): up to 8
// bytes nine times in ten, up to 32 most other times, rarely up to limit.
func (m *Mutator) chunkLen(limit int) int {
	switch x := m.below(100); {
	case x < 90:
		return 1 + m.below(min(8, limit))
	case x < 99:
		return 1 + m.below(min(32, limit))
	}
	return 1 + m.below(limit)
}

// insert inserts chunk (not aliasing b) at off.
func insert(b []byte, off int, chunk []byte) []byte {
	n := len(chunk)
	b = append(b, chunk...) // grow by n
	copy(b[off+n:], b[off:len(b)-n])
	copy(b[off:], chunk)
	return b
}

// mutateBytes applies one edit to b, the contents of argument i, growing
// it by at most room bytes, and returns it.
func (m *Mutator) mutateBytes(b []byte, room, i int, other func() []byte) []byte {
	var spliced []byte
	noSplice := other == nil
	applies := func(op int) bool {
		switch op {
		case bytesRemove, bytesDuplicate, bytesOverwrite, bytesTruncate, bytesFlip, bytesSet, bytesArith, bytesInteresting:
			return len(b) > 0 && (op != bytesDuplicate || room > 0)
		case bytesInsertRandom, bytesInsertRepeat:
			return room > 0
		case bytesCopy, bytesSwap:
			return len(b) > 1
		case bytesArithWide:
			return len(b) > 1
		case bytesNumber:
			for _, c := range b {
				if '0' <= c && c <= '9' {
					return true
				}
			}
			return false
		case bytesDictInsert:
			return len(m.dict) > 0 && room > 0
		case bytesDictOverwrite:
			return len(m.dict) > 0 && len(b) > 0
		case bytesSplice:
			return !noSplice
		}
		return false
	}
	op := m.pick(bytesWeights[:], applies)
	if op == bytesSplice {
		if o := other(); len(o) > 0 {
			m.decodeInto(o, m.other)
			spliced = m.other[i].B
		}
		if len(spliced) == 0 {
			noSplice = true
			op = m.pick(bytesWeights[:], applies)
		}
	}
	switch op {
	case bytesRemove:
		off := m.below(len(b))
		n := m.chunkLen(len(b) - off)
		b = append(b[:off], b[off+n:]...)
	case bytesInsertRandom:
		n := m.chunkLen(min(room, 32))
		off := m.below(len(b) + 1)
		var chunk [32]byte
		for j := range chunk[:n] {
			chunk[j] = byte(m.next())
		}
		b = insert(b, off, chunk[:n])
	case bytesInsertRepeat:
		n := m.chunkLen(min(room, 64))
		off := m.below(len(b) + 1)
		c := byte(m.next())
		if len(b) > 0 && m.next()&1 == 0 {
			c = b[m.below(len(b))]
		}
		var chunk [64]byte
		for j := range chunk[:n] {
			chunk[j] = c
		}
		b = insert(b, off, chunk[:n])
	case bytesDuplicate:
		from := m.below(len(b))
		n := m.chunkLen(min(len(b)-from, room))
		var chunk [64]byte
		c := chunk[:0]
		if n <= len(chunk) {
			c = append(c, b[from:from+n]...)
		} else {
			c = append([]byte(nil), b[from:from+n]...)
		}
		b = insert(b, m.below(len(b)+1), c)
	case bytesCopy:
		from, to := m.below(len(b)), m.below(len(b)-1)
		if to >= from {
			to++
		}
		n := m.chunkLen(len(b) - max(from, to))
		copy(b[to:to+n], b[from:from+n])
	case bytesOverwrite:
		off := m.below(len(b))
		n := m.chunkLen(len(b) - off)
		for j := off; j < off+n; j++ {
			b[j] = byte(m.next())
		}
	case bytesTruncate:
		b = b[:m.below(len(b))]
	case bytesFlip:
		j := m.below(8 * len(b))
		b[j/8] ^= 1 << (j % 8)
	case bytesSet:
		j := m.below(len(b))
		b[j] ^= byte(1 + m.below(255))
	case bytesArith:
		j := m.below(len(b))
		b[j] = byte(int(b[j]) + delta(m))
	case bytesArithWide:
		w := 2 << m.below(3) // 2, 4 or 8 bytes
		if w > len(b) {
			w = 2
		}
		p := b[m.below(len(b)-w+1):][:w]
		var order binary.ByteOrder = binary.LittleEndian
		if m.next()&1 == 0 {
			order = binary.BigEndian
		}
		d := uint64(int64(delta(m)))
		switch w {
		case 2:
			order.PutUint16(p, order.Uint16(p)+uint16(d))
		case 4:
			order.PutUint32(p, order.Uint32(p)+uint32(d))
		default:
			order.PutUint64(p, order.Uint64(p)+d)
		}
	case bytesInteresting:
		w := 1 << m.below(3) // 1, 2 or 4 bytes
		if w > len(b) {
			w = 1
		}
		vals := interestingInts(w, true)
		v := vals[m.below(len(vals))]
		p := b[m.below(len(b)-w+1):][:w]
		big := m.next()&1 == 0
		for j := range w {
			if big {
				p[w-1-j] = byte(v >> (8 * j))
			} else {
				p[j] = byte(v >> (8 * j))
			}
		}
	case bytesSwap:
		x, y := m.below(len(b)), m.below(len(b))
		b[x], b[y] = b[y], b[x]
	case bytesNumber:
		b = m.replaceNumber(b, room)
	case bytesDictInsert:
		tok := m.dict[m.below(len(m.dict))]
		tok = tok[:min(len(tok), room)]
		b = insert(b, m.below(len(b)+1), tok)
	case bytesDictOverwrite:
		tok := m.dict[m.below(len(m.dict))]
		off := m.below(len(b))
		if off+len(tok) > len(b) {
			grow := min(off+len(tok)-len(b), room)
			b = append(b, make([]byte, grow)...)
		}
		copy(b[off:], tok)
	case bytesSplice:
		from := m.below(len(spliced))
		n := m.chunkLen(len(spliced) - from)
		chunk := spliced[from : from+n]
		if m.next()&1 == 0 && len(b) > 0 {
			// Overwrite at a random offset, growing at the end if needed.
			off := m.below(len(b))
			if off+n > len(b) {
				b = append(b, make([]byte, min(off+n-len(b), room))...)
			}
			copy(b[off:], chunk)
		} else {
			chunk = append([]byte(nil), chunk[:min(n, room)]...)
			b = insert(b, m.below(len(b)+1), chunk)
		}
	}
	return b
}

// delta returns a non-zero value in [-35, 35] (AFL's ARITH_MAX).
func delta(m *Mutator) int {
	d := 1 + m.below(35)
	if m.next()&1 == 0 {
		return -d
	}
	return d
}

// replaceNumber replaces a run of decimal digits of b (one containing a
// random digit of b), with its sign, by another decimal number: the value
// plus or minus 1..16, or an interesting value (signed 64-bit), growing b
// by at most room bytes.
func (m *Mutator) replaceNumber(b []byte, room int) []byte {
	// Find the digit runs through a random start.
	start := m.below(len(b))
	j := start
	for j < len(b) && (b[j] < '0' || b[j] > '9') {
		j++
	}
	if j == len(b) {
		for j = start; j >= 0 && (b[j] < '0' || b[j] > '9'); j-- {
		}
	}
	lo, hi := j, j+1
	for lo > 0 && b[lo-1] >= '0' && b[lo-1] <= '9' {
		lo--
	}
	for hi < len(b) && b[hi] >= '0' && b[hi] <= '9' {
		hi++
	}
	neg := lo > 0 && b[lo-1] == '-'
	v, err := strconv.ParseInt(string(b[lo:hi]), 10, 64)
	if err != nil {
		v = math.MaxInt64
	}
	if neg {
		lo--
		v = -v
	}
	if m.next()&1 == 0 {
		d := int64(1 + m.below(16))
		if m.next()&1 == 0 {
			d = -d
		}
		v += d
	} else {
		vals := interestingInts(8, true)
		v = int64(vals[m.below(len(vals))])
	}
	var tmp [24]byte
	num := strconv.AppendInt(tmp[:0], v, 10)
	if grow := len(num) - (hi - lo); grow > room {
		return b // no room: leave it (the child may then equal the parent)
	}
	rest := append([]byte(nil), b[hi:]...)
	b = append(append(b[:lo], num...), rest...)
	return b
}

// Trimming: the engine "args" shrinks each input it queues (a child that
// covered something new) before making its children, as go test -fuzz
// minimizes new interesting inputs: the contents of each []byte and
// string argument, in order, are cut from the tail by halving amounts
// (the largest power of two below its length first, each amount repeated
// while the cut is kept), then lose single bytes from the front; the
// engine keeps a candidate iff its execution still covers every coverage
// key the input was queued for. Inputs of that form are smaller and the
// bytes that matter take a larger share of their edits; and the cuts
// themselves try the input ending at every place, where many parsers'
// end-of-input bugs are.

// A Trimmer proposes the trimmed candidates of one input, one at a time.
type Trimmer struct {
	m      *Mutator
	args   []Arg // the smallest input kept so far (contents owned)
	cand   []Arg
	arg    int // the argument being trimmed
	phase  int // 0: cut the tail, 1: remove single bytes, 2: next argument
	n      int // phase 0: the amount cut
	i      int // phase 1: the byte removed
	budget int // candidates left
	buf    []byte
	out    []byte
	cur    []byte // the current input's encoding
}

// TrimArgs implements engine.ArgMutator: a Trimmer of data (as an
// engine.ArgTrimmer) proposing at most budget candidates, nil if data has
// no []byte or string contents to trim.
func (m *Mutator) TrimArgs(data []byte, budget int) any {
	t := &Trimmer{m: m, args: make([]Arg, len(m.types)), cand: make([]Arg, len(m.types)), budget: budget}
	m.decodeInto(data, t.args)
	total := 0
	for i := range t.args {
		t.args[i].B = append([]byte(nil), t.args[i].B...)
		total += len(t.args[i].B)
	}
	if total == 0 || budget <= 0 {
		return nil
	}
	t.cur = m.appendEncoded(nil, t.args)
	t.startArg(0)
	return t
}

// startArg moves to argument i (or past the last).
func (t *Trimmer) startArg(i int) {
	for ; i < len(t.args) && len(t.args[i].B) == 0; i++ {
	}
	t.arg, t.phase, t.i = i, 0, 0
	if i < len(t.args) {
		t.n = 1 << (bits.Len(uint(len(t.args[i].B))) - 1) // the largest power of two <= len
		if t.n == len(t.args[i].B) {
			t.n /= 2
		}
	}
}

// Next returns the next candidate (valid until the next call), ok false
// when the trimming is over.
func (t *Trimmer) Next() (cand []byte, ok bool) {
	for t.budget > 0 && t.arg < len(t.args) {
		b := t.args[t.arg].B
		switch t.phase {
		case 0:
			if t.n == 0 {
				t.phase = 1
				continue
			}
			if len(b) <= t.n {
				t.n /= 2
				continue
			}
			return t.propose(b[:len(b)-t.n]), true
		case 1:
			if t.i >= len(b)-1 {
				t.startArg(t.arg + 1)
				continue
			}
			t.buf = append(append(t.buf[:0], b[:t.i]...), b[t.i+1:]...)
			return t.propose(t.buf), true
		}
	}
	return nil, false
}

// propose encodes the current input with argument t.arg's contents
// replaced by b.
func (t *Trimmer) propose(b []byte) []byte {
	t.budget--
	copy(t.cand, t.args)
	t.cand[t.arg].B = b
	t.out = t.m.appendEncoded(t.out[:0], t.cand)
	return t.out
}

// Kept reports whether the last candidate Next returned was kept.
func (t *Trimmer) Kept(kept bool) {
	a := &t.args[t.arg]
	switch t.phase {
	case 0:
		if kept {
			a.B = a.B[:len(a.B)-t.n]
		} else {
			t.n /= 2
		}
	case 1:
		if kept {
			a.B = append(a.B[:t.i], a.B[t.i+1:]...)
		} else {
			t.i++
		}
	}
	if kept {
		t.cur = t.m.appendEncoded(t.cur[:0], t.args)
	}
}

// Current returns the encoding of the smallest input kept so far (the
// input itself before any).
func (t *Trimmer) Current() []byte { return t.cur }
