package native

import "bytes"

// TokenArgs implements engine.ArgTokens: it writes into dst (reusing its
// storage) parent with a comparison token applied inside one of its
// []byte or string arguments, re-encoded, so that the argument's length
// changes with the token and no other argument is touched (applied to the
// raw parameter sequence, a token of another length would overwrite the
// bytes after it or a length prefix). from is the operand the input held,
// to the one it was compared with. The variable-length arguments are
// visited from one drawn from rand; in the first that contains from, the
// first occurrence at or after a drawn offset (else the first) is
// replaced by to; with shift, when from and to differ in length, the byte
// before the occurrence in the argument (in a binary format, often the
// operand's length) is shifted by the difference. When none contains from (or from is empty) and place is
// true, to is put into a drawn variable-length argument at a drawn offset,
// inserted or written over (one in two). The child is at most maxSize
// bytes long; ok is false when no child was made (no variable-length
// argument, from not found and place false, or no room).
func (m *Mutator) TokenArgs(rand func() uint64, dst, parent, from, to []byte, place, shift bool, maxSize int) ([]byte, bool) {
	m.next = rand
	var vars []int
	for i, k := range m.types {
		if k.Variable() {
			vars = append(vars, i)
		}
	}
	if len(vars) == 0 {
		return dst, false
	}
	m.decodeInto(parent, m.args)
	size := m.encodedLen(m.args)
	first := m.below(len(vars))
	if len(from) > 0 {
		for j := range vars {
			i := vars[(first+j)%len(vars)]
			b := m.args[i].B
			if len(b) < len(from) {
				continue
			}
			start := m.below(len(b))
			off := bytes.Index(b[start:], from)
			if off >= 0 {
				off += start
			} else if off = bytes.Index(b, from); off < 0 {
				continue
			}
			if size-len(from)+len(to) > maxSize {
				return dst, false
			}
			c := append(m.owned[i][:0], b[:off]...)
			c = append(c, to...)
			c = append(c, b[off+len(from):]...)
			if shift && off > 0 && len(from) != len(to) {
				c[off-1] += byte(len(to) - len(from))
			}
			m.owned[i] = c
			m.args[i].B = m.owned[i]
			return m.appendEncoded(dst[:0], m.args), true
		}
	}
	if !place || len(to) == 0 {
		return dst, false
	}
	i := vars[first]
	b := m.args[i].B
	off := m.below(len(b) + 1)
	c := append(m.owned[i][:0], b...)
	if m.next()&1 == 0 || off+len(to) > len(b) {
		if size+len(to) > maxSize {
			return dst, false
		}
		c = insert(c, off, to)
	} else {
		copy(c[off:], to)
	}
	m.owned[i], m.args[i].B = c, c
	return m.appendEncoded(dst[:0], m.args), true
}
