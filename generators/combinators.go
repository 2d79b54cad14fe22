package generators

import (
	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/param"
)

// MapOf returns a generator of maps with up to max entries: the number n
// of entries to draw (min to max) is a structure draw of
// BytesFor(max-min+1) bytes, then n (key, value) pairs are drawn in order,
// key first. The map is built in draw order; when a key repeats, the first
// value drawn for it is kept (the later draws are still made, so replay
// consumes the same bytes), so the map may have fewer than n entries, even
// fewer than min. The map is never nil. It panics if min < 0 or min > max.
func MapOf[K comparable, V any](k Generator[K], v Generator[V], min, max int) Generator[map[K]V] {
	checkLen("MapOf", min, max)
	usable("MapOf", k)
	usable("MapOf", v)
	return Generator[map[K]V]{name: "MapOf", draw: func(t *gfz.T) map[K]V {
		n := int(t.Source().Range(int64(min), int64(max), param.Structure))
		m := make(map[K]V, n)
		for range n {
			key := k.Draw(t)
			val := v.Draw(t)
			if _, dup := m[key]; !dup {
				m[key] = val
			}
		}
		return m
	}}
}

// Entry is a key and a value, the element of EntriesOf.
type Entry[K comparable, V any] struct {
	Key   K
	Value V
}

// EntriesOf is MapOf returning the entries in insertion order (first
// occurrence of each key, with its first value) instead of a map, for
// targets that must see keys in a deterministic order. Byte costs are those
// of MapOf.
func EntriesOf[K comparable, V any](k Generator[K], v Generator[V], min, max int) Generator[[]Entry[K, V]] {
	checkLen("EntriesOf", min, max)
	usable("EntriesOf", k)
	usable("EntriesOf", v)
	return Generator[[]Entry[K, V]]{name: "EntriesOf", draw: func(t *gfz.T) []Entry[K, V] {
		n := int(t.Source().Range(int64(min), int64(max), param.Structure))
		out := make([]Entry[K, V], 0, n)
		seen := make(map[K]bool, n)
		for range n {
			key := k.Draw(t)
			val := v.Draw(t)
			if !seen[key] {
				seen[key] = true
				out = append(out, Entry[K, V]{key, val})
			}
		}
		return out
	}}
}

// Weighted is one alternative of OneOfWeighted: a generator and its
// positive weight.
type Weighted[V any] struct {
	Weight int
	Gen    Generator[V]
}

// W pairs a weight with a generator, for OneOfWeighted.
func W[V any](weight int, g Generator[V]) Weighted[V] { return Weighted[V]{weight, g} }

// OneOfWeighted returns a generator that draws from one of the
// alternatives, chosen with probability proportional to its weight: the
// choice is a structure draw of BytesFor(sum of weights) bytes, reduced
// modulo the sum, then the chosen generator draws. It panics if there are
// no alternatives or a weight is not positive.
func OneOfWeighted[V any](alts ...Weighted[V]) Generator[V] {
	if len(alts) == 0 {
		panic("generators: OneOfWeighted with no alternatives")
	}
	alts = append([]Weighted[V](nil), alts...)
	total := uint64(0)
	for _, a := range alts {
		if a.Weight <= 0 {
			panic("generators: OneOfWeighted with a weight <= 0")
		}
		usable("OneOfWeighted", a.Gen)
		total += uint64(a.Weight)
	}
	return Generator[V]{name: "OneOfWeighted", draw: func(t *gfz.T) V {
		x := t.Source().Uintn(total, param.Structure)
		for _, a := range alts {
			if x < uint64(a.Weight) {
				return a.Gen.Draw(t)
			}
			x -= uint64(a.Weight)
		}
		panic("unreachable")
	}}
}

// SampledFrom returns a generator that picks one of values: a value draw
// of BytesFor(len(values)) bytes (none for a single value). It panics if
// values is empty.
func SampledFrom[V any](values ...V) Generator[V] {
	if len(values) == 0 {
		panic("generators: SampledFrom with no values")
	}
	values = append([]V(nil), values...)
	n := uint64(len(values))
	return Generator[V]{name: "SampledFrom", draw: func(t *gfz.T) V {
		return values[t.Source().Uintn(n, param.Value)]
	}}
}

// Ptr returns a generator of pointers to values of g, or nil: one
// structure byte b; the pointer is nil when b&3 == 0 (one time in four),
// otherwise g draws the pointed-to value.
func Ptr[V any](g Generator[V]) Generator[*V] {
	usable("Ptr", g)
	return Generator[*V]{name: "Ptr", draw: func(t *gfz.T) *V {
		if t.Source().Uint(1, param.Structure)&3 == 0 {
			return nil
		}
		v := g.Draw(t)
		return &v
	}, id: ids(idPtr, g.id)}
}

// Optional returns a generator of (value, true) or (zero, false) as an
// Option: one structure byte b; absent when b&3 == 0, otherwise g draws.
func Optional[V any](g Generator[V]) Generator[Option[V]] {
	usable("Optional", g)
	return Generator[Option[V]]{name: "Optional", draw: func(t *gfz.T) Option[V] {
		if t.Source().Uint(1, param.Structure)&3 == 0 {
			return Option[V]{}
		}
		return Option[V]{Value: g.Draw(t), Valid: true}
	}, id: ids(idOptional, g.id)}
}

// Option is a value that may be absent, drawn by Optional.
type Option[V any] struct {
	Value V
	Valid bool
}

// DefaultFilterTries is the number of draws Filter makes before giving up.
const DefaultFilterTries = 16

// Filter returns a generator of the values of g that satisfy keep: it
// draws from g up to tries times (DefaultFilterTries when tries <= 0) and
// returns the first value keep accepts. When none is accepted the input is
// invalid: Filter calls t.Assume(false), which ends the execution as
// INVALID (under plain go test the input is skipped). It consumes what the
// attempts consume.
func Filter[V any](g Generator[V], keep func(V) bool, tries int) Generator[V] {
	usable("Filter", g)
	if keep == nil {
		panic("generators: Filter with a nil keep function")
	}
	if tries <= 0 {
		tries = DefaultFilterTries
	}
	return Generator[V]{name: "Filter", draw: func(t *gfz.T) V {
		for range tries {
			if v := g.Draw(t); keep(v) {
				return v
			}
		}
		t.Assume(false)
		panic("unreachable")
	}, id: ids(idFilter, g.id)}
}

// Recursive returns a generator of recursive values whose nesting depth is
// at most maxDepth: at depth 0 it draws from base; at depth d > 0 one
// structure byte b chooses base (b&1 == 0) or extend(self), where self is
// the generator at depth d-1. Recursion therefore always ends, and each
// level costs one byte more than its content. extend is called once per
// level when the generator is built, not per draw. It panics if maxDepth
// < 0.
//
//	tree := gen.Recursive(leaf, func(self gen.Generator[Tree]) gen.Generator[Tree] {
//		return gen.Map(gen.SliceOf(self, 0, 3), func(kids []Tree) Tree { return Tree{Kids: kids} })
//	}, 5)
func Recursive[V any](base Generator[V], extend func(self Generator[V]) Generator[V], maxDepth int) Generator[V] {
	if maxDepth < 0 {
		panic("generators: Recursive with maxDepth < 0")
	}
	usable("Recursive", base)
	if extend == nil {
		panic("generators: Recursive with a nil extend function")
	}
	g := base
	for range maxDepth {
		inner := extend(g)
		if inner.draw == nil {
			panic("generators: Recursive's extend function returned the zero Generator")
		}
		b := base
		g = Generator[V]{name: "Recursive", draw: func(t *gfz.T) V {
			if t.Source().Uint(1, param.Structure)&1 == 0 {
				return b.Draw(t)
			}
			return inner.Draw(t)
		}}
	}
	return g
}

// Tuple2 is a pair of values drawn by Zip.
type Tuple2[A, B any] struct {
	A A
	B B
}

// Zip returns a generator of pairs: a draws, then b.
func Zip[A, B any](a Generator[A], b Generator[B]) Generator[Tuple2[A, B]] {
	usable("Zip", a)
	usable("Zip", b)
	return Generator[Tuple2[A, B]]{name: "Zip", draw: func(t *gfz.T) Tuple2[A, B] {
		x := a.Draw(t)
		return Tuple2[A, B]{x, b.Draw(t)}
	}}
}

// Bind returns a generator that draws v from g, then draws from f(v): the
// second generator depends on the first value.
func Bind[V, W any](g Generator[V], f func(V) Generator[W]) Generator[W] {
	usable("Bind", g)
	if f == nil {
		panic("generators: Bind with a nil function")
	}
	return Generator[W]{name: "Bind", draw: func(t *gfz.T) W { return f(g.Draw(t)).Draw(t) }}
}
