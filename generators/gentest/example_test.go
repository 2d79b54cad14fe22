package gentest_test

import (
	"fmt"

	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/generators/gentest"
)

// A generator replays exactly from the bytes a draw consumed.
func ExampleRoundTrip() {
	g := gen.SliceOf(gen.IntRange(0, 9), 0, 4)
	rt := gentest.RoundTrip(g, []byte{2, 7, 3}, 1, 2)
	fmt.Println(rt.First, rt.Second, rt.Consumed, rt.SameBytes)
	// Output: [7 3] [7 3] [2 7 3] true
}
