package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// ExprConfig tunes Expr.
type ExprConfig struct {
	MaxDepth int // nesting of expressions; default 4
	// Names are the variables of the environment (any type); Funcs the
	// functions of the environment and the builtins the program allows.
	// Calls draw their callee from Funcs mostly and from Names sometimes
	// (the grammar lets any identifier be called; the type checker
	// decides). Empty: a few generic names.
	Names, Funcs []string
	// Fields are member names (struct fields, map keys, methods) member
	// accesses draw from; empty: a few generic names.
	Fields      []string
	MistakesPer int // per mille of expressions passed through Corrupt; default 0
}

func (c ExprConfig) withDefaults() ExprConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 4
	}
	if len(c.Names) == 0 {
		c.Names = []string{"a", "b", "c"}
	}
	if len(c.Funcs) == 0 {
		c.Funcs = []string{"len", "abs", "f"}
	}
	if len(c.Fields) == 0 {
		c.Fields = []string{"x", "y"}
	}
	return c
}

var (
	exprInt = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.IntRange(0, 100), func(n int) string { return itoa(n) })),
		gen.W(1, gen.Tokens("0", "1", "-1", "1_000", "0x1F", "0o17", "0b101", "9223372036854775807", "1e3", "1.5", ".5", "2.5e-3")),
	)
	exprStr = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.StringFrom("abcfoo bar", 0, 5), func(s string) string { return `"` + s + `"` })),
		gen.W(1, gen.Tokens(`"\n"`, `"\u00e9"`, `"\x41"`, `'single'`, `"a\"b"`, "`raw`", `""`, `"1"`, `"2006-01-02"`, `"1h"`, `"[a-z]+"`)),
	)
	exprUnary  = gen.Tokens("!", "not ", "-", "+")
	exprBinary = gen.Tokens("+", "-", "*", "/", "%", "**", "^", "==", "!=", "<", ">", "<=", ">=", "and", "or", "&&", "||",
		"in", "not in", "matches", "contains", "startsWith", "endsWith", "..", "??")
)

type exprWriter struct {
	t         *gfz.T
	cfg       ExprConfig
	predicate int // depth of enclosing predicates (closures where # and .field are allowed)
}

func (w *exprWriter) atom(depth int) string {
	switch gen.IntRange(0, 9).Draw(w.t) {
	case 0, 1:
		return exprInt.Draw(w.t)
	case 2:
		return exprStr.Draw(w.t)
	case 3:
		return gen.Tokens("true", "false", "nil").Draw(w.t)
	case 4:
		if w.predicate > 0 {
			return gen.Tokens("#", ".", "#index", "#.").Draw(w.t) + w.member()
		}
		fallthrough
	default:
		return gen.Tokens(w.cfg.Names...).Draw(w.t)
	}
}

func (w *exprWriter) member() string {
	return gen.Tokens(w.cfg.Fields...).Draw(w.t)
}

func (w *exprWriter) args(depth int) string {
	args := make([]string, gen.IntRange(0, 3).Draw(w.t))
	for i := range args {
		if w.predicate < 2 && gen.IntRange(0, 3).Draw(w.t) == 0 {
			// a predicate, with or without braces
			w.predicate++
			args[i] = w.expr(depth - 1)
			if gen.IntRange(0, 1).Draw(w.t) == 0 {
				args[i] = "{" + args[i] + "}"
			}
			w.predicate--
			continue
		}
		args[i] = w.expr(depth - 1)
	}
	return strings.Join(args, gen.Tokens(", ", ",").Draw(w.t))
}

// expr draws an expression of the expr language.
func (w *exprWriter) expr(depth int) string {
	if depth <= 0 {
		return w.atom(0)
	}
	switch gen.IntRange(0, 15).Draw(w.t) {
	case 0, 1, 2:
		return w.atom(depth)
	case 3, 4:
		callee := gen.Tokens(w.cfg.Funcs...).Draw(w.t)
		if gen.IntRange(0, 3).Draw(w.t) == 0 {
			callee = gen.Tokens(w.cfg.Names...).Draw(w.t)
		}
		return callee + "(" + w.args(depth) + ")"
	case 5:
		return w.expr(depth-1) + gen.Tokens(".", "?.").Draw(w.t) + w.member()
	case 6:
		return w.expr(depth-1) + "." + w.member() + "(" + w.args(depth) + ")"
	case 7:
		return w.expr(depth-1) + "[" + w.expr(depth-1) + "]"
	case 8:
		lo, hi := "", ""
		if gen.IntRange(0, 2).Draw(w.t) > 0 {
			lo = w.expr(depth - 1)
		}
		if gen.IntRange(0, 2).Draw(w.t) > 0 {
			hi = w.expr(depth - 1)
		}
		return w.expr(depth-1) + "[" + lo + ":" + hi + "]"
	case 9:
		return exprUnary.Draw(w.t) + w.expr(depth-1)
	case 10, 11:
		return w.expr(depth-1) + " " + exprBinary.Draw(w.t) + " " + w.expr(depth-1)
	case 12:
		return w.expr(depth-1) + " ? " + w.expr(depth-1) + " : " + w.expr(depth-1)
	case 13:
		items := make([]string, gen.IntRange(0, 3).Draw(w.t))
		for i := range items {
			items[i] = w.expr(depth - 1)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case 14:
		items := make([]string, gen.IntRange(0, 3).Draw(w.t))
		for i := range items {
			key := w.member()
			if gen.IntRange(0, 2).Draw(w.t) == 0 {
				key = exprStr.Draw(w.t)
			}
			items[i] = key + ": " + w.expr(depth-1)
		}
		return "{" + strings.Join(items, ", ") + "}"
	default:
		if gen.IntRange(0, 1).Draw(w.t) == 0 {
			return "(" + w.expr(depth-1) + ")"
		}
		return w.expr(depth-1) + " | " + gen.Tokens(w.cfg.Funcs...).Draw(w.t) + "(" + w.args(depth) + ")"
	}
}

// Expr generates expressions of the expr language
// (github.com/expr-lang/expr): integer, float and string literals, true,
// false and nil, variables of Names, calls (mostly of Funcs, sometimes of
// Names), closures {...} with # and .field inside them, member access
// with . and ?., method calls, index and slice expressions, unary,
// binary (arithmetic, comparison, logic, in, matches, string operators,
// ranges, ??) and conditional operators, array and map literals,
// parentheses and pipes; MistakesPer per mille go through Corrupt.
func Expr(cfg ExprConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &exprWriter{t: t, cfg: cfg}
		return Corrupt(t, w.expr(cfg.MaxDepth), cfg.MistakesPer)
	})
}
