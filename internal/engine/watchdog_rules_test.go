package engine

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Rules of the hang watchdogs and the saving of failures that a review of
// the supervisor's code found broken (2026-11-28).

// slowExec takes d per execution, never hangs, and lights a new edge for
// many inputs (so that saves, hence stability rechecks, are frequent).
type slowExec struct {
	src *param.Source
	d   time.Duration
}

func (s *slowExec) Exec(params []byte, ext uint64) Outcome {
	s.src.Reset(params, ext)
	hit(int(s.src.Uint(2, param.Value) % 4096))
	time.Sleep(s.d)
	return Outcome{Result: Valid, Consumed: s.src.Consumed()}
}

// TestRecheckThenExecutionNotAHang: every execution takes 0.6 of the
// timeout; none hangs. A recheck does not count as an execution, and the
// watchdog timed an execution from the last change of the published
// execution number, so a recheck and the execution after it were timed as
// one (1.2 timeouts): a false TIMEOUT. (Sleeping is blocked time, so the
// machine's load barely moves these durations.)
func TestRecheckThenExecutionNotAHang(t *testing.T) {
	var exited atomic.Bool
	old := exitProcess
	exitProcess = func(int) { exited.Store(true) }
	defer func() { exitProcess = old }()
	var status bytes.Buffer
	ex := &slowExec{src: param.New(nil, 0), d: 300 * time.Millisecond}
	s, err := Run(context.Background(), Config{Engine: "zest", Target: "FuzzSlow", Seed: 1, Runs: 5, Timeout: 500 * time.Millisecond,
		Workdir: t.TempDir(), Status: &syncWriter{w: &status}}, ex)
	if err != nil {
		t.Fatal(err)
	}
	if exited.Load() || s.NewFailures > 0 {
		t.Fatalf("no execution ran for more than 300 ms, yet a TIMEOUT (500 ms) was declared (new failures %d)", s.NewFailures)
	}
}

// syncWriter serialises writes (the watchdog goroutine prints too).
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// lockExec models a target that fails while holding a lock (no deferred
// Unlock): the failing execution leaves mu locked, so any later run of the
// target, the re-run that describes the failing input's values included,
// blocks.
type lockExec struct {
	src *param.Source
	mu  sync.Mutex
}

func (l *lockExec) run(params []byte, ext uint64) Outcome {
	l.src.Reset(params, ext)
	l.mu.Lock()
	v := l.src.Uint(1, param.Value)
	hit(int(v % 64))
	if v%64 == 7 {
		return Outcome{Result: Failure, Consumed: l.src.Consumed(),
			Failure: &FailureInfo{Kind: "panic: boom", Signature: "panic: boom\nx.go:1"}} // the lock stays held
	}
	l.mu.Unlock()
	return Outcome{Result: Valid, Consumed: l.src.Consumed()}
}

func (l *lockExec) Exec(params []byte, ext uint64) Outcome { return l.run(params, ext) }

func (l *lockExec) DescribeValues(params []byte, ext uint64, _ string) (string, bool) {
	out := l.run(params, ext)
	return "v = 7", out.Failure != nil
}

// TestFailureSavedBeforeItsReRun: a failure is saved before the re-run
// that describes its values, and that re-run is watched: when it hangs,
// the watchdog ends the run, and the failure is on disk (it used to be
// described first, unwatched: the run hung and the failure was lost).
func TestFailureSavedBeforeItsReRun(t *testing.T) {
	exited := make(chan int, 1)
	old := exitProcess
	exitProcess = func(code int) { exited <- code; select {} }
	defer func() { exitProcess = old }()
	dir := t.TempDir()
	go Run(context.Background(), Config{Engine: "zest", Target: "FuzzLock", Seed: 1, Runs: 100_000, Timeout: 200 * time.Millisecond,
		Workdir: dir, Status: &syncWriter{w: &bytes.Buffer{}}}, &lockExec{src: param.New(nil, 0)})
	select {
	case <-exited:
	case <-time.After(20 * time.Second): // the re-run blocks for ever without the watchdog
		t.Fatal("the re-run of the failing input blocked and the watchdog did not end the run")
	}
	wd, err := workdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := wd.FailureSaved("panic: boom\nx.go:1"); !ok {
		t.Error("the failure whose re-run hung is not saved")
	}
}

// TestWorkerFailureAnnouncedOnceShrunk: a failure a worker saved is
// announced (NewFailure: -regress's export, libFuzzer's artefact) once,
// after the worker has shrunk it, also when the supervisor first meets it
// in another worker's death before a status tick. It used to be exported
// unshrunk at the next tick (the run then reported a shrunk input that was
// never exported), or, met in a death first, never announced at all.
func TestWorkerFailureAnnouncedOnceShrunk(t *testing.T) {
	for _, viaDeath := range []bool{false, true} {
		wd, err := workdir.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		var hooked []string
		var exported [][]byte
		s := &supervisor{wd: wd, known: map[string]string{}, cfg: SupervisorConfig{
			NewFailure: func(in string) (string, error) {
				hooked = append(hooked, in)
				b, _ := wd.ReadInput(in)
				exported = append(exported, b)
				return "", nil
			},
		}}
		sig := "panic: boom\nx.go:1"
		rep := &workdir.Report{Target: "FuzzX", Result: Failure.String(), Signature: sig, Input: []byte{1, 2, 3, 4}}
		path, claimed, err := wd.SaveFailure(rep)
		if err != nil || !claimed {
			t.Fatal(claimed, err)
		}
		if viaDeath && !s.knownFailure(sig) {
			t.Fatal("the worker's failure is not known")
		}
		s.refreshKnown() // a tick while the worker shrinks
		if len(hooked) != 0 {
			t.Errorf("via a death %v: announced before the worker shrank it", viaDeath)
		}
		orig := rep.Input
		rep.Input = []byte{1}
		rep.Shrink = &workdir.ShrinkNote{OrigLen: 4, Len: 1, Changed: true, Original: workdir.OriginalPath(path)}
		if err := wd.RewriteShrunk(rep, path, orig); err != nil {
			t.Fatal(err)
		}
		s.refreshKnown()
		s.refreshKnown()
		if sum := s.summary(); len(hooked) != 1 || len(sum.FailureFiles) != 1 || len(exported[0]) != 1 {
			t.Errorf("via a death %v: NewFailure called for %v (inputs %v), summary lists %v: want the shrunk failure once", viaDeath, hooked, exported, sum.FailureFiles)
		}
	}
}

// TestWorkerFailureAnnouncedAtTheEnd: a worker's failure that is never
// settled (the worker was stopped while shrinking it) is announced when
// the run ends.
func TestWorkerFailureAnnouncedAtTheEnd(t *testing.T) {
	wd, err := workdir.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	s := &supervisor{wd: wd, known: map[string]string{}, cfg: SupervisorConfig{
		NewFailure: func(string) (string, error) { n++; return "", nil },
	}}
	if _, _, err := wd.SaveFailure(&workdir.Report{Target: "FuzzX", Result: Failure.String(), Signature: "s", Input: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	s.refreshKnown()
	if n != 0 {
		t.Fatal("announced unshrunk during the run")
	}
	s.ended = true
	s.refreshKnown()
	if n != 1 {
		t.Errorf("announced %d times at the end, want 1", n)
	}
}

// TestReproCommandQuoted: the reproduce command quotes a path with a space
// (a macOS cache directory, a user's name), so it can be pasted.
func TestReproCommandQuoted(t *testing.T) {
	cmd := reproCommand("/Users/John Smith/Library/Caches/gfz/w/failures", "abc", "FuzzX", nil)
	if !strings.Contains(cmd, "-repro '/Users/John Smith/Library/Caches/gfz/w/failures/abc.input' FuzzX") {
		t.Errorf("reproduce command %q: the input path is not quoted", cmd)
	}
}

// TestCrashInputNotCutByAnotherDeath: a crash input is trimmed to the bytes
// its describing re-run read only when the re-run ran to its end, died as
// the worker did, or hung; a re-run that died otherwise (here: killed by
// SIGINT, as a Ctrl-C reaching the child would) keeps the input whole.
func TestCrashInputNotCutByAnotherDeath(t *testing.T) {
	s, sl, out := crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
		return Rerun{Values: "k = 7\n", Consumed: 1, Signature: "signal SIGINT"}, nil
	})
	s.crash(sl, exitState(t, "exit 2"))
	if len(s.newFiles) != 1 {
		t.Fatalf("saved %v\n%s", s.newFiles, out.String())
	}
	got, err := s.wd.ReadInput(s.newFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := extendedInput([]byte{7, 8, 9}, 1234, param.DefaultMaxSize); !bytes.Equal(got, want) {
		t.Errorf("saved %d bytes, want the whole extended input (%d bytes)", len(got), len(want))
	}
}

// TestReproLimitsConfirmTimeout: a hang's reproduce command carries the
// timeout its confirming re-run had (calibrated: above the detection's),
// so that it repeats the run's verdict: with the detection's 200 ms, an
// input the run found ending within 1 s alone seemed to hang again.
func TestReproLimitsConfirmTimeout(t *testing.T) {
	s := &supervisor{timeout: 200 * time.Millisecond, confirmTimeout: time.Second}
	s.cfg.RSSLimitMB, s.cfg.StackLimitMB = 512, 16
	for kind, want := range map[string]string{
		"timeout":                     "-timeout 1s",
		"out of memory":               "-rss_limit_mb 512",
		"fatal error: stack overflow": "-stack_limit_mb 16",
		"panic: x":                    "",
	} {
		if got := strings.Join(s.reproLimits(kind), " "); got != want {
			t.Errorf("%s: %q, want %q", kind, got, want)
		}
	}
}
