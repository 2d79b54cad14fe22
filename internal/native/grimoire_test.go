package native

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// generalize runs a Generalizer of the input args of ts to its end, a
// candidate kept iff covers says its argument arg still covers the
// input's keys; it returns the form of arg, the final input and the
// number of candidates.
func generalize(t *testing.T, m *Mutator, ts Types, args []Arg, arg int, budget int, covers func([]byte) bool) (gform, []byte, int) {
	t.Helper()
	data := encode(t, ts, args)
	g, ok := m.GeneralizeArgs(data, budget).(*Generalizer)
	if !ok {
		t.Fatalf("no generalizer of %q", data)
	}
	n := 0
	for {
		c, ok := g.Next()
		if !ok {
			break
		}
		n++
		got, err := ts.DecodeBytes(c)
		if err != nil {
			t.Fatal(err)
		}
		for i := range args {
			if !args[i].Kind.Variable() && got[i].U != args[i].U {
				t.Fatalf("candidate %q changed argument %d", c, i)
			}
		}
		g.Kept(covers(got[arg].B))
	}
	forms := m.grim.byInput[string(data)]
	if forms == nil {
		t.Fatal("the generalised input is not in the pool under its encoding")
	}
	if m.grim.byInput[string(g.Current())] == nil {
		t.Fatal("the generalised input is not in the pool under its generalised encoding")
	}
	return forms[arg], append([]byte(nil), g.Current()...), n
}

// show renders a form with gaps as [].
func show(f gform) string {
	var b strings.Builder
	for _, p := range f {
		if p == nil {
			b.WriteString("[]")
		} else {
			b.Write(p)
		}
	}
	return b.String()
}

// TestGeneralizeKeepsWhatCoverageNeeds: generalisation keeps the parts an
// input's keys need and turns the rest into gaps: with a branch on a
// keyword, the keyword is the one fragment and the filler around it gaps;
// with a branch on a call's brackets, the call's name and brackets stay
// and its argument is a gap. Other arguments never change.
func TestGeneralizeKeepsWhatCoverageNeeds(t *testing.T) {
	ts := Types{String, Int, String}
	for _, tc := range []struct {
		in     string
		covers func([]byte) bool
		form   string
	}{
		{"aaa bbb while (ccc) ddd;\neee", func(b []byte) bool { return bytes.Contains(b, []byte("while")) }, "[]while[]"},
		{"let y = f(x + 1)", regexp.MustCompile(`f\(.*\)`).Match, "[]f([])"},
		{"[1, [2, 3], {\"k\": \"v\"}]", func(b []byte) bool { return bytes.Contains(b, []byte("{")) && bytes.Contains(b, []byte("\":")) }, "[]{[]\":[]"},
	} {
		for _, arg := range []int{0, 2} {
			args := []Arg{{Kind: String, B: []byte("other")}, {Kind: Int, U: 42}, {Kind: String, B: []byte("tail")}}
			args[arg].B = []byte(tc.in)
			m := NewMutator(ts, nil)
			m.EnableGrimoire(0)
			// The other string argument is generalised too, every
			// removal kept (it matters to no key).
			f, cur, n := generalize(t, m, ts, args, arg, 200, tc.covers)
			if got := show(f); got != tc.form {
				t.Errorf("%q (argument %d): generalised to %s in %d candidates, want %s", tc.in, arg, got, n, tc.form)
			}
			final, err := ts.DecodeBytes(cur)
			if err != nil {
				t.Fatal(err)
			}
			if string(final[arg].B) != string(f.fill(nil)) {
				t.Errorf("%q: the input's children's parent has %q, want the form with empty gaps %q", tc.in, final[arg].B, f.fill(nil))
			}
			if final[1].U != 42 {
				t.Errorf("the int argument changed: %d", final[1].U)
			}
		}
	}
}

// TestGeneralizeBudgetAndLimits: a generalisation proposes at most its
// budget; an argument longer than the limit, or no []byte or string
// argument at all, is not generalised; a mutator without EnableGrimoire
// generalises nothing.
func TestGeneralizeBudgetAndLimits(t *testing.T) {
	ts := Types{String}
	m := NewMutator(ts, nil)
	if m.GeneralizeArgs(encode(t, ts, []Arg{{Kind: String, B: []byte("a b")}}), 10) != nil {
		t.Error("a mutator without EnableGrimoire generalised")
	}
	m.EnableGrimoire(8)
	if m.GeneralizeArgs(encode(t, ts, []Arg{{Kind: String, B: []byte("123456789")}}), 10) != nil {
		t.Error("an argument of 9 bytes was generalised with a limit of 8")
	}
	if NewMutator(Types{Int}, nil).withGrimoire().GeneralizeArgs(make([]byte, 8), 10) != nil {
		t.Error("an int argument was generalised")
	}
	_, _, n := generalize(t, m, ts, []Arg{{Kind: String, B: []byte("a b c d")}}, 0, 3, func([]byte) bool { return false })
	if n != 3 {
		t.Errorf("%d candidates with a budget of 3", n)
	}
}

func (m *Mutator) withGrimoire() *Mutator { m.EnableGrimoire(0); return m }

// TestGrimoireArgs: recombined children are ordinary inputs of the
// target's types (they decode and encode back, the int is the parent's,
// they fit the size limit); the same random source gives
// the same children, each changing one argument; with a pool holding f([]) they include a nested call
// (recursive replacement), two calls in a row (input extension) and a
// replaced string; without a pool there is no child and no random draw.
func TestGrimoireArgs(t *testing.T) {
	ts := Types{String, Uint16, Bytes}
	parentArgs := []Arg{{Kind: String, B: []byte("let y = f(x + 1)")}, {Kind: Uint16, U: 7}, {Kind: Bytes, B: []byte("g(z)")}}
	parent := encode(t, ts, parentArgs)
	build := func() *Mutator {
		m := NewMutator(ts, [][]byte{[]byte("while")}).withGrimoire()
		calls := 0
		if _, ok := m.GrimoireArgs(func() uint64 { calls++; return 0 }, nil, parent, 1<<10); ok || calls != 0 {
			t.Fatalf("without a pool: child %v, %d random draws", ok, calls)
		}
		generalize(t, m, ts, parentArgs, 0, 200, regexp.MustCompile(`f\(.*\)`).Match)
		return m
	}
	m1, m2 := build(), build()
	r1, r2 := splitmix(9), splitmix(9)
	const maxSize = 64
	seen := map[string]bool{}
	for range 2000 {
		c1, ok1 := m1.GrimoireArgs(r1, nil, parent, maxSize)
		c2, ok2 := m2.GrimoireArgs(r2, nil, parent, maxSize)
		if !ok1 || !ok2 || !bytes.Equal(c1, c2) {
			t.Fatalf("the same random source gave %q (%v) and %q (%v)", c1, ok1, c2, ok2)
		}
		if len(c1) > maxSize {
			t.Fatalf("child of %d bytes, limit %d", len(c1), maxSize)
		}
		got, err := ts.DecodeBytes(c1)
		if err != nil {
			t.Fatal(err)
		}
		if got[1].U != 7 || string(got[0].B) != "let y = f(x + 1)" && string(got[2].B) != "g(z)" {
			t.Fatalf("child %q changed the int or both strings", c1)
		}
		if enc := encode(t, ts, got); !bytes.Equal(enc, c1) {
			t.Fatalf("child %q is not the encoding of its arguments (%q)", c1, enc)
		}
		seen[string(got[0].B)] = true
	}
	want := map[string]bool{"nested call": false, "calls in a row": false, "replaced string": false}
	for s := range seen {
		if strings.Contains(s, "f(f(") {
			want["nested call"] = true
		}
		if strings.Contains(s, ")f(") || strings.Contains(s, ")let") {
			want["calls in a row"] = true
		}
		if strings.Contains(s, "while") {
			want["replaced string"] = true
		}
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("no %s among %d distinct children", k, len(seen))
		}
	}
}
