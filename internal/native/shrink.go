package native

import (
	"math"
	"slices"
)

// Shrinking a failing input of a native target, argument by argument (the
// engine's shrinker calls ShrinkArgs and SimplerArgs through
// engine.ArgShrinker): the contents of each []byte or string argument
// lose bytes (a cut tail or head of decreasing size, single bytes, then
// every range) and their bytes are made simpler, and each fixed-size
// argument is brought toward 0 (its magnitude binary-searched, its sign
// made positive). Candidates are whole parameter sequences, re-encoded
// with Encode, so a length prefix always matches its argument. Each is
// kept only if it fails the same way and is simpler by SimplerArgs, one
// strict order, so the shrink ends at a fixpoint whatever the order in
// which it finds things.

// byteOrder lists the bytes from the simplest: the digits, lowercase,
// uppercase letters and space (what a reader takes in at a glance), the
// other printable ASCII bytes, then the rest by value. byteRank is its
// inverse.
var byteOrder, byteRank = func() (order [256]byte, rank [256]byte) {
	var o []byte
	for c := '0'; c <= '9'; c++ {
		o = append(o, byte(c))
	}
	for c := 'a'; c <= 'z'; c++ {
		o = append(o, byte(c))
	}
	for c := 'A'; c <= 'Z'; c++ {
		o = append(o, byte(c))
	}
	o = append(o, ' ')
	for c := 0x21; c < 0x7f; c++ {
		if !slices.Contains(o, byte(c)) {
			o = append(o, byte(c))
		}
	}
	for c := 0; c < 256; c++ {
		if !slices.Contains(o, byte(c)) {
			o = append(o, byte(c))
		}
	}
	for i, c := range o {
		order[i], rank[c] = c, byte(i)
	}
	return order, rank
}()

// magnitude returns a fixed-size argument's distance from the simplest
// value and its sign: |v| for integers, the bits below the sign for
// floats (their order is the order of the absolute values), the value
// for unsigned kinds and bool. Every NaN is above the infinities: the NaN
// math.NaN returns one more than infinity, any other NaN two more, all of
// them alike and positive, so that a NaN shrinks to that one and never to
// another NaN.
func magnitude(a Arg) (mag uint64, neg bool) {
	switch k := a.Kind; {
	case k >= Int && k <= Int64:
		v := a.signed()
		if v < 0 {
			return uint64(-(v + 1)) + 1, true // no overflow at the minimum
		}
		return uint64(v), false
	case k == Float32 || k == Float64:
		inf, canon, sign := floatBits(k)
		switch m := a.U &^ sign; {
		case m <= inf:
			return m, a.U&sign != 0
		case a.U == canon:
			return inf + 1, false
		default:
			return inf + 2, false
		}
	}
	return a.U, false
}

// floatBits returns, for float kind k, the bits of +Inf, of the NaN
// math.NaN returns (converted to k), and the sign bit.
func floatBits(k Kind) (inf, nan, sign uint64) {
	if k == Float32 {
		return uint64(math.Float32bits(float32(math.Inf(1)))), uint64(math.Float32bits(float32(math.NaN()))), 1 << 31
	}
	return math.Float64bits(math.Inf(1)), math.Float64bits(math.NaN()), 1 << 63
}

// withMagnitude returns a with the value of magnitude mag and sign neg
// (mag must not exceed a's).
func withMagnitude(a Arg, mag uint64, neg bool) Arg {
	switch k := a.Kind; {
	case k >= Int && k <= Int64:
		v := int64(mag)
		if neg {
			v = -int64(mag-1) - 1
		}
		a.U = uint64(v)
		if s := k.Size(); s < 8 {
			a.U &= 1<<(8*s) - 1
		}
	case k == Float32:
		a.U = mag
		if neg {
			a.U |= 1 << 31
		}
	case k == Float64:
		a.U = mag
		if neg {
			a.U |= 1 << 63
		}
	default:
		a.U = mag
	}
	return a
}

// compareArgs orders decoded argument lists by simplicity (-1: x is
// simpler): fewer bytes in all []byte and string arguments, then argument
// by argument, in order, a shorter []byte or string, or one whose first
// differing byte comes first in byteOrder, and a fixed-size value of
// smaller magnitude, or a positive one of the same magnitude.
func compareArgs(x, y []Arg) int {
	total := func(as []Arg) (n int) {
		for _, a := range as {
			n += len(a.B)
		}
		return n
	}
	if c := total(x) - total(y); c != 0 {
		return sign(c)
	}
	for i := range min(len(x), len(y)) {
		a, b := x[i], y[i]
		if a.Kind.Variable() {
			if len(a.B) != len(b.B) {
				return sign(len(a.B) - len(b.B))
			}
			for j := range a.B {
				if ra, rb := byteRank[a.B[j]], byteRank[b.B[j]]; ra != rb {
					return sign(int(ra) - int(rb))
				}
			}
			continue
		}
		ma, na := magnitude(a)
		mb, nb := magnitude(b)
		switch {
		case ma != mb:
			if ma < mb {
				return -1
			}
			return 1
		case na != nb:
			if !na {
				return -1
			}
			return 1
		}
	}
	return 0
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// SimplerArgs reports whether the parameter sequence a decodes to simpler
// arguments than b (compareArgs); false if either does not decode.
func (c Codec) SimplerArgs(a, b []byte) bool {
	x, err := c.Types.DecodeBytes(a)
	if err != nil {
		return false
	}
	y, err := c.Types.DecodeBytes(b)
	if err != nil {
		return false
	}
	return compareArgs(x, y) < 0
}

// ShrinkArgs runs one round of the argument passes on the input current
// returns: every argument in order, the []byte and string ones first cut
// (tail, then head, by halving sizes from the largest power of two that
// fits), then single bytes removed, then every range of two bytes or more
// (the longest first at each start, as go test -fuzz's minimizer does),
// then each byte made simpler (the simplest byte, then a binary search of
// the simpler ones); fixed-size arguments are set to 0, then their
// magnitude is binary-searched keeping their sign, then made positive.
// try runs a candidate and reports whether it was kept (current then
// returns it); stop reports that the shrink's bounds are spent.
func (c Codec) ShrinkArgs(current func() []byte, try func(cand []byte) bool, stop func() bool) {
	s := argShrink{c: c, current: current, try: try, stop: stop}
	for i, k := range c.Types {
		if stop() {
			return
		}
		if k.Variable() {
			s.contents(i)
		} else {
			s.fixed(i)
		}
	}
}

// argShrink is one round of ShrinkArgs.
type argShrink struct {
	c       Codec
	current func() []byte
	try     func([]byte) bool
	stop    func() bool
}

// args decodes the current input.
func (s *argShrink) args() ([]Arg, bool) {
	args, err := s.c.Types.DecodeBytes(s.current())
	return args, err == nil
}

// tryArg tries the current input with argument i replaced by a.
func (s *argShrink) tryArg(i int, a Arg) bool {
	args, ok := s.args()
	if !ok || s.stop() {
		return false
	}
	args[i] = a
	cand, err := s.c.Types.Encode(args)
	return err == nil && s.try(cand)
}

// tryContents tries argument i with contents b.
func (s *argShrink) tryContents(i int, b []byte) bool {
	return s.tryArg(i, Arg{Kind: s.c.Types[i], B: b})
}

// contents shrinks []byte or string argument i.
func (s *argShrink) contents(i int) {
	cur := func() []byte {
		args, ok := s.args()
		if !ok {
			return nil
		}
		return args[i].B
	}
	// Cut the tail, then the head, by halving sizes.
	for _, head := range []bool{false, true} {
		for k := topPower(len(cur())); k >= 1 && !s.stop(); k /= 2 {
			for v := cur(); len(v) >= k && !s.stop(); v = cur() {
				cand := v[:len(v)-k]
				if head {
					cand = v[k:]
				}
				if !s.tryContents(i, slices.Clone(cand)) {
					break
				}
			}
		}
	}
	// Single bytes.
	for j := 0; j < len(cur()) && !s.stop(); {
		if !s.tryContents(i, slices.Delete(slices.Clone(cur()), j, j+1)) {
			j++
		}
	}
	// Every range [j, e) of two bytes or more, the longest first.
	for j := 0; j+1 < len(cur()) && !s.stop(); j++ {
		for e := len(cur()); e > j+1 && !s.stop(); e-- {
			if s.tryContents(i, slices.Delete(slices.Clone(cur()), j, e)) {
				e = len(cur()) + 1 // the input changed: from the longest again
			}
		}
	}
	// Simpler bytes.
	for j := 0; j < len(cur()) && !s.stop(); j++ {
		r := int(byteRank[cur()[j]])
		set := func(rank int) bool {
			v := slices.Clone(cur())
			if j >= len(v) {
				return false
			}
			v[j] = byteOrder[rank]
			return s.tryContents(i, v)
		}
		if r == 0 || set(0) {
			continue
		}
		lo, hi := 0, r // lo does not fail the same way, hi does
		for lo+1 < hi && !s.stop() {
			mid := lo + (hi-lo)/2
			if set(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
	}
}

// fixed shrinks fixed-size argument i toward 0.
func (s *argShrink) fixed(i int) {
	args, ok := s.args()
	if !ok {
		return
	}
	a := args[i]
	mag, neg := magnitude(a)
	if mag == 0 && !neg || s.tryArg(i, withMagnitude(a, 0, false)) {
		return
	}
	if k := a.Kind; k == Float32 || k == Float64 {
		if inf, nan, _ := floatBits(k); mag > inf {
			// A NaN: the NaN math.NaN returns, then a number or an
			// infinity (the magnitudes up to infinity's, searched
			// below that NaN's); the magnitudes between are other
			// NaNs, no simpler.
			if a.U != nan {
				na := a
				na.U = nan
				s.tryArg(i, na)
			}
			mag, neg = inf+1, false
		}
	}
	lo, hi := uint64(0), mag // lo does not fail the same way, hi does
	for lo+1 < hi && !s.stop() {
		mid := lo + (hi-lo)/2
		if s.tryArg(i, withMagnitude(a, mid, neg)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if neg {
		s.tryArg(i, withMagnitude(a, hi, false))
	}
}

// topPower is the largest power of two not above n (0 for 0).
func topPower(n int) int {
	k := 1
	for k*2 <= n {
		k *= 2
	}
	if n == 0 {
		return 0
	}
	return k
}
