package build

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
)

// The declarations a native target's f.Fuzz argument may name: gfz-build
// reads its argument types from syntax, without type-checking the test
// package, so it looks the function up by name, first in the enclosing
// function (a local variable holding a function literal, or declared of a
// function type), then in the file, and, when the file does not declare
// it, in every file of the package (nativeScan): a top-level function, a
// package-level variable of a function type or holding a function
// literal, or a method value (x.m, when every method m of the package has
// the same arguments).

// funcDecl is a declared function type, with the name under which the
// declaring file imports package testing (its *testing.T is checked
// against that name).
type funcDecl struct {
	ft      *ast.FuncType
	testing string
}

// funcDecls are the function declarations of one file or of a whole
// package (merged per package clause).
type funcDecls struct {
	funcs   map[string]*funcDecl // top-level functions and package-level function variables (nil: declared twice)
	methods map[string][]funcDecl
	aliases map[string]ast.Expr // type A = T: go test sees T
}

func newFuncDecls() *funcDecls {
	return &funcDecls{funcs: map[string]*funcDecl{}, methods: map[string][]funcDecl{}, aliases: map[string]ast.Expr{}}
}

// addFile adds file f's top-level declarations; testingName is the name
// under which f imports package testing ("" if it does not).
func (d *funcDecls) addFile(f *ast.File, testingName string) {
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			fd := funcDecl{decl.Type, testingName}
			if decl.Recv == nil {
				d.add(decl.Name.Name, &fd)
			} else if decl.Type.TypeParams == nil {
				d.methods[decl.Name.Name] = append(d.methods[decl.Name.Name], fd)
			}
		case *ast.GenDecl:
			for _, sp := range decl.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					if sp.Assign.IsValid() && sp.TypeParams == nil {
						d.aliases[sp.Name.Name] = sp.Type
					}
				case *ast.ValueSpec:
					if decl.Tok == token.VAR {
						for i, name := range sp.Names {
							if ft := varFuncType(sp, i); ft != nil {
								d.add(name.Name, &funcDecl{ft, testingName})
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
}

// varFuncType is the function type of the i-th name of a var spec: its
// declared type, or its value's when the value is a function literal.
func varFuncType(sp *ast.ValueSpec, i int) *ast.FuncType {
	if sp.Type != nil {
		ft, _ := unparen(sp.Type).(*ast.FuncType)
		return ft
	}
	if len(sp.Values) == len(sp.Names) {
		if lit, ok := unparen(sp.Values[i]).(*ast.FuncLit); ok {
			return lit.Type
		}
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

// localFuncs returns the function-typed parameters and local variables of
// a function declaration: a parameter fn func(...), x := func(...) {...},
// var x = func(...) {...} and var x func(...). A name declared twice in
// the function is ambiguous (nil), whatever the scopes, and so is a local
// of another type (it may shadow a package-level function).
func localFuncs(fd *ast.FuncDecl, testingName string) map[string]*funcDecl {
	locals := map[string]*funcDecl{}
	add := func(name string, ft *ast.FuncType) {
		if name == "_" {
			return
		}
		if _, dup := locals[name]; dup || ft == nil {
			locals[name] = nil
			return
		}
		locals[name] = &funcDecl{ft, testingName}
	}
	for _, p := range fd.Type.Params.List {
		ft, _ := unparen(p.Type).(*ast.FuncType)
		for _, name := range p.Names {
			add(name.Name, ft)
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				var ft *ast.FuncType
				if len(n.Rhs) == len(n.Lhs) {
					if lit, ok := unparen(n.Rhs[i]).(*ast.FuncLit); ok {
						ft = lit.Type
					}
				}
				add(id.Name, ft)
			}
		case *ast.DeclStmt:
			g, ok := n.Decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				return true
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, name := range vs.Names {
					add(name.Name, varFuncType(vs, i))
				}
			}
		case *ast.FuncLit:
			for _, p := range n.Type.Params.List {
				for _, name := range p.Names {
					add(name.Name, nil) // a parameter shadowing a name
				}
			}
		}
		return true
	})
	return locals
}

// errNotDeclared is nativeArgTypes' error for a function not found in the
// declarations it was given (nativeScan looks again in the package's).
var errNotDeclared = errors.New("not declared here")

// lookup returns the function types fn may name: a function literal, a
// local (locals), a function or variable of d, or a method value x.m (every
// method m of d). It returns errNotDeclared when d does not declare the
// name, or, unless final, for a method value (other files may declare
// more methods of that name), and another error when fn cannot be
// resolved at all.
func (d *funcDecls) lookup(fn ast.Expr, locals map[string]*funcDecl, testingName string, final bool) ([]funcDecl, error) {
	switch e := unparen(fn).(type) {
	case *ast.FuncLit:
		return []funcDecl{{e.Type, testingName}}, nil
	case *ast.Ident:
		if fd, ok := locals[e.Name]; ok {
			if fd == nil {
				return nil, fmt.Errorf("%s is declared more than once in the function, or not as a function literal", e.Name)
			}
			return []funcDecl{*fd}, nil
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
		if ms := d.methods[e.Sel.Name]; len(ms) > 0 && final {
			return ms, nil
		}
		return nil, errNotDeclared
	}
	return nil, fmt.Errorf("%s is neither a function literal nor a name", exprString(fn))
}

// argTypes returns the native argument types of the function fn names
// (nativeArgTypes' work on the declarations found by lookup): one set of
// types, or an error when the methods fn may name disagree. Unless final
// (d is the whole package's), a name or an argument type d does not
// declare is errNotDeclared; when final, it is an error saying what
// gfz-build can read.
func (d *funcDecls) argTypes(fn ast.Expr, locals map[string]*funcDecl, testingName string, final bool) (string, error) {
	fds, err := d.lookup(fn, locals, testingName, final)
	if err != nil {
		if final && errors.Is(err, errNotDeclared) {
			err = unreadable(fn)
		}
		return "", err
	}
	types := ""
	for i, fd := range fds {
		t, err := nativeArgTypes(fd.ft, d.aliases, fd.testing, final)
		if err != nil {
			return "", err
		}
		if i > 0 && t != types {
			return "", fmt.Errorf("the package declares several methods %s with different arguments (%s, %s): pass a function literal calling the one you mean", exprString(fn), types, t)
		}
		types = t
	}
	return types, nil
}

// unreadable is the error for a function whose declaration gfz-build does
// not find.
func unreadable(fn ast.Expr) error {
	return fmt.Errorf("cannot read the argument types of %s: gfz-build reads them from a function literal, a function, method or function variable of the package, or a local variable holding a function literal", exprString(fn))
}
