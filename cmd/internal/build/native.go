package build

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gfz-dev/gfz/internal/native"
)

// NativeTarget is a native fuzz target: func FuzzXxx(f *testing.F) whose
// body calls f.Fuzz(fn) with fn a function of typed arguments.
type NativeTarget struct {
	Name  string
	File  string // the _test.go file declaring it
	Types string // fn's argument types after the *testing.T, e.g. "[]byte,int" (native.Types.String)
}

// nativeImport is the name under which a rewritten file imports package
// gfz.
const nativeImport = "_gfznative"

// FormatsPath is the package that registers the format generators a
// native target's run mixes children from (the fuzz binary's -format): a
// rewritten file imports it blank, beside package gfz.
const FormatsPath = GfzPath + "/generators/formats"

// NativeTargets finds the native fuzz targets of a _test.go source and
// returns them with the file rewritten for the build overlay (nil when it
// has none): every call p.Fuzz(fn), p being a parameter of type *testing.F
// of the enclosing function, becomes _gfznative.FuzzNative(p, fn), and
// package gfz is imported as _gfznative on the package clause's line, with
// a blank import of FormatsPath (the format generators) beside it. No line
// moves, so positions in stacks and messages are the user's.
//
// A target's argument types are read from fn: a function literal, a
// function-typed parameter or local variable, or a function, function
// variable or method of the file (gfz-build's package scan, nativeScan,
// also looks in the package's other files). An argument of a type native
// fuzzing does not accept, or an fn whose types cannot be read, is an
// error naming the file and line.
func NativeTargets(filename string, src []byte) ([]NativeTarget, []byte, error) {
	nf, err := nativeTargetsFile(filename, src)
	for _, lf := range nf.later {
		if err != nil {
			break
		}
		if lf.target < 0 {
			continue // a helper's: nativeScan's work
		}
		var types string
		if types, err = nf.decls.argTypes(lf.ref, true); err != nil {
			err = lf.err(err)
		}
		nf.targets[lf.target].Types = types
	}
	return nf.targets, nf.out, err
}

// fuzzHelpers is what a file tells about functions that take a
// *testing.F, for targets whose f.Fuzz is in another function of the
// package (func FuzzA(f *testing.F) { fuzz(f) }, or one target calling
// another): the f.Fuzz types of each such function, and which functions
// each target candidate hands its *testing.F to.
type fuzzHelpers struct {
	types map[string]string   // function -> its f.Fuzz's argument types
	errs  map[string]error    // function -> why its f.Fuzz's types cannot be used
	calls map[string][]string // target candidate without its own f.Fuzz -> functions called with its *testing.F
	file  map[string]string   // target candidate -> its file
}

func newFuzzHelpers() fuzzHelpers {
	return fuzzHelpers{types: map[string]string{}, errs: map[string]error{}, calls: map[string][]string{}, file: map[string]string{}}
}

// nativeFileScan is what nativeTargetsFile finds in one file.
type nativeFileScan struct {
	pkg     string         // the package clause's name
	targets []NativeTarget // a target of later has no Types yet
	out     []byte         // the rewritten file (nil: no f.Fuzz call)
	helpers fuzzHelpers
	decls   *funcDecls // the file's declarations
	later   []laterFn  // f.Fuzz arguments the file does not declare
	// fuzzFuncs are the file's FuzzXxx(f *testing.F) functions, targets
	// or not, with their positions.
	fuzzFuncs []fuzzFunc
}

// fuzzFunc is a FuzzXxx(f *testing.F) function of a test file.
type fuzzFunc struct {
	name string
	pos  token.Position
}

// laterFn is an f.Fuzz argument that names a function the file does not
// declare, or has an argument type the file does not declare: nativeScan
// looks it up in the package's declarations.
type laterFn struct {
	ref    fnRef
	pos    token.Position
	target int    // index in targets, or -1 for a helper's f.Fuzz
	who    string // the target or helper whose f.Fuzz it is
}

// err is e as the error of lf's f.Fuzz.
func (lf laterFn) err(e error) error {
	return fmt.Errorf("%s: %s's f.Fuzz: %w", lf.pos, lf.who, e)
}

// nativeTargetsFile scans one _test.go file: NativeTargets, also returning
// the file's fuzzHelpers and declarations, and the f.Fuzz arguments it
// does not declare.
func nativeTargetsFile(filename string, src []byte) (nativeFileScan, error) {
	nf := nativeFileScan{helpers: newFuzzHelpers(), decls: newFuncDecls()}
	h := nf.helpers
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nf, err
	}
	nf.pkg = f.Name.Name
	testingName := ImportName(f, "testing", "testing")
	nf.decls.addFile(f, testingName)
	if testingName == "" || testingName == "_" {
		return nf, nil
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	var firstErr error
	// fParams returns the names of ft's parameters of type *testing.F.
	fParams := func(ft *ast.FuncType) map[string]bool {
		names := map[string]bool{}
		for _, p := range ft.Params.List {
			if star, ok := p.Type.(*ast.StarExpr); ok && IsSelector(star.X, testingName, "F") {
				for _, n := range p.Names {
					names[n.Name] = true
				}
			}
		}
		return names
	}
	imports := importNames(f)
	// walk finds the f.Fuzz calls in body: fs are the names of the
	// *testing.F values there, own those of them that are the target's or
	// the owner's (its parameter, also in the function literals that do not
	// shadow it: an f.Fuzz in a closure of the target is the target's; a
	// literal's own *testing.F parameter is not).
	var walk func(body ast.Node, fs, own map[string]bool, target, owner string, locals map[string][]local)
	walk = func(body ast.Node, fs, own map[string]bool, target, owner string, locals map[string][]local) {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				inner, innerOwn := map[string]bool{}, map[string]bool{}
				for k := range fs {
					inner[k] = true
				}
				for k := range own {
					innerOwn[k] = true
				}
				for _, p := range n.Type.Params.List {
					for _, name := range p.Names {
						delete(inner, name.Name) // shadowed
						delete(innerOwn, name.Name)
					}
				}
				for k := range fParams(n.Type) {
					inner[k] = true
				}
				walk(n.Body, inner, innerOwn, target, owner, locals)
				return false
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && owner != "" && len(visibleAt(locals, id)) == 0 {
					for _, arg := range n.Args {
						if a, ok := arg.(*ast.Ident); ok && own[a.Name] {
							h.calls[owner] = append(h.calls[owner], id.Name) // owner hands its *testing.F to id
							break
						}
					}
				}
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Fuzz" || len(n.Args) != 1 {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok || !fs[x.Name] {
					return true
				}
				start, end := fset.Position(sel.Pos()).Offset, fset.Position(n.Lparen).Offset+1
				text := nativeImport + ".FuzzNative(" + x.Name + ", " + strings.Repeat("\n", strings.Count(string(src[start:end]), "\n"))
				edits = append(edits, edit{start, end, text})
				if target == "" && owner == "" || !own[x.Name] {
					return true
				}
				pos := fset.Position(n.Args[0].Pos())
				ref := fnRef{fn: n.Args[0], locals: locals, testing: testingName, imports: imports}
				types, err := nf.decls.argTypes(ref, false)
				deferred := errors.Is(err, errNotDeclared) // nativeScan looks in the package's other files
				if deferred {
					err = nil
				}
				if target != "" {
					if err != nil && firstErr == nil {
						firstErr = fmt.Errorf("%s: %s's f.Fuzz: %w", pos, target, err)
					}
					if prev, ok := h.types[target]; ok {
						// A second f.Fuzz of the target (on another
						// branch): one set of types is recorded.
						if err == nil && !deferred && prev != "" && prev != types && firstErr == nil {
							firstErr = fmt.Errorf("%s: %s calls f.Fuzz again with other argument types (%s, then %s): gfz-build records one set of types per target: give each its own target", pos, target, prev, types)
						}
						return true
					}
					if deferred {
						nf.later = append(nf.later, laterFn{ref: ref, pos: pos, target: len(nf.targets), who: target})
					}
					nf.targets = append(nf.targets, NativeTarget{Name: target, File: filename, Types: types})
					h.types[target] = types
				} else if deferred {
					nf.later = append(nf.later, laterFn{ref: ref, pos: pos, target: -1, who: owner})
					h.types[owner] = ""
				} else if err != nil {
					h.errs[owner] = fmt.Errorf("%s: %s's f.Fuzz: %w", pos, owner, err)
				} else {
					h.types[owner] = types
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		target := ""
		if fd.Recv == nil && isFuzzName(fd.Name.Name) && fd.Type.TypeParams == nil && len(fd.Type.Params.List) == 1 && len(fd.Type.Params.List[0].Names) <= 1 {
			if len(fParams(fd.Type)) == 1 {
				target = fd.Name.Name
				h.file[target] = filename
				nf.fuzzFuncs = append(nf.fuzzFuncs, fuzzFunc{target, fset.Position(fd.Name.Pos())})
			}
		}
		owner := ""
		if fd.Recv == nil && fd.Type.TypeParams == nil {
			owner = fd.Name.Name
		}
		fs := fParams(fd.Type)
		walk(fd.Body, fs, fs, target, owner, localFuncs(fd, testingName))
	}
	for t := range h.file { // candidates with their own f.Fuzz are targets already
		if _, ok := h.types[t]; ok {
			delete(h.calls, t)
		}
	}
	if firstErr != nil {
		return nf, firstErr
	}
	if len(edits) == 0 {
		return nf, nil
	}
	// Import gfz on the package clause's line, then apply the call edits
	// from the end.
	pkgEnd := fset.Position(f.Name.End()).Offset
	edits = append(edits, edit{pkgEnd, pkgEnd, "; import " + nativeImport + " " + `"` + GfzPath + `"` + `; import _ "` + FormatsPath + `"`})
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	nf.out = out
	return nf, nil
}

// nativeArgTypes returns the argument types (after the *testing.T) of a
// function of type ft passed to f.Fuzz; aliases are the type aliases
// known, testingName the declaring file's name of package testing. Unless
// final, an argument type named by an identifier that is neither a
// supported type nor a known alias is errNotDeclared (another file of the
// package may declare it as an alias).
func nativeArgTypes(ft *ast.FuncType, aliases map[string]ast.Expr, testingName string, final bool) (string, error) {
	var ts native.Types
	first := true
	for _, p := range ft.Params.List {
		n := max(1, len(p.Names))
		for range n {
			if first {
				first = false
				if star, ok := p.Type.(*ast.StarExpr); !ok || !IsSelector(star.X, testingName, "T") {
					return "", fmt.Errorf("the fuzz function's first argument must be a *testing.T, not %s", exprString(p.Type))
				}
				continue
			}
			t := p.Type
			for range 8 { // an alias of an alias (a cycle does not compile)
				id, ok := t.(*ast.Ident)
				if !ok || aliases[id.Name] == nil {
					break
				}
				t = aliases[id.Name]
			}
			k, ok := nativeKind(t)
			if _, ident := t.(*ast.Ident); !ok && ident && !final {
				return "", errNotDeclared
			}
			if !ok {
				return "", fmt.Errorf("fuzz argument type %s is not supported: native fuzzing accepts %s", exprString(p.Type), native.Supported)
			}
			ts = append(ts, k)
		}
	}
	if len(ts) == 0 {
		return "", fmt.Errorf("the fuzz function takes no argument besides its *testing.T")
	}
	return ts.String(), nil
}

// nativeKind returns the kind of an argument type expression.
func nativeKind(e ast.Expr) (native.Kind, bool) {
	switch t := e.(type) {
	case *ast.Ident:
		k, ok := native.ParseKind(t.Name)
		return k, ok && k != native.Bytes
	case *ast.ArrayType:
		if id, ok := t.Elt.(*ast.Ident); ok && t.Len == nil && (id.Name == "byte" || id.Name == "uint8") {
			return native.Bytes, true
		}
	case *ast.ParenExpr:
		return nativeKind(t.X)
	}
	return 0, false
}

func exprString(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return exprString(t.X) + "." + t.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(t.X)
	case *ast.ArrayType:
		if t.Len == nil {
			return "[]" + exprString(t.Elt)
		}
		return "[...]" + exprString(t.Elt)
	case *ast.MapType:
		return "map[" + exprString(t.Key) + "]" + exprString(t.Value)
	case *ast.FuncLit:
		return "func literal"
	}
	return types.ExprString(e)
}

// nativeFile is one _test.go file rewritten for native targets.
type nativeFile struct {
	orig string
	src  []byte
}

// nativeScans holds, per matched package path, what nativeScan found in
// its _test.go files.
type nativeScans map[string]nativeScanned

type nativeScanned struct {
	testFiles []string
	targets   []NativeTarget
	files     []nativeFile
	fuzzFuncs []fuzzFunc // every FuzzXxx(f *testing.F) of the test files
	err       error
}

// scanNative scans the _test.go files of every matched package of g for
// native targets.
func scanNative(g *graph) nativeScans {
	out := nativeScans{}
	for _, p := range g.matched {
		var sc nativeScanned
		var others []string // the package's other files, for declarations
		seen := map[string]bool{}
		for _, v := range g.variants[p.PkgPath] {
			for _, f := range v.GoFiles {
				switch {
				case seen[f]:
				case strings.HasSuffix(f, "_test.go"):
					sc.testFiles = append(sc.testFiles, f)
				default:
					others = append(others, f)
				}
				seen[f] = true
			}
		}
		sc.targets, sc.files, sc.fuzzFuncs, sc.err = nativeScan(append(append([]string(nil), sc.testFiles...), others...))
		out[p.PkgPath] = sc
	}
	return out
}

// unbuiltWarning names the FuzzXxx(f *testing.F) functions of package
// path's test files that are not among its fuzz targets (found): gfz-build
// found in them neither a gfz.Fuzz call nor an f.Fuzz call it can read
// ("" if there are none). They are not built, which must not go unsaid.
func unbuiltWarning(path string, sc nativeScanned, found []string) string {
	if sc.err != nil {
		return ""
	}
	var names []string
	seen := map[string]bool{}
	for _, ff := range sc.fuzzFuncs {
		if !slices.Contains(found, ff.name) && !seen[ff.name] {
			seen[ff.name] = true
			names = append(names, fmt.Sprintf("%s (%s:%d)", ff.name, filepath.Base(ff.pos.Filename), ff.pos.Line))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s not built: gfz-build finds in it no gfz.Fuzz call and no f.Fuzz call it can read, in it or in the plain functions of the package's test files it hands its *testing.F to "+
		"(an f.Fuzz on a function literal's own *testing.F parameter, or in a method, a function variable or a file that is not a _test.go file, is not followed): call f.Fuzz in the target or in such a function",
		path, strings.Join(names, ", "))
}

// any reports whether some package has a native target.
func (s nativeScans) any() bool {
	for _, sc := range s {
		if len(sc.targets) > 0 {
			return true
		}
	}
	return false
}

// nativeScan finds the native targets of a package's _test.go files
// (files may name the package's other files too: their declarations are
// read when an f.Fuzz argument is not declared in its own file). It
// returns the targets, the rewritten files and an error naming the first
// unsupported f.Fuzz, and every FuzzXxx(f *testing.F) function of the
// test files, targets or not.
func nativeScan(files []string) ([]NativeTarget, []nativeFile, []fuzzFunc, error) {
	var targets []NativeTarget
	var rewritten []nativeFile
	all := newFuzzHelpers()
	decls := map[string]*funcDecls{} // by package clause
	pkgDecls := func(pkg string) *funcDecls {
		if decls[pkg] == nil {
			decls[pkg] = newFuncDecls()
		}
		return decls[pkg]
	}
	type pending struct {
		pkg  string
		lf   laterFn
		base int // the index in targets of its file's first target
	}
	var later []pending
	var fuzzFuncs []fuzzFunc
	var candidates, others []string
	for _, name := range files {
		if !strings.HasSuffix(name, "_test.go") {
			others = append(others, name)
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("find fuzz targets: %w", err)
		}
		nf, err := nativeTargetsFile(name, src)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, lf := range nf.later {
			later = append(later, pending{nf.pkg, lf, len(targets)})
		}
		targets = append(targets, nf.targets...)
		fuzzFuncs = append(fuzzFuncs, nf.fuzzFuncs...)
		pkgDecls(nf.pkg).merge(nf.decls)
		// The helpers of package p and of p_test are not each other's:
		// their names are qualified by the package clause.
		h, q := nf.helpers, func(name string) string { return nf.pkg + "." + name }
		for k, v := range h.types {
			all.types[q(k)] = v
		}
		for k, v := range h.errs {
			all.errs[q(k)] = v
		}
		for k, v := range h.calls {
			for _, callee := range v {
				all.calls[q(k)] = append(all.calls[q(k)], q(callee))
			}
		}
		for k, v := range h.file {
			if _, ok := h.calls[k]; ok {
				all.file[q(k)] = v
				candidates = append(candidates, q(k))
			}
		}
		if nf.out != nil {
			rewritten = append(rewritten, nativeFile{orig: name, src: nf.out})
		}
	}
	if len(later) > 0 {
		// The package's other files declare what the test files do not.
		fset := token.NewFileSet()
		for _, name := range others {
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("find fuzz targets: %w", err)
			}
			pkgDecls(f.Name.Name).addFile(f, ImportName(f, "testing", "testing"))
		}
		for _, p := range later {
			types, err := pkgDecls(p.pkg).argTypes(p.lf.ref, true)
			switch {
			case p.lf.target >= 0 && err != nil:
				return nil, nil, nil, p.lf.err(err)
			case p.lf.target >= 0:
				targets[p.base+p.lf.target].Types = types
				all.types[p.pkg+"."+p.lf.who] = types
			case err != nil:
				all.errs[p.pkg+"."+p.lf.who] = p.lf.err(err)
			default:
				all.types[p.pkg+"."+p.lf.who] = types
			}
		}
	}
	// Targets whose f.Fuzz is in a function they call with their
	// *testing.F (in any _test.go file of the package), transitively.
	for _, c := range candidates {
		types, err := all.resolve(c, map[string]bool{})
		if err != nil {
			return nil, nil, nil, err
		}
		if types != "" {
			targets = append(targets, NativeTarget{Name: c[strings.LastIndex(c, ".")+1:], File: all.file[c], Types: types})
		}
	}
	return targets, rewritten, fuzzFuncs, nil
}

// resolve returns the f.Fuzz argument types reached from function fn
// through the functions it hands its *testing.F to ("" if none).
func (h fuzzHelpers) resolve(fn string, seen map[string]bool) (string, error) {
	if seen[fn] {
		return "", nil
	}
	seen[fn] = true
	if err := h.errs[fn]; err != nil {
		return "", err
	}
	if t, ok := h.types[fn]; ok {
		return t, nil
	}
	for _, callee := range h.calls[fn] {
		if t, err := h.resolve(callee, seen); t != "" || err != nil {
			return t, err
		}
	}
	return "", nil
}

// nativeInfoPrefix is the prefix of the build-info key of a native
// target's types; it must be driver.NativeInfoKey's (a test checks it;
// package driver is not imported here because it links the testing
// package).
const nativeInfoPrefix = "native."

// NativeBuildInfo returns the build-info entries of a binary's native
// targets (nativeInfoPrefix+target = types), to append to BuildInfo's
// value after an "&"; "" when there are none.
func NativeBuildInfo(types map[string]string) string {
	if len(types) == 0 {
		return ""
	}
	v := url.Values{}
	for name, ts := range types {
		v.Set(nativeInfoPrefix+name, ts)
	}
	return v.Encode()
}

// writeNativeFiles writes the rewritten _test.go files into the work
// directory and adds them to the overlay.
func writeNativeFiles(work string, files []nativeFile, replace map[string]string) error {
	if len(files) == 0 {
		return nil
	}
	dir := filepath.Join(work, "native")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gfz-build: %w", err)
	}
	for i, f := range files {
		out := filepath.Join(dir, fmt.Sprintf("%03d_%s", i, filepath.Base(f.orig)))
		if err := os.WriteFile(out, f.src, 0o644); err != nil {
			return fmt.Errorf("gfz-build: %w", err)
		}
		replace[f.orig] = out
	}
	return nil
}

// NoTargetsLine is the one line that reports the matched packages without
// fuzz targets, which are not built.
func NoTargetsLine(pkgs []string) string {
	const show = 5
	list := pkgs
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(" and %d more", len(pkgs)-show)
	}
	return fmt.Sprintf("%d package(s) without fuzz targets not built: %s%s", len(pkgs), strings.Join(list, ", "), more)
}

// nativeDictLdflag returns the linker flag that hands the dictionary to
// the driver of a binary with native targets (whose raw arguments get the
// literals through the engine rather than through generators), with a
// leading space; "" when the binary has none.
func nativeDictLdflag(native map[string]string, tokens []string) string {
	enc := EncodeDictionary(tokens)
	if len(native) == 0 || enc == "" {
		return ""
	}
	return " -X " + GfzPath + "/internal/driver.nativeDict=" + enc
}
