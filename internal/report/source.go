package report

import (
	"debug/elf"
	"debug/gosym"
	"debug/macho"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Finding the source files of a coverage profile, which names them by
// import path (import-path/base.go).

// ExecutableSources maps the profile file names of the packages pkgs
// (import paths) to the source paths recorded in the executable exe's line
// table: gfz-build's //line directives name the original files, so a fuzz
// binary knows where its instrumented source is on the machine that built
// it. Only ELF and Mach-O executables are read.
func ExecutableSources(exe string, pkgs []string) (map[string]string, error) {
	pcln, text, err := lineTable(exe)
	if err != nil {
		return nil, err
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(pcln, text))
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, p := range pkgs {
		want[p] = true
	}
	// Inlined and generic code can carry another package's file: take,
	// for each package, the files in the directory most of its functions
	// are in.
	files := map[string]map[string]int{} // package -> file -> functions
	for i := range tab.Funcs {
		fn := &tab.Funcs[i]
		pkg := fn.PackageName()
		if !want[pkg] {
			continue
		}
		file, _, _ := tab.PCToLine(fn.Entry)
		if file == "" || !filepath.IsAbs(file) {
			continue
		}
		if files[pkg] == nil {
			files[pkg] = map[string]int{}
		}
		files[pkg][file]++
	}
	out := map[string]string{}
	for pkg, fs := range files {
		dirs := map[string]int{}
		for f, n := range fs {
			dirs[filepath.Dir(f)] += n
		}
		best := ""
		for d, n := range dirs {
			if best == "" || n > dirs[best] || n == dirs[best] && d < best {
				best = d
			}
		}
		for f := range fs {
			if filepath.Dir(f) == best {
				out[pkg+"/"+filepath.Base(f)] = f
			}
		}
	}
	return out, nil
}

// lineTable returns the pclntab section of exe and the address of its
// text.
func lineTable(exe string) ([]byte, uint64, error) {
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		pcln, text := f.Section(".gopclntab"), f.Section(".text")
		if pcln == nil || text == nil {
			return nil, 0, errors.New("no Go line table")
		}
		data, err := pcln.Data()
		return data, text.Addr, err
	}
	if f, err := macho.Open(exe); err == nil {
		defer f.Close()
		pcln, text := f.Section("__gopclntab"), f.Section("__text")
		if pcln == nil || text == nil {
			return nil, 0, errors.New("no Go line table")
		}
		data, err := pcln.Data()
		return data, text.Addr, err
	}
	return nil, 0, errors.New("not an ELF or Mach-O executable")
}

// moduleSource resolves a profile file name under the main module
// containing dir (the go.mod found walking up from dir): the file
// module/sub/x.go is <module root>/sub/x.go. It returns "" when the name
// is not in that module.
func moduleSource(dir, name string) string {
	for d := dir; ; {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mod := modulePath(data)
			if mod == "" {
				return ""
			}
			rel, ok := strings.CutPrefix(name, mod+"/")
			if !ok || path.IsAbs(rel) || strings.Contains("/"+rel+"/", "/../") {
				return ""
			}
			return filepath.Join(d, filepath.FromSlash(rel))
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// resolver returns the function that finds a profile file on disk: in
// known first, then under the module containing dir; a path is returned
// only if the file exists.
func resolver(known map[string]string, dir string) func(string) string {
	return func(name string) string {
		for _, p := range []string{known[name], moduleSource(dir, name)} {
			if p == "" {
				continue
			}
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
		}
		return ""
	}
}

// modulePath returns the module path declared by a go.mod file ("" if
// none).
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" {
			if s, err := strconv.Unquote(f[1]); err == nil {
				return s
			}
			return f[1]
		}
	}
	return ""
}
