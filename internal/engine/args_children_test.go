package engine

import (
	"bytes"
	"slices"
	"testing"

	"github.com/gfz-dev/gfz/internal/native"
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
