//go:build !unix

package engine

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"time"
)

// SupervisorConfig configures Supervise (see the Unix version).
type SupervisorConfig struct {
	Target, Engine string
	Seed, Runs     int64
	Time, Timeout  time.Duration
	RSSLimitMB     int
	Workers        int
	Workdir        string
	MaxInputSize   int
	Status         io.Writer
	StatusInterval time.Duration
	Verbose        bool
	Command        func(w WorkerSpec) *exec.Cmd
	ErrorExit      int
}

// WorkerSpec tells a worker process what to do.
type WorkerSpec struct {
	ID, Incarnation int
	SharedMem       string
	Seed, Runs      int64
	Time            time.Duration
	Sync            bool
}

// ErrNoEngine: see the Unix version.
var ErrNoEngine = errors.New("the worker ended without running the engine")

// GoexitMarker: see the Unix version.
const GoexitMarker = "gfz-worker: the fuzz target called runtime.Goexit"

func selfRSS() int64 { return 0 }

// Supervise needs a Unix system (mmap, signals).
func Supervise(ctx context.Context, cfg SupervisorConfig) (*Summary, error) {
	return nil, errNoShm
}
