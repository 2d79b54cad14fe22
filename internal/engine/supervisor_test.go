//go:build unix

package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// panicTrace is a worker's crash output as the Go runtime prints it
// (trimmed).
const panicTrace = `gfz: some earlier message
panic: boom 42 in a goroutine

goroutine 21 [running]:
example.com/t.FuzzX.func1.1()
	/src/t/x_test.go:34 +0x51
created by example.com/t.FuzzX.func1 in goroutine 20
	/src/t/x_test.go:32 +0x66
`

// exitState runs a shell command to get a real *os.ProcessState.
func exitState(t *testing.T, script string) *os.ProcessState {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	_ = cmd.Run()
	return cmd.ProcessState
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
	w.begin(41, 41, []byte("0123456789abcdefTOOLONG"), 99)
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
	s, err := Run(context.Background(), Config{Engine: "zest", Seed: 1, Runs: 3000, Workdir: dir, SharedMem: path},
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
	if sup.load(offParent) == 0 {
		t.Error("the worker published no parent (its next incarnation's Config.ResumeAfter)")
	}
	// args's children are not byte edits of their parent (no
	// lastParent); it publishes its turn's parent too.
	sup.store(offParent, 0)
	if _, err := Run(context.Background(), Config{Engine: "args", Seed: 1, Runs: 3000, Workdir: t.TempDir(), SharedMem: path},
		newMaze(mazeKey, mazeMod, mazeValid)); err != nil {
		t.Fatal(err)
	}
	if sup.load(offParent) == 0 {
		t.Error("args: the worker published no parent")
	}
	// Worker mode leaves stats and plot_data to the supervisor.
	if _, err := os.Stat(filepath.Join(dir, workdir.StatsFile)); err == nil {
		t.Error("a worker wrote stats")
	}
}

// TestSyncImports: a worker with Sync imports entries another worker
// wrote to corpus/ while it runs.
func TestSyncImports(t *testing.T) {
	dir := t.TempDir()
	if _, err := workdir.Open(dir); err != nil {
		t.Fatal(err)
	}
	f := &fuzzer{cfg: Config{Engine: "zest", Seed: 1, Sync: true}, ex: scripted{1: {Valid, map[int]int{10: 1}}, 2: {Valid, map[int]int{20: 1}}},
		r: newPRNG(1), seen: map[string]bool{}, known: map[string]string{}, max: 64}
	if err := f.setEngine("zest"); err != nil {
		t.Fatal(err)
	}
	f.wd, _ = workdir.Open(dir)
	for _, b := range []byte{1, 2} {
		if _, err := f.wd.SaveCorpus([]byte{b}); err != nil {
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
	s := run(t, Config{Engine: "zest", Seed: 1, Runs: 500, Workdir: t.TempDir()}, &flakyExec{})
	if s.Stability >= 100 || s.Stability <= 0 {
		t.Errorf("flaky target: stability %.1f", s.Stability)
	}
	s = run(t, Config{Engine: "zest", Seed: 1, Runs: 500, Workdir: t.TempDir()}, newMaze(mazeKey, mazeMod, mazeValid))
	if s.Stability != 100 {
		t.Errorf("deterministic target: stability %.1f", s.Stability)
	}
}

// TestCrashSaveError: a failure the supervisor cannot save is reported
// as an error of the run, never dropped silently.
func TestCrashSaveError(t *testing.T) {
	dir := t.TempDir()
	wd, err := workdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := createShm(filepath.Join(dir, ".w.shm"), 64)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	m.begin(3, 3, []byte{7}, 1)
	// Make failures/ unusable (a file instead of the directory: fails even
	// for root).
	if err := os.RemoveAll(wd.Failures); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wd.Failures, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	s := &supervisor{cfg: SupervisorConfig{Config: Config{Engine: "zest", Target: "FuzzX", Status: &out}}, wd: wd, known: map[string]string{}, max: 64}
	sl := &slot{id: 0, shm: m, tail: &proc.Tail{Mu: &s.outMu, Max: tailSize}}
	sl.tail.Write([]byte(panicTrace))
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

// TestAttendWatchesOtherWorkers: while the supervision loop is busy with
// one worker's death (describing and shrinking it), a hang in another
// worker is still stopped, then and not after.
func TestAttendWatchesOtherWorkers(t *testing.T) {
	dir := t.TempDir()
	m, err := createShm(filepath.Join(dir, ".w.shm"), 64)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	m.begin(5, 5, []byte{1}, 1) // the other worker is in its execution 5
	hung := exec.Command("sleep", "60")
	if err := hung.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() {
		_ = hung.Wait()
		close(ended)
	}()
	defer hung.Process.Kill()
	other := &slot{id: 1, running: true, cmd: hung, shm: m, stateSince: time.Now()}
	s := &supervisor{timeout: 100 * time.Millisecond, slots: []*slot{other}}
	stopped := false
	s.attend(func() {
		// As long as describing or shrinking a hang may take.
		select {
		case <-ended:
			stopped = true
		case <-time.After(30 * time.Second):
		}
	})
	if !stopped {
		t.Fatal("a worker hung in its execution while the supervisor was busy was not stopped")
	}
	if other.Kill != signature.KindTimeout {
		t.Errorf("stopped as %q, want %q", other.Kill, signature.KindTimeout)
	}
}

// TestWorkerDoneGrace: a worker whose engine finished but which does not
// end (a cleanup of the fuzz target that does not return: the testing
// package runs them now) is killed doneGrace later, with a warning, rather
// than holding the run for ever.
func TestWorkerDoneGrace(t *testing.T) {
	m, err := createShm(filepath.Join(t.TempDir(), ".w.shm"), 64)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	m.store(offPhase, phaseDone)
	stuck := exec.Command("sleep", "60")
	if err := stuck.Start(); err != nil {
		t.Fatal(err)
	}
	defer stuck.Process.Kill()
	var out strings.Builder
	sl := &slot{id: 3, running: true, cmd: stuck, shm: m}
	s := &supervisor{slots: []*slot{sl}, cfg: SupervisorConfig{Config: Config{Engine: "zest", Status: &out}}}
	t0 := time.Now()
	s.watch(sl, t0)
	s.watch(sl, t0.Add(doneGrace-time.Millisecond))
	if sl.Kill != "" {
		t.Fatalf("killed before the grace ended: %q", sl.Kill)
	}
	s.watch(sl, t0.Add(doneGrace))
	if sl.Kill != "stop" || !strings.Contains(out.String(), "worker 3 did not end") {
		t.Fatalf("not killed at the end of the grace: kill %q, output %q", sl.Kill, out.String())
	}
	if err := stuck.Wait(); err == nil {
		t.Error("the process ended by itself")
	}
}
