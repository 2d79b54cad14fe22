package generators_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/param"
)

// drawOrSkip draws g from data and reports whether the draw ended the
// input as invalid (t.Assume(false)) instead of returning.
func drawOrSkip[V any](g gen.Generator[V], data []byte) (v V, src *param.Source, skipped bool) {
	src = param.New(data, 0)
	gt := gfz.NewT(src)
	func() {
		defer func() {
			if r := recover(); r != nil && !gt.Skipped() {
				panic(r)
			}
		}()
		v = g.Draw(gt)
	}()
	return v, src, gt.Skipped()
}

// TestPermutationReachesAll decodes every byte sequence a permutation of 3
// and of 5 elements can read and checks that the values are permutations
// of the input, that every one of the 3! (5!) is reached, each from
// exactly one sequence of in-range indexes, and that zeros keep the order.
func TestPermutationReachesAll(t *testing.T) {
	in := []string{"a", "b", "c"}
	p := gen.Permutation(in)
	seen := map[string]int{}
	for b0 := range 256 {
		for b1 := range 256 {
			v, src, _ := drawOrSkip(p, []byte{byte(b0), byte(b1)})
			if src.Pos() != 2 {
				t.Fatalf("%d %d: read %d bytes, want 2", b0, b1, src.Pos())
			}
			sorted := slices.Clone(v)
			slices.Sort(sorted)
			if !slices.Equal(sorted, in) {
				t.Fatalf("%d %d: %v is not a permutation of %v", b0, b1, v, in)
			}
			seen[strings.Join(v, "")]++
		}
	}
	if len(seen) != 6 {
		t.Errorf("reached %d permutations of 3, want 6: %v", len(seen), seen)
	}
	if !slices.Equal(in, []string{"a", "b", "c"}) {
		t.Errorf("the input slice changed: %v", in)
	}
	if v, _, _ := drawOrSkip(p, []byte{0, 0}); strings.Join(v, "") != "abc" {
		t.Errorf("zero bytes: %v, want the input order", v)
	}

	// Five elements: the in-range index sequences (5*4*3*2 of them) map
	// one to one onto the 120 permutations.
	five := gen.Permutation([]int{0, 1, 2, 3, 4})
	perms := map[[5]int]bool{}
	for j0 := range 5 {
		for j1 := range 4 {
			for j2 := range 3 {
				for j3 := range 2 {
					v, _, _ := drawOrSkip(five, []byte{byte(j0), byte(j1), byte(j2), byte(j3)})
					perms[[5]int(v)] = true
				}
			}
		}
	}
	if len(perms) != 120 {
		t.Errorf("reached %d permutations of 5, want 120", len(perms))
	}
	if v, src, _ := drawOrSkip(gen.Permutation([]int{}), nil); v == nil || len(v) != 0 || src.Pos() != 0 {
		t.Errorf("empty: %#v after %d bytes", v, src.Pos())
	}
}

// TestSliceOfDistinct checks the documented properties on random bytes:
// elements pairwise distinct (by value, by key), lengths within the
// bounds, the list ended early only when the element generator runs out
// of distinct values, and the input invalid when fewer than min remain.
func TestSliceOfDistinct(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(name string, draw func(data []byte) (n, distinct int, skipped bool), min, max, values int) {
		t.Helper()
		short, skips := 0, 0
		for range 500 {
			n, distinct, skipped := draw(gentest.RandomBytes(r, 200))
			if skipped {
				skips++
				continue
			}
			if n != distinct {
				t.Fatalf("%s: %d elements, %d distinct", name, n, distinct)
			}
			if n < min || n > max {
				t.Fatalf("%s: length %d outside [%d, %d]", name, n, min, max)
			}
			if n < max && n == values {
				short++
			}
		}
		switch {
		case min > values && skips != 500:
			t.Errorf("%s: %d of 500 invalid, want all (only %d distinct values, min %d)", name, skips, values, min)
		case min <= values && skips != 0:
			t.Errorf("%s: %d invalid, want none", name, skips)
		}
		if max > values && min <= values && short == 0 {
			t.Errorf("%s: no list ended at the %d available values", name, values)
		}
		t.Logf("%s: %d of 500 ended at the %d available values", name, short, values)
	}
	distinctInts := func(g gen.Generator[[]int]) func([]byte) (int, int, bool) {
		return func(data []byte) (int, int, bool) {
			v, _, skipped := drawOrSkip(g, data)
			m := map[int]bool{}
			for _, x := range v {
				m[x] = true
			}
			return len(v), len(m), skipped
		}
	}
	check("IntRange(0,9) 0..8", distinctInts(gen.SliceOfDistinct(gen.IntRange(0, 9), 0, 8)), 0, 8, 10)
	check("IntRange(0,1000) 40..60 (hashed)", distinctInts(gen.SliceOfDistinct(gen.IntRange(0, 1000), 40, 60)), 40, 60, 1001)
	check("IntRange(0,2) 0..5 (ends the list)", distinctInts(gen.SliceOfDistinct(gen.IntRange(0, 2), 0, 5)), 0, 5, 3)
	check("IntRange(0,2) 4..5 (invalid)", distinctInts(gen.SliceOfDistinct(gen.IntRange(0, 2), 4, 5)), 4, 5, 3)
	byMod := gen.SliceOfDistinctBy(gen.IntRange(0, 255), func(x int) int { return x % 7 }, 1, 10)
	check("By x%7 1..10", func(data []byte) (int, int, bool) {
		v, _, skipped := drawOrSkip(byMod, data)
		m := map[int]bool{}
		for _, x := range v {
			m[x%7] = true
		}
		return len(v), len(m), skipped
	}, 1, 10, 7)
	byName := gen.MapOfValues(gen.StringFrom("abc", 1, 2), func(s string) byte { return s[0] }, 0, 3)
	check("MapOfValues by first letter", func(data []byte) (int, int, bool) {
		m, _, skipped := drawOrSkip(byName, data)
		for k, v := range m {
			if v[0] != k {
				t.Fatalf("MapOfValues: %q under key %q", v, k)
			}
		}
		return len(m), len(m), skipped
	}, 0, 3, 3)
}

// TestSliceOfDistinctDecoding pins the decoding: a repeat is dropped with
// its bytes consumed, and exhausted tries end the list.
func TestSliceOfDistinctDecoding(t *testing.T) {
	g := gen.SliceOfDistinct(gen.IntRange(0, 9), 0, 5)
	v, src, _ := drawOrSkip(g, []byte{3, 4, 4, 7, 4, 9})
	if !slices.Equal(v, []int{4, 7, 9}) || src.Pos() != 6 {
		t.Errorf("got %v after %d bytes, want [4 7 9] after 6", v, src.Pos())
	}
	// Length 2, then the second element repeats DefaultDistinctTries
	// times: the list ends at one element.
	data := append([]byte{2, 5}, bytes.Repeat([]byte{5}, gen.DefaultDistinctTries)...)
	v, src, skipped := drawOrSkip(g, data)
	if !slices.Equal(v, []int{5}) || src.Pos() != len(data) || skipped {
		t.Errorf("got %v after %d bytes (skipped %v), want [5] after %d", v, src.Pos(), skipped, len(data))
	}
	_, src, skipped = drawOrSkip(gen.SliceOfDistinct(gen.IntRange(0, 9), 2, 5), append([]byte{0}, data[1:]...))
	if !skipped || src.Pos() != len(data) {
		t.Errorf("min 2 with one distinct value: skipped %v after %d bytes, want invalid after %d", skipped, src.Pos(), len(data))
	}
}

type exprT struct {
	Lit   int
	Block []stmtT // a block expression when not nil
}

type stmtT struct {
	Let  string
	Expr exprT
}

// exprStmt returns the mutually recursive expression and statement
// generators of the Deferred example.
func exprStmt() (gen.Generator[exprT], gen.Generator[stmtT]) {
	var exprG gen.Generator[exprT]
	var stmtG gen.Generator[stmtT]
	exprG = gen.OneOf(
		gen.Map(gen.IntRange(0, 9), func(n int) exprT { return exprT{Lit: n} }),
		gen.Map(gen.SliceOf(gen.Deferred(func() gen.Generator[stmtT] { return stmtG }), 1, 2),
			func(b []stmtT) exprT { return exprT{Block: b} }),
	)
	stmtG = gen.Custom(func(t *gfz.T) stmtT {
		return stmtT{Let: gen.StringFrom("xyz", 1, 1).Draw(t), Expr: exprG.Draw(t)}
	})
	return exprG, stmtG
}

func TestDeferred(t *testing.T) {
	calls := 0
	d := gen.Deferred(func() gen.Generator[int] { calls++; return gen.IntRange(0, 9) })
	if calls != 0 {
		t.Fatal("Deferred called its function when built")
	}
	v1, _, _ := drawOrSkip(d, []byte{3})
	v2, src, _ := drawOrSkip(d, []byte{7})
	if v1 != 3 || v2 != 7 || calls != 1 || src.Pos() != 1 {
		t.Errorf("draws %d %d after %d byte(s), %d calls of the function; want 3 7, 1 byte, 1 call", v1, v2, src.Pos(), calls)
	}
	// Identity: from the function's source position.
	spanGen := func(g gen.Generator[int]) uint64 {
		src := param.New([]byte{5}, 0)
		src.SetRecording(true)
		g.Draw(gfz.NewT(src))
		return src.Record().Spans[0].Gen
	}
	other := gen.Deferred(func() gen.Generator[int] { return gen.IntRange(0, 9) })
	//lint:ignore SA4000 two draws of the same generator must give the same identity
	if spanGen(d) == spanGen(other) || spanGen(d) != spanGen(d) {
		t.Error("two Deferred on different lines share an identity, or one has two")
	}
	var unset gen.Generator[int]
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "not assigned yet") {
				t.Errorf("zero generator: panic %v", r)
			}
		}()
		gen.Deferred(func() gen.Generator[int] { return unset }).Draw(gfz.NewT(param.New(nil, 0)))
	}()

	// The mutually recursive pair: replays, and zeros end the recursion.
	exprG, stmtG := exprStmt()
	roundTrip(t, "Deferred expr", exprG)
	roundTrip(t, "Deferred stmt", stmtG)
	if v, src, _ := drawOrSkip(exprG, make([]byte, 8)); v.Block != nil || src.Pos() != 2 {
		t.Errorf("zeros: %+v after %d bytes, want a literal after 2", v, src.Pos())
	}
}

func TestCollectionsRoundTrip(t *testing.T) {
	roundTrip(t, "Permutation", gen.Permutation([]string{"a", "b", "c", "d", "e"}))
	roundTrip(t, "Permutation(300)", gen.Permutation(make([]int, 300)))
	roundTrip(t, "SliceOfDistinct", gen.SliceOfDistinct(gen.IntRange(0, 20), 0, 10))
	roundTrip(t, "SliceOfDistinctBy", gen.SliceOfDistinctBy(gen.String(), func(s string) int { return len(s) }, 0, 5))
	roundTrip(t, "MapOfValues", gen.MapOfValues(gen.IntRange(0, 50), func(n int) int { return n / 10 }, 0, 4))
}

func TestCollectionsByteCosts(t *testing.T) {
	ones := bytes.Repeat([]byte{1}, 1024)
	cases := []struct {
		name string
		draw func(*gfz.T)
		want int
	}{
		{"Permutation(0)", func(t *gfz.T) { gen.Permutation([]int{}).Draw(t) }, 0},
		{"Permutation(1)", func(t *gfz.T) { gen.Permutation([]int{1}).Draw(t) }, 0},
		{"Permutation(3)", func(t *gfz.T) { gen.Permutation([]int{1, 2, 3}).Draw(t) }, 2},
		{"Permutation(256)", func(t *gfz.T) { gen.Permutation(make([]int, 256)).Draw(t) }, 255},
		// 300 elements: indexes over 257..300 values take 2 bytes (44 of them).
		{"Permutation(300)", func(t *gfz.T) { gen.Permutation(make([]int, 300)).Draw(t) }, 299 + 44},
		// Length 1 (one byte), then IntRange(0,9) draws 1 (kept).
		{"SliceOfDistinct len 1", func(t *gfz.T) { gen.SliceOfDistinct(gen.IntRange(0, 9), 0, 5).Draw(t) }, 1 + 1},
		// Every byte is 1: the length is 1 + 1%5 = 2; the first element
		// (1) is kept, the next DefaultDistinctTries draws repeat it and
		// end the list at one element (min 1).
		{"SliceOfDistinct repeats", func(t *gfz.T) { gen.SliceOfDistinct(gen.IntRange(0, 9), 1, 5).Draw(t) }, 1 + 1 + gen.DefaultDistinctTries},
		{"MapOfValues len 1", func(t *gfz.T) { gen.MapOfValues(gen.Int(), func(int) int { return 0 }, 0, 3).Draw(t) }, 1 + 8},
		{"Deferred", func(t *gfz.T) { gen.Deferred(func() gen.Generator[int] { return gen.Int() }).Draw(t) }, 8},
	}
	for _, c := range cases {
		src := param.New(ones, 0)
		c.draw(gfz.NewT(src))
		if src.Pos() != c.want {
			t.Errorf("%s: consumed %d bytes, want %d", c.name, src.Pos(), c.want)
		}
	}
}

func TestCollectionsBadArguments(t *testing.T) {
	for name, f := range map[string]func(){
		"SliceOfDistinct(3,2)":       func() { gen.SliceOfDistinct(gen.Bool(), 3, 2) },
		"SliceOfDistinctBy(nil key)": func() { gen.SliceOfDistinctBy[bool, int](gen.Bool(), nil, 0, 2) },
		"MapOfValues(-1)":            func() { gen.MapOfValues(gen.Bool(), func(b bool) bool { return b }, -1, 2) },
		"Deferred(nil)":              func() { gen.Deferred[int](nil) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "generators: ") {
					t.Errorf("%s: panic %v, want a generators: panic", name, r)
				}
			}()
			f()
		}()
	}
}

// TestCollectionsAllocs: a draw allocates no more than SliceOf's (the
// slice it returns): no map for up to 32 distinct elements, no per-draw
// closure; Deferred allocates nothing of its own.
func TestCollectionsAllocs(t *testing.T) {
	data := []byte{5, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	allocs := func(draw func(*gfz.T)) float64 {
		src := param.New(data, 0)
		gt := gfz.NewT(src)
		return testing.AllocsPerRun(100, func() {
			src.Reset(data, 0)
			draw(gt)
		})
	}
	sliceOf := gen.SliceOf(gen.IntRange(0, 9), 0, 9)
	base := allocs(func(t *gfz.T) { sliceOf.Draw(t) })
	t.Logf("SliceOf: %.1f allocations per draw", base)
	perm := gen.Permutation([]int{1, 2, 3, 4})
	distinct := gen.SliceOfDistinct(gen.IntRange(0, 9), 0, 9)
	by := gen.SliceOfDistinctBy(gen.IntRange(0, 9), func(n int) int { return n % 4 }, 0, 9)
	for name, draw := range map[string]func(*gfz.T){
		"Permutation":       func(t *gfz.T) { perm.Draw(t) },
		"SliceOfDistinct":   func(t *gfz.T) { distinct.Draw(t) },
		"SliceOfDistinctBy": func(t *gfz.T) { by.Draw(t) },
	} {
		if got := allocs(draw); got > base {
			t.Errorf("%s: %.1f allocations per draw, SliceOf %.1f", name, got, base)
		}
	}
	ir := gen.IntRange(0, 9)
	d := gen.Deferred(func() gen.Generator[int] { return ir })
	if got, want := allocs(func(t *gfz.T) { d.Draw(t) }), allocs(func(t *gfz.T) { ir.Draw(t) }); got > want {
		t.Errorf("Deferred: %.1f allocations per draw, IntRange alone %.1f", got, want)
	}
}
