package generators_test

import (
	"fmt"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// Outside a fuzz target, gfz.NewT gives a T over any parameter sequence,
// which shows how bytes decode into values.
func ExampleIntRange() {
	t := gfz.NewT(param.New([]byte{5, 0x01, 0x02}, 0))
	fmt.Println(gen.IntRange(10, 20).Draw(t))  // one byte: 10 + 5 mod 11
	fmt.Println(gen.IntRange(0, 1000).Draw(t)) // two bytes, little-endian: 0x0201
	// Output:
	// 15
	// 513
}

func ExampleSliceOf() {
	// The length comes first (one byte for 0..20), then one byte per digit.
	t := gfz.NewT(param.New([]byte{3, 4, 2, 17}, 0))
	digits := gen.SliceOf(gen.IntRange(0, 9), 0, 20).Named("digits")
	fmt.Println(digits.Draw(t))
	fmt.Print(t.Values())
	// Output:
	// [4 2 7]
	// digits = []int{4, 2, 7}
}

func ExampleOneOf() {
	op := gen.OneOf(gen.Just("+"), gen.Just("-"), gen.Just("*"))
	t := gfz.NewT(param.New([]byte{2, 0, 1}, 0))
	fmt.Println(op.Draw(t), op.Draw(t), op.Draw(t))
	// Output: * + -
}

// expr is a recursive generator of arithmetic expressions.
func expr(depth int) gen.Generator[string] {
	return gen.Custom(func(t *gfz.T) string {
		if depth == 0 || !gen.Bool().Draw(t) {
			return fmt.Sprint(gen.IntRange(0, 9).Draw(t))
		}
		op := gen.OneOf(gen.Just("+"), gen.Just("*")).Draw(t)
		return "(" + expr(depth-1).Draw(t) + op + expr(depth-1).Draw(t) + ")"
	})
}

func ExampleCustom() {
	t := gfz.NewT(param.New([]byte{1, 1, 0, 3, 1, 0, 0, 4, 0, 5}, 0))
	fmt.Println(expr(3).Draw(t))
	// Output: (3*(4+5))
}

func ExampleStringFrom() {
	t := gfz.NewT(param.New([]byte{4, 0, 1, 1, 2}, 0))
	fmt.Println(gen.StringFrom("ab-", 0, 8).Draw(t))
	// Output: abb-
}

func ExampleMap() {
	upper := gen.Map(gen.StringFrom("xyz", 1, 3), strings.ToUpper)
	t := gfz.NewT(param.New([]byte{1, 2, 0}, 0))
	fmt.Println(upper.Draw(t))
	// Output: ZX
}

// A choice that decides the shape of what is generated, but which gfz
// would take for a value (here a Bool deciding whether an optional part is
// there), can be marked structural for the structure-aware engines (-engine
// ei, bediv, zeugma). The marks are visible in the source's record.
func ExampleGenerator_AsStructure() {
	src := param.New([]byte{1, 7}, 0)
	t := gfz.NewT(src)
	if gen.Bool().AsStructure().Draw(t) {
		gen.IntRange(0, 9).Draw(t)
	}
	for _, d := range src.Record().Draws {
		fmt.Println(src.Record().Spans[d.Span].Name, d.Kind)
	}
	// Output:
	// Bool structure
	// IntRange value
}
