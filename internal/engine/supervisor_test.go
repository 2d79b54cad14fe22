//go:build unix

package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/param"
)

// Crash outputs as the Go runtime prints them (trimmed).
const (
	goPanicTrace = `gfz: some earlier message
panic: boom 42 in a goroutine

goroutine 21 [running]:
example.com/t.FuzzX.func1.1()
	/src/t/x_test.go:34 +0x51
created by example.com/t.FuzzX.func1 in goroutine 20
	/src/t/x_test.go:32 +0x66
`
	mapTrace = `fatal error: concurrent map writes

goroutine 8 [running]:
internal/runtime/maps.fatal({0x5e2a01?, 0x0?})
	/usr/local/go/src/runtime/panic.go:1046 +0x18
example.com/t.writer(0xc000012345)
	/src/t/x.go:12 +0x3c
example.com/t.run.func1()
	/src/t/x.go:20 +0x25
example.com/t.run.func2()
	/src/t/x.go:21 +0x25
created by example.com/t.run in goroutine 7
	/src/t/x.go:18 +0x9a
`
	segvTrace = `fatal error: unexpected signal during runtime execution
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]

runtime stack:
runtime.throw({0x5,0x1})
	/usr/local/go/src/runtime/panic.go:1023 +0x5c

goroutine 1 [syscall]:
example.com/t.callC()
	/src/t/c.go:9 +0x10
`
	goexitTrace = GoexitMarker + `
goroutine 6 [running]:
runtime/debug.Stack()
	/usr/local/go/src/runtime/debug/stack.go:26 +0x5e
github.com/gfz-dev/gfz.run.func1()
	/gfz/exec.go:70 +0x45
runtime.Goexit()
	/usr/local/go/src/runtime/panic.go:636 +0x5e
example.com/t.FuzzG.func1(0xc000)
	/src/t/g_test.go:84 +0x25
github.com/gfz-dev/gfz.run(0xc000, 0x1)
	/gfz/exec.go:90 +0x6b
example.com/t.FuzzG(0xc000)
	/src/t/g_test.go:82 +0x25
`
)

// exitState runs a shell command to get a real *os.ProcessState.
func exitState(t *testing.T, script string) *os.ProcessState {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	_ = cmd.Run()
	return cmd.ProcessState
}

func TestClassifyCrash(t *testing.T) {
	exit2 := exitState(t, "exit 2")
	cases := []struct {
		tail   string
		ps     *os.ProcessState
		kill   string
		kind   string
		frames string
		framed bool
	}{
		{goPanicTrace, exit2, "", "panic: boom N in a goroutine", "example.com/t.FuzzX.func1.1 x_test.go:34\n", true},
		{mapTrace, exit2, "", "fatal error: concurrent map writes",
			"example.com/t.writer x.go:12\nexample.com/t.run.func1 x.go:20\nexample.com/t.run.func2 x.go:21\n", true},
		{segvTrace, exit2, "", "signal SIGSEGV", "example.com/t.callC c.go:9\n", true},
		{goexitTrace, exitState(t, "exit 65"), "", KindGoexit, "example.com/t.FuzzG.func1 g_test.go:84\n", true},
		{"fatal error: runtime: out of memory\n", exit2, "", KindOutOfMemory, "", false},
		{"", exitState(t, "exit 3"), "", "exit status 3", "", false},
		{"", exitState(t, "kill -SEGV $$"), "", "signal SIGSEGV", "", false},
		{"SIGSEGV: segmentation violation\nPC=0x1 m=0\n\ngoroutine 5 [running]:\nexample.com/t.any()\n\t/src/t/a.go:1 +0x1\n", exit2, "",
			"signal SIGSEGV", "example.com/t.any a.go:1\n", false},
		{"SIGQUIT: quit\nPC=0x1 m=0\n\ngoroutine 1 [running]:\nexample.com/t.spin()\n\t/src/t/s.go:3 +0x1\n", exit2, KindTimeout, KindTimeout, "example.com/t.spin s.go:3\n", false},
		{"whatever", exitState(t, "kill -KILL $$"), KindOutOfMemory, KindOutOfMemory, "", false},
	}
	for i, c := range cases {
		kind, stack, framed := classifyCrash(c.tail, c.ps, c.kill)
		if kind != c.kind {
			t.Errorf("case %d: kind %q, want %q", i, kind, c.kind)
		}
		fr := crashFrames(stack)
		if fr != c.frames {
			t.Errorf("case %d: frames %q, want %q", i, fr, c.frames)
		}
		if framed != c.framed {
			t.Errorf("case %d: framed %v", i, framed)
		}
	}
}

func TestShm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.shm")
	sup, err := createShm(path, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer sup.close()
	w, err := openShm(path)
	if err != nil {
		t.Fatal(err)
	}
	w.begin(41, []byte("0123456789abcdefTOOLONG"), 99)
	in, ext, n, running := sup.current()
	if string(in) != "0123456789abcdef" || ext != 99 || n != 41 || !running {
		t.Errorf("current %q %d %d %v", in, ext, n, running)
	}
	w.end(42, 7)
	w.close()
	if _, _, n, running := sup.current(); n != 42 || running || sup.load(offExecs) != 7 {
		t.Errorf("after end: %d %v %d", n, running, sup.load(offExecs))
	}
	sup.reset()
	if sup.load(offExecs) != 0 || sup.load(offMagic) != shmMagic {
		t.Error("reset")
	}
	junk := filepath.Join(t.TempDir(), "junk")
	if err := os.WriteFile(junk, make([]byte, shmHeader+8), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := openShm(junk); err == nil || !strings.Contains(err.Error(), "not a gfz shared memory file") {
		t.Errorf("opened a file without the magic: %v", err)
	}
	if _, err := openShm(filepath.Join(filepath.Dir(path), "missing")); err == nil {
		t.Error("opened a missing file")
	}
}

// TestWorkerModeEngine runs the engine in worker mode against a shared
// memory file and checks what it publishes.
func TestWorkerModeEngine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".w.shm")
	sup, err := createShm(path, param.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	defer sup.close()
	s, err := Run(context.Background(), Config{Seed: 1, Runs: 3000, Workdir: dir, SharedMem: path},
		newMaze(mazeKey, mazeMod, mazeValid))
	if err != nil {
		t.Fatal(err)
	}
	if sup.load(offPhase) != phaseDone || sup.load(offExecs) != 3000 ||
		int64(sup.load(offValid)) != s.Valid || int(sup.load(offTotalCov)) != s.TotalCov || int(sup.load(offCorpus)) != s.Corpus {
		t.Errorf("published phase %d execs %d valid %d cov %d corpus %d; summary %+v", sup.load(offPhase), sup.load(offExecs),
			sup.load(offValid), sup.load(offTotalCov), sup.load(offCorpus), s)
	}
	if _, _, n, running := sup.current(); n != 3000 || running {
		t.Errorf("state: execution %d running %v", n, running)
	}
	// Worker mode leaves stats and plot_data to the supervisor.
	if _, err := os.Stat(filepath.Join(dir, statsFile)); err == nil {
		t.Error("a worker wrote stats")
	}
}

// TestSyncImports: a worker with Sync imports entries another worker
// wrote to corpus/ while it runs.
func TestSyncImports(t *testing.T) {
	dir := t.TempDir()
	if _, err := openWorkdir(dir); err != nil {
		t.Fatal(err)
	}
	f := &fuzzer{cfg: Config{Seed: 1, Sync: true}, ex: scripted{1: {Valid, map[int]int{10: 1}}, 2: {Valid, map[int]int{20: 1}}},
		r: newPRNG(1), seen: map[string]bool{}, known: map[string]string{}, max: 64}
	if err := f.setEngine("zest"); err != nil {
		t.Fatal(err)
	}
	f.wd, _ = openWorkdir(dir)
	for _, b := range []byte{1, 2} {
		if _, err := f.wd.saveCorpus([]byte{b}); err != nil {
			t.Fatal(err)
		}
	}
	f.syncCorpus()
	if len(f.queue) != 2 || f.execs != 2 {
		t.Fatalf("imported %d entries in %d execs, want 2 in 2", len(f.queue), f.execs)
	}
	f.syncCorpus() // nothing new
	if f.execs != 2 {
		t.Errorf("re-imported: %d execs", f.execs)
	}
}

// flakyExec lights a different edge on every other execution.
type flakyExec struct{ n int }

func (e *flakyExec) Exec(params []byte, ext uint64) Outcome {
	e.n++
	hit(5)
	hit(100 + e.n%2)
	if len(params) > 0 {
		hit(200 + int(params[0]%4))
	}
	return Outcome{Result: Valid, Consumed: params}
}

func TestStabilityRecheck(t *testing.T) {
	s := run(t, Config{Seed: 1, Runs: 500, Workdir: t.TempDir()}, &flakyExec{})
	if s.Stability >= 100 || s.Stability <= 0 {
		t.Errorf("flaky target: stability %.1f", s.Stability)
	}
	s = run(t, Config{Seed: 1, Runs: 500, Workdir: t.TempDir()}, newMaze(mazeKey, mazeMod, mazeValid))
	if s.Stability != 100 {
		t.Errorf("deterministic target: stability %.1f", s.Stability)
	}
}

// TestCrashSaveError: a failure the supervisor cannot save is reported
// as an error of the run, never dropped silently.
func TestCrashSaveError(t *testing.T) {
	dir := t.TempDir()
	wd, err := openWorkdir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := createShm(filepath.Join(dir, ".w.shm"), 64)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	m.begin(3, []byte{7}, 1)
	// Make failures/ unusable (a file instead of the directory: fails even
	// for root).
	if err := os.RemoveAll(wd.failures); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wd.failures, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	s := &supervisor{cfg: SupervisorConfig{Target: "FuzzX", Status: &out}, wd: wd, known: map[string]string{}, max: 64}
	sl := &slot{id: 0, shm: m, tail: &tailWriter{mu: &s.outMu}}
	sl.tail.Write([]byte(goPanicTrace))
	s.slots = []*slot{sl}
	s.crash(sl, exitState(t, "exit 2"))
	if len(s.errs) != 1 || !strings.Contains(out.String(), "ERROR: could not save the failure") {
		t.Errorf("errors %q, output %q", s.errs, out.String())
	}
	if sum := s.summary(); len(sum.Errors) != 1 {
		t.Errorf("summary errors %q", sum.Errors)
	}
	// Printed once, when it happened; the summary refers to it.
	s.printFinal()
	if n := strings.Count(out.String(), "could not save"); n != 1 {
		t.Errorf("the error is printed %d times, want once:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "the run is incomplete: 1 error (see the ERROR lines above)") {
		t.Errorf("final summary:\n%s", out.String())
	}
}

func TestTailWriter(t *testing.T) {
	var out strings.Builder
	var mu sync.Mutex
	w := &tailWriter{fwd: &out, mu: &mu}
	w.Write([]byte("noise\ngfz: new failure\n\tinput: x\nmore noise\ngfz: par"))
	w.Write([]byte("tial\n\n==================\nWARNING: DATA RACE\n  x.go:1\n==================\nnoise\n"))
	if out.String() != "gfz: new failure\n\tinput: x\ngfz: partial\n==================\nWARNING: DATA RACE\n  x.go:1\n==================\n" {
		t.Errorf("forwarded %q", out.String())
	}
	if !strings.HasPrefix(w.String(), "noise\n") {
		t.Errorf("tail %q", w.String())
	}
}

// TestDescribeRestartsHangClocks: while the supervisor waits for Describe
// it watches no worker; afterwards the running workers' executions count
// as started anew, so the wait is not taken for a hang of another worker.
func TestDescribeRestartsHangClocks(t *testing.T) {
	long := time.Now().Add(-time.Hour)
	other := &slot{id: 1, running: true, lastState: 3, stateSince: long}
	var during time.Time
	s := &supervisor{timeout: time.Second, slots: []*slot{other}, cfg: SupervisorConfig{
		Describe: func(ctx context.Context, input []byte, timeout time.Duration) (Rerun, error) {
			during = time.Now()
			return Rerun{Values: "x = 1\n", Consumed: 1}, nil
		},
	}}
	if _, err := s.describe([]byte{1}); err != nil {
		t.Fatal(err)
	}
	if other.stateSince.Before(during) {
		t.Fatalf("after describing, the other worker's execution counts from %v, before the wait ended (%v): it would be killed as a hang", other.stateSince, during)
	}
}
