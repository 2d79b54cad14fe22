package bench_test

import (
	"fmt"

	"github.com/gfz-dev/gfz/cmd/internal/bench"
)

// A target names a package directory and a gfz fuzz target, optionally
// followed by the packages whose coverage the harness measures (and gfz
// instruments). Run takes a list of them.
func ExampleParseTarget() {
	t, err := bench.ParseTarget("testdata/targets/gotypes:FuzzGoTypes:go/scanner,go/parser,go/types")
	if err != nil {
		panic(err)
	}
	fmt.Println(t, t.Cover)
	// Output: gotypes.FuzzGoTypes [go/scanner go/parser go/types]
}
