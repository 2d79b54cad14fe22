package gfz

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Random checks under plain go test.
//
// Plain go test replays a target's seeds and testdata/fuzz files only. With
// -gfz.checks=N (or GFZ_CHECKS=N in the environment) it then runs N random
// inputs per target, each drawn from a PRNG seeded by the run's seed and
// the input's number: -gfz.seed=S (or GFZ_SEED=S), by default a new seed
// per run, printed in the test's log. The default is 0 (off): go test stays
// a fast, deterministic regression run unless asked for more (a random
// check that fails once and passes on the next run is a flaky CI job
// unless its seed is kept), and random inputs are what the fuzz binary
// does far better, with coverage feedback.

// Environment variables that set the checks when the flags are not given.
const (
	checksEnv = "GFZ_CHECKS"
	seedEnv   = "GFZ_SEED"
)

// checksFlag and seedFlag are the test binary's -gfz.checks and -gfz.seed,
// registered only in test binaries that are not fuzz binaries (nil
// otherwise).
var (
	checksFlag *int
	seedFlag   *string
)

func init() {
	if buildInfo != "" || !testing.Testing() {
		return
	}
	checksFlag = flag.Int("gfz.checks", 0, "run `N` random inputs per gfz target after its seeds (plain go test only; default $"+checksEnv+", else 0)")
	seedFlag = flag.String("gfz.seed", "", "seed of the random inputs of -gfz.checks (`uint64`; default $"+seedEnv+", else a new one per run, printed)")
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkConfig returns the number of random checks and their seed, from
// the flags, else the environment. seedGiven tells whether the seed was
// set (otherwise it is new for this run).
func checkConfig() (n int, seed uint64, err error) {
	if checksFlag == nil {
		return 0, 0, nil
	}
	n = *checksFlag
	if !flagSet("gfz.checks") {
		if v := os.Getenv(checksEnv); v != "" {
			n, err = strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return 0, 0, fmt.Errorf("%s=%q is not a number of random checks; set it to an integer >= 0", checksEnv, v)
			}
		}
	}
	if n < 0 {
		return 0, 0, fmt.Errorf("%d random checks asked for (-gfz.checks or %s); want a number >= 0", n, checksEnv)
	}
	if n == 0 {
		return 0, 0, nil
	}
	s, from := *seedFlag, "-gfz.seed"
	if !flagSet("gfz.seed") {
		s, from = os.Getenv(seedEnv), seedEnv
	}
	if s = strings.TrimSpace(s); s == "" {
		return n, param.Mix(uint64(time.Now().UnixNano()), uint64(os.Getpid())), nil
	}
	seed, err = strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("%s %q is not a seed; want an unsigned 64-bit integer", from, s)
	}
	return n, seed, nil
}

// checkSeed is the PRNG seed of random check i: input i reads only PRNG
// bytes (param.Source with no data), seeded by this.
func checkSeed(seed uint64, i int) uint64 { return param.Mix(seed, uint64(i)) }

// runChecks runs the random checks of target fn under plain go test, after
// its seeds (f.Fuzz has returned). It stops at the first failing input and
// reports it with f.Error: its message, values, stack, and the
// testdata/fuzz file that replays it.
func runChecks(f *testing.F, fn func(*T)) {
	f.Helper()
	n, seed, err := checkConfig()
	if err != nil {
		f.Fatalf("gfz: %v", err)
	}
	if n == 0 || f.Failed() {
		return
	}
	repeat := fmt.Sprintf("-gfz.checks=%d -gfz.seed=%d (or %s=%d %s=%d)", n, seed, checksEnv, n, seedEnv, seed)
	ex := newExecutor(fn, 0)
	type result struct {
		i       int
		out     engine.Outcome
		data    []byte
		invalid int
	}
	done := make(chan result, 1)
	go func() {
		// In its own goroutine: a target that calls runtime.Goexit ends
		// this goroutine, not the test's.
		r := result{i: -1}
		defer func() { done <- r }()
		for i := range n {
			r.i = i
			out := ex.Exec(nil, checkSeed(seed, i))
			if out.Result == engine.Invalid {
				r.invalid++
			}
			if out.Result == engine.Failure {
				r.out, r.data = out, append([]byte(nil), out.Consumed...)
				return
			}
		}
		r.i = n
	}()
	r := <-done
	switch {
	case r.i < n && r.out.Failure == nil:
		f.Errorf("gfz: random check %d of %d ended the fuzz function's goroutine (runtime.Goexit); repeat with %s", r.i+1, n, repeat)
	case r.i < n:
		fi := r.out.Failure
		values, ok := ex.DescribeValues(r.data, 0, fi.Signature)
		if !ok {
			values = "(the input did not fail the same way when replayed from its bytes: the target is not deterministic)\n"
		}
		name := "gfz-check-" + hashName(r.data)
		var b strings.Builder
		fmt.Fprintf(&b, "gfz: random check %d of %d failed (seed %d): %s\n", r.i+1, n, seed, fi.Kind)
		if fi.Message != "" {
			fmt.Fprintf(&b, "message:\n%s", indentBlock(fi.Message))
		}
		fmt.Fprintf(&b, "generated values:\n%s", indentBlock(values))
		if fi.Stack != "" {
			fmt.Fprintf(&b, "stack:\n%s", indentBlock(fi.Stack))
		}
		fmt.Fprintf(&b, "to keep it as a regression test, save these two lines as testdata/fuzz/%s/%s:\n%s", f.Name(), name, indentBlock(string(workdir.EncodeInput(r.data))))
		fmt.Fprintf(&b, "or repeat the checks with %s", repeat)
		f.Error(b.String())
	default:
		f.Logf("gfz: %d random checks passed (%d invalid); seed %d, repeat with %s", n, r.invalid, seed, repeat)
	}
}

// hashName names an input file by its bytes.
func hashName(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:8])
}

// indentBlock indents every line of s by a tab and ends it with a newline.
func indentBlock(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t") + "\n"
}
