package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/workdir"
)

const testInfo = "v=1&targets=FuzzA,FuzzB&mapbits=16&probes=12"

func TestParseBinaryArgs(t *testing.T) {
	cases := []struct {
		info   string
		args   []string
		code   int    // -1: go on
		stdout string // substring
		stderr string // substring
	}{
		{testInfo, []string{"-list"}, ExitOK, "FuzzA\nFuzzB\n", ""},
		{testInfo, []string{"-h"}, ExitOK, "", "-repro FILE"},
		{testInfo, []string{"-nosuchflag"}, ExitUsage, "", "flag provided but not defined"},
		{testInfo, []string{"-runs", "x"}, ExitUsage, "", "invalid value"},
		{testInfo, []string{}, ExitUsage, "", "2 fuzz targets; name one of: FuzzA, FuzzB"},
		{testInfo, []string{"FuzzC"}, ExitUsage, "", `unknown fuzz target "FuzzC"`},
		{testInfo, []string{"FuzzA", "FuzzB"}, ExitUsage, "", "name one fuzz target"},
		{testInfo, []string{"-engine", "afl", "FuzzA"}, ExitUsage, "", `unknown engine "afl"`},
		{testInfo, []string{"-runs", "-3", "FuzzA"}, ExitUsage, "", "must not be negative"},
		{testInfo, []string{"-seed", "-1", "FuzzA"}, ExitUsage, "", "-seed -1: the seed must be 0 or more"},
		{testInfo, []string{"-seed=-9", "-max_total_time=5", "FuzzA"}, ExitUsage, "", "-seed -9: the seed must be 0 or more"},
		{testInfo, []string{"-seed", "1.5", "FuzzA"}, ExitUsage, "", "invalid value"},
		{testInfo, []string{"-stack_limit_mb", "99999999999999", "FuzzA"}, ExitUsage, "", "-stack_limit_mb 99999999999999 is too large"},
		{testInfo, []string{"-seed", "0", "FuzzA"}, -1, "", ""},
		{"v=2&targets=FuzzA", []string{"FuzzA"}, ExitUsage, "", "version"},
		{"v=1", []string{}, ExitUsage, "", "no fuzz targets"},
		{"v=1&targets=FuzzOnly", []string{}, -1, "", ""},
		{testInfo, []string{"FuzzB"}, -1, "", ""},
		{"v=1", []string{"FuzzAny"}, -1, "", ""},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		cfg, code := parseArgs(c.info, c.args, &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.stdout) || !strings.Contains(errb.String(), c.stderr) {
			t.Errorf("%q %q: code %d stdout %q stderr %q; want %d, %q, %q", c.info, c.args, code, out.String(), errb.String(), c.code, c.stdout, c.stderr)
		}
		if (code == -1) != (cfg != nil) {
			t.Errorf("%q: code %d with config %v", c.args, code, cfg)
		}
	}
}

// TestOutputPathsCheckedFirst: the paths written only at the end of a run
// are checked before it: a missing directory for -coverprofile, a file
// where -report needs a directory (found after the whole -time, they lost
// the run's profile or report); -repro writes neither and says so.
func TestOutputPathsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string
		stderr string // "" : accepted
	}{
		{[]string{"-coverprofile", filepath.Join(dir, "nodir", "c.out"), "FuzzA"}, "-coverprofile " + filepath.Join(dir, "nodir", "c.out") + ": its directory"},
		{[]string{"-coverprofile", filepath.Join(file, "c.out"), "FuzzA"}, "not a directory"},
		{[]string{"-coverprofile", dir, "FuzzA"}, "is a directory"},
		{[]string{"-coverprofile", filepath.Join(dir, "c.out"), "FuzzA"}, ""},
		{[]string{"-report", file, "FuzzA"}, "-report " + file + ": " + file + " is a file"},
		{[]string{"-report", filepath.Join(file, "sub", "r"), "FuzzA"}, "is a file"},
		{[]string{"-report", filepath.Join(dir, "new", "r"), "FuzzA"}, ""},
		{[]string{"-repro", file, "-coverprofile", filepath.Join(dir, "c.out"), "FuzzA"}, "-coverprofile is not written with -repro"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		_, code := parseArgs(testInfo, c.args, &out, &errb)
		if c.stderr == "" {
			if code != -1 {
				t.Errorf("%q: code %d (%s), want accepted", c.args, code, errb.String())
			}
			continue
		}
		if code != ExitUsage || !strings.Contains(errb.String(), c.stderr) {
			t.Errorf("%q: code %d, stderr %q; want %d with %q", c.args, code, errb.String(), ExitUsage, c.stderr)
		}
	}
}

func TestParseBinaryArgsValues(t *testing.T) {
	// Paths are made absolute (a target may change directories).
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	var out, errb bytes.Buffer
	cfg, code := parseArgs(testInfo, []string{"-time", "3s", "-runs", "77", "-seed", "9", "-engine", "random",
		"-timeout", "2s", "-workdir", "wd", "-coverprofile", "c.out", "-v", "FuzzB"}, &out, &errb)
	if code != -1 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	if cfg.run.Target != "FuzzB" || cfg.run.Time != 3*time.Second || cfg.run.Runs != 77 || cfg.run.Seed != 9 || cfg.run.Engine != "random" ||
		cfg.run.Timeout != 2*time.Second || cfg.run.Workdir != abs("wd") || cfg.coverprofile != abs("c.out") || !cfg.verbose {
		t.Errorf("config %+v", cfg)
	}
	// Defaults: seed 1, the default engine, the calibrated timeout (0 for the engine),
	// the work directory in gfz's cache (never ./gfzwork in the source
	// tree), keyed by the package directory the build info records, or
	// the current directory.
	cache := t.TempDir()
	t.Setenv(workdir.CacheEnv, cache)
	cfg, code = parseArgs(testInfo, []string{"FuzzA"}, &out, &errb)
	if code != -1 || cfg.run.Seed != 1 || cfg.run.Engine != engine.DefaultEngine || cfg.run.Timeout != 0 ||
		cfg.run.Workdir != workdir.DefaultDir("", "FuzzA") || !strings.HasPrefix(cfg.run.Workdir, cache+string(filepath.Separator)) || !cfg.workdirDefault {
		t.Errorf("defaults %+v", cfg)
	}
	pkg := t.TempDir()
	cfg, code = parseArgs(testInfo+"&dir="+pkg, []string{"FuzzB"}, &out, &errb)
	if code != -1 || cfg.run.Workdir != workdir.DefaultDir(pkg, "FuzzB") {
		t.Errorf("default with the package directory %s: %s", pkg, cfg.run.Workdir)
	}
	cfg, code = parseArgs(testInfo, []string{"-workdir", "wd", "FuzzA"}, &out, &errb)
	if code != -1 || cfg.run.Workdir != abs("wd") || cfg.workdirDefault {
		t.Errorf("-workdir wd: %s (default %v)", cfg.run.Workdir, cfg.workdirDefault)
	}
	// -repro takes one file; more files follow the flags, the target may be among them.
	cfg, code = parseArgs(testInfo, []string{"-repro", "a.input", "b.input", "FuzzA", "c.input"}, &out, &errb)
	if code != -1 || cfg.run.Target != "FuzzA" || !reflect.DeepEqual(cfg.repro, []string{abs("a.input"), abs("b.input"), abs("c.input")}) {
		t.Errorf("repro config %+v (code %d)", cfg, code)
	}
}

func TestIndent(t *testing.T) {
	if got := Indent("a\nb"); got != "\ta\n\tb\n" {
		t.Errorf("indent = %q", got)
	}
	if got := Indent(""); got != "" {
		t.Errorf("indent empty = %q", got)
	}
}

func TestWorkerFlagsAndSpec(t *testing.T) {
	var out, errb bytes.Buffer
	cfg, code := parseArgs(testInfo, []string{"-workers", "3", "-rss_limit_mb", "100", "FuzzA"}, &out, &errb)
	if code != -1 || cfg.workers != 3 || cfg.rssLimitMB != 100 {
		t.Fatalf("code %d cfg %+v: %s", code, cfg, errb.String())
	}
	for _, bad := range [][]string{{"-workers", "0", "FuzzA"}, {"-rss_limit_mb", "-1", "FuzzA"}, {"-workers", "100000", "FuzzA"}} {
		errb.Reset()
		if _, code := parseArgs(testInfo, bad, &out, &errb); code != ExitUsage {
			t.Errorf("%q: code %d", bad, code)
		}
	}
	// A typo's -workers 100000 made 100,000 shared memory files before
	// any worker started; the bound names the cores.
	errb.Reset()
	if _, code := parseArgs(testInfo, []string{"-workers", "100000", "FuzzA"}, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), "too many for") {
		t.Errorf("-workers 100000: code %d, %q", code, errb.String())
	}
	if _, code := parseArgs(testInfo, []string{"-workers", strconv.Itoa(maxWorkers(runtime.NumCPU())), "FuzzA"}, &out, &errb); code != -1 {
		t.Errorf("-workers at the bound: code %d", code)
	}
	for _, spec := range []engine.WorkerSpec{
		{ID: 1, Incarnation: 4, SharedMem: "/w d/.gfz-worker-1.shm", Seed: -5, Runs: 77, Time: 3 * time.Second, Sync: true},
		{ID: 0, SharedMem: "s", Skip: []string{"ab01", "cd23"}},
		{ID: 2, SharedMem: "s", Resume: 1<<63 + 5},
		{ID: 3, SharedMem: "s", Avoid: [][]byte{{7}, []byte("go test fuzz v1\nint(777)\n"), {0, 0xff, ',', '='}}},
	} {
		got, err := decodeWorkerSpec(encodeWorkerSpec(spec))
		if err != nil || !reflect.DeepEqual(*got, spec) {
			t.Errorf("round trip: %+v, %v; want %+v", got, err, spec)
		}
	}
	for _, bad := range []string{"%zz", "id=x&inc=0&seed=1&runs=0&time=0&sync=false&shm=a", "id=0&inc=0&seed=1&runs=0&time=0&sync=false", "id=0&inc=0&seed=1&runs=0&time=0&sync=false&shm=a&resume=-1", "id=0&inc=0&seed=1&runs=0&time=0&sync=false&shm=a&avoid=%%"} {
		if _, err := decodeWorkerSpec(bad); err == nil {
			t.Errorf("decoded %q", bad)
		}
	}
}

// TestPlainTestRun: a command line of go test's flags naming a Test or
// Example (a test's helper process) is left to the testing package; one
// naming a fuzz target (OSS-Fuzz's coverage run), or with a fuzz binary
// flag, is not.
func TestPlainTestRun(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-test.run=TestHelperProcess", "--", "echo", "-n", "hi"}, true},
		{[]string{"-test.run=^TestHelperProcess$"}, true},
		{[]string{"-test.v", "-test.run", "^TestX$", "-test.timeout", "10s"}, true},
		{[]string{"-test.run=ExampleFoo"}, true},
		{[]string{"-test.run=^FuzzB$", "-test.coverprofile", "p.out"}, false},
		{[]string{"-test.run=TestX", "-runs", "5"}, false},
		{[]string{"-test.v"}, false},
		{[]string{"FuzzA"}, false},
		{nil, false},
	} {
		if got := plainTestRun(c.args); got != c.want {
			t.Errorf("plainTestRun(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// TestNoReportOfARefusedRun: a run refused before it started (no summary,
// exit 2: a locked work directory, a target that does not start) writes
// no report; one that ran does.
func TestNoReportOfARefusedRun(t *testing.T) {
	wd, err := workdir.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rep := filepath.Join(t.TempDir(), "r")
	var errb bytes.Buffer
	c := &config{report: rep, stderr: &errb}
	c.run.Workdir = wd.Root
	if code := c.withReport(func(*config) int { return ExitUsage }); code != ExitUsage {
		t.Errorf("code %d", code)
	}
	if _, err := os.Stat(rep); err == nil || strings.Contains(errb.String(), "report:") {
		t.Errorf("a report of a refused run: %v, %q", err, errb.String())
	}
	code := c.withReport(func(c *config) int { c.summary = &engine.Summary{}; return ExitOK })
	if _, err := os.Stat(filepath.Join(rep, "index.html")); code != ExitOK || err != nil {
		t.Errorf("a run that ran: code %d, report %v (%s)", code, err, errb.String())
	}
}
