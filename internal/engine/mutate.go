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
// It draws from r sparingly and with few unpredictable branches: one
// 64-bit value gives the number of mutations (high half) and the
// zero-fill choice (low half); one per mutation gives its offset (low
// half, by a 32-bit multiply-high reduction, bias below len/2^32) and its
// run length (high half). The bytes of a run come from one more value per
// eight bytes, written with a masked 8-byte store where there is room.
// Parents of at most 64 bytes take a shortcut with the same distribution:
// each byte that some mutation overwrites ends up holding a fresh uniform
// byte (or zero), whichever mutation wrote it last, so the mutations only
// mark the bytes they cover in a 64-bit set, and the marked bytes are
// filled at the end, eight per value.
func mutateZest(r *prng, dst, parent []byte) []byte {
	dst = append(dst[:0], parent...)
	if len(dst) == 0 {
		return dst
	}
	x := r.next()
	zero := uint64(uint32(x))*10>>32 == 0 // P = 0.1 (up to 2^-32)
	n := geoMutations.sample32(uint32(x>>32), r)
	return zestRuns(r, dst, n, zero)
}

// zestRuns applies n of Zest's byte mutations to dst in place: each
// overwrites a run of Geometric(mean 4) bytes at a uniform offset, clipped
// at the end, with random bytes or (zero) zeros. mutateZest uses it after
// drawing n and zero; zeugma uses it for the byte edits of a child.
func zestRuns(r *prng, dst []byte, n int, zero bool) []byte {
	if n == 0 || len(dst) == 0 {
		return dst
	}
	if len(dst) <= 64 {
		return mutateShort(r, dst, n, zero)
	}
	size := uint64(len(dst))
	g := geoRunLength
	st := r.s // r's state in a register for the loop (r.next inlined by hand)
	for range n {
		st += golden
		y := mix64(st)
		off := int(uint64(uint32(y)) * size >> 32)
		k := int(g.quick[uint32(y>>32)>>20])
		if k == 0 {
			r.s = st
			k = g.search(uint32(y>>32), r)
			st = r.s
		}
		end := min(off+k, len(dst))
		for off < end {
			var v uint64
			if !zero {
				st += golden
				v = mix64(st)
			}
			if off+8 <= len(dst) {
				// Overwrite min(end-off, 8) bytes at off.
				m := ^uint64(0)
				if k := end - off; k < 8 {
					m = 1<<(8*k) - 1
				}
				w := binary.LittleEndian.Uint64(dst[off:])
				binary.LittleEndian.PutUint64(dst[off:], w&^m|v&m)
				off += 8
				continue
			}
			for ; off < end; off++ { // the last bytes of the sequence
				dst[off] = byte(v)
				v >>= 8
			}
		}
	}
	r.s = st
	return dst
}

// mutateShort applies n mutations to dst (1 to 64 bytes): it collects the
// bytes the runs cover in a set, then fills them.
func mutateShort(r *prng, dst []byte, n int, zero bool) []byte {
	size := uint64(len(dst))
	g := geoRunLength
	var cover uint64
	st := r.s // r's state in a register for the loop (r.next inlined by hand)
	for range n {
		st += golden
		y := mix64(st)
		off := uint64(uint32(y)) * size >> 32
		k := int(g.quick[uint32(y>>32)>>20])
		if k == 0 {
			r.s = st
			k = g.search(uint32(y>>32), r)
			st = r.s
		}
		cover |= (uint64(1)<<uint(k) - 1) << off // a run of k ones (all ones from 64 on)
	}
	r.s = st
	if size < 64 {
		cover &= 1<<size - 1
	}
	for i := 0; cover != 0; i += 8 {
		bits := uint8(cover)
		cover >>= 8
		if bits == 0 {
			continue
		}
		var v uint64
		if !zero {
			v = r.next()
		}
		if i+8 <= len(dst) {
			m := byteMask[bits]
			w := binary.LittleEndian.Uint64(dst[i:])
			binary.LittleEndian.PutUint64(dst[i:], w&^m|v&m)
			continue
		}
		for j := i; bits != 0; j, bits, v = j+1, bits>>1, v>>8 {
			if bits&1 != 0 {
				dst[j] = byte(v)
			}
		}
	}
	return dst
}

// byteMask[b] has byte i set to 0xff iff bit i of b is set.
var byteMask = func() (t [256]uint64) {
	for b := range t {
		for i := range 8 {
			if b&(1<<i) != 0 {
				t[b] |= 0xff << (8 * i)
			}
		}
	}
	return t
}()

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
		b = cloneBlock(b, from, n, to, max)
	case opInsertRandom:
		var buf [32]byte // the block, on the stack (n <= 32)
		n := blockLen(r, len(buf))
		blk := buf[:n]
		to := r.below(len(b) + 1)
		if r.below(2) == 0 {
			r.fill(blk)
		} else {
			v := b[r.below(len(b))]
			for i := range blk {
				blk[i] = v
			}
		}
		b = insertAt(b, to, blk, max)
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

// cloneBlock inserts a copy of b[from:from+n] at offset to, keeping
// len(b) <= max (a block longer than the room left is cut to its start),
// in place: the tail from to moves up first, so the part of the block at
// or after to is read from its new place.
func cloneBlock(b []byte, from, n, to, max int) []byte {
	if room := max - len(b); n > room {
		if room <= 0 {
			return b
		}
		n = room
	}
	l := len(b)
	b = append(b, make([]byte, n)...)
	copy(b[to+n:], b[to:l])
	switch {
	case from+n <= to: // the block lies before to: unmoved
		copy(b[to:], b[from:from+n])
	case from >= to: // after: moved up by n
		copy(b[to:to+n], b[from+n:from+2*n])
	default: // across to: [from, to) unmoved, the rest moved up by n
		k := copy(b[to:], b[from:to])
		copy(b[to+k:to+n], b[to+n:from+2*n])
	}
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
