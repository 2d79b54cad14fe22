//go:build !unix

package engine

import (
	"context"
)

// Supervise needs a Unix system (mmap, signals).
func Supervise(ctx context.Context, cfg SupervisorConfig) (*Summary, error) {
	return nil, errNoShm
}
