//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts the child in a process group of its own, so that
// KillGroup can end the processes it started (a target that runs
// commands and then crashes or hangs would otherwise leave them running
// for the rest of the campaign, one set per death). The child then does
// not receive the terminal's Ctrl-C itself: its parent forwards the stop.
func OwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// KillGroup kills whatever is left in the process group of pid, a child
// started with OwnGroup that has ended (the group keeps its ID while any
// of its processes lives, so no other group has it).
func KillGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
