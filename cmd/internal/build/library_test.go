package build

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestLibraryDir: gfz-build finds the library of its own checkout from the
// compile-time path of the library's source.
func TestLibraryDir(t *testing.T) {
	dir, err := LibraryDir()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs(testmod.GfzRoot(t))
	if got, _ := filepath.Abs(dir); got != want {
		t.Errorf("LibraryDir = %s, want the checkout %s", got, want)
	}
}

// TestLibraryDirFallbacks: with a trimmed or stale source path, the build
// information's library version is looked up in the module cache; without
// one the error says what to do.
func TestLibraryDirFallbacks(t *testing.T) {
	lib := testmod.GfzRoot(t)
	stale := filepath.Join(t.TempDir(), "gone", "internal", "native", "file.go")
	info := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: GfzPath + "/cmd", Version: "v1.2.3"}, Deps: []*debug.Module{{Path: GfzPath, Version: v}}}
	}
	var asked string
	download := func(path, version string) (string, error) {
		asked = path + "@" + version
		if version == "v1.0.0" {
			return lib, nil
		}
		return "", errors.New("not found")
	}
	for _, c := range []struct {
		file    string
		bi      *debug.BuildInfo
		want    string // directory, or a part of the error
		asked   string
		wantErr bool
	}{
		{file: filepath.Join(lib, "internal", "native", "file.go"), want: lib},
		{file: GfzPath + "@v1.0.0/internal/native/file.go", bi: info("v1.0.0"), want: lib, asked: GfzPath + "@v1.0.0"},
		{file: stale, bi: info("v1.0.0"), want: lib, asked: GfzPath + "@v1.0.0"},
		{file: stale, bi: info("v9.9.9"), want: "go install github.com/gfz-dev/gfz/cmd/gfz-build@v9.9.9", asked: GfzPath + "@v9.9.9", wantErr: true},
		{file: stale, bi: info("v0.0.0-00010101000000-000000000000"), want: "build gfz-build from a checkout", wantErr: true},
		{file: stale, want: "holds no gfz library", wantErr: true},
	} {
		asked = ""
		got, err := libraryDir(c.file, c.bi, download)
		switch {
		case c.wantErr && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: err %v, want one saying %q", c.file, err, c.want)
		case !c.wantErr && (err != nil || got != c.want):
			t.Errorf("%s: %q, %v; want %q", c.file, got, err, c.want)
		}
		if asked != c.asked {
			t.Errorf("%s: looked up %q, want %q", c.file, asked, c.asked)
		}
	}
	if _, err := os.Stat(filepath.Join(lib, "runtime")); err != nil {
		t.Fatal(err)
	}
}

func TestGoLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"1.18", "1.22", true}, {"1.22", "1.22", false}, {"1.22.0", "1.22", false}, {"1.21.3", "1.22", true},
		{"1.22", "1.21.9", false}, {"1.21rc1", "1.21", false}, {"1.16", "1.17", true}, {"1.9", "1.10", true},
	} {
		if got := goLess(c.a, c.b); got != c.less {
			t.Errorf("goLess(%s, %s) = %v", c.a, c.b, got)
		}
	}
	if got := langOf("1.21.3"); got != "1.21" {
		t.Errorf("langOf(1.21.3) = %s", got)
	}
}

func TestToolVersion(t *testing.T) {
	dep := func(v string, r *debug.Module) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: GfzPath + "/cmd", Version: "v0.2.0"}, Deps: []*debug.Module{{Path: GfzPath, Version: v, Replace: r}}}
	}
	for _, c := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{dep("v0.2.0", nil), "v0.2.0"},
		{dep("v0.0.0-00010101000000-000000000000", &debug.Module{Path: "../"}), ""},
		{dep("v0.0.0-00010101000000-000000000000", nil), ""},
		{dep("v0.1.0", &debug.Module{Path: GfzPath, Version: "v0.1.1"}), "v0.1.1"},
		{&debug.BuildInfo{Main: debug.Module{Path: GfzPath, Version: "(devel)"}}, ""},
	} {
		if got := toolVersion(c.bi); got != c.want {
			t.Errorf("toolVersion(%v) = %q, want %q", c.bi.Deps, got, c.want)
		}
	}
}
