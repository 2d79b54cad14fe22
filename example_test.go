package gfz_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/param"
)

// parse is the code under test in the examples: it reads a list of digits.
func parse(digits []int) (int, error) {
	if len(digits) == 0 {
		return 0, fmt.Errorf("empty")
	}
	s := ""
	for _, d := range digits {
		s += strconv.Itoa(d)
	}
	return strconv.Atoi(s)
}

// A fuzz target is an ordinary Go fuzz test that hands a function of *gfz.T
// to gfz.Fuzz. It runs under go test, go test -fuzz, and as a gfz fuzz
// binary.
func ExampleFuzz() {
	var f *testing.F // the argument of func FuzzParse(f *testing.F)
	if f == nil {
		return // (this example only shows the shape of a target)
	}
	f.Add([]byte{3, 1, 2, 3}) // a seed: a parameter sequence
	gfz.Fuzz(f, func(t *gfz.T) {
		digits := gen.SliceOf(gen.IntRange(0, 9), 0, 12).Named("digits").Draw(t)
		n, err := parse(digits)
		t.Assume(err == nil) // invalid input: not a failure
		if n < 0 {
			t.Fatalf("parse(%v) = %d", digits, n)
		}
	})
}

// NewT gives a T over a fixed parameter sequence, outside any fuzz target:
// handy to see what a generator makes of some bytes.
func ExampleNewT() {
	t := gfz.NewT(param.New([]byte{3, 1, 2, 3}, 0))
	digits := gen.SliceOf(gen.IntRange(0, 9), 0, 12).Named("digits").Draw(t)
	n, err := parse(digits)
	fmt.Println(n, err)
	fmt.Print(t.Values())
	fmt.Println(t.Source().Pos(), "bytes consumed")
	// Output:
	// 123 <nil>
	// digits = []int{1, 2, 3}
	// 4 bytes consumed
}

// Generator authors draw from the source directly, tagging each draw as
// structure or value and opening a span per generator call.
func ExampleT_Source() {
	t := gfz.NewT(param.New([]byte{2, 'o', 'k'}, 0))
	src := t.Source()
	src.Begin("word")
	n := src.Range(0, 8, param.Structure) // the length: a structure draw
	word := string(src.Bytes(int(n)))     // the letters: one value draw
	src.End()
	fmt.Println(word, len(src.Record().Draws), "draws")
	// Output: ok 2 draws
}
