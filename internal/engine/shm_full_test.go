//go:build linux

package engine

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestShmFullFilesystem: a shared memory file that does not fit on its
// filesystem is an error naming the problem. It was made sparse and
// mapped, and the first touch of a page the filesystem could not supply
// killed the supervisor with a SIGBUS (a 1 MiB file: a native target's
// inputs). Needs root to mount a small tmpfs; skipped otherwise.
func TestShmFullFilesystem(t *testing.T) {
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
	if err := os.WriteFile(filepath.Join(mnt, "filler"), make([]byte, 192<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(mnt, "w.shm")
	s, err := createShm(path, 1<<20)
	if err == nil {
		s.close()
		t.Fatalf("a 1 MiB shared memory file on a filesystem with 64 KiB free: no error")
	}
	if !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), "filesystem is full") {
		t.Errorf("error %q does not name the problem", err)
	}
	// With room, it is made and usable to its last byte.
	os.Remove(path)
	os.Remove(filepath.Join(mnt, "filler"))
	s, err = createShm(path, 128<<10)
	if err != nil {
		t.Fatal(err)
	}
	s.mem[len(s.mem)-1] = 1
	s.close()
}
