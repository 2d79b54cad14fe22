package engine

import (
	"encoding/binary"

	"github.com/gfz-dev/gfz/param"
)

// Typed choice mutation: re-draw one choice within its generator's domain.
//
// A draw of w <= 8 bytes with domain size N (param.Draw.N; 0 means all
// 2^(8w) raw values are distinct) decodes the raw little-endian value v of
// its bytes to v mod N. redraw picks a new value u in [0, N) and writes it
// as the raw value (so it decodes to u): with probability 1/2 an edge
// value, the others uniformly. The edge values are the domain's minimum
// (0, the generator's lo), maximum (N-1, its hi), the value that decodes
// to zero when the domain contains it (-Lo), and the values next to the
// ends (1 and N-2); for a full 8-byte domain also the two's-complement
// extremes. The new value always decodes differently from the old one (a
// domain has at least two values when the draw consumes a byte), so a
// typed mutation is never a zero mutation. A draw of more than 8 bytes
// (Bytes: string and byte-slice contents) gets one byte changed, to an
// edge byte (0, 0xff, or the byte plus or minus one) or a random one.

// redraw writes into dst's storage new bytes for draw d, whose current
// bytes are old (d.Width of them), and returns them. ok is false when d
// consumes no byte.
func redraw(r *prng, d *param.Draw, old, dst []byte) ([]byte, bool) {
	w := int(d.Width)
	if w == 0 {
		return dst, false
	}
	dst = append(dst[:0], old...)
	if w > 8 {
		i := r.below(w)
		b := dst[i]
		switch r.below(6) {
		case 0:
			b = 0
		case 1:
			b = 0xff
		case 2:
			b++
		case 3:
			b--
		default:
			b = byte(r.next())
		}
		if b == dst[i] {
			b ^= 1 << r.below(8)
		}
		dst[i] = b
		return dst, true
	}
	at := *d
	at.Offset = 0 // old holds the draw's bytes only
	cur := at.Decoded(old)
	var u uint64
	for try := 0; ; try++ {
		u = pickValue(r, d, w)
		if u != cur {
			break
		}
		if try == 3 {
			// Four draws gave the same value (a domain of two values,
			// or bad luck): take the next one.
			u = cur + 1
			if size := domainSize(d, w); size != 0 && u >= size {
				u = 0
			}
			break
		}
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], u)
	copy(dst, buf[:w])
	return dst, true
}

// domainSize is the number of values a draw of w bytes decodes to (0:
// 2^64).
func domainSize(d *param.Draw, w int) uint64 {
	if d.N != 0 {
		return d.N
	}
	if w >= 8 {
		return 0
	}
	return 1 << (8 * w)
}

// pickValue returns a value in the draw's domain, an edge value with
// probability 1/2.
func pickValue(r *prng, d *param.Draw, w int) uint64 {
	size := domainSize(d, w)
	x := r.next()
	if x&1 == 0 {
		return uniformBelow(r, size)
	}
	last := size - 1 // wraps to 2^64-1 for the full domain
	switch (x >> 1) % 6 {
	case 0:
		return 0
	case 1:
		return last
	case 2:
		if d.Lo < 0 && (size == 0 || uint64(-d.Lo) < size) {
			return uint64(-d.Lo) // decodes to zero
		}
		return 0
	case 3:
		return min(1, last)
	case 4:
		if last > 0 {
			return last - 1
		}
		return 0
	default:
		if size == 0 {
			return 1 << 63 // the smallest int64; its neighbour below is last-0
		}
		return last / 2 // the middle of the domain
	}
}

// uniformBelow returns a uniform value in [0, n) (n == 0: any uint64).
func uniformBelow(r *prng, n uint64) uint64 {
	if n == 0 {
		return r.next()
	}
	// Rejection sampling on the top of the range keeps it exact.
	lim := -n % n // 2^64 mod n
	for {
		v := r.next()
		if v >= lim {
			return v % n
		}
	}
}
