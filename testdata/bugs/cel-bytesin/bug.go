// Package celbytesin pins github.com/google/cel-go v0.13.0, whose planner
// panics ("hash of unhashable type types.Bytes") when a program is built
// with the optimizer on (cel.EvalOptions(cel.OptOptimize)) for an
// expression with a membership test against a list literal of constants
// that holds a bytes value, as
//
//	payload in [b'hello', b'world']
//
// The optimizer folds a list literal whose elements are all constants
// into a constant list, then turns an "in" against a constant list into a
// lookup in a Go map keyed by the list's values (maybeOptimizeSetMembership).
// It checks that each element is of a primitive type, and bytes is one, but
// a types.Bytes is a []byte, which cannot be a map key: storing it panics.
// Every element before the first bytes value must be a primitive constant
// too (a list or a map among them turns the optimization off). Fixed in
// v0.14.0 by https://github.com/google/cel-go/pull/652 ("Fix panic in
// optimized set membership test for byte values"), which leaves lists
// holding bytes unoptimized.
//
// A planner bug of a particular shape: the expression must type-check,
// and the bytes literal must sit in a constant list literal that is the
// right operand of "in", anywhere in the expression (inside a macro's
// predicate too); the panic is in env.Program, before any evaluation (the
// evaluator's own recovery does not cover it).
package celbytesin

import (
	"fmt"
	"strings"
	"time"

	"example.com/bugkit"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
)

// Issue is the upstream fix (its description is the report: no issue was
// filed).
const Issue = "https://github.com/google/cel-go/pull/652"

// Site is the store of a list element into the membership map
// (decorators.go:231), whatever program the "in" is part of.
var Site = bugkit.Site{Func: "github.com/google/cel-go/interpreter.maybeOptimizeSetMembership", File: "decorators.go", Lines: []int{231}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Var is a variable the host declares for the expressions, with the value
// it binds at evaluation.
type Var struct {
	Name, Type string // Type as gens.CELVar spells it
	Value      any
}

// Vars are the request attributes an authorization or admission policy
// sees.
var Vars = []Var{
	{"name", "string", "alice"},
	{"group", "string", "admin"},
	{"age", "int", int64(42)},
	{"quota", "uint", uint64(1024)},
	{"score", "double", 0.75},
	{"active", "bool", true},
	{"payload", "bytes", []byte("hello")},
	{"tags", "list(string)", []string{"dev", "prod"}},
	{"ports", "list(int)", []int64{80, 443}},
	{"labels", "map(string, string)", map[string]string{"env": "prod", "team": "core"}},
	{"limits", "map(string, int)", map[string]int64{"cpu": 2, "mem": 512}},
	{"created", "timestamp", time.Date(2023, 6, 15, 8, 0, 0, 0, time.UTC)},
	{"ttl", "duration", 90 * time.Minute},
	{"request", "map(string, dyn)", map[string]any{
		"path": "/v1/items", "method": "GET", "size": int64(3),
		"headers": map[string]any{"host": "example.com", "accept": "*/*"},
		"ids":     []any{int64(1), int64(2), int64(3)},
	}},
}

// Keys are the keys of the maps above; Words some of the strings they hold.
var (
	Keys  = []string{"env", "team", "cpu", "mem", "path", "method", "size", "headers", "ids", "host"}
	Words = []string{"alice", "admin", "dev", "prod", "core", "GET", "/v1/items", "example.com"}
)

// celType reads a type as Var spells it.
func celType(s string) *cel.Type {
	s = strings.TrimSpace(s)
	switch s {
	case "int":
		return cel.IntType
	case "uint":
		return cel.UintType
	case "double":
		return cel.DoubleType
	case "bool":
		return cel.BoolType
	case "string":
		return cel.StringType
	case "bytes":
		return cel.BytesType
	case "timestamp":
		return cel.TimestampType
	case "duration":
		return cel.DurationType
	}
	if strings.HasPrefix(s, "list(") && strings.HasSuffix(s, ")") {
		return cel.ListType(celType(s[5 : len(s)-1]))
	}
	if strings.HasPrefix(s, "map(") && strings.HasSuffix(s, ")") {
		k, v, _ := strings.Cut(s[4:len(s)-1], ",")
		return cel.MapType(celType(k), celType(v))
	}
	return cel.DynType
}

var env, input = newEnv()

func newEnv() (*cel.Env, map[string]any) {
	opts := []cel.EnvOption{ext.Strings(), ext.Encoders(), ext.Math()}
	in := map[string]any{}
	for _, v := range Vars {
		opts = append(opts, cel.Variable(v.Name, celType(v.Type)))
		in[v.Name] = v.Value
	}
	e, err := cel.NewEnv(opts...)
	if err != nil {
		panic(err)
	}
	return e, in
}

// CostLimit bounds an evaluation's work, as services that run users'
// expressions bound it.
const CostLimit = 1_000_000

// Eval does what a service that evaluates users' CEL expressions (access
// policies, admission rules, filters) does: it compiles (parses and
// type-checks) the expression against the declared variables with the
// strings, encoders and math extensions, builds a program with the
// optimizer on, as one does for an expression evaluated many times, and
// a cost limit, then evaluates it on the request.
func Eval(expr string) (ref.Val, error) {
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, iss.Err()
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.CostLimit(CostLimit))
	if err != nil {
		return nil, fmt.Errorf("program: %w", err)
	}
	out, _, err := prg.Eval(input)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return out, nil
}
