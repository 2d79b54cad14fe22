// Package tengodeadcode pins github.com/d5/tengo/v2 v2.10.1, whose
// compiler panics ("invalid jump position: 0") when it removes dead code
// from a function in which a bare "return" statement directly follows a
// block whose code ends in a return, as
//
//	f := func(a) {
//		if a > 0 {
//			return
//		}
//		return
//	}
//
// (or a for or for-in loop whose body returns, or a nested if): the
// optimizer's dead-code pass (optimizeFunc) tests for OpReturn before it
// tests whether the instruction is a jump target, so the bare return,
// which is the if's (or the loop's) jump destination and follows a
// return, is dropped as unreachable; the jump then points at no
// instruction and the pass that rewrites jump positions panics.
// Reported as https://github.com/d5/tengo/issues/376 (on v2.10.0), fixed
// in v2.11.0 by pull request #378 ("fix deadcode optimization", commit
// 71459c4), which tests for a jump target first.
//
// A semantic bug of the compiler: the script must parse and resolve, the
// statements must sit in a function, and the bare return must come right
// after the block that returns.
package tengodeadcode

import (
	"context"
	"time"

	"example.com/bugkit"
	"github.com/d5/tengo/v2"
	"github.com/d5/tengo/v2/stdlib"
)

// Issue is the upstream report.
const Issue = "https://github.com/d5/tengo/issues/376"

// Site is the panic in the closure of optimizeFunc's third pass (the
// rewriting of jump positions, compiler.go:1261), called through
// iterateInstructions by optimizeFunc, whatever compiles the function
// (the main script, an imported source module).
var Site = bugkit.Site{
	Func:    "github.com/d5/tengo/v2.(*Compiler).optimizeFunc.func3",
	File:    "compiler.go",
	Lines:   []int{1261},
	Callers: []string{"github.com/d5/tengo/v2.iterateInstructions", "github.com/d5/tengo/v2.(*Compiler).optimizeFunc"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Modules are the standard library modules the host lets scripts import:
// all but os (files, processes) and rand.
var Modules = []string{"fmt", "math", "text", "times", "enum", "json", "base64", "hex"}

// Var is a variable the host defines for the script.
type Var struct {
	Name, Kind string // Kind as gens.TengoVar spells it
	Value      any
}

// Vars are the host's variables, in the order they are added.
var Vars = []Var{
	{"input", "string", "alpha,beta,gamma"},
	{"nums", "array", []any{3, 1, 4, 1, 5}},
	{"opts", "map", map[string]any{"name": "demo", "limit": 3, "tags": []any{"a", "b"}}},
	{"limit", "int", 10},
	{"ratio", "float", 0.5},
	{"debug", "bool", false},
}

// Out is the variable the host reads after the run.
const Out = "out"

// Limits of a run: a script that loops or allocates too much stops with
// an error.
const (
	Timeout   = 100 * time.Millisecond
	MaxAllocs = 5000
)

func init() {
	// As an embedder bounds what a script can build (the limits are
	// package variables, documented as such).
	tengo.MaxStringLen = 1 << 16
	tengo.MaxBytesLen = 1 << 16
}

// Run compiles and runs a script as a program embedding Tengo does: the
// allowed standard library modules, the host's variables, an allocation
// limit and a timeout (RunContext), then it reads Out.
func Run(src string) (any, error) {
	s := tengo.NewScript([]byte(src))
	s.SetImports(stdlib.GetModuleMap(Modules...))
	s.SetMaxAllocs(MaxAllocs)
	for _, v := range Vars {
		if err := s.Add(v.Name, v.Value); err != nil {
			return nil, err
		}
	}
	if err := s.Add(Out, nil); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	c, err := s.RunContext(ctx)
	if err != nil {
		return nil, err
	}
	return c.Get(Out).Value(), nil
}
