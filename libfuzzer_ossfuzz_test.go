package gfz_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The command lines of OSS-Fuzz's own base-runner scripts (run_fuzzer,
// reproduce, bad_build_check, coverage), as docs/CLUSTERFUZZ.md's "Run
// against OSS-Fuzz's own scripts" recorded them, run on the fuzz binaries
// build.sh wrote for testdata/libfuzzer. docs/clusterfuzz/oss-fuzz-scripts.sh
// runs the scripts themselves.

// TestOSSFuzzRunFuzzerCommandLine: run_fuzzer puts "--" before the flags,
// and the corpus directory comes before the options file's flags.
func TestOSSFuzzRunFuzzerCommandLine(t *testing.T) {
	bin := lfzBinary(t, "FuzzCrash")
	work := t.TempDir()
	corpus := filepath.Join(work, "corpus")
	if err := os.Mkdir(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := runIn(t, work, bin, "--", "-rss_limit_mb=2560", "-timeout=25", "-max_total_time=300", "-runs=100000", "-seed=1", corpus, "-use_value_profile=1")
	if code != 77 {
		t.Fatalf("exit status %d, want 77:\n%s", code, out)
	}
	crash := checkArtifact(t, work, "crash") // no -artifact_prefix: the current directory
	mustContain(t, "run_fuzzer", out,
		`(?m)^==\d+== ERROR: libFuzzer: deadly signal$`,
		`(?m)^artifact_prefix=''; Test unit written to `+regexp.QuoteMeta(filepath.Base(crash))+`$`)

	// reproduce: -- $FUZZER_ARGS -runs=100 /testcase
	out, code = runIn(t, work, bin, "--", "-rss_limit_mb=2560", "-timeout=25", "-runs=100", crash)
	if code != 77 {
		t.Fatalf("reproduce: exit status %d, want 77:\n%s", code, out)
	}
	mustContain(t, "reproduce", out, `(?m)^Running: `+regexp.QuoteMeta(crash)+`$`, `(?m)^panic: lfz: boom$`)
}

// TestOSSFuzzBadBuildCheckCommandLine: bad_build_check's check_engine runs
// $FUZZER -- -seed=1337 -runs=4, and check_startup_crash runs it through
// run_fuzzer and requires "Done 4 runs" in the output.
func TestOSSFuzzBadBuildCheckCommandLine(t *testing.T) {
	bin := lfzBinary(t, "FuzzCover")
	work := t.TempDir()
	for _, args := range [][]string{
		{"--", "-seed=1337", "-runs=4"},
		{"--", "-rss_limit_mb=2560", "-timeout=25", "-seed=1337", "-runs=4"},
	} {
		out, code := runIn(t, work, bin, args...)
		if code != 0 {
			t.Fatalf("%q: exit status %d:\n%s", args, code, out)
		}
		// INITED: ClusterFuzz's statistics count a session without it as
		// a crash at startup.
		mustContain(t, strings.Join(args, " "), out, `(?m)^INFO: Seed: 1337$`, `(?m)^Done 4 runs in \d+ second\(s\)$`,
			`(?m)^#\d+\tINITED cov: \d+ ft: \d+ corp: \d+/0b exec/s: \d+ rss: \d+Mb$`)
		if strings.Contains(out, "ERROR: no interesting inputs were found") {
			t.Errorf("%q: check_engine's failure line:\n%s", args, out)
		}
	}
}

// TestOSSFuzzGoCoverageCommandLine: the coverage script runs a Go fuzzer as
// FUZZ_CORPUS_DIR=DIR/ $OUT/fuzzer -test.run=^T$ -test.coverprofile FILE
// and merges the go tool cover profiles; the corpus directory is read, not
// written.
func TestOSSFuzzGoCoverageCommandLine(t *testing.T) {
	bin := lfzBinary(t, "FuzzCover")
	work := t.TempDir()
	corpus := filepath.Join(work, "corpus")
	if err := os.Mkdir(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	// Two raw units: byte 200 (> 13) then 7, and byte 0.
	for name, data := range map[string][]byte{"a": {200, 7}, "b": {0}} {
		if err := os.WriteFile(filepath.Join(corpus, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prof := filepath.Join(work, "lfz_FuzzCover.profdata")
	cmd := exec.Command(bin, "-test.run=^FuzzCover$", "-test.coverprofile", prof)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "FUZZ_CORPUS_DIR="+corpus+"/")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^mode: \w+\n`).Match(data) || !regexp.MustCompile(`(?m)^github\.com/gfz-dev/gfz/testdata/libfuzzer/lfz\.go:\d+\.\d+,\d+\.\d+ \d+ [1-9]\d*$`).Match(data) {
		t.Errorf("profile lacks a covered block of lfz.go:\n%s", data)
	}
	if got := dirFiles(t, corpus); len(got) != 2 {
		t.Errorf("the corpus directory was written to: %q", got)
	}
}

// TestClusterFuzzBuildScriptSanitizers runs build.sh with a stand-in
// gfz-build that records its environment: SANITIZER=address builds with
// Go's -asan (the ASan runtime linked statically: gcc needs
// -static-libasan, clang does it by default), GFZ_ASAN=0 turns that off,
// and SANITIZER=coverage writes the files OSS-Fuzz's coverage script reads.
func TestClusterFuzzBuildScriptSanitizers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs build.sh")
	}
	dir := t.TempDir()
	record := filepath.Join(dir, "env")
	fake := filepath.Join(dir, "gfz-build")
	// gfz-build -o DIR PATTERN: one binary lfz.gfz listing FuzzCover.
	script := "#!/bin/sh\n" +
		"printf 'GOFLAGS=%s\\nCGO_ENABLED=%s\\nCGO_LDFLAGS=%s\\n' \"$GOFLAGS\" \"$CGO_ENABLED\" \"$CGO_LDFLAGS\" >\"" + record + "\"\n" +
		"printf '#!/bin/sh\\necho FuzzCover\\n' >\"$2/lfz.gfz\"\nchmod +x \"$2/lfz.gfz\"\n"
	fakeClang := filepath.Join(dir, "clang")
	for p, s := range map[string]string{fake: script, fakeClang: "#!/bin/sh\necho 'clang version 18.1.8'\n"} {
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(env ...string) (string, string) {
		t.Helper()
		out := filepath.Join(dir, "out")
		os.RemoveAll(out)
		cmd := exec.Command("bash", "docs/clusterfuzz/build.sh", "./testdata/libfuzzer")
		cmd.Env = append(os.Environ(), append([]string{"OUT=" + out, "GFZ_BUILD=" + fake, "GOFLAGS=", "CGO_LDFLAGS=", "SANITIZER=", "GFZ_ASAN="}, env...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build.sh %q: %v\n%s", env, err, b)
		}
		b, err := os.ReadFile(record)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), out
	}
	for _, c := range []struct {
		env          []string
		asan, static bool
	}{
		{[]string{"SANITIZER=address", "CC=gcc"}, true, true},
		{[]string{"SANITIZER=address", "CC=" + fakeClang}, true, false},
		{[]string{"SANITIZER=address", "GFZ_ASAN=0"}, false, false},
		{[]string{"SANITIZER=undefined"}, false, false},
		{nil, false, false},
	} {
		env, _ := run(c.env...)
		if got := strings.Contains(env, "GOFLAGS=-asan\n") && strings.Contains(env, "CGO_ENABLED=1\n"); got != c.asan {
			t.Errorf("%q: -asan build %v, want %v:\n%s", c.env, got, c.asan, env)
		}
		if got := strings.Contains(env, "-static-libasan"); got != c.static {
			t.Errorf("%q: -static-libasan %v, want %v:\n%s", c.env, got, c.static, env)
		}
	}

	_, out := run("SANITIZER=coverage")
	var names map[string]string
	if b, err := os.ReadFile(filepath.Join(out, "fuzzer_function_names.json")); err != nil || json.Unmarshal(b, &names) != nil {
		t.Fatalf("fuzzer_function_names.json: %q, %v", b, err)
	}
	if len(names) != 1 || names["lfz_FuzzCover"] != "FuzzCover" {
		t.Errorf("fuzzer_function_names.json: %v", names)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "lfz_FuzzCover.gocovpath"))
	if err != nil || !strings.Contains(string(b), "s=^github.com/gfz-dev/gfz/="+root+"/=\n") {
		t.Errorf("lfz_FuzzCover.gocovpath lacks the module's line (s=^github.com/gfz-dev/gfz/=%s/=): %q, %v", root, b, err)
	}
}
