package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// TengoVar is a variable the host program defines for a Tengo script
// (Script.Add): its name and the kind of value it holds, one of "int",
// "float", "string", "bool", "array", "map" or "any".
type TengoVar struct{ Name, Kind string }

// TengoConfig tunes Tengo.
type TengoConfig struct {
	MaxDepth int // nesting of statements and of expressions; default 3
	MaxStmts int // statements per block, elements, entries; default 4
	// Vars are the host's variables; empty: a few generic ones.
	Vars []TengoVar
	// Modules are the standard library modules the host allows, which
	// scripts import; empty: fmt, math, text, enum and json.
	Modules []string
	// Out is a variable the host reads after the run, which scripts
	// usually assign last; "" for none. It is also usable as a variable.
	Out         string
	MistakesPer int // per mille of scripts passed through Corrupt; default 0
}

func (c TengoConfig) withDefaults() TengoConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 4
	}
	if len(c.Vars) == 0 {
		c.Vars = []TengoVar{{"input", "string"}, {"nums", "array"}, {"opts", "map"}, {"n", "int"}}
	}
	if len(c.Modules) == 0 {
		c.Modules = []string{"fmt", "math", "text", "enum", "json"}
	}
	return c
}

// The kinds of values the Tengo generator keeps track of, to draw
// operands and arguments of plausible types.
const (
	tkAny   = 'x'
	tkInt   = 'i'
	tkFloat = 'f'
	tkStr   = 's'
	tkBool  = 'b'
	tkArr   = 'a'
	tkMap   = 'm'
	tkFunc  = 'F' // a function value of the arity the callee wants
	tkTime  = 't'
	tkBytes = 'y'
	tkPat   = 'p' // a regular expression (a string)
	tkFmt   = 'q' // a format string, with its arguments
	tkDur   = 'd' // a duration (an int of nanoseconds)
	tkBase  = 'B' // a numeric base (an int)
	tkLayt  = 'L' // a time layout (a string)
	tkCount = 'n' // a count, length or index: a small int
	tkElem  = 'S' // a value stored into an array or a map: a scalar
	tkMod   = 'M' // an imported module (its name is not a value to use)
)

// tengoFunc is a function of a standard library module or a builtin:
// its argument kinds (a trailing '*' repeats the last kind zero or more
// times) and the kind of its result.
type tengoFunc struct {
	mod, name, args string
	ret             byte
}

// tengoFuncs are the functions of the standard library modules (as the
// stdlib documentation lists them) that scripts call; functions that read
// the clock, sleep, print or touch the system are left out.
var tengoFuncs = []tengoFunc{
	{"fmt", "sprintf", "q", tkStr},
	{"math", "abs", "f", tkFloat}, {"math", "sqrt", "f", tkFloat}, {"math", "floor", "f", tkFloat},
	{"math", "ceil", "f", tkFloat}, {"math", "trunc", "f", tkFloat}, {"math", "max", "ff", tkFloat},
	{"math", "min", "ff", tkFloat}, {"math", "pow", "ff", tkFloat}, {"math", "mod", "ff", tkFloat},
	{"math", "hypot", "ff", tkFloat}, {"math", "log", "f", tkFloat}, {"math", "exp", "f", tkFloat},
	{"math", "is_nan", "f", tkBool}, {"math", "inf", "i", tkFloat}, {"math", "signbit", "f", tkBool},
	{"text", "split", "ss", tkArr}, {"text", "join", "as", tkStr}, {"text", "contains", "ss", tkBool},
	{"text", "has_prefix", "ss", tkBool}, {"text", "has_suffix", "ss", tkBool}, {"text", "to_upper", "s", tkStr},
	{"text", "to_lower", "s", tkStr}, {"text", "title", "s", tkStr}, {"text", "trim_space", "s", tkStr},
	{"text", "trim", "ss", tkStr}, {"text", "replace", "sssi", tkStr}, {"text", "repeat", "sn", tkStr},
	{"text", "index", "ss", tkInt}, {"text", "last_index", "ss", tkInt}, {"text", "count", "ss", tkInt},
	{"text", "fields", "s", tkArr}, {"text", "pad_left", "sns", tkStr}, {"text", "pad_right", "sns", tkStr},
	{"text", "substr", "snn", tkStr}, {"text", "atoi", "s", tkAny}, {"text", "itoa", "i", tkStr},
	{"text", "format_int", "iB", tkStr}, {"text", "parse_int", "sBi", tkAny}, {"text", "quote", "s", tkStr},
	{"text", "unquote", "s", tkAny}, {"text", "re_match", "ps", tkBool}, {"text", "re_find", "psi", tkAny},
	{"text", "re_replace", "pss", tkAny}, {"text", "re_split", "psi", tkAny}, {"text", "compare", "ss", tkInt},
	{"text", "equal_fold", "ss", tkBool}, {"text", "split_n", "ssi", tkArr}, {"text", "format_bool", "b", tkStr},
	{"times", "date", "iiiiiii", tkTime}, {"times", "add", "td", tkTime}, {"times", "add_date", "tiii", tkTime},
	{"times", "sub", "tt", tkInt}, {"times", "after", "tt", tkBool}, {"times", "before", "tt", tkBool},
	{"times", "time_year", "t", tkInt}, {"times", "time_month", "t", tkInt}, {"times", "time_day", "t", tkInt},
	{"times", "time_weekday", "t", tkInt}, {"times", "time_hour", "t", tkInt}, {"times", "time_unix", "t", tkInt},
	{"times", "time_format", "tL", tkStr}, {"times", "time_string", "t", tkStr}, {"times", "duration_string", "d", tkStr},
	{"times", "duration_seconds", "d", tkFloat}, {"times", "parse_duration", "s", tkAny}, {"times", "month_string", "i", tkStr},
	{"times", "unix", "ii", tkTime}, {"times", "to_utc", "t", tkTime}, {"times", "is_zero", "t", tkBool},
	{"enum", "all", "aF", tkBool}, {"enum", "any", "aF", tkBool}, {"enum", "chunk", "an", tkArr},
	{"enum", "at", "an", tkAny}, {"enum", "each", "aF", tkAny}, {"enum", "filter", "aF", tkArr},
	{"enum", "find", "aF", tkAny}, {"enum", "find_key", "aF", tkAny}, {"enum", "map", "aF", tkArr},
	{"json", "encode", "x", tkBytes}, {"json", "decode", "s", tkAny}, {"json", "indent", "y", tkBytes},
	{"json", "html_escape", "y", tkBytes},
	{"base64", "encode", "y", tkStr}, {"base64", "decode", "s", tkAny}, {"base64", "url_encode", "y", tkStr},
	{"base64", "raw_encode", "y", tkStr},
	{"hex", "encode", "y", tkStr}, {"hex", "decode", "s", tkAny},
}

// tengoConsts are the modules' constants.
var tengoConsts = []tengoFunc{
	{"math", "pi", "", tkFloat}, {"math", "e", "", tkFloat}, {"math", "sqrt2", "", tkFloat}, {"math", "ln2", "", tkFloat},
	{"times", "second", "", tkDur}, {"times", "minute", "", tkDur}, {"times", "hour", "", tkDur}, {"times", "millisecond", "", tkDur},
	{"times", "format_rfc3339", "", tkLayt}, {"times", "format_kitchen", "", tkLayt}, {"times", "format_ansic", "", tkLayt},
}

// tengoBuiltins are the builtin functions (docs/builtins.md).
var tengoBuiltins = []tengoFunc{
	{"", "len", "x", tkInt}, {"", "copy", "x", tkAny}, {"", "append", "ax*", tkArr}, {"", "delete", "ms", tkAny},
	{"", "splice", "annS*", tkArr}, {"", "string", "x", tkStr}, {"", "int", "x", tkAny}, {"", "float", "x", tkAny},
	{"", "bool", "x", tkBool}, {"", "char", "x", tkAny}, {"", "bytes", "s", tkBytes}, {"", "is_int", "x", tkBool},
	{"", "is_float", "x", tkBool}, {"", "is_string", "x", tkBool}, {"", "is_array", "x", tkBool}, {"", "is_map", "x", tkBool},
	{"", "is_error", "x", tkBool}, {"", "is_undefined", "x", tkBool}, {"", "is_function", "x", tkBool},
	{"", "is_immutable_array", "x", tkBool}, {"", "is_iterable", "x", tkBool}, {"", "type_name", "x", tkStr},
	{"", "format", "q", tkStr}, {"", "range", "nn", tkArr},
}

var (
	tengoNames    = gen.Tokens("a", "b", "c", "x", "y", "s", "t", "v2", "arr", "list", "res", "acc", "tmp", "val", "total", "count", "name", "data", "obj", "parts", "ok", "err", "result", "key2")
	tengoFnNames  = gen.Tokens("f", "g", "fn", "add", "helper", "check", "build", "apply", "fib", "sum_of")
	tengoParams   = []string{"p", "q", "r", "k", "v", "arg", "xs"}
	tengoKeys     = gen.Tokens("name", "x", "y", "id", "tags", "n", "value", "ok", "items", "count", "a", "b")
	tengoInt      = gen.OneOfWeighted(gen.W(6, gen.Map(gen.IntRange(0, 20), itoa)), gen.W(1, gen.Tokens("100", "255", "1000", "65535", "2147483648", "9223372036854775807", "0")))
	tengoFloat    = gen.Tokens("0.5", "1.5", "3.14", "2.0", "0.0", "1e3", "2.5e-3", "100.25", "1e10")
	tengoStrChars = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcxyz ABC019,.-_:/", 0, 5)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\"`, `\x41`, `\u00e9`, "é", "水", "%", "{}")),
	)
	tengoChar    = gen.Tokens(`'a'`, `'z'`, `'0'`, `' '`, `'\n'`, `'\''`, `'é'`, `'九'`, `'\u00e9'`)
	tengoPattern = gen.Tokens(`"[a-z]+"`, `"\\d+"`, `"^a"`, `"(x|y)*"`, `"a.c"`, "`\\s+`", `"[0-9]{2,3}"`, `"(?i)abc"`, `"b$"`)
	tengoFmts    = []string{"%d", "%s", "%v", "%5.2f", "%q", "%x", "%t", "%-4s|", "%03d", "%v and %v", "%s=%d", "n: %d, s: %s"}
	tengoLayout  = gen.Tokens(`"2006-01-02"`, `"15:04:05"`, `"Jan 2, 2006"`)
	tengoDurStr  = gen.Tokens(`"1h30m"`, `"2s"`, `"150ms"`, `"-1.5h"`, `"10m"`)
	tengoArith   = gen.Tokens("+", "-", "*", "/", "%", "&", "|", "^", "&^", "<<", ">>")
	tengoCompare = gen.Tokens("==", "!=", "<", "<=", ">", ">=")
	tengoAssign  = gen.Tokens("+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "&^=", "<<=", ">>=")
	tengoComment = gen.Tokens("// comment", "/* note */", "// TODO: more", "/*\n multi-line\n*/")
)

// tengoVar is a name in scope: its kind, for a function its number of
// parameters and whether the last one is variadic; ro marks loop
// counters, which the script never assigns (so every loop ends).
type tengoVar struct {
	name     string
	kind     byte
	arity    int
	variadic bool
	ro       bool
}

type tengoWriter struct {
	t      *gfz.T
	cfg    TengoConfig
	scopes [][]tengoVar // innermost last
	mods   []string     // modules imported so far
	// fn: inside a function (return); loop: inside a loop of the current
	// function (break, continue)
	fn, loop bool
	indent   int
	counters int // loop counters drawn so far, for unique names
}

func (w *tengoWriter) pick(n int) int { return gen.IntRange(0, n-1).Draw(w.t) }

func (w *tengoWriter) chance(in int) bool { return gen.IntRange(0, in-1).Draw(w.t) == 0 }

// visible returns the variables in scope (innermost last), the later
// definitions shadowing earlier ones of the same name.
func (w *tengoWriter) visible() []tengoVar {
	seen := map[string]bool{}
	var vs []tengoVar
	for i := len(w.scopes) - 1; i >= 0; i-- {
		for j := len(w.scopes[i]) - 1; j >= 0; j-- {
			v := w.scopes[i][j]
			if !seen[v.name] {
				seen[v.name] = true
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// varOf draws a visible variable of kind k (any kind but a module for
// tkAny; an int also for tkFloat), assignable ones only when assignable
// is set; false when there is none.
func (w *tengoWriter) varOf(k byte, assignable bool) (tengoVar, bool) {
	var cands []tengoVar
	for _, v := range w.visible() {
		if (k == tkAny && v.kind != tkMod) || v.kind == k || (k == tkFloat && v.kind == tkInt) {
			if !assignable || (!v.ro && v.kind != tkMod) {
				cands = append(cands, v)
			}
		}
	}
	if len(cands) == 0 {
		return tengoVar{}, false
	}
	return cands[w.pick(len(cands))], true
}

func (w *tengoWriter) inCurrent(name string) bool {
	for _, v := range w.scopes[len(w.scopes)-1] {
		if v.name == name {
			return true
		}
	}
	return false
}

func (w *tengoWriter) define(v tengoVar) {
	s := w.scopes[len(w.scopes)-1]
	for i := range s {
		if s[i].name == v.name {
			s[i] = v
			return
		}
	}
	w.scopes[len(w.scopes)-1] = append(s, v)
}

func (w *tengoWriter) push()          { w.scopes = append(w.scopes, nil) }
func (w *tengoWriter) pop()           { w.scopes = w.scopes[:len(w.scopes)-1] }
func (w *tengoWriter) pad() string    { return strings.Repeat("\t", w.indent) }
func (w *tengoWriter) imported() bool { return len(w.mods) > 0 }

// str draws a string literal, interpreted or raw.
func (w *tengoWriter) str() string {
	if w.chance(8) {
		return "`" + strings.ReplaceAll(gen.StringFrom("abc xyz,\\\"%\n", 0, 6).Draw(w.t), "`", "") + "`"
	}
	var b strings.Builder
	b.WriteString(`"`)
	for range w.pick(3) {
		b.WriteString(tengoStrChars.Draw(w.t))
	}
	b.WriteString(`"`)
	return b.String()
}

// literal draws a literal of kind k.
func (w *tengoWriter) literal(k byte) string {
	switch k {
	case tkInt:
		return tengoInt.Draw(w.t)
	case tkFloat:
		if w.chance(2) {
			return tengoInt.Draw(w.t)
		}
		return tengoFloat.Draw(w.t)
	case tkStr:
		return w.str()
	case tkBool:
		return gen.Tokens("true", "false").Draw(w.t)
	case tkPat:
		return tengoPattern.Draw(w.t)
	case tkLayt:
		return tengoLayout.Draw(w.t)
	case tkBase:
		return gen.Tokens("2", "8", "10", "16", "36").Draw(w.t)
	case tkCount:
		return itoa(w.pick(13))
	case tkDur:
		return gen.Tokens("1000000000", "60000000000", "1500", "0", "3600000000000").Draw(w.t)
	default:
		switch w.pick(6) {
		case 0:
			return tengoInt.Draw(w.t)
		case 1:
			return tengoFloat.Draw(w.t)
		case 2:
			return w.str()
		case 3:
			return tengoChar.Draw(w.t)
		case 4:
			return gen.Tokens("true", "false").Draw(w.t)
		default:
			return "undefined"
		}
	}
}

// expr draws an expression that yields a value of kind k most of the
// time (the language is dynamically typed: the run decides).
func (w *tengoWriter) expr(k byte, depth int) string {
	if depth <= 0 || w.chance(3) {
		return w.atom(k, depth)
	}
	d := depth - 1
	switch k {
	case tkInt, tkFloat, tkDur:
		switch w.pick(7) {
		case 0, 1, 2:
			return w.operand(k, d) + " " + tengoArith.Draw(w.t) + " " + w.operand(k, d)
		case 3:
			return gen.Tokens("-", "+", "^").Draw(w.t) + w.operand(k, d)
		case 4:
			return "len(" + w.expr(gen.Tokens("a", "s", "m").Draw(w.t)[0], d) + ")"
		case 5:
			return w.ternary(k, d)
		default:
			return w.call(k, d)
		}
	case tkStr:
		switch w.pick(6) {
		case 0, 1:
			return w.operand(tkStr, d) + " + " + w.operand(gen.Tokens("s", "s", "i", "x").Draw(w.t)[0], d)
		case 2:
			return w.postfix(w.operand(tkStr, d), d, true)
		case 3:
			return w.ternary(k, d)
		default:
			return w.call(k, d)
		}
	case tkBool:
		switch w.pick(6) {
		case 0, 1:
			ck := gen.Tokens("i", "f", "s", "x").Draw(w.t)[0]
			return w.operand(ck, d) + " " + tengoCompare.Draw(w.t) + " " + w.operand(ck, d)
		case 2:
			return w.operand(tkBool, d) + " " + gen.Tokens("&&", "||").Draw(w.t) + " " + w.operand(tkBool, d)
		case 3:
			return "!" + w.operand(tkAny, d)
		default:
			return w.call(k, d)
		}
	case tkArr:
		switch w.pick(5) {
		case 0, 1:
			return w.arrayLit(d)
		case 2:
			return w.postfix(w.operand(tkArr, d), d, true)
		case 3:
			return w.operand(tkArr, d) + " + " + w.operand(tkArr, d)
		default:
			return w.call(k, d)
		}
	case tkMap:
		return w.mapLit(d)
	case tkFunc:
		return w.funcLit(2, false, d)
	case tkAny:
		switch w.pick(12) {
		case 0:
			return w.arrayLit(d)
		case 1:
			return w.mapLit(d)
		case 2:
			return w.funcLit(w.pick(3), w.chance(4), d)
		case 3:
			return gen.Tokens("error(", "immutable(").Draw(w.t) + w.expr(tkAny, d) + ")"
		case 4:
			return w.ternary(tkAny, d)
		case 5, 6:
			return w.postfix(w.operand(tkAny, d), d, false)
		case 7, 8:
			return w.call(tkAny, d)
		default:
			return w.expr(gen.Tokens("i", "f", "s", "b", "a").Draw(w.t)[0], depth)
		}
	case tkElem:
		return w.expr(gen.Tokens("i", "f", "s", "b").Draw(w.t)[0], depth)
	default:
		return w.atom(k, depth)
	}
}

// operand draws an expression usable as an operand: an atom, a call, or
// a parenthesized expression.
func (w *tengoWriter) operand(k byte, depth int) string {
	if depth > 0 && w.chance(4) {
		return "(" + w.expr(k, depth) + ")"
	}
	if depth > 0 && w.chance(4) {
		return w.call(k, depth)
	}
	return w.atom(k, depth)
}

// atom draws a literal or a variable of kind k (an imported module's
// constant sometimes), or a composite literal at depth.
func (w *tengoWriter) atom(k byte, depth int) string {
	if w.chance(2) {
		if v, ok := w.varOf(k, false); ok && (v.kind != tkFunc || k == tkFunc) {
			return v.name
		}
	}
	if w.imported() && w.chance(6) {
		var cs []string
		for _, c := range tengoConsts {
			if w.has(c.mod) && (c.ret == k || k == tkAny || (k == tkInt && c.ret == tkDur) || (k == tkStr && c.ret == tkLayt)) {
				cs = append(cs, c.mod+"."+c.name)
			}
		}
		if len(cs) > 0 {
			return cs[w.pick(len(cs))]
		}
	}
	switch k {
	case tkArr:
		if depth > 0 {
			return w.arrayLit(depth - 1)
		}
		return "[]"
	case tkMap:
		if depth > 0 {
			return w.mapLit(depth - 1)
		}
		return "{}"
	case tkFunc:
		return w.funcLit(2, false, depth-1)
	case tkTime, tkBytes:
		return w.call(k, depth)
	}
	return w.literal(k)
}

func (w *tengoWriter) has(mod string) bool {
	for _, m := range w.mods {
		if m == mod {
			return true
		}
	}
	return false
}

// ternary draws a conditional expression.
func (w *tengoWriter) ternary(k byte, depth int) string {
	return w.operand(tkBool, depth) + " ? " + w.operand(k, depth) + " : " + w.operand(k, depth)
}

// postfix appends selectors, index and slice expressions to e; slices
// keeps the sequence's kind (slice expressions only).
func (w *tengoWriter) postfix(e string, depth int, slices bool) string {
	if slices {
		lo, hi := "", ""
		if !w.chance(3) {
			lo = w.expr(tkInt, depth-1)
		}
		if !w.chance(3) {
			hi = w.expr(tkInt, depth-1)
		}
		return e + "[" + lo + ":" + hi + "]"
	}
	if e != "" && (e[0] >= '0' && e[0] <= '9' || e[0] == '\'') {
		e = "(" + e + ")" // not "1.x"
	}
	for range 1 + w.pick(2) {
		switch w.pick(4) {
		case 0:
			e += "." + tengoKeys.Draw(w.t)
		case 1:
			e += "[" + w.str() + "]"
		case 2:
			e += "[" + w.expr(tkInt, depth-1) + "]"
		default:
			lo, hi := "", ""
			if !w.chance(3) {
				lo = w.expr(tkInt, depth-1)
			}
			if !w.chance(3) {
				hi = w.expr(tkInt, depth-1)
			}
			e += "[" + lo + ":" + hi + "]"
		}
	}
	return e
}

// arrayLit draws an array literal.
func (w *tengoWriter) arrayLit(depth int) string {
	items := make([]string, w.pick(w.cfg.MaxStmts+1))
	for i := range items {
		items[i] = w.expr(gen.Tokens("i", "i", "s", "f", "b", "x").Draw(w.t)[0], depth-1)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// mapLit draws a map literal with identifier and string keys.
func (w *tengoWriter) mapLit(depth int) string {
	items := make([]string, w.pick(w.cfg.MaxStmts+1))
	for i := range items {
		key := tengoKeys.Draw(w.t)
		if w.chance(3) {
			key = w.str()
		}
		items[i] = key + ": " + w.expr(tkAny, depth-1)
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// args draws the arguments of kinds spec (a trailing '*' repeats the
// kind before it zero or more times).
func (w *tengoWriter) args(spec string, depth int) string {
	var as []string
	for i := 0; i < len(spec); i++ {
		k := spec[i]
		if i+1 < len(spec) && spec[i+1] == '*' {
			for range w.pick(3) {
				as = append(as, w.expr(k, depth))
			}
			i++
			continue
		}
		switch k {
		case tkFmt:
			f := tengoFmts[w.pick(len(tengoFmts))]
			as = append(as, `"`+f+`"`)
			for range strings.Count(f, "%") {
				as = append(as, w.expr(gen.Tokens("i", "s", "x", "f").Draw(w.t)[0], depth))
			}
		case tkFunc:
			as = append(as, w.funcLit(2, false, depth))
		case tkTime:
			if v, ok := w.varOf(tkTime, false); ok && w.chance(2) {
				as = append(as, v.name)
			} else if w.has("times") {
				as = append(as, "times.date("+gen.Tokens("2024", "2000", "1999", "2038").Draw(w.t)+", "+gen.Tokens("1", "2", "12", "13").Draw(w.t)+", "+gen.Tokens("1", "15", "29", "31").Draw(w.t)+", 0, 0, 0, 0)")
			} else {
				as = append(as, w.expr(tkAny, depth))
			}
		case tkBytes:
			as = append(as, "bytes("+w.expr(tkStr, depth)+")")
		default:
			as = append(as, w.expr(k, depth))
		}
	}
	return strings.Join(as, ", ")
}

// call draws a call whose result is of kind k where possible: of a
// builtin, of an imported module's function, of a function variable (with
// its arity; a variadic one sometimes with a spread array), or of a
// function literal on the spot.
func (w *tengoWriter) call(k byte, depth int) string {
	d := depth - 1
	if d < 0 {
		d = 0
	}
	var cands []tengoFunc
	for _, f := range tengoBuiltins {
		if f.ret == k || k == tkAny || (k == tkFloat && f.ret == tkInt) {
			cands = append(cands, f)
		}
	}
	for _, f := range tengoFuncs {
		if w.has(f.mod) && (f.ret == k || k == tkAny || (k == tkFloat && f.ret == tkInt) || (k == tkInt && f.ret == tkDur)) {
			cands = append(cands, f)
		}
	}
	if w.chance(3) {
		if v, ok := w.varOf(tkFunc, false); ok {
			var as []string
			for range v.arity {
				as = append(as, w.expr(tkAny, d))
			}
			if v.variadic && w.chance(2) {
				as = append(as, w.arrayLit(d)+"...")
			}
			return v.name + "(" + strings.Join(as, ", ") + ")"
		}
		if depth > 1 && w.chance(3) {
			return "(" + w.funcLit(1, false, d) + ")(" + w.expr(tkAny, d) + ")"
		}
	}
	if len(cands) == 0 {
		return w.literal(k)
	}
	f := cands[w.pick(len(cands))]
	name := f.name
	if f.mod != "" {
		name = f.mod + "." + f.name
	}
	return name + "(" + w.args(f.args, d) + ")"
}

// funcLit draws a function literal of n parameters (the last one
// variadic when variadic is set) with a body.
func (w *tengoWriter) funcLit(n int, variadic bool, depth int) string {
	ps := make([]string, n)
	copy(ps, tengoParams[w.pick(len(tengoParams)-n+1):])
	if variadic && n > 0 {
		ps[n-1] = "..." + ps[n-1]
	}
	saved := w.scopes
	savedFn, savedLoop := w.fn, w.loop
	w.scopes = append(append([][]tengoVar(nil), w.scopes...), nil)
	for i, p := range ps {
		kind := byte(tkAny)
		if variadic && i == n-1 {
			kind = tkArr
			p = p[3:]
		}
		w.define(tengoVar{name: p, kind: kind})
	}
	w.fn, w.loop = true, false
	var body string
	if depth <= 0 {
		// no room for statements: return a parameter or a literal
		r := w.literal(tkAny)
		if v, ok := w.varOf(tkAny, false); ok && w.chance(2) {
			r = v.name
		}
		body = "{ return " + r + " }"
	} else {
		body = w.body(depth, true)
	}
	w.scopes, w.fn, w.loop = saved, savedFn, savedLoop
	return "func(" + strings.Join(ps, ", ") + ") " + body
}

// body draws a block: statements in a new scope; for a function body,
// often a final return.
func (w *tengoWriter) body(depth int, fnBody bool) string {
	var b strings.Builder
	b.WriteString("{\n")
	w.indent++
	if !fnBody {
		w.push()
	}
	for range w.pick(w.cfg.MaxStmts) + 1 {
		b.WriteString(w.pad() + w.stmt(depth-1) + "\n")
	}
	if fnBody && w.chance(2) {
		b.WriteString(w.pad() + "return " + w.expr(tkAny, depth-1) + "\n")
	}
	if !fnBody {
		w.pop()
	}
	w.indent--
	b.WriteString(w.pad() + "}")
	return b.String()
}

// loopBody draws the body of a loop, where break and continue are
// allowed; prefix statements (a counter's increment) come first.
func (w *tengoWriter) loopBody(depth int, prefix ...string) string {
	saved := w.loop
	w.loop = true
	var b strings.Builder
	b.WriteString("{\n")
	w.indent++
	w.push()
	for _, p := range prefix {
		b.WriteString(w.pad() + p + "\n")
	}
	for range w.pick(w.cfg.MaxStmts) + 1 {
		b.WriteString(w.pad() + w.stmt(depth-1) + "\n")
	}
	w.pop()
	w.indent--
	b.WriteString(w.pad() + "}")
	w.loop = saved
	return b.String()
}

// target draws an assignable expression: a variable, or a selector or
// index of a map or array variable, and what to assign to it.
func (w *tengoWriter) target(depth int) (string, tengoVar, bool) {
	if w.chance(4) {
		if v, ok := w.varOf(gen.Tokens("m", "a").Draw(w.t)[0], true); ok {
			// An element gets a scalar: storing a container into an
			// element could make the value contain itself, which the
			// run would recurse on without end when printing or
			// comparing it.
			elem := tengoVar{kind: tkElem}
			if v.kind == tkMap {
				if w.chance(2) {
					return v.name + "." + tengoKeys.Draw(w.t), elem, true
				}
				return v.name + "[" + w.str() + "]", elem, true
			}
			return v.name + "[" + w.expr(tkInt, depth) + "]", elem, true
		}
	}
	v, ok := w.varOf(tkAny, true)
	if ok && v.kind != tkFunc && w.chance(4) {
		v.kind = tkAny // the language lets a variable change kind
	}
	return v.name, v, ok
}

// value draws a value to assign to a variable like v: of its kind, or for
// a function, another function of the same parameters.
func (w *tengoWriter) value(v tengoVar, depth int) string {
	if v.kind == tkFunc {
		n := v.arity
		if v.variadic {
			n++
		}
		return w.funcLit(n, v.variadic, depth)
	}
	return w.expr(v.kind, depth)
}

// define draws a definition, "name := value", of a new name (an
// assignment when the name is already defined in this block).
func (w *tengoWriter) defineStmt(depth int) string {
	if w.chance(4) {
		// a function, defined before its body so that it may recurse
		name := tengoFnNames.Draw(w.t)
		n := w.pick(4)
		variadic := n > 0 && w.chance(5)
		op := " := "
		if w.inCurrent(name) {
			op = " = "
		}
		v := tengoVar{name: name, kind: tkFunc, arity: n}
		if variadic {
			v.arity, v.variadic = n-1, true
		}
		w.define(v)
		return name + op + w.funcLit(n, variadic, depth)
	}
	k := gen.Tokens("i", "i", "f", "s", "s", "b", "a", "a", "m", "x", "t", "y").Draw(w.t)[0]
	if (k == tkTime && !w.has("times")) || k == tkBytes && !w.chance(2) {
		k = tkAny
	}
	value := w.expr(k, depth)
	name := tengoNames.Draw(w.t)
	op := " := "
	if w.inCurrent(name) {
		op = " = "
	}
	w.define(tengoVar{name: name, kind: k})
	return name + op + value
}

// counter returns a new loop counter's name.
func (w *tengoWriter) counter() string {
	w.counters++
	return "c" + itoa(w.counters)
}

// stmt draws a statement of any kind the context allows: definitions,
// assignments, increments, calls, if/else, the three forms of for loops
// (each bounded: the script never assigns its counter), for-in loops,
// comments, and return, break and continue where allowed. (Tengo has no
// block statement: a "{" there starts a map literal.)
func (w *tengoWriter) stmt(depth int) string {
	if depth <= 0 {
		if w.chance(2) {
			return w.defineStmt(0)
		}
		if t, v, ok := w.target(0); ok {
			return t + " = " + w.value(v, 0)
		}
		return w.defineStmt(0)
	}
	d := depth - 1
	switch w.pick(21) {
	case 0, 1, 2, 3, 4:
		return w.defineStmt(d)
	case 5, 6:
		if t, v, ok := w.target(d); ok {
			return t + " = " + w.value(v, d)
		}
		return w.defineStmt(d)
	case 7:
		if t, _, ok := w.target(d); ok {
			if w.chance(3) {
				return t + gen.Tokens("++", "--").Draw(w.t)
			}
			return t + " " + tengoAssign.Draw(w.t) + " " + w.expr(tkInt, d)
		}
		return w.defineStmt(d)
	case 8, 9:
		return w.call(tkAny, depth)
	case 10, 11:
		s := "if "
		w.push()
		if w.chance(5) {
			name := tengoNames.Draw(w.t)
			s += name + " := " + w.expr(tkAny, d) + "; "
			w.define(tengoVar{name: name, kind: tkAny})
		}
		s += w.expr(tkBool, d) + " " + w.body(depth, false)
		for w.chance(4) {
			s += " else if " + w.expr(tkBool, d) + " " + w.body(depth, false)
		}
		if w.chance(2) {
			s += " else " + w.body(depth, false)
		}
		w.pop()
		return s
	case 12:
		c := gen.Tokens("i", "j", "k").Draw(w.t)
		w.push()
		w.define(tengoVar{name: c, kind: tkInt, ro: true})
		s := "for " + c + " := " + gen.Tokens("0", "1", "0").Draw(w.t) + "; " + c + " < " + itoa(w.pick(6)) + "; " + c + gen.Tokens("++", " += 2", "++").Draw(w.t) + " " + w.loopBody(depth)
		w.pop()
		return s
	case 13:
		c := w.counter()
		w.define(tengoVar{name: c, kind: tkInt, ro: true})
		return c + " := 0\n" + w.pad() + "for " + c + " < " + itoa(w.pick(6)) + " " + w.loopBody(depth, c+"++")
	case 14:
		c := w.counter()
		w.define(tengoVar{name: c, kind: tkInt, ro: true})
		return c + " := 0\n" + w.pad() + "for " + w.loopBody(depth, c+"++", "if "+c+" > "+itoa(w.pick(6))+" { break }")
	case 15, 16:
		w.push()
		var head string
		coll := w.expr(gen.Tokens("a", "a", "m", "s", "x").Draw(w.t)[0], d)
		if w.has("enum") || w.chance(3) {
			if w.chance(4) {
				coll = "range(0, " + itoa(w.pick(6)) + ")"
			}
		}
		if w.chance(2) {
			kn, vn := gen.Tokens("k", "idx", "key", "_").Draw(w.t), gen.Tokens("v", "item", "e").Draw(w.t)
			head = kn + ", " + vn
			if kn != "_" {
				w.define(tengoVar{name: kn, kind: tkAny})
			}
			w.define(tengoVar{name: vn, kind: tkAny})
		} else {
			vn := gen.Tokens("v", "item", "e").Draw(w.t)
			head = vn
			w.define(tengoVar{name: vn, kind: tkAny})
		}
		s := "for " + head + " in " + coll + " " + w.loopBody(depth)
		w.pop()
		return s
	case 17, 18:
		if w.fn {
			if w.chance(4) {
				return "return"
			}
			return "return " + w.expr(tkAny, d)
		}
		return w.defineStmt(d)
	case 19:
		if w.loop {
			return gen.Tokens("break", "continue").Draw(w.t)
		}
		return w.call(tkAny, depth)
	default:
		return tengoComment.Draw(w.t) + "\n" + w.pad() + w.stmt(d)
	}
}

// Tengo generates Tengo scripts (the language of github.com/d5/tengo, as
// its tutorial and standard library documentation describe it): imports
// of the allowed standard library modules, then statements of every kind
// (definitions with :=, assignments with = and the compound operators,
// increments, calls, if/else-if/else with an init statement, for loops in
// their three forms, for-in loops over arrays, maps, strings and ranges,
// comments, and return, break and continue where allowed) over
// expressions of every kind (int, float, string, raw string, char, bool
// and undefined literals, array and map literals, function literals with
// variadic parameters and closures, error and immutable values,
// selectors, indexes, slices, calls of builtins, of module functions with
// arguments of plausible types, of defined functions with a spread last
// argument, unary, binary and conditional operators). A script's own work
// is bounded, so that only the library can hang: a loop's counter is never
// assigned by the script, counts and lengths passed to the library (range,
// repeat, padding, splice) are small, and an element of an array or a map
// is only assigned a scalar, so that no value contains itself (the run
// would recurse on it without end when printing or comparing it). The
// script ends by assigning Out most of the time. MistakesPer per mille of
// scripts go through Corrupt.
func Tengo(cfg TengoConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &tengoWriter{t: t, cfg: cfg, scopes: [][]tengoVar{nil}}
		for _, v := range cfg.Vars {
			k := byte(tkAny)
			switch v.Kind {
			case "int":
				k = tkInt
			case "float":
				k = tkFloat
			case "string":
				k = tkStr
			case "bool":
				k = tkBool
			case "array":
				k = tkArr
			case "map":
				k = tkMap
			}
			w.define(tengoVar{name: v.Name, kind: k})
		}
		if cfg.Out != "" {
			w.define(tengoVar{name: cfg.Out, kind: tkAny})
		}
		var b strings.Builder
		for _, m := range cfg.Modules {
			if w.chance(2) {
				b.WriteString(m + " := import(\"" + m + "\")\n")
				w.mods = append(w.mods, m)
				w.define(tengoVar{name: m, kind: tkMod})
			}
		}
		for range w.pick(cfg.MaxStmts+1) + 1 {
			b.WriteString(w.stmt(cfg.MaxDepth) + "\n")
		}
		if cfg.Out != "" && !w.chance(4) {
			b.WriteString(cfg.Out + " = " + w.expr(tkAny, cfg.MaxDepth-1) + "\n")
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
