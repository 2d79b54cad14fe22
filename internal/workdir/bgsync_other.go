//go:build !unix

package workdir

import "os"

// bgFsync fsyncs the file at path (a directory cannot be synced here).
// Tests replace it.
var bgFsync = func(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return &syncError{path, err}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil
	}
	if err := f.Sync(); err != nil {
		return &syncError{path, err}
	}
	return nil
}
