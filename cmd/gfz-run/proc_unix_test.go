//go:build unix

package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"testing"
	"time"
)

// TestStopBeforeHandler: a process asked to stop that dies of the SIGINT
// itself (it had not set up its handler yet: it had just started) stopped
// as asked; it is not a failure of its target. One that dies of another
// signal still is.
func TestStopBeforeHandler(t *testing.T) {
	if signal.Ignored(os.Interrupt) {
		t.Skip("SIGINT is ignored in this process (started in the background), so no child can die of it")
	}
	for _, c := range []struct {
		name     string
		stop     func(r *runner, sl *slice)
		wantCode int
	}{
		{"interrupt", func(r *runner, sl *slice) { r.stop(sl) }, 0},
		{"other signal", func(r *runner, sl *slice) { sl.stopping = true; kill(sl.cmd) }, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			jobs := []*ciJob{{target: "FuzzA", wd: t.TempDir()}}
			r := newRunner(context.Background(), &options{}, jobs, 1, 0, 0, 0, 1, io.Discard, io.Discard)
			cmd := exec.Command("sleep", "30")
			ownGroup(cmd)
			if err := cmd.Start(); err != nil {
				t.Skipf("no sleep command: %v", err)
			}
			sl := &slice{job: 0, workers: 1, cmd: cmd, start: time.Now(), lastObs: time.Now(),
				out: &lineWriter{mu: &r.mu, w: io.Discard}, err: &lineWriter{mu: &r.mu, w: io.Discard}}
			r.running[0] = sl
			c.stop(r, sl)
			_ = cmd.Wait()
			r.ended(sl)
			if jobs[0].code != c.wantCode || sl.code != c.wantCode && c.wantCode == 0 {
				t.Errorf("target code %d, slice exit %d; want %d", jobs[0].code, sl.code, c.wantCode)
			}
			if r.runs[0].state != "waiting" {
				t.Errorf("state %q, want waiting", r.runs[0].state)
			}
		})
	}
}

// TestRunBinaryStopBeforeHandler: the same for the binaries gfz-run runs
// one after the other (rounds, -ci without the shared schedule): one
// interrupted by the run's interrupt before it handles it stopped as
// asked (status 0); one dying of SIGINT when nobody asked is a failure.
func TestRunBinaryStopBeforeHandler(t *testing.T) {
	if signal.Ignored(os.Interrupt) {
		t.Skip("SIGINT is ignored in this process (started in the background), so no child can die of it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := runBinary(ctx, "sleep", "", []string{"30"}, io.Discard, io.Discard); code != 0 {
		t.Errorf("interrupted by the run: status %d, want 0", code)
	}
	if code := runBinary(context.Background(), "sh", "", []string{"-c", "kill -INT $$; sleep 30"}, io.Discard, io.Discard); code != 1 {
		t.Errorf("died of SIGINT unasked: status %d, want 1", code)
	}
}
