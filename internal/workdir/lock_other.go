//go:build !unix

package workdir

import "fmt"

// BusyError is returned by Run when another gfz run holds the work
// directory (Unix only: elsewhere the work directory is not locked).
type BusyError struct {
	Dir string
	PID int
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("work directory %s is in use by another gfz run (process %d)", e.Dir, e.PID)
}

type DirLock struct{}

// Lock does nothing outside Unix (no flock).
func Lock(root string) (*DirLock, error) { return &DirLock{}, nil }

func (l *DirLock) Unlock() {}
