// Package gfz is a generator-based, coverage-guided fuzzer for Go.
//
// A gfz fuzz target is an ordinary Go fuzz test whose body draws structured
// values from generators (package generators, imported as gen) instead of
// decoding raw bytes by hand:
//
//	func FuzzModel(f *testing.F) {
//		gfz.Fuzz(f, func(t *gfz.T) {
//			doc := gen.SliceOf(gen.IntRange(0, 9), 0, 20).Draw(t)
//			m, err := model.Parse(doc)
//			t.Assume(err == nil) // invalid input: not a failure
//			if m.Check() != nil {
//				t.Fatalf("...") // a failure; so is any panic
//			}
//		})
//	}
//
// Generators decode a parameter sequence (bytes) into values; mutating the
// bytes mutates the generated value structurally. The same target runs
// three ways:
//
//  1. go test replays the seeds added with f.Add([]byte{...}) and the files
//     in testdata/fuzz/FuzzModel/, so every failure gfz saves becomes a
//     regression test that needs nothing but the go command (a failing
//     input logs the values it generated, as they were drawn); with
//     -gfz.checks=N (or GFZ_CHECKS=N) it also tries N random inputs per
//     target, reproducibly from -gfz.seed (see Fuzz);
//  2. go test -fuzz=FuzzModel lets Go's native fuzzer mutate the parameter
//     bytes;
//  3. the fuzz binary built by gfz-build runs gfz's own engines (Zest
//     validity fuzzing by default) with coverage from gfz's instrumentation.
//     Run it with -h for its flags.
//
// In modes 1 and 2 every execution reads its bytes through param.New(data,
// 0): past the end of data the source is extended by a PRNG seeded with 0.
//
// # Stateful tests
//
// T.Repeat runs a generated sequence of named actions against the state
// the fuzz function set up, checking the invariant under the key "" after
// each step (model-based testing, as pgregory.net/rapid's T.Repeat); see
// Repeat for how the steps are drawn, skipped and reported.
//
// # Outcomes
//
// An execution is VALID when the function returns, INVALID when an
// assumption fails (Assume(false), Skip, Skipf, SkipNow, a generator
// reading past the parameter cap, or more generator calls than
// param.CallsPerByte per byte of the cap), and a FAILURE on Error, Errorf, Fail,
// Fatal, Fatalf, FailNow or any panic. Failures are deduplicated by a
// signature: the panic kind with the numbers of its message replaced by N
// (or "fatal" for t.Fatal/t.Error) plus the top three frames of the user's
// code ("function file.go:line", skipping the runtime, testing, gfz and
// functions marked with T.Helper).
//
// # The fuzz binary
//
//	./x.gfz [flags] [FuzzTarget]
//
// runs one target (the only one, or the one named) with gfz's engine. The
// process started is a supervisor: it runs the engine in -workers worker
// processes (the same binary, re-executed), which share coverage through
// the corpus directory. Each worker publishes the input it is about to run
// in shared memory, so when a worker dies — a panic in a goroutine the
// target started, a fatal error such as concurrent map writes or a stack
// overflow, os.Exit or runtime.Goexit called by the target, a signal, a
// hang past -timeout, memory above -rss_limit_mb — the supervisor saves that
// input as a failure and restarts the worker.
//
// Flags: -list lists the targets; -time D and -runs N (total over all
// workers) bound the run; -workdir DIR (default: one per package and target
// in gfz's cache, $GFZCACHE or the user's cache directory, never in the
// source tree) holds corpus/, failures/, plot_data and stats and is resumed
// when it exists; -seed N (default 1, not negative) seeds every random
// choice, and with -workers 1
// the same seed, binary and -runs give the same run; -workers N (default
// one per CPU); -engine zest|bytes|random|ei|...; -timeout D per input (default
// auto, calibrated from measured execution times; 0: none; durations need
// a unit, as for -time); -rss_limit_mb N (default 2048; 0: none; at least
// 32, more for a coverage map above 1 MiB); -coverprofile FILE writes a go tool cover profile at the end; -v;
// -repro FILE... re-runs saved inputs in a child process and prints the
// generated values as drawn, the result, the message, the signature and
// the stack; it stops an input after -timeout, and an input that kills the
// process (os.Exit, a fatal error) is reported with the values drawn
// before and what killed it. The seed corpus is the target's f.Add seeds
// plus testdata/fuzz/<FuzzTarget>/ relative to the current directory; a
// seed that is not a single []byte is refused at start. Exit
// status: 0 when nothing failed, 1 when the run found a new failure (or a
// -repro input failed), 2 for usage and setup errors (including a target
// that does not call gfz.Fuzz) and when something found could not be saved.
package gfz

import (
	"errors"
	"flag"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/userdict"
	"github.com/gfz-dev/gfz/param"
)

// buildInfo is set by gfz-build with
// -ldflags "-X github.com/gfz-dev/gfz.buildInfo=v=1&targets=...". When it is
// non-empty the test binary is a fuzz binary (see driver.go and package
// internal/driver).
var buildInfo string

// Fuzz runs fn as the fuzz target f. Seeds added with f.Add before Fuzz
// must be single []byte values (parameter sequences).
//
// Under go test (with or without -fuzz) Fuzz calls f.Fuzz with a function
// of the parameter bytes: an input whose assumption fails (Assume(false),
// Skip, or a generator drawing past the parameter cap) passes; Error and
// Fatal fail the test with their messages; panics propagate to the testing
// package. A failing input also logs its generated values. Under plain go
// test with -gfz.checks=N (or GFZ_CHECKS=N), Fuzz then runs N random
// inputs, from the seed -gfz.seed (or GFZ_SEED; by default a new one, shown
// in the log), and fails the test at the first that fails, with its
// values and the testdata/fuzz file that replays it. In a fuzz binary,
// Fuzz runs gfz's engine (or -repro) and exits the process.
func Fuzz(f *testing.F, fn func(*T)) {
	f.Helper()
	if driver.Active() {
		driver.Fuzz(f, target{fn})
		return
	}
	// Replaying seeds, values are formatted as drawn (a value the target
	// modifies is shown as it was generated); under go test -fuzz they
	// are formatted only when an input fails, to keep executions cheap.
	eager := !fuzzing()
	f.Fuzz(func(tt *testing.T, data []byte) {
		if eager {
			defer replayDictionary(tt)()
		}
		t := &T{src: param.New(data, 0), tt: tt, eager: eager}
		runTest(t, fn)
	})
	if !fuzzing() {
		runChecks(f, fn) // -gfz.checks: random inputs after the seeds
	}
}

// replayDictionary installs, while plain go test replays the corpus file
// testdata/fuzz/<FuzzTarget>/<name> (the subtest tt), the dictionary the
// fuzz binary's -regress wrote for it in testdata/gfzdict/<FuzzTarget>/<name>,
// if there is one: generators that draw dictionary tokens then decode the
// input into the values that failed in the fuzz binary. It returns the
// function that removes it again. A dictionary file that cannot be read
// fails the input, naming the file.
func replayDictionary(tt *testing.T) (restore func()) {
	target, name, ok := strings.Cut(tt.Name(), "/")
	if !ok || strings.Contains(name, "/") {
		return func() {}
	}
	tokens, err := driver.ReadDictionary(filepath.Join(driver.RegressDictDir(".", target), name))
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}
	} else if err != nil {
		tt.Fatalf("gfz: the dictionary of this regression input: %v (written by the fuzz binary's -regress; delete it and the input, or write both again)", err)
	}
	return userdict.SetReplay(tokens)
}

// fuzzing reports whether go test runs with -fuzz (in this process, or as
// a worker of go test -fuzz).
func fuzzing() bool {
	if fl := flag.Lookup("test.fuzzworker"); fl != nil && fl.Value.String() == "true" {
		return true
	}
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

// runTest runs fn under go test: assumption failures end the input quietly,
// everything else (testing's own Goexit, panics) passes through. When the
// input fails, the generated values are logged first.
func runTest(t *T, fn func(*T)) {
	defer func() {
		r := recover()
		if isSkip(r) {
			return
		}
		if _, ok := r.(param.Exhausted); ok {
			return
		}
		if r != nil || t.tt.Failed() {
			t.logValues()
		}
		if r != nil {
			panic(r)
		}
	}()
	fn(t)
}

// logValues logs the generated values of a failed input under go test.
func (t *T) logValues() {
	if len(t.values) == 0 {
		return
	}
	t.tt.Helper()
	t.tt.Log("generated values:\n" + strings.TrimSuffix(driver.Indent(t.Values()), "\n"))
}
