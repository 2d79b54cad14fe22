package build

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/gfz-dev/gfz/internal/native"
)

// A fuzz binary links gfz's library (the probe runtime, the engine, the
// native-target wrapper) into the user's test binary. gfz-build brings the
// library it was built with: the version of its tools matches the library
// they generate code for, and the user's module needs no requirement of
// its own (its go.mod is never written).

// LibraryDir returns the directory of the gfz library module this
// gfz-build was built with: from the compile-time path of the library's
// source linked into gfz-build (a checkout, or the module cache after go
// install), or else from the build information's version of the library,
// looked up in (or downloaded to) the module cache.
func LibraryDir() (string, error) {
	fn := runtime.FuncForPC(reflect.ValueOf(native.Describe).Pointer())
	file := ""
	if fn != nil {
		file, _ = fn.FileLine(fn.Entry())
	}
	bi, _ := debug.ReadBuildInfo()
	return libraryDir(file, bi, downloadModule)
}

// libraryDir is LibraryDir with its inputs: file is the compile-time path
// of a source file of package internal/native; download returns the module
// cache directory of a module version.
func libraryDir(file string, bi *debug.BuildInfo, download func(path, version string) (string, error)) (string, error) {
	if filepath.IsAbs(file) {
		// internal/native/<file>: the module root is two levels up.
		if dir := filepath.Dir(filepath.Dir(filepath.Dir(file))); isLibrary(dir) {
			return dir, nil
		}
	}
	version := ""
	if bi != nil {
		for _, d := range bi.Deps {
			if d.Path != GfzPath {
				continue
			}
			version = d.Version
			if d.Replace != nil {
				if d.Replace.Version == "" { // a directory, relative to where gfz-build was built
					if filepath.IsAbs(d.Replace.Path) && isLibrary(d.Replace.Path) {
						return d.Replace.Path, nil
					}
					version = ""
				} else {
					version = d.Replace.Version
				}
			}
		}
		if bi.Main.Path == GfzPath && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			version = bi.Main.Version
		}
	}
	if version != "" && !strings.HasPrefix(version, "v0.0.0-00010101000000-") {
		dir, err := download(GfzPath, version)
		if err == nil && isLibrary(dir) {
			return dir, nil
		}
		if err == nil {
			err = fmt.Errorf("%s holds no gfz library", dir)
		}
		return "", fmt.Errorf("gfz-build: cannot find the gfz library it was built with (%s@%s): %w; reinstall it with go install github.com/gfz-dev/gfz/cmd/gfz-build@%s, or build it from a checkout of gfz", GfzPath, version, err, version)
	}
	where := file
	if where == "" {
		where = "unknown (no symbol table)"
	}
	return "", fmt.Errorf("gfz-build: cannot find the gfz library it was built with: its source was at %s, which holds no gfz library now, and its build information names no released version; build gfz-build from a checkout of gfz (go build ./cmd/gfz-build in the checkout) and keep the checkout in place, or install a release with go install github.com/gfz-dev/gfz/cmd/gfz-build@VERSION", where)
}

// isLibrary reports whether dir is the root of the gfz library module: a
// go.mod declaring it and the probe runtime beside it.
func isLibrary(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || modfile.ModulePath(data) != GfzPath {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, "runtime"))
	return err == nil && st.IsDir()
}

// downloadModule returns the module cache directory of path@version,
// downloading it through the module proxy if needed.
func downloadModule(path, version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", path+"@"+version)
	cmd.Dir = os.TempDir() // outside any module: the query must not touch one
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var m struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &m); jerr == nil && m.Error != "" {
		return "", errors.New(m.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v: %s", path, version, err, strings.TrimSpace(stderr.String()))
	}
	if m.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: no directory", path, version)
	}
	return m.Dir, nil
}

// ToolVersion returns the version of the gfz library this gfz-build was
// built with, from its build information: "" when it was built from a
// checkout (a directory replacement or the workspace's placeholder).
func ToolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return toolVersion(bi)
}

func toolVersion(bi *debug.BuildInfo) string {
	if bi.Main.Path == GfzPath {
		return releaseVersion(bi.Main.Version)
	}
	for _, d := range bi.Deps {
		if d.Path != GfzPath {
			continue
		}
		if d.Replace != nil {
			return releaseVersion(d.Replace.Version) // "" for a directory
		}
		return releaseVersion(d.Version)
	}
	return ""
}

func releaseVersion(v string) string {
	if v == "" || v == "(devel)" || strings.HasPrefix(v, "v0.0.0-00010101000000-") {
		return ""
	}
	return v
}
