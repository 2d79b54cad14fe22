package exprnilcall

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the project's fuzz target at this version
// (test/fuzz/fuzz_test.go, FuzzExpr: compile against the environment,
// run) on this module's environment, seeded with lines of the project's
// fuzz corpus (test/fuzz/fuzz_corpus.txt). The project's target also
// fails on runtime errors outside a list; here only a crash fails.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"!!(half != greet)",
		"!!(nil == add)",
		"!(\"bar\" < \"foo\")",
		"add(i, 1) > 0 ? foo.Bar : \"x\"",
		"all(list, {.Bar != \"\"})",
		"array[1:3]",
		"count(array, # > 2) + len(list)",
		"filter(list, .Bar startsWith \"b\")",
		"foo.Qux(\"bar\") == \"barbar\"",
		"greet(\"world\") matches \"^H\"",
		"half(f64) ** 2 < f32",
		"map(array, # * i64)[0]",
		"score(1, 2, 3) in array",
		"upper(string(i32)) ?? \"x\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		_, _ = Eval(code)
	})
}

// FuzzGfz is the gfz target: expressions from the grammar generator over
// the environment's names, a fifth of them with near-miss edits; an
// expression that does not compile or run is an invalid input. No seeds:
// under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	code := gens.Expr(gens.ExprConfig{Names: Names, Funcs: Funcs, Fields: Fields, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Eval(code.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's expression, on the report's variable's
// counterpart.
const reproducer = "missing() > 0"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Eval(reproducer) }, "nil pointer dereference", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
