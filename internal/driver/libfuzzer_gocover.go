package driver

// OSS-Fuzz's coverage build for Go: the base-runner's coverage script runs
// every Go fuzzer of $OUT as a test binary built with go test -cover,
//
//	FUZZ_CORPUS_DIR=$CORPUS_DIR/<fuzzer>/ $OUT/<fuzzer> -test.run=^<Func>$ -test.coverprofile <dumps>/<fuzzer>.profdata
//
// (Func read from $OUT/fuzzer_function_names.json), and merges the go tool
// cover profiles into its report. A gfz fuzz binary accepts that command
// line: it replays the corpus directory's inputs (and the target's seeds)
// without fuzzing and writes the profile of its instrumented packages, as
// -runs=0 -coverprofile=FILE would. docs/clusterfuzz/build.sh writes the
// function names file and the path mapping the script reads beside the
// binaries when SANITIZER=coverage. See docs/CLUSTERFUZZ.md.

import (
	"fmt"
	"os"
	"strings"
)

// goCoverFlags are the go test flags of OSS-Fuzz's Go coverage command
// line; -test.coverprofile takes its value as the next argument there.
var goCoverFlags = map[string]bool{"test.run": true, "test.coverprofile": true}

// goCoverEnv names the corpus directory the coverage script gives the
// binary (its ossfuzz_coverage_runner.go test reads it).
const goCoverEnv = "FUZZ_CORPUS_DIR"

// goCoverFlag takes one of goCoverFlags: -test.run must name one fuzz
// target, as ^Name$ or Name.
func (lf *libFuzzer) goCoverFlag(name, value string, isTarget func(string) bool) error {
	lf.goCover = true
	if name != "test.run" {
		return nil
	}
	t := strings.TrimSuffix(strings.TrimPrefix(value, "^"), "$")
	if !isTarget(t) {
		return fmt.Errorf("-test.run=%s names no fuzz target of this binary: OSS-Fuzz's coverage script passes ^Name$ with the name it reads from $OUT/fuzzer_function_names.json, which docs/clusterfuzz/build.sh writes when SANITIZER=coverage", value)
	}
	lf.goCoverTarget = t
	return nil
}

// goCoverArgs completes a coverage run: replay only, the corpus directory
// named by $FUZZ_CORPUS_DIR (when it is one: without it, as the coverage
// runner of a go test binary, only the target's own seeds run), and the
// target named by -test.run after the flags.
func (lf *libFuzzer) goCoverArgs(rest []string) ([]string, error) {
	lf.replayOnly = true
	if d := os.Getenv(goCoverEnv); d != "" {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			lf.corpus = append(lf.corpus, d)
		}
	}
	if len(lf.inputs) > 0 {
		return nil, fmt.Errorf("-test.run and -test.coverprofile (OSS-Fuzz's coverage run) take the corpus from $%s, not file arguments (%s)", goCoverEnv, strings.Join(lf.inputs, ", "))
	}
	if lf.goCoverTarget != "" {
		rest = append(rest, lf.goCoverTarget)
	}
	return rest, nil
}
