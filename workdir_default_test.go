package gfz_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultWorkdirOutsideSource: a fuzz binary run from its package's
// directory without -workdir writes nothing there (it created ./gfzwork in
// the source tree): its work directory is in gfz's cache ($GFZCACHE), named
// in its first line, and a second run resumes it.
func TestDefaultWorkdirOutsideSource(t *testing.T) {
	bin, pkg := regressDictModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	before := listDir(t, pkg)
	var wd string
	for i, want := range []string{"", "resuming from"} {
		cmd := exec.Command(bin, "-runs", "200", "-workers", "1", "-seed", "1", "FuzzPlain")
		cmd.Dir = pkg
		cmd.Env = append(os.Environ(), "GFZCACHE="+cache)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("run %d: %v\n%s", i, err, out)
		}
		if after := listDir(t, pkg); after != before {
			t.Fatalf("run %d changed the package directory: %s, then %s\n%s", i, before, after, out)
		}
		first, _, _ := strings.Cut(string(out), "\n")
		dir, ok := strings.CutPrefix(first, "gfz: FuzzPlain: work directory ")
		dir, _, _ = strings.Cut(dir, " (the default")
		if !ok || !strings.HasPrefix(dir, filepath.Join(cache, "work")+string(filepath.Separator)) || !strings.HasSuffix(dir, filepath.Join("example.com", "regressdict", "pkg", "FuzzPlain")) {
			t.Fatalf("run %d: first line %q does not name a work directory in the cache %s\n%s", i, first, cache, out)
		}
		if wd != "" && dir != wd {
			t.Errorf("run %d: work directory %s, then %s", i, wd, dir)
		}
		wd = dir
		if _, err := os.Stat(filepath.Join(wd, "corpus")); err != nil {
			t.Errorf("run %d: %v", i, err)
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("run %d does not say %q:\n%s", i, want, out)
		}
	}
}

// listDir lists the names in dir, one level.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return strings.Join(names, ",")
}
