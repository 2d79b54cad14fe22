package proc

import (
	"os/exec"
	"syscall"
)

// SetDeathSignal makes the kernel kill the child when this process dies
// (even by SIGKILL), so that no orphan keeps fuzzing or hanging.
func SetDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
