package native

import (
	"bytes"
)

// Structure learnt from the corpus (the idea of Grimoire, Blazytko et al.,
// USENIX Security 2019; written for gfz from the paper's description):
// when the engine "args" queues an input that brought new coverage keys,
// it generalises the input's short []byte and string arguments. Parts of
// an argument are removed one at a time, coarse first (lines, then the
// pieces between whitespace, commas and semicolons, then punctuation
// tokens, then the insides of brackets and quotes); a
// removal is kept when the input still covers every key it was queued
// for. What was removed is a gap, what stayed a fragment: the generalised
// form of "a = 1\nif (x > 2) { y }" might be "[]if ([]) {[]}[]", fragments
// and gaps. The generalised forms and their fragments go into a bounded
// pool per argument, and one more kind of child (GrimoireArgs) recombines
// them: input extension (another generalised input before or after the
// parent's), recursive replacement (a gap replaced by another generalised
// input, a few times over), string replacement (a token of the dictionary
// or a fragment found in the argument replaced by another), and then
// every gap left filled with nothing or a random fragment. The child is
// an ordinary input of the target's types: its other arguments are the
// parent's.

// Limits of the generalisation and of its pool.
const (
	// GrimoireMaxLen is the longest []byte or string argument generalised.
	GrimoireMaxLen = 256
	// grimoireInputs bounds the generalised inputs kept per argument
	// (the oldest is replaced), grimoireFrags their distinct fragments.
	grimoireInputs = 512
	grimoireFrags  = 2048
	// grimoireMaxFrag is the longest fragment kept in the pool.
	grimoireMaxFrag = 64
	// grimoireDepth bounds recursive replacement: 1 to grimoireDepth
	// gaps replaced.
	grimoireDepth = 4
)

// A gform is a generalised argument: fragments and gaps in order, a gap
// being a nil element (never two gaps in a row, no empty fragment).
type gform [][]byte

// fill appends the form's bytes to dst with every gap empty.
func (f gform) fill(dst []byte) []byte {
	for _, p := range f {
		dst = append(dst, p...)
	}
	return dst
}

func (f gform) gaps() int {
	n := 0
	for _, p := range f {
		if p == nil {
			n++
		}
	}
	return n
}

// grimoire is a Mutator's pool of generalised inputs.
type grimoire struct {
	maxLen int
	// pools per argument index (nil for fixed-size arguments).
	pools []*gpool
	// byInput maps an encoded input (a queued input's generalised form,
	// filled) to its generalised arguments, so that a parent's form is
	// found; entries are dropped with the pool's oldest inputs.
	byInput map[string][]gform
	keys    []string // byInput's keys, oldest first (a ring of 2*grimoireInputs)
	nkeys   int
	ninputs int // inputs generalised
}

// gpool is the pool of one argument.
type gpool struct {
	forms []gform // a ring of at most grimoireInputs
	nform int     // forms added (the ring's next slot is nform % cap)
	frags [][]byte
	nfrag int
	seen  map[string]bool // fragments in frags
}

func (p *gpool) addForm(f gform) {
	if len(p.forms) < grimoireInputs {
		p.forms = append(p.forms, f)
	} else {
		p.forms[p.nform%grimoireInputs] = f
	}
	p.nform++
	for _, b := range f {
		if len(b) == 0 || len(b) > grimoireMaxFrag || p.seen[string(b)] {
			continue
		}
		if len(p.frags) < grimoireFrags {
			p.frags = append(p.frags, b)
		} else {
			slot := p.nfrag % grimoireFrags
			delete(p.seen, string(p.frags[slot]))
			p.frags[slot] = b
		}
		p.nfrag++
		p.seen[string(b)] = true
	}
}

// EnableGrimoire makes m generalise inputs (GeneralizeArgs) and make
// children from their generalised forms (GrimoireArgs); maxLen is the
// longest argument generalised (<= 0: GrimoireMaxLen). Without it, m's
// children are those of a mutator without structure (Grimoire is false).
func (m *Mutator) EnableGrimoire(maxLen int) {
	if maxLen <= 0 {
		maxLen = GrimoireMaxLen
	}
	m.grim = &grimoire{maxLen: maxLen, pools: make([]*gpool, len(m.types)), byInput: map[string][]gform{}}
}

// Grimoire reports whether m generalises (EnableGrimoire).
func (m *Mutator) Grimoire() bool { return m.grim != nil }

// Generalized returns the number of inputs m has generalised so far.
func (m *Mutator) Generalized() int {
	if m.grim == nil {
		return 0
	}
	return m.grim.ninputs
}

// commit adds the generalised arguments of one input (forms[i] nil for
// those not generalised), found under each of keys (its encoding as
// given, and with its gaps removed).
func (g *grimoire) commit(keys []string, forms []gform) {
	g.ninputs++
	for _, key := range keys {
		if len(g.keys) < 2*grimoireInputs {
			g.keys = append(g.keys, key)
		} else {
			slot := g.nkeys % (2 * grimoireInputs)
			if old := g.keys[slot]; old != key {
				delete(g.byInput, old)
			}
			g.keys[slot] = key
		}
		g.nkeys++
		g.byInput[key] = forms
	}
	for i, f := range forms {
		if f == nil {
			continue
		}
		if g.pools[i] == nil {
			g.pools[i] = &gpool{seen: map[string]bool{}}
		}
		g.pools[i].addForm(f)
	}
}

// Generalisation levels: how an argument's remaining bytes are cut into
// the chunks whose removal is tried.
const (
	levelLines    = iota // chunks ending after '\n'
	levelFields          // chunks ending after whitespace, ',' or ';'
	levelTokens          // each punctuation byte alone, runs of other bytes
	levelBrackets        // the insides of (), [], {}, <>, "", ''
	numLevels
)

// (Single bytes are not a level: the inputs generalised after trimming
// have had their bytes removed one at a time already, and on gjson-squash
// a byte level took 39% of 30,000 executions against 24% without it, for
// less coverage: docs/ENGINE.md.)

func isFieldSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ';'
}

func isPunct(c byte) bool {
	switch {
	case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= 0x80:
		return false
	}
	return true
}

// A Generalizer proposes the candidates of one input's generalisation, one
// at a time (an engine.ArgTrimmer); when they are over (Next returns
// false) it adds the generalised forms to its mutator's pool.
type Generalizer struct {
	m      *Mutator
	args   []Arg // the input, generalised arguments with their gaps removed so far
	todo   []int // the arguments to generalise
	ti     int   // the one under way: todo[ti]
	orig   []byte
	gone   []bool // per byte of orig: removed
	level  int
	chunks [][2]int // the level's chunks, [lo, hi) in orig
	ci     int
	last   [2]int // the chunk of the last candidate
	budget int
	forms  []gform
	cand   []Arg
	buf    []byte
	out    []byte
	cur    []byte
	given  string // the input as given
	done   bool
}

// GeneralizeArgs implements engine.ArgGeneralizer: a Generalizer of data
// (as an engine.ArgTrimmer) proposing at most budget candidates, or nil
// when m does not generalise or data has no []byte or string argument of 1
// to maxLen bytes.
func (m *Mutator) GeneralizeArgs(data []byte, budget int) any {
	if m.grim == nil || budget <= 0 {
		return nil
	}
	g := &Generalizer{m: m, args: make([]Arg, len(m.types)), cand: make([]Arg, len(m.types)), budget: budget, forms: make([]gform, len(m.types))}
	m.decodeInto(data, g.args)
	g.given = string(data)
	for i := range g.args {
		g.args[i].B = append([]byte(nil), g.args[i].B...)
		if n := len(g.args[i].B); m.types[i].Variable() && n > 0 && n <= m.grim.maxLen {
			g.todo = append(g.todo, i)
		}
	}
	if len(g.todo) == 0 {
		return nil
	}
	g.cur = m.appendEncoded(nil, g.args)
	g.startArg(0)
	return g
}

func (g *Generalizer) startArg(ti int) {
	g.ti = ti
	if ti >= len(g.todo) {
		return
	}
	g.orig = append([]byte(nil), g.args[g.todo[ti]].B...)
	g.gone = make([]bool, len(g.orig))
	g.level, g.ci = 0, 0
	g.chunks = g.cut(0, g.chunks[:0])
}

// endArg records the form of the argument under way.
func (g *Generalizer) endArg() {
	var f gform
	for i := 0; i < len(g.orig); {
		j := i
		for j < len(g.orig) && g.gone[j] == g.gone[i] {
			j++
		}
		if g.gone[i] {
			f = append(f, nil)
		} else {
			f = append(f, bytes.Clone(g.orig[i:j]))
		}
		i = j
	}
	g.forms[g.todo[g.ti]] = f
}

// cut appends to dst the chunks of the remaining bytes of orig at level.
func (g *Generalizer) cut(level int, dst [][2]int) [][2]int {
	o, gone := g.orig, g.gone
	switch level {
	case levelLines, levelFields:
		start := -1
		for i := range o {
			if gone[i] {
				continue
			}
			if start < 0 {
				start = i
			}
			if (level == levelLines && o[i] == '\n') || (level == levelFields && isFieldSep(o[i])) {
				dst = append(dst, [2]int{start, i + 1})
				start = -1
			}
		}
		if start >= 0 {
			dst = append(dst, [2]int{start, len(o)})
		}
	case levelTokens:
		start := -1
		for i := range o {
			if gone[i] {
				continue
			}
			if isPunct(o[i]) {
				if start >= 0 {
					dst = append(dst, [2]int{start, i})
					start = -1
				}
				dst = append(dst, [2]int{i, i + 1})
				continue
			}
			if start < 0 {
				start = i
			}
		}
		if start >= 0 {
			dst = append(dst, [2]int{start, len(o)})
		}
	case levelBrackets:
		for i := range o {
			if gone[i] {
				continue
			}
			var closer byte
			switch o[i] {
			case '(':
				closer = ')'
			case '[':
				closer = ']'
			case '{':
				closer = '}'
			case '<':
				closer = '>'
			case '"', '\'':
				closer = o[i]
			default:
				continue
			}
			depth := 0
			for j := i + 1; j < len(o); j++ {
				if gone[j] {
					continue
				}
				if o[j] == closer && depth == 0 {
					if j > i+1 {
						dst = append(dst, [2]int{i + 1, j})
					}
					break
				}
				if closer != o[i] { // brackets nest, quotes do not
					if o[j] == o[i] {
						depth++
					} else if o[j] == closer {
						depth--
					}
				}
			}
		}
	}
	return dst
}

// Next returns the next candidate (valid until the next call); ok is
// false when the generalisation is over, which commits its forms.
func (g *Generalizer) Next() (cand []byte, ok bool) {
	for g.ti < len(g.todo) {
		if g.budget <= 0 {
			// Out of budget: what is generalised so far stands.
			g.endArg()
			g.ti = len(g.todo)
			break
		}
		if g.ci >= len(g.chunks) {
			if g.level++; g.level >= numLevels {
				g.endArg()
				g.startArg(g.ti + 1)
				continue
			}
			g.chunks, g.ci = g.cut(g.level, g.chunks[:0]), 0
			continue
		}
		c := g.chunks[g.ci]
		g.ci++
		// Skip a chunk that is already gone, or the whole remaining
		// argument (an argument that is all gap teaches nothing).
		alive, rest := 0, 0
		for i := range g.orig {
			if !g.gone[i] {
				rest++
				if i >= c[0] && i < c[1] {
					alive++
				}
			}
		}
		if alive == 0 || alive == rest {
			continue
		}
		g.last = c
		g.buf = g.buf[:0]
		for i, b := range g.orig {
			if !g.gone[i] && (i < c[0] || i >= c[1]) {
				g.buf = append(g.buf, b)
			}
		}
		g.budget--
		copy(g.cand, g.args)
		g.cand[g.todo[g.ti]].B = g.buf
		g.out = g.m.appendEncoded(g.out[:0], g.cand)
		return g.out, true
	}
	if !g.done {
		g.done = true
		keys := []string{g.given}
		if cur := string(g.cur); cur != g.given {
			keys = append(keys, cur)
		}
		g.m.grim.commit(keys, g.forms)
	}
	return nil, false
}

// Kept reports whether the last candidate Next returned was kept.
func (g *Generalizer) Kept(kept bool) {
	if !kept || g.ti >= len(g.todo) {
		return
	}
	for i := g.last[0]; i < g.last[1]; i++ {
		g.gone[i] = true
	}
	a := &g.args[g.todo[g.ti]]
	a.B = append(a.B[:0], g.buf...)
	g.cur = g.m.appendEncoded(g.cur[:0], g.args)
}

// Current returns the encoding of the input with every gap found so far
// removed.
func (g *Generalizer) Current() []byte { return g.cur }

// Grimoire children.
const (
	grimExtend = iota
	grimRecurse
	grimString
	numGrimOps
)

var grimWeights = [numGrimOps]int{grimExtend: 1, grimRecurse: 2, grimString: 2}

// GrimoireArgs implements engine.ArgGeneralizer: it writes into dst
// (reusing its storage) a child of parent whose one generalised argument
// (chosen uniformly among the arguments with a pool) is recombined from
// the pool, the child at most maxSize bytes long; ok is false (and rand
// is not called) while the pool is empty.
func (m *Mutator) GrimoireArgs(rand func() uint64, dst, parent []byte, maxSize int) ([]byte, bool) {
	g := m.grim
	if g == nil || g.ninputs == 0 {
		return nil, false
	}
	m.next = rand
	n := 0
	for _, p := range g.pools {
		if p != nil {
			n++
		}
	}
	k := m.below(n)
	arg := 0
	for i, p := range g.pools {
		if p == nil {
			continue
		}
		if k == 0 {
			arg = i
			break
		}
		k--
	}
	pool := g.pools[arg]
	m.decodeInto(parent, m.args)
	room := max(0, maxSize-(m.encodedLen(m.args)-len(m.args[arg].B)))

	var form gform
	if forms, ok := g.byInput[string(parent)]; ok && forms[arg] != nil {
		form = append(form, forms[arg]...)
	} else if len(m.args[arg].B) > 0 {
		form = gform{nil, m.args[arg].B, nil}
	} else {
		form = gform{nil}
	}
	ntok := len(m.dict) + len(pool.frags)
	op := m.pick(grimWeights[:], func(op int) bool { return op != grimString || ntok > 0 })
	switch op {
	case grimExtend:
		form = m.extend(form, pool)
	case grimRecurse:
		for range 1 + m.below(grimoireDepth) {
			if gapLen(form) > room {
				break
			}
			form = m.replaceGap(form, pool)
		}
	case grimString:
		b := m.replaceString(form.fill(nil), pool)
		form = gform{b}
	}
	// Fill the gaps left: nothing, or one in four a random fragment.
	out := m.owned[arg][:0]
	for _, p := range form {
		if p == nil && len(pool.frags) > 0 && m.below(4) == 0 {
			p = pool.frags[m.below(len(pool.frags))]
		}
		out = append(out, p...)
	}
	m.owned[arg] = out
	m.args[arg].B = out[:min(len(out), room)]
	return m.appendEncoded(dst[:0], m.args), true
}

// gapLen is the length of form with its gaps empty.
func gapLen(f gform) int {
	n := 0
	for _, p := range f {
		n += len(p)
	}
	return n
}

// extend puts a random generalised input of pool before or after form.
func (m *Mutator) extend(form gform, pool *gpool) gform {
	other := pool.forms[m.below(len(pool.forms))]
	if m.next()&1 == 0 {
		return append(append(gform{}, other...), form...)
	}
	return append(form, other...)
}

// replaceGap replaces a random gap of form by a random generalised input
// of pool (extending form when it has no gap).
func (m *Mutator) replaceGap(form gform, pool *gpool) gform {
	n := form.gaps()
	if n == 0 {
		return m.extend(form, pool)
	}
	k := m.below(n)
	for i, p := range form {
		if p != nil {
			continue
		}
		if k > 0 {
			k--
			continue
		}
		other := pool.forms[m.below(len(pool.forms))]
		out := make(gform, 0, len(form)+len(other))
		out = append(out, form[:i]...)
		out = append(out, other...)
		return append(out, form[i+1:]...)
	}
	return form
}

// grimToken returns token i of string replacement: the dictionary's, then
// the pool's fragments.
func (m *Mutator) grimToken(pool *gpool, i int) []byte {
	if i < len(m.dict) {
		return m.dict[i]
	}
	return pool.frags[i-len(m.dict)]
}

// replaceString replaces in b a token (grimToken) it contains (a few tried at
// random), or else the word or punctuation byte at a random position, by
// a random token: one occurrence, or one time in two every occurrence.
func (m *Mutator) replaceString(b []byte, pool *gpool) []byte {
	n := len(m.dict) + len(pool.frags)
	with := m.grimToken(pool, m.below(n))
	var old []byte
	for range 8 {
		t := m.grimToken(pool, m.below(n))
		if len(t) > 0 && bytes.Contains(b, t) {
			old = t
			break
		}
	}
	if old == nil {
		if len(b) == 0 {
			return append([]byte(nil), with...)
		}
		i := m.below(len(b))
		lo, hi := i, i+1
		if !isPunct(b[i]) {
			for lo > 0 && !isPunct(b[lo-1]) {
				lo--
			}
			for hi < len(b) && !isPunct(b[hi]) {
				hi++
			}
		}
		return append(append(append([]byte(nil), b[:lo]...), with...), b[hi:]...)
	}
	if m.next()&1 == 0 {
		return bytes.ReplaceAll(b, old, with)
	}
	k := m.below(bytes.Count(b, old))
	var out []byte
	for {
		i := bytes.Index(b, old)
		if k == 0 {
			out = append(out, b[:i]...)
			out = append(out, with...)
			return append(out, b[i+len(old):]...)
		}
		out = append(out, b[:i+len(old)]...)
		b = b[i+len(old):]
		k--
	}
}
