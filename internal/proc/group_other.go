//go:build !unix

package proc

import "os/exec"

// OwnGroup does nothing here (no process groups; fuzz workers need a Unix
// system anyway).
func OwnGroup(cmd *exec.Cmd) {}

// KillGroup does nothing here.
func KillGroup(pid int) {}
