package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// TestReadSeedDirs: -seedcorpus reads the files of each directory in name
// order (the same seeds in the same order every run), skips hidden files,
// and skips files the target cannot read with one line per directory.
func TestReadSeedDirs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write := func(dir, name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "2", workdir.EncodeInput([]byte("two")))
	write(a, "1", workdir.EncodeInput([]byte("one")))
	write(a, ".hidden", workdir.EncodeInput([]byte("hidden")))
	write(a, "bad", []byte("go test fuzz v1\nint(1)\n"))
	if err := os.Mkdir(filepath.Join(a, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(b, "x", workdir.EncodeInput([]byte("three")))
	var warn bytes.Buffer
	seeds, err := readSeedDirs([]string{a, b}, workdir.ReadInputFile, &warn)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seeds {
		got = append(got, string(s))
	}
	if strings.Join(got, ",") != "one,two,three" {
		t.Errorf("seeds %q, want one,two,three", got)
	}
	if w := warn.String(); strings.Count(w, "\n") != 1 || !strings.Contains(w, "skipped 1 of 3 files") || !strings.Contains(w, a) {
		t.Errorf("warning %q", w)
	}
	if err := checkSeedDirs([]string{a, filepath.Join(a, "missing")}); err == nil || !strings.Contains(err.Error(), "-seedcorpus") {
		t.Errorf("missing directory: %v", err)
	}
	if err := checkSeedDirs([]string{filepath.Join(a, "1")}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file: %v", err)
	}
}
