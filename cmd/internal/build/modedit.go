package build

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// gfz-build never writes the user's go.mod, go.sum or go.work. When the
// build needs more than they say, it builds with a temporary copy (the go
// command's -modfile flag, or GOWORK for a workspace) that adds:
//
//   - the gfz library (a require and a replace by the library gfz-build
//     belongs to), when the main module does not require gfz itself, as a
//     module with native targets only does not. The library requires
//     nothing, so no other module's version moves: the fuzz binary links
//     the versions the user's own build selects.
//   - replace directives for module-cache packages instrumented in a copy
//     (-cover), see modcache.go.
//
// A main module whose go line is older than the library's has it raised in
// the copy (the go command refuses a dependency newer than the main
// module's go line), with the user's language version pinned back for the
// main module's packages (-gcflags=<module>/...=-lang=go1.N) and the
// runtime's GODEBUG defaults pinned back (godebug default=go1.N), so that
// loop variables and the standard library behave as they do in the user's
// own build.

// moduleEdit plans the temporary module files of one build.
type moduleEdit struct {
	gomod, gowork string // the user's files (GOMOD and GOWORK of go env); gowork "" or "off" outside a workspace
	lib           string // gfz library directory to add; "" when the main module(s) provide gfz
	libGo         string // the library's go version
	// Note, when not empty, says that the module's own gfz requirement is
	// replaced by gfz-build's library (their versions differ: probes must
	// match the runtime they call); Build prints it.
	Note string
	// needsFormats tells that the build has native targets, whose
	// rewrite imports FormatsPath (native.go).
	needsFormats bool
}

// vendoredWithout reports whether the main module vendors its
// dependencies (vendor/modules.txt next to go.mod) without package pkg: in
// vendor mode the go command cannot find an import not vendored.
func (e *moduleEdit) vendoredWithout(pkg string) bool {
	if e.gomod == "" || e.gomod == os.DevNull {
		return false
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(e.gomod), "vendor", "modules.txt"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == pkg {
			return false
		}
	}
	return true
}

// mayNeedFormats reports whether the build's native targets, if any, change
// how the module loads (formatsFlags): Build then looks for them before it
// loads the packages, so that the load, the overlay and the build all read
// the same files (loaded from vendor/ and built from the module cache, the
// dependencies' instrumented copies were never compiled).
func (e *moduleEdit) mayNeedFormats() bool {
	return e.lib == "" && !e.workspace() && e.vendoredWithout(FormatsPath)
}

// vendorWarning is the warning of a build that adds the library to a
// module that vendors its dependencies ("" for none): vendor/ cannot list
// the library, so the build reads the module cache (write's -mod=mod),
// and an edit made in vendor/ is not what is fuzzed (it was silent).
func (e *moduleEdit) vendorWarning() string {
	if e.lib == "" || e.workspace() {
		return ""
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(e.gomod), "vendor", "modules.txt")); err != nil {
		return ""
	}
	why := "does not require " + GfzPath
	if e.Note != "" {
		why = "requires another version of " + GfzPath + " than this gfz-build's"
	}
	return "the module vendors its dependencies but " + why + ": building from the module cache " +
		"(-mod=mod), at the versions go.mod selects, not from vendor/ (a change made in vendor/ is not fuzzed); " +
		"to build from vendor/, require the gfz of this gfz-build and run go mod vendor"
}

// formatsFlags are the go command flags a build with native targets needs
// in a module that vendors gfz without FormatsPath (which `go mod vendor`
// leaves out: only gfz-build's rewrite imports it): build from the module
// cache, as for a module that does not require gfz (write).
func (e *moduleEdit) formatsFlags() []string {
	if e.needsFormats && e.mayNeedFormats() {
		return []string{"-mod=mod"}
	}
	return nil
}

// FormatsWarning is the warning of a build formatsFlags changes ("" for
// none).
func (e *moduleEdit) formatsWarning() string {
	if e.formatsFlags() == nil {
		return ""
	}
	return "the module vendors its dependencies without " + FormatsPath + ", which the native targets' rewrite imports: " +
		"building from the module cache (-mod=mod) instead of vendor/; to build from vendor/, import it " +
		"(import _ \"" + FormatsPath + "\") in a _test.go file and run go mod vendor"
}

// planModuleEdit decides what the build needs beyond the user's module
// files. libraryDir is called only when the library must be added;
// toolVersion is the version of the library gfz-build was built with ("" if
// it was built from a checkout).
//
// A module that requires gfz at a released version other than toolVersion
// builds with gfz-build's library instead (the instrumenter writes probes
// for the runtime of its own version); a requirement replaced by a
// directory (a checkout of gfz) is the user's choice and stays.
func planModuleEdit(gomod, gowork string, libraryDir func() (string, error), toolVersion string) (*moduleEdit, error) {
	e := &moduleEdit{gomod: gomod, gowork: gowork}
	req, err := e.gfzRequirement()
	if err != nil {
		return nil, err
	}
	switch {
	case req.dir || req.main:
		return e, nil
	case req.version != "" && req.version == toolVersion:
		return e, nil
	case req.version != "":
		tv := toolVersion
		if tv == "" {
			tv = "a checkout"
		}
		e.Note = fmt.Sprintf("the module requires %s %s; building it with this gfz-build's library (%s) instead, whose runtime its probes call", GfzPath, req.version, tv)
	}
	if req.replacedOnly != "" {
		e.lib = req.replacedOnly // the user's choice of library, now required
	} else if e.lib, err = libraryDir(); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(e.lib, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("gfz-build: read the gfz library's go.mod: %w", err)
	}
	lf, err := modfile.ParseLax(filepath.Join(e.lib, "go.mod"), data, nil)
	if err != nil {
		return nil, fmt.Errorf("gfz-build: parse the gfz library's go.mod: %w", err)
	}
	if lf.Go != nil {
		e.libGo = lf.Go.Version
	}
	return e, nil
}

func (e *moduleEdit) workspace() bool { return e.gowork != "" && e.gowork != "off" }

// gfzReq is how the main module (or the workspace) provides gfz.
type gfzReq struct {
	main    bool   // a main module is gfz's library
	dir     bool   // gfz is required and replaced by a directory
	version string // the version required (or replaced to); "" if none
	// replacedOnly is the directory gfz is replaced by in a go.mod that
	// does not require it (what go mod tidy leaves once the last import
	// of the library is gone: native targets need none): the build adds
	// the requirement, with that directory as the library.
	replacedOnly string
}

// gfzRequirement reads how the main module (or a workspace module) provides
// gfz's library.
func (e *moduleEdit) gfzRequirement() (gfzReq, error) {
	var req gfzReq
	mods := []string{e.gomod}
	if e.workspace() {
		data, err := os.ReadFile(e.gowork)
		if err != nil {
			return req, fmt.Errorf("gfz-build: read go.work: %w", err)
		}
		wf, err := modfile.ParseWork(e.gowork, data, nil)
		if err != nil {
			return req, fmt.Errorf("gfz-build: parse go.work: %w", err)
		}
		for _, r := range wf.Replace { // go.work's replacements apply to every workspace module
			if r.Old.Path == GfzPath {
				if r.New.Version == "" {
					req.dir = true
					return req, nil
				}
				req.version = r.New.Version
			}
		}
		mods = nil
		for _, u := range wf.Use {
			d := u.Path
			if !filepath.IsAbs(d) {
				d = filepath.Join(filepath.Dir(e.gowork), d)
			}
			mods = append(mods, filepath.Join(d, "go.mod"))
		}
	}
	for _, m := range mods {
		if m == "" || m == os.DevNull {
			continue
		}
		data, err := os.ReadFile(m)
		if err != nil {
			if e.workspace() {
				// A module the workspace file lists is missing (a published
				// module's go.work naming a directory not in it).
				return req, fmt.Errorf("gfz-build: read %s, a module %s uses: %w (GOWORK=off builds the module without its workspace)", m, e.gowork, err)
			}
			return req, fmt.Errorf("gfz-build: read %s: %w", m, err)
		}
		f, err := modfile.Parse(m, data, nil)
		if err != nil {
			return req, fmt.Errorf("gfz-build: parse %s: %w", m, err)
		}
		if f.Module != nil && f.Module.Mod.Path == GfzPath {
			req.main = true
			return req, nil
		}
		required := false
		for _, r := range f.Require {
			if r.Mod.Path == GfzPath {
				required = true
				if req.version == "" || semver.Compare(req.version, r.Mod.Version) < 0 {
					req.version = r.Mod.Version
				}
			}
		}
		for _, r := range f.Replace {
			if r.Old.Path != GfzPath {
				continue
			}
			switch {
			case r.New.Version != "":
				if required {
					req.version = r.New.Version
				}
			case required:
				req.dir = true
			default:
				d := r.New.Path
				if !filepath.IsAbs(d) {
					d = filepath.Join(filepath.Dir(m), d)
				}
				req.replacedOnly = d
			}
		}
	}
	if req.dir {
		req.replacedOnly = ""
	}
	return req, nil
}

// write writes the temporary module file for the build (with replace
// directives for the relocated modules rel) into work and returns the go
// command flags and environment that select it; none when the user's files
// serve as they are.
func (e *moduleEdit) write(work string, rel []relocation) (flags, env []string, err error) {
	if e.lib == "" && len(rel) == 0 {
		return e.formatsFlags(), nil, nil
	}
	if e.workspace() {
		return e.writeWork(work, rel)
	}
	if e.gomod == "" || e.gomod == os.DevNull {
		return nil, nil, fmt.Errorf("gfz-build: the build needs a main module (go.mod)")
	}
	data, err := os.ReadFile(e.gomod)
	if err != nil {
		return nil, nil, fmt.Errorf("gfz-build: read go.mod: %w", err)
	}
	mf, err := modfile.Parse(e.gomod, data, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("gfz-build: parse go.mod: %w", err)
	}
	for _, r := range mf.Replace { // relative replacement directories are relative to go.mod
		if r.New.Version == "" && !filepath.IsAbs(r.New.Path) && (strings.HasPrefix(r.New.Path, "./") || strings.HasPrefix(r.New.Path, "../")) {
			abs := filepath.Join(filepath.Dir(e.gomod), r.New.Path)
			if err := mf.AddReplace(r.Old.Path, r.Old.Version, abs, ""); err != nil {
				return nil, nil, fmt.Errorf("gfz-build: go.mod replace: %w", err)
			}
		}
	}
	if e.lib != "" {
		if err := mf.AddRequire(GfzPath, placeholderVersion); err != nil {
			return nil, nil, fmt.Errorf("gfz-build: go.mod require: %w", err)
		}
		if err := mf.AddReplace(GfzPath, "", e.lib, ""); err != nil {
			return nil, nil, fmt.Errorf("gfz-build: go.mod replace: %w", err)
		}
		userGo := "1.16" // the go command's assumption for a go.mod without a go line
		if mf.Go != nil {
			userGo = mf.Go.Version
		}
		if e.libGo != "" && goLess(userGo, e.libGo) {
			if err := mf.AddGoStmt(e.libGo); err != nil {
				return nil, nil, fmt.Errorf("gfz-build: go.mod go line: %w", err)
			}
			lang := "go" + langOf(userGo)
			if !hasGodebugDefault(mf) {
				if err := mf.AddGodebug("default", lang); err != nil {
					return nil, nil, fmt.Errorf("gfz-build: go.mod godebug: %w", err)
				}
			}
			if mf.Module != nil {
				flags = append(flags, "-gcflags="+mf.Module.Mod.Path+"/...=-lang="+lang)
			}
			if goLess(userGo, "1.17") {
				// A pre-1.17 go.mod lists no indirect requirements, which the
				// raised go line's pruned module graph needs: let the go
				// command complete the copy (never the user's file).
				flags = append(flags, "-mod=mod")
			}
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(e.gomod), "vendor", "modules.txt")); err == nil {
			// vendor/modules.txt cannot list the added library: build from
			// the module cache, at the versions go.mod selects.
			flags = append(flags, "-mod=mod")
		}
	}
	for _, r := range rel {
		if err := mf.AddReplace(r.modPath, r.modVersion, r.to, ""); err != nil {
			return nil, nil, fmt.Errorf("gfz-build: go.mod replace: %w", err)
		}
	}
	mf.Cleanup()
	out := filepath.Join(work, "gfz.mod")
	b, err := mf.Format()
	if err != nil {
		return nil, nil, fmt.Errorf("gfz-build: format go.mod: %w", err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return nil, nil, fmt.Errorf("gfz-build: write the temporary go.mod: %w", err)
	}
	copyIfExists(strings.TrimSuffix(e.gomod, ".mod")+".sum", filepath.Join(work, "gfz.sum"))
	return append([]string{"-modfile=" + out}, dedupe(append(flags, e.formatsFlags()...))...), nil, nil
}

// writeWork writes the temporary go.work of a workspace build.
func (e *moduleEdit) writeWork(work string, rel []relocation) (flags, env []string, err error) {
	data, err := os.ReadFile(e.gowork)
	if err != nil {
		return nil, nil, fmt.Errorf("gfz-build: read go.work: %w", err)
	}
	wf, err := modfile.ParseWork(e.gowork, data, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("gfz-build: parse go.work: %w", err)
	}
	for _, d := range wf.Use { // keep relative use paths valid
		if !filepath.IsAbs(d.Path) {
			wf.AddUse(filepath.Join(filepath.Dir(e.gowork), d.Path), d.ModulePath)
			wf.DropUse(d.Path)
		}
	}
	for _, r := range wf.Replace {
		if r.New.Version == "" && !filepath.IsAbs(r.New.Path) {
			if err := wf.AddReplace(r.Old.Path, r.Old.Version, filepath.Join(filepath.Dir(e.gowork), r.New.Path), ""); err != nil {
				return nil, nil, fmt.Errorf("gfz-build: go.work replace: %w", err)
			}
		}
	}
	if e.lib != "" {
		// The library as one more workspace module; its go line is older
		// than any workspace that has none older.
		for _, r := range wf.Replace { // a workspace module cannot also be replaced
			if r.Old.Path == GfzPath {
				if err := wf.DropReplace(r.Old.Path, r.Old.Version); err != nil {
					return nil, nil, fmt.Errorf("gfz-build: go.work replace: %w", err)
				}
			}
		}
		if err := wf.AddUse(e.lib, GfzPath); err != nil {
			return nil, nil, fmt.Errorf("gfz-build: go.work use: %w", err)
		}
		if wf.Go != nil && e.libGo != "" && goLess(wf.Go.Version, e.libGo) {
			lang := "go" + langOf(wf.Go.Version)
			if err := wf.AddGoStmt(e.libGo); err != nil {
				return nil, nil, fmt.Errorf("gfz-build: go.work go line: %w", err)
			}
			// In a workspace the go.work's go line sets the runtime's
			// GODEBUG defaults: keep the workspace's, as for go.mod.
			hasDefault := false
			for _, g := range wf.Godebug {
				hasDefault = hasDefault || g.Key == "default"
			}
			if !hasDefault {
				if err := wf.AddGodebug("default", lang); err != nil {
					return nil, nil, fmt.Errorf("gfz-build: go.work godebug: %w", err)
				}
			}
		}
	}
	for _, r := range rel {
		if err := wf.AddReplace(r.modPath, r.modVersion, r.to, ""); err != nil {
			return nil, nil, fmt.Errorf("gfz-build: go.work replace: %w", err)
		}
	}
	wf.Cleanup()
	out := filepath.Join(work, "go.work")
	if err := os.WriteFile(out, modfile.Format(wf.Syntax), 0o644); err != nil {
		return nil, nil, fmt.Errorf("gfz-build: write the temporary go.work: %w", err)
	}
	copyIfExists(e.gowork+".sum", out+".sum")
	return nil, []string{"GOWORK=" + out}, nil
}

// placeholderVersion is the version the temporary go.mod requires the
// library at; the replace directive decides what is built.
const placeholderVersion = "v0.0.0-00010101000000-000000000000"

func hasGodebugDefault(f *modfile.File) bool {
	for _, g := range f.Godebug {
		if g.Key == "default" {
			return true
		}
	}
	return false
}

// langOf returns the language version (major.minor) of a go version:
// "1.21.3" -> "1.21", "1.21rc1" -> "1.21".
func langOf(v string) string {
	parts := goVersionParts(v)
	return strconv.Itoa(parts[0]) + "." + strconv.Itoa(parts[1])
}

// goLess reports whether go version a is older than b, comparing major,
// minor and patch numbers (a pre-release counts as its release).
func goLess(a, b string) bool {
	pa, pb := goVersionParts(a), goVersionParts(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return false
}

func goVersionParts(v string) [3]int {
	var out [3]int
	for i, f := range strings.SplitN(v, ".", 3) {
		n := 0
		for _, c := range f {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		out[i] = n
	}
	return out
}

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// localize replaces a library directory inside the module cache by a copy
// in work: the build overlays the probe runtime's map size, and the go
// command refuses overlays of module-cache files.
func (e *moduleEdit) localize(work, modcache string) error {
	if e.lib == "" || modcache == "" || !within(modcache, e.lib) {
		return nil
	}
	to := filepath.Join(work, "gfz")
	if err := copyLibrary(e.lib, to); err != nil {
		return fmt.Errorf("gfz-build: copy the gfz library from the module cache: %w", err)
	}
	e.lib = to
	return nil
}

// relocateLibrary adds a copy of gfz's library to rel when the module
// requires gfz at a version in the module cache (a released gfz): the map
// size file of its probe runtime cannot be overlaid there.
func relocateLibrary(work, modcache string, g *graph, rel []relocation) ([]relocation, error) {
	if modcache == "" || g.runtimeDir == "" || !within(modcache, g.runtimeDir) {
		return rel, nil
	}
	if _, ok := relocate(rel, g.runtimeDir); ok {
		return rel, nil
	}
	from := filepath.Dir(g.runtimeDir) // runtime is a top-level package of the library
	r := relocation{modPath: GfzPath, from: from, to: filepath.Join(work, "mod", "gfz")}
	if m := g.runtimeMod; m != nil {
		if m.Dir != "" {
			r.from = m.Dir
		}
		if m.Replace == nil {
			r.modVersion = m.Version
		}
	}
	if err := copyLibrary(r.from, r.to); err != nil {
		return nil, fmt.Errorf("copy the gfz library from the module cache: %w", err)
	}
	return append(rel, r), nil
}

// copyLibrary copies what building gfz's library needs: every file but
// tests, testdata and docs.
func copyLibrary(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			if p != from && (d.Name() == "testdata" || d.Name() == ".git" || rel == "docs") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != from {
				return filepath.SkipDir // a nested module (the tools)
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(d.Name(), "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

// warnings returns the build's warnings with the edit's note first.
func (e *moduleEdit) warnings(w []string) []string {
	if e.Note == "" {
		return w
	}
	return append([]string{e.Note}, w...)
}
