package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
)

// The default instrumentation set: every package that the matched packages
// and their tests transitively import, except the standard library and gfz's
// own packages, as go test -fuzz does. The import graph comes from one
// go list -deps -test (go/packages without syntax); only the selected
// packages are then parsed and type-checked.

// ErrNoModule is returned (wrapped in a *NoModuleError) when gfz-build runs
// outside any Go module.
var ErrNoModule = errors.New("no go.mod")

// NoModuleError reports that Dir is not inside a Go module.
type NoModuleError struct{ Dir string }

func (e *NoModuleError) Error() string {
	return fmt.Sprintf("no go.mod in %s or any parent directory: gfz builds the packages of a Go module. "+
		"Run it from your module's directory, or make this one a module: go mod init example.com/NAME (gfz-build adds the gfz library to the build itself)", e.Dir)
}

func (e *NoModuleError) Unwrap() error { return ErrNoModule }

// PackageError is a matched package that could not be built.
type PackageError struct {
	Path string // import path (or the pattern, when nothing was loaded)
	Err  error
}

func (e PackageError) Error() string { return e.Path + ": " + e.Err.Error() }

// ModuleProbes is the probe count of one module's instrumented packages.
type ModuleProbes struct {
	Module   string // module path; "std" for the standard library
	Packages int
	Probes   int
}

// OwnPackage reports whether path is one of gfz's own packages, which are
// never instrumented by default: the module github.com/gfz-dev/gfz except
// its testdata (which is user code: examples and test targets).
func OwnPackage(path string) bool {
	if path != GfzPath && !strings.HasPrefix(path, GfzPath+"/") {
		return false
	}
	return !strings.Contains(path, "/testdata/")
}

// MatchPattern reports whether the import path matches pattern, with the go
// command's wildcard rules: "..." matches any string (slashes included), and
// a trailing "/..." also matches the path before it ("net/..." matches "net").
func MatchPattern(pattern, path string) bool {
	if !strings.Contains(pattern, "...") {
		return pattern == path
	}
	re := regexp.QuoteMeta(pattern)
	re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
	if strings.HasSuffix(re, `/.*`) {
		re = strings.TrimSuffix(re, `/.*`) + `(/.*)?`
	}
	ok, _ := regexp.MatchString("^"+re+"$", path)
	return ok
}

func matchAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if MatchPattern(p, path) {
			return true
		}
	}
	return false
}

// graph is the import graph of the matched packages and their tests.
type graph struct {
	matched    []*packages.Package            // main-module packages the patterns match, in load order
	testMain   map[string]*packages.Package   // package path -> its test binary's main package ("p.test")
	variants   map[string][]*packages.Package // package path -> its test variants ("p [p.test]", "p_test [p.test]")
	broken     []PackageError                 // matched packages (or patterns) that failed to load
	runtimeDir string
	runtimeMod *packages.Module // the module providing the probe runtime (gfz's library)
	runtimeErr string           // why the go command could not list the runtime ("" if it said nothing)
	// plain holds the non-test packages of the graph by import path (their
	// imports are non-test packages too).
	plain map[string]*packages.Package
}

const graphMode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule

// loadGraph runs go list -deps -test on the patterns.
func loadGraph(ctx context.Context, dir string, flags, env, patterns []string) (*graph, error) {
	cfg := &packages.Config{Context: ctx, Dir: dir, Mode: graphMode, BuildFlags: flags, Env: append(os.Environ(), env...), Tests: true}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	g := &graph{testMain: map[string]*packages.Package{}, variants: map[string][]*packages.Package{}, plain: map[string]*packages.Package{}}
	seen := map[string]bool{}
	for _, p := range roots {
		if under, ok := testVariantOf(p.ID); ok {
			g.variants[under] = append(g.variants[under], p)
			continue
		}
		if strings.HasSuffix(p.ID, ".test") && p.Name == "main" {
			g.testMain[strings.TrimSuffix(p.ID, ".test")] = p
			continue
		}
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		if msg := listErrors(p); msg != "" && (p.Module == nil || p.Module.Main) {
			g.broken = append(g.broken, PackageError{Path: p.PkgPath, Err: errors.New(msg)})
			continue
		}
		if p.Module == nil || !p.Module.Main || OwnPackage(p.PkgPath) {
			continue // -cover is the way to instrument other modules
		}
		g.matched = append(g.matched, p)
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.ID == p.PkgPath {
			g.plain[p.PkgPath] = p
		}
		if p.PkgPath == instrument.RuntimePath && len(p.GoFiles) > 0 && g.runtimeDir == "" {
			g.runtimeDir, g.runtimeMod = filepath.Dir(p.GoFiles[0]), p.Module
		}
	})
	if g.runtimeDir == "" {
		lp, err := packages.Load(&packages.Config{Context: ctx, Dir: dir, Mode: packages.NeedName | packages.NeedFiles | packages.NeedModule, BuildFlags: flags, Env: cfg.Env}, instrument.RuntimePath)
		switch {
		case err != nil:
			g.runtimeErr = err.Error()
		case len(lp) == 1 && len(lp[0].GoFiles) > 0:
			g.runtimeDir, g.runtimeMod = filepath.Dir(lp[0].GoFiles[0]), lp[0].Module
		case len(lp) == 1:
			g.runtimeErr = listErrors(lp[0])
		}
	}
	return g, nil
}

// listErrors returns the errors of p that leave nothing to build (patterns
// matching no directory, go list errors, unparsable imports), or "".
func listErrors(p *packages.Package) string {
	var msgs []string
	for _, e := range p.Errors {
		if e.Kind != packages.TypeError {
			msgs = append(msgs, e.Error())
		}
	}
	return strings.Join(msgs, "\n")
}

// testRoot returns the package whose imports make up the test binary of
// the package with the given path: its test main package, or the package
// itself when it has no tests.
func (g *graph) testRoot(p *packages.Package) *packages.Package {
	if m := g.testMain[p.PkgPath]; m != nil {
		return m
	}
	return p
}

// isTestOnlyNode reports whether p exists only in a test build: a test
// main package or an external test package (p_test).
func isTestOnlyNode(p *packages.Package) bool {
	if strings.HasSuffix(p.ID, ".test") && p.Name == "main" {
		return true
	}
	under, ok := testVariantOf(p.ID)
	return ok && p.PkgPath != under && strings.HasSuffix(p.PkgPath, "_test")
}

// dependencies returns the packages the roots transitively import that are
// instrumented by default (neither std nor gfz's own, nor test-only), by
// import path, without descending into std or gfz packages. The result is
// sorted by path.
func dependencies(roots []*packages.Package) []*packages.Package {
	byPath := map[string]*packages.Package{}
	visited := map[*packages.Package]bool{}
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		if visited[p] {
			return
		}
		visited[p] = true
		if isStd(p) || OwnPackage(p.PkgPath) {
			return
		}
		if !isTestOnlyNode(p) {
			if _, ok := byPath[p.PkgPath]; !ok || p.ID == p.PkgPath {
				byPath[p.PkgPath] = p // prefer the non-test variant
			}
		}
		for _, q := range p.Imports {
			walk(q)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	out := make([]*packages.Package, 0, len(byPath))
	for _, p := range byPath {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PkgPath < out[j].PkgPath })
	return out
}

// linked returns the import paths of every package linked into the binary
// whose main package is root (std and gfz included).
func linked(root *packages.Package) map[string]bool {
	paths := map[string]bool{}
	packages.Visit([]*packages.Package{root}, nil, func(p *packages.Package) {
		if !isTestOnlyNode(p) {
			paths[p.PkgPath] = true
		}
	})
	return paths
}

// stdImports returns the std packages that p and its test files import
// directly and that -cover could instrument, sorted.
func stdImports(g *graph, p *packages.Package) []string {
	var out []string
	add := func(q *packages.Package) {
		for path, imp := range q.Imports {
			if isStd(imp) && Refusal(path, true) == "" && path != "testing" && !slices.Contains(out, path) {
				out = append(out, path)
			}
		}
	}
	add(p)
	for _, v := range g.variants[p.PkgPath] {
		add(v)
	}
	sort.Strings(out)
	return out
}

// noModule reports whether go env GOMOD and GOWORK say that there is no
// main module.
func noModule(gomod, gowork string) bool {
	return (gomod == "" || gomod == os.DevNull) && (gowork == "" || gowork == "off")
}

// hasNativeTargets reports whether the _test.go files of the packages the
// patterns match hold native fuzz targets (NativeTargets), listing them
// with the go command as the build will (flags) but without loading their
// dependencies.
func hasNativeTargets(ctx context.Context, dir string, flags, patterns []string) (bool, error) {
	cfg := &packages.Config{Context: ctx, Dir: dir, Mode: packages.NeedName | packages.NeedFiles | packages.NeedModule, BuildFlags: flags, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return false, fmt.Errorf("gfz-build: list %s: %w", strings.Join(patterns, " "), err)
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		if p.Module == nil || !p.Module.Main {
			continue
		}
		for _, f := range p.GoFiles {
			if !strings.HasSuffix(f, "_test.go") || seen[f] {
				continue
			}
			seen[f] = true
			src, err := os.ReadFile(f)
			if err != nil {
				return false, fmt.Errorf("gfz-build: %w", err)
			}
			if nf, err := nativeTargetsFile(f, src); err == nil && len(nf.targets) > 0 {
				return true, nil
			}
		}
	}
	return false, nil
}
