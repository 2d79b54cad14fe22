package build

import (
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
)

// Test files. A fuzz target's own code is in _test.go files: the fuzz
// function of a native target (f.Fuzz(func(t *testing.T, data []byte)
// {...})) with its round trips, its early returns on errors and its
// dispatch on the input, a gfz target's generators, and the helpers they
// call. go test -fuzz instruments them, and so does gfz-build: the
// _test.go files of every matched package that declares a native target
// get the same probes as the code under test (Options.TestFiles,
// -testfiles, adds those of packages with gfz targets only;
// Options.NoTestFiles, -testfiles=false, leaves them all out).
// Dependencies' test files are never compiled into a fuzz binary.
//
// A matched package has up to two test units: its in-package test files
// (package p, compiled with p's own files in the test variant
// "p [p.test]"), and its external test package (package p_test). Each is
// type-checked as the go command compiles it (the in-package unit with
// p's files; the external one against the in-package unit's types of p
// when it imports that variant) and gets a probe table and an added file
// of its own, registered under p's import path (the cover profile names
// the files p/x_test.go, as go tool cover expects). The in-package files
// share p's scope with p's added file, so their helpers have other names
// (instrument.TestPrefix). The overlay maps the test files to their
// rewritten copies, and adds testRegistrationFile or
// testRegistrationFileX to p's directory. A file with native targets is
// instrumented from its original text, and the native rewrite
// (native.go) is applied to the instrumented text when it is written
// (nativeRewrite): the rewrite splices text without moving lines, so the
// probes' line directives stay right.
//
// Units are cached like packages: the key hashes the variant's own files
// (the package's too, for the in-package unit), the API keys of its
// imports and, for an external unit importing the in-package one, that
// unit's key.

// Names of the files added to a matched package's directory for its test
// files' probes: for the in-package test files (package p) and for the
// external test package (package p_test).
const (
	testRegistrationFile  = "zz_gfz_probes_test.go"
	testRegistrationFileX = "zz_gfz_probes_x_test.go"
)

// testEntry is the API field of a test unit's cache entry.
const testEntry = "test files"

// testUnit is one set of _test.go files of a matched package to
// instrument.
type testUnit struct {
	path     string            // import path of the matched package
	variant  *packages.Package // the test variant compiling them: "p [p.test]", or "p_test [p.test]"
	external bool              // package p_test
	files    []string          // the _test.go files (all of the variant's, for an external unit)
	inPkg    *testUnit         // an external unit's in-package unit, when it imports that variant of p

	key string // cache key; "" when the cache is off or a part is unknown

	checkOnce sync.Once // the in-package unit's type-check, which its external unit may need
	syntax    []*ast.File
	tp        *types.Package
	info      *types.Info
	checkErr  error

	res resolved
}

// label names the unit in statistics: the package's path, or the external
// test package's (p_test).
func (u *testUnit) label() string { return u.variant.PkgPath }

// prefix is the unit's helper prefix.
func (u *testUnit) prefix() string {
	if u.external {
		return "" // a package of its own
	}
	return instrument.TestPrefix
}

// registrationFile is the name of the unit's added file.
func (u *testUnit) registrationFile() string {
	if u.external {
		return testRegistrationFileX
	}
	return testRegistrationFile
}

// testUnits returns the test units of the matched packages of g for which
// want is true, in-package units first.
func testUnits(g *graph, want func(path string) bool) []*testUnit {
	var in, ext []*testUnit
	for _, p := range g.matched {
		if !want(p.PkgPath) {
			continue
		}
		var pu *testUnit
		var xs []*packages.Package
		for _, v := range g.variants[p.PkgPath] {
			if v.PkgPath != p.PkgPath {
				xs = append(xs, v)
				continue
			}
			u := &testUnit{path: p.PkgPath, variant: v}
			for _, f := range v.GoFiles {
				if strings.HasSuffix(f, "_test.go") {
					u.files = append(u.files, f)
				}
			}
			if len(u.files) > 0 && pu == nil {
				pu = u
				in = append(in, u)
			}
		}
		for _, v := range xs {
			u := &testUnit{path: p.PkgPath, variant: v, external: true, files: slices.Clone(v.GoFiles)}
			if pu != nil {
				if q := v.Imports[p.PkgPath]; q != nil && q.ID == pu.variant.ID {
					u.inPkg = pu
				}
			}
			if len(u.files) > 0 {
				ext = append(ext, u)
			}
		}
	}
	return append(in, ext...)
}

// visitTests makes nodes of the packages the test units import, so that
// they have API keys and types like the imports of the packages
// instrumented.
func (r *resolver) visitTests(visit func(p *packages.Package) *node) {
	for _, u := range r.tests {
		for _, q := range sortedImports(u.variant) {
			if !u.importsInPkg(q) {
				visit(q)
			}
		}
	}
}

// importsInPkg reports whether q is the unit's in-package variant of p.
func (u *testUnit) importsInPkg(q *packages.Package) bool {
	return u.inPkg != nil && q.ID == u.inPkg.variant.ID
}

// testKey returns the unit's cache key, "" when the cache is off or a part
// is unknown. mode separates the keys of the two ways of type-checking.
func (r *resolver) testKey(u *testUnit, mode string) string {
	if r.keys == nil {
		return ""
	}
	own, _ := r.keys.own(u.variant)
	if own == "" {
		return ""
	}
	parts := []string{string(r.keys.base), "test files " + mode, u.path, u.variant.Name, strconv.FormatBool(u.external), strconv.FormatBool(r.cmp), "own " + own}
	paths := make([]string, 0, len(u.variant.Imports))
	for path := range u.variant.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		q := u.variant.Imports[path]
		if u.importsInPkg(q) {
			if u.inPkg.key == "" {
				return ""
			}
			parts = append(parts, "import "+path+" test variant "+u.inPkg.key)
			continue
		}
		q = r.plainOf(q)
		d := r.nodes[q.PkgPath]
		switch {
		case d != nil:
			if d.api == "" {
				return ""
			}
			parts = append(parts, "import "+path+" "+d.api)
		case isStd(q) || q.PkgPath == "unsafe" || q.PkgPath == "C":
			parts = append(parts, "import "+path+" std")
		default:
			return ""
		}
	}
	return hashOf(parts...)
}

// lookupTest takes the unit's entry from the cache; false on a miss.
func (r *resolver) lookupTest(u *testUnit) bool {
	if e, ok := r.cache.get(u.key, u.path); ok && e.API == testEntry && e.Template.Path == u.path && e.Template.Name == u.variant.Name {
		u.res = resolved{hit: true, entry: e}
		return true
	}
	return false
}

// resolveTests resolves the test units once every node is: the in-package
// units first (an external unit may need their types).
func (r *resolver) resolveTests() {
	var wg sync.WaitGroup
	for _, external := range []bool{false, true} {
		for _, u := range r.tests {
			if u.external != external {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.resolveTest(u)
			}()
		}
		wg.Wait()
	}
}

func (r *resolver) resolveTest(u *testUnit) {
	if r.cgo.Load() || r.ctx.Err() != nil {
		return
	}
	u.key = r.testKey(u, "source")
	if r.lookupTest(u) {
		return
	}
	syntax, info, err := r.checkTest(u)
	if errors.Is(err, errCgo) {
		r.cgo.Store(true)
		return
	}
	if err != nil {
		u.res.loadErr = err.Error()
		return
	}
	r.sem <- struct{}{}
	defer func() { <-r.sem }()
	u.res = r.instrumentTest(u, r.fset, syntax, info)
}

// checkTest parses and type-checks the unit's variant from source, with
// the types of its imports: the in-package unit's for an external unit
// that imports it, else those of the packages the build type-checks or
// reads from export data.
func (r *resolver) checkTest(u *testUnit) ([]*ast.File, *types.Info, error) {
	u.checkOnce.Do(func() {
		if u.inPkg != nil {
			if _, _, err := r.checkTest(u.inPkg); err != nil {
				u.checkErr = fmt.Errorf("%s: %w", u.inPkg.label(), err)
				return
			}
		}
		var parseErrs []string
		for _, name := range u.variant.GoFiles {
			src, err := os.ReadFile(name)
			if err != nil {
				u.checkErr = err
				return
			}
			f, err := parseFile(r.fset, name, src)
			if f != nil {
				if instrument.ImportsC(f) {
					u.checkErr = errCgo
					return
				}
				u.syntax = append(u.syntax, f)
			}
			var list scanner.ErrorList
			switch {
			case err == nil:
			case errors.As(err, &list):
				for _, e := range list {
					parseErrs = append(parseErrs, e.Error())
				}
			default:
				parseErrs = append(parseErrs, err.Error())
			}
		}
		if len(parseErrs) > 0 {
			u.checkErr = errors.New(strings.Join(parseErrs, "\n"))
			return
		}
		deps := map[string]*types.Package{}
		depErrs := map[string]error{}
		for path, q := range u.variant.Imports {
			var t *types.Package
			var err error
			if u.importsInPkg(q) {
				t = u.inPkg.tp
			} else {
				t, err = r.typesOf(-1, r.plainOf(q))
			}
			if err != nil {
				if errors.Is(err, errCgo) {
					u.checkErr = err
					return
				}
				depErrs[path] = err
				continue
			}
			deps[path] = t
		}
		conf := r.checkConfig(u.variant, deps, depErrs)
		u.info = newTypesInfo()
		r.sem <- struct{}{}
		u.tp = types.NewPackage(u.variant.PkgPath, u.variant.Name)
		types.NewChecker(conf, r.fset, u.tp, u.info).Files(u.syntax)
		<-r.sem
		r.mu.Lock()
		r.testsChecked = append(r.testsChecked, u.label())
		r.mu.Unlock()
	})
	return u.syntax, u.info, u.checkErr
}

// instrumentTest instruments the unit's test files among syntax (parsed
// with fset, type-checked into info) and stores the entry under u.key.
func (r *resolver) instrumentTest(u *testUnit, fset *token.FileSet, syntax []*ast.File, info *types.Info) resolved {
	byName := map[string]*ast.File{}
	for _, f := range syntax {
		byName[fset.File(f.Pos()).Name()] = f
	}
	ip := instrument.NewPackage(u.path, u.variant.Name, false, fset, info)
	ip.Cmp = r.cmp
	ip.Prefix = u.prefix()
	for _, name := range u.files { // in the go command's order, whatever the parser's
		f := byName[name]
		if f == nil {
			return resolved{err: fmt.Errorf("instrument the test files of %s: %s was not parsed", u.label(), name)}
		}
		if err := ip.AddFile(f); err != nil {
			return resolved{err: fmt.Errorf("instrument the test files of %s: %w", u.label(), err)}
		}
	}
	t, err := ip.Template()
	if err != nil {
		return resolved{err: fmt.Errorf("instrument the test files of %s: %w", u.label(), err)}
	}
	e := &cacheEntry{Key: u.key, API: testEntry, Template: *t}
	res := resolved{entry: e}
	if u.key != "" {
		res.putErr = r.cache.put(e)
	}
	return res
}

// resolveTestsGoPackages is resolveTests for builds type-checked with
// go/packages (cgo): the units the cache misses are loaded with their
// tests.
func (r *resolver) resolveTestsGoPackages() error {
	var missed []*testUnit
	for _, u := range r.tests { // in-package units first: an external unit's key has its in-package unit's
		u.key = r.testKey(u, "go/packages")
		if !r.lookupTest(u) {
			missed = append(missed, u)
		}
	}
	if len(missed) == 0 {
		return nil
	}
	var paths []string
	for _, u := range missed {
		if !slices.Contains(paths, u.path) {
			paths = append(paths, u.path)
		}
	}
	cfg := &packages.Config{Context: r.ctx, Dir: r.dir, Mode: loadMode, BuildFlags: r.flags, Env: append(os.Environ(), r.env...), Tests: true, ParseFile: parseFile}
	loaded, err := packages.Load(cfg, paths...)
	if err != nil {
		return fmt.Errorf("load the tests of %s: %w", strings.Join(paths, " "), err)
	}
	byID := map[string]*packages.Package{}
	for _, p := range loaded {
		byID[p.ID] = p
	}
	for _, u := range missed {
		c := byID[u.variant.ID]
		switch {
		case c == nil:
			u.res.loadErr = "not loaded"
			continue
		case loadErrors([]*packages.Package{c}) != nil:
			u.res.loadErr = loadErrors([]*packages.Package{c}).Error()
			continue
		}
		r.mu.Lock()
		r.testsChecked = append(r.testsChecked, u.label())
		r.mu.Unlock()
		u.res = r.instrumentTest(u, c.Fset, c.Syntax, c.TypesInfo)
	}
	return nil
}

// writeTestUnit writes the rewritten test files of a unit and its added
// file into the work directory and maps them in the overlay. A file with
// native targets gets the native rewrite (native.go) on top of the
// probes; it is removed from natives.
func writeTestUnit(work string, i int, u *testUnit, bits int, natives map[string][]byte, replace map[string]string) error {
	t := &u.res.entry.Template
	dir := filepath.Join(work, "test", fmt.Sprintf("%03d_%s", i, t.Name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gfz-build: %w", err)
	}
	put := func(orig string, src []byte) error {
		out := filepath.Join(dir, filepath.Base(orig))
		replace[orig] = out
		return os.WriteFile(out, src, 0o644)
	}
	for _, rf := range t.Render(bits) {
		src := rf.Src
		if want, ok := natives[rf.Name]; ok {
			var err error
			if src, err = nativeRewrite(rf.Name, src, want); err != nil {
				return fmt.Errorf("gfz-build: native targets of the instrumented %s: %w", rf.Name, err)
			}
			delete(natives, rf.Name)
		}
		if err := put(rf.Name, src); err != nil {
			return fmt.Errorf("instrument the test files of %s: %w", u.label(), err)
		}
	}
	reg := filepath.Join(packageDir(u.variant), u.registrationFile())
	if _, err := os.Stat(reg); err == nil {
		return fmt.Errorf("instrument the test files of %s: %s already exists in the package", u.label(), u.registrationFile())
	}
	if err := put(reg, t.RegistrationSource(bits)); err != nil {
		return fmt.Errorf("instrument the test files of %s: %w", u.label(), err)
	}
	return nil
}

// nativeRewrite applies the native targets' rewrite to the instrumented
// text of a _test.go file: the same calls are rewritten as in want, the
// rewrite of the original (probes add no f.Fuzz call), which the count of
// rewritten calls checks.
func nativeRewrite(filename string, src, want []byte) ([]byte, error) {
	nf, err := nativeTargetsFile(filename, src)
	if err != nil {
		return nil, err
	}
	out := nf.out
	call := nativeImport + ".FuzzNative("
	if out == nil || strings.Count(string(out), call) != strings.Count(string(want), call) {
		return nil, fmt.Errorf("the instrumented file has %d f.Fuzz calls to rewrite, the original %d", strings.Count(string(out), call), strings.Count(string(want), call))
	}
	return out, nil
}
