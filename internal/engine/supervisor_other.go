//go:build !unix

package engine

import (
	"context"
	"os"
	"strconv"
)

func selfRSS() int64 { return 0 }

// CrashKind needs a Unix system (see the Unix version).
func CrashKind(stderrTail string, ps *os.ProcessState) string {
	return "exit status " + strconv.Itoa(ps.ExitCode())
}

// Supervise needs a Unix system (mmap, signals).
func Supervise(ctx context.Context, cfg SupervisorConfig) (*Summary, error) {
	return nil, errNoShm
}

// ProcRSS needs /proc (see the Unix version): 0.
func ProcRSS(pid int) int64 { return 0 }
