package engine

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
	s, err := Run(context.Background(), Config{Target: "FuzzSlow", Seed: 1, Runs: 5, Timeout: 500 * time.Millisecond,
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
