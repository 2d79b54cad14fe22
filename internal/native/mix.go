package native

import "github.com/gfz-dev/gfz/param"

// Mix is a format generator mixed into a native target's run: some of the
// engine's children are a corpus input with argument Arg (a []byte or
// string) replaced by a document Draw makes (package gfz sets it up from
// the format of the seeds, internal/formatreg). The children are ordinary
// inputs of the target's types.
type Mix struct {
	// Arg is the index of the argument the documents are written to.
	Arg int
	// Draw draws one document from src, which is reset to no data and a
	// fresh extension seed (so every byte it reads comes from that
	// seed's PRNG); ok is false when it could not (a generator panic:
	// formatreg.Generate).
	Draw func(src *param.Source) (doc []byte, ok bool)
}

// SetMix makes m generate children from mix (nil: none). The mix's
// argument must be a []byte or string argument of m's types.
func (m *Mutator) SetMix(mix *Mix) {
	if mix != nil && (mix.Arg < 0 || mix.Arg >= len(m.types) || !m.types[mix.Arg].Variable() || mix.Draw == nil) {
		panic("native: Mix of an argument that is not a []byte or string")
	}
	m.mix = mix
	if mix != nil && m.src == nil {
		m.src = param.New(nil, 0)
		m.src.SetRecording(false)
	}
}

// Generates implements engine.ArgGenerator: whether m has a mix.
func (m *Mutator) Generates() bool { return m.mix != nil }

// GenerateArgs implements engine.ArgGenerator: it writes into dst
// (reusing its storage) parent with the mix's argument replaced by a
// document drawn from a source seeded by rand (one draw), cut to fit
// maxSize; ok is false when there is no mix or the generator failed.
func (m *Mutator) GenerateArgs(rand func() uint64, dst, parent []byte, maxSize int) ([]byte, bool) {
	if m.mix == nil {
		return nil, false
	}
	m.src.Reset(nil, rand())
	doc, ok := m.mix.Draw(m.src)
	if !ok {
		return nil, false
	}
	m.decodeInto(parent, m.args)
	i := m.mix.Arg
	room := max(0, maxSize-(m.encodedLen(m.args)-len(m.args[i].B)))
	m.owned[i] = append(m.owned[i][:0], doc[:min(len(doc), room)]...)
	m.args[i].B = m.owned[i]
	return m.appendEncoded(dst[:0], m.args), true
}
