package build

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// The declarations a native target's f.Fuzz argument may name: gfz-build
// reads its argument types from syntax, without type-checking the test
// package, so it looks the function up by name, first among the locals
// visible where the call is (a parameter, named result or variable of the
// function or of the function literals enclosing the call: of a function
// type, of a function type the package names, or holding a function
// literal), then in the file, and, when the file does not declare it, in
// every file of the package (nativeScan): a top-level function, a
// package-level variable of a function type or holding a function
// literal, or a method value (x.m, when every method m of the package but
// those of generic types has the same arguments; x naming an import is
// another package's function).

// funcDecl is a declared function type, with the name under which the
// declaring file imports package testing (its *testing.T is checked
// against that name).
type funcDecl struct {
	ft      *ast.FuncType
	testing string
	named   string // instead of ft: the name of a function type of the package (type F func(...))
	generic bool   // a method of a generic type (its argument types may be its type parameters)
}

// funcDecls are the function declarations of one file or of a whole
// package (merged per package clause).
type funcDecls struct {
	funcs     map[string]*funcDecl // top-level functions and package-level function variables (nil: declared twice)
	methods   map[string][]funcDecl
	aliases   map[string]ast.Expr      // type A = T: go test sees T
	funcTypes map[string]*ast.FuncType // type F func(...)
	funcTest  map[string]string        // ... and its file's name of package testing
}

func newFuncDecls() *funcDecls {
	return &funcDecls{funcs: map[string]*funcDecl{}, methods: map[string][]funcDecl{}, aliases: map[string]ast.Expr{},
		funcTypes: map[string]*ast.FuncType{}, funcTest: map[string]string{}}
}

// addFile adds file f's top-level declarations; testingName is the name
// under which f imports package testing ("" if it does not).
func (d *funcDecls) addFile(f *ast.File, testingName string) {
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			fd := funcDecl{ft: decl.Type, testing: testingName}
			if decl.Recv == nil {
				d.add(decl.Name.Name, &fd)
			} else if len(decl.Recv.List) == 1 {
				recv := decl.Recv.List[0].Type
				if st, ok := recv.(*ast.StarExpr); ok {
					recv = st.X
				}
				switch recv.(type) {
				case *ast.IndexExpr, *ast.IndexListExpr:
					fd.generic = true
				}
				d.methods[decl.Name.Name] = append(d.methods[decl.Name.Name], fd)
			}
		case *ast.GenDecl:
			for _, sp := range decl.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					switch ft, isFunc := unparen(sp.Type).(*ast.FuncType); {
					case sp.TypeParams != nil:
					case sp.Assign.IsValid():
						d.aliases[sp.Name.Name] = sp.Type
					case isFunc:
						d.funcTypes[sp.Name.Name], d.funcTest[sp.Name.Name] = ft, testingName
					}
				case *ast.ValueSpec:
					if decl.Tok == token.VAR {
						for i, name := range sp.Names {
							if fd := varFunc(sp, i, testingName); fd != nil {
								d.add(name.Name, fd)
							}
						}
					}
				}
			}
		}
	}
}

// add declares name; a second declaration (another build of the package,
// or a local shadowing another) makes it ambiguous.
func (d *funcDecls) add(name string, fd *funcDecl) {
	if _, dup := d.funcs[name]; dup {
		d.funcs[name] = nil
		return
	}
	d.funcs[name] = fd
}

// merge adds o's declarations to d.
func (d *funcDecls) merge(o *funcDecls) {
	for k, v := range o.funcs {
		if v == nil {
			d.funcs[k] = nil
		} else {
			d.add(k, v)
		}
	}
	for k, v := range o.methods {
		d.methods[k] = append(d.methods[k], v...)
	}
	for k, v := range o.aliases {
		d.aliases[k] = v
	}
	for k, v := range o.funcTypes {
		d.funcTypes[k], d.funcTest[k] = v, o.funcTest[k]
	}
}

// varFunc is the function type of the i-th name of a var spec, nil if it
// has none gfz-build can read: its declared type (a function type, or the
// name of one), or its value's when the value is a function literal.
func varFunc(sp *ast.ValueSpec, i int, testingName string) *funcDecl {
	if sp.Type != nil {
		return typeFunc(sp.Type, testingName)
	}
	if len(sp.Values) == len(sp.Names) {
		if lit, ok := unparen(sp.Values[i]).(*ast.FuncLit); ok {
			return &funcDecl{ft: lit.Type, testing: testingName}
		}
	}
	return nil
}

// typeFunc is the function a type expression declares, nil if it is
// neither a function type nor a name (which may name one: resolved when
// the argument types are read).
func typeFunc(t ast.Expr, testingName string) *funcDecl {
	switch t := unparen(t).(type) {
	case *ast.FuncType:
		return &funcDecl{ft: t, testing: testingName}
	case *ast.Ident:
		return &funcDecl{named: t.Name, testing: testingName}
	}
	return nil
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// A local is a name a function declares: a parameter or named result, a
// variable (:=, var, range, a type switch's), with its function type (nil:
// none gfz-build can read) and the function literal or declaration whose
// body it is visible in.
type local struct {
	fd       *funcDecl
	from, to token.Pos
}

// localFuncs returns the parameters, named results and local variables of
// a function declaration and of the function literals in it, by name: a
// parameter fn func(...) (or of a named function type), x := func(...)
// {...}, var x = func(...) {...} and var x func(...) give their function
// type; the others, and range and type switch variables, none.
func localFuncs(fd *ast.FuncDecl, testingName string) map[string][]local {
	locals := map[string][]local{}
	add := func(name string, f *funcDecl, scope ast.Node) {
		if name != "_" {
			locals[name] = append(locals[name], local{f, scope.Pos(), scope.End()})
		}
	}
	fields := func(fl *ast.FieldList, scope ast.Node) {
		if fl == nil {
			return
		}
		for _, p := range fl.List {
			f := typeFunc(p.Type, testingName)
			for _, name := range p.Names {
				add(name.Name, f, scope)
			}
		}
	}
	var visit func(body ast.Node, scope ast.Node)
	visit = func(body ast.Node, scope ast.Node) {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				fields(n.Type.Params, n)
				fields(n.Type.Results, n)
				visit(n.Body, n)
				return false
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					return true
				}
				for i, lhs := range n.Lhs {
					id, ok := lhs.(*ast.Ident)
					if !ok {
						continue
					}
					var f *funcDecl
					if len(n.Rhs) == len(n.Lhs) {
						if lit, ok := unparen(n.Rhs[i]).(*ast.FuncLit); ok {
							f = &funcDecl{ft: lit.Type, testing: testingName}
						}
					}
					add(id.Name, f, scope)
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok {
							add(id.Name, nil, scope)
						}
					}
				}
			case *ast.TypeSwitchStmt:
				if a, ok := n.Assign.(*ast.AssignStmt); ok && len(a.Lhs) == 1 {
					if id, ok := a.Lhs[0].(*ast.Ident); ok {
						add(id.Name, nil, scope)
					}
				}
			case *ast.DeclStmt:
				g, ok := n.Decl.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					return true
				}
				for _, sp := range g.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, name := range vs.Names {
						add(name.Name, varFunc(vs, i, testingName), scope)
					}
				}
			}
			return true
		})
	}
	fields(fd.Type.Params, fd)
	fields(fd.Type.Results, fd)
	visit(fd.Body, fd)
	return locals
}

// errNotDeclared is nativeArgTypes' error for a function not found in the
// declarations it was given (nativeScan looks again in the package's).
var errNotDeclared = errors.New("not declared here")

// visibleAt returns the locals the identifier id may name where it is.
func visibleAt(locals map[string][]local, id *ast.Ident) []local {
	var seen []local
	for _, l := range locals[id.Name] {
		if l.from <= id.Pos() && id.Pos() < l.to {
			seen = append(seen, l)
		}
	}
	return seen
}

// fnRef is an f.Fuzz argument with what its file and function tell about
// names: the function's locals, the file's name of package testing and
// the names its imports may go by.
type fnRef struct {
	fn      ast.Expr
	locals  map[string][]local
	testing string
	imports map[string]bool
}

// lookup returns the function types ref may name: a function literal, a
// local visible where it is, a function or variable of d, or a method
// value x.m (every method m of d; those of generic types only when no
// other has that name). It returns errNotDeclared when d does not declare
// the name, or, unless final, for a method value (other files may declare
// more methods of that name), and another error when it cannot be
// resolved at all.
func (d *funcDecls) lookup(ref fnRef, final bool) ([]funcDecl, error) {
	switch e := unparen(ref.fn).(type) {
	case *ast.FuncLit:
		return []funcDecl{{ft: e.Type, testing: ref.testing}}, nil
	case *ast.Ident:
		seen := visibleAt(ref.locals, e)
		switch {
		case len(seen) > 1:
			return nil, fmt.Errorf("%s is declared more than once in the function: pass f.Fuzz a function literal", e.Name)
		case len(seen) == 1 && seen[0].fd == nil:
			return nil, fmt.Errorf("%s is a local or parameter whose function type gfz-build cannot read (a range or type switch variable, or of a type such as any): pass f.Fuzz a function literal", e.Name)
		case len(seen) == 1:
			return []funcDecl{*seen[0].fd}, nil
		}
		fd, ok := d.funcs[e.Name]
		if !ok {
			return nil, errNotDeclared
		}
		if fd == nil {
			return nil, fmt.Errorf("%s is declared more than once in the package", e.Name)
		}
		return []funcDecl{*fd}, nil
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && ref.imports[x.Name] {
			return nil, fmt.Errorf("cannot read the argument types of %s, a function of another package: pass f.Fuzz a function literal calling it", exprString(ref.fn))
		}
		if !final {
			return nil, errNotDeclared
		}
		var plain, generic []funcDecl
		for _, m := range d.methods[e.Sel.Name] {
			if m.generic {
				generic = append(generic, m)
			} else {
				plain = append(plain, m)
			}
		}
		switch {
		case len(plain) > 0:
			return plain, nil
		case len(generic) > 0:
			return nil, fmt.Errorf("%s is a method of a generic type, whose argument types gfz-build cannot read: pass f.Fuzz a function literal calling it", exprString(ref.fn))
		}
		return nil, errNotDeclared
	}
	return nil, fmt.Errorf("%s is neither a function literal nor a name", exprString(ref.fn))
}

// argTypes returns the native argument types of the function ref names
// (nativeArgTypes' work on the declarations found by lookup): one set of
// types, or an error when the methods it may name disagree. Unless final
// (d is the whole package's), a name or an argument type d does not
// declare is errNotDeclared; when final, it is an error saying what
// gfz-build can read.
func (d *funcDecls) argTypes(ref fnRef, final bool) (string, error) {
	fds, err := d.lookup(ref, final)
	if err != nil {
		if final && errors.Is(err, errNotDeclared) {
			err = unreadable(ref.fn)
		}
		return "", err
	}
	types := ""
	for i, fd := range fds {
		if fd.ft == nil {
			if fd.ft = d.funcTypes[fd.named]; fd.ft == nil {
				if !final {
					return "", errNotDeclared
				}
				return "", fmt.Errorf("%s has type %s, which is not a function type gfz-build can read: pass f.Fuzz a function literal", exprString(ref.fn), fd.named)
			}
			fd.testing = d.funcTest[fd.named]
		}
		t, err := nativeArgTypes(fd.ft, d.aliases, fd.testing, final)
		if err != nil {
			return "", err
		}
		if i > 0 && t != types {
			return "", fmt.Errorf("the package declares several methods %s with different arguments (%s, %s): pass f.Fuzz a function literal calling the one you mean", exprString(ref.fn), types, t)
		}
		types = t
	}
	return types, nil
}

// importNames are the names the imports of file f may go by: their own
// names, or the last element of their path, without a major version
// suffix (.v3, /v2) or a go- prefix or -go suffix.
func importNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		if imp.Name != nil {
			names[imp.Name.Name] = true
			continue
		}
		path := strings.Trim(imp.Path.Value, "`\"")
		parts := strings.Split(path, "/")
		last := parts[len(parts)-1]
		if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
			last = parts[len(parts)-2]
		}
		if i := strings.Index(last, ".v"); i > 0 {
			last = last[:i]
		}
		last = strings.TrimSuffix(strings.TrimPrefix(last, "go-"), "-go")
		names[last] = true
	}
	return names
}

// unreadable is the error for a function whose declaration gfz-build does
// not find.
func unreadable(fn ast.Expr) error {
	return fmt.Errorf("cannot read the argument types of %s: gfz-build reads them from a function literal, a function, method or function variable of the package, or a local variable holding a function literal", exprString(fn))
}
