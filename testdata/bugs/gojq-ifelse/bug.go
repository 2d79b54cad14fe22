// Package gojqifelse pins github.com/itchyny/gojq v0.12.5, where Compile
// panics (a nil pointer dereference) on an if-then-else whose then branch
// compiles to no instruction (the identity, ".") and whose else branch
// compiles to two, as in "if . then . else -1 end": the optimisation of
// constant branches in compileIf runs, in a deferred function, before the
// jump after the then branch is filled in, and reads that still empty
// instruction: https://github.com/itchyny/gojq/issues/138 (fixed in
// v0.12.6 by 9c96546b8193, "fix crash on branch optimization").
//
// A compiler bug: the program must parse, and the crash needs that shape
// of branches, not an input value.
package gojqifelse

import (
	"context"
	"encoding/json"
	"time"

	"example.com/bugkit"
	"github.com/itchyny/gojq"
)

// Issue is the upstream report.
const Issue = "https://github.com/itchyny/gojq/issues/138"

// Site is the read of c.codes[pcc+1].op in compileIf's deferred
// optimisation (its third closure), called by compileIf when it returns.
var Site = bugkit.Site{Func: "github.com/itchyny/gojq.(*compiler).compileIf.func3", File: "compiler.go", Lines: []int{674},
	Callers: []string{"github.com/itchyny/gojq.(*compiler).compileIf"}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Document is the JSON value the programs run on.
const Document = `{"foo": 1, "bar": [1, 2.5, "x", null, true], "a": {"b": {"c": "deep"}, "list": [{"name": "a", "n": 3}, {"name": "b", "n": -1}]}, "s": "hello, world", "t": "2015-03-05T23:51:47Z"}`

// Keys are the document's object keys, for the generator.
var Keys = []string{"foo", "bar", "a", "b", "c", "list", "name", "n", "s", "t", "missing"}

func document() any {
	var v any
	if err := json.Unmarshal([]byte(Document), &v); err != nil {
		panic(err)
	}
	return v
}

// Run parses and compiles a jq program and runs it on the document for at
// most 100 ms, as a tool or service that applies user-written filters
// does; it returns the outputs and the first error (the parse or compile
// error, or the first error value the program emits: like the project's
// fuzz target, it goes on iterating after an error, as the jq command does;
// it keeps the first 1,000 outputs).
func Run(src string) ([]any, error) {
	q, err := gojq.Parse(src)
	if err != nil {
		return nil, err
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	iter := code.RunWithContext(ctx, document())
	var out []any
	for {
		v, ok := iter.Next()
		if !ok {
			return out, err
		}
		if e, ok := v.(error); ok {
			if err == nil {
				err = e
			}
			continue
		}
		if len(out) < 1000 {
			out = append(out, v)
		}
	}
}
