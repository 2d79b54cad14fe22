// Package starlarkrangestep pins go.starlark.net at
// v0.0.0-20260908191801-89a6a09411d5 (the newest version the module proxy
// serves; the module has no tagged releases), whose interpreter panics
// ("rangeLen: zero step") when a program slices a range value with a
// step that, multiplied by the range's own step, overflows int to
// exactly zero, as the report's
//
//	range(1)[::8192][::8192][::8192][::8192][::8192]
//
// (8192 to the fifth is 2 to the 65th) or range(0, 1, 1 << 62)[::4]:
// rangeValue.Slice multiplies the two steps without checking for
// overflow, and rangeLen, which requires a non-zero step, panics on the
// product. range() checks its own step for zero and the slice operator
// its step, but not their product. Reported as
// https://github.com/google/starlark-go/issues/168 (2019, found by
// fuzzing); still open, no fixed version.
//
// A semantic bug of the evaluator: the program must parse, resolve and
// run up to a slice expression (with a step) of a range value whose steps
// multiply to a multiple of 2 to the 64th; a chain of slices, or a range
// made with a large step, then sliced.
package starlarkrangestep

import (
	"example.com/bugkit"
	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Issue is the upstream report.
const Issue = "https://github.com/google/starlark-go/issues/168"

// Site is the explicit panic of rangeLen (library.go:876, inlined) when
// it is called by rangeValue.Slice (range_ checks its step first, so
// rangeLen panics only there), whatever evaluates the slice expression.
var Site = bugkit.Site{
	Func:    "go.starlark.net/starlark.rangeLen",
	File:    "library.go",
	Lines:   []int{876},
	Callers: []string{"go.starlark.net/starlark.rangeValue.Slice"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Options are the dialect the host accepts: the resolver options the
// project's own tests turn on (sets, while loops, control statements at
// top level, reassignment of globals); recursion stays forbidden.
var Options = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}

// MaxSteps bounds a run: a program that loops longer stops with an error.
const MaxSteps = 100000

// Var is a value the host predeclares for the program.
type Var struct {
	Name, Kind string // Kind as gens.StarlarkVar spells it
}

// Vars are the host's predeclared values, besides the json and math
// modules (go.starlark.net/lib).
var Vars = []Var{
	{"input", "string"},
	{"nums", "list"},
	{"opts", "dict"},
	{"limit", "int"},
	{"ratio", "float"},
	{"debug", "bool"},
}

// Modules are the library modules the host predeclares.
var Modules = []string{"json", "math"}

func predeclared() starlark.StringDict {
	opts := starlark.NewDict(3)
	_ = opts.SetKey(starlark.String("name"), starlark.String("demo"))
	_ = opts.SetKey(starlark.String("limit"), starlark.MakeInt(3))
	_ = opts.SetKey(starlark.String("tags"), starlark.NewList([]starlark.Value{starlark.String("a"), starlark.String("b")}))
	return starlark.StringDict{
		"input": starlark.String("alpha,beta,gamma"),
		"nums":  starlark.NewList([]starlark.Value{starlark.MakeInt(3), starlark.MakeInt(1), starlark.MakeInt(4), starlark.MakeInt(1), starlark.MakeInt(5)}),
		"opts":  opts,
		"limit": starlark.MakeInt(10),
		"ratio": starlark.Float(0.5),
		"debug": starlark.False,
		"json":  json.Module,
		"math":  math.Module,
	}
}

// Run executes a Starlark program as a program embedding the interpreter
// does (ExecFileOptions): the host's dialect and predeclared values, a
// thread whose print goes nowhere and whose run is bounded by MaxSteps;
// it returns the program's globals.
func Run(src string) (starlark.StringDict, error) {
	thread := &starlark.Thread{Name: "main", Print: func(*starlark.Thread, string) {}}
	thread.SetMaxExecutionSteps(MaxSteps)
	return starlark.ExecFileOptions(Options, thread, "main.star", src, predeclared())
}
