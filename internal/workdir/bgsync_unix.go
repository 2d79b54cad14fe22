//go:build unix

package workdir

import "syscall"

// bgFsync fsyncs the file or directory at path through the syscall
// package alone (bgsync.go says why). Tests replace it.
var bgFsync = func(path string) error {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &syncError{path, err}
	}
	err = syscall.Fsync(fd)
	syscall.Close(fd)
	if err != nil {
		return &syncError{path, err}
	}
	return nil
}
