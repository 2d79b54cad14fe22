// Package perf is a gfz example for -feedback perf (PerfFuzz): a chained
// hash table whose insertions become quadratic when the keys collide.
//
// Table inserts words into 16 buckets; an insertion walks its bucket's
// chain first (to reject a duplicate). The hash of the i-th word w is
// (w+i) mod 16, so a run of equal words, what mutation makes easily, spreads
// evenly and random words collide little: about 100 chain steps for 64
// words. The worst case, every word in one bucket, takes 2016. Coverage
// sees the chain walk as one edge whose hit-count class stops changing past
// 128 steps; perf sees the count, and keeps every input that walks the
// chain more. The planted check fails when an input makes more than
// MaxSteps steps.
package perf

// Buckets is the number of buckets of a Table.
const Buckets = 16

// MaxSteps is the chain walk budget the fuzz target checks.
const MaxSteps = 1000

// Table is a chained hash table of bytes with position-salted hashing.
type Table struct {
	chains [Buckets][]byte
	Steps  int // chain steps walked by all insertions so far
}

// Insert adds word w, the i-th of its input, unless its bucket already
// holds it.
func (t *Table) Insert(i int, w byte) {
	b := (int(w) + i) % Buckets
	for _, x := range t.chains[b] {
		t.Steps++
		if x == w {
			return
		}
	}
	t.chains[b] = append(t.chains[b], w)
}
