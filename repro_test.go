package gfz_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/internal/testmod"
)

// The tests below check -repro of inputs that end the process (a hang, a
// crash, os.Exit, memory), the description of such inputs for the
// supervisor, and the checks of seed corpora; they run the crasher
// fixtures (testdata/crashers) and testdata/seeds.

// trigger7 is an input on which every crashers target misbehaves: the
// k drawn by trigger is 7, then four maze bytes.
var trigger7 = []byte{7, 'a', 'b', 'c', 'd'}

// calm is an input on which none does (k = 1).
var calm = []byte{1, 'a', 'b', 'c', 'd'}

// runBinLimit is runBin with a deadline (a generous one: it only turns a
// hang into a failure instead of stalling the test suite).
func runBinLimit(t *testing.T, limit time.Duration, bin string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %q did not end within %v:\n%s", filepath.Base(bin), args, limit, out)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return string(out), 0
}

// inputFiles writes the inputs as native corpus files and returns their paths.
func inputFiles(t *testing.T, inputs ...[]byte) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, in := range inputs {
		p := filepath.Join(dir, "in"+string(rune('0'+i))+".input")
		writeInput(t, p, in)
		paths = append(paths, p)
	}
	return paths
}

const trigger7Values = "values:\n\tk = 7\n\tByte = 0x61\n\tByte = 0x62\n\tByte = 0x63\n\tByte = 0x64\n"

// TestReproTimeout: -repro of an input that hangs stops it after -timeout
// (SIGQUIT: the goroutine stacks are printed), reports a timeout with the
// values drawn, and exits 1.
func TestReproTimeout(t *testing.T) {
	bin := crashersBinary(t)
	in := inputFiles(t, trigger7)
	start := time.Now()
	out, code := runBinLimit(t, time.Minute, bin, "-timeout", "300ms", "-repro", in[0], "FuzzHang")
	wantOutput(t, "-repro of a hang", out, code, 1, "result: TIMEOUT", trigger7Values, "kind: timeout",
		"SIGQUIT", "crashers.Spin", "timeout: the input ran for more than 300ms")
	t.Logf("-repro of a hang with -timeout 300ms took %v", time.Since(start))
}

// TestReproCrashes: -repro of an input that ends the process (os.Exit,
// log.Fatal, a fatal runtime error, memory above -rss_limit_mb) is a
// reproduced failure: exit 1, the values drawn before the death, and
// what killed the process; the files after it are still run.
func TestReproCrashes(t *testing.T) {
	bin := crashersBinary(t)
	in := inputFiles(t, trigger7, calm)
	cases := []struct {
		target string
		args   []string
		want   []string
	}{
		{"FuzzExit", nil, []string{"kind: exit status 3", "(exit status 3)"}},
		{"FuzzLogFatal", nil, []string{"kind: exit status 1", "crashers: log.Fatal on k == 7"}},
		{"FuzzMapWrite", nil, []string{"kind: fatal error: concurrent map writes"}},
		{"FuzzGoexit", nil, []string{"kind: runtime.Goexit"}},
		{"FuzzAlloc", []string{"-rss_limit_mb", "64"}, []string{"kind: out of memory", "exceeded -rss_limit_mb 64"}},
	}
	for _, c := range cases {
		t.Run(c.target, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{}, c.args...), "-v", "-repro", in[0], in[1], c.target)
			out, code := runBinLimit(t, time.Minute, bin, args...)
			// (stderr, mixed in, may come between the === line and the result)
			want := append([]string{"=== " + in[0] + "\n", "result: FAILURE\nconsumed: 5 of 5 bytes\n" + trigger7Values,
				"crashed while running the input",
				// The next file runs in a new process.
				"=== " + in[1] + "\nresult: VALID\n"}, c.want...)
			wantOutput(t, "-repro", out, code, 1, want...)
			if strings.Contains(out, "ended abnormally") {
				t.Errorf("-repro output says the process ended abnormally:\n%s", out)
			}
		})
	}
}

// TestDescribe: the description of an input for the supervisor gives the
// values drawn as drawn and the bytes the execution read, when the process
// exits, crashes or hangs, and whether the input ran past the timeout;
// bytes read without a generator count too.
func TestDescribe(t *testing.T) {
	bin := crashersBinary(t)
	padded := append(bytes.Clone(trigger7), bytes.Repeat([]byte{9}, 100)...)
	wantValues := "k = 7\nByte = 0x61\nByte = 0x62\nByte = 0x63\nByte = 0x64\n"
	cases := []struct {
		target   string
		consumed int
		timedOut bool
	}{
		{"FuzzExitAfterRead", 8, false}, // 5 bytes of values, 3 read straight from the source
		{"FuzzExit", 5, false},
		{"FuzzMapWrite", 5, false},
		{"FuzzHang", 5, true},
		{"FuzzFine", 5, false},
	}
	var wg sync.WaitGroup
	for _, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			d, err := gfz.DescribeInput(ctx, bin, c.target, 0, padded, 300*time.Millisecond)
			if err != nil || d.Values != wantValues || d.Consumed != c.consumed || d.TimedOut != c.timedOut {
				t.Errorf("%s: describe = %+v, %v; want %q, %d, timed out %v", c.target, d, err, wantValues, c.consumed, c.timedOut)
			}
			// The death's signature, as the prober gives it; none when
			// the input ran to its end.
			if (d.Signature == "") != (c.target == "FuzzFine") || c.timedOut && !strings.HasPrefix(d.Signature, "timeout") {
				t.Errorf("%s: re-run signature %q", c.target, d.Signature)
			}
		}()
	}
	wg.Wait()
	// A target that never calls gfz.Fuzz cannot be described.
	if _, err := gfz.DescribeInput(context.Background(), bin, "FuzzNope", 0, padded, time.Second); err == nil {
		t.Errorf("describing an input of an unknown target: no error")
	}
}

// seedsBinary builds testdata/seeds once per test.
func seedsBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds testdata/seeds with gfz-build")
	}
	out := filepath.Join(t.TempDir(), "seeds.gfz")
	if log, err := testmod.GfzBuild(".", "-o", out, "./testdata/seeds"); err != nil {
		t.Fatalf("build testdata/seeds: %v\n%s", err, log)
	}
	return out
}

// TestSeedOfWrongType: a testdata/fuzz file holding another type than
// []byte is named, with the mismatch, and nothing else is blamed (the
// target does call gfz.Fuzz); so is a wrong f.Add seed. Both exit 2.
func TestSeedOfWrongType(t *testing.T) {
	bin := seedsBinary(t)
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "seeds", "testdata", "fuzz", "FuzzCheck", "string"))
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(dir, "testdata", "fuzz", "FuzzCheck")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "string"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.input")
	writeInput(t, in, calm)
	gfzRun := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	for _, args := range [][]string{
		{"-workers", "2", "-runs", "10", "-workdir", "wd", "FuzzCheck"},
		{"-repro", in, "FuzzCheck"},
	} {
		out, code := gfzRun(args...)
		wantOutput(t, strings.Join(args, " "), out, code, 2, "seed file "+filepath.Join("testdata", "fuzz", "FuzzCheck", "string"), `string(\"x\")`, "expected []byte")
		if strings.Contains(out, "must call gfz.Fuzz") {
			t.Errorf("%q: blames the target for not calling gfz.Fuzz:\n%s", args, out)
		}
	}
	for _, args := range [][]string{
		{"-workers", "1", "-runs", "10", "-workdir", "wd2", "FuzzAddString"},
		{"-repro", in, "FuzzAddString"},
	} {
		out, code := gfzRun(args...)
		wantOutput(t, strings.Join(args, " "), out, code, 2, "mismatched types in corpus entry", "refused its seed corpus", "f.Add")
		if strings.Contains(out, "must call gfz.Fuzz") {
			t.Errorf("%q: blames the target for not calling gfz.Fuzz:\n%s", args, out)
		}
	}
}

// TestGoTestLogsValues: plain go test replaying a saved failing input logs
// the generated values, as they were drawn (the target overwrites the
// slice before failing).
func TestGoTestLogsValues(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	out, code := run(t, root, nil, "go", "test", "-count=1", "-run=^FuzzReplay$", "./testdata/seeds")
	wantOutput(t, "go test FuzzReplay", out, code, 1, "FuzzReplay/fail", "not sorted (n 42)",
		"generated values:", "xs = []int{3, 1}", "n = 42")
}

// TestReproChildDiesWithParent: the -repro child (here hanging with
// -timeout 0, no timeout) does not outlive its parent killed by SIGKILL.
func TestReproChildDiesWithParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel's parent-death signal is Linux only")
	}
	bin := crashersBinary(t)
	in := inputFiles(t, trigger7)
	outPath := filepath.Join(t.TempDir(), "out")
	outFile, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer outFile.Close()
	cmd := exec.Command(bin, "-timeout", "0", "-repro", in[0], "FuzzHang")
	cmd.Dir = t.TempDir()
	cmd.Stdout, cmd.Stderr = outFile, outFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, func() bool { b, _ := os.ReadFile(outPath); return bytes.Contains(b, []byte("=== ")) })
	kids := childrenOf(cmd.Process.Pid)
	if len(kids) != 1 {
		t.Fatalf("the -repro parent has children %v, want one", kids)
	}
	defer syscallKill(kids[0])
	cmd.Process.Kill()
	cmd.Wait()
	waitFor(t, func() bool { return !alive(kids[0]) })
}

// waitFor polls cond until it holds, failing the test after a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within a minute")
		}
	}
}

// childrenOf returns the child processes of pid (Linux).
func childrenOf(pid int) []int {
	p := strconv.Itoa(pid)
	b, _ := os.ReadFile("/proc/" + p + "/task/" + p + "/children")
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// alive reports whether process pid exists and is not a zombie (Linux).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z'
}

// syscallKill kills pid if it is still there (cleanup after a failure).
func syscallKill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
