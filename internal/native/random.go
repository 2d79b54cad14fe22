package native

// RandomArgs writes into dst (reusing its storage) the parameter sequence
// of fresh random arguments, drawing every choice from rand: fixed-size
// arguments get uniformly random bits (a bool a random bit), []byte and
// string arguments uniformly random bytes, of a length that is at most 8
// half of the time, at most 32 a quarter of the time and at most 256
// otherwise (uniform below the bound), all within maxSize bytes in all.
// It is the blind baseline (-engine random) for native targets: their
// variable-length arguments take their lengths from the bytes of the
// input, so the engine's empty parameter sequence would make every one of
// them empty.
func (m *Mutator) RandomArgs(rand func() uint64, dst []byte, maxSize int) []byte {
	m.next = rand
	budget := maxSize
	for i, k := range m.types {
		switch {
		case !k.Variable():
			budget -= k.Size()
		case i != m.last:
			budget -= lengthWidth
		}
	}
	for i, k := range m.types {
		a := &m.args[i]
		a.Kind, a.U, a.B = k, 0, nil
		if !k.Variable() {
			v := rand()
			if k.Size() < 8 {
				v &= 1<<(8*k.Size()) - 1
			}
			if k == Bool {
				v &= 1
			}
			a.U = v
			continue
		}
		bound := 8
		switch r := m.below(4); {
		case r == 2:
			bound = 32
		case r == 3:
			bound = 256
		}
		n := min(m.below(bound+1), max(0, budget))
		budget -= n
		b := m.owned[i][:0]
		for range n {
			b = append(b, byte(rand()))
		}
		m.owned[i], a.B = b, b
	}
	return m.appendEncoded(dst[:0], m.args)
}
