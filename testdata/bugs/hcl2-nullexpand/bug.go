// Package hcl2nullexpand pins github.com/hashicorp/hcl/v2 v2.5.1, where
// evaluating a function call whose last argument is expanded with "..."
// panics when the function rejects an argument that came from the
// expansion (a null element past the call's written arguments, as in
// concat([1, null]...)): the error path indexes the written arguments
// with the expanded argument's position:
// https://github.com/hashicorp/hcl/pull/386 (fixed in v2.6.0).
//
// Reaching it takes a program that evaluates expressions (parsing alone,
// what the project's go-fuzz targets do, never calls a function), an
// expansion of a collection whose element past the call's written
// arguments the function rejects (a null, or a value of the wrong type:
// format([1, var.items]...)).
package hcl2nullexpand

import (
	"sort"

	"example.com/bugkit"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Issue is the upstream report (the fix's pull request).
const Issue = "https://github.com/hashicorp/hcl/pull/386"

// Site is the index of the written arguments in the error path of
// FunctionCallExpr.Value.
var Site = bugkit.Site{Func: "github.com/hashicorp/hcl/v2/hclsyntax.(*FunctionCallExpr).Value", File: "expression.go", Lines: []int{409}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Vars are the variables of the evaluation context, as the generator
// spells their traversals.
var Vars = []string{"var.name", "var.count", "var.enabled", "var.tags", "var.ports", "var.nothing", "var.items", "var.labels", "local.prefix", "local.zones"}

// Funcs are the functions of the evaluation context.
var Funcs []string

var ctx = &hcl.EvalContext{
	Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{
			"name":    cty.StringVal("web"),
			"count":   cty.NumberIntVal(3),
			"enabled": cty.True,
			"tags":    cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			"ports":   cty.TupleVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
			"nothing": cty.NullVal(cty.String),
			"items": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.NumberIntVal(1)}),
				cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("b"), "size": cty.NumberIntVal(2)}),
			}),
			"labels": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "team": cty.StringVal("x")}),
		}),
		"local": cty.ObjectVal(map[string]cty.Value{
			"prefix": cty.StringVal("app-"),
			"zones":  cty.SetVal([]cty.Value{cty.StringVal("z1"), cty.StringVal("z2")}),
		}),
	},
	Functions: map[string]function.Function{
		"upper": stdlib.UpperFunc, "lower": stdlib.LowerFunc, "length": stdlib.LengthFunc,
		"concat": stdlib.ConcatFunc, "coalesce": stdlib.CoalesceFunc, "max": stdlib.MaxFunc,
		"min": stdlib.MinFunc, "abs": stdlib.AbsoluteFunc, "format": stdlib.FormatFunc,
		"formatlist": stdlib.FormatListFunc, "reverse": stdlib.ReverseFunc, "strlen": stdlib.StrlenFunc,
		"substr": stdlib.SubstrFunc, "range": stdlib.RangeFunc, "int": stdlib.IntFunc,
		"jsonencode": stdlib.JSONEncodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"setunion": stdlib.SetUnionFunc, "hasindex": stdlib.HasIndexFunc, "regex": stdlib.RegexFunc,
	},
}

func init() {
	for name := range ctx.Functions {
		Funcs = append(Funcs, name)
	}
	sort.Strings(Funcs) // a fixed order: the generator draws names by index
}

// Eval parses a configuration file and evaluates every attribute of it
// and of its nested blocks in a context of variables and functions, as a
// program reading an HCL configuration does.
func Eval(src []byte) (hcl.Diagnostics, error) {
	file, diags := hclsyntax.ParseConfig(src, "config.hcl", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return diags, diags
	}
	diags = append(diags, evalBody(file.Body.(*hclsyntax.Body))...)
	if diags.HasErrors() {
		return diags, diags
	}
	return diags, nil
}

func evalBody(b *hclsyntax.Body) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range b.Attributes {
		_, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
	}
	for _, blk := range b.Blocks {
		diags = append(diags, evalBody(blk.Body)...)
	}
	return diags
}
