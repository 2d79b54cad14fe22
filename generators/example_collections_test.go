package generators_test

import (
	"fmt"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// One byte per swap: index 0 swaps with 0+2, index 1 with 1+0 (no swap),
// index 2 with 2+1.
func ExamplePermutation() {
	steps := gen.Permutation([]string{"open", "write", "sync", "close"})
	t := gfz.NewT(param.New([]byte{2, 0, 1}, 0))
	fmt.Println(steps.Draw(t))
	// Output: [sync write close open]
}

// The length (4) comes first; the repeated 7 is dropped, its byte read.
func ExampleSliceOfDistinct() {
	ids := gen.SliceOfDistinct(gen.IntRange(0, 9), 0, 8)
	t := gfz.NewT(param.New([]byte{4, 7, 3, 7, 1, 8}, 0))
	fmt.Println(ids.Draw(t))
	// Output: [7 3 1 8]
}

// Distinct by a key: no two users share a name, whatever their ages. The
// length is 2; the second bob drawn is dropped.
func ExampleSliceOfDistinctBy() {
	type user struct {
		Name string
		Age  int
	}
	users := gen.SliceOfDistinctBy(gen.Map(gen.Zip(gen.SampledFrom("ann", "bob", "cy"), gen.IntRange(18, 99)),
		func(p gen.Tuple2[string, int]) user { return user{p.A, p.B} }),
		func(u user) string { return u.Name }, 1, 3)
	t := gfz.NewT(param.New([]byte{1, 1, 12, 1, 40, 0, 2}, 0))
	fmt.Printf("%+v\n", users.Draw(t))
	// Output: [{Name:bob Age:30} {Name:ann Age:20}]
}

// A map from each value's key (here its length) to the value: length 2;
// "a", then "b", which has the key of "a" and is dropped, then "bba".
func ExampleMapOfValues() {
	byLen := gen.MapOfValues(gen.StringFrom("ab", 1, 3), func(s string) int { return len(s) }, 0, 3)
	t := gfz.NewT(param.New([]byte{2, 0, 0, 0, 1, 2, 1, 1, 0}, 0))
	fmt.Println(byLen.Draw(t))
	// Output: map[1:a 3:bba]
}

type Expr struct {
	Num  int
	Body []Stmt // a block expression { stmts } when not nil
}

type Stmt struct {
	Name  string
	Value Expr
}

func (e Expr) String() string {
	if e.Body == nil {
		return fmt.Sprint(e.Num)
	}
	var parts []string
	for _, s := range e.Body {
		parts = append(parts, s.String())
	}
	return "{ " + strings.Join(parts, "; ") + " }"
}

func (s Stmt) String() string { return s.Name + " := " + s.Value.String() }

// Expressions contain statements (block expressions) and statements
// contain expressions: the expression generator, defined first, reaches
// the statement generator through Deferred, which looks it up at the first
// draw. The literal is OneOf's first alternative, so zero bytes end the
// recursion.
func ExampleDeferred() {
	var expr gen.Generator[Expr]
	var stmt gen.Generator[Stmt]
	expr = gen.OneOf(
		gen.Map(gen.IntRange(0, 9), func(n int) Expr { return Expr{Num: n} }),
		gen.Map(gen.SliceOf(gen.Deferred(func() gen.Generator[Stmt] { return stmt }), 1, 3),
			func(body []Stmt) Expr { return Expr{Body: body} }),
	)
	stmt = gen.Custom(func(t *gfz.T) Stmt {
		return Stmt{Name: gen.StringFrom("xyz", 1, 1).Draw(t), Value: expr.Draw(t)}
	})
	t := gfz.NewT(param.New([]byte{1, 1, 0, 0, 4, 1, 1, 0, 2, 0, 7}, 0))
	fmt.Println(expr.Draw(t))
	// Output: { x := 4; y := { z := 7 } }
}
