//go:build unix

package workdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockFile is the name of the work directory's lock file.
const lockFile = ".gfz-lock"

// BusyError is returned by Run and Supervise when another gfz run
// holds the work directory.
type BusyError struct {
	Dir string // the work directory
	PID int    // the process holding it (0 if unknown)
}

func (e *BusyError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = "process " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("work directory %s is in use by another gfz run (%s); wait for it to end, stop it, or use another -workdir", e.Dir, who)
}

// DirLock is a held work directory lock.
type DirLock struct{ f *os.File }

// Lock takes the work directory's lock: an exclusive flock(2) on
// root/.gfz-lock, which holds the PID of its holder (for the message of a
// refused run). The kernel releases a flock when its holder dies, kill -9
// included, so the lock never outlives its run. Worker processes do not
// take it (their supervisor holds it; the descriptor is close-on-exec).
func Lock(root string) (*DirLock, error) {
	path := filepath.Join(root, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("engine: work directory %s: lock: %w", root, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			b, _ := os.ReadFile(path)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return nil, &BusyError{Dir: root, PID: pid}
		}
		return nil, fmt.Errorf("engine: work directory %s: lock %s: %w", root, path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &DirLock{f: f}, nil
}

// Unlock releases the lock (the file stays: removing it would race with a
// run that opened it and is about to lock it).
func (l *DirLock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	_ = l.f.Truncate(0)
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
