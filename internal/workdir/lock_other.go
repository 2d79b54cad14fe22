//go:build !unix

package engine

import "fmt"

// WorkdirBusyError is returned by Run when another gfz run holds the work
// directory (Unix only: elsewhere the work directory is not locked).
type WorkdirBusyError struct {
	Dir string
	PID int
}

func (e *WorkdirBusyError) Error() string {
	return fmt.Sprintf("work directory %s is in use by another gfz run (process %d)", e.Dir, e.PID)
}

type workdirLock struct{}

// lockWorkdir does nothing outside Unix (no flock).
func lockWorkdir(root string) (*workdirLock, error) { return &workdirLock{}, nil }

func (l *workdirLock) unlock() {}
