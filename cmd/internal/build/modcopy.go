package build

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// Module copies in the build cache. The go command refuses overlays of
// module-cache files, so a module-cache module with an instrumented package
// is built from a copy (modcache.go). With the build cache on, the copy is
// made once per module version, under <cache>/mod/<id>/, and every build
// reuses it: nothing is copied on a rebuild, and since the copy's path does
// not change, Go's build cache keeps the compiled packages of the module
// across gfz builds (it keys them by directory). The instrumented files
// reach the copy through the overlay like any other (the copy is not in
// the module cache). A copy is written in a temporary directory and
// renamed into place, so concurrent builds see it whole or not at all; its
// manifest (copyManifest: every file and its size) is checked on each use,
// and a copy that fails the check is made again.

const copyManifest = ".gfz-copy.json"

type manifestFile struct {
	Name string
	Size int64
}

// moduleCopy returns the cached copy of the module directory from, made by
// fill (which copies from into its second argument) when missing or
// damaged; what names the kind of copy (fill's own rules), for the id.
func (c *buildCache) moduleCopy(what, from string, fill func(from, to string) error) (string, error) {
	sum := sha256.Sum256([]byte(cacheFormat + "\n" + what + "\n" + from))
	id := hex.EncodeToString(sum[:12])
	root := filepath.Join(c.dir, "mod")
	final := filepath.Join(root, id)
	if checkCopy(final) {
		touch(filepath.Join(final, copyManifest))
		return final, nil
	}
	if _, err := os.Stat(final); err == nil {
		// Damaged: move it out of the way (a rename is atomic), then remove it.
		junk := filepath.Join(root, fmt.Sprintf("tmp-junk-%s-%d", id, time.Now().UnixNano()))
		if err := os.Rename(final, junk); err == nil {
			os.RemoveAll(junk)
		}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("build cache: %w", err)
	}
	tmp, err := os.MkdirTemp(root, "tmp-"+id+"-")
	if err != nil {
		return "", fmt.Errorf("build cache: %w", err)
	}
	defer os.RemoveAll(tmp) // left only when the rename failed
	if err := fill(from, tmp); err != nil {
		return "", err
	}
	if err := writeManifest(tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another build renamed its copy first: use that one.
		if checkCopy(final) {
			return final, nil
		}
		return "", fmt.Errorf("build cache: copy %s: %w", from, err)
	}
	return final, nil
}

func writeManifest(dir string) error {
	var files []manifestFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, manifestFile{rel, info.Size()})
		return nil
	})
	if err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	data, err := json.Marshal(files)
	if err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, copyManifest), data, 0o644)
}

// checkCopy reports whether dir holds a whole copy: every file of its
// manifest, at its size.
func checkCopy(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, copyManifest))
	if err != nil {
		return false
	}
	var files []manifestFile
	if json.Unmarshal(data, &files) != nil {
		return false
	}
	for _, f := range files {
		st, err := os.Stat(filepath.Join(dir, f.Name))
		if err != nil || st.Size() != f.Size {
			return false
		}
	}
	return true
}

// trimModuleCopies removes the copies unused since cutoff and temporary
// directories older than tmpCutoff.
func trimModuleCopies(root string, cutoff, tmpCutoff time.Time) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		if strings.HasPrefix(e.Name(), "tmp-") {
			if st, err := os.Stat(p); err == nil && st.ModTime().Before(tmpCutoff) {
				os.RemoveAll(p)
			}
			continue
		}
		st, err := os.Stat(filepath.Join(p, copyManifest))
		if err != nil || st.ModTime().Before(cutoff) {
			// Rename first, so that no build finds it half removed.
			junk := filepath.Join(root, "tmp-junk-"+e.Name())
			if os.Rename(p, junk) == nil {
				os.RemoveAll(junk)
			}
		}
	}
}

// relocateModulesCached is relocateModules with the copies in the build
// cache (c == nil: per build, in work).
func relocateModulesCached(c *buildCache, work, modcache string, pkgs []*packages.Package) ([]relocation, error) {
	if c == nil {
		return relocateModules(work, modcache, pkgs)
	}
	byPath, paths := cacheModules(modcache, pkgs)
	var rel []relocation
	for _, path := range paths {
		m := byPath[path]
		to, err := c.moduleCopy("module "+path, m.Dir, func(from, to string) error {
			if err := copyTree(from, to); err != nil {
				return fmt.Errorf("copy module %s: %w", path, err)
			}
			if err := ensureGoMod(to, path); err != nil {
				return fmt.Errorf("copy module %s: %w", path, err)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		r := relocation{modPath: path, modVersion: m.Version, from: m.Dir, to: to}
		if m.Replace != nil { // replaced by another cached module: replace the replacement's origin
			r.modVersion = ""
		}
		rel = append(rel, r)
	}
	return rel, nil
}

// localizeCached is moduleEdit.localize with the library copy in the build
// cache (c == nil: per build, in work).
func localizeCached(c *buildCache, e *moduleEdit, work, modcache string) error {
	if c == nil {
		return e.localize(work, modcache)
	}
	if e.lib == "" || modcache == "" || !within(modcache, e.lib) {
		return nil
	}
	to, err := c.moduleCopy("library", e.lib, copyLibrary)
	if err != nil {
		return fmt.Errorf("gfz-build: copy the gfz library from the module cache: %w", err)
	}
	e.lib = to
	return nil
}

// relocateLibraryCached is relocateLibrary with the copy in the build
// cache (c == nil: per build, in work).
func relocateLibraryCached(c *buildCache, work, modcache string, g *graph, rel []relocation) ([]relocation, error) {
	if c == nil {
		return relocateLibrary(work, modcache, g, rel)
	}
	if modcache == "" || g.runtimeDir == "" || !within(modcache, g.runtimeDir) {
		return rel, nil
	}
	if _, ok := relocate(rel, g.runtimeDir); ok {
		return rel, nil
	}
	r := relocation{modPath: GfzPath, from: filepath.Dir(g.runtimeDir)}
	if m := g.runtimeMod; m != nil {
		if m.Dir != "" {
			r.from = m.Dir
		}
		if m.Replace == nil {
			r.modVersion = m.Version
		}
	}
	to, err := c.moduleCopy("library", r.from, copyLibrary)
	if err != nil {
		return nil, fmt.Errorf("copy the gfz library from the module cache: %w", err)
	}
	r.to = to
	return append(rel, r), nil
}
