package build

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
	"golang.org/x/tools/go/packages"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
)

// resolve decides which packages to instrument the build cache holds, and
// type-checks and instruments the others.
//
// Keys. A package's instrumentation depends on its own files and on what
// it sees of its imports: the types and constant values of their
// declarations (a constant && operand gets no probe; comparison probes
// depend on operand types). So the key of a package hashes its own source
// (keyer.own) with the API key of each import, and a package to instrument
// gets as API key a hash of its API fingerprint (apiFingerprint: its
// package-level declarations' types and constants, no positions or bodies)
// and of its imports' API keys, computed when it is type-checked and
// stored in its entry. Editing a function body, a comment or the layout of
// a file therefore re-instruments that package only, not its importers;
// changing a declaration's type re-instruments the importers too, as it
// should. Other packages (the standard library, stood for by GOVERSION and
// GOROOT in every key; packages left uninstrumented) get an API key from
// their source, which they rarely change. The keys chain in dependency
// order: a package whose import was re-instrumented waits for that
// import's new API key.
//
// Type-checking. Only the packages missing from the cache are type-checked
// with function bodies and type information (for instrumentation). A
// package the cache has, that one of them imports, is type-checked from
// source without function bodies; the standard library and uninstrumented
// packages come from export data, which Go's build cache normally holds
// already (go/packages would also have the go command compile every
// package it type-checks, only to throw the result away). A package on an
// import path between two packages type-checked from source is
// type-checked from source too, so that no package gets two identities;
// export data is read only after the source packages it may name are in
// the importer's view. Packages with cgo files make the whole build fall
// back to go/packages (which runs cgo) for the packages the cache misses,
// with API keys from source.

// resolveConfig is what resolve needs from the build.
type resolveConfig struct {
	ctx    context.Context
	dir    string
	flags  []string // go command build flags (-tags, -modfile...)
	env    []string // extra environment
	goarch string
	cache  *buildCache // nil: off
	keys   *keyer      // nil when the cache is off
	cmp    bool
	plain  map[string]*packages.Package // the build's non-test packages by import path
	tests  []*testUnit                  // the test files to instrument (testfiles.go), in-package units first
}

// resolved is the outcome for one package to instrument.
type resolved struct {
	hit     bool        // the entry came from the cache
	entry   *cacheEntry // from the cache or made now; nil on failure
	loadErr string      // the package did not load or parse: left out
	err     error       // instrumenting it failed
	putErr  error       // the entry could not be stored (a warning)
}

type node struct {
	p     *packages.Package
	todo  bool // to instrument
	src   bool // type-checked from source when needed
	index int  // in dependency order
	deps  []*node
	done  chan struct{} // closed when key and api are set (and tp, for a package checked for instrumentation)

	key     string            // own source and imports' API keys; "" when the cache is off or a part is unknown
	imports string            // the imports' part of key
	digests map[string]string // file -> digest of its contents (keyer.own)
	api     string            // API key

	parseOnce sync.Once
	files     []*ast.File
	parseErrs []packages.Error
	cgo       bool

	typesOnce sync.Once
	tp        *types.Package
	typeErr   error

	res resolved
}

type resolver struct {
	resolveConfig
	nodes map[string]*node
	order []*node
	fset  *token.FileSet
	sizes types.Sizes
	sem   chan struct{}
	cgo   atomic.Bool

	exportOnce  sync.Once
	exportFiles map[string]string
	exportErr   error
	listed      []string // the packages whose export files go list -export gave

	stdTodo bool // a standard-library package is instrumented (-cover)

	mu         sync.Mutex
	view       map[string]*types.Package
	walkOnce   map[string]*sync.Once
	readOnce   map[string]*sync.Once
	readErr    map[string]error
	fromSource []string // import paths type-checked with bodies, to instrument
	declsOnly  []string // import paths type-checked without bodies, for importers
	files      []string // files instrumented (the others came from the cache)

	testsChecked []string // test units type-checked (testUnit.label)
}

// resolve returns the outcome for each package of todo (plain graph
// packages), and what it type-checked.
func resolve(rc resolveConfig, todo []*packages.Package) (res []resolved, st resolveStats, err error) {
	if !goPackagesOnly {
		r := newResolver(rc, todo)
		res, err := r.run(todo)
		if err == nil {
			st = resolveStats{full: slices.Sorted(slices.Values(r.fromSource)), decls: slices.Sorted(slices.Values(r.declsOnly)), listed: r.listed,
				files: slices.Sorted(slices.Values(r.files)), tests: slices.Sorted(slices.Values(r.testsChecked))}
			return res, st, nil
		}
		if !errors.Is(err, errCgo) {
			return nil, st, err
		}
	}
	res, st.full, st.files, st.tests, err = resolveGoPackages(rc, todo)
	return res, st, err
}

// resolveStats tells tests what resolve type-checked.
type resolveStats struct {
	full   []string // import paths type-checked with bodies, to instrument
	decls  []string // import paths type-checked without bodies, for their importers
	listed []string // import paths whose export files go list -export gave
	files  []string // files instrumented (the others came from the cache)
	tests  []string // test units type-checked (testUnit.label)
}

func newResolver(rc resolveConfig, todo []*packages.Package) *resolver {
	r := &resolver{
		resolveConfig: rc,
		nodes:         map[string]*node{},
		fset:          token.NewFileSet(),
		sizes:         types.SizesFor("gc", rc.goarch),
		sem:           make(chan struct{}, runtime.GOMAXPROCS(0)),
		view:          map[string]*types.Package{},
		walkOnce:      map[string]*sync.Once{},
		readOnce:      map[string]*sync.Once{},
		readErr:       map[string]error{},
	}
	isTodo := map[string]bool{}
	for _, p := range todo {
		isTodo[p.PkgPath] = true
	}
	var visit func(p *packages.Package) *node
	visit = func(p *packages.Package) *node {
		p = r.plainOf(p)
		if n, ok := r.nodes[p.PkgPath]; ok {
			return n // nil for a package visited but not a node; a cycle gives an unfinished node
		}
		if isStd(p) && !isTodo[p.PkgPath] || p.PkgPath == "unsafe" || p.PkgPath == "C" {
			r.nodes[p.PkgPath] = nil
			return nil
		}
		n := &node{p: p, todo: isTodo[p.PkgPath], done: make(chan struct{})}
		r.nodes[p.PkgPath] = n
		if n.todo && isStd(p) {
			r.stdTodo = true
		}
		n.src = n.todo
		for _, q := range sortedImports(p) {
			if d := visit(q); d != nil {
				n.deps = append(n.deps, d)
				if d.src && !isStd(p) {
					n.src = true
				}
			}
		}
		n.index = len(r.order)
		r.order = append(r.order, n)
		return n
	}
	for _, p := range todo {
		visit(p)
	}
	r.visitTests(visit)
	return r
}

func (r *resolver) plainOf(p *packages.Package) *packages.Package {
	if q := r.plain[p.PkgPath]; q != nil {
		return q
	}
	return p
}

// run resolves every node, each once its imports are.
func (r *resolver) run(todo []*packages.Package) ([]resolved, error) {
	var wg sync.WaitGroup
	for _, n := range r.order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.resolveNode(n)
		}()
	}
	wg.Wait()
	if !r.cgo.Load() && r.ctx.Err() == nil {
		r.resolveTests()
	}
	if r.cgo.Load() {
		return nil, errCgo
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]resolved, len(todo))
	for i, p := range todo {
		out[i] = r.nodes[p.PkgPath].res
	}
	return out, nil
}

func (r *resolver) resolveNode(n *node) {
	closed := false
	finish := func() {
		if !closed {
			closed = true
			close(n.done)
		}
	}
	defer finish()
	for _, d := range n.deps {
		if d.index < n.index { // an import cycle (an error the go command reports) must not deadlock
			<-d.done
		}
	}
	if r.cgo.Load() || r.ctx.Err() != nil {
		return
	}
	r.setKey(n)
	if !n.todo {
		if n.key != "" {
			n.api = hashOf("source", n.key)
		}
		return
	}
	instKey := ""
	if n.key != "" {
		instKey = hashOf(string(r.keys.base), "instrument", n.p.PkgPath, strconv.FormatBool(isStd(n.p)), strconv.FormatBool(r.cmp), n.key)
		if e, ok := r.cache.get(instKey, n.p.PkgPath); ok && e.Template.Path == n.p.PkgPath {
			n.res = resolved{hit: true, entry: e}
			n.api = e.API
			return
		}
	}
	tp, info, err := r.check(n, true)
	if errors.Is(err, errCgo) {
		r.cgo.Store(true)
		return
	}
	n.tp, n.typeErr = tp, err
	if err != nil {
		n.res.loadErr = err.Error()
		return
	}
	c := *n.p
	c.Fset, c.Syntax, c.Types, c.TypesInfo = r.fset, n.files, tp, info
	c.Errors = append(slices.Clone(n.p.Errors), n.parseErrs...)
	if err := loadErrors([]*packages.Package{&c}); err != nil {
		n.res.loadErr = err.Error()
		return
	}
	if n.key != "" {
		n.api = hashOf("api", apiFingerprint(tp), n.imports)
	}
	finish() // importers may go on: instrumenting takes longer than type-checking
	r.sem <- struct{}{}
	defer func() { <-r.sem }()
	n.res = r.instrumentChecked(n, &c, instKey)
}

// Files. A package the cache misses is instrumented file by file, and each
// file's template is cached too, under a key that hashes the file (name and
// contents) with everything else its rewrite reads: the package's path,
// name, module go version, whether it is std, -cmp, *base*, the
// fingerprint of all the package's declarations (unexported ones too: the
// file sees them) and its imports' API keys. Editing one file of a package
// then prints that file again, not the others (dst's decorating and
// printing are most of instrumenting's time); instrument.Join puts the
// package's template together.

// instrumentChecked instruments a type-checked package, taking from the
// cache the files it has, and stores the package's entry under key ("":
// nothing is stored).
func (r *resolver) instrumentChecked(n *node, c *packages.Package, key string) resolved {
	fileBase := ""
	if n.key != "" && n.api != "" && c.Types != nil {
		goVersion := ""
		if c.Module != nil {
			goVersion = c.Module.GoVersion
		}
		fileBase = hashOf(string(r.keys.base), "file", c.PkgPath, c.Name, strconv.FormatBool(isStd(c)), strconv.FormatBool(r.cmp), goVersion, packageFingerprint(c.Types), n.imports)
	}
	goFiles := map[string]bool{}
	for _, f := range c.GoFiles {
		goFiles[f] = true
	}
	var parts []*instrument.Template
	var dicts [][]string
	for _, f := range c.Syntax {
		name := c.Fset.File(f.Pos()).Name()
		if !goFiles[name] || instrument.ImportsC(f) || generatedByCgo(f) {
			dicts = append(dicts, CollectDictionary([]*ast.File{f})) // its literals count, as the package's
			continue
		}
		fkey := ""
		if fileBase != "" && n.digests[name] != "" {
			fkey = hashOf(fileBase, name, n.digests[name])
		}
		if e, ok := r.cache.get(fkey, c.PkgPath); ok && e.API == fileEntry && e.Template.Path == c.PkgPath && len(e.Template.Files) == 1 && e.Template.Files[0].Name == name {
			parts = append(parts, &e.Template)
			dicts = append(dicts, e.Dict)
			continue
		}
		dict := CollectDictionary([]*ast.File{f})
		ip := instrument.NewPackage(c.PkgPath, c.Name, isStd(c), c.Fset, c.TypesInfo)
		ip.Cmp = r.cmp
		if err := ip.AddFile(f); err != nil {
			return resolved{err: fmt.Errorf("instrument %s: %w", c.PkgPath, err)}
		}
		t, err := ip.Template()
		if err != nil {
			return resolved{err: fmt.Errorf("instrument %s: %w", c.PkgPath, err)}
		}
		r.mu.Lock()
		r.files = append(r.files, name)
		r.mu.Unlock()
		if fkey != "" {
			r.cache.put(&cacheEntry{Key: fkey, API: fileEntry, Template: *t, Dict: dict}) // a failure here costs only a file's rewrite later
		}
		parts = append(parts, t)
		dicts = append(dicts, dict)
	}
	t := instrument.Join(c.PkgPath, c.Name, isStd(c), parts)
	e := &cacheEntry{Key: key, API: n.api, Template: *t, Dict: mergeDictionaries(dicts)}
	res := resolved{entry: e}
	if key != "" && n.api != "" {
		res.putErr = r.cache.put(e)
	}
	return res
}

// setKey sets n.key (its own source and its imports' API keys) and
// n.imports (the imports' part); "" when the cache is off or a part is
// unknown.
func (r *resolver) setKey(n *node) {
	if r.keys == nil {
		return
	}
	own, digests := r.keys.own(n.p)
	if own == "" {
		return
	}
	n.digests = digests
	var parts []string
	for _, q := range sortedImports(n.p) {
		q = r.plainOf(q)
		d := r.nodes[q.PkgPath]
		switch {
		case d != nil:
			if d.api == "" || d.index >= n.index {
				return
			}
			parts = append(parts, "import "+q.PkgPath+" "+d.api)
		case isStd(q) || q.PkgPath == "unsafe" || q.PkgPath == "C":
			parts = append(parts, "import "+q.PkgPath+" std")
		default:
			return
		}
	}
	n.imports = hashOf(parts...)
	n.key = hashOf("own "+own, "imports "+n.imports)
}

// parse parses n's files once.
func (r *resolver) parse(n *node) {
	n.parseOnce.Do(func() {
		r.sem <- struct{}{}
		defer func() { <-r.sem }()
		for _, name := range n.p.GoFiles {
			src, err := os.ReadFile(name)
			if err != nil {
				n.parseErrs = append(n.parseErrs, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
				continue
			}
			f, err := parseFile(r.fset, name, src)
			if f != nil {
				for _, imp := range f.Imports {
					if imp.Path.Value == `"C"` {
						n.cgo = true
					}
				}
				n.files = append(n.files, f)
			}
			var list scanner.ErrorList
			switch {
			case err == nil:
			case errors.As(err, &list):
				for _, e := range list {
					n.parseErrs = append(n.parseErrs, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
				}
			default:
				n.parseErrs = append(n.parseErrs, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
			}
		}
	})
}

// check type-checks n from source: with function bodies and type
// information when full (to instrument it), else its declarations only
// (for its importers).
func (r *resolver) check(n *node, full bool) (*types.Package, *types.Info, error) {
	r.parse(n)
	if n.cgo {
		return nil, nil, errCgo
	}
	deps := map[string]*types.Package{}
	depErrs := map[string]error{}
	for path, q := range n.p.Imports {
		t, err := r.typesOf(n.index, r.plainOf(q))
		if err != nil {
			if errors.Is(err, errCgo) {
				return nil, nil, err
			}
			depErrs[path] = err
			continue
		}
		deps[path] = t
	}
	conf := r.checkConfig(n.p, deps, depErrs)
	conf.IgnoreFuncBodies = !full
	var info *types.Info
	if full {
		info = newTypesInfo()
	}
	r.sem <- struct{}{}
	tp := types.NewPackage(n.p.PkgPath, n.p.Name)
	types.NewChecker(conf, r.fset, tp, info).Files(n.files)
	<-r.sem
	r.mu.Lock()
	if full {
		r.fromSource = append(r.fromSource, n.p.PkgPath)
	} else {
		r.declsOnly = append(r.declsOnly, n.p.PkgPath)
	}
	r.mu.Unlock()
	return tp, info, nil
}

// typesOf returns the types of p for a package being type-checked (at
// index from in dependency order; -1 for export data being read): from
// source for a node type-checked from source, else from export data.
func (r *resolver) typesOf(from int, p *packages.Package) (*types.Package, error) {
	if p.PkgPath == "unsafe" {
		return types.Unsafe, nil
	}
	n := r.nodes[p.PkgPath]
	if n == nil || !n.src {
		return r.exported(p)
	}
	if from >= 0 && n.index >= from {
		return nil, fmt.Errorf("import cycle through %s", p.PkgPath)
	}
	<-n.done
	n.typesOnce.Do(func() {
		if n.tp == nil && n.typeErr == nil {
			n.tp, _, n.typeErr = r.check(n, false)
		}
	})
	if n.typeErr != nil {
		return nil, n.typeErr
	}
	if n.tp == nil {
		return nil, fmt.Errorf("%s was not type-checked", p.PkgPath)
	}
	return n.tp, nil
}

// exported returns p's types from export data, read once every package
// type-checked from source that it may name is in the view.
func (r *resolver) exported(p *packages.Package) (*types.Package, error) {
	r.exportOnce.Do(r.listExports)
	if r.exportErr != nil {
		return nil, r.exportErr
	}
	if r.stdTodo { // only std packages can import a package type-checked from source and be read from export data
		if err := r.walk(p); err != nil {
			return nil, err
		}
	}
	r.mu.Lock()
	once := r.readOnce[p.PkgPath]
	if once == nil {
		once = new(sync.Once)
		r.readOnce[p.PkgPath] = once
	}
	r.mu.Unlock()
	once.Do(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if t := r.view[p.PkgPath]; t != nil && t.Complete() {
			return
		}
		r.readErr[p.PkgPath] = readExport(r.fset, r.view, p.PkgPath, r.exportFiles[p.PkgPath])
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.readErr[p.PkgPath]; err != nil {
		return nil, err
	}
	t := r.view[p.PkgPath]
	if t == nil || !t.Complete() {
		return nil, fmt.Errorf("no export data for %s", p.PkgPath)
	}
	return t, nil
}

// walk puts every package type-checked from source that p imports,
// directly or not, into the view.
func (r *resolver) walk(p *packages.Package) error {
	r.mu.Lock()
	once := r.walkOnce[p.PkgPath]
	if once == nil {
		once = new(sync.Once)
		r.walkOnce[p.PkgPath] = once
	}
	r.mu.Unlock()
	var err error
	once.Do(func() {
		for _, q := range sortedImports(p) {
			q = r.plainOf(q)
			n := r.nodes[q.PkgPath]
			if n != nil && n.src {
				t, terr := r.typesOf(-1, q)
				if terr != nil {
					err = terr
					return
				}
				r.mu.Lock()
				if r.view[q.PkgPath] == nil {
					r.view[q.PkgPath] = t
				}
				r.mu.Unlock()
			}
			if n == nil && !isStd(q) {
				continue // an uninstrumented package that imports none of those
			}
			if werr := r.walk(q); werr != nil {
				err = werr
				return
			}
		}
	})
	return err
}

// listExports asks the go command for the export data of every package
// read from export data: the imports of the packages type-checked from
// source that are not.
func (r *resolver) listExports() {
	set := map[string]bool{}
	add := func(q *packages.Package) {
		q = r.plainOf(q)
		if d := r.nodes[q.PkgPath]; (d == nil || !d.src) && q.PkgPath != "unsafe" && q.PkgPath != "C" {
			set[q.PkgPath] = true
		}
	}
	for _, n := range r.order {
		if !n.src {
			continue
		}
		for _, q := range n.p.Imports {
			add(q)
		}
	}
	for _, u := range r.tests {
		for _, q := range u.variant.Imports {
			if !u.importsInPkg(q) {
				add(q)
			}
		}
	}
	r.exportFiles = map[string]string{}
	// The standard library's export files, as an earlier build listed
	// them: they are files of Go's build cache named by their contents,
	// so one that still exists is right (stdExports).
	known := r.cache.stdExports(r.keys)
	var paths []string
	for path := range set {
		if q := r.plain[path]; q != nil && isStd(q) && known[path] != "" {
			if _, err := os.Stat(known[path]); err == nil {
				r.exportFiles[path] = known[path]
				continue
			}
		}
		paths = append(paths, path)
	}
	if len(paths) == 0 {
		return
	}
	slices.Sort(paths)
	r.listed = paths
	lp, err := packages.Load(&packages.Config{Context: r.ctx, Dir: r.dir, Mode: packages.NeedName | packages.NeedExportFile,
		BuildFlags: r.flags, Env: append(os.Environ(), r.env...)}, paths...)
	if err != nil {
		r.exportErr = fmt.Errorf("export data: %w", err)
		return
	}
	learned := map[string]string{}
	for _, p := range lp {
		r.exportFiles[p.PkgPath] = p.ExportFile
		if q := r.plain[p.PkgPath]; q != nil && isStd(q) && p.ExportFile != "" && len(p.Errors) == 0 {
			learned[p.PkgPath] = p.ExportFile
		}
	}
	r.cache.addStdExports(r.keys, known, learned)
}

// resolveGoPackages is resolve for builds with cgo packages: every key
// from source (an import's API key is its source key), and the packages
// (and test units) the cache misses loaded with go/packages.
func resolveGoPackages(rc resolveConfig, todo []*packages.Package) ([]resolved, []string, []string, []string, error) {
	r := newResolver(rc, todo)
	out := make([]resolved, len(todo))
	instKeys := map[string]string{}
	var missed []string
	for _, n := range r.order { // dependency order
		r.setKey(n)
		if n.key != "" {
			n.api = hashOf("source", n.key)
		}
		if !n.todo {
			continue
		}
		if n.key != "" {
			instKeys[n.p.PkgPath] = hashOf(string(r.keys.base), "instrument go/packages", n.p.PkgPath, strconv.FormatBool(isStd(n.p)), strconv.FormatBool(r.cmp), n.key)
			if e, ok := r.cache.get(instKeys[n.p.PkgPath], n.p.PkgPath); ok && e.Template.Path == n.p.PkgPath {
				n.res = resolved{hit: true, entry: e}
				continue
			}
		}
		missed = append(missed, n.p.PkgPath)
	}
	checked := map[string]*packages.Package{}
	if len(missed) > 0 {
		cfg := &packages.Config{Context: rc.ctx, Dir: rc.dir, Mode: loadMode, BuildFlags: rc.flags, Env: append(os.Environ(), rc.env...), ParseFile: parseFile}
		loaded, err := packages.Load(cfg, missed...)
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("load: %w", err)
		}
		for _, p := range loaded {
			checked[p.PkgPath] = p
		}
	}
	var eg errgroup.Group
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for _, path := range missed {
		n := r.nodes[path]
		c := checked[path]
		switch {
		case c == nil:
			n.res.loadErr = "not loaded"
			continue
		case loadErrors([]*packages.Package{c}) != nil:
			n.res.loadErr = loadErrors([]*packages.Package{c}).Error()
			continue
		}
		eg.Go(func() error {
			n.res = r.instrumentChecked(n, c, instKeys[path])
			return nil
		})
	}
	eg.Wait()
	if err := r.resolveTestsGoPackages(); err != nil {
		return nil, nil, nil, nil, err
	}
	for i, p := range todo {
		out[i] = r.nodes[p.PkgPath].res
	}
	slices.Sort(missed)
	return out, missed, slices.Sorted(slices.Values(r.files)), slices.Sorted(slices.Values(r.testsChecked)), nil
}

// checkConfig is the type checker's configuration for p, whose imports
// are deps (by import path), or failed with depErrs.
func (r *resolver) checkConfig(p *packages.Package, deps map[string]*types.Package, depErrs map[string]error) *types.Config {
	conf := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if t := deps[path]; t != nil {
				return t, nil
			}
			if err := depErrs[path]; err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("no metadata for %s", path)
		}),
		Error: func(error) {}, // the go command reports type errors
		Sizes: r.sizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	return conf
}

// newTypesInfo is the type information the instrumenter reads.
func newTypesInfo() *types.Info {
	return &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
}
