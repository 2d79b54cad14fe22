package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestCmpStdSourceNoShadowable: the recording helpers copied into
// instrumented standard-library packages call no predeclared function a
// package may declare itself: math declares min and max, and -cover math
// with comparison probes did not build ("too many arguments in call to
// min").
func TestCmpStdSourceNoShadowable(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "zz.go", "package p\n\n"+cmpStdSource, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && (id.Name == "min" || id.Name == "max" || id.Name == "clear") {
				t.Errorf("the std helpers call %s, which math (or another package) may shadow", id.Name)
			}
		}
		return true
	})
}
