package generators

import (
	"sync"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/param"
)

// Generators that property-based testers know from rapid and Hypothesis:
// permutations, slices of distinct elements, maps keyed by a function of
// their values, and deferred generators for mutually recursive types.

// Name parts of the identities of this file's constructors.
var (
	idPermutation       = nameID("Permutation")
	idSliceOfDistinct   = nameID("SliceOfDistinct")
	idSliceOfDistinctBy = nameID("SliceOfDistinctBy")
	idMapOfValues       = nameID("MapOfValues")
	idDeferred          = nameID("Deferred")
)

// Permutation returns a generator of the permutations of s: a new slice
// holding s's elements in an order chosen by a Fisher-Yates shuffle over
// drawn indexes. For i = 0 .. n-2 it draws j in [i, n-1], a structure
// draw of param.BytesFor(n-i) bytes, and swaps elements i and j; so a
// slice of up to 256 elements costs n-1 bytes (none for 0 or 1 element).
// Every permutation comes from exactly one sequence of indexes, so all n!
// are reachable, and all-zero bytes give s in its own order (what a
// shrinker that lowers choices converges on). s is copied when the
// generator is built; the slice drawn is never nil.
func Permutation[V any](s []V) Generator[[]V] {
	elems := append([]V(nil), s...)
	return Generator[[]V]{name: "Permutation", draw: func(t *gfz.T) []V {
		src := t.Source()
		out := append(make([]V, 0, len(elems)), elems...)
		for i := 0; i < len(out)-1; i++ {
			j := i + int(src.Uintn(uint64(len(out)-i), param.Structure))
			out[i], out[j] = out[j], out[i]
		}
		return out
	}, id: ids(idPermutation, uint64(len(elems)))}
}

// DefaultDistinctTries is the number of draws SliceOfDistinct,
// SliceOfDistinctBy and MapOfValues make for one element before they stop
// looking for an element not drawn yet.
const DefaultDistinctTries = 16

// SliceOfDistinct returns a generator of slices of min to max pairwise
// distinct elements (by ==) drawn from g. The length n is a structure
// draw of param.BytesFor(max-min+1) bytes, as for SliceOf; then g draws
// until the slice has n elements, an element equal to one already in the
// slice being dropped (its bytes stay consumed, so a replay reads the same
// bytes). Each element gets at most DefaultDistinctTries draws: when they
// all repeat earlier elements, g cannot easily produce another distinct
// value and the slice ends there, shorter than n, if it has at least min
// elements; with fewer than min the input is invalid (t.Assume(false),
// as Filter does). It thus costs the length draw plus g's cost for every
// draw, kept or dropped. Elements keep the order they were drawn in. The
// slice is never nil. It panics if min < 0 or min > max.
func SliceOfDistinct[V comparable](g Generator[V], min, max int) Generator[[]V] {
	checkLen("SliceOfDistinct", min, max)
	usable("SliceOfDistinct", g)
	return Generator[[]V]{name: "SliceOfDistinct", draw: func(t *gfz.T) []V {
		return drawDistinct(t, g, identityKey[V], min, max)
	}, id: ids(ids(idSliceOfDistinct, g.id), uint64(min)<<32|uint64(max))}
}

// SliceOfDistinctBy is SliceOfDistinct with elements told apart by key:
// no two elements of a slice have the same key(element). key must be
// deterministic. Byte costs and the behaviour when g cannot produce enough
// distinct keys are those of SliceOfDistinct.
func SliceOfDistinctBy[V any, K comparable](g Generator[V], key func(V) K, min, max int) Generator[[]V] {
	checkLen("SliceOfDistinctBy", min, max)
	usable("SliceOfDistinctBy", g)
	if key == nil {
		panic("generators: SliceOfDistinctBy with a nil key function")
	}
	return Generator[[]V]{name: "SliceOfDistinctBy", draw: func(t *gfz.T) []V {
		return drawDistinct(t, g, key, min, max)
	}, id: ids(ids(idSliceOfDistinctBy, g.id), uint64(min)<<32|uint64(max))}
}

// MapOfValues returns a generator of maps from key(v) to v for values v
// drawn from g: the values are drawn as SliceOfDistinctBy(g, key, min,
// max) draws them, so the map has min to max entries (fewer than the
// drawn length only when g cannot produce enough distinct keys; see
// SliceOfDistinct), with the same byte costs. The map is never nil. It
// panics if min < 0 or min > max.
func MapOfValues[K comparable, V any](g Generator[V], key func(V) K, min, max int) Generator[map[K]V] {
	checkLen("MapOfValues", min, max)
	usable("MapOfValues", g)
	if key == nil {
		panic("generators: MapOfValues with a nil key function")
	}
	return Generator[map[K]V]{name: "MapOfValues", draw: func(t *gfz.T) map[K]V {
		vs := drawDistinct(t, g, key, min, max)
		m := make(map[K]V, len(vs))
		for _, v := range vs {
			m[key(v)] = v
		}
		return m
	}, id: ids(ids(idMapOfValues, g.id), uint64(min)<<32|uint64(max))}
}

func identityKey[V comparable](v V) V { return v }

// smallDistinct is the length up to which drawDistinct looks for repeats
// by scanning the keys instead of hashing them: no map to allocate.
const smallDistinct = 32

// drawDistinct draws the elements of SliceOfDistinct and its kin.
func drawDistinct[V any, K comparable](t *gfz.T, g Generator[V], key func(V) K, min, max int) []V {
	n := int(t.Source().Range(int64(min), int64(max), param.Structure))
	c := n // the capacity to allocate: at most preallocMax (prealloc)
	if c > preallocMax {
		c = preallocMax
	}
	out := make([]V, 0, c)
	var small [smallDistinct]K
	keys := small[:0]
	var seen map[K]struct{}
	if n > smallDistinct {
		seen = make(map[K]struct{}, c)
	}
	for len(out) < n {
		added := false
		for range DefaultDistinctTries {
			v := g.Draw(t)
			k := key(v)
			if seen != nil {
				if _, dup := seen[k]; dup {
					continue
				}
				seen[k] = struct{}{}
			} else {
				dup := false
				for _, o := range keys {
					if o == k {
						dup = true
						break
					}
				}
				if dup {
					continue
				}
				keys = append(keys, k)
			}
			out = append(out, v)
			added = true
			break
		}
		if !added {
			break
		}
	}
	if len(out) < min {
		t.Assume(false)
	}
	return out
}

// Deferred returns a generator that draws from the generator fn returns,
// calling fn once, at the first draw. It lets a generator use another
// that is defined later, as mutually recursive types need: an expression
// generator that contains statements and a statement generator that
// contains expressions can each refer to the other through Deferred (see
// the example). Go rejects package-level variables whose initializers
// refer to each other, even inside a function literal; build such
// generators in a function or in init, or assign the variables in
// order inside one function as the example does.
//
// Deferred consumes what the generator fn returns consumes. It does not
// bound the depth of recursion: make the alternative chosen by a zero
// choice (OneOf's first) end the recursion, so that the structure-aware
// engines and shrinking, which lower choices, make values smaller, and
// bound the depth with a parameter or with Recursive when the bytes alone
// must not decide it (an input whose draws run past the size cap ends as
// invalid). Its identity comes from fn's source position, so two Deferred
// generators written on different lines have different identities.
func Deferred[V any](fn func() Generator[V]) Generator[V] {
	if fn == nil {
		panic("generators: Deferred with a nil function")
	}
	get := sync.OnceValue(func() Generator[V] {
		g := fn()
		if g.draw == nil {
			panic("generators: Deferred function returned the zero Generator (a generator variable not assigned yet?)")
		}
		return g
	})
	return Generator[V]{name: "Deferred", draw: func(t *gfz.T) V {
		return get().Draw(t)
	}, id: ids(idDeferred, sourceID(codeOf(fn)))}
}
