package lru

import (
	"slices"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// capacity of the cache under test. With a larger capacity the bug needs
// more steps (docs/BENCHMARKS.md measured capacity 4).
const capacity = 4

var (
	keys   = gen.IntRange(0, 65535).Named("key") // repeated keys are rare
	values = gen.IntRange(0, 99).Named("val")
)

// FuzzCache runs a random sequence of Put, Get and Delete on a Cache and on
// a model (the keys from most to least recently used, and a map of their
// values), and checks after every step that the two agree.
func FuzzCache(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		c := New(capacity)
		var order []int // the model: keys, most recently used first
		vals := map[int]int{}
		touch := func(k int) {
			order = slices.DeleteFunc(order, func(x int) bool { return x == k })
			order = slices.Insert(order, 0, k)
		}
		t.Repeat(map[string]func(*gfz.T){
			"Put": func(t *gfz.T) {
				k, v := keys.Draw(t), values.Draw(t)
				c.Put(k, v)
				if _, ok := vals[k]; !ok && len(order) == capacity {
					lru := order[len(order)-1]
					order = order[:len(order)-1]
					delete(vals, lru)
				}
				vals[k] = v
				touch(k)
			},
			"Get": func(t *gfz.T) {
				k := keys.Draw(t)
				got, ok := c.Get(k)
				want, wok := vals[k]
				if ok != wok || got != want {
					t.Fatalf("Get(%d) = %d, %v; want %d, %v", k, got, ok, want, wok)
				}
				if ok {
					touch(k)
				}
			},
			"Delete": func(t *gfz.T) {
				k := keys.Draw(t)
				_, want := vals[k]
				if got := c.Delete(k); got != want {
					t.Fatalf("Delete(%d) = %v, want %v", k, got, want)
				}
				delete(vals, k)
				order = slices.DeleteFunc(order, func(x int) bool { return x == k })
			},
			"": func(t *gfz.T) {
				if got := c.Keys(); !slices.Equal(got, order) || c.Len() != len(order) {
					t.Fatalf("keys %v (Len %d), model %v", got, c.Len(), order)
				}
			},
		})
	})
}

func TestCacheSimple(t *testing.T) {
	c := New(2)
	c.Put(1, 10)
	c.Put(2, 20)
	c.Get(1)
	c.Put(3, 30) // evicts 2
	if _, ok := c.Get(2); ok {
		t.Error("2 was not evicted")
	}
	if v, ok := c.Get(1); !ok || v != 10 {
		t.Errorf("Get(1) = %d, %v", v, ok)
	}
}
