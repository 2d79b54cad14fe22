package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b []byte) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// noOther is otherInput with no queued input (no splicing).
func noOther() []byte { return nil }

// childStats describes 20,000 children of one parent.
type childStats struct {
	spill    float64 // share of children whose arguments changed more than the edits allow
	median   int     // edit distance from the parent, in bytes
	bigJumps float64 // share of the int argument's changes that move it by more than 100
}

// children makes n children of parent (encoded args of ts) with mutate and
// measures them; maxArgs is how many arguments a child may change.
func children(t *testing.T, ts native.Types, args []native.Arg, maxArgs int, mutate func(dst, parent []byte) []byte) childStats {
	t.Helper()
	parent, err := ts.Encode(args)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20_000
	spill, small, large := 0, 0, 0
	var dists []int
	var child []byte
	for range n {
		child = mutate(child, parent)
		got, err := ts.DecodeBytes(child)
		if err != nil {
			t.Fatal(err)
		}
		changed := 0
		for i := range got {
			if got[i].U != args[i].U || !bytes.Equal(got[i].B, args[i].B) {
				changed++
				if ts[i] == native.Int {
					if d := int64(got[i].U - args[i].U); d >= -100 && d <= 100 {
						small++
					} else {
						large++
					}
				}
			}
		}
		if changed > maxArgs {
			spill++
		}
		dists = append(dists, editDistance(parent, child))
	}
	slices.Sort(dists)
	s := childStats{spill: float64(spill) / n, median: dists[n/2]}
	if small+large > 0 {
		s.bigJumps = float64(large) / float64(small+large)
	}
	return s
}

// TestArgsChildrenAgainstBytes measures what the two engines' edits do to
// a native target's arguments (the figures of docs/BENCHMARKS.md, "Native
// targets: executions to a shallow bug"; seed 1, 20,000 children of the
// reproductions' seeds, no splicing). One byte operator of bytes on the
// encoded parameter sequence changes two arguments or more in 20% of the
// children of a (string, int) input, 33% for ([]byte, string) and 38% for
// seven arguments (a length prefix changed, or bytes shifted across an
// argument's boundary), and moves the int by more than 100 in 86% and 96%
// of its changes; one edit of args changes one argument, and 37% of the
// int's changes are such jumps. Whole children of the 60-byte FuzzConfig
// seed: bytes's (a stack of 1-16 operators, a dictionary token on half of
// them) are a median 19 bytes away from it, args's (1-5 edits) 8.
func TestArgsChildrenAgainstBytes(t *testing.T) {
	dict := [][]byte{[]byte("REC"), []byte("f."), []byte(":"), []byte("2"), []byte("cfg"), []byte("100")}
	argsOf := func(vals ...any) (native.Types, []native.Arg) {
		var ts native.Types
		var as []native.Arg
		for _, v := range vals {
			a, ok := native.ArgOf(v)
			if !ok {
				t.Fatalf("unsupported %T", v)
			}
			ts, as = append(ts, a.Kind), append(as, a)
		}
		return ts, as
	}
	oneOp := func(r *prng) func(dst, parent []byte) []byte {
		return func(dst, parent []byte) []byte { return byteOp(r, append(dst[:0], parent...), 4096, noOther) }
	}
	oneEdit := func(r *prng, ts native.Types) func(dst, parent []byte) []byte {
		m := native.NewMutator(ts, dict)
		return func(dst, parent []byte) []byte { return m.MutateArgs(r.next, dst, parent, 1, 4096, nil) }
	}
	for _, c := range []struct {
		name      string
		vals      []any
		minSpill  float64 // bytes, one operator
		minJumps  float64
		maxJumpsA float64 // args, one edit
	}{
		{"(string, int)", []any{"cfg.port", 10}, 0.15, 0.7, 0.5},
		{"([]byte, string)", []any{[]byte("REC1a3:abcdefgh"), "f.name"}, 0.25, 0, 0},
		{"seven arguments", []any{"hello", 1, []byte("x"), 1.5, 'a', true, uint16(7)}, 0.3, 0.7, 0.5},
	} {
		ts, as := argsOf(c.vals...)
		b := children(t, ts, as, 1, oneOp(newPRNG(1)))
		a := children(t, ts, as, 1, oneEdit(newPRNG(1), ts))
		t.Logf("%s: one operator of bytes changes 2+ arguments in %.1f%%, int jumps > 100 in %.0f%%; one edit of args: %.1f%%, jumps %.0f%%",
			c.name, 100*b.spill, 100*b.bigJumps, 100*a.spill, 100*a.bigJumps)
		if b.spill < c.minSpill || b.bigJumps < c.minJumps {
			t.Errorf("%s: bytes spills into other arguments in %.3f of children (want >= %.2f), int jumps %.2f (want >= %.2f)",
				c.name, b.spill, c.minSpill, b.bigJumps, c.minJumps)
		}
		if a.spill != 0 || a.bigJumps > c.maxJumpsA {
			t.Errorf("%s: one edit of args changed 2+ arguments in %.3f of children (want 0), int jumps %.2f (want <= %.2f)",
				c.name, a.spill, a.bigJumps, c.maxJumpsA)
		}
	}

	// Whole children of the FuzzConfig seed.
	ts, as := argsOf([]byte("int = +99\nflt = 6.626e-34\nld = 1979-05-27\nlt = 07:32:00\n"))
	r := newPRNG(1)
	env := &scriptEnv{r: r, max: 4096, dict: dict}
	bytesChild := withDictionary(env, func(dst, parent []byte) []byte { return mutateBytes(r, dst, parent, 4096, noOther) })
	b := children(t, ts, as, 1, bytesChild)
	m := native.NewMutator(ts, dict)
	a := children(t, ts, as, 1, func(dst, parent []byte) []byte { return m.MutateArgs(r.next, dst, parent, 1+r.below(5), 4096, nil) })
	t.Logf("children of a 60-byte []byte: bytes median %d bytes away, args %d", b.median, a.median)
	if a.median*2 > b.median {
		t.Errorf("args's children a median %d bytes from the parent, bytes's %d: want args at most half", a.median, b.median)
	}
}

// TestCmpTokensNativeArgs: on a native target, cmp's tokens are applied
// inside the []byte or string argument that holds their from bytes, which
// changes length with them, never spilling into another argument (applied
// to the raw sequence, "hel" -> "hello" left a length prefix of 3 and
// overwrote the next argument); an integer token of its own length
// overwrites the fixed-size argument's value.
func TestCmpTokensNativeArgs(t *testing.T) {
	ts := native.Types{native.String, native.Int32, native.String}
	args := []native.Arg{{Kind: native.String, B: []byte("hel")}, {Kind: native.Int32, U: 7}, {Kind: native.String, B: []byte("zz")}}
	parent, err := ts.Encode(args)
	if err != nil {
		t.Fatal(err)
	}
	c := newCmpDomain().(*cmpDomain)
	max := 1000
	c.args, c.max = native.Codec{Types: ts}.NewArgMutator(nil).(ArgTokens), &max
	c.add([]byte("hel"), []byte("hello"))
	var seven, nine [4]byte
	binary.LittleEndian.PutUint32(seven[:], 7)
	binary.LittleEndian.PutUint32(nine[:], 9)
	c.add(seven[:], nine[:])
	r := newPRNG(3)
	hello, nines := 0, 0
	for range 400 {
		child, ok := c.token(r, nil, parent)
		if !ok {
			t.Fatal("no child")
		}
		got, err := ts.DecodeBytes(child)
		if err != nil {
			t.Fatal(err)
		}
		a, n, b := got[0].B, got[1].U, got[2].B
		// Half of the children also get one random byte (as a gfz
		// target's do), which may land anywhere: compare modulo one byte.
		if len(a) == 5 && diffBytes(a, []byte("hello")) <= 1 && diffBytes(b, []byte("zz")) == 0 {
			hello++
		}
		if n == 9 {
			nines++
		}
		if len(a) == 3 && len(b) == 2 && b[1] == 'o' {
			t.Fatalf("child (%q, %d, %q): \"hello\" spilled into the next argument", a, n, b)
		}
	}
	if hello < 100 || nines < 50 {
		t.Errorf("children: %d with \"hello\" in the first argument, %d with 9 in the second, of 400; want both tokens applied", hello, nines)
	}
}

// diffBytes is the number of places where a and b (of one length) differ.
func diffBytes(a, b []byte) int {
	if len(a) != len(b) {
		return len(a) + len(b)
	}
	d := 0
	for i := range a {
		if a[i] != b[i] {
			d++
		}
	}
	return d
}

// longExec is a native target's executor (its codec: native.Codec) that
// runs every input whole and notes the longest child (an input other
// than seed).
type longExec struct {
	seed    []byte
	longest int
}

func (e *longExec) Exec(params []byte, _ uint64) Outcome {
	if !bytes.Equal(params, e.seed) {
		e.longest = max(e.longest, len(params))
	}
	hit(len(params) % 64)
	return Outcome{Result: Valid, Consumed: params}
}

func (e *longExec) DescribeValues([]byte, uint64, string) (string, bool) { return "", false }

func (e *longExec) Codec() workdir.Codec { return native.Codec{Types: native.Types{native.Bytes}} }

// TestNativeLimitGrowsToSeeds: a native target's size limit of children
// grows to its longest seed (libFuzzer's -max_len does), so children of a
// seed above param.DefaultMaxSize are not cut to it.
func TestNativeLimitGrowsToSeeds(t *testing.T) {
	seed := bytes.Repeat([]byte("x"), 3*param.DefaultMaxSize)
	ex := &longExec{seed: seed}
	_, err := Run(context.Background(), Config{Engine: "bytes", Seed: 1, Runs: 300, Seeds: [][]byte{seed}, Workdir: t.TempDir()}, ex)
	if err != nil {
		t.Fatal(err)
	}
	if ex.longest <= param.DefaultMaxSize {
		t.Errorf("the longest child: %d bytes, of a seed of %d", ex.longest, len(seed))
	}
	ex.longest = 0
	if _, err := Run(context.Background(), Config{Engine: "bytes", Seed: 1, Runs: 300, Seeds: [][]byte{seed}, Workdir: t.TempDir()}, &gfzExec{ex}); err != nil {
		t.Fatal(err)
	}
	if ex.longest > param.DefaultMaxSize {
		t.Errorf("a gfz target's child of %d bytes, above the limit %d", ex.longest, param.DefaultMaxSize)
	}
}

// gfzExec is longExec without a codec: a gfz target's executor.
type gfzExec struct{ e *longExec }

func (g *gfzExec) Exec(p []byte, x uint64) Outcome { return g.e.Exec(p, x) }

func (g *gfzExec) DescribeValues(p []byte, x uint64, s string) (string, bool) {
	return g.e.DescribeValues(p, x, s)
}
