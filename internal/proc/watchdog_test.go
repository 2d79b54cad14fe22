//go:build linux

package proc

import (
	"bufio"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
)

// start runs a shell script as a child, waits for its first line of
// output (the script is ready), and returns it with a channel that
// delivers its wait status.
func start(t *testing.T, script string) (*exec.Cmd, <-chan syscall.WaitStatus) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	done := make(chan syscall.WaitStatus, 1)
	go func() {
		_ = cmd.Wait()
		done <- cmd.ProcessState.Sys().(syscall.WaitStatus)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, done
}

func signalOf(t *testing.T, done <-chan syscall.WaitStatus) syscall.Signal {
	t.Helper()
	select {
	case ws := <-done:
		if !ws.Signaled() {
			t.Fatalf("child exited (%v), not by a signal", ws)
		}
		return ws.Signal()
	case <-time.After(time.Minute):
		t.Fatal("child still running a minute after the watchdog's signal")
	}
	return 0
}

// TestWatchdog pins the watchdog's rules on real children, with the clock
// given to Tick (no wall-clock thresholds): an idle child or one within its
// timeout is left alone; an input past the timeout gets SIGQUIT, and SIGKILL
// only QuitGrace later; a child over its memory limit gets SIGKILL at once.
func TestWatchdog(t *testing.T) {
	t0 := time.Now()
	// Ignores SIGQUIT, as a process that does not die on it.
	cmd, done := start(t, `trap "" QUIT; echo ready; while :; do sleep 1; done`)
	w := Watchdog{Timeout: time.Second}
	if w.Tick(cmd.Process, t0.Add(time.Hour), false, t0) || w.Tick(cmd.Process, t0.Add(999*time.Millisecond), true, t0) || w.Kill != "" {
		t.Fatalf("stopped an idle child or one within its timeout: %q", w.Kill)
	}
	at := t0.Add(1500 * time.Millisecond)
	if !w.Tick(cmd.Process, at, true, t0) || w.Kill != signature.KindTimeout || w.RanFor != 1500*time.Millisecond || !w.KillAt.Equal(at) {
		t.Fatalf("after the timeout: kill %q, ran for %v", w.Kill, w.RanFor)
	}
	if w.Tick(cmd.Process, at.Add(QuitGrace-time.Millisecond), true, t0) {
		t.Fatal("SIGKILL before the grace ended")
	}
	if !w.Tick(cmd.Process, at.Add(QuitGrace), true, t0) {
		t.Fatal("no SIGKILL after the grace")
	}
	if sig := signalOf(t, done); sig != syscall.SIGKILL {
		t.Errorf("child ended by %v, want SIGKILL", sig)
	}

	// SIGQUIT is what a hang gets first.
	cmd, done = start(t, `echo ready; while :; do sleep 1; done`)
	w = Watchdog{Timeout: time.Second}
	w.Tick(cmd.Process, t0.Add(2*time.Second), true, t0)
	if sig := signalOf(t, done); sig != syscall.SIGQUIT {
		t.Errorf("hung child ended by %v, want SIGQUIT", sig)
	}

	// Memory: killed at once, whatever the timeout.
	cmd, done = start(t, `echo ready; while :; do sleep 1; done`)
	w = Watchdog{RSSLimit: 1}
	if !w.Tick(cmd.Process, t0, false, t0) || w.Kill != signature.KindOutOfMemory || w.RSS <= 1 {
		t.Fatalf("over the memory limit: kill %q, rss %d", w.Kill, w.RSS)
	}
	if sig := signalOf(t, done); sig != syscall.SIGKILL {
		t.Errorf("child over its memory limit ended by %v, want SIGKILL", sig)
	}
}
