//go:build !unix

package engine

import (
	"context"
)

func selfRSS() int64 { return 0 }

// Supervise needs a Unix system (mmap, signals).
func Supervise(ctx context.Context, cfg SupervisorConfig) (*Summary, error) {
	return nil, errNoShm
}

// ProcRSS needs /proc (see the Unix version): 0.
func ProcRSS(pid int) int64 { return 0 }
