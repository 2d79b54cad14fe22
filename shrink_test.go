package gfz_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// The shrinker end to end: a failure found by engine.Run is saved shrunk,
// with the original kept and the report naming both.

var (
	digitsGen = gen.SliceOf(gen.IntRange(0, 9), 0, 20)
	textGen   = gen.StringRange(0, 16)
)

// fuzzSevenThree fails when the list holds 7 then 3 (and draws a string
// it does not look at).
func fuzzSevenThree(t *gfz.T) {
	xs := digitsGen.Draw(t)
	_ = textGen.Draw(t)
	for i := 0; i+1 < len(xs); i++ {
		if xs[i] == 7 && xs[i+1] == 3 {
			t.Fatalf("7 then 3 at %d", i)
		}
	}
}

// sevenThreeInput encodes [7,3,8,3,5,6,8,6,8] and a 14-byte string as
// parameter bytes: the list's length, its elements, the string's length
// and bytes (one byte each).
func sevenThreeInput() []byte {
	in := []byte{9, 7, 3, 8, 3, 5, 6, 8, 6, 8, 14}
	return append(in, "fourteen bytes"...)
}

// runSeed runs engine.Run over fn with the given seed input as its only
// seed and one execution, and returns the saved failure's input, report
// and the run's summary.
func runSeed(t *testing.T, fn func(*gfz.T), seed []byte, cfg engine.Config) (input []byte, report string, dir string) {
	t.Helper()
	cfg.Seed, cfg.Runs, cfg.Timeout = 1, 1, engine.NoTimeout
	cfg.Workdir, cfg.Seeds = t.TempDir(), [][]byte{seed}
	sum, err := engine.Run(context.Background(), cfg, gfz.NewExecutor(fn))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.FailureFiles) != 1 {
		t.Fatalf("%d failures saved, want 1 (summary %+v)", len(sum.FailureFiles), sum)
	}
	path := sum.FailureFiles[0]
	in, err := workdir.ReadInputFile(path)
	if err != nil {
		t.Fatal(err)
	}
	txt, err := os.ReadFile(strings.TrimSuffix(path, ".input") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return in, string(txt), filepath.Dir(path)
}

func TestShrinkListAndString(t *testing.T) {
	orig := sevenThreeInput()
	in, rep, _ := runSeed(t, fuzzSevenThree, orig, engine.Config{Engine: "zest"})
	// [7,3] and the empty string: length 2, 7, 3, string length 0.
	if want := []byte{2, 7, 3, 0}; string(in) != string(want) {
		t.Errorf("shrunk input %v, want %v\n%s", in, want, rep)
	}
	// The report: sizes in bytes and in choices (draws: the list's
	// length, 7, 3, the string's length and its empty byte run), the
	// shrunk values, and where the original is kept, with its values.
	for _, want := range []string{
		"shrunk: 25 -> 4 bytes, 12 -> 5 choices, ",
		"\tSliceOf = []int{7, 3}\n\tString = \"\"\n",
		"original value (before shrinking):\n\tSliceOf = []int{7, 3, 8, 3, 5, 6, 8, 6, 8}\n\tString = \"fourteen bytes\"",
		"params (hex):\n\t02070300\n",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	// The original is kept next to the shrunk input, readable by -repro.
	m := regexp.MustCompile(`original input: (\S+)`).FindStringSubmatch(rep)
	if m == nil {
		t.Fatalf("report names no original input:\n%s", rep)
	}
	if got, err := workdir.ReadInputFile(m[1]); err != nil || string(got) != string(orig) {
		t.Errorf("original kept as %v (%v), want %v", got, err, orig)
	}
}

var (
	intGen   = gen.Int()
	smallGen = gen.IntRange(0, 1000)
)

// fuzzAbove50 fails when a > 50 (a is an 8-byte Int, b a 2-byte IntRange
// it does not look at).
func fuzzAbove50(t *gfz.T) {
	a := intGen.Draw(t)
	_ = smallGen.Draw(t)
	if a > 50 {
		t.Fatalf("a = %d", a)
	}
}

func TestShrinkBoundary(t *testing.T) {
	// a = 99 + 256*3 = 867, b = 999.
	seed := []byte{99, 3, 0, 0, 0, 0, 0, 0, 0xe7, 0x03}
	in, rep, _ := runSeed(t, fuzzAbove50, seed, engine.Config{Engine: "zest"})
	if want := []byte{51, 0, 0, 0, 0, 0, 0, 0, 0, 0}; string(in) != string(want) {
		t.Errorf("shrunk input %v, want %v (a = 51, b = 0)\n%s", in, want, rep)
	}
	// The values and the message are the shrunk input's.
	if !strings.Contains(rep, "\tInt = 51\n") || !strings.Contains(rep, "a = 51\n") || strings.Contains(rep, "a = 867\n") {
		t.Errorf("report does not show a = 51:\n%s", rep)
	}
}

// fuzzTwoSites fails at one line for 50 < a < 60 and at another for
// a >= 60: shrinking a failure of the second kind must keep it.
func fuzzTwoSites(t *gfz.T) {
	a := intGen.Draw(t)
	switch {
	case a > 50 && a < 60:
		t.Fatalf("small a = %d", a)
	case a >= 60:
		t.Fatalf("large a = %d", a)
	}
}

func TestShrinkKeepsSignature(t *testing.T) {
	in, rep, _ := runSeed(t, fuzzTwoSites, []byte{99, 0, 0, 0, 0, 0, 0, 0}, engine.Config{Engine: "zest"})
	if in[0] != 60 {
		t.Errorf("shrunk to a = %d, want 60: a candidate failing at the other line was kept\n%s", in[0], rep)
	}
	if !strings.Contains(rep, "large a = 60") {
		t.Errorf("report is not the second site's:\n%s", rep)
	}
}

// TestShrinkRunsBound: -shrinkruns N runs at most N candidates, and the
// same input with the same bound shrinks to the same result.
func TestShrinkRunsBound(t *testing.T) {
	const n = 12
	var calls int
	fn := func(t *gfz.T) { calls++; fuzzSevenThree(t) }
	calls = 0
	runSeed(t, fn, sevenThreeInput(), engine.Config{Engine: "zest", ShrinkRuns: engine.NoShrink})
	base := calls
	calls = 0
	in1, rep, _ := runSeed(t, fn, sevenThreeInput(), engine.Config{Engine: "zest", ShrinkRuns: n})
	// The shrink's candidates, plus two re-runs of the shrunk input (its
	// message and stack, its values).
	if got := calls - base; got != n+2 {
		t.Errorf("%d executions with -shrinkruns %d beyond a run without shrinking, want %d", got, n, n+2)
	}
	if !strings.Contains(rep, "stopped early: execution bound reached") || !strings.Contains(rep, "12 executions") {
		t.Errorf("report does not say the bound stopped the shrink:\n%s", rep)
	}
	in2, _, _ := runSeed(t, fn, sevenThreeInput(), engine.Config{Engine: "zest", ShrinkRuns: n})
	t.Logf("bounded shrink: %v", in1)
	if string(in1) != string(in2) || len(in1) >= len(sevenThreeInput()) {
		t.Errorf("bounded shrinks gave %v then %v (from %v)", in1, in2, sevenThreeInput())
	}
}

func TestShrinkOff(t *testing.T) {
	in, rep, dir := runSeed(t, fuzzSevenThree, sevenThreeInput(), engine.Config{Engine: "zest", ShrinkTime: engine.NoShrink})
	if string(in) != string(sevenThreeInput()) || strings.Contains(rep, "shrunk") {
		t.Errorf("with shrinking off the input was changed to %v or the report mentions it:\n%s", in, rep)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.original")); len(m) != 0 {
		t.Errorf("with shrinking off, %v were written", m)
	}
}

// TestShrinkDeath: a failure that kills the worker (os.Exit, a hang) is
// shrunk by the supervisor in -repro processes: the maze bytes the death
// does not depend on become zeros, k (a byte taken modulo 32, found as
// 199 with seed 3) becomes 7, the original is kept, and the shrunk input
// still dies the same way.
func TestShrinkDeath(t *testing.T) {
	bin := crashersBinary(t)
	for _, c := range []struct {
		target, kind string
		args         []string
	}{
		{"FuzzExit", "exit status 3", nil},
		// Every candidate that hangs costs the timeout.
		{"FuzzHang", "timeout", []string{"-timeout", "500ms"}},
	} {
		t.Run(c.target, func(t *testing.T) {
			t.Parallel() // independent runs, each in its own work directory
			wd := filepath.Join(t.TempDir(), "wd")
			args := append([]string{"-workers", "1", "-seed", "3", "-runs", "300", "-workdir", wd}, c.args...)
			out, code := runBin(t, bin, append(args, c.target)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, out)
			}
			inputs, _ := filepath.Glob(filepath.Join(wd, "failures", "*.input"))
			if len(inputs) != 1 {
				t.Fatalf("inputs %v\n%s", inputs, out)
			}
			in, err := workdir.ReadInputFile(inputs[0])
			if err != nil {
				t.Fatal(err)
			}
			if want := []byte{7, 0, 0, 0, 0}; string(in) != string(want) {
				t.Errorf("shrunk death input %v, want %v\n%s", in, want, out)
			}
			rep, err := os.ReadFile(strings.TrimSuffix(inputs[0], ".input") + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"\nkind: " + c.kind + "\n", "\nshrunk: 5 -> 5 bytes (same size, values made simpler), ", " (each a -repro process) ", "\nvalue:\n\tk = 7\n\tByte = 0x0\n", "original input: "} {
				if !strings.Contains(string(rep), want) {
					t.Errorf("report lacks %q:\n%s", want, rep)
				}
			}
			if !strings.Contains(out, "\tshrunk: 5 -> 5 bytes") {
				t.Errorf("the new-failure message does not say it shrank:\n%s", out)
			}
			orig, err := workdir.ReadInputFile(strings.TrimSuffix(inputs[0], ".input") + ".original")
			if err != nil || len(orig) != 5 || orig[0]%32 != 7 || string(orig) == string(in) {
				t.Errorf("original %v (%v): want the unshrunk 5 bytes", orig, err)
			}
			rout, rcode := runBin(t, bin, append(c.args, "-repro", inputs[0], c.target)...)
			if rcode != 1 || !strings.Contains(rout, "kind: "+c.kind) {
				t.Errorf("-repro of the shrunk input: exit %d\n%s", rcode, rout)
			}
		})
	}
}

// TestShrinkLeavesLoopAlone: shrinking a failure does not change the
// fuzzing that follows: with and without shrinking, the same seed and
// budget give the same corpus, coverage and counts (zest, and ei, whose
// children are guided executions).
func TestShrinkLeavesLoopAlone(t *testing.T) {
	for _, eng := range []string{"zest", "ei"} {
		var corpora [2]string
		var sums [2]engine.Summary
		for i, runs := range []int64{engine.NoShrink, 0} {
			dir := t.TempDir()
			cfg := engine.Config{Engine: eng, Seed: 2, Runs: 20_000, Workdir: dir, Timeout: engine.NoTimeout, ShrinkRuns: runs}
			sum, err := engine.Run(context.Background(), cfg, gfz.NewExecutor(fuzzSevenThree))
			if err != nil {
				t.Fatal(err)
			}
			if sum.NewFailures != 1 {
				t.Fatalf("%s: %d new failures, want the planted one", eng, sum.NewFailures)
			}
			ents, _ := os.ReadDir(filepath.Join(dir, "corpus"))
			for _, e := range ents {
				corpora[i] += e.Name() + " "
			}
			sums[i] = *sum
		}
		a, b := sums[0], sums[1]
		if corpora[0] != corpora[1] || a.Execs != b.Execs || a.Valid != b.Valid || a.TotalCov != b.TotalCov || a.ValidCov != b.ValidCov {
			t.Errorf("%s: the run differs with shrinking on:\n%+v\n%+v\ncorpus %s\ncorpus %s", eng, a, b, corpora[0], corpora[1])
		}
	}
}
