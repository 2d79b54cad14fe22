package build

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// Type-checking for instrumentation. The instrumenter needs the syntax and
// type information of the packages it rewrites, and only of those:
// go/packages with NeedTypes would also have the go command compile every
// one of them (go list -export) only to throw the result away, which on a
// cold build costs as much again as compiling the instrumented code. Here
// the packages to instrument are parsed and type-checked from source, in
// dependency order, with their other imports read from export data: the
// standard library and the packages left uninstrumented, which Go's build
// cache normally holds already. A package imported by one of those that is
// itself being type-checked would get two identities, so every package on
// an import path between two packages being type-checked is type-checked
// from source too (without function bodies). Packages with cgo files take
// the go/packages path (loadMode), which runs cgo.

// errCgo makes typeCheck's caller load with go/packages instead.
var errCgo = errors.New("cgo package")

// goPackagesOnly makes Prepare type-check with go/packages, as for cgo
// (tests compare the two).
var goPackagesOnly bool

// checkConfig is what typeCheck needs from the build.
type checkConfig struct {
	ctx    context.Context
	dir    string
	flags  []string // go command build flags (-tags, -modfile...)
	env    []string // extra environment
	goarch string
}

// typeCheck parses and type-checks the packages todo (from the import
// graph, without syntax) and returns them with Fset, Syntax, Types and
// TypesInfo set (copies: the graph is not modified), by import path. A
// package whose files do not parse gets a ParseError in Errors; type errors
// are left to the go command, as loadErrors does. all holds the graph's
// packages by import path (the imports of todo). fromSource lists the
// import paths of the packages type-checked from source: todo's and those
// between them. The error is errCgo when one of the packages to
// type-check from source uses cgo.
func typeCheck(cfg checkConfig, all map[string]*packages.Package, todo []*packages.Package) (checked map[string]*packages.Package, fromSource []string, err error) {
	if goPackagesOnly {
		return nil, nil, errCgo
	}
	inTodo := map[string]bool{}
	for _, p := range todo {
		inTodo[p.PkgPath] = true
	}
	resolve := func(p *packages.Package) *packages.Package {
		if q := all[p.PkgPath]; q != nil {
			return q
		}
		return p
	}
	// reaches: whether p imports (transitively) a package of todo, or is one.
	reaches := map[string]bool{}
	var reach func(p *packages.Package) bool
	reach = func(p *packages.Package) bool {
		if r, ok := reaches[p.PkgPath]; ok {
			return r
		}
		reaches[p.PkgPath] = inTodo[p.PkgPath]
		if isStd(p) {
			return reaches[p.PkgPath]
		}
		r := inTodo[p.PkgPath]
		for _, q := range p.Imports {
			if reach(resolve(q)) {
				r = true
			}
		}
		reaches[p.PkgPath] = r
		return r
	}
	// The source set, in dependency order, and the packages read from
	// export data that it imports.
	var order []*packages.Package
	inSrc := map[string]bool{}
	exported := map[string]*packages.Package{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if inSrc[p.PkgPath] {
			return
		}
		inSrc[p.PkgPath] = true
		for _, q := range sortedImports(p) {
			q = resolve(q)
			if q.PkgPath == "unsafe" {
				continue
			}
			if q.PkgPath == "C" {
				continue // cgo: found when parsing
			}
			if !isStd(q) && reach(q) {
				visit(q)
			} else {
				exported[q.PkgPath] = q
			}
		}
		order = append(order, p)
	}
	for _, p := range todo {
		visit(resolve(p))
	}

	// Parse, in parallel.
	fset := token.NewFileSet()
	type parsed struct {
		files []*ast.File
		errs  []packages.Error
	}
	parses := make([]parsed, len(order))
	var eg errgroup.Group
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for i, p := range order {
		eg.Go(func() error {
			for _, name := range p.GoFiles {
				src, err := os.ReadFile(name)
				if err != nil {
					parses[i].errs = append(parses[i].errs, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
					continue
				}
				f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
				if f != nil {
					for _, imp := range f.Imports {
						if imp.Path.Value == `"C"` {
							return errCgo
						}
					}
					parses[i].files = append(parses[i].files, f)
				}
				if err != nil {
					var list scanner.ErrorList
					if errors.As(err, &list) {
						for _, e := range list {
							parses[i].errs = append(parses[i].errs, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
						}
					} else {
						parses[i].errs = append(parses[i].errs, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
					}
				}
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, nil, err
	}

	// Export data of the other imports, in dependency order (an importer's
	// export data names its dependencies' types, which must be read first).
	view := map[string]*types.Package{}
	importErr := map[string]error{}
	if len(exported) > 0 {
		paths := make([]string, 0, len(exported))
		for path := range exported {
			paths = append(paths, path)
		}
		slices.Sort(paths)
		lp, err := packages.Load(&packages.Config{Context: cfg.ctx, Dir: cfg.dir, Mode: packages.NeedName | packages.NeedExportFile,
			BuildFlags: cfg.flags, Env: append(os.Environ(), cfg.env...)}, paths...)
		if err != nil {
			return nil, nil, fmt.Errorf("export data: %w", err)
		}
		files := map[string]string{}
		for _, p := range lp {
			files[p.PkgPath] = p.ExportFile
		}
		done := map[string]bool{}
		var read func(p *packages.Package)
		read = func(p *packages.Package) {
			if done[p.PkgPath] {
				return
			}
			done[p.PkgPath] = true
			for _, q := range sortedImports(p) {
				read(resolve(q))
			}
			if exported[p.PkgPath] == nil {
				return
			}
			if err := readExport(fset, view, p.PkgPath, files[p.PkgPath]); err != nil {
				importErr[p.PkgPath] = err
			}
		}
		for _, path := range paths {
			read(exported[path])
		}
	}

	// Type-check the source set, each package once its imports are.
	sizes := types.SizesFor("gc", cfg.goarch)
	tpkgs := make(map[string]*types.Package, len(order))
	ready := make(map[string]chan struct{}, len(order))
	pos := make(map[string]int, len(order))
	for i, p := range order {
		ready[p.PkgPath] = make(chan struct{})
		pos[p.PkgPath] = i
	}
	out := map[string]*packages.Package{}
	var mu sync.Mutex
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ready[p.PkgPath])
			for _, q := range p.Imports {
				// Imports come first in order; an import cycle (an error
				// the go command reports) must not deadlock.
				if j, ok := pos[resolve(q).PkgPath]; ok && j < i {
					<-ready[resolve(q).PkgPath]
				}
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			mu.Lock()
			deps := map[string]*types.Package{}
			for path, q := range p.Imports {
				q = resolve(q)
				if t := tpkgs[q.PkgPath]; t != nil {
					deps[path] = t
				} else if t := view[q.PkgPath]; t != nil {
					deps[path] = t
				}
			}
			mu.Unlock()
			conf := &types.Config{
				Importer: importerFunc(func(path string) (*types.Package, error) {
					if path == "unsafe" {
						return types.Unsafe, nil
					}
					if t := deps[path]; t != nil {
						return t, nil
					}
					if q := p.Imports[path]; q != nil && importErr[resolve(q).PkgPath] != nil {
						return nil, importErr[resolve(q).PkgPath]
					}
					return nil, fmt.Errorf("no export data or source for %s", path)
				}),
				IgnoreFuncBodies: !inTodo[p.PkgPath],
				Error:            func(error) {}, // the go command reports type errors
				Sizes:            sizes,
			}
			if p.Module != nil && p.Module.GoVersion != "" {
				conf.GoVersion = "go" + p.Module.GoVersion
			}
			var info *types.Info
			if inTodo[p.PkgPath] {
				info = &types.Info{
					Types: map[ast.Expr]types.TypeAndValue{},
					Defs:  map[*ast.Ident]types.Object{},
					Uses:  map[*ast.Ident]types.Object{},
				}
			}
			tp := types.NewPackage(p.PkgPath, p.Name)
			types.NewChecker(conf, fset, tp, info).Files(parses[i].files)
			mu.Lock()
			tpkgs[p.PkgPath] = tp
			if inTodo[p.PkgPath] {
				c := *p
				c.Fset, c.Syntax, c.Types, c.TypesInfo = fset, parses[i].files, tp, info
				c.Errors = append(slices.Clone(p.Errors), parses[i].errs...)
				out[p.PkgPath] = &c
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := cfg.ctx.Err(); err != nil {
		return nil, nil, err
	}
	for _, p := range order {
		fromSource = append(fromSource, p.PkgPath)
	}
	slices.Sort(fromSource)
	return out, fromSource, nil
}

// readExport reads the export data of path from file into view.
func readExport(fset *token.FileSet, view map[string]*types.Package, path, file string) error {
	if file == "" {
		return fmt.Errorf("no export data for %s (it does not compile?)", path)
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	if _, err := gcexportdata.Read(r, fset, view, path); err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	return nil
}

// sortedImports returns p's imports in import-path order.
func sortedImports(p *packages.Package) []*packages.Package {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	out := make([]*packages.Package, len(paths))
	for i, path := range paths {
		out[i] = p.Imports[path]
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
