//go:build unix && !linux

package engine

import "os/exec"

// setDeathSignal does nothing here: workers notice the supervisor's death
// by their parent process changing (see fuzzer.watch).
func setDeathSignal(cmd *exec.Cmd) {}
