//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// diedOfInterrupt reports whether the process ended killed by SIGINT, the
// signal interrupt sends: a fuzz binary stopped before it had set up its
// handler.
func diedOfInterrupt(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGINT
}

// ownGroup makes cmd the leader of a process group of its own, so that
// its workers and their children can be signalled together. The
// terminal's Ctrl-C then no longer reaches it: gfz-run forwards it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interrupt sends SIGINT to cmd's process group: a fuzz binary stops
// cleanly and saves its state.
func interrupt(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		_ = cmd.Process.Signal(os.Interrupt)
	}
}

// kill kills cmd's process group.
func kill(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
