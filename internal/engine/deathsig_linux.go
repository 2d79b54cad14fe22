package engine

import (
	"os/exec"
	"syscall"
)

// setDeathSignal makes the kernel kill the worker when the supervisor dies
// (even by SIGKILL), so that no orphan keeps fuzzing.
func setDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
