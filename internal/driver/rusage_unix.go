//go:build unix

package driver

import (
	"runtime"
	"syscall"
)

// childrenPeakRSSMB is the largest resident set of the process's waited-for
// children, in MiB (getrusage(RUSAGE_CHILDREN); Linux counts KiB, macOS
// bytes).
func childrenPeakRSSMB() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) >> 20
	}
	return int64(ru.Maxrss) >> 10
}
