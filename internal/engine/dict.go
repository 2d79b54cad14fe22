package engine

// Dictionary mutations for raw-input targets (a native fuzz target's
// []byte and string arguments), used by the bytes engine when
// Config.Dictionary is not empty: the literals of the code under test are
// the tokens that byte-level mutation is least likely to produce.

// dictOp applies one dictionary operator to b: overwrite the bytes at a
// random offset with a random token (clipped at the end), or insert the
// token at a random offset (insertion keeps the child within max bytes,
// falling back to overwriting).
func dictOp(r *prng, b []byte, max int, dict [][]byte) []byte {
	tok := dict[r.below(len(dict))]
	if len(tok) == 0 {
		return b
	}
	v := r.next()
	if v&1 == 0 && len(b)+len(tok) <= max {
		at := int((v >> 1) % uint64(len(b)+1))
		b = append(b, tok...) // grow
		copy(b[at+len(tok):], b[at:len(b)-len(tok)])
		copy(b[at:], tok)
		return b
	}
	if len(b) == 0 {
		return append(b, tok[:min(len(tok), max)]...)
	}
	at := int((v >> 1) % uint64(len(b)))
	copy(b[at:], tok)
	return b
}

// withDictionary wraps a mutation: when env's dictionary is not empty,
// half of the children get one dictionary operator after it.
func withDictionary(env strategyEnv, mutate func(dst, parent []byte) []byte) func(dst, parent []byte) []byte {
	dict := env.dictionary()
	if len(dict) == 0 {
		return mutate
	}
	return func(dst, parent []byte) []byte {
		c := mutate(dst, parent)
		if r := env.rand(); r.next()&1 == 0 {
			c = dictOp(r, c, env.maxSize(), dict)
		}
		return c
	}
}
