//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/cmd/internal/build"
)

// TestStopBeforeHandler: a process asked to stop that dies of the SIGINT
// itself (it had not set up its handler yet: it had just started) stopped
// as asked; it is not a failure of its target. One that dies of another
// signal, which the runner did not send, is an error (TestForeignSignal).
func TestStopBeforeHandler(t *testing.T) {
	if signal.Ignored(os.Interrupt) {
		t.Skip("SIGINT is ignored in this process (started in the background), so no child can die of it")
	}
	for _, c := range []struct {
		name      string
		stop      func(r *runner, sl *slice)
		wantCode  int
		wantState string
	}{
		{"interrupt", func(r *runner, sl *slice) { r.stop(sl) }, 0, "waiting"},
		{"other signal", func(r *runner, sl *slice) { sl.stopping = true; kill(sl.cmd) }, 2, "error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			jobs := []*ciJob{{target: "FuzzA", wd: t.TempDir()}}
			r, sl := sleepingSlice(t, jobs, io.Discard)
			c.stop(r, sl)
			_ = sl.cmd.Wait()
			r.ended(sl)
			if jobs[0].code != c.wantCode || sl.code != c.wantCode && c.wantCode == 0 {
				t.Errorf("target code %d, slice exit %d; want %d", jobs[0].code, sl.code, c.wantCode)
			}
			if r.runs[0].state != c.wantState {
				t.Errorf("state %q, want %s", r.runs[0].state, c.wantState)
			}
		})
	}
}

// TestRunBinaryStopBeforeHandler: the same for the binaries gfz-run runs
// one after the other (rounds, -ci without the shared schedule): one
// interrupted by the run's interrupt before it handles it stopped as
// asked (status 0); one dying of SIGINT when nobody asked is an error.
func TestRunBinaryStopBeforeHandler(t *testing.T) {
	if signal.Ignored(os.Interrupt) {
		t.Skip("SIGINT is ignored in this process (started in the background), so no child can die of it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := runBinary(ctx, "sleep", "", []string{"30"}, io.Discard, io.Discard); code != 0 {
		t.Errorf("interrupted by the run: status %d, want 0", code)
	}
	if code := runBinary(context.Background(), "sh", "", []string{"-c", "kill -INT $$; sleep 30"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("died of SIGINT unasked: status %d, want 2", code)
	}
}

// TestForeignSignal: a fuzz binary killed by a signal gfz-run did not
// send (the kernel's OOM killer, someone's kill -9) found no failure: it
// is an error (2), with a message naming the signal and the target, and
// the -ci summary says "error", not "NEW FAILURE". The runner's own
// SIGKILL (at the end of the budget) is no error.
func TestForeignSignal(t *testing.T) {
	start := func(t *testing.T) (*runner, *slice, *bytes.Buffer) {
		t.Helper()
		var errb bytes.Buffer
		jobs := []*ciJob{{bin: build.Binary{Package: "example.com/p"}, target: "FuzzA", wd: t.TempDir()}}
		r, sl := sleepingSlice(t, jobs, &errb)
		return r, sl, &errb
	}
	t.Run("scheduled, outside SIGKILL", func(t *testing.T) {
		r, sl, errb := start(t)
		if err := sl.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = sl.cmd.Wait()
		r.ended(sl)
		if j := r.jobs[0]; j.code != 2 || r.runs[0].state != "error" {
			t.Errorf("target code %d, state %q; want 2, error", j.code, r.runs[0].state)
		}
		if want := "gfz-run: example.com/p FuzzA: killed by signal SIGKILL, which gfz-run did not send: out of memory?"; !strings.Contains(errb.String(), want) {
			t.Errorf("stderr %q lacks %q", errb.String(), want)
		}
	})
	t.Run("scheduled, the runner's SIGKILL", func(t *testing.T) {
		r, sl, errb := start(t)
		r.killAll()
		_ = sl.cmd.Wait()
		r.ended(sl)
		if j := r.jobs[0]; j.code != 0 || r.runs[0].state != "waiting" || errb.Len() != 0 {
			t.Errorf("target code %d, state %q, stderr %q; want 0, waiting, nothing", j.code, r.runs[0].state, errb.String())
		}
	})
	t.Run("one after the other", func(t *testing.T) {
		dir := t.TempDir()
		exe := filepath.Join(dir, "p.gfz")
		if err := os.WriteFile(exe, []byte("#!/bin/sh\nkill -KILL $$\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		code, _ := runBinaryCPU(context.Background(), exe, dir, []string{"-workdir", dir, "FuzzA"}, io.Discard, &errb)
		if code != 2 {
			t.Errorf("status %d, want 2", code)
		}
		if want := exe + " FuzzA: killed by signal SIGKILL, which gfz-run did not send: out of memory?"; !strings.Contains(errb.String(), want) {
			t.Errorf("stderr %q lacks %q", errb.String(), want)
		}
		j := &ciJob{bin: build.Binary{Package: "example.com/p"}, target: "FuzzA", wd: dir, ran: true, code: code}
		sum := summaryText([]*ciJob{j}, false, filepath.Join(dir, "failures"), dir)
		if !regexp.MustCompile(`(?m)^example\.com/p +FuzzA +error \(exit status 2\) `).MatchString(sum) {
			t.Errorf("summary:\n%s", sum)
		}
	})
}

// sleepingSlice starts a runner of jobs (stderr to errw) whose first
// target runs "sleep 30" in its own process group, as a slice.
func sleepingSlice(t *testing.T, jobs []*ciJob, errw io.Writer) (*runner, *slice) {
	t.Helper()
	r := newRunner(context.Background(), &options{}, jobs, 1, 0, 0, 0, 1, io.Discard, errw)
	cmd := exec.Command("sleep", "30")
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep command: %v", err)
	}
	sl := &slice{job: 0, workers: 1, cmd: cmd, start: time.Now(), lastObs: time.Now(),
		out: &lineWriter{mu: &r.mu, w: io.Discard}, err: &lineWriter{mu: &r.mu, w: io.Discard}}
	r.running[0] = sl
	return r, sl
}
