package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// The cmp domain (FuzzFactory's cmp, with libFuzzer's table of recent
// compares): gfz-build -cmp's probes record, per comparison site, the
// best number of matching bits (integers) or prefix bytes (strings) of
// the execution in gfzrt.CmpMap, and the operands of every improvement in
// gfzrt.CmpInts/CmpStrs. An execution that raises any site's best score
// over the run's is saved (reducer max). The operands of saved executions
// become mutation tokens: a pair (seen, wanted) of byte strings, applied
// to a child as input-to-state replacement (the bytes of one operand,
// where they occur in the child, are overwritten by the other's) or, when
// the child does not contain them, by overwriting the wanted bytes at a
// random offset.
//
// Besides the domain interface, cmp is a bracketing domain (the probes are
// reset and on for each execution), a mutating one (the tokens, child)
// and a warning one (a binary without comparison probes).
type cmpDomain struct {
	best  [gfzrt.CmpSize]uint8 // best score per site over the run
	reach int                  // sites with a score

	toks []cmpToken // FIFO of at most maxCmpTokens
	next int        // next slot to replace once full
	have map[string]bool

	// args puts tokens into a native target's arguments (nil for a gfz
	// target), children at most *max bytes long (the fuzzer's size limit).
	args ArgTokens
	max  *int
}

// cmpToken is one mutation token: the bytes to look for and those to put.
type cmpToken struct{ from, to []byte }

const (
	maxCmpTokens  = 512 // tokens kept (the oldest are replaced)
	cmpMutateOdds = 4   // one child in cmpMutateOdds gets a token
)

func newCmpDomain() domain { return &cmpDomain{have: map[string]bool{}} }

func (c *cmpDomain) name() string { return "cmp" }

func (c *cmpDomain) start(f *fuzzer) error {
	c.args, c.max = nil, &f.max
	if am := argMutationOf(f.ex); am != nil {
		c.args, _ = am.NewArgMutator(nil).(ArgTokens)
	}
	return nil
}

// warning is the warning a run with -feedback cmp gets from a binary with
// no comparison probes (built without gfz-build -cmp), or "".
func (c *cmpDomain) warning() string {
	if gfzrt.CmpBuilt() || gfzrt.CmpSites() > 0 {
		return ""
	}
	return "-feedback cmp: this binary has no comparison probes, so cmp feedback does nothing. " +
		"Rebuild it with comparison probes: gfz-build -cmp (or gfz-run -cmp) with the same packages and flags"
}

// begin clears the probes' per-execution state and turns them on for the
// execution; end turns them off. The probes record only while the
// executor runs, and runtime.CmpOn is off after the run.
func (c *cmpDomain) begin() {
	gfzrt.CmpReset()
	gfzrt.CmpOn = true
}

func (c *cmpDomain) end() { gfzrt.CmpOn = false }

// check reports whether the execution raised some site's best score,
// eight sites at a time (bytesAbove).
func (c *cmpDomain) check(*Outcome, bool) bool {
	m := &gfzrt.CmpMap
	for i := 0; i < len(m); i += 8 {
		x := binary.LittleEndian.Uint64(m[i:])
		if x != 0 && bytesAbove(x, binary.LittleEndian.Uint64(c.best[i:])) {
			return true
		}
	}
	return false
}

// bytesAbove reports whether some byte of x is above the byte of y in the
// same place (unsigned). Each byte gets a 16-bit lane, the even bytes in
// one word and the odd ones in another: 0x100 + y_i - x_i keeps bit 8 set
// exactly when x_i <= y_i, and never borrows from the next lane.
func bytesAbove(x, y uint64) bool {
	const low, bit8 = 0x00ff_00ff_00ff_00ff, 0x0100_0100_0100_0100
	even := (y&low | bit8) - x&low
	odd := (y>>8&low | bit8) - x>>8&low
	return (even&odd)&bit8 != bit8
}

// commit folds the execution's scores into the run's and turns its
// operands into tokens.
func (c *cmpDomain) commit(string) {
	m := &gfzrt.CmpMap
	for i, s := range m {
		if s > c.best[i] {
			if c.best[i] == 0 {
				c.reach++
			}
			c.best[i] = s
		}
	}
	ints, strs := gfzrt.CmpOperands()
	var a, b [8]byte
	for _, op := range ints {
		if op.A == op.B {
			continue
		}
		w := int(op.Width / 8)
		binary.LittleEndian.PutUint64(a[:], op.A)
		binary.LittleEndian.PutUint64(b[:], op.B)
		c.add(a[:w], b[:w])
		c.add(b[:w], a[:w])
	}
	for i := range strs {
		op := &strs[i]
		x, y := op.A[:op.LenA], op.B[:op.LenB]
		if bytes.Equal(x, y) {
			continue
		}
		c.add(x, y)
		c.add(y, x)
	}
}

// add keeps the token (from, to) unless it is known or to is empty.
func (c *cmpDomain) add(from, to []byte) {
	if len(to) == 0 {
		return
	}
	key := string(from) + "\x00" + string(to) + fmt.Sprint(len(from))
	if c.have[key] {
		return
	}
	t := cmpToken{from: bytes.Clone(from), to: bytes.Clone(to)}
	if len(c.toks) < maxCmpTokens {
		c.toks = append(c.toks, t)
	} else {
		old := c.toks[c.next]
		delete(c.have, string(old.from)+"\x00"+string(old.to)+fmt.Sprint(len(old.from)))
		c.toks[c.next] = t
		c.next = (c.next + 1) % maxCmpTokens
	}
	c.have[key] = true
}

// child makes, in one child of cmpMutateOdds (when there are tokens), a
// child of parent by comparison tokens instead of Zest's mutation: a copy
// of parent with one token applied (when the token's "from" bytes are
// found and its "to" bytes have another length, half of the time the byte
// before them is shifted by the difference, as a length prefix) and, half
// of the time, one byte overwritten with a random value (a length or a selector byte the
// comparison depends on; Zest's runs of mean 8 mutations would undo the
// operands the tokens restored). It returns the child and whether it made
// one; it draws from r.
func (c *cmpDomain) child(r *prng, dst, parent []byte) ([]byte, bool) {
	if len(c.toks) == 0 || len(parent) == 0 {
		return dst, false
	}
	x := r.next()
	if x%cmpMutateOdds != 0 {
		return dst, false
	}
	return c.apply(r, x, dst, parent), true
}

// token makes a child with one token whenever there are tokens (child
// without the odds).
func (c *cmpDomain) token(r *prng, dst, parent []byte) ([]byte, bool) {
	if len(c.toks) == 0 || len(parent) == 0 {
		return dst, false
	}
	return c.apply(r, r.next(), dst, parent), true
}

func (c *cmpDomain) tokens() int { return len(c.toks) }

// apply writes into dst the child of parent with the token x selects.
func (c *cmpDomain) apply(r *prng, x uint64, dst, parent []byte) []byte {
	t := c.toks[int((x>>8)%uint64(len(c.toks)))]
	if c.args != nil {
		return c.applyArgs(r, x, t, dst, parent)
	}
	dst = append(dst[:0], parent...)
	off := -1
	if len(t.from) > 0 {
		off = indexFrom(dst, t.from, int((x>>40)%uint64(len(dst))))
	}
	found := off >= 0
	if !found {
		off = r.below(len(dst))
	}
	copy(dst[off:], t.to)
	if found && off > 0 && len(t.from) != len(t.to) && x&(1<<33) != 0 {
		// The byte before a variable-length operand is often its length
		// (generators draw a length, then the bytes): shift it by the
		// difference.
		dst[off-1] += byte(len(t.to) - len(t.from))
	}
	if x&(1<<32) != 0 {
		y := r.next()
		dst[int((y>>8)%uint64(len(dst)))] = byte(y)
	}
	return dst
}

// applyArgs applies token t to a native target's input as apply does to
// a gfz target's, with one difference: the token goes inside the []byte
// or string argument that holds its from bytes, which grows or shrinks
// with it (ArgTokens; on the raw sequence a token of another length would
// leave the argument's length prefix and overwrite what follows, another
// argument's bytes). Failing that, a token of from's length (a fixed-size
// argument's value: an integer's bytes) overwrites its occurrence in the
// sequence, whose encoding keeps every length; else to is put into a
// variable-length argument at a random place; else (no such argument, no
// room) it overwrites the bytes at a random offset. The byte before the
// operand is shifted as apply shifts it, inside the argument, and one
// random byte of the child is overwritten as apply does.
func (c *cmpDomain) applyArgs(r *prng, x uint64, t cmpToken, dst, parent []byte) []byte {
	shift := x&(1<<33) != 0
	child, ok := c.args.TokenArgs(r.next, dst, parent, t.from, t.to, false, shift, *c.max)
	if !ok && len(t.from) > 0 && len(t.from) == len(t.to) {
		if off := indexFrom(parent, t.from, int((x>>40)%uint64(len(parent)))); off >= 0 {
			child, ok = append(dst[:0], parent...), true
			copy(child[off:], t.to)
		}
	}
	if !ok {
		child, ok = c.args.TokenArgs(r.next, dst, parent, nil, t.to, true, false, *c.max)
	}
	if !ok {
		child = append(dst[:0], parent...)
		copy(child[r.below(len(child)):], t.to)
	}
	if x&(1<<32) != 0 && len(child) > 0 {
		y := r.next()
		child[int((y>>8)%uint64(len(child)))] = byte(y)
	}
	return child
}

// indexFrom returns the offset of the first sub in b at or after start,
// else of the first in b, else -1 (AFL++'s input-to-state search from a
// random point).
func indexFrom(b, sub []byte, start int) int {
	if i := bytes.Index(b[start:], sub); i >= 0 {
		return start + i
	}
	return bytes.Index(b, sub)
}

func (c *cmpDomain) stats(kv func(string, any)) {
	kv("cmp_sites", c.reach)
	kv("cmp_tokens", len(c.toks))
}

// summary: the sites reached, the inputs saved for cmp alone (saved_cmp)
// and the tokens.
func (c *cmpDomain) summary(get func(string) string) []string {
	n := get("cmp_sites")
	if n == "" {
		return nil
	}
	saved := get("saved_cmp")
	if saved == "" {
		saved = "0"
	}
	return []string{fmt.Sprintf("cmp: %s comparison sites reached, %s inputs saved for raising a site's matching bits, %s tokens",
		n, saved, get("cmp_tokens"))}
}

// mergeKey: the worker that reached most sites reports.
func (c *cmpDomain) mergeKey() string { return "cmp_sites" }
