package generators_test

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// panicText runs f and returns what it panicked with, as text ("" if it
// did not panic).
func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestZeroGeneratorNamed: a combinator given the zero Generator (most
// often a recursive generator that refers to its own variable before it is
// assigned) panics when it is built, naming itself and the likely cause; a
// Draw of the zero Generator does too (both were a bare nil dereference at
// draw time, reported as a failure of the target).
func TestZeroGeneratorNamed(t *testing.T) {
	var z gen.Generator[int]
	var zs gen.Generator[string]
	var zr gen.Generator[rune]
	ok := gen.IntRange(0, 3)
	type S struct{ A int }
	for name, build := range map[string]func(){
		"SliceOf":           func() { gen.SliceOf(z, 0, 3) },
		"SliceOfDistinct":   func() { gen.SliceOfDistinct(z, 0, 3) },
		"SliceOfDistinctBy": func() { gen.SliceOfDistinctBy(z, func(v int) int { return v }, 0, 3) },
		"MapOfValues":       func() { gen.MapOfValues(z, func(v int) int { return v }, 0, 3) },
		"MapOf":             func() { gen.MapOf(ok, z, 0, 3) },
		"EntriesOf":         func() { gen.EntriesOf(z, ok, 0, 3) },
		"OneOf":             func() { gen.OneOf(ok, z) },
		"OneOfWeighted":     func() { gen.OneOfWeighted(gen.W(1, ok), gen.W(2, z)) },
		"Ptr":               func() { gen.Ptr(z) },
		"Optional":          func() { gen.Optional(z) },
		"Filter":            func() { gen.Filter(z, func(int) bool { return true }, 0) },
		"Recursive":         func() { gen.Recursive(z, func(g gen.Generator[int]) gen.Generator[int] { return g }, 2) },
		"Zip":               func() { gen.Zip(ok, z) },
		"Bind":              func() { gen.Bind(z, func(int) gen.Generator[int] { return ok }) },
		"Map":               func() { gen.Map(z, func(v int) int { return v }) },
		"StringOf":          func() { gen.StringOf(zr, 0, 3) },
		"DictionaryOr":      func() { gen.DictionaryOr(zs) },
		"TokensOr":          func() { gen.TokensOr([]string{"a"}, zs) },
		"WithType":          func() { gen.WithType(z) },
		"WithField":         func() { gen.WithField[S]("A", z) },
		"Draw":              func() { z.Draw(gfz.NewT(param.New(nil, 1))) },
	} {
		msg := panicText(build)
		if !strings.Contains(msg, name+" of the zero Generator") || !strings.Contains(msg, "Deferred or Recursive") {
			t.Errorf("%s: panic %q, want one naming %s and the zero Generator", name, msg, name)
		}
	}
	// The realistic case: a recursive generator built from its own
	// variable in init, before the variable is assigned.
	var tree gen.Generator[[]int]
	msg := panicText(func() {
		tree = gen.OneOf(gen.Just([]int{}), gen.Map(gen.SliceOf(tree, 0, 3), func(k [][]int) []int { return []int{len(k)} }))
	})
	if !strings.Contains(msg, "SliceOf of the zero Generator") {
		t.Errorf("self-referring generator: panic %q", msg)
	}
	// Nil functions are named too.
	for name, build := range map[string]func(){
		"Map with a nil function":              func() { gen.Map[int, int](ok, nil) },
		"Bind with a nil function":             func() { gen.Bind[int, int](ok, nil) },
		"Filter with a nil keep function":      func() { gen.Filter(ok, nil, 0) },
		"Recursive with a nil extend function": func() { gen.Recursive(ok, nil, 2) },
		"Recursive's extend function returned the zero Generator": func() {
			gen.Recursive(ok, func(gen.Generator[int]) gen.Generator[int] { return gen.Generator[int]{} }, 2)
		},
	} {
		if msg := panicText(build); !strings.Contains(msg, name) {
			t.Errorf("panic %q, want %q", msg, name)
		}
	}
}

// TestOtherMisuseNamed: the remaining misuses panic with a message about
// the call made (Identifier's said "bad length bounds (want 0 <= min <=
// max)" though it has no min; Tokens() named SampledFrom; negative MaxLen
// and MaxDepth were taken as 0).
func TestOtherMisuseNamed(t *testing.T) {
	for want, build := range map[string]func(){
		"Identifier with max < 1": func() { gen.Identifier(0) },
		"Tokens with no words":    func() { gen.Tokens() },
		"MaxLen with n < 0":       func() { gen.MaxLen(-1) },
		"MaxDepth with n < 0":     func() { gen.MaxDepth(-1) },
	} {
		if msg := panicText(build); !strings.Contains(msg, want) {
			t.Errorf("panic %q, want %q", msg, want)
		}
	}
	if msg := panicText(func() { gen.MaxLen(0); gen.MaxDepth(0); gen.Identifier(1) }); msg != "" {
		t.Errorf("zero bounds panicked: %q", msg)
	}
}

// TestBytesEmptyNotNil: BytesRange and Bytes give an empty, non-nil slice
// for length 0, as documented (param.Source.Bytes(0) is nil).
func TestBytesEmptyNotNil(t *testing.T) {
	for name, g := range map[string]gen.Generator[[]byte]{
		"BytesRange(0, 5)": gen.BytesRange(0, 5),
		"BytesRange(0, 0)": gen.BytesRange(0, 0),
		"Bytes()":          gen.Bytes(),
	} {
		b := g.Draw(gfz.NewT(param.New(make([]byte, 16), 0)))
		if b == nil || len(b) != 0 {
			t.Errorf("%s from zero bytes: %#v, want []byte{}", name, b)
		}
	}
}

// TestStringMatchingNoMatchParts: parts of an expression that match no
// string (an empty class) are never generated: every output matches, and
// an expression that matches nothing panics when built.
func TestStringMatchingNoMatchParts(t *testing.T) {
	for _, re := range []string{
		`[^\x00-\x{10FFFF}a]?b`,
		`a|[^\x00-\x{10FFFF}]`,
		`(x[^\x00-\x{10FFFF}])*y`,
		`(?:[^\x00-\x{10FFFF}]{0,3}|z)c`,
		`[\x{D800}-\x{DFFF}]*q`, // surrogates only: no rune
	} {
		g := gen.StringMatching(re)
		m := regexp.MustCompile(`^(?:` + re + `)$`)
		for seed := uint64(0); seed < 300; seed++ {
			if s := g.Draw(gfz.NewT(param.New(nil, seed))); !m.MatchString(s) {
				t.Fatalf("%s: seed %d gave %q, which does not match", re, seed, s)
			}
		}
	}
	for _, re := range []string{`[^\x00-\x{10FFFF}]`, `a[^\x00-\x{10FFFF}]+`, `(a|[^\x00-\x{10FFFF}]){2}[^\x00-\x{10FFFF}]`} {
		if msg := panicText(func() { gen.StringMatching(re) }); !strings.Contains(msg, "matches no string") {
			t.Errorf("%s: panic %q, want \"matches no string\"", re, msg)
		}
	}
}

// TestFreeElementsBounded: elements that cost no bytes cannot make an
// input run without end: past param.CallsPerByte generator calls per byte
// of the cap the draw ends as param.Exhausted (an invalid input). Before,
// a slice of constants of a drawn length near math.MaxInt ran out of
// memory.
func TestFreeElementsBounded(t *testing.T) {
	// A cap of 64 bytes, so that the limit is 4,096 calls and a broken
	// limit fails quickly (100,000 elements) rather than exhausting memory.
	g := gen.SliceOf(gen.Just(0), 0, math.MaxInt)
	src := param.New([]byte{0xa0, 0x86, 0x01, 0, 0, 0, 0, 0}, 0) // 100,000
	src.SetMax(64)
	var got any
	func() {
		defer func() { got = recover() }()
		g.Draw(gfz.NewT(src))
	}()
	var ex param.Exhausted
	if e, ok := got.(param.Exhausted); !ok || e.Calls != param.CallsPerByte*64+1 || e.Max != 64 {
		t.Fatalf("panic %v (%T), want param.Exhausted with Calls past the limit", got, got)
	} else {
		ex = e
	}
	if !strings.Contains(ex.Error(), "generator calls") {
		t.Errorf("message %q", ex.Error())
	}
	var err error = ex
	if !errors.As(err, new(param.Exhausted)) {
		t.Errorf("not an Exhausted error")
	}
	// Within the limit nothing changes: a thousand free elements.
	data := make([]byte, 8)
	data[0], data[1] = 0xe8, 0x03 // 1000
	if n := len(gen.SliceOf(gen.Just(0), 0, 1000).Draw(gfz.NewT(param.New(data, 0)))); n != 1000 {
		t.Errorf("1000 free elements: got %d", n)
	}
}
