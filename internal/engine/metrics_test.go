package engine

import (
	"bytes"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// boolTarget draws four Bools (one byte each, reduced mod 2, so bit 0
// decides and bits 1 to 7 are never read), one raw byte and a 10-byte
// string, and lights an edge per number of true Bools. It logs the sequences Exec is called
// with.
type boolTarget struct {
	*srcExec
	calls [][]byte
}

func newBoolTarget() *boolTarget {
	return &boolTarget{srcExec: newSrcExec(func(s *param.Source) Outcome {
		n := 0
		for range 4 {
			if s.Uintn(2, param.Structure) == 1 {
				n++
			}
		}
		s.Uint(1, param.Value)
		s.Bytes(10)
		hit(3000 + n)
		return Outcome{Result: Valid}
	})}
}

func (b *boolTarget) Exec(params []byte, ext uint64) Outcome {
	b.calls = append(b.calls, bytes.Clone(params))
	return b.srcExec.Exec(params, ext)
}

var boolParent = []byte{0, 1, 0, 1, 7, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}

// TestZeroChildBoolBits: a child is a zero mutation iff every parent draw
// decodes the same from the child's bytes: bit 1 of a Bool's byte is never
// read, bit 0 is; any change of a raw byte (domain N == 0) counts.
func TestZeroChildBoolBits(t *testing.T) {
	f := newTestFuzzer(t, "zest", newBoolTarget(), 100)
	p := &entry{data: bytes.Clone(boolParent)}
	f.keepRecord(p, nil)
	if len(p.rec.Draws) != 6 {
		t.Fatalf("parent record %+v", p.rec.Draws)
	}
	flip := func(child []byte, off int, bit uint) []byte {
		child = bytes.Clone(child)
		child[off] ^= 1 << bit
		return child
	}
	cases := []struct {
		name  string
		child []byte
		zero  bool
	}{
		{"identical", bytes.Clone(boolParent), true},
		{"bool bit 1", flip(boolParent, 1, 1), true},
		{"bool bits 1 and 7 of two bools", flip(flip(boolParent, 0, 1), 3, 7), true},
		{"bool bit 0", flip(boolParent, 2, 0), false},
		{"bool bit 1 and another's bit 0", flip(flip(boolParent, 0, 1), 3, 0), false},
		{"raw byte bit 1", flip(boolParent, 4, 1), false},
		{"string's last byte", flip(boolParent, 14, 1), false},
		{"longer, same prefix", append(flip(boolParent, 1, 1), 9, 9), true},
		{"shorter (undecided)", boolParent[:4], false},
	}
	for _, c := range cases {
		if got := f.met.zeroChild(p, c.child); got != c.zero {
			t.Errorf("%s %v: zero mutation %v, want %v", c.name, c.child, got, c.zero)
		}
	}
	// A record that does not cover the data draw after draw: undecided.
	q := &entry{data: append(bytes.Clone(boolParent), 0), rec: p.rec}
	if f.met.zeroChild(q, append(bytes.Clone(boolParent), 0)) {
		t.Error("parent whose record leaves a byte uncovered: decided")
	}
}

// scriptStrategy makes the children of one parent from a script, in turn.
type scriptStrategy struct {
	f        *fuzzer
	children [][]byte
	i        int
}

func (s *scriptStrategy) next(dst []byte) []byte {
	c := s.children[s.i%len(s.children)]
	s.i++
	return append(dst[:0], c...)
}

func (s *scriptStrategy) lastParent() *entry { return s.f.queue[0] }

// TestLoopSkipsZeroMutations: the loop does not execute a zero mutation,
// counts it, and does not count it as an execution (the -runs budget is
// spent on the other children).
func TestLoopSkipsZeroMutations(t *testing.T) {
	ex := newBoolTarget()
	const runs = 10
	f := newTestFuzzer(t, "zest", ex, runs)
	p := &entry{data: bytes.Clone(boolParent), valid: true}
	f.keepRecord(p, nil)
	f.queue = append(f.queue, p)
	zero := bytes.Clone(boolParent)
	zero[1] ^= 2
	other := bytes.Clone(boolParent)
	other[1] ^= 1
	f.strat = &scriptStrategy{f: f, children: [][]byte{zero, other}}
	ex.calls = nil
	rechecks := f.rechecks
	f.loop()
	if f.execs != runs {
		t.Errorf("%d executions, want %d", f.execs, runs)
	}
	for _, c := range ex.calls {
		if bytes.Equal(c, zero) {
			t.Fatalf("the zero mutation %v was executed", zero)
		}
	}
	if n := int64(len(ex.calls)); n != f.execs+f.rechecks-rechecks {
		t.Errorf("executor called %d times, want %d executions + %d rechecks", n, f.execs, f.rechecks-rechecks)
	}
	if f.met.zero != runs || f.met.children != 2*runs {
		t.Errorf("zero mutations %d of %d children, want %d of %d", f.met.zero, f.met.children, runs, 2*runs)
	}
	// The mutation distance of the one-Bool change was sampled: 1 of 6
	// choices differs.
	if f.met.distN != 1 || math.Abs(f.met.distSum-1.0/6) > 1e-12 {
		t.Errorf("distance samples %d sum %v, want 1 sample of 1/6", f.met.distN, f.met.distSum)
	}
}

// TestZeroStreakExecutes: a queue whose every child is a zero mutation
// still runs out its -runs budget (one in zeroStreakLimit+1 is executed).
func TestZeroStreakExecutes(t *testing.T) {
	ex := newBoolTarget()
	f := newTestFuzzer(t, "zest", ex, 3)
	p := &entry{data: bytes.Clone(boolParent), valid: true}
	f.keepRecord(p, nil)
	f.queue = append(f.queue, p)
	f.strat = &scriptStrategy{f: f, children: [][]byte{bytes.Clone(boolParent)}}
	f.loop()
	if f.execs != 3 || f.met.zero != 3*(zeroStreakLimit+1) || f.met.children != f.met.zero {
		t.Errorf("execs %d, zero mutations %d of %d children", f.execs, f.met.zero, f.met.children)
	}
}

// levenshtein is the textbook dynamic program, the reference for
// distPattern.edits.
func levenshtein(a, b []uint64) int {
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
				c = min(c, prev[j], cur[j-1]) + 1
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func toks(s string) []uint64 {
	t := make([]uint64, len(s))
	for i := range s {
		t[i] = uint64(s[i])
	}
	return t
}

func dist(a, b []uint64) float64 {
	var p distPattern
	p.build(a)
	return p.distance(b)
}

// TestMutationDistance: the normalized Levenshtein distance on worked
// examples, and the bit-parallel computation against the dynamic program
// on random sequences across block boundaries.
func TestMutationDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"", "", 0},
		{"abcdefgh", "abcdefgh", 0},
		{"abcdefgh", "abcxefgh", 1.0 / 8},
		{"kitten", "sitting", 3.0 / 7},
		{"", "abc", 1},
		{"abc", "", 1},
		{"flaw", "lawn", 2.0 / 4},
		{"abcdef", "abdef", 1.0 / 6},
	} {
		if got := dist(toks(c.a), toks(c.b)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("distance(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	r := rand.New(rand.NewSource(1))
	var p distPattern
	for it := 0; it < 600; it++ {
		n, m := r.Intn(200), r.Intn(200)
		if it%50 == 0 {
			n, m = 64*(1+r.Intn(4)), 64*(1+r.Intn(4))
		}
		alpha := 2 + r.Intn(6)
		a, b := make([]uint64, n), make([]uint64, m)
		for i := range a {
			a[i] = uint64(r.Intn(alpha))
		}
		for i := range b {
			b[i] = uint64(r.Intn(alpha))
			if i < n && r.Intn(3) > 0 {
				b[i] = a[i] // similar sequences, as children are
			}
		}
		p.build(a)
		if got, want := p.edits(b), levenshtein(a, b); got != want {
			t.Fatalf("edits(%v, %v) = %d, want %d", a, b, got, want)
		}
	}
}

// TestMutationDistanceFigure2: the choice-level distance of the Havoc
// Paradox paper's Figure 2 children. Parent (tokens V value, L has-left,
// R has-right): V1 L1 V2 L1 V4 L0 R0 R0 R1 V3 L0 R1 V5 L0 R0. The ei child
// removing the root's left child is V1 L0 R1 V3 L0 R1 V5 L0 R0, a
// subsequence of the parent: 6 edits of 15. The same byte changed at its
// offset re-reads the right subtree's bytes: V1 L0 R0, 12 edits of 15.
func TestMutationDistanceFigure2(t *testing.T) {
	var vals []figVal
	ex := figExec(&vals, false)
	f := newTestFuzzer(t, "ei", ex, 100)
	p := &entry{data: []byte{1, 1, 2, 1, 4, 0, 0, 0, 1, 3, 0, 1, 5, 0, 0}, valid: true}
	f.keepRecord(p, nil)
	g := newChildGuide(f.max)
	g.reset(p, []override{{index: p.rec.Draws[1].Index, bytes: []byte{0}}}, 9)
	out := f.execGuided(g)
	f.met.noteDistance(p, out.Record, out.Consumed)
	lin := bytes.Clone(p.data)
	lin[1] = 0
	ex.SetRecording(true)
	out = f.exec(lin)
	ex.SetRecording(false)
	f.met.noteDistance(p, out.Record, out.Consumed)
	if f.met.distN != 2 || math.Abs(f.met.distSum-(6.0/15+12.0/15)) > 1e-12 {
		t.Errorf("distances: %d samples, sum %v, want 6/15 + 12/15", f.met.distN, f.met.distSum)
	}
}

// readStatsFile parses the stats file of dir.
func readStatsFile(t *testing.T, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, workdir.StatsFile))
	if err != nil {
		t.Fatal(err)
	}
	st := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok {
			st[k] = v
		}
	}
	return st
}

// TestMetricsInStats: a scripted run's Hill numbers and zero-mutation
// share in stats and plot_data. The target lights edge 1, and edge 2 when
// its Bool is true: two unique traces, {1} and {1, 2}, so the abundances
// are 2 and 1: B0 = 2, B1 = exp(-(2/3 ln 2/3 + 1/3 ln 1/3)), B2 = 1.8.
func TestMetricsInStats(t *testing.T) {
	dir := t.TempDir()
	ex := newSrcExec(func(s *param.Source) Outcome {
		hit(1)
		if s.Uintn(2, param.Value) == 1 {
			hit(2)
		}
		return Outcome{Result: Valid}
	})
	run(t, Config{Engine: "zest", Seed: 1, Runs: 400, Workdir: dir}, ex)
	st := readStatsFile(t, dir)
	b1 := math.Exp(-(2.0/3*math.Log(2.0/3) + 1.0/3*math.Log(1.0/3)))
	want := map[string]string{"hill_b0": "2", "hill_b1": strconv.FormatFloat(b1, 'f', 3, 64), "hill_b2": "1.800", "execs": "400"}
	for k, v := range want {
		if st[k] != v {
			t.Errorf("stats %s: %q, want %q", k, st[k], v)
		}
	}
	// One byte read mod 2: a zest child rewriting it keeps bit 0 half of
	// the time (a zero mutation); the parents are one byte long.
	children, _ := strconv.ParseInt(st["children"], 10, 64)
	zeros, _ := strconv.ParseInt(st["zero_mutations_count"], 10, 64)
	share, _ := strconv.ParseFloat(st["zero_mutations"], 64)
	if children < 400 || zeros < children/4 || math.Abs(share-float64(zeros)/float64(children)) > 1e-4 {
		t.Errorf("children %d, zero mutations %d, share %v", children, zeros, share)
	}
	plot, err := os.ReadFile(filepath.Join(dir, workdir.PlotFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(plot)), "\n")
	cols := strings.Split(lines[len(lines)-1], ", ")
	head := strings.Split(strings.TrimPrefix(lines[0], "# "), ", ")
	if len(cols) != len(head) {
		t.Fatalf("plot row %q, header %q", cols, head)
	}
	row := map[string]string{}
	for i, h := range head {
		row[h] = cols[i]
	}
	if row["hill_b0"] != "2" || row["hill_b1"] != want["hill_b1"] || row["hill_b2"] != "1.800" ||
		row["zero_mutations"] != st["zero_mutations"] || row["mutation_distance_mean"] != st["mutation_distance_mean"] {
		t.Errorf("plot row %v, stats %v", row, st)
	}
}

// BenchmarkZeroCheck measures the zero-mutation check of a Zest child of
// a parent of 8 Bools and a 10-byte string (the child is made outside the
// timed part's figure by BenchmarkZeroCheckMutateOnly's subtraction).
func BenchmarkZeroCheck(b *testing.B) {
	f := newTestFuzzer(&testing.T{}, "zest", newBoolTarget(), 1)
	p := &entry{data: bytes.Clone(boolParent)}
	f.keepRecord(p, nil)
	r := newPRNG(1)
	var child []byte
	n := 0
	for i := 0; i < b.N; i++ {
		child = mutateZest(r, child, p.data)
		if f.met.zeroChild(p, child) {
			n++
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "zero/op")
}

// BenchmarkZeroCheckMutateOnly is BenchmarkZeroCheck without the check.
func BenchmarkZeroCheckMutateOnly(b *testing.B) {
	r := newPRNG(1)
	var child []byte
	for i := 0; i < b.N; i++ {
		child = mutateZest(r, child, boolParent)
	}
}

// TestRecordsOnlyForByteParents: the engines whose children are byte
// edits of a parent keep the records of queued inputs (for the zero
// mutation check); args, whose children are re-encoded typed edits and
// are not checked, keeps none.
func TestRecordsOnlyForByteParents(t *testing.T) {
	for _, c := range []struct {
		eng  string
		want bool
	}{{"zest", true}, {"bytes", true}, {"args", false}} {
		eng, want := c.eng, c.want
		f := newTestFuzzer(t, eng, newMaze(mazeKey, mazeMod, mazeValid), 10)
		f.startMetrics()
		if f.def.records != want || f.met.recordsSet != want {
			t.Errorf("%s: records %v (set by the metrics %v), want %v", eng, f.def.records, f.met.recordsSet, want)
		}
	}
}
