package gfz_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFullDisk runs a fuzz binary whose work directory is on a nearly full
// file system (a 256 KiB tmpfs; needs root, skipped otherwise): saving a
// corpus entry fails, and the run must say so, name the file and exit with
// status 2, leaving no temporary files behind.
func TestFullDisk(t *testing.T) {
	bin := crashersBinary(t)
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
	// Fill the file system, then free 12 KiB: room to start, not to save
	// the corpus a run of FuzzFine builds.
	if err := os.WriteFile(filepath.Join(mnt, "spare"), make([]byte, 12<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	if err := os.Remove(filepath.Join(mnt, "spare")); err != nil {
		t.Fatal(err)
	}

	wd := filepath.Join(mnt, "w")
	cmd := exec.Command(bin, "-workers", "1", "-runs", "200000", "-workdir", wd, "FuzzFine")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("exit: %v, want status 2\n%s", err, out)
	}
	if !strings.Contains(string(out), "no space left on device") || !strings.Contains(string(out), wd) {
		t.Errorf("output does not name the problem and the path:\n%s", out)
	}
	filepath.WalkDir(wd, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", path)
		}
		return nil
	})
}
