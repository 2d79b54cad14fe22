package engine

import "encoding/binary"

// mutateZest writes into dst (reusing its storage) a child of parent made by
// Zest's published mutation: Geometric(mean 8) mutations, each overwriting
// a run of Geometric(mean 4) bytes at a uniform offset (clipped at the end
// of the sequence); with probability 0.1 per child every written byte is
// zero, otherwise the bytes are random. The length never changes: the
// executor extends the child with PRNG bytes if the generator reads past
// its end.
//
// It draws from r sparingly: one 64-bit value gives the number of
// mutations (high half) and the zero-fill choice (low half); one per
// mutation gives its offset (low half, by a 32-bit multiply-high
// reduction, bias below len/2^32) and its run length (high half); random
// bytes come eight per value, shared between the runs. A child of the
// published means costs about 13 values instead of about 26.
func mutateZest(r *prng, dst, parent []byte) []byte {
	dst = append(dst[:0], parent...)
	if len(dst) == 0 {
		return dst
	}
	x := r.next()
	zero := uint64(uint32(x))*10>>32 == 0 // P = 0.1 (up to 2^-32)
	n := geoMutations.sample32(uint32(x>>32), r)
	size := uint64(len(dst))
	var pool uint64 // random bytes not used yet, low byte first
	left := 0       // number of bytes in pool
	for range n {
		y := r.next()
		off := int(uint64(uint32(y)) * size >> 32)
		end := min(off+geoRunLength.sample32(uint32(y>>32), r), len(dst))
		if zero {
			clear(dst[off:end])
			continue
		}
		for i := off; i < end; i++ {
			if left == 0 {
				pool, left = r.next(), 8
			}
			dst[i] = byte(pool)
			pool >>= 8
			left--
		}
	}
	return dst
}

// AFL's "interesting" values.
var (
	interesting8  = []int8{-128, -1, 0, 1, 16, 32, 64, 100, 127}
	interesting16 = []int16{-32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767}
	interesting32 = []int32{-2147483648, -100663046, -32769, 32768, 65535, 65536, 100663045, 2147483647}
)

// Byte-level mutation operators of the bytes engine (see docs/ENGINE.md).
const (
	opFlipBit = iota
	opInteresting8
	opInteresting16
	opInteresting32
	opArith8
	opArith16
	opArith32
	opRandomByte
	opDeleteBlock
	opCloneBlock
	opInsertRandom
	opCopyBlock
	opOverwriteRandom
	opSplice
	numByteOps
)

// arithMax bounds the arithmetic mutations (AFL's ARITH_MAX).
const arithMax = 35

// mutateBytes writes into dst a child of parent made by a stack of
// 1, 2, 4, 8 or 16 AFL-style byte mutations (bit flip, interesting
// 8/16/32-bit values, add/subtract, random byte, block delete, block
// duplicate, random block insert, block copy, random block overwrite,
// splice with another corpus entry). The child may be shorter or longer
// than the parent but never longer than max. other returns a random corpus
// entry for splicing (nil if there is none).
func mutateBytes(r *prng, dst, parent []byte, max int, other func() []byte) []byte {
	dst = append(dst[:0], parent...)
	stack := 1 << r.below(5)
	for range stack {
		dst = byteOp(r, dst, max, other)
	}
	if len(dst) > max {
		dst = dst[:max]
	}
	return dst
}

// byteOp applies one random byte-level operator to b.
func byteOp(r *prng, b []byte, max int, other func() []byte) []byte {
	if len(b) == 0 {
		// Only growth makes sense on an empty input.
		n := 1 + r.below(8)
		return appendRandom(r, b, min(n, max))
	}
	switch r.below(numByteOps) {
	case opFlipBit:
		i := r.below(len(b) * 8)
		b[i/8] ^= 1 << (i % 8)
	case opInteresting8:
		b[r.below(len(b))] = byte(interesting8[r.below(len(interesting8))])
	case opInteresting16:
		if len(b) >= 2 {
			v := uint16(interesting16[r.below(len(interesting16))])
			put16(r, b[r.below(len(b)-1):], v)
		}
	case opInteresting32:
		if len(b) >= 4 {
			v := uint32(interesting32[r.below(len(interesting32))])
			put32(r, b[r.below(len(b)-3):], v)
		}
	case opArith8:
		b[r.below(len(b))] += byte(delta(r))
	case opArith16:
		if len(b) >= 2 {
			p := b[r.below(len(b)-1):]
			if r.below(2) == 0 {
				binary.LittleEndian.PutUint16(p, binary.LittleEndian.Uint16(p)+uint16(delta(r)))
			} else {
				binary.BigEndian.PutUint16(p, binary.BigEndian.Uint16(p)+uint16(delta(r)))
			}
		}
	case opArith32:
		if len(b) >= 4 {
			p := b[r.below(len(b)-3):]
			if r.below(2) == 0 {
				binary.LittleEndian.PutUint32(p, binary.LittleEndian.Uint32(p)+uint32(delta(r)))
			} else {
				binary.BigEndian.PutUint32(p, binary.BigEndian.Uint32(p)+uint32(delta(r)))
			}
		}
	case opRandomByte:
		b[r.below(len(b))] ^= byte(1 + r.below(255))
	case opDeleteBlock:
		if len(b) >= 2 {
			n := blockLen(r, len(b)-1)
			off := r.below(len(b) - n + 1)
			b = append(b[:off], b[off+n:]...)
		}
	case opCloneBlock:
		n := blockLen(r, len(b))
		from := r.below(len(b) - n + 1)
		to := r.below(len(b) + 1)
		blk := append([]byte(nil), b[from:from+n]...)
		b = insertAt(b, to, blk, max)
	case opInsertRandom:
		n := blockLen(r, 32)
		to := r.below(len(b) + 1)
		if r.below(2) == 0 {
			b = insertAt(b, to, appendRandom(r, nil, n), max)
		} else {
			blk := make([]byte, n)
			v := b[r.below(len(b))]
			for i := range blk {
				blk[i] = v
			}
			b = insertAt(b, to, blk, max)
		}
	case opCopyBlock:
		if len(b) >= 2 {
			n := blockLen(r, len(b)-1)
			from := r.below(len(b) - n + 1)
			to := r.below(len(b) - n + 1)
			copy(b[to:to+n], b[from:from+n])
		}
	case opOverwriteRandom:
		n := blockLen(r, len(b))
		off := r.below(len(b) - n + 1)
		r.fill(b[off : off+n])
	case opSplice:
		o := other()
		if len(o) == 0 {
			break
		}
		// Keep a prefix of b and append a suffix of o.
		cut := r.below(len(b) + 1)
		from := r.below(len(o))
		b = append(b[:cut], o[from:]...)
		if len(b) > max {
			b = b[:max]
		}
	}
	return b
}

// delta returns a non-zero value in [-arithMax, arithMax].
func delta(r *prng) int {
	d := 1 + r.below(arithMax)
	if r.below(2) == 0 {
		return -d
	}
	return d
}

// blockLen picks a block length in [1, limit] (limit >= 1), favouring
// short blocks as AFL does.
func blockLen(r *prng, limit int) int {
	switch r.below(3) {
	case 0:
		limit = min(limit, 4)
	case 1:
		limit = min(limit, 32)
	}
	return 1 + r.below(limit)
}

func put16(r *prng, p []byte, v uint16) {
	if r.below(2) == 0 {
		binary.LittleEndian.PutUint16(p, v)
	} else {
		binary.BigEndian.PutUint16(p, v)
	}
}

func put32(r *prng, p []byte, v uint32) {
	if r.below(2) == 0 {
		binary.LittleEndian.PutUint32(p, v)
	} else {
		binary.BigEndian.PutUint32(p, v)
	}
}

func appendRandom(r *prng, b []byte, n int) []byte {
	l := len(b)
	b = append(b, make([]byte, n)...)
	r.fill(b[l:])
	return b
}

// insertAt inserts blk at offset to, keeping len(b) <= max.
func insertAt(b []byte, to int, blk []byte, max int) []byte {
	if room := max - len(b); len(blk) > room {
		if room <= 0 {
			return b
		}
		blk = blk[:room]
	}
	b = append(b, blk...)
	copy(b[to+len(blk):], b[to:len(b)-len(blk)])
	copy(b[to:], blk)
	return b
}
