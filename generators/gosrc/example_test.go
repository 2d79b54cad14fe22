package gosrc_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gosrc"
	"github.com/gfz-dev/gfz/param"
)

func ExampleFile() {
	g := gosrc.File(gosrc.Config{MaxDecls: 3, MaxStmts: 2})
	src := g.Draw(gfz.NewT(param.New([]byte{2, 0, 1, 1, 0, 5, 1, 1, 0, 2, 1, 0, 0, 0, 3}, 0)))
	fmt.Print(src)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		panic(err)
	}
	_, err = (&types.Config{}).Check("p", fset, []*ast.File{f}, nil)
	fmt.Println("type-checks:", err == nil)
	// Output:
	// package p
	//
	// type S1 struct {
	// 	f0 float64
	// 	f1 int
	// }
	//
	// func f2(a0 float64) {
	// 	v3 := 3
	// 	_ = v3
	// 	var v4 float64 = ((a0 / float64(v3)) / 6.5)
	// 	_ = v4
	// }
	//
	// func f5(a0 S1, a1 string, a2 string) {
	// }
	// type-checks: true
}
