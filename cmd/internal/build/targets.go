package build

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// GfzPath is the import path of package gfz.
const GfzPath = "github.com/gfz-dev/gfz"

// FuzzTargets returns the names of the gfz fuzz targets declared in the
// given _test.go source: functions FuzzXxx(f *testing.F) whose body calls
// gfz.Fuzz (under whatever name package gfz is imported). Detection is
// static; nothing is type-checked.
func FuzzTargets(filename string, src any) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	gfzName, testingName := ImportName(f, GfzPath, "gfz"), ImportName(f, "testing", "testing")
	if gfzName == "" || gfzName == "_" || testingName == "" {
		return nil, nil
	}
	var targets []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !isFuzzName(fd.Name.Name) {
			continue
		}
		if fd.Type.TypeParams != nil || len(fd.Type.Params.List) != 1 || len(fd.Type.Params.List[0].Names) > 1 {
			continue
		}
		star, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr)
		if !ok || !IsSelector(star.X, testingName, "F") {
			continue
		}
		calls := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				fun := c.Fun
				if ix, ok := fun.(*ast.IndexExpr); ok { // gfz.Fuzz[T](...)
					fun = ix.X
				} else if ix, ok := fun.(*ast.IndexListExpr); ok {
					fun = ix.X
				}
				if IsSelector(fun, gfzName, "Fuzz") {
					calls = true
				}
			}
			return !calls
		})
		if calls {
			targets = append(targets, fd.Name.Name)
		}
	}
	return targets, nil
}

// isFuzzName reports whether name is Fuzz or FuzzXxx with Xxx not starting
// with a lower-case letter (the go test rule).
func isFuzzName(name string) bool {
	if !strings.HasPrefix(name, "Fuzz") {
		return false
	}
	rest := name[len("Fuzz"):]
	return rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')
}

// ImportName returns the name under which file f imports path: its local
// name if it has one, def otherwise, or "" when f does not import path.
func ImportName(f *ast.File, path, def string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != path {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return def
	}
	return ""
}

// IsSelector reports whether e is the selector pkg.name, pkg being an
// identifier (an imported package's local name).
func IsSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || pkg == "" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}
