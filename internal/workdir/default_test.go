package workdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultDir: default work directories are in gfz's cache, never in
// the source tree, distinct for every package, target and checkout, and
// the same for a fuzz binary run directly and for gfz-run (root/<import
// path>/<target>); they do not change from one run to the next.
func TestDefaultDir(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(CacheEnv, cache)
	src := t.TempDir()
	mk := func(files ...string) {
		for _, f := range files {
			p := filepath.Join(src, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			content := "package x\n"
			if filepath.Base(f) == "go.mod" {
				content = "// a comment\nmodule \"example.com/m\"\n\ngo 1.22\n"
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	mk("one/go.mod", "one/a/a.go", "one/b/c/c.go", "two/go.mod", "two/a/a.go", "nomod/p/p.go")
	one, two := filepath.Join(src, "one"), filepath.Join(src, "two")

	a := DefaultDir(filepath.Join(one, "a"), "FuzzX")
	root := DefaultRoot(one)
	if want := filepath.Join(root, "example.com", "m", "a", "FuzzX"); a != want {
		t.Errorf("DefaultDir = %s, want %s (gfz-run's layout under DefaultRoot)", a, want)
	}
	if !strings.HasPrefix(root, filepath.Join(cache, "work", "one-")) {
		t.Errorf("root %s not in the cache %s", root, cache)
	}
	if DefaultRoot(filepath.Join(one, "b", "c")) != root {
		t.Errorf("a subdirectory of the module has another root")
	}
	seen := map[string]string{}
	for _, c := range []struct{ dir, target string }{
		{filepath.Join(one, "a"), "FuzzX"},
		{filepath.Join(one, "a"), "FuzzY"},
		{filepath.Join(one, "b", "c"), "FuzzX"},
		{filepath.Join(two, "a"), "FuzzX"}, // another checkout of the same module
		{filepath.Join(src, "nomod", "p"), "FuzzX"},
	} {
		d := DefaultDir(c.dir, c.target)
		if prev, ok := seen[d]; ok {
			t.Errorf("%s and %s share %s", prev, c.dir+" "+c.target, d)
		}
		seen[d] = c.dir + " " + c.target
		if strings.HasPrefix(d, src) {
			t.Errorf("%s is in the source tree", d)
		}
		if again := DefaultDir(c.dir, c.target); again != d {
			t.Errorf("%s then %s", d, again)
		}
	}
	// "" is the current directory.
	wd, _ := os.Getwd()
	if err := os.Chdir(filepath.Join(one, "a")); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	if got := DefaultDir("", "FuzzX"); got != a {
		t.Errorf("DefaultDir(\"\") = %s, want %s", got, a)
	}
	if got := DefaultRoot(""); got != root {
		t.Errorf("DefaultRoot(\"\") = %s, want %s", got, root)
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv(CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	t.Setenv("HOME", "/home/u")
	if d := CacheDir(); !strings.HasSuffix(d, string(filepath.Separator)+"gfz") {
		t.Errorf("CacheDir = %s, want .../gfz", d)
	}
	t.Setenv(CacheEnv, "/c/gfz")
	if d := CacheDir(); d != "/c/gfz" {
		t.Errorf("CacheDir with %s set = %s", CacheEnv, d)
	}
}
