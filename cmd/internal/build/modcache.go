package build

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// The go command refuses overlays of files in the module cache. Packages of
// such modules (gfz-build -cover github.com/x/y) are instrumented in a copy
// of their module inside the work directory, and the build is pointed at the
// copy with a replace directive in the temporary go.mod or go.work of
// modedit.go. The user's files stay untouched.

type relocation struct {
	modPath, modVersion string
	from, to            string // module directories: cache and copy
}

// goEnv returns the values of the named go env variables, run in dir.
func goEnv(dir string, names ...string) ([]string, error) {
	cmd := exec.Command("go", append([]string{"env"}, names...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	vals := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(vals) != len(names) {
		return nil, fmt.Errorf("go env %v: unexpected output %q", names, out)
	}
	return vals, nil
}

// relocateModules copies the modules of the packages that live in the
// module cache into work/mod/.
func relocateModules(work, modcache string, pkgs []*packages.Package) ([]relocation, error) {
	byPath, paths := cacheModules(modcache, pkgs)
	var rel []relocation
	for i, path := range paths {
		m := byPath[path]
		to := filepath.Join(work, "mod", fmt.Sprintf("%03d", i))
		if err := copyTree(m.Dir, to); err != nil {
			return nil, fmt.Errorf("copy module %s: %w", path, err)
		}
		if err := ensureGoMod(to, path); err != nil {
			return nil, fmt.Errorf("copy module %s: %w", path, err)
		}
		r := relocation{modPath: path, modVersion: m.Version, from: m.Dir, to: to}
		if m.Replace != nil { // replaced by another cached module: replace the replacement's origin
			r.modVersion = ""
		}
		rel = append(rel, r)
	}
	return rel, nil
}

// ensureGoMod gives the module copy in dir a go.mod when the module
// version predates modules (the go command synthesises "module path" for
// such versions in the cache, but a replacement directory must have one):
// the same synthesised file, with no go directive and no requirements.
func ensureGoMod(dir, modPath string) error {
	gomod := filepath.Join(dir, "go.mod")
	if _, err := os.Stat(gomod); err == nil || !os.IsNotExist(err) {
		return err
	}
	return os.WriteFile(gomod, []byte("module "+modfile.AutoQuote(modPath)+"\n"), 0o644)
}

func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// relocate maps a file of a copied module to its copy.
func relocate(rel []relocation, file string) (string, bool) {
	for _, r := range rel {
		if within(r.from, file) {
			tail, _ := filepath.Rel(r.from, file)
			return filepath.Join(r.to, tail), true
		}
	}
	return "", false
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

func copyIfExists(from, to string) {
	if b, err := os.ReadFile(from); err == nil {
		os.WriteFile(to, b, 0o644)
	}
}

// cacheModules returns the modules in the module cache (modcache) that
// provide pkgs, by path, and their paths in order.
func cacheModules(modcache string, pkgs []*packages.Package) (map[string]*packages.Module, []string) {
	byPath := map[string]*packages.Module{}
	for _, p := range pkgs {
		m := p.Module
		if m == nil || m.Main || m.Dir == "" || modcache == "" || !within(modcache, m.Dir) {
			continue
		}
		byPath[m.Path] = m
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return byPath, paths
}
