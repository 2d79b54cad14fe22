package engine

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// chainExec is the planted quadratic path of the perf example
// (testdata/examples/perf), simulated: the input is a list of up to 64
// words, each inserted into a 16-bucket hash table by chaining (the hash
// of the i-th word w is (w+i) mod 16, so that a run of equal words, what
// mutation makes easily, spreads evenly); an insertion walks its bucket's
// chain first. The walk is
// one edge (the same code for every bucket), hit once per chain step, so
// an input's path length is the sum over buckets of c(c-1)/2 for c words
// in the bucket: about 100 for random words, 2016 when all 64 collide.
// Coverage sees that edge's hit-count class only (its top class is 128+);
// perf sees its count. maxPath is the longest path executed so far.
type chainExec struct {
	src       *param.Source
	maxPath   uint64
	waypoints bool // also report the number of buckets used (Minimize) and the steps (Diverge)
}

func newChainExec() *chainExec { return &chainExec{src: param.New(nil, 0)} }

func (c *chainExec) Exec(params []byte, ext uint64) Outcome {
	c.src.Reset(params, ext)
	n := int(c.src.Uint(1, param.Value) % 65)
	var buckets [16]uint64
	var steps uint64
	for i := range n {
		b := (c.src.Uint(1, param.Value) + uint64(i)) % 16
		steps += buckets[b] // walk the chain
		buckets[b]++
		hit(3) // insert
	}
	hit(1)
	if steps > 0 {
		setCount(40, steps)
	}
	c.maxPath = max(c.maxPath, steps)
	out := Outcome{Result: Valid, Consumed: c.src.Consumed()}
	if c.waypoints {
		used := 0
		for _, b := range buckets {
			if b > 0 {
				used++
			}
		}
		out.Waypoints = []Waypoint{{Key: "buckets", Value: float64(used), Kind: Minimize}, {Key: "steps", Value: float64(steps), Kind: Diverge}}
	}
	return out
}

// chainMaxPath runs the chain target for runs executions with seed and
// feedback and returns the longest path executed.
func chainMaxPath(t testing.TB, seed, runs int64, feedback []string) uint64 {
	ex := newChainExec()
	run(t, Config{Engine: "zest", Seed: seed, Runs: runs, Workdir: t.TempDir(), Feedback: feedback, Timeout: NoTimeout}, ex)
	return ex.maxPath
}

// TestPerfDrivesQuadraticPath: on the planted quadratic path, zest with
// -feedback perf reaches a path length that zest alone does not reach in
// the same executions, for fixed seeds.
func TestPerfDrivesQuadraticPath(t *testing.T) {
	if os.Getenv("GFZ_PERF_MEASURE") != "" {
		for seed := int64(1); seed <= 5; seed++ {
			for _, runs := range []int64{5000, 20000, 50000} {
				z, p := chainMaxPath(t, seed, runs, nil), chainMaxPath(t, seed, runs, []string{"perf"})
				fmt.Printf("seed %d runs %d: zest %d, zest+perf %d\n", seed, runs, z, p)
			}
		}
		return
	}
	// Measured (docs/BENCHMARKS.md, "Feedback domains"): at 5000 runs,
	// zest's longest path is 167-180 and perf's 292-398 over seeds 1-5.
	const runs, reach = 5000, 240
	for seed := int64(1); seed <= 3; seed++ {
		if z := chainMaxPath(t, seed, runs, nil); z >= reach {
			t.Errorf("seed %d: zest alone reached path length %d >= %d in %d runs: the planted path is not hard for coverage", seed, z, reach, runs)
		}
		if p := chainMaxPath(t, seed, runs, []string{"perf"}); p < reach {
			t.Errorf("seed %d: zest with perf reached path length %d < %d in %d runs", seed, p, reach, runs)
		}
	}
}

// TestFeedbackDeterministic: a run with feedback domains (perf and the
// target's waypoints) is a function of its seed: two runs save the same
// corpus.
func TestFeedbackDeterministic(t *testing.T) {
	corpus := func() map[string]string {
		ex := newChainExec()
		ex.waypoints = true
		dir := t.TempDir()
		run(t, Config{Engine: "zest", Seed: 7, Runs: 3000, Workdir: dir, Feedback: []string{"perf", "diff"}, Timeout: NoTimeout}, ex)
		return dirContents(t, dir+"/corpus")
	}
	a, b := corpus(), corpus()
	if len(a) < 5 || fmt.Sprint(sortedKeys(a)) != fmt.Sprint(sortedKeys(b)) {
		t.Errorf("two runs with seed 7 saved %d and %d inputs, or different ones", len(a), len(b))
	}
}

// TestQuietSetup: the setup warning of -feedback perf without exact
// counts is printed by a run, and not by one told that another process
// prints it (Config.QuietSetup: every worker of a fuzz binary but slot
// 0's first process).
func TestQuietSetup(t *testing.T) {
	const warning = "-feedback perf: this binary counts edge hits modulo 256"
	for _, quiet := range []bool{false, true} {
		var status bytes.Buffer
		run(t, Config{Engine: "zest", Seed: 1, Runs: 10, Workdir: t.TempDir(), Feedback: []string{"perf"}, Timeout: NoTimeout, Status: &status, QuietSetup: quiet}, newChainExec())
		if got := strings.Contains(status.String(), warning); got == quiet {
			t.Errorf("QuietSetup %v: warning printed %v:\n%s", quiet, got, status.String())
		}
	}
}
