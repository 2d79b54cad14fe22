package gfz_test

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/testmod"
)

// The libFuzzer conformance test: a fuzz binary of testdata/libfuzzer,
// built into $OUT by docs/clusterfuzz/build.sh (see docs/CLUSTERFUZZ.md), is run
// with the command lines ClusterFuzzLite's libFuzzer runner uses (fuzzing
// with a corpus directory and -artifact_prefix, -merge=1, reproducing a
// crash artefact given as a file argument), and what it writes and prints
// is checked as ClusterFuzz reads it.

var lfz struct {
	once sync.Once
	dir  string
	out  string // $OUT
	err  error
	log  string
}

// lfzOut builds testdata/libfuzzer once per test process with the
// build.sh recipe (docs/clusterfuzz/build.sh, with a gfz-build built from
// this tree) and returns its $OUT.
func lfzOut(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds testdata/libfuzzer with gfz-build")
	}
	lfz.once.Do(func() {
		lfz.dir, lfz.err = os.MkdirTemp("", "gfz-lfz")
		if lfz.err != nil {
			return
		}
		var log bytes.Buffer
		gb, err := testmod.Tool("gfz-build")
		if lfz.err = err; err != nil {
			return
		}
		lfz.out = filepath.Join(lfz.dir, "out")
		cmd := exec.Command("bash", "docs/clusterfuzz/build.sh", "./testdata/libfuzzer")
		cmd.Env = append(os.Environ(), "OUT="+lfz.out, "GFZ_BUILD="+gb)
		cmd.Stdout, cmd.Stderr = &log, &log
		lfz.err = cmd.Run()
		lfz.log = log.String()
	})
	if lfz.err != nil {
		t.Fatalf("build testdata/libfuzzer with build.sh: %v\n%s", lfz.err, lfz.log)
	}
	return lfz.out
}

// lfzBinary returns the fuzzer build.sh wrote for target.
func lfzBinary(t *testing.T, target string) string {
	t.Helper()
	return filepath.Join(lfzOut(t), "lfz_"+target)
}

// runIn runs bin with args in dir and returns its combined output and exit
// status.
func runIn(t *testing.T, dir, bin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return string(out), 0
}

// dirFiles lists the names of the files in dir.
func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func mustContain(t *testing.T, what, out string, res ...string) {
	t.Helper()
	for _, re := range res {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("%s: output lacks %q:\n%s", what, re, out)
		}
	}
}

// checkArtifact checks that dir holds exactly one artefact kind-<sha1 of
// its content> and returns its path.
func checkArtifact(t *testing.T, dir, kind string) string {
	t.Helper()
	var found []string
	for _, n := range dirFiles(t, dir) {
		if strings.HasPrefix(n, kind+"-") {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		t.Fatalf("artefacts %s-* in %s: %q (all: %q)", kind, dir, found, dirFiles(t, dir))
	}
	p := filepath.Join(dir, found[0])
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha1.Sum(data)
	if want := kind + "-" + hex.EncodeToString(sum[:]); found[0] != want {
		t.Errorf("artefact %s: name is not %s (the SHA-1 of its content)", found[0], want)
	}
	return p
}

// TestLibFuzzerConformanceCrash fuzzes, reproduces and merges as
// ClusterFuzzLite does.
func TestLibFuzzerConformanceCrash(t *testing.T) {
	bin := lfzBinary(t, "FuzzCrash")
	work := t.TempDir()
	corpus := filepath.Join(work, "corpus")
	art := filepath.Join(work, "artifacts") + "/"
	for _, d := range []string{corpus, art} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The fuzzing task: corpus directory, -max_total_time, -artifact_prefix,
	// and the options ClusterFuzz adds.
	out, code := runIn(t, work, bin, "-rss_limit_mb=2560", "-timeout=25", "-max_total_time=300", "-runs=100000",
		"-seed=1", "-print_final_stats=1", "-use_value_profile=1", "-artifact_prefix="+art, corpus)
	if code != 77 {
		t.Fatalf("fuzzing exit status %d, want 77 (libFuzzer's -error_exitcode):\n%s", code, out)
	}
	crash := checkArtifact(t, art, "crash")
	mustContain(t, "fuzzing", out,
		`INFO: gfz: libFuzzer flag -use_value_profile=1 ignored`,
		`(?m)^panic: lfz: boom$`,
		`(?m)^goroutine \d+ \[running\]:$`,
		`(?m)^\s+\S*lfz_test\.go:\d+`,
		`(?m)^==\d+== ERROR: libFuzzer: deadly signal$`,
		`(?m)^SUMMARY: libFuzzer: deadly signal$`,
		`(?m)^artifact_prefix='`+regexp.QuoteMeta(art)+`'; Test unit written to `+regexp.QuoteMeta(crash)+`$`,
		`(?m)^stat::number_of_executed_units: [1-9]\d*$`,
		`(?m)^stat::new_units_added: +[1-9]\d*$`,
	)
	// The replay's end comes before the crash fuzzing found after it, as
	// in libFuzzer (it came at the next status tick, after the crash).
	if i, e := strings.Index(out, "\tINITED cov: "), strings.Index(out, "ERROR: libFuzzer: deadly signal"); i < 0 || e < 0 || i > e {
		t.Errorf("INITED at %d, the crash at %d: want INITED first:\n%s", i, e, out)
	}
	units := dirFiles(t, corpus)
	if len(units) == 0 {
		t.Fatalf("no input written to the corpus directory:\n%s", out)
	}
	for _, u := range units {
		data, err := os.ReadFile(filepath.Join(corpus, u))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha1.Sum(data); hex.EncodeToString(sum[:]) != u {
			t.Errorf("corpus unit %s is not named by the SHA-1 of its content", u)
		}
	}

	// The reproduce task: the artefact as a single file argument.
	out, code = runIn(t, work, bin, "-runs=100", "-timeout=25", "-rss_limit_mb=2560", crash)
	if code != 77 {
		t.Fatalf("reproducing exit status %d, want 77:\n%s", code, out)
	}
	mustContain(t, "reproducing", out,
		`(?m)^Running: `+regexp.QuoteMeta(crash)+`$`,
		`(?m)^panic: lfz: boom$`,
		`(?m)^goroutine \d+ \[running\]:$`,
		`(?m)^\s+\S*lfz_test\.go:\d+`,
		`(?m)^SUMMARY: libFuzzer: deadly signal$`,
	)
	// The target's stdout passes through, unless -close_fd_mask=1 closes it.
	mustContain(t, "reproducing", out, `(?m)^lfz: stdout of the target$`)
	out, code = runIn(t, work, bin, "-close_fd_mask=1", crash)
	if code != 77 || strings.Contains(out, "lfz: stdout of the target") {
		t.Errorf("-close_fd_mask=1: exit status %d (want 77), and the target's stdout must be dropped:\n%s", code, out)
	}
	mustContain(t, "reproducing with -close_fd_mask=1", out, `(?m)^SUMMARY: libFuzzer: deadly signal$`)
	// A corpus unit does not crash: exit 0.
	if out, code := runIn(t, work, bin, filepath.Join(corpus, units[0])); code != 0 {
		t.Errorf("corpus unit: exit status %d, want 0:\n%s", code, out)
	}
}

// TestLibFuzzerConformanceMerge fuzzes a target that never fails into a
// corpus directory, merges it into an empty directory, and checks that the
// merged subset keeps the coverage: merging the whole corpus into it again
// adds nothing.
func TestLibFuzzerConformanceMerge(t *testing.T) {
	bin := lfzBinary(t, "FuzzCover")
	work := t.TempDir()
	corpus, merged := filepath.Join(work, "corpus"), filepath.Join(work, "merged")
	for _, d := range []string{corpus, merged} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A few inputs that add nothing, so that minimisation has work to do.
	for i := 0; i < 5; i++ {
		if err := os.WriteFile(filepath.Join(corpus, fmt.Sprintf("dup%d", i)), []byte{0, byte(8 * i)}, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runIn(t, work, bin, "-runs=3000", "-seed=1", "-print_final_stats=1", "-close_fd_mask=3", corpus)
	if code != 0 {
		t.Fatalf("fuzzing exit status %d:\n%s", code, out)
	}
	mustContain(t, "fuzzing", out, `(?m)^stat::number_of_executed_units: [1-9]\d*$`)
	all := dirFiles(t, corpus)
	if len(all) < 8 {
		t.Fatalf("corpus has %d inputs, want at least 8:\n%s", len(all), out)
	}
	out, code = runIn(t, work, bin, "-merge=1", merged, corpus)
	if code != 0 {
		t.Fatalf("merge exit status %d:\n%s", code, out)
	}
	kept := dirFiles(t, merged)
	t.Logf("fuzzing wrote %d inputs (5 of them planted duplicates); merge kept %d:\n%s", len(all), len(kept), out)
	if len(kept) == 0 || len(kept) >= len(all) {
		t.Fatalf("merge kept %d of %d inputs, want a proper non-empty subset:\n%s", len(kept), len(all), out)
	}
	mustContain(t, "merge", out, `(?m)^MERGE-OUTER: \d+ new files with [1-9]\d* new features added`)
	out, code = runIn(t, work, bin, "-merge=1", merged, corpus)
	if code != 0 || len(dirFiles(t, merged)) != len(kept) {
		t.Fatalf("second merge: exit status %d, %d files (was %d): the merged subset lost coverage:\n%s", code, len(dirFiles(t, merged)), len(kept), out)
	}
	mustContain(t, "second merge", out, `(?m)^MERGE-OUTER: 0 new files with 0 new features added`)
}

// TestLibFuzzerConformanceTimeout checks the timeout artefact, lines and
// exit status.
func TestLibFuzzerConformanceTimeout(t *testing.T) {
	bin := lfzBinary(t, "FuzzHang")
	work := t.TempDir()
	out, code := runIn(t, work, bin, "-timeout=1", "-runs=100000", "-seed=1", "-artifact_prefix=./")
	if code != 70 {
		t.Fatalf("exit status %d, want 70 (libFuzzer's -timeout_exitcode):\n%s", code, out)
	}
	p := checkArtifact(t, work, "timeout")
	mustContain(t, "timeout", out,
		`(?m)^==\d+== ERROR: libFuzzer: timeout after 1 seconds$`,
		`(?m)^SUMMARY: libFuzzer: timeout$`,
		`Test unit written to \./`+regexp.QuoteMeta(filepath.Base(p)),
	)
	out, code = runIn(t, work, bin, "-timeout=1", p)
	if code != 70 {
		t.Fatalf("reproducing: exit status %d, want 70:\n%s", code, out)
	}
	mustContain(t, "reproducing timeout", out,
		`(?m)^==\d+== ERROR: libFuzzer: timeout after 1 seconds$`,
		`(?m)^SUMMARY: libFuzzer: timeout$`,
		`(?m)^goroutine \d+ \[`,
	)
	// The stacks come after the ERROR line too, the target's goroutine
	// first: ClusterFuzz's parser takes the crash state from there (a
	// reproduced timeout's was NULL: the block after it was empty).
	_, after, _ := strings.Cut(out, "ERROR: libFuzzer: timeout")
	block, _, _ := strings.Cut(after, "SUMMARY: libFuzzer: timeout")
	if g := regexp.MustCompile(`(?m)^goroutine \d+ \[.*\n(.*)\n`).FindStringSubmatch(block); g == nil || !strings.Contains(g[1], ".Spin(") {
		t.Errorf("reproducing timeout: the block after the ERROR line does not start with the target's goroutine:\n%s", block)
	}
}

// TestLibFuzzerCrashBeforeHang: libFuzzer stops at the first failure, so
// a corpus whose first input (in replay order) crashes and whose second
// hangs gives the crash's artefact and exit status. The worker went on to
// the hang after saving the crash, and the supervisor, which learned of
// the crash at its next status line but of the worker's death at once,
// wrote the timeout's artefact (ClusterFuzzLite does not report timeouts
// by default: the crash was lost).
func TestLibFuzzerCrashBeforeHang(t *testing.T) {
	bin := lfzBinary(t, "FuzzCrashThenHang")
	work := t.TempDir()
	corp := filepath.Join(work, "corp")
	if err := os.Mkdir(corp, 0o755); err != nil {
		t.Fatal(err)
	}
	// Imported as lf-<SHA-1>: "C" (3209...) is replayed before "H" (7cf1...).
	for name, data := range map[string]string{"x": "C", "y": "H"} {
		if err := os.WriteFile(filepath.Join(corp, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runIn(t, work, bin, "-timeout=1", "-max_total_time=120", "-seed=1", "-artifact_prefix=./", corp)
	if code != 77 {
		t.Fatalf("exit status %d, want 77 (the crash):\n%s", code, out)
	}
	checkArtifact(t, work, "crash")
	for _, n := range dirFiles(t, work) {
		if strings.HasPrefix(n, "timeout-") {
			t.Errorf("a timeout artefact %s beside the crash's", n)
		}
	}
	mustContain(t, "crash before hang", out, `lfz: crash input`, `(?m)^SUMMARY: libFuzzer: deadly signal$`)
	if strings.Contains(out, "the run ended before it had run all of its seeds") {
		t.Errorf("a run stopped at its first failure, as libFuzzer's are, warns that it did not replay its corpus:\n%s", out)
	}
}

// TestLibFuzzerHangUnfinished: a run whose first input hangs and ends
// before -timeout stops it says so (it blamed the target's setup: "the
// workers were still starting").
func TestLibFuzzerHangUnfinished(t *testing.T) {
	bin := lfzBinary(t, "FuzzCrashThenHang")
	work := t.TempDir()
	corp := filepath.Join(work, "corp")
	if err := os.Mkdir(corp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corp, "h"), []byte("H"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := runIn(t, work, bin, "-timeout=120", "-max_total_time=3", "-seed=1", corp)
	mustContain(t, "hang unfinished", out, `no input finished: the first input a worker ran was still running`)
	if strings.Contains(out, "the workers were still starting") {
		t.Errorf("the hang is blamed on the target's setup:\n%s", out)
	}
}

// TestLibFuzzerConformanceOOM checks the out-of-memory artefact, lines
// and exit status.
func TestLibFuzzerConformanceOOM(t *testing.T) {
	bin := lfzBinary(t, "FuzzAlloc")
	work := t.TempDir()
	out, code := runIn(t, work, bin, "-rss_limit_mb=128", "-timeout=25", "-runs=100000", "-seed=1", "-artifact_prefix=./")
	if code != 71 {
		t.Fatalf("exit status %d, want 71 (libFuzzer's out-of-memory status):\n%s", code, out)
	}
	p := checkArtifact(t, work, "oom")
	mustContain(t, "oom", out,
		`(?m)^==\d+== ERROR: libFuzzer: out-of-memory \(used: \d+Mb; exceeds: 128Mb\)$`,
		`(?m)^SUMMARY: libFuzzer: out-of-memory$`,
		`Test unit written to \./`+regexp.QuoteMeta(filepath.Base(p)),
	)
	out, code = runIn(t, work, bin, "-rss_limit_mb=128", "-timeout=25", p)
	if code != 71 {
		t.Errorf("reproducing: exit status %d, want 71:\n%s", code, out)
	}
	mustContain(t, "reproducing oom", out, `(?m)^SUMMARY: libFuzzer: out-of-memory$`)
}

// TestLibFuzzerDict checks that -dict=FILE entries reach the generators'
// dictionary: FuzzDict fails only on a token of the file.
func TestLibFuzzerDict(t *testing.T) {
	bin := lfzBinary(t, "FuzzDict")
	work := t.TempDir()
	dict := bin + ".dict" // build.sh copied testdata/FuzzDict.dict
	out, code := runIn(t, work, bin, "-dict="+dict, "-runs=50000", "-seed=1", "-artifact_prefix=./")
	if code != 77 {
		t.Fatalf("exit status %d, want 77:\n%s", code, out)
	}
	p := checkArtifact(t, work, "crash")
	mustContain(t, "dict", out, `panic: lfz: dictionary token zqxjvk`)
	// Without the dictionary the same bytes draw another token: the
	// artefact reproduces only with the -dict it was found with.
	if out, code := runIn(t, work, bin, p); code != 0 {
		t.Errorf("without -dict: exit status %d, want 0 (the token comes from the dictionary):\n%s", code, out)
	}
	if out, code := runIn(t, work, bin, "-dict="+dict, p); code != 77 {
		t.Errorf("reproduce with -dict: exit status %d, want 77:\n%s", code, out)
	}
	bad := filepath.Join(work, "bad.dict")
	os.WriteFile(bad, []byte("\"ok\"\nbroken\n"), 0o644)
	if out, code := runIn(t, work, bin, "-dict="+bad, "-runs=10"); code != 2 || !strings.Contains(out, "bad.dict:2") {
		t.Errorf("bad dictionary: exit status %d, output %q; want 2 naming bad.dict:2", code, out)
	}
}

// TestClusterFuzzBuildScript checks what docs/clusterfuzz/build.sh writes
// to $OUT: one executable per fuzz target, named P_T, that OSS-Fuzz's
// helper scripts recognise as a fuzz target (it holds the string
// LLVMFuzzerTestOneInput), its seed corpus zip, dictionary and options
// file; and that a fuzzer fuzzes its seed corpus as ClusterFuzzLite runs it
// (the unzipped seeds in a second corpus directory).
func TestClusterFuzzBuildScript(t *testing.T) {
	out := lfzOut(t)
	for _, target := range []string{"FuzzCrash", "FuzzCover", "FuzzHang", "FuzzDict", "FuzzAlloc"} {
		p := filepath.Join(out, "lfz_"+target)
		fi, err := os.Stat(p)
		if err != nil || fi.Mode()&0o111 == 0 {
			t.Fatalf("%s: %v, mode %v", p, err, fi.Mode())
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte("LLVMFuzzerTestOneInput")) {
			t.Errorf("%s lacks the string LLVMFuzzerTestOneInput", p)
		}
	}
	opts, err := os.ReadFile(filepath.Join(out, "lfz_FuzzDict.options"))
	if err != nil || string(opts) != "[libfuzzer]\ndict = lfz_FuzzDict.dict\n" {
		t.Errorf("options file: %q, %v", opts, err)
	}
	if _, err := os.Stat(filepath.Join(out, "lfz_FuzzDict.dict")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(out, "lfz_FuzzCrash_seed_corpus.zip")); err == nil {
		t.Error("seed corpus zip for FuzzCrash, which has no testdata/fuzz/FuzzCrash")
	}
	work := t.TempDir()
	seeds, corpus := filepath.Join(work, "seeds"), filepath.Join(work, "corpus")
	os.Mkdir(corpus, 0o755)
	if b, err := exec.Command("unzip", "-q", "-d", seeds, filepath.Join(out, "lfz_FuzzCover_seed_corpus.zip")).CombinedOutput(); err != nil {
		t.Fatalf("unzip seed corpus: %v\n%s", err, b)
	}
	if got := dirFiles(t, seeds); len(got) != 1 || got[0] != "seed1" {
		t.Fatalf("seed corpus %q, want [seed1]", got)
	}
	o, code := runIn(t, work, filepath.Join(out, "lfz_FuzzCover"), "-runs=200", "-seed=1", corpus, seeds)
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, o)
	}
	mustContain(t, "fuzzing with seeds", o, "INFO: gfz "+engine.DefaultEngine+" engine on FuzzCover, 1 inputs from 2 corpus directories")
	if len(dirFiles(t, corpus)) == 0 {
		t.Errorf("no new unit in the corpus directory:\n%s", o)
	}
	if len(dirFiles(t, seeds)) != 1 {
		t.Errorf("the second corpus directory was written to: %q", dirFiles(t, seeds))
	}
}

// TestClusterFuzzBuildScriptSharedName: two packages of one name, one
// without fuzz targets and first in go list's order: the binary gets the
// seed corpus and dictionary of the package it was built from (build.sh
// matched binaries to packages by name, and gave it the other's, none).
func TestClusterFuzzBuildScriptSharedName(t *testing.T) {
	if testing.Short() {
		t.Skip("runs build.sh")
	}
	gb, err := testmod.Tool("gfz-build")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	testmod.Write(t, mod, map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n",
		"a/p/p.go": "package p\n\nfunc A() int { return 1 }\n",
		"b/p/p.go": "package p\n\nfunc B(n int) int {\n\tif n > 3 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n",
		"b/p/p_test.go": "package p\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gfz-dev/gfz\"\n)\n\n" +
			"func FuzzB(f *testing.F) {\n\tgfz.Fuzz(f, func(t *gfz.T) { B(int(t.Source().Range(0, 9, 0))) })\n}\n",
		"b/p/testdata/fuzz/FuzzB/seed1": "go test fuzz v1\n[]byte(\"\\x05\")\n",
	})
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command("bash", filepath.Join(testmod.GfzRoot(t), "docs/clusterfuzz/build.sh"), "./...")
	cmd.Dir = mod
	cmd.Env = append(testmod.Env(mod), "OUT="+out, "GFZ_BUILD="+gb)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(out, "p_FuzzB")); err != nil {
		t.Fatalf("no fuzzer p_FuzzB: %v (out: %q)", err, dirFiles(t, out))
	}
	if _, err := os.Stat(filepath.Join(out, "p_FuzzB_seed_corpus.zip")); err != nil {
		t.Errorf("p_FuzzB has no seed corpus (b/p/testdata/fuzz/FuzzB): %v (out: %q)", err, dirFiles(t, out))
	}
}

// TestLibFuzzerArtifactUnwritable: with an -artifact_prefix that cannot be
// written (its directory does not exist), the crash is still reported as
// libFuzzer reports it (exit 77, ERROR and SUMMARY lines), with a warning,
// and the failing input is kept in the work directory, named in the
// warning (it used to exit 2, a broken fuzzer, and remove the only copy
// of the input with the temporary work directory).
func TestLibFuzzerArtifactUnwritable(t *testing.T) {
	bin := lfzBinary(t, "FuzzCrash")
	work := t.TempDir()
	// A missing directory is refused before fuzzing, as libFuzzer does.
	out, code := runIn(t, work, bin, "-runs=100000", "-seed=1", "-artifact_prefix="+filepath.Join(work, "missing")+"/")
	if code != 2 || !strings.Contains(out, "-artifact_prefix: the directory") || strings.Contains(out, "ERROR: libFuzzer") {
		t.Fatalf("missing artefact directory: exit status %d, want 2 before fuzzing:\n%s", code, out)
	}
	// A path that cannot be written when the crash comes (here a
	// directory where the file should go).
	taken := filepath.Join(work, "taken")
	if err := os.Mkdir(taken, 0o755); err != nil {
		t.Fatal(err)
	}
	out, code = runIn(t, work, bin, "-runs=100000", "-seed=1", "-exact_artifact_path="+taken)
	if code != 77 {
		t.Fatalf("exit status %d, want 77:\n%s", code, out)
	}
	mustContain(t, "unwritable artefact", out,
		`(?m)^SUMMARY: libFuzzer: deadly signal$`,
		`(?m)^gfz: WARNING: the artefact could not be written`)
	m := regexp.MustCompile(`the failing input is kept at (\S+\.input)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no kept input named:\n%s", out)
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Errorf("the kept input: %v", err)
	}
	os.RemoveAll(filepath.Dir(filepath.Dir(m[1]))) // the work directory kept for the user
}

// TestLibFuzzerRunsZeroWritesNothing: -runs=0 replays the corpus and
// writes nothing into it, as libFuzzer: an empty first corpus directory
// stays empty (the input generated for an empty corpus was exported into
// it), and a non-empty one keeps exactly its files.
func TestLibFuzzerRunsZeroWritesNothing(t *testing.T) {
	bin := lfzBinary(t, "FuzzCover")
	work := t.TempDir()
	empty := filepath.Join(work, "empty")
	os.Mkdir(empty, 0o755)
	if out, code := runIn(t, work, bin, "-runs=0", empty); code != 0 {
		t.Fatalf("-runs=0 on an empty corpus: exit status %d:\n%s", code, out)
	}
	if files := dirFiles(t, empty); len(files) != 0 {
		t.Errorf("-runs=0 wrote into the empty corpus directory: %v", files)
	}
	one := filepath.Join(work, "one")
	os.Mkdir(one, 0o755)
	os.WriteFile(filepath.Join(one, "seed"), []byte("abc"), 0o644)
	if out, code := runIn(t, work, bin, "-runs=0", one, empty); code != 0 {
		t.Fatalf("-runs=0: exit status %d:\n%s", code, out)
	}
	if files := dirFiles(t, one); len(files) != 1 || files[0] != "seed" {
		t.Errorf("-runs=0 changed the corpus directory: %v", files)
	}
}

// TestLibFuzzerMergeRestartTotals: a -merge=1 whose child hangs on an input
// of the IN directories goes on in a new child after it; the last
// MERGE-OUTER line counts every file written and every feature added since
// the start, not only the last child's.
func TestLibFuzzerMergeRestartTotals(t *testing.T) {
	bin := lfzBinary(t, "FuzzHang")
	work := t.TempDir()
	in, merged := filepath.Join(work, "in"), filepath.Join(work, "merged")
	os.Mkdir(in, 0o755)
	os.Mkdir(merged, 0o755)
	// Inputs that do not hang (the first one adds the coverage) before
	// the one that hangs (7) and after it.
	for i := range 3 {
		os.WriteFile(filepath.Join(in, fmt.Sprintf("a%d", i)), []byte{byte(i)}, 0o644)
		os.WriteFile(filepath.Join(in, fmt.Sprintf("c%d", i)), []byte{byte(8 + i)}, 0o644)
	}
	os.WriteFile(filepath.Join(in, "b"), []byte{7}, 0o644)
	out, code := runIn(t, work, bin, "-merge=1", "-timeout=1", merged, in)
	if code != 0 {
		t.Fatalf("merge exit status %d:\n%s", code, out)
	}
	mustContain(t, "merge", out, `MERGE-OUTER: input \d+ of the IN directories ended the process`)
	// libFuzzer's words: ClusterFuzz's merge statistics parse "N new
	// files with F new features added; E new coverage edges".
	m := regexp.MustCompile(`(?m)^MERGE-OUTER: (\d+) new files with (\d+) new features added; (\d+) new coverage edges$`).FindAllStringSubmatch(out, -1)
	if len(m) != 1 {
		t.Fatalf("%d final MERGE-OUTER lines, want 1:\n%s", len(m), out)
	}
	first := regexp.MustCompile(`(?m)^MERGE-OUTER: \d+ files, 0 in the initial corpus, 0 features$`).FindString(out)
	files := len(dirFiles(t, merged))
	feats, _ := strconv.Atoi(m[0][2])
	edges, _ := strconv.Atoi(m[0][3])
	if m[0][1] != strconv.Itoa(files) || files == 0 || first == "" || edges == 0 || edges > feats {
		t.Errorf("final line %q: want %d new files (those in the directory), every feature new (the directory was empty) and 1 to %d new edges:\n%s", m[0][0], files, feats, out)
	}
	if n := strings.Count(out, "in the initial corpus"); n != 1 {
		t.Errorf("the first MERGE-OUTER line printed %d times, want once:\n%s", n, out)
	}
}
