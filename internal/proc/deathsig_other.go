//go:build !linux

package proc

import "os/exec"

// SetDeathSignal does nothing here (the kernel has no parent-death
// signal): fuzz workers notice the supervisor's death by their parent
// process changing, and a -repro child ends with its input or its timeout.
func SetDeathSignal(cmd *exec.Cmd) {}
