// Package build is the library behind gfz-build: it loads packages with
// golang.org/x/tools/go/packages, instruments them with package instrument
// into a go command build overlay (the user's tree is never written), sizes
// the coverage map from the probe count, and builds one fuzz binary per
// package that declares gfz fuzz targets with
//
//	go test -c -overlay overlay.json -ldflags "-X github.com/gfz-dev/gfz.buildInfo=..." -o OUT PKG
//
// Prepare does everything up to the overlay (callers such as tests or
// gfz-run can hand the overlay to their own go command); Build also runs the
// go command.
package build

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// Options configure Prepare and Build.
type Options struct {
	Patterns []string // packages to instrument and build (main module only); default "."
	Cover    []string // extra packages to instrument: other modules' and std packages
	// Only, when not empty, restricts the dependencies instrumented by
	// default (see Prepare) to those whose import path matches one of
	// these patterns (go command wildcards: "github.com/x/y/...").
	Only []string
	// Skip removes the dependencies matching these patterns from the
	// default set. Neither Only nor Skip affects the matched packages or
	// -cover.
	Skip    []string
	Tags    string // comma-separated build tags (go -tags)
	Race    bool   // build with -race
	Output  string // Build: output file (one binary) or directory (several); default ./<pkgname>.gfz
	Work    bool   // keep the work directory with the rewritten files
	MapBits int    // log2 of the map size; 0 chooses it from the probe count
	// Counts makes probes count hits past 255 exactly (runtime.CountLaps),
	// which -feedback perf needs; it makes every probe larger.
	Counts bool
	Dir    string // directory to run in (the user's module); default the current directory
	// Cache is the build cache directory (cache.go); "" means build/ in
	// gfz's cache directory ($GFZCACHE, default gfz in the user's cache
	// directory), "off" turns the cache off.
	Cache   string
	Verbose bool // print per-package details and the collision estimate
	Stdout  io.Writer
	Stderr  io.Writer

	// Cmp inserts comparison probes (the cmp feedback domain) besides the
	// coverage probes (docs/INSTRUMENT.md, "Comparison probes") in every
	// build. NoCmp never inserts them. With neither (the default) they are
	// inserted when a matched package has a native target (f.Fuzz with
	// typed arguments), whose fuzz binary then runs with -feedback cmp by
	// default (docs/BENCHMARKS.md, "Comparison feedback on native
	// targets"); Prepared.Cmp says what was decided.
	Cmp   bool
	NoCmp bool

	// TestFiles instruments the _test.go files of every matched package
	// with fuzz targets (testfiles.go); NoTestFiles of none. With neither
	// (the default) those of the packages that have a native target
	// (f.Fuzz) are: a native target's own code, its fuzz function and
	// helpers, is there. A gfz target's test files hold its generators,
	// whose branches make structural variety look like new coverage; on
	// the examples they did not help (docs/BENCHMARKS.md, "Probes in test
	// files").
	TestFiles   bool
	NoTestFiles bool

	// Harness instruments the harness packages too (harness.go): the
	// packages that only the targets' tests reach, that import gfz's API
	// and that have no fuzz target of their own, where generators shared
	// between targets live. By default they are left out, as a gfz
	// target's test files are, and Prepared.Harness lists them.
	Harness bool
}

// ProbeCount says how many probes b has: outside its _test.go files, and
// in them when there are some ("37 probes, and 12 in _test.go files").
func (b Binary) ProbeCount() string {
	s := fmt.Sprintf("%d probes", b.Probes)
	if b.TestProbes > 0 {
		s += fmt.Sprintf(", and %d in _test.go files", b.TestProbes)
	}
	return s
}

// InstrumentedPackage describes one rewritten package.
type InstrumentedPackage struct {
	Path   string // import path
	Module string // module path; "std" for the standard library
	Std    bool   // standard-library package (linkname scheme)
	Files  int    // rewritten files
	Probes int
}

// Binary is one fuzz binary produced by Build.
type Binary struct {
	Package string   // import path of the package with the targets
	Dir     string   // its source directory (run the binary there to find testdata/fuzz seeds)
	Output  string   // absolute path of the binary
	Targets []string // gfz fuzz targets, in source order
	Probes  int      // probes of the instrumented packages linked into this binary, outside _test.go files
	// TestProbes counts the probes in the package's own _test.go files
	// (in-package and external), besides Probes.
	TestProbes int
}

// Prepared is the result of Prepare: an overlay ready for the go command.
type Prepared struct {
	Overlay       string                // absolute path of the overlay JSON
	WorkDir       string                // directory holding the overlay and rewritten files
	Packages      []InstrumentedPackage // in load order
	Targets       map[string][]string   // package path -> gfz fuzz targets, for matched packages that have some
	TargetOrder   []string              // package paths of Targets, in load order
	Names         map[string]string     // package path -> package name, for matched packages
	Dirs          map[string]string     // package path -> source directory, for matched packages
	MapBits       int
	Probes        int                 // total probes, _test.go files included (they size the map)
	BinaryProbes  map[string]int      // package path (of Targets) -> probes of the instrumented packages its test binary links, outside _test.go files
	Modules       []ModuleProbes      // probes per module: main modules first, then by module path
	StdImports    map[string][]string // package path (of Targets) -> std packages it (or its tests) imports that -cover could add
	Broken        []PackageError      // matched packages that could not be loaded or instrumented (left out)
	Warnings      []string            // dependencies left uninstrumented, and why
	CollisionRate float64             // expected fraction of colliding edges (see CollisionRate)
	BuildFlags    []string            // -tags, -race, -modfile: pass them (with -overlay) to the go command
	Dictionary    []string            // string and number literals of the instrumented packages (see CollectDictionary)
	Env           []string            // extra environment for the go command (GOWORK when in workspace mode)

	// Native maps a package path (of Targets) to its native targets
	// (f.Fuzz with typed arguments, rewritten to gfz.FuzzNative in the
	// overlay) and their argument types.
	Native map[string]map[string]string
	// NoTargets lists the matched packages without any fuzz target.
	NoTargets []string
	// Harness lists the harness packages left uninstrumented (harness.go;
	// Options.Harness).
	Harness []string
	// Cmp tells whether the packages got comparison probes: Options.Cmp,
	// or by default because a matched package has native targets
	// (CmpDefault).
	Cmp, CmpDefault bool

	// TestPackages lists the instrumented _test.go files: one entry per
	// matched package with in-package test files (Path p) and per
	// external test package (Path p_test). Packages does not count them.
	TestPackages []InstrumentedPackage
	// TestProbes is the number of probes in _test.go files (in Probes).
	TestProbes int
	// BinaryTestProbes maps a package path (of Targets) to the probes in
	// its own _test.go files (not in BinaryProbes).
	BinaryTestProbes map[string]int

	// Cache tells which packages came from the build cache.
	Cache CacheStats

	phases  *phases      // time per step, for -v
	checked resolveStats // what was type-checked
}

// GoFlags returns the flags to add to a go build/test/run command to build
// against the instrumented sources: -overlay plus BuildFlags. Run the go
// command in Options.Dir with Env appended to the environment.
func (p *Prepared) GoFlags() []string {
	return append([]string{"-overlay", p.Overlay}, p.BuildFlags...)
}

// Result is the result of Build.
type Result struct {
	*Prepared
	Binaries []Binary
}

// Cleanup removes the work directory.
func (p *Prepared) Cleanup() error {
	if p == nil || p.WorkDir == "" {
		return nil
	}
	return os.RemoveAll(p.WorkDir)
}

// BuildInfo returns the value gfz-build stores in
// github.com/gfz-dev/gfz.buildInfo for a binary with the given targets,
// built from the package in directory dir (absolute; the fuzz binary's
// -regress writes regression inputs under it): a URL query string,
// url.Values.Encode order, e.g.
// dir=%2Fsrc%2Fapp&mapbits=16&probes=1234&targets=FuzzA%2CFuzzB&v=1.
// The encoding has no spaces, so it fits in one -ldflags -X argument.
func BuildInfo(targets []string, mapBits, probes int, dir string) string {
	v := url.Values{}
	v.Set("v", "1")
	v.Set("targets", strings.Join(targets, ","))
	v.Set("mapbits", strconv.Itoa(mapBits))
	v.Set("probes", strconv.Itoa(probes))
	if dir != "" {
		v.Set("dir", dir)
	}
	return v.Encode()
}

// stdCoverInfoKey is the build-info key under which gfz-build lists the
// standard-library packages a binary instruments (-cover encoding/json),
// comma-separated: they are code under test, whose frames failure
// signatures count as the user's (signature.SetStdUnderTest). It must be
// driver.StdCoverInfoKey (a test checks it).
const stdCoverInfoKey = "stdcover"

// StdCoverBuildInfo returns the build-info entry listing the
// standard-library packages among pkgs (stdCoverInfoKey), to append to
// BuildInfo's value after an "&"; "" when there are none.
func StdCoverBuildInfo(pkgs []InstrumentedPackage) string {
	var std []string
	for _, p := range pkgs {
		if p.Std {
			std = append(std, p.Path)
		}
	}
	if len(std) == 0 {
		return ""
	}
	slices.Sort(std)
	v := url.Values{}
	v.Set(stdCoverInfoKey, strings.Join(slices.Compact(std), ","))
	return v.Encode()
}

func (o *Options) defaults() {
	if len(o.Patterns) == 0 {
		o.Patterns = []string{"."}
	}
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Dir == "" {
		o.Dir = "."
	}
}

func (o *Options) buildFlags() []string {
	var f []string
	if o.Tags != "" {
		f = append(f, "-tags="+o.Tags)
	}
	if o.Race {
		f = append(f, "-race")
	}
	return f
}

// Refusal returns why the package with the given import path cannot be
// instrumented, or "" if it can. std reports whether it is a
// standard-library package.
func Refusal(path string, std bool) string {
	switch {
	case path == instrument.RuntimePath || strings.HasPrefix(path, instrument.RuntimePath+"/"):
		return "it is gfz's probe runtime"
	case !std:
		return ""
	case path == "unsafe" || path == "C":
		return "it is not a real package"
	case path == "runtime" || strings.HasPrefix(path, "runtime/"):
		return "the Go runtime cannot call probes"
	case path == "sync/atomic" || path == "syscall" || path == "os/signal/internal/pty":
		return "the runtime depends on it (or it runs between fork and exec)"
	case path == "internal" || strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") || strings.HasPrefix(path, "vendor/"):
		return "standard-library internal packages are runtime dependencies or not importable"
	}
	return ""
}

// engineShared are the standard packages a worker's engine calls while
// the target runs, which -cover may instrument but whose coverage then
// mixes the engine's calls with the target's, and why. Measured
// (2026-11-28, the trivial target, 300,000 executions): -cover time gave
// a stability of 37-39%; sync, os, fmt, strconv, reflect, bytes, strings,
// math, sort, slices, io, bufio, context, os/signal, encoding/binary,
// crypto/sha256, path/filepath, encoding/hex, unicode/utf8 and errors
// 100%, no coverage beyond the target's.
var engineShared = map[string]string{
	"time": "gfz's engine calls package time from a goroutine of every worker (its ticker loop) while the target runs",
}

func isStd(p *packages.Package) bool {
	if p.Module != nil {
		return false
	}
	first, _, _ := strings.Cut(p.PkgPath, "/")
	return !strings.Contains(first, ".")
}

// loadErrors reports the errors that prevent instrumentation: patterns
// that match nothing, list errors and parse errors. Type errors and failed
// compiles of the packages themselves are left to the go command, which
// reports them verbatim when it builds the instrumented package.
func loadErrors(pkgs []*packages.Package) error {
	var msgs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			if e.Kind == packages.ParseError || len(p.Syntax) == 0 && e.Kind != packages.TypeError {
				msgs = append(msgs, e.Error())
			}
		}
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "\n"))
	}
	return nil
}

// parseFile parses a Go file as the go command's compiler accepts it:
// without go/parser's object resolution (which nothing here reads, and
// which refuses scopes deeper than it allows: a generated function of a
// few thousand else-ifs, which the compiler builds, failed the build).
func parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule

// role says why a package is instrumented.
type role int

const (
	roleMatched role = iota // matched by the patterns
	roleDep                 // imported (transitively) by a matched package or its tests
	roleCover               // named by -cover
)

// Prepare loads and instruments the packages and writes the overlay.
//
// The packages instrumented are: every package of the main module(s) that
// the patterns match; every package that those packages and their tests
// transitively import, except the standard library and gfz's own packages
// (narrowed by Options.Only and Options.Skip); and the packages named by
// Options.Cover. A matched package that cannot be loaded is reported in
// Prepared.Broken and left out, unless no package is left.
func Prepare(ctx context.Context, opts Options) (*Prepared, error) {
	opts.defaults()
	ph := newPhases()
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	envNames := []string{"GOMODCACHE", "GOMOD", "GOWORK", "GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT"}
	envs, err := goEnv(dir, envNames...)
	if err != nil {
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	if noModule(envs[1], envs[2]) {
		return nil, &NoModuleError{Dir: dir}
	}
	for _, f := range strings.Fields(envs[7]) {
		if n := strings.TrimLeft(f, "-"); n == "modfile" || strings.HasPrefix(n, "modfile=") {
			// go/packages runs go list outside modules with GOFLAGS as
			// they are (golang/go#48482), and gfz-build builds against a
			// copy of the module's go.mod: it failed with "build flag
			// -modfile only valid when using modules".
			return nil, fmt.Errorf("gfz-build: GOFLAGS holds %s, which gfz-build does not support (it builds against a copy of the module's go.mod); unset it (GOFLAGS= gfz-build ...), with the requirements the target needs in go.mod", f)
		}
	}
	edit, err := planModuleEdit(envs[1], envs[2], LibraryDir, ToolVersion())
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "gfz-build-")
	if err != nil {
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(work)
		}
	}()
	var warnings []string
	var cache *buildCache
	if cdir, err := cacheDir(opts.Cache); err != nil {
		warnings = append(warnings, fmt.Sprintf("build cache off: %v", err))
	} else if cdir != "" && envs[0] != "" && within(envs[0], cdir) {
		warnings = append(warnings, fmt.Sprintf("build cache off: its directory %s is inside the module cache (GOMODCACHE), where the go command refuses overlays; set %s elsewhere, or build with -cache=off", cdir, workdir.CacheEnv))
	} else if cdir != "" {
		if cache, err = openCache(cdir); err != nil {
			warnings = append(warnings, fmt.Sprintf("build cache off: %v", err))
		}
	}
	if err := localizeCached(cache, edit, work, envs[0]); err != nil {
		return nil, err
	}
	// Load with the temporary module file that adds the gfz library (the
	// overlay's probes and native wrappers import it).
	flags := opts.buildFlags()
	if edit.mayNeedFormats() {
		if edit.needsFormats, err = hasNativeTargets(ctx, dir, flags, opts.Patterns); err != nil {
			return nil, err
		}
	}
	modFlags, modEnv, err := edit.write(work, nil)
	if err != nil {
		return nil, err
	}
	loadFlags := append(slices.Clone(flags), modFlags...)
	ph.done("set-up")
	g, err := loadGraph(ctx, dir, loadFlags, modEnv, opts.Patterns)
	if err != nil {
		return nil, userGoMod(err, work, envs[1])
	}
	ph.done("import graph")
	broken := g.broken
	fatal := func() error {
		if len(broken) == 0 {
			return fmt.Errorf("gfz-build: patterns %s match no package of the main module (gfz's own packages are never instrumented)", strings.Join(opts.Patterns, " "))
		}
		msgs := make([]string, len(broken))
		for i, b := range broken {
			msgs[i] = b.Error()
		}
		return userGoMod(fmt.Errorf("load %s: %s", strings.Join(opts.Patterns, " "), strings.Join(msgs, "\n")), work, envs[1])
	}
	if len(g.matched) == 0 {
		return nil, fatal()
	}
	if g.runtimeDir == "" {
		why := ""
		if g.runtimeErr != "" {
			why = "; the go command says: " + g.runtimeErr
		}
		return nil, fmt.Errorf("gfz-build: %s is not available from %s: the module's gfz requirement (or the library gfz-build added) provides no probe runtime; check that the gfz it requires matches this gfz-build%s", instrument.RuntimePath, dir, why)
	}

	// What to instrument: the matched packages and their dependencies.
	roles := map[string]role{}
	var paths []string
	var roots []*packages.Package
	for _, p := range g.matched {
		roles[p.PkgPath] = roleMatched
		roots = append(roots, g.testRoot(p))
		if len(p.GoFiles) > 0 { // a package with only _test.go files has nothing to instrument
			paths = append(paths, p.PkgPath)
		}
	}
	deps := dependencies(roots)
	harness := harnessPackages(g.matched, deps)
	var leftHarness []string
	for _, p := range deps {
		if _, ok := roles[p.PkgPath]; ok || len(p.GoFiles) == 0 {
			continue
		}
		if len(opts.Only) > 0 && !matchAny(opts.Only, p.PkgPath) || matchAny(opts.Skip, p.PkgPath) {
			continue
		}
		if harness[p.PkgPath] && !opts.Harness {
			leftHarness = append(leftHarness, p.PkgPath)
			continue
		}
		roles[p.PkgPath] = roleDep
		paths = append(paths, p.PkgPath)
	}
	// The packages as the non-test build sees them, with their import
	// graphs (for the cache keys and type-checking): from the graph, or
	// loaded for those only its test variants hold, and for -cover.
	env := append(os.Environ(), modEnv...)
	graphCfg := &packages.Config{Context: ctx, Dir: dir, Mode: graphMode, BuildFlags: loadFlags, Env: env}
	plain := g.plain
	addPlain := func(pkgs []*packages.Package) {
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			if p.ID == p.PkgPath && plain[p.PkgPath] == nil {
				plain[p.PkgPath] = p
			}
		})
	}
	var unlisted []string
	for _, path := range paths {
		if plain[path] == nil {
			unlisted = append(unlisted, path)
		}
	}
	if len(unlisted) > 0 {
		lp, err := packages.Load(graphCfg, unlisted...)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", strings.Join(opts.Patterns, " "), err)
		}
		addPlain(lp)
	}
	if len(opts.Cover) > 0 {
		extra, err := packages.Load(graphCfg, opts.Cover...)
		if err != nil {
			return nil, fmt.Errorf("load -cover %s: %w", strings.Join(opts.Cover, " "), err)
		}
		var msgs []string
		for _, p := range extra {
			if m := listErrors(p); m != "" && len(p.GoFiles) == 0 {
				msgs = append(msgs, m)
			}
		}
		if len(msgs) > 0 {
			return nil, fmt.Errorf("load -cover %s: %s", strings.Join(opts.Cover, " "), strings.Join(msgs, "\n"))
		}
		addPlain(extra)
		for _, p := range extra {
			if why := Refusal(p.PkgPath, isStd(p)); why != "" {
				return nil, fmt.Errorf("-cover: cannot instrument %s: %s", p.PkgPath, why)
			}
			if _, ok := roles[p.PkgPath]; !ok && len(p.GoFiles) > 0 {
				roles[p.PkgPath] = roleCover
				paths = append(paths, p.PkgPath)
			}
			if why := engineShared[p.PkgPath]; why != "" {
				warnings = append(warnings, fmt.Sprintf("-cover %s: %s, so its coverage counts gfz's own calls too: expect unstable edges (a lower stability) and coverage the target did not make", p.PkgPath, why))
			}
		}
	}
	loadFailed := func(path, msg string) error {
		switch roles[path] {
		case roleMatched:
			broken = append(broken, PackageError{Path: path, Err: errors.New(msg)})
		case roleCover:
			return fmt.Errorf("load -cover %s: %s", strings.Join(opts.Cover, " "), msg)
		default:
			warnings = append(warnings, fmt.Sprintf("%s not instrumented: %s", path, msg))
		}
		return nil
	}

	// The cache: an entry for every package whose inputs did not change.
	var todo []*packages.Package
	for _, path := range paths {
		if p := plain[path]; p != nil {
			todo = append(todo, p)
		} else if err := loadFailed(path, "not loaded"); err != nil {
			return nil, err
		}
	}
	var keys *keyer
	if tool, err := toolID(); cache != nil && err != nil {
		warnings = append(warnings, fmt.Sprintf("build cache off: cannot identify gfz-build's executable: %v", err))
		cache = nil
	} else if cache != nil {
		goenv := map[string]string{}
		for i, name := range envNames[3:] {
			goenv[name] = envs[3+i]
		}
		keys = newKeyer(tool, goenv, &opts, envs[0])
	}
	// The native targets of the matched packages, which decide the
	// default of the comparison probes.
	scans := scanNative(g)
	cmp, cmpDefault := opts.Cmp, false
	if !opts.Cmp && !opts.NoCmp && scans.any() {
		cmp, cmpDefault = true, true
	}
	// The fuzz targets of every matched package, found by parsing: the
	// test files of the packages that have some are instrumented.
	found, foundErr := map[string][]string{}, map[string]error{}
	for _, p := range g.matched {
		sc := scans[p.PkgPath]
		if sc.err != nil {
			continue
		}
		for _, f := range sc.testFiles {
			ts, err := FuzzTargets(f, nil)
			if err != nil {
				foundErr[p.PkgPath] = fmt.Errorf("find fuzz targets: %w", err)
				break
			}
			for _, nt := range sc.targets {
				if nt.File == f {
					ts = append(ts, nt.Name)
				}
			}
			for _, t := range ts {
				if !slices.Contains(found[p.PkgPath], t) {
					found[p.PkgPath] = append(found[p.PkgPath], t)
				}
			}
		}
	}
	for _, p := range g.matched {
		if w := unbuiltWarning(p.PkgPath, scans[p.PkgPath], found[p.PkgPath]); w != "" {
			warnings = append(warnings, w)
		}
	}
	// The matched packages that are harness packages (harness.go): those
	// without fuzz targets.
	todo = slices.DeleteFunc(todo, func(p *packages.Package) bool {
		if opts.Harness || roles[p.PkgPath] != roleMatched || !harness[p.PkgPath] || len(found[p.PkgPath]) > 0 || foundErr[p.PkgPath] != nil {
			return false
		}
		leftHarness = append(leftHarness, p.PkgPath)
		return true
	})
	slices.Sort(leftHarness)
	var units []*testUnit
	if !opts.NoTestFiles {
		units = testUnits(g, func(path string) bool {
			return len(found[path]) > 0 && (opts.TestFiles || len(scans[path].targets) > 0)
		})
	}
	// Take what the cache has; type-check and instrument the rest
	// (resolve.go). A dependency that fails is left out with a warning; a
	// matched package that fails is broken; test files that fail are left
	// uninstrumented with a warning.
	results, checked, err := resolve(resolveConfig{ctx: ctx, dir: dir, flags: loadFlags, env: modEnv, goarch: envs[6],
		cache: cache, keys: keys, cmp: cmp, plain: plain, tests: units}, todo)
	if err != nil {
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	if cache != nil {
		for i, p := range todo {
			if results[i].hit {
				cache.hit(p.PkgPath)
			} else {
				cache.miss(p.PkgPath)
			}
		}
		for _, u := range units {
			cache.testHitOrMiss(u.label(), u.res.hit)
		}
	}
	entries := make([]*cacheEntry, len(todo))
	errs := make([]error, len(todo))
	loadErrs := make([]string, len(todo))
	for i, r := range results {
		entries[i], errs[i], loadErrs[i] = r.entry, r.err, r.loadErr
		if r.putErr != nil {
			warnings = append(warnings, r.putErr.Error())
		}
	}
	ph.done("cache, type-check, instrument")
	isBroken := map[string]bool{}
	for _, b := range broken {
		isBroken[b.Path] = true
	}
	var keep []*packages.Package
	var kept []*cacheEntry
	for i, p := range todo {
		if loadErrs[i] != "" {
			if err := loadFailed(p.PkgPath, loadErrs[i]); err != nil {
				return nil, err
			}
			if roles[p.PkgPath] == roleMatched {
				isBroken[p.PkgPath] = true
			}
			continue
		}
		switch {
		case errs[i] != nil && roles[p.PkgPath] == roleMatched:
			broken = append(broken, PackageError{Path: p.PkgPath, Err: errs[i]})
			isBroken[p.PkgPath] = true
			continue
		case errs[i] != nil && roles[p.PkgPath] == roleCover:
			return nil, errs[i]
		case errs[i] != nil:
			warnings = append(warnings, fmt.Sprintf("%s not instrumented: %v", p.PkgPath, errs[i]))
			continue
		case len(entries[i].Template.Probes) == 0 && roles[p.PkgPath] == roleDep:
			continue // nothing to record (declarations only, or only cgo files)
		}
		keep = append(keep, p)
		kept = append(kept, entries[i])
	}
	todo = keep

	// The matched packages left, and their fuzz targets.
	targets := map[string][]string{}
	var order []string
	names, dirs := map[string]string{}, map[string]string{}
	var good []*packages.Package
	nativeTypes := map[string]map[string]string{}
	var natives []nativeFile
	for _, p := range g.matched {
		if isBroken[p.PkgPath] {
			continue
		}
		// Native targets first: a package whose f.Fuzz cannot be run
		// (an unsupported argument type) is broken, not built.
		sc := scans[p.PkgPath]
		nts, files := sc.targets, sc.files
		if sc.err != nil {
			broken = append(broken, PackageError{Path: p.PkgPath, Err: sc.err})
			isBroken[p.PkgPath] = true
			continue
		}
		natives = append(natives, files...)
		good = append(good, p)
		names[p.PkgPath] = p.Name
		dirs[p.PkgPath] = packageDir(p)
		for _, nt := range nts {
			if nativeTypes[p.PkgPath] == nil {
				nativeTypes[p.PkgPath] = map[string]string{}
			}
			nativeTypes[p.PkgPath][nt.Name] = nt.Types
		}
		if err := foundErr[p.PkgPath]; err != nil {
			return nil, err
		}
		if ts := found[p.PkgPath]; len(ts) > 0 {
			order = append(order, p.PkgPath)
			targets[p.PkgPath] = ts
		}
	}
	if len(good) == 0 {
		return nil, fatal()
	}
	var noTargets []string
	for _, p := range good {
		if targets[p.PkgPath] == nil {
			noTargets = append(noTargets, p.PkgPath)
		}
	}

	total := 0
	dicts := make([][]string, len(kept))
	for i, e := range kept {
		total += len(e.Template.Probes)
		dicts[i] = e.Dict
	}
	// The test files instrumented: those of the packages left that have
	// targets. Their literals stay out of the dictionary (format strings
	// and expected values, not the input's vocabulary).
	var keptUnits []*testUnit
	testProbes := 0
	for _, u := range units {
		switch {
		case isBroken[u.path] || targets[u.path] == nil:
			continue
		case u.res.loadErr != "":
			warnings = append(warnings, fmt.Sprintf("the _test.go files of %s are not instrumented: %s", u.label(), u.res.loadErr))
			continue
		case u.res.err != nil:
			warnings = append(warnings, fmt.Sprintf("the _test.go files of %s are not instrumented: %v", u.label(), u.res.err))
			continue
		case u.res.entry == nil:
			continue
		}
		if u.res.putErr != nil {
			warnings = append(warnings, u.res.putErr.Error())
		}
		keptUnits = append(keptUnits, u)
		testProbes += len(u.res.entry.Template.Probes)
	}
	total += testProbes
	bits := opts.MapBits
	if bits == 0 {
		bits = ChooseMapBits(total)
	} else if bits < 8 || bits > 28 {
		return nil, fmt.Errorf("gfz-build: -mapbits %d out of range [8, 28]", bits)
	}

	prep := &Prepared{
		WorkDir: work, Targets: targets, TargetOrder: order, Names: names, Dirs: dirs, MapBits: bits,
		Probes: total, CollisionRate: CollisionRate(total*EdgesPerProbe, bits), BuildFlags: flags,
		Dictionary: mergeDictionaries(dicts), Broken: broken, Warnings: edit.warnings(warnings),
		BinaryProbes: map[string]int{}, StdImports: map[string][]string{},
		Native: nativeTypes, NoTargets: noTargets, Harness: leftHarness, phases: ph, checked: checked,
		Cmp: cmp, CmpDefault: cmpDefault, TestProbes: testProbes, BinaryTestProbes: map[string]int{},
	}
	ph.done("targets")
	rel, err := relocateModulesCached(cache, work, envs[0], todo)
	if err == nil {
		rel, err = relocateLibraryCached(cache, work, envs[0], g, rel)
	}
	if err == nil {
		var extra []string
		if !edit.mayNeedFormats() { // else decided before the load, by the same files
			edit.needsFormats = len(natives) > 0
		}
		if w := edit.formatsWarning(); w != "" {
			prep.Warnings = append(prep.Warnings, w)
		}
		if w := edit.vendorWarning(); w != "" {
			prep.Warnings = append(prep.Warnings, w)
		}
		extra, prep.Env, err = edit.write(work, rel)
		prep.BuildFlags = append(slices.Clone(flags), extra...)
	}
	if err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	ph.done("copy modules")
	replace := map[string]string{}
	probesOf := map[string]int{}
	for i, e := range kept {
		t := &e.Template
		if err := writePackage(work, i, t, todo[i], bits, rel, replace); err != nil {
			prep.Cleanup()
			return nil, err
		}
		p := todo[i]
		prep.Packages = append(prep.Packages, InstrumentedPackage{Path: t.Path, Module: moduleOf(p), Std: t.Std, Files: len(t.Files), Probes: len(t.Probes)})
		probesOf[t.Path] = len(t.Probes)
	}
	prep.Modules = moduleProbes(prep.Packages, todo)
	for _, p := range good {
		if targets[p.PkgPath] == nil {
			continue
		}
		n := 0
		for path := range linked(g.testRoot(p)) {
			n += probesOf[path]
		}
		prep.BinaryProbes[p.PkgPath] = n
		prep.StdImports[p.PkgPath] = stdImports(g, p)
	}
	nativeSrc := map[string][]byte{}
	for _, f := range natives {
		nativeSrc[f.orig] = f.src
	}
	for i, u := range keptUnits {
		if err := writeTestUnit(work, i, u, bits, nativeSrc, replace); err != nil {
			prep.Cleanup()
			return nil, err
		}
		t := &u.res.entry.Template
		prep.TestPackages = append(prep.TestPackages, InstrumentedPackage{Path: u.label(), Module: moduleOf(u.variant), Files: len(t.Files), Probes: len(t.Probes)})
		prep.BinaryTestProbes[u.path] += len(t.Probes)
	}
	var rest []nativeFile // native targets' files not instrumented
	for _, f := range natives {
		if _, ok := nativeSrc[f.orig]; ok {
			rest = append(rest, f)
		}
	}
	if err := writeNativeFiles(work, rest, replace); err != nil {
		prep.Cleanup()
		return nil, err
	}
	mapsize := filepath.Join(work, "mapsize.go")
	src := fmt.Sprintf("// Code generated by gfz-build. DO NOT EDIT.\n\npackage runtime\n\n// MapBits is log2 of the coverage map size, chosen by gfz-build.\nconst MapBits = %d\n\n// CountLaps is set by gfz-build -counts.\nconst CountLaps = %t\n", bits, opts.Counts)
	if err := os.WriteFile(mapsize, []byte(src), 0o644); err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	orig := filepath.Join(g.runtimeDir, "mapsize.go")
	if moved, ok := relocate(rel, orig); ok {
		orig = moved // the library's copy (the module cache refuses overlays)
	}
	replace[orig] = mapsize
	js, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	prep.Overlay = filepath.Join(work, "overlay.json")
	if err := os.WriteFile(prep.Overlay, js, 0o644); err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("gfz-build: %w", err)
	}
	ph.done("render")
	prep.Cache = cache.Stats()
	cache.trim()
	done = true
	return prep, nil
}

// moduleOf returns the module path of p, "std" for the standard library.
func moduleOf(p *packages.Package) string {
	switch {
	case isStd(p):
		return "std"
	case p.Module != nil:
		return p.Module.Path
	}
	return "(no module)"
}

// moduleProbes totals the probes per module: main modules first, then
// the others by path.
func moduleProbes(ips []InstrumentedPackage, pkgs []*packages.Package) []ModuleProbes {
	main := map[string]bool{}
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main {
			main[p.Module.Path] = true
		}
	}
	idx := map[string]int{}
	var out []ModuleProbes
	for _, ip := range ips {
		i, ok := idx[ip.Module]
		if !ok {
			i = len(out)
			idx[ip.Module] = i
			out = append(out, ModuleProbes{Module: ip.Module})
		}
		out[i].Packages++
		out[i].Probes += ip.Probes
	}
	sort.SliceStable(out, func(i, j int) bool {
		if main[out[i].Module] != main[out[j].Module] {
			return main[out[i].Module]
		}
		return out[i].Module < out[j].Module
	})
	return out
}

// testVariantOf maps a go/packages test-variant ID ("p [p.test]",
// "p_test [p.test]") to the package under test.
func testVariantOf(id string) (string, bool) {
	_, br, ok := strings.Cut(id, " [")
	if !ok || !strings.HasSuffix(br, ".test]") {
		return "", false
	}
	return strings.TrimSuffix(br, ".test]"), true
}

// packageDir returns the source directory of a loaded package.
func packageDir(p *packages.Package) string {
	if p.Dir != "" {
		return p.Dir
	}
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return ""
}

func generatedByCgo(f *ast.File) bool {
	for _, c := range f.Comments {
		if c.Pos() > f.Package {
			break
		}
		if strings.Contains(c.Text(), "Code generated by cmd/cgo") {
			return true
		}
	}
	return false
}

// writePackage writes the rewritten files and the registration file of one
// package into the work directory, and maps them in the overlay over the
// originals (or over their module copy's, for relocated modules).
func writePackage(work string, i int, t *instrument.Template, p *packages.Package, bits int, rel []relocation, replace map[string]string) error {
	pdir := filepath.Join(work, fmt.Sprintf("%03d_%s", i, p.Name))
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return fmt.Errorf("instrument %s: %w", p.PkgPath, err)
	}
	put := func(orig string, src []byte) error {
		if moved, ok := relocate(rel, orig); ok {
			orig = moved
		}
		out := filepath.Join(pdir, filepath.Base(orig))
		replace[orig] = out
		return os.WriteFile(out, src, 0o644)
	}
	for _, r := range t.Render(bits) {
		if err := put(r.Name, r.Src); err != nil {
			return fmt.Errorf("instrument %s: %w", p.PkgPath, err)
		}
	}
	// The added file's name, made unique: a file of the package's
	// directory by that name (whatever it holds, built or not) would be
	// replaced in the overlay (it stopped the whole build).
	reg := filepath.Join(filepath.Dir(p.GoFiles[0]), instrument.RegistrationFileName)
	for k := 1; ; k++ {
		_, err := os.Lstat(reg)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil || k > 100 {
			return fmt.Errorf("instrument %s: no name for the added file beside %s: %v", p.PkgPath, reg, err)
		}
		reg = filepath.Join(filepath.Dir(p.GoFiles[0]), strings.TrimSuffix(instrument.RegistrationFileName, ".go")+"_"+strconv.Itoa(k)+".go")
	}
	if err := put(reg, t.RegistrationSource(bits)); err != nil {
		return fmt.Errorf("instrument %s: %w", p.PkgPath, err)
	}
	return nil
}

// FewProbes is the probe count below which Build warns that a fuzz binary
// is nearly blind: coverage cannot guide the search when the code under
// test records almost nothing.
const FewProbes = 8

// BuildError is returned by Build when some packages could not be built;
// Result.Binaries still lists those that were.
type BuildError struct {
	Failed []PackageError
	Built  int // binaries written
}

func (e *BuildError) Error() string {
	msgs := make([]string, len(e.Failed))
	for i, f := range e.Failed {
		msgs[i] = "  " + strings.ReplaceAll(f.Error(), "\n", "\n    ")
	}
	return fmt.Sprintf("%d package(s) could not be built (%d binaries written):\n%s", len(e.Failed), e.Built, strings.Join(msgs, "\n"))
}

// Build prepares the overlay and builds one fuzz binary per matched package
// with gfz fuzz targets. Errors of the go command are written to
// opts.Stderr verbatim; they name the user's files and lines. A package
// that fails to load or compile does not stop the others: Build then
// returns the Result with the binaries it wrote and a *BuildError naming
// each failed package.
// userGoMod names the module's go.mod, not gfz-build's copy of it in work,
// in the go command's error err ("go: /tmp/gfz-build-1/gfz.mod requires go
// >= 1.27").
func userGoMod(err error, work, gomod string) error {
	tmp := filepath.Join(work, "gfz.mod")
	if gomod == "" || !strings.Contains(err.Error(), tmp) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), tmp, gomod))
}

func Build(ctx context.Context, opts Options) (*Result, error) {
	opts.defaults()
	prep, err := Prepare(ctx, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Prepared: prep}
	if opts.Work {
		fmt.Fprintf(opts.Stderr, "WORK=%s\n", prep.WorkDir)
	} else {
		defer prep.Cleanup()
	}
	for _, w := range prep.Warnings {
		fmt.Fprintf(opts.Stderr, "gfz-build: warning: %s\n", w)
	}
	if opts.Verbose {
		for _, p := range prep.Packages {
			kind := ""
			if p.Std {
				kind = " (std, linkname)"
			}
			fmt.Fprintf(opts.Stderr, "instrumented %s: %d files, %d probes%s\n", p.Path, p.Files, p.Probes, kind)
		}
		for _, p := range prep.TestPackages {
			fmt.Fprintf(opts.Stderr, "instrumented the _test.go files of %s: %d files, %d probes\n", p.Path, p.Files, p.Probes)
		}
		for _, m := range prep.Modules {
			fmt.Fprintf(opts.Stderr, "module %s: %d packages, %d probes\n", m.Module, m.Packages, m.Probes)
		}
		fmt.Fprintf(opts.Stderr, "map: %d probes, MapBits=%d (%d entries), expected edge collision rate %.2f%% (assuming %d edges per probe)\n",
			prep.Probes, prep.MapBits, 1<<prep.MapBits, 100*prep.CollisionRate, EdgesPerProbe)
		fmt.Fprintf(opts.Stderr, "dictionary: %s\n", DictionarySummary(prep.Dictionary))
		fmt.Fprintf(opts.Stderr, "build cache: %s\n", CacheSummary(prep.Cache))
	}
	fmt.Fprintf(opts.Stderr, "gfz-build: %s\n", ProbeSummary(prep.Packages, prep.Modules, prep.TestPackages))
	if prep.CmpDefault {
		fmt.Fprintf(opts.Stderr, "gfz-build: %s\n", CmpDefaultLine)
	}
	if len(prep.NoTargets) > 0 && len(prep.TargetOrder) > 0 {
		fmt.Fprintf(opts.Stderr, "gfz-build: %s\n", NoTargetsLine(prep.NoTargets))
	}
	if len(prep.Harness) > 0 {
		fmt.Fprintf(opts.Stderr, "gfz-build: %s\n", HarnessLine(prep.Harness))
	}
	failed := append([]PackageError(nil), prep.Broken...)
	if len(prep.TargetOrder) == 0 {
		if len(failed) > 0 {
			return res, &BuildError{Failed: failed}
		}
		return res, fmt.Errorf("gfz-build: no fuzz targets (func FuzzXxx(f *testing.F) calling gfz.Fuzz or f.Fuzz in a _test.go file) in %s", strings.Join(opts.Patterns, " "))
	}
	dir, _ := filepath.Abs(opts.Dir)
	outputs, err := outputPaths(dir, opts.Output, prep)
	if err != nil {
		return res, err
	}
	for _, pkg := range prep.TargetOrder {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		out := outputs[pkg]
		probes := prep.BinaryProbes[pkg]
		info := BuildInfo(prep.Targets[pkg], prep.MapBits, probes, prep.Dirs[pkg])
		if n := NativeBuildInfo(prep.Native[pkg]); n != "" {
			info += "&" + n
		}
		if c := StdCoverBuildInfo(prep.Packages); c != "" {
			info += "&" + c
		}
		ldflags := "-X " + GfzPath + ".buildInfo=" + info
		if prep.Cmp {
			ldflags += " " + CmpLdflag // read by the fuzz binary before package inits run
		}
		args := []string{"test", "-c", "-overlay", prep.Overlay, "-ldflags", ldflags + " " + DictionaryLdflag(prep.Dictionary) + nativeDictLdflag(prep.Native[pkg], prep.Dictionary), "-o", out}
		args = append(args, prep.BuildFlags...)
		// No go vet: a vet finding in code that compiles (new checks
		// enabled when requiring gfz raises an old module's go line)
		// must not stop its fuzz binary.
		args = append(args, "-vet=off")
		args = append(args, pkg)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), prep.Env...)
		var errOut bytes.Buffer
		cmd.Stdout = opts.Stdout
		cmd.Stderr = io.MultiWriter(opts.Stderr, &errOut)
		if opts.Verbose {
			shown := slices.Clone(args)
			if len(prep.Dictionary) > 0 { // summarised above; the value is up to 48 KiB
				shown[5] = ldflags + " -X " + DictVar + "=<dictionary>"
			}
			fmt.Fprintf(opts.Stderr, "go %s\n", strings.Join(shown, " "))
		}
		if err := cmd.Run(); err != nil {
			// The go command's output was shown in full above; the
			// summary repeats its first errors.
			msg := firstErrors(errOut.String(), err)
			if h := goSumHint(errOut.String()); h != "" {
				msg += "\n" + h
			}
			failed = append(failed, PackageError{Path: pkg, Err: fmt.Errorf("go test -c: %s", msg)})
			continue
		}
		prep.phases.done("go test -c " + pkg)
		testProbes := prep.BinaryTestProbes[pkg]
		res.Binaries = append(res.Binaries, Binary{Package: pkg, Dir: prep.Dirs[pkg], Output: out, Targets: prep.Targets[pkg], Probes: probes, TestProbes: testProbes})
		if probes < FewProbes {
			fmt.Fprint(opts.Stderr, FewProbesWarning(pkg, out, probes, testProbes, prep.StdImports[pkg]))
		}
	}
	if opts.Verbose {
		fmt.Fprintf(opts.Stderr, "gfz-build: time: %s\n", prep.phases)
	}
	if len(failed) > 0 {
		return res, &BuildError{Failed: failed, Built: len(res.Binaries)}
	}
	return res, nil
}

// firstErrors returns the first few error lines of go command output, or
// err when there are none.
func firstErrors(out string, err error) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "FAIL") {
			continue
		}
		if len(lines) == 3 {
			lines = append(lines, "...")
			break
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return err.Error()
	}
	return strings.Join(lines, "\n")
}

// goSumHint explains the go command's "missing go.sum entry" for gfz's
// own packages (the library requires no other module today, but an older
// gfz did, and a go.sum written by hand may lack gfz's own entry).
func goSumHint(out string) string {
	if !strings.Contains(out, "missing go.sum entry") || !strings.Contains(out, "github.com/gfz-dev/gfz/") {
		return ""
	}
	return "gfz's packages need modules your go.sum lacks: run go get github.com/gfz-dev/gfz (at the version you use) in your module, then build again"
}

// FewProbesWarning is the warning printed for a fuzz binary with fewer than
// FewProbes probes outside its _test.go files; testProbes is the number in
// them, which see what the fuzz function does with an input, not the code
// it tests.
func FewProbesWarning(pkg, out string, probes, testProbes int, std []string) string {
	var b strings.Builder
	if testProbes > 0 {
		fmt.Fprintf(&b, "gfz-build: WARNING: %s has only %d probe(s) outside its _test.go files (and %d in them): coverage of the code under test cannot guide the fuzzer; only the fuzz function's own branches can.\n", filepath.Base(out), probes, testProbes)
	} else {
		fmt.Fprintf(&b, "gfz-build: WARNING: %s has only %d probe(s) outside its _test.go files (and none in them): coverage cannot guide the fuzzer, which runs nearly blind.\n", filepath.Base(out), probes)
	}
	fmt.Fprintf(&b, "  The code %s's targets exercise has almost no probes: it is in the standard library, in cgo files, left out by -skip/-instrument, or has almost no branches.\n", pkg)
	if len(std) > 0 {
		fmt.Fprintf(&b, "  To instrument the standard-library packages it imports, rebuild with: -cover %s\n", strings.Join(std, ","))
	} else {
		b.WriteString("  Add the packages that do the work with -cover PKGS.\n")
	}
	return b.String()
}

// ProbeSummary is the one-line summary of what was instrumented, e.g.
// "instrumented 3 packages, 1493 probes: example.com/app 118, github.com/BurntSushi/toml 1375",
// followed by the probes of the _test.go files (tests, which pkgs and mods
// do not count) when there are some: "; and 40 probes in _test.go files".
func ProbeSummary(pkgs []InstrumentedPackage, mods []ModuleProbes, tests []InstrumentedPackage) string {
	total := 0
	for _, p := range pkgs {
		total += p.Probes
	}
	const show = 4
	var parts []string
	for i, m := range mods {
		if i == show {
			parts = append(parts, plural(len(mods)-show, "more module")+" (-v lists them)")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", m.Module, m.Probes))
	}
	msg := fmt.Sprintf("instrumented %s, %s", plural(len(pkgs), "package"), plural(total, "probe"))
	if len(parts) > 0 {
		msg += ": " + strings.Join(parts, ", ")
	}
	if len(tests) > 0 {
		inTests := 0
		for _, p := range tests {
			inTests += p.Probes
		}
		msg += fmt.Sprintf("; and %s in _test.go files", plural(inTests, "probe"))
	}
	return msg
}

// plural is "1 package", "3 packages".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// outputPaths maps each package with fuzz targets to its binary's path:
// with one package, -o names the binary, or a directory for it (one that
// exists, or a path ending in a separator, created as go build -o does);
// with several, -o is the directory.
func outputPaths(dir, output string, prep *Prepared) (map[string]string, error) {
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	outs := map[string]string{}
	if len(prep.TargetOrder) == 1 {
		pkg := prep.TargetOrder[0]
		if output == "" {
			output = prep.Names[pkg] + ".gfz"
		} else if fi, err := os.Stat(abs(output)); err == nil && fi.IsDir() {
			output = filepath.Join(output, prep.Names[pkg]+".gfz")
		} else if strings.HasSuffix(output, "/") || strings.HasSuffix(output, string(filepath.Separator)) {
			if err := os.MkdirAll(abs(output), 0o755); err != nil {
				return nil, fmt.Errorf("gfz-build: -o: %w", err)
			}
			output = filepath.Join(output, prep.Names[pkg]+".gfz")
		}
		outs[pkg] = abs(output)
		return outs, nil
	}
	if output == "" {
		output = "."
	}
	odir := abs(output)
	if err := os.MkdirAll(odir, 0o755); err != nil {
		return nil, fmt.Errorf("gfz-build: -o: %w", err)
	}
	used := map[string]bool{}
	for _, pkg := range prep.TargetOrder {
		name := prep.Names[pkg] + ".gfz"
		if used[name] {
			name = strings.NewReplacer("/", "_", ".", "_").Replace(pkg) + ".gfz"
		}
		used[name] = true
		outs[pkg] = filepath.Join(odir, name)
	}
	return outs, nil
}
