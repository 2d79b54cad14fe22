package workdir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGlob: the directory of the pattern is taken literally (a scratch
// directory named "runs[1]" lists its failures), only the last element
// is a pattern.
func TestGlob(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs[1]")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"b.txt", "a.txt", "c.log"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Glob(filepath.Join(dir, "*.txt"))
	want := []string{filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Glob = %q, %v; want %q", got, err, want)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.txt")); len(m) != 0 {
		t.Errorf("filepath.Glob matched %q: the test no longer shows the difference", m)
	}
	if got, err := Glob(filepath.Join(dir, "missing", "*")); err == nil || len(got) != 0 {
		t.Errorf("a missing directory: %q, %v", got, err)
	}
	if got, err := Glob(filepath.Join(dir, "[")); err != filepath.ErrBadPattern || len(got) != 0 {
		t.Errorf("a bad pattern: %q, %v", got, err)
	}
}
