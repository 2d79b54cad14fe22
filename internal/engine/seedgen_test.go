package engine

import (
	"bytes"
	"context"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/param"
)

func poolOf(sf *seedFilter, seqs ...[]byte) {
	for _, s := range seqs {
		sf.add(s, nil)
	}
}

// TestSeedFilterRND: rnd picks n distinct candidates uniformly, the same
// ones for the same seed.
func TestSeedFilterRND(t *testing.T) {
	const N, n, trials = 20, 5, 4000
	counts := make([]int, N)
	for trial := 0; trial < trials; trial++ {
		sf, _ := newSeedFilter("rnd", newPRNG(int64(trial)))
		for i := 0; i < N; i++ {
			sf.add([]byte{byte(i)}, nil)
		}
		got := sf.pick(n)
		if len(got) != n {
			t.Fatalf("picked %d, want %d", len(got), n)
		}
		seen := map[byte]bool{}
		for _, s := range got {
			if seen[s[0]] {
				t.Fatalf("picked %d twice", s[0])
			}
			seen[s[0]] = true
			counts[s[0]]++
		}
	}
	want := float64(trials * n / N) // 1000
	for i, c := range counts {
		if math.Abs(float64(c)-want) > 0.15*want {
			t.Errorf("candidate %d picked %d times in %d trials, want about %.0f", i, c, trials, want)
		}
	}
	a, _ := newSeedFilter("", newPRNG(9))
	b, _ := newSeedFilter("rnd", newPRNG(9))
	for i := 0; i < 100; i++ {
		a.add([]byte{byte(i)}, nil)
		b.add([]byte{byte(i)}, nil)
	}
	pa, pb := a.pick(10), b.pick(10)
	for i := range pa {
		if !bytes.Equal(pa[i], pb[i]) {
			t.Fatalf("same seed, different picks: %v and %v", pa, pb)
		}
	}
}

// The thesis's example parameter sequences (section 4.2).
var (
	parSeq1 = []byte{0, 6, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 153, 1, 6, 0, 0, 0}
	parSeq2 = []byte{1, 3, 0, 0, 0, 1}
	parSeq3 = []byte{0, 6, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 160, 1, 6, 0, 0, 0}
)

// TestSeedFilterPAR pins Algorithm 2: prefix similarity with the +0.5
// (skip one byte) and +2 (skip four) exceptions, normalised by the
// candidate's length; par picks the least similar candidate.
func TestSeedFilterPAR(t *testing.T) {
	chosen := [][]byte{parSeq1}
	// seq2: bytes 0 and 1 differ, byte 4 matches: +2, then byte 5
	// differs with nothing to skip to: 2/6.
	if got := parSimilarity(parSeq2, chosen); math.Abs(got-2.0/6) > 1e-9 {
		t.Errorf("similarity of seq2 = %v, want 2/6", got)
	}
	// seq3: 19 bytes equal, byte 19 differs and byte 20 matches (+0.5,
	// skip to 21), 4 more equal: 23.5/25.
	if got := parSimilarity(parSeq3, chosen); math.Abs(got-23.5/25) > 1e-9 {
		t.Errorf("similarity of seq3 = %v, want 23.5/25", got)
	}
	if got := parSimilarity(parSeq3, [][]byte{parSeq1, parSeq1}); math.Abs(got-2*23.5/25) > 1e-9 {
		t.Errorf("similarity to two chosen = %v, want the sum", got)
	}
	// Picking 2 of {seq1, seq3, seq2}: seq1 and seq3 are near-duplicates,
	// so they are never both picked, whichever comes first.
	for seed := int64(0); seed < 50; seed++ {
		sf, _ := newSeedFilter("par", newPRNG(seed))
		poolOf(sf, parSeq1, parSeq3, parSeq2)
		got := sf.pick(2)
		if len(got) != 2 {
			t.Fatalf("picked %d", len(got))
		}
		has := func(s []byte) bool { return bytes.Equal(got[0], s) || bytes.Equal(got[1], s) }
		if has(parSeq1) && has(parSeq3) {
			t.Fatalf("seed %d: par picked the two similar sequences", seed)
		}
	}
}

// TestSeedFilterCHO pins Algorithm 3 on the thesis's example (Table 1):
// cosine similarity of bigram counts, 0.7746 for sequences 1 and 2,
// 0.6736 for 1 and 3, so 3 is picked; and only the last 100 chosen count.
func TestSeedFilterCHO(t *testing.T) {
	const (
		st = iota + 1
		ex
		lit
		idx
		bin
		minus
		ident
	)
	s1 := newBigrams([]uint64{st, ex, lit, idx, ex, bin, minus, ex, ident, ex, lit})
	s2 := newBigrams([]uint64{st, ex, lit, idx, ex, ident})
	s3 := newBigrams([]uint64{st, ex, bin, minus, ex, ident, ex, ident})
	if got, want := s2.cosine(&s1), 6/(math.Sqrt(12)*math.Sqrt(5)); math.Abs(got-want) > 1e-9 || math.Abs(got-0.7746) > 1e-4 {
		t.Errorf("cosine(1, 2) = %v, want %v", got, want)
	}
	if got, want := s3.cosine(&s1), 7/(3*math.Sqrt(12)); math.Abs(got-want) > 1e-9 {
		t.Errorf("cosine(1, 3) = %v, want %v", got, want)
	}
	// The window: an identical sequence chosen 101 picks ago no longer
	// counts; 100 picks ago it does.
	other := newBigrams([]uint64{100, 101, 102})
	for _, k := range []int{99, 100} {
		chosen := []*bigrams{&s1}
		for i := 0; i < k; i++ {
			chosen = append(chosen, &other)
		}
		got := choSimilarity(&s1, chosen)
		if want := map[int]float64{99: 1, 100: 0}[k]; math.Abs(got-want) > 1e-9 {
			t.Errorf("%d chosen after the identical one: similarity %v, want %v", k, got, want)
		}
	}
	// Through pick: with seq1 first (the only one whose record differs
	// from both others), seq3 is chosen over seq2.
	rec := func(seq []uint64) (*param.Record, []byte) {
		r := &param.Record{}
		data := make([]byte, len(seq))
		for i, s := range seq {
			r.Draws = append(r.Draws, param.Draw{Offset: int32(i), Width: 1, N: 1000, Site: s}) // large domain: the site is the choice
		}
		return r, data
	}
	for seed := int64(0); seed < 40; seed++ {
		sf, _ := newSeedFilter("cho", newPRNG(seed))
		r1, d1 := rec([]uint64{st, ex, lit, idx, ex, bin, minus, ex, ident, ex, lit})
		if sf.pick(0) != nil {
			t.Fatal("pick(0) picked")
		}
		sf.add(append(d1, 1), r1)
		r2, d2 := rec([]uint64{st, ex, lit, idx, ex, ident})
		sf.add(append(d2, 2), r2)
		r3, d3 := rec([]uint64{st, ex, bin, minus, ex, ident, ex, ident})
		sf.add(append(d3, 3), r3)
		got := sf.pick(2)
		if len(got) != 2 {
			t.Fatalf("picked %d", len(got))
		}
		last := func(b []byte) byte { return b[len(b)-1] }
		if last(got[0]) == 1 && last(got[1]) != 3 {
			t.Fatalf("seed %d: after seq1, cho picked seq%d, want seq3", seed, last(got[1]))
		}
	}
}

// TestSeedFilterCOV pins Algorithm 4: a candidate is kept iff it adds
// generator coverage (a small-domain site with a new value, or a new
// large-domain site; a large-domain value is no coverage).
func TestSeedFilterCOV(t *testing.T) {
	sf, _ := newSeedFilter("cov", newPRNG(1))
	mk := func(small, large byte, site uint64) ([]byte, *param.Record) {
		return []byte{small, large}, &param.Record{Draws: []param.Draw{
			{Offset: 0, Width: 1, N: 2, Site: 1},
			{Offset: 1, Width: 4, N: 0, Site: site},
		}}
	}
	steps := []struct {
		small, large byte
		site         uint64
		keep         bool
	}{
		{0, 7, 2, true},  // first: everything is new
		{0, 9, 2, false}, // only the large-domain value differs
		{1, 9, 2, true},  // the Bool at site 1 takes a new value
		{1, 7, 2, false}, // nothing new
		{0, 0, 3, true},  // a new site
	}
	for i, s := range steps {
		before := len(sf.kept)
		data, rec := mk(s.small, s.large, s.site)
		sf.add(data, rec)
		if kept := len(sf.kept) > before; kept != s.keep {
			t.Fatalf("step %d: kept %v, want %v", i, kept, s.keep)
		}
	}
	if got := sf.pick(1); len(got) != 3 {
		t.Fatalf("cov picked %d seeds, want its 3 (no count)", len(got))
	}
}

// TestSeedGenPhaseSplit: with Runs and SeedGenRuns the phase runs exactly
// SeedGenRuns executions of the seed engine (rl: guided executions), the
// campaign's engine gets the rest (exactly Runs in all), and the seed
// count is 5% of the executions left after the phase.
func TestSeedGenPhaseSplit(t *testing.T) {
	for _, filter := range SeedFilters {
		g := newBSTGen()
		ex := &countingExec{srcExec: newSrcExec(g.run)}
		var status strings.Builder
		sum := run(t, Config{Engine: "zest", Seed: 3, Runs: 3000, SeedGenRuns: 1000, SeedFilter: filter,
			Workdir: t.TempDir(), Status: &status}, ex)
		if sum.Execs != 3000 || ex.guided != 1000 {
			t.Fatalf("%s: %d executions, %d in the phase; want 3000 and 1000", filter, sum.Execs, ex.guided)
		}
		m := regexp.MustCompile(`seed generation: rl for 1000 executions \((\d+) valid\).*filter (\w+) picked (\d+) seeds`).FindStringSubmatch(status.String())
		if m == nil {
			t.Fatalf("%s: no seed generation line in\n%s", filter, status.String())
		}
		if m[2] != filter || filter != "cov" && m[3] != "100" {
			t.Fatalf("%s: %q, want filter %s and 100 seeds (5%% of 2000)", filter, m[0], filter)
		}
		if sum.Corpus == 0 {
			t.Fatalf("%s: empty corpus", filter)
		}
	}
}

// TestSeedGenRandomEngine: the phase can use random generation.
func TestSeedGenRandomEngine(t *testing.T) {
	g := newBSTGen()
	ex := &countingExec{srcExec: newSrcExec(g.run)}
	var status strings.Builder
	sum := run(t, Config{Engine: "zest", Seed: 3, Runs: 2000, SeedGenRuns: 500, SeedGenEngine: "random",
		Workdir: t.TempDir(), Status: &status}, ex)
	if sum.Execs != 2000 || ex.guided != 0 || !strings.Contains(status.String(), "seed generation: random for 500 executions") {
		t.Fatalf("%d executions, %d guided; status:\n%s", sum.Execs, ex.guided, status.String())
	}
	for _, bad := range []Config{{SeedGenRuns: 5, SeedGenEngine: "zest"}, {SeedGenRuns: 5, SeedFilter: "xyz"}} {
		bad.Workdir, bad.Runs = t.TempDir(), 10
		if _, err := Run(context.Background(), bad, newSrcExec(newBSTGen().run)); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

type countingExec struct {
	*srcExec
	guided int
}

func (c *countingExec) ExecGuided(g param.Guide, ext uint64) Outcome {
	c.guided++
	return c.srcExec.ExecGuided(g, ext)
}

// TestSeedGenDuration: a phase bounded by time (SeedGen) ends by itself
// and its executions count in Runs.
func TestSeedGenDuration(t *testing.T) {
	var status strings.Builder
	sum := run(t, Config{Engine: "zest", Seed: 1, Runs: 1500, SeedGen: 20 * time.Millisecond,
		Workdir: t.TempDir(), Status: &status}, newSrcExec(newBSTGen().run))
	if sum.Execs != 1500 || !strings.Contains(status.String(), "seed generation: rl for ") {
		t.Fatalf("%d executions; status:\n%s", sum.Execs, status.String())
	}
}
