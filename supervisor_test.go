package gfz_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/testmod"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// The tests below build testdata/crashers with gfz-build (once per test
// process) and run its targets under the supervisor.

var crashers struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	log  string
}

// crashersBinary builds the crasher fixtures once and returns the binary.
func crashersBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the crasher fixtures with gfz-build")
	}
	crashers.once.Do(func() {
		crashers.dir, crashers.err = os.MkdirTemp("", "gfz-crashers")
		if crashers.err != nil {
			return
		}
		bin := filepath.Join(crashers.dir, "crashers.gfz")
		log, err := testmod.GfzBuild(".", "-o", bin, "./testdata/crashers")
		crashers.log = string(log)
		if err != nil {
			crashers.err = err
			return
		}
		crashers.bin = bin
	})
	if crashers.err != nil {
		t.Fatalf("build crashers: %v\n%s", crashers.err, crashers.log)
	}
	return crashers.bin
}

func TestMain(m *testing.M) {
	testmod.Main(runAndClean{m})
}

// runAndClean runs the tests, then removes the binaries built once for
// all of them.
type runAndClean struct{ m *testing.M }

func (r runAndClean) Run() int {
	code := r.m.Run()
	if crashers.dir != "" {
		os.RemoveAll(crashers.dir)
	}
	if lfz.dir != "" {
		os.RemoveAll(lfz.dir)
	}
	return code
}

// runBin runs the fuzz binary with args and returns its combined output and
// exit status.
// failingRun runs the fuzz binary with -workdir wd and args, requires exit
// status 1 (failures found) and returns its output and the failure reports
// saved in wd.
func failingRun(t *testing.T, bin, wd string, args ...string) (string, []string) {
	t.Helper()
	out, code := runBin(t, bin, append([]string{"-workdir", wd}, args...)...)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*.txt"))
	return out, reports
}

func runBin(t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return string(out), 0
}

// readStats parses a work directory's stats file.
func readStats(t *testing.T, wd string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(wd, "stats"))
	if err != nil {
		t.Fatalf("stats: %v", err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok {
			m[k] = v
		}
	}
	return m
}

func statInt(t *testing.T, st map[string]string, key string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(st[key], 10, 64)
	if err != nil {
		t.Fatalf("stats %s = %q: %v", key, st[key], err)
	}
	return n
}

var foundAtRe = regexp.MustCompile(`(?m)^found at execution: (\d+)\b`)

// TestCrashKinds runs a target per way of dying: each death is saved once
// (deduplicated over many restarts), with its kind, and fuzzing goes on to
// the end of the execution budget.
func TestCrashKinds(t *testing.T) {
	bin := crashersBinary(t)
	cases := []struct {
		target string
		kind   string // the report's kind line
		sig    string // in the signature
		args   []string
		limit  string // the flags of its reproduce command before -repro
	}{
		{"FuzzGoPanic", "panic: boom in a goroutine", "crashers.FuzzGoPanic.func1.1 crashers_test.go:", nil, ""},
		{"FuzzMapWrite", "fatal error: concurrent map writes", "crashers_test.go:", nil, ""},
		// The workers' 64 MiB stack limit (-stack_limit_mb) makes an
		// endless recursion overflow in milliseconds on an idle machine,
		// and the report names the limit (checked below). Beside the
		// other cases' allocation sprees on a loaded machine, growing
		// and copying 64 MiB of stack took over a second of the worker's
		// CPU time: a generous timeout keeps the case about the kind.
		{"FuzzStack", "fatal error: stack overflow", "crashers.Recurse crashers.go:", []string{"-timeout", "10s"}, " -stack_limit_mb 64 -repro "},
		{"FuzzExit", "exit status 3", "exit status 3", nil, ""},
		{"FuzzLogFatal", "exit status 1", "exit status 1", nil, ""},
		{"FuzzSegv", "signal SIGSEGV", "signal SIGSEGV", nil, ""},
		{"FuzzGoexit", "runtime.Goexit", "crashers.FuzzGoexit.func1 crashers_test.go:", nil, ""},
		{"FuzzHang", "timeout", `timeout\ngithub.com/gfz-dev/gfz/testdata/crashers.Spin\n`, []string{"-timeout", "500ms"}, " -timeout 500ms -repro "},
		// On a loaded machine the allocation spree can outlast the 1s
		// calibrated timeout before it reaches the memory limit: a
		// generous timeout keeps the test about memory.
		{"FuzzAlloc", "out of memory", "out of memory", []string{"-rss_limit_mb", "64", "-timeout", "20s"}, " -rss_limit_mb 64 -repro "},
	}
	for _, c := range cases {
		t.Run(c.target, func(t *testing.T) {
			t.Parallel()
			runs, args := 1500, []string{"-workers", "1", "-seed", "3"}
			if c.target == "FuzzHang" || c.target == "FuzzAlloc" || c.target == "FuzzStack" {
				// Every death costs the timeout, an allocation spree or 64
				// MiB of stack, and so does every step of shrinking it (a
				// -repro process each; TestShrinkDeath shrinks a hang):
				// 14-43 s a case before.
				runs = 300
				args = append(args, "-shrinkruns", "0")
			}
			wd := filepath.Join(t.TempDir(), "wd")
			args = append(append(args, "-runs", strconv.Itoa(runs)), c.args...)
			out, reports := failingRun(t, bin, wd, append(args, c.target)...)
			if len(reports) != 1 {
				t.Fatalf("%d failure reports, want 1\n%s", len(reports), out)
			}
			rep, err := os.ReadFile(reports[0])
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(rep), "\nkind: "+c.kind+"\n") || !strings.Contains(string(rep), c.sig) {
				t.Errorf("report lacks kind %q / signature part %q:\n%.2000s", c.kind, c.sig, rep)
			}
			// The reproduce command carries the limit the failure passed
			// (a 500 ms hang or a 64 MiB allocation replayed as VALID
			// under -repro's own 10 s and 2048 MiB), and fails with it.
			m := regexp.MustCompile(`\nreproduce: (.*)\n`).FindStringSubmatch(string(rep))
			if m == nil {
				t.Errorf("no reproduce line:\n%.2000s", rep)
			} else if c.limit != "" {
				if !strings.Contains(m[1], c.limit) {
					t.Errorf("reproduce command lacks %q:\n%.2000s", c.limit, rep)
				} else if c.target != "FuzzStack" {
					args := strings.Fields(m[1])
					if rout, code := runBin(t, args[0], args[1:]...); code != 1 || !strings.Contains(rout, c.kind) {
						t.Errorf("its reproduce command: exit %d, want 1 and %q:\n%s", code, c.kind, rout)
					}
				}
			} else if !strings.HasPrefix(m[1], bin+" -repro ") {
				t.Errorf("reproduce command %q has flags for kind %q", m[1], c.kind)
			}
			// log.Fatal's message is in the report (a death without a
			// stack showed only its exit status).
			if c.target == "FuzzLogFatal" && (!strings.Contains(string(rep), "the target's last lines on stderr:") || !strings.Contains(string(rep), "crashers: log.Fatal on k == 7")) {
				t.Errorf("the report lacks log.Fatal's message:\n%.2000s", rep)
			}
			if c.target == "FuzzStack" && !strings.Contains(string(rep), "goroutine stacks are limited to 64 MiB in fuzz workers (-stack_limit_mb 64;") {
				t.Errorf("a stack overflow's report does not name the stack limit:\n%.2000s", rep)
			}
			if _, err := workdir.ReadInputFile(strings.TrimSuffix(reports[0], ".txt") + ".input"); err != nil {
				t.Errorf("failure input: %v", err)
			}
			st := readStats(t, wd)
			fm := foundAtRe.FindSubmatch(rep)
			if fm == nil {
				t.Fatalf("no 'found at execution' in the report")
			}
			found, _ := strconv.ParseInt(string(fm[1]), 10, 64)
			if execs := statInt(t, st, "execs"); execs != int64(runs) || found >= execs {
				t.Errorf("execs %d (found at %d), want the whole budget %d after the failure", execs, found, runs)
			}
			// Several deaths, one saved failure.
			if r := statInt(t, st, "restarts"); r < 2 {
				t.Errorf("restarts %d, want several", r)
			}
			if n := statInt(t, st, "unique_failures"); n != 1 {
				t.Errorf("unique_failures %d", n)
			}
			if strings.Count(out, "gfz: new failure") != 1 {
				t.Errorf("want one 'new failure' line:\n%s", out)
			}
		})
	}
}

// TestSlowInputsUnderLoad: on a CPU shared with busy loops (everything
// pinned to one CPU with taskset, the worker getting a seventh of it), an
// input that needs a quarter of the timeout in CPU time takes about twice
// the timeout in wall time and finishes. The watchdog counts the worker's
// own time (scheduler statistics), so such inputs are neither killed nor
// reported: no timeout, no restart, no failure. (Counting wall time, each
// was killed and, its re-run being just as slow, saved as a TIMEOUT.)
func TestSlowInputsUnderLoad(t *testing.T) {
	bin := crashersBinary(t)
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("needs taskset (util-linux) to share one CPU")
	}
	if _, ok := readUsage(); !ok {
		t.Skip("no scheduler statistics (/proc/PID/task/*/schedstat) here")
	}
	for range 6 {
		busy := exec.Command("taskset", "-c", "0", "sh", "-c", "while :; do :; done")
		if err := busy.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = busy.Process.Kill(); _ = busy.Wait() })
	}
	wd := filepath.Join(t.TempDir(), "wd")
	cmd := exec.Command("taskset", "-c", "0", bin, "-workers", "1", "-seed", "3", "-runs", "40", "-timeout", "1s", "-workdir", wd, "FuzzBurn")
	cmd.Env = append(os.Environ(), "GFZ_BURN_MS=250")
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err != nil {
		t.Fatalf("%v, want exit 0\n%s", err, out)
	}
	st := readStats(t, wd)
	for _, key := range []string{"timeouts", "unconfirmed_timeouts", "restarts", "unique_failures"} {
		if n := statInt(t, st, key); n != 0 {
			t.Errorf("%s %d, want 0\n%s", key, n, out)
		}
	}
	if n := statInt(t, st, "execs"); n != 40 {
		t.Errorf("execs %d, want 40", n)
	}
}

// readUsage tells whether this machine has the scheduler statistics the
// watchdog reads.
func readUsage() (string, bool) {
	b, err := os.ReadFile("/proc/self/schedstat")
	return string(b), err == nil
}

// TestUnconfirmedTimeout: a worker killed for running past the timeout on
// an input that, re-run alone, returns at once is not reported as a
// failure: the run exits 0 with a warning, the input is kept in
// unconfirmed/ and stats count it.
func TestUnconfirmedTimeout(t *testing.T) {
	bin := crashersBinary(t)
	dir := t.TempDir()
	wd := filepath.Join(dir, "wd")
	marker := filepath.Join(dir, "slow-once")
	cmd := exec.Command(bin, "-workers", "1", "-seed", "3", "-runs", "300", "-timeout", "1s", "-workdir", wd, "FuzzSlowOnce")
	cmd.Env = append(os.Environ(), "GFZ_SLOW_ONCE="+marker)
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err != nil {
		t.Fatalf("%v, want exit 0\n%s", err, out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the target never hung: %v\n%s", err, out)
	}
	if reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*")); len(reports) != 0 {
		t.Errorf("failures saved: %v\n%s", reports, out)
	}
	kept, _ := filepath.Glob(filepath.Join(wd, "unconfirmed", "*.input"))
	if len(kept) != 1 {
		t.Fatalf("unconfirmed inputs %v, want one\n%s", kept, out)
	}
	for _, want := range []string{"WARNING: worker 0: execution ", "ran for more than 1s, but its input ran to its end within 1s when re-run alone",
		"1 timeout not confirmed when re-run alone"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	st := readStats(t, wd)
	if n := statInt(t, st, "timeouts"); n != 1 {
		t.Errorf("timeouts %d, want 1", n)
	}
	if n := statInt(t, st, "unconfirmed_timeouts"); n != 1 {
		t.Errorf("unconfirmed_timeouts %d, want 1", n)
	}
	// The kept input runs with -repro (and returns now).
	if out, code := runBin(t, bin, "-repro", kept[0], "FuzzSlowOnce"); code != 0 {
		t.Errorf("-repro of the kept input: exit %d\n%s", code, out)
	}
}

// TestNativeHangSignature: a hang in a native f.Fuzz target, whose
// function runs in a goroutine of its own, is named by that goroutine's
// frames, not reported as a bare "timeout".
func TestNativeHangSignature(t *testing.T) {
	bin := crashersBinary(t)
	out, reports := failingRun(t, bin, filepath.Join(t.TempDir(), "wd"), "-workers", "1", "-seed", "1", "-runs", "20", "-timeout", "500ms", "FuzzNativeHang")
	if len(reports) != 1 {
		t.Fatalf("%d failure reports, want 1\n%s", len(reports), out)
	}
	rep, _ := os.ReadFile(reports[0])
	if !strings.Contains(string(rep), "\nkind: timeout\n") || !strings.Contains(string(rep), `signature: "timeout\ngithub.com/gfz-dev/gfz/testdata/crashers.Spin\n`) {
		t.Errorf("report of a native target's hang:\n%.3000s", rep)
	}
}

// TestCrashRepro: the saved input of a crash reproduces it with -repro.
func TestCrashRepro(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	if out, code := runBin(t, bin, "-workers", "1", "-runs", "500", "-workdir", wd, "FuzzGoPanic"); code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	inputs, _ := filepath.Glob(filepath.Join(wd, "failures", "*.input"))
	if len(inputs) != 1 {
		t.Fatalf("inputs %v", inputs)
	}
	out, code := runBin(t, bin, "-repro", inputs[0], "FuzzGoPanic")
	wantOutput(t, "-repro of a crash", out, code, 1, "boom in a goroutine", "crashed while running the input")
}

// TestWorkersDeterminism: with one worker a run is reproducible, crashes
// and restarts included.
func TestWorkersDeterminism(t *testing.T) {
	bin := crashersBinary(t)
	var corpora [2]string
	for i := range corpora {
		wd := filepath.Join(t.TempDir(), "wd")
		if out, code := runBin(t, bin, "-workers", "1", "-seed", "7", "-runs", "3000", "-workdir", wd, "FuzzGoPanic"); code != 1 {
			t.Fatalf("exit %d\n%s", code, out)
		}
		ents, _ := os.ReadDir(filepath.Join(wd, "corpus"))
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		fails, _ := filepath.Glob(filepath.Join(wd, "failures", "*"))
		for _, f := range fails {
			names = append(names, filepath.Base(f))
		}
		corpora[i] = strings.Join(names, " ")
	}
	if corpora[0] != corpora[1] {
		t.Errorf("two -workers 1 runs differ:\n%s\n%s", corpora[0], corpora[1])
	}
}

// TestWorkersShare: two workers split the budget, share the work
// directory and the status aggregates both.
func TestWorkersShare(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	out, code := runBin(t, bin, "-workers", "2", "-runs", "20000", "-workdir", wd, "FuzzFine")
	wantOutput(t, "two workers", out, code, 0, "execs 20000", "workers 2")
	st := readStats(t, wd)
	if statInt(t, st, "execs") != 20000 || st["workers"] != "2" || st["restarts"] != "0" {
		t.Errorf("stats %v", st)
	}
	if statInt(t, st, "corpus") < 2 {
		t.Errorf("corpus %s", st["corpus"])
	}
}

// TestStability: coverage that differs between two runs of one input
// lowers the stability figure; a deterministic target stays at 100%.
func TestStability(t *testing.T) {
	bin := crashersBinary(t)
	for target, want := range map[string]bool{"FuzzFlaky": true, "FuzzFine": false} {
		wd := filepath.Join(t.TempDir(), "wd")
		if out, code := runBin(t, bin, "-workers", "1", "-runs", "2000", "-workdir", wd, target); code != 0 {
			t.Fatalf("%s: exit %d\n%s", target, code, out)
		}
		st := readStats(t, wd)
		if unstable := st["stability"] != "100.00"; unstable != want {
			t.Errorf("%s: stability %s", target, st["stability"])
		}
	}
}

// TestCorruptWorkdir feeds a work directory with broken entries: each is
// reported and skipped, the run goes on.
func TestCorruptWorkdir(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	corpus, failures := filepath.Join(wd, "corpus"), filepath.Join(wd, "failures")
	for _, d := range []string{corpus, failures, filepath.Join(corpus, "subdir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(corpus, "good"):            string(workdir.EncodeInput([]byte{1, 'g', 'f', 'z', '!'})),
		filepath.Join(corpus, "truncated"):       "go test fuzz v1\n[]byte(\"\\x01gf",
		filepath.Join(corpus, "empty"):           "",
		filepath.Join(corpus, "oldformat"):       "go test fuzz v0\n[]byte(\"abc\")\n",
		filepath.Join(corpus, "twovalues"):       "go test fuzz v1\nint(1)\nint(2)\n",
		filepath.Join(corpus, ".good.tmp123"):    "go test fuzz v1\n[]byte(\"partial",
		filepath.Join(failures, "abc.txt"):       "gfz failure report\nno signature here\n",
		filepath.Join(failures, "abc.input"):     "garbage",
		filepath.Join(failures, "def.txt"):       "gfz failure report\nno signature here either\n",
		filepath.Join(failures, ".x.txt.tmp999"): "partial",
		filepath.Join(wd, "stats"):               "half a stats fi",
		filepath.Join(wd, "plot_data"):           "not a plot",
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runBin(t, bin, "-workers", "2", "-runs", "2000", "-workdir", wd, "FuzzFine")
	if n := strings.Count(out, "abc.txt cannot be read (no signature line)"); n != 1 {
		t.Errorf("the bad report is mentioned %d times, want once", n)
	}
	wantOutput(t, "corrupt workdir", out, code, 0, "resuming from 1 corpus files",
		"truncated: malformed line", "empty: empty corpus file", "oldformat: bad header", "twovalues: malformed line",
		"skipping unreadable failure report", "def.txt: no signature line", "kept as "+filepath.Join(failures, "abc.txt.bad"))
	// A bad report and its input are moved aside, whole, so that their
	// claim on the failure's name is released.
	for _, f := range []string{"abc.txt.bad", "abc.input.bad"} {
		if _, err := os.Stat(filepath.Join(failures, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if strings.Contains(out, ".good.tmp123") || strings.Contains(out, "panic") {
		t.Errorf("temporary file reported or a crash:\n%s", out)
	}
	if st := readStats(t, wd); st["execs"] != "2000" {
		t.Errorf("stats %v", st)
	}
	// An unusable work directory is an error at startup (exit 2).
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runBin(t, bin, "-runs", "10", "-workdir", filepath.Join(blocker, "wd"), "FuzzFine")
	wantOutput(t, "unusable workdir", out, code, 2, "work directory")
}

// inputLineRe matches the input path of a printed failure.
var inputLineRe = regexp.MustCompile(`(?m)^\tinput: (\S+)$`)

// TestKillAndResume SIGKILLs workers and then the supervisor at seeded
// random moments, three times over the same work directory, and checks
// after each kill that every failure printed and every corpus entry counted
// in the stats is on disk and readable; the final run resumes cleanly.
func TestKillAndResume(t *testing.T) {
	bin := crashersBinary(t)
	dir := t.TempDir()
	wd := filepath.Join(dir, "wd")
	rng := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 3; round++ {
		cmd := exec.Command(bin, "-workers", "2", "-seed", strconv.Itoa(round+1), "-workdir", wd, "-timeout", "1s", "FuzzGoPanic")
		cmd.Dir = dir
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var printed []string
		var outBuf strings.Builder
		readDone := make(chan struct{})
		go func() {
			defer close(readDone)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				mu.Lock()
				outBuf.WriteString(sc.Text() + "\n")
				if m := inputLineRe.FindStringSubmatch(sc.Text()); m != nil {
					printed = append(printed, m[1])
				}
				mu.Unlock()
			}
		}()
		// Wait for the workers to run and the first status (stats file
		// rewritten by this run), then kill some workers at random.
		start := time.Now().Unix()
		pollUntil(t, 30*time.Second, func() bool {
			b, err := os.ReadFile(filepath.Join(wd, "stats"))
			return err == nil && bytes.Contains(b, []byte("state: running")) && startTime(b) >= start-1 && len(childPIDs(cmd.Process.Pid)) == 2
		})
		for k := 0; k < 1+rng.IntN(3); k++ {
			time.Sleep(time.Duration(50+rng.IntN(400)) * time.Millisecond)
			pids := childPIDs(cmd.Process.Pid)
			if len(pids) > 0 {
				syscall.Kill(pids[rng.IntN(len(pids))], syscall.SIGKILL)
			}
		}
		time.Sleep(time.Duration(100+rng.IntN(500)) * time.Millisecond)
		// What has been reported so far: the stats file and the output.
		var statsCorpus int64 = -1
		if b, err := os.ReadFile(filepath.Join(wd, "stats")); err == nil {
			if m := regexp.MustCompile(`(?m)^corpus: (\d+)$`).FindSubmatch(b); m != nil {
				statsCorpus, _ = strconv.ParseInt(string(m[1]), 10, 64)
			}
		}
		workers := childPIDs(cmd.Process.Pid)
		cmd.Process.Kill()
		cmd.Wait()
		<-readDone
		// The workers die with the supervisor.
		pollUntil(t, 10*time.Second, func() bool {
			for _, p := range workers {
				if syscall.Kill(p, 0) == nil && !isZombie(p) {
					return false
				}
			}
			return true
		})
		mu.Lock()
		for _, p := range printed {
			path := p
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, p)
			}
			if _, err := workdir.ReadInputFile(path); err != nil {
				t.Errorf("round %d: reported failure %s: %v", round, p, err)
			}
			if rep, err := os.ReadFile(strings.TrimSuffix(path, ".input") + ".txt"); err != nil || !bytes.Contains(rep, []byte("\nsignature: ")) {
				t.Errorf("round %d: report of %s: %v", round, p, err)
			}
		}
		mu.Unlock()
		ents, _ := os.ReadDir(filepath.Join(wd, "corpus"))
		good := 0
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if _, err := workdir.ReadInputFile(filepath.Join(wd, "corpus", e.Name())); err != nil {
				t.Errorf("round %d: corpus entry: %v", round, err)
			} else {
				good++
			}
		}
		if int64(good) < statsCorpus {
			t.Errorf("round %d: %d corpus entries on disk, stats reported %d", round, good, statsCorpus)
		}
		t.Logf("round %d: %d failures printed, %d corpus entries (stats said %d)", round, len(printed), good, statsCorpus)
	}
	// Resuming: no complaint about the work directory.
	out, code := runBin(t, bin, "-workers", "1", "-runs", "500", "-workdir", wd, "FuzzGoPanic")
	if code != 0 && code != 1 || strings.Contains(out, "corrupt") || strings.Contains(out, "unreadable") || !strings.Contains(out, "resuming from") {
		t.Errorf("resume: exit %d\n%s", code, out)
	}
}

// startTime reads start_time from a stats file.
func startTime(stats []byte) int64 {
	m := regexp.MustCompile(`(?m)^start_time: (\d+)$`).FindSubmatch(stats)
	if m == nil {
		return 0
	}
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return n
}

// childPIDs lists the child processes of pid (Linux /proc; children are
// listed per thread of pid).
func childPIDs(pid int) []int {
	var all []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, tk := range tasks {
		c, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, tk.Name()))
		all = append(all, parseInts(string(c))...)
	}
	return all
}

func parseInts(s string) []int {
	var out []int
	for _, f := range strings.Fields(s) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}

// pollUntil polls cond every 20ms until it holds or the (generous)
// deadline passes.
func pollUntil(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not reached within %v", limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startRunning starts the fuzz binary bin with args and work directory wd
// (in its own process group if group) and returns once its stats say it
// is running, with the buffer its stderr goes to.
func startRunning(t *testing.T, bin, wd string, group bool, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-workdir", wd}, args...)...)
	cmd.Dir = filepath.Dir(wd)
	if group {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	out := new(bytes.Buffer)
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pollUntil(t, 30*time.Second, func() bool {
		b, err := os.ReadFile(filepath.Join(wd, "stats"))
		return err == nil && bytes.Contains(b, []byte("state: running"))
	})
	return cmd, out
}

// TestInterrupt: SIGINT stops a run cleanly (exit 0, final stats written)
// and the next run resumes from the work directory.
func TestInterrupt(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	cmd, out := startRunning(t, bin, wd, false, "-workers", "2", "FuzzFine")
	cmd.Process.Signal(os.Interrupt)
	// A run that ignored SIGINT would go on for ever: kill it after a
	// generous grace and fail.
	guard := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	if !guard.Stop() {
		t.Fatalf("the run did not stop within 2 minutes of SIGINT\n%s", out.String())
	}
	if err != nil {
		t.Fatalf("interrupted run: %v\n%s", err, out.String())
	}
	st := readStats(t, wd)
	if st["state"] != "done" || statInt(t, st, "execs") == 0 || st["restarts"] != "0" || st["unique_failures"] != "0" {
		t.Errorf("stats after SIGINT: %v", st)
	}
	if !strings.Contains(out.String(), "gfz: done:") {
		t.Errorf("no final summary:\n%s", out.String())
	}
	o, code := runBin(t, bin, "-workers", "1", "-runs", "100", "-workdir", wd, "FuzzFine")
	wantOutput(t, "resume", o, code, 0, "resuming from")
}

// TestInterruptHandledByTarget: a target that handles the interrupt itself
// and exits (a command-line program's signal.Notify) ends its worker in
// the middle of an execution when the run is stopped; that is the stop,
// not a failure of the target: exit 0, no failure saved. Both when the
// interrupt is sent to the supervisor and when Ctrl-C is sent to its
// process group (the workers run in groups of their own: it reaches them
// through the supervisor).
func TestInterruptHandledByTarget(t *testing.T) {
	bin := crashersBinary(t)
	for _, group := range []bool{false, true} {
		wd := filepath.Join(t.TempDir(), "wd")
		cmd, out := startRunning(t, bin, wd, true, "-workers", "1", "-time", "2m", "FuzzInterruptExit")
		if group {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		} else {
			cmd.Process.Signal(os.Interrupt)
		}
		guard := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
		err := cmd.Wait()
		if !guard.Stop() {
			t.Fatalf("group %v: the run did not stop within 2 minutes of SIGINT\n%s", group, out.String())
		}
		if err != nil || strings.Contains(out.String(), "new failure") {
			t.Errorf("group %v: interrupted run: %v\n%s", group, err, out.String())
		}
		if st := readStats(t, wd); st["unique_failures"] != "0" {
			t.Errorf("group %v: stats after SIGINT: %v", group, st)
		}
	}
}

// TestUsageErrorMidRun: a worker that ends the run with a usage error in
// the middle of an execution (a native target's unsupported testing.T
// method, on a Go release whose testing package gfz cannot drive)
// stops the run with exit 2 and its message; no failure is saved and the
// worker is not restarted (it was saved as a crash of "exit status 82",
// the worker restarted on every such input). t.Parallel is not one: it
// has no effect.
func TestUsageErrorMidRun(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	out, code := runBin(t, bin, "-workers", "1", "-time", "30s", "-workdir", wd, "FuzzUsageMidRun")
	wantOutput(t, "usage error mid-run", out, code, 2, "a method gfz does not support")
	if strings.Contains(out, "new failure") || strings.Count(out, "does not support") != 1 {
		t.Errorf("a failure saved, or the message repeated:\n%s", out)
	}
	if st := readStats(t, wd); st["unique_failures"] != "0" || st["restarts"] != "0" {
		t.Errorf("stats %v", st)
	}
	// t.Parallel on the fuzz function's T has no effect: inputs that
	// call it run as any other.
	wd = filepath.Join(t.TempDir(), "wd")
	out, code = runBin(t, bin, "-workers", "1", "-runs", "20000", "-workdir", wd, "FuzzNativeParallel")
	wantOutput(t, "t.Parallel", out, code, 0, "execs 20000")
	if strings.Contains(out, "does not support") || strings.Contains(out, "new failure") {
		t.Errorf("t.Parallel stopped the run or failed it:\n%s", out)
	}
}

// TestFatalInGoroutine: t.Fatal in a goroutine the fuzz function started
// cannot stop the execution; the worker dies of its panic, and the report
// says why and keeps the message (it said "panic: gfz: FailNow").
func TestFatalInGoroutine(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	out, reports := failingRun(t, bin, wd, "-workers", "1", "-runs", "1000", "FuzzFatalGoroutine")
	if len(reports) != 1 {
		t.Fatalf("%d reports\n%s", len(reports), out)
	}
	rep, err := os.ReadFile(reports[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stops an execution only in the goroutine running the fuzz function", "the message: checked in a goroutine: bad value 7"} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
}

// TestNoOrphans: the commands a target started are ended with the worker
// that died (its process group): a target that runs commands and crashes
// left one set running per death.
func TestNoOrphans(t *testing.T) {
	bin := crashersBinary(t)
	// A duration no other process on the machine sleeps for, to find them.
	dur := fmt.Sprintf("%d.%d", 3000+os.Getpid()%1000, rand.IntN(1000))
	t.Setenv("CRASHERS_ORPHAN_SLEEP", dur)
	wd := filepath.Join(t.TempDir(), "wd")
	out, reports := failingRun(t, bin, wd, "-workers", "1", "-runs", "600", "-shrinktime", "0", "FuzzOrphan")
	if len(reports) != 1 {
		t.Fatalf("%d reports\n%s", len(reports), out)
	}
	if st := readStats(t, wd); statInt(t, st, "crashes") < 2 {
		t.Fatalf("%s crashes: the case needs several deaths\n%s", st["crashes"], out)
	}
	left, _ := exec.Command("pgrep", "-f", "sleep "+dur).Output()
	if len(bytes.TrimSpace(left)) > 0 {
		exec.Command("pkill", "-f", "sleep "+dur).Run()
		t.Errorf("commands of dead workers still running: pids %s", bytes.Fields(left))
	}
}

// TestHelperProcessIdiom: a target that runs its own binary as a helper
// process (-test.run=TestHelperProcess, os/exec's idiom) gets the helper's
// answer; the fuzz binary took the command line for OSS-Fuzz's coverage
// run and refused it, a failure of every such input.
func TestHelperProcessIdiom(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	out, code := runBin(t, bin, "-workers", "1", "-runs", "300", "-workdir", wd, "FuzzHelperProcess")
	wantOutput(t, "helper process", out, code, 0)
	if st := readStats(t, wd); st["unique_failures"] != "0" {
		t.Errorf("stats %v\n%s", st, out)
	}
}

// TestStackLimitRepro: a stack overflow found under -stack_limit_mb 16
// (a recursion of about 32 MiB, within the 64 MiB default) is shrunk and
// reproduced under that limit: the -repro children took their own default
// (the failure shrank "(flaky?)" and its reproduce command said VALID).
func TestStackLimitRepro(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	out, reports := failingRun(t, bin, wd, "-workers", "1", "-seed", "3", "-runs", "1500", "-timeout", "20s", "-stack_limit_mb", "16", "FuzzDeep")
	if len(reports) != 1 {
		t.Fatalf("%d failure reports, want 1\n%s", len(reports), out)
	}
	rep, err := os.ReadFile(reports[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rep), "\nkind: fatal error: stack overflow\n") || strings.Contains(string(rep), "flaky?") {
		t.Fatalf("report:\n%.2000s", rep)
	}
	m := regexp.MustCompile(`\nreproduce: (.*)\n`).FindStringSubmatch(string(rep))
	if m == nil || !strings.Contains(m[1], " -stack_limit_mb 16 -repro ") {
		t.Fatalf("reproduce line:\n%.2000s", rep)
	}
	args := strings.Fields(m[1])
	if rout, code := runBin(t, args[0], args[1:]...); code != 1 || !strings.Contains(rout, "stack overflow") {
		t.Errorf("its reproduce command: exit %d, want 1 and a stack overflow:\n%s", code, rout)
	}
}

// TestGCPercentInWorkers: the processes that run the target collect at
// GOGC=200 unless GOGC is set, the fuzzing workers and the -repro children
// that check and shrink a failure alike: the panic FuzzGOGC reports its
// process's percentage in is kept through shrinking ("(flaky?)" otherwise)
// and its reproduce command says the same.
func TestGCPercentInWorkers(t *testing.T) {
	bin := crashersBinary(t)
	for _, c := range []struct {
		env  []string
		want string
	}{
		{nil, "gogc 200 percent"},
		{[]string{"GOGC=50"}, "gogc 50 percent"},
	} {
		wd := filepath.Join(t.TempDir(), "wd")
		cmd := exec.Command(bin, "-workdir", wd, "-workers", "1", "-seed", "1", "-runs", "3000", "FuzzGOGC")
		cmd.Env = append(os.Environ(), "GOGC=")
		cmd.Env = append(cmd.Env, c.env...)
		out, _ := cmd.CombinedOutput()
		reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*.txt"))
		if len(reports) != 1 {
			t.Fatalf("%v: %d failure reports, want 1\n%s", c.env, len(reports), out)
		}
		rep, err := os.ReadFile(reports[0])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(rep), c.want) || strings.Contains(string(rep), "flaky?") {
			t.Fatalf("%v: report lacks %q or is flaky:\n%.2000s", c.env, c.want, rep)
		}
		m := regexp.MustCompile(`\nreproduce: (.*)\n`).FindStringSubmatch(string(rep))
		if m == nil {
			t.Fatalf("no reproduce line:\n%.2000s", rep)
		}
		args := strings.Fields(m[1])
		rc := exec.Command(args[0], args[1:]...)
		rc.Env = cmd.Env
		if rout, _ := rc.CombinedOutput(); !strings.Contains(string(rout), c.want) {
			t.Errorf("%v: its reproduce command lacks %q:\n%s", c.env, c.want, rout)
		}
	}
}

// TestSetupExitNamed: a target that exits in its setup, before gfz.Fuzz,
// printing nothing, is a setup error naming how its worker ended (the
// message sent the user to "the testing output above", which was empty).
func TestSetupExitNamed(t *testing.T) {
	bin := crashersBinary(t)
	t.Setenv("CRASHERS_SETUP_EXIT", "1")
	out, code := runBin(t, bin, "-workers", "1", "-runs", "100", "-workdir", filepath.Join(t.TempDir(), "wd"), "FuzzSetupExit")
	wantOutput(t, "setup exit", out, code, 2, "ended without running gfz's engine (its worker process ended: exit status 5)")
}

// TestSeedCrashLoop: a seed that kills every worker while it is replayed
// is saved once; after a slot died on it twice in a row, the workers skip
// it and the run goes on fuzzing to its budget (it used to give the slots
// up: a run of no executions).
func TestSeedCrashLoop(t *testing.T) {
	bin := crashersBinary(t)
	t.Setenv("CRASHERS_SEED_EXIT", "1") // inherited by the fuzz binary
	wd := filepath.Join(t.TempDir(), "wd")
	// The seed's input is in the corpus too: the warning names the file.
	killer := filepath.Join(wd, "corpus", "killer")
	if err := os.MkdirAll(filepath.Dir(killer), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(killer, []byte("go test fuzz v1\n[]byte(\"c\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runBin(t, bin, "-workers", "2", "-runs", "3000", "-workdir", wd, "FuzzSeedExit")
	wantOutput(t, "seed crash loop", out, code, 1, "new failure (exit status 4)", "the workers skip it from now on",
		"the corpus entry "+killer)
	if strings.Contains(out, "not restarting it") {
		t.Errorf("a slot was given up:\n%s", out)
	}
	// Byte 99 kills a worker in fuzzing too (1 input in 256): a few more
	// restarts, each of the same failure.
	if st := readStats(t, wd); st["unique_failures"] != "1" || statInt(t, st, "execs") < 3000 || statInt(t, st, "restarts") > 60 {
		t.Errorf("stats %v", st)
	}
}

// TestDeathPastParams: a worker that dies on an input read past its
// parameters (the random engine's are empty: every byte is the PRNG
// extension) is saved with the input it ran: the saved input dies the same
// way under -repro and is shrunk. The supervisor rebuilds it from the
// parameters and the seed, and the extension used to depend on the widths
// of the draws that read it: the rebuilt input decoded to other values,
// did not fail, and every hang of a random child was "unconfirmed".
func TestDeathPastParams(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	out, reports := failingRun(t, bin, wd, "-engine", "random", "-workers", "1", "-runs", "200", "FuzzExitLate")
	if len(reports) != 1 || !strings.Contains(out, "new failure (exit status 3)") {
		t.Fatalf("%d reports\n%s", len(reports), out)
	}
	if strings.Contains(out, "did not fail the same way") {
		t.Errorf("the saved input did not fail again:\n%s", out)
	}
	rout, code := runBin(t, bin, "-repro", strings.TrimSuffix(reports[0], ".txt")+".input", "FuzzExitLate")
	if code == 0 || !strings.Contains(rout, "exit status 3") {
		t.Errorf("-repro of the saved input: exit %d\n%s", code, rout)
	}
}

// TestSlowDeathNotAHang: a worker stopped as hung whose input, re-run
// alone, dies at once of something else (a death slower than the timeout,
// as on a loaded machine) is reported as that death, not kept as an
// unconfirmed timeout (its failure was lost so).
func TestSlowDeathNotAHang(t *testing.T) {
	bin := crashersBinary(t)
	t.Setenv("CRASHERS_SLOW_MARK", filepath.Join(t.TempDir(), "mark")) // inherited by the fuzz binary
	wd := filepath.Join(t.TempDir(), "wd")
	out, code := runBin(t, bin, "-workers", "1", "-timeout", "500ms", "-runs", "300", "-workdir", wd, "FuzzSlowDeath")
	wantOutput(t, "slow death", out, code, 1, "new failure (panic", "re-run alone, the input died", "slow boom in a goroutine")
	if strings.Contains(out, "unconfirmed") {
		t.Errorf("reported as an unconfirmed timeout:\n%s", out)
	}
	if st := readStats(t, wd); st["unique_failures"] != "1" || st["unconfirmed_timeouts"] != "0" {
		t.Errorf("stats %v", st)
	}

	// A failure the executor recovers (a panic in the fuzz function): kept
	// as unconfirmed (the re-run is not classified), with a warning that
	// says the input failed (it said the input ran to its end).
	t.Setenv("CRASHERS_SLOW_MARK", filepath.Join(t.TempDir(), "mark"))
	t.Setenv("CRASHERS_SLOW_RECOVERABLE", "1")
	wd = filepath.Join(t.TempDir(), "wd")
	out, _ = runBin(t, bin, "-workers", "1", "-timeout", "500ms", "-runs", "300", "-workdir", wd, "FuzzSlowDeath")
	if !strings.Contains(out, "re-run alone, the input FAILED (not a timeout)") {
		t.Errorf("recoverable failure: the warning does not say the input failed:\n%s", out)
	}
}

// TestUnreadableCorpusFile: a corpus file the run may not read is reported
// by name and skipped; the run goes on. Tests usually run as root, who
// reads anything, so then the fuzz binary runs as user nobody (setpriv).
func TestUnreadableCorpusFile(t *testing.T) {
	bin := crashersBinary(t)
	var prefix []string
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		sp, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("running as root without setpriv: cannot make a file unreadable")
		}
		prefix = []string{sp, "--reuid=65534", "--regid=65534", "--clear-groups", "--"}
		// nobody must reach the binary and own the work directory.
		shared, err := os.MkdirTemp("", "gfz-unreadable")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(shared) })
		if err := os.Chmod(shared, 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(shared, "crashers.gfz")
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		dir = shared
	}
	wd := filepath.Join(dir, "wd")
	corpus := filepath.Join(wd, "corpus")
	if err := os.MkdirAll(filepath.Join(wd, "failures"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(corpus, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "good"), workdir.EncodeInput([]byte{1, 'g'}), 0o644); err != nil {
		t.Fatal(err)
	}
	unreadable := filepath.Join(corpus, "unreadable")
	if err := os.WriteFile(unreadable, workdir.EncodeInput([]byte{2}), 0o000); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		for _, d := range []string{wd, corpus, filepath.Join(wd, "failures")} {
			if err := os.Chown(d, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := append(prefix, bin, "-workers", "1", "-runs", "500", "-workdir", wd, "FuzzFine")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	o, err := cmd.CombinedOutput()
	out, code := string(o), 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	wantOutput(t, "unreadable corpus file", out, code, 0, unreadable, "permission denied", "resuming from 1 corpus files", "skipping unreadable corpus file")
	if st := readStats(t, wd); st["execs"] != "500" {
		t.Errorf("stats %v", st)
	}
}

// TestCrashGuided: a crash or hang in a guided child (engine ei, whose
// input is drawn as it runs) is saved once with the bytes it drew, and
// the saved input reproduces it.
func TestCrashGuided(t *testing.T) {
	bin := crashersBinary(t)
	for _, c := range []struct {
		target, want string
		args         []string
	}{
		{"FuzzExitAfterRead", "exit status 3", nil},
		// The watchdog counts the worker's CPU time, so a short timeout
		// is safe under load; each hang costs the timeout and a restart,
		// so fewer executions.
		{"FuzzHang", "timeout", []string{"-timeout", "500ms", "-runs", "400"}},
	} {
		t.Run(c.target, func(t *testing.T) {
			t.Parallel() // independent runs, each in its own work directory
			wd := filepath.Join(t.TempDir(), "wd")
			args := append([]string{"-engine", "ei", "-workers", "1", "-seed", "3", "-runs", "1500", "-workdir", wd}, c.args...)
			out, code := runBin(t, bin, append(args, c.target)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, out)
			}
			inputs, _ := filepath.Glob(filepath.Join(wd, "failures", "*.input"))
			if len(inputs) != 1 {
				t.Fatalf("failure inputs %v, want 1\n%s", inputs, out)
			}
			rep, err := os.ReadFile(strings.TrimSuffix(inputs[0], ".input") + ".txt")
			if err != nil || !strings.Contains(string(rep), "\nkind: "+c.want) {
				t.Fatalf("report (%v) lacks kind %q:\n%.1500s", err, c.want, rep)
			}
			rargs := append([]string{"-repro", inputs[0]}, c.args...)
			out, code = runBin(t, bin, append(rargs, c.target)...)
			if code != 1 || !strings.Contains(out, c.want) {
				t.Errorf("-repro of the saved input: exit %d, want 1 and %q:\n%s", code, c.want, out)
			}
		})
	}
}

// TestWorkerCleanups: a worker that ends normally lets the testing
// package end it, so that the fuzz target's F cleanups run (f.Cleanup,
// f.TempDir's directory), as under go test; it used to exit from inside
// the engine, leaking them in every worker process. Its PASS line is not
// printed.
func TestWorkerCleanups(t *testing.T) {
	bin := crashersBinary(t)
	mark := filepath.Join(t.TempDir(), "cleaned")
	t.Setenv("CRASHERS_CLEANUP_MARK", mark) // inherited by the fuzz binary
	wd := filepath.Join(t.TempDir(), "wd")
	// A shared memory file an earlier run, killed, left behind.
	stale := filepath.Join(wd, ".gfz-worker-7.shm")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, make([]byte, 64), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := runBin(t, bin, "-workers", "2", "-runs", "2000", "-workdir", wd, "FuzzFine")
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, out)
	}
	if left, _ := filepath.Glob(filepath.Join(wd, ".gfz-worker-*.shm")); len(left) != 0 {
		t.Errorf("shared memory files left in the work directory: %q", left)
	}
	marks, _ := filepath.Glob(mark + ".*")
	if len(marks) != 2 {
		t.Errorf("%d processes ran the F's cleanups, want the 2 workers", len(marks))
	}
	if strings.Contains(out, "PASS") {
		t.Errorf("a worker printed the testing package's PASS:\n%s", out)
	}
	// A -repro child too (describing and shrinking a failure run up to a
	// hundred of them).
	inputs, _ := filepath.Glob(filepath.Join(wd, "corpus", "*"))
	if len(inputs) == 0 {
		t.Fatal("no corpus")
	}
	if out, code := runBin(t, bin, "-repro", inputs[0], "FuzzFine"); code != 0 || strings.Contains(out, "PASS") {
		t.Errorf("-repro: exit status %d:\n%s", code, out)
	}
	if marks, _ := filepath.Glob(mark + ".*"); len(marks) != 3 {
		t.Errorf("after -repro, %d processes ran the F's cleanups, want 3", len(marks))
	}
}
