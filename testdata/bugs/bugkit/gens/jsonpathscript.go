package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// JSONPathScriptConfig tunes JSONPathScript.
type JSONPathScriptConfig struct {
	MaxDepth    int      // nesting of formulas, filters and scripts; default 3
	MaxSteps    int      // steps after the root of a path; default 4
	Keys        []string // member names of the documents (drawn half of the time)
	MistakesPer int      // per mille of queries passed through Corrupt; default 0
}

func (c JSONPathScriptConfig) withDefaults() JSONPathScriptConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 4
	}
	if len(c.Keys) == 0 {
		c.Keys = []string{"a", "b", "c"}
	}
	return c
}

var (
	// jpsFuncs are the script engine's functions of one argument that
	// take any value or a number. rand and randint are left out: their
	// results differ from run to run. factorial is drawn apart, on small
	// literals.
	jpsFuncs = gen.Tokens("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "avg", "b64decode", "b64encode",
		"b64encoden", "cbrt", "ceil", "cos", "cosh", "erf", "erfc", "erfcinv", "erfinv", "exp", "exp2", "expm1",
		"first", "floor", "gamma", "is_array", "is_bool", "is_float", "is_int", "is_null", "is_numeric", "is_object",
		"is_string", "is_uint", "j0", "j1", "key", "last", "length", "log", "log10", "log1p", "log2", "logb", "not",
		"parent", "pow10", "root", "round", "roundtoeven", "sin", "sinh", "size", "sum", "sqrt", "tan", "tanh",
		"trunc", "y0", "y1")
	// jpsAggregates are the functions a formula most often applies to a
	// path (the documentation's examples).
	jpsAggregates = gen.Tokens("avg", "sum", "length", "size", "first", "last", "key", "parent", "root", "not",
		"is_array", "is_object", "is_string", "is_numeric", "round", "abs", "floor")
	jpsConstants = gen.Tokens("e", "pi", "phi", "sqrt2", "sqrte", "sqrtpi", "sqrtphi", "ln2", "log2e", "ln10", "log10e",
		"true", "false", "null", "PI", "True", "NULL")
	// jpsArith, jpsCompare and jpsLogic are the binary operators, by
	// precedence: ** ; * / % << >> & &^ ; + - | ^ ; comparisons and =~ ;
	// && ; ||.
	jpsArith   = gen.Tokens("**", "*", "/", "%", "<<", ">>", "&", "&^", "+", "-", "|", "^")
	jpsCompare = gen.Tokens("==", "!=", "<", "<=", ">", ">=", "=~")
	jpsLogic   = gen.Tokens("&&", "||")
	jpsNumber  = gen.OneOfWeighted(
		gen.W(5, gen.Map(gen.IntRange(0, 30), strconv.Itoa)),
		gen.W(2, gen.Map(gen.IntRange(-5, -1), strconv.Itoa)),
		gen.W(2, gen.Tokens("8.95", "12.99", "19.95", "0.5", "1e3", "2.5e-1", "-1.5", "100", "1000000", ".5")),
	)
	jpsText  = gen.StringFrom("abcfixnoRedtu -.", 0, 8)
	jpsWords = gen.Tokens("fiction", "reference", "red", "Nigel Rees", "0-553-21311-3", "a", "")
	// jpsPattern are regular expressions for =~, unescaped (quoted
	// escapes the backslashes).
	jpsPattern = gen.Tokens(`.+@example\.com`, `^[a-z]+$`, `fic.*`, `\d+`, `(?i)red`, `^$`, `.*`, `[`)
)

type jpsWriter struct {
	t   *gfz.T
	cfg JSONPathScriptConfig
}

// key draws a member name: one of the documents' names half of the time,
// else a short identifier or a name that needs quoting.
func (w jpsWriter) key() string {
	if gen.Bool().Draw(w.t) {
		return gen.Tokens(w.cfg.Keys...).Draw(w.t)
	}
	switch gen.IntRange(0, 4).Draw(w.t) {
	case 0:
		return gen.Tokens("a b", "a.b", "$", "@", "0", "length", "", "é", "x-y").Draw(w.t)
	}
	return gen.StringFrom("abcxyz_", 1, 5).Draw(w.t)
}

// quoted writes s as a string of the script engine or of a bracket
// step, in single or double quotes.
func (w jpsWriter) quoted(s string) string {
	q := gen.Tokens("'", "'", `"`).Draw(w.t)
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, q, `\`+q)
	return q + s + q
}

// index draws an array index or a slice bound.
func (w jpsWriter) index() string {
	if gen.IntRange(0, 3).Draw(w.t) == 0 {
		return strconv.Itoa(gen.IntRange(-4, -1).Draw(w.t))
	}
	return strconv.Itoa(gen.IntRange(0, 6).Draw(w.t))
}

// dotName draws the name part of a dot step, in dot notation when the
// name allows it.
func (w jpsWriter) dotName() string {
	k := w.key()
	if k == "" || strings.ContainsAny(k, " .$@[]()'\"-") {
		return "[" + w.quoted(k) + "]"
	}
	return "." + k
}

// subscript draws the inside of a bracket step.
func (w jpsWriter) subscript(depth int) string {
	k := gen.IntRange(0, 11).Draw(w.t)
	if depth <= 0 && k >= 9 {
		k %= 9
	}
	switch k {
	case 0, 1, 2:
		return w.index()
	case 3:
		return w.quoted(w.key())
	case 4:
		return "*"
	case 5, 6: // union of indexes or of names
		n := gen.IntRange(2, 3).Draw(w.t)
		parts := make([]string, n)
		names := gen.Bool().Draw(w.t)
		for i := range parts {
			if names {
				parts[i] = w.quoted(w.key())
			} else {
				parts[i] = w.index()
			}
		}
		return strings.Join(parts, gen.Tokens(",", ", ").Draw(w.t))
	case 7, 8: // slice start:end or start:end:step, bounds optional
		var b strings.Builder
		if gen.Bool().Draw(w.t) {
			b.WriteString(w.index())
		}
		b.WriteByte(':')
		if gen.Bool().Draw(w.t) {
			b.WriteString(w.index())
		}
		if gen.IntRange(0, 2).Draw(w.t) == 0 {
			b.WriteByte(':')
			b.WriteString(gen.Tokens("1", "2", "-1", "3", "-2").Draw(w.t))
		}
		return b.String()
	case 9, 10: // filter
		return "?(" + w.expr(depth-1, true) + ")"
	default: // script: an index or a name computed from the current node
		if gen.Bool().Draw(w.t) {
			return "(@.length-" + strconv.Itoa(gen.IntRange(1, 2).Draw(w.t)) + ")"
		}
		return "(" + w.expr(depth-1, true) + ")"
	}
}

// path draws a JSONPath: $ (or @ inside a filter or script) and steps.
func (w jpsWriter) path(depth int, current bool) string {
	var b strings.Builder
	if current && gen.IntRange(0, 3).Draw(w.t) > 0 {
		b.WriteByte('@')
	} else {
		b.WriteByte('$')
	}
	n := gen.IntRange(0, w.cfg.MaxSteps).Draw(w.t)
	if b.String() == "$" && n == 0 && gen.Bool().Draw(w.t) {
		n = 1
	}
	for range n {
		switch k := gen.IntRange(0, 19).Draw(w.t); {
		case k < 9: // child by name
			b.WriteString(w.dotName())
		case k < 11: // wildcard
			b.WriteString(gen.Tokens(".*", "[*]").Draw(w.t))
		case k < 15: // recursive descent, then a name, a wildcard or a subscript
			b.WriteString("..")
			switch gen.IntRange(0, 3).Draw(w.t) {
			case 0, 1:
				k := w.key()
				if k == "" || strings.ContainsAny(k, " .$@[]()'\"-") {
					b.WriteString("[" + w.quoted(k) + "]")
				} else {
					b.WriteString(k)
				}
			case 2:
				b.WriteString("*")
			default:
				b.WriteString("[" + w.subscript(depth) + "]")
			}
		case k == 15:
			b.WriteString(".length")
		default: // subscript
			b.WriteString("[" + w.subscript(depth) + "]")
		}
	}
	return b.String()
}

// operand draws a primary expression of the script engine.
func (w jpsWriter) operand(depth int, current bool) string {
	k := gen.IntRange(0, 10).Draw(w.t)
	if depth <= 0 && k >= 8 {
		k %= 8
	}
	switch k {
	case 0, 1, 2, 3:
		return w.path(depth, current)
	case 4, 5:
		return jpsNumber.Draw(w.t)
	case 6:
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0:
			return w.quoted(jpsPattern.Draw(w.t))
		case 1:
			return w.quoted(jpsWords.Draw(w.t))
		}
		return w.quoted(jpsText.Draw(w.t))
	case 7:
		return jpsConstants.Draw(w.t)
	case 8:
		return "(" + w.expr(depth-1, current) + ")"
	default:
		if gen.IntRange(0, 15).Draw(w.t) == 0 {
			return "factorial(" + strconv.Itoa(gen.IntRange(0, 20).Draw(w.t)) + ")"
		}
		fn := jpsFuncs.Draw(w.t)
		if gen.Bool().Draw(w.t) {
			fn = jpsAggregates.Draw(w.t)
		}
		return fn + "(" + w.expr(depth-1, current) + ")"
	}
}

// sp draws the blanks around an operator.
func (w jpsWriter) sp() string { return gen.Tokens(" ", " ", "").Draw(w.t) }

// expr draws a formula: operands joined by operators, a comparison or a
// logical combination of comparisons.
func (w jpsWriter) expr(depth int, current bool) string {
	switch gen.IntRange(0, 5).Draw(w.t) {
	case 0, 1:
		return w.operand(depth, current)
	case 2, 3:
		return w.operand(depth, current) + w.sp() + jpsArith.Draw(w.t) + w.sp() + w.operand(depth, current)
	case 4:
		return w.operand(depth, current) + w.sp() + jpsCompare.Draw(w.t) + w.sp() + w.operand(depth, current)
	default:
		n := gen.IntRange(2, 3).Draw(w.t)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = w.operand(depth, current) + w.sp() + jpsCompare.Draw(w.t) + w.sp() + w.operand(depth, current)
		}
		var b strings.Builder
		for i, p := range parts {
			if i > 0 {
				b.WriteString(w.sp() + jpsLogic.Draw(w.t) + w.sp())
			}
			b.WriteString(p)
		}
		return b.String()
	}
}

// JSONPathScript draws queries for a JSONPath engine with a script
// engine, as github.com/spyzhov/ajson documents them (Goessner's JSONPath
// and the formulas of its Eval): half of them a bare JSONPath, the rest a
// formula. Paths start at $ (or @ inside filters and scripts) with steps by
// name in dot or bracket notation, wildcards, recursive descent followed by
// a name, a wildcard or a subscript, indexes (negative too), unions of
// indexes or names, slices with optional bounds and step, filters ?(...)
// and scripts (...) over formulas, and .length. Formulas combine paths,
// numbers, strings (regular expressions for =~), the named constants and
// the engine's functions (rand and randint left out, factorial on small
// literals) with its arithmetic, bitwise, comparison and logical operators
// and parentheses. MistakesPer per mille go through Corrupt.
func JSONPathScript(cfg JSONPathScriptConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := jpsWriter{t: t, cfg: cfg}
		var q string
		if gen.Bool().Draw(t) {
			q = w.path(cfg.MaxDepth, false)
		} else {
			q = w.expr(cfg.MaxDepth, false)
		}
		return Corrupt(t, q, cfg.MistakesPer)
	}).Named("jsonpathscript")
}
