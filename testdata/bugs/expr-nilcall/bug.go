// Package exprnilcall pins github.com/antonmedv/expr v1.15.3, where
// Compile panics (a nil pointer dereference in the type checker) when an
// expression calls an environment variable whose value is nil, as
// "foo() > 0" with env {"foo": nil}: the checker takes the variable's
// type as a function type without checking it is there:
// https://github.com/expr-lang/expr/issues/453 (fixed in v1.15.4 by
// dbbec97).
//
// A semantic bug: the expression must parse, name a nil-valued variable
// of the environment, and call it.
package exprnilcall

import (
	"example.com/bugkit"
	"github.com/antonmedv/expr"
)

// Issue is the upstream report.
const Issue = "https://github.com/expr-lang/expr/issues/453"

// Site is the dereference of the callee's type in the checker's CallNode.
var Site = bugkit.Site{Func: "github.com/antonmedv/expr/checker.(*checker).CallNode", File: "checker.go", Lines: []int{555}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Foo is a struct of the environment, as in the project's fuzz
// environment.
type Foo struct{ Bar string }

func (f Foo) String() string { return "foo" }

// Qux is a method expressions may call.
func (f Foo) Qux(s string) string { return f.Bar + s }

// NewEnv is the environment: the project's fuzz environment
// (test/fuzz/fuzz_env.go) plus a variable whose value is nil, as records
// decoded from JSON hold them ("missing", the report's "foo": nil).
func NewEnv() map[string]any {
	return map[string]any{
		"ok":      true,
		"f64":     .5,
		"f32":     float32(.5),
		"i":       1,
		"i64":     int64(1),
		"i32":     int32(1),
		"array":   []int{1, 2, 3, 4, 5},
		"list":    []Foo{{"bar"}, {"baz"}},
		"foo":     Foo{"bar"},
		"missing": nil,
		"add":     func(a, b int) int { return a + b },
		"div":     func(a, b int) int { return a / b },
		"half":    func(a float64) float64 { return a / 2 },
		"score": func(a int, x ...int) int {
			s := a
			for _, n := range x {
				s += n
			}
			return s
		},
		"greet": func(name string) string { return "Hello, " + name },
	}
}

// Names are the environment's variables that are not functions, Funcs
// its functions and the builtins, Fields the member names, as the
// generator draws them.
var (
	Names  = []string{"ok", "f64", "f32", "i", "i64", "i32", "array", "list", "foo", "missing"}
	Funcs  = []string{"add", "div", "half", "score", "greet", "len", "all", "any", "none", "one", "filter", "map", "count", "abs", "int", "float", "string", "upper", "lower", "trim", "split", "join", "first", "last", "keys", "values", "max", "min", "toJSON", "fromJSON", "duration", "date", "now"}
	Fields = []string{"Bar", "Qux", "String", "bar", "x"}
)

// Eval compiles an expression against the environment and runs it, as a
// rules engine evaluating user-written rules does.
func Eval(code string) (any, error) {
	env := NewEnv()
	program, err := expr.Compile(code, expr.Env(env))
	if err != nil {
		return nil, err
	}
	return expr.Run(program, env)
}
