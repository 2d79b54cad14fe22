package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// StarlarkVar is a value the host program predeclares for a Starlark
// program: its name and the kind of value it holds, one of "int",
// "float", "string", "bool", "list", "dict" or "any".
type StarlarkVar struct{ Name, Kind string }

// StarlarkConfig tunes Starlark.
type StarlarkConfig struct {
	MaxDepth int // nesting of statements and of expressions; default 3
	MaxStmts int // statements per block, elements, entries; default 4
	// Vars are the host's predeclared values; empty: a few generic ones.
	Vars []StarlarkVar
	// Modules are the library modules the host predeclares, of "json"
	// and "math" (go.starlark.net/lib); empty: none.
	Modules     []string
	MistakesPer int // per mille of programs passed through Corrupt; default 0
}

func (c StarlarkConfig) withDefaults() StarlarkConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 4
	}
	if len(c.Vars) == 0 {
		c.Vars = []StarlarkVar{{"input", "string"}, {"nums", "list"}, {"opts", "dict"}, {"n", "int"}}
	}
	return c
}

// The kinds of values the Starlark generator keeps track of, to draw
// operands, arguments and receivers of plausible types.
const (
	slAny   = 'x'
	slInt   = 'i'
	slFloat = 'f'
	slStr   = 's'
	slBool  = 'b'
	slList  = 'l'
	slDict  = 'd'
	slTuple = 't'
	slRange = 'r' // a range value
	slBytes = 'y'
	slSet   = 'S'
	slFunc  = 'F' // a function value (a def or a lambda)
	slCount = 'n' // a count, length or index: a small int
	slNone  = 'N'
	slSeq   = 'q' // any sequence: list, tuple, string, bytes or range
	slIter  = 'I' // any iterable: list, tuple, range, dict or set (not a string)
)

// slCallable is a builtin function, a method or a module's function: its
// argument kinds (a trailing '?' makes the last argument optional) and
// the kind of its result; for a method, recv is the receiver's kind.
type slCallable struct {
	recv byte
	name string
	args string
	ret  byte
}

// slBuiltins are the universe's functions (the specification's "Built-in
// functions"), fail and load excepted.
var slBuiltins = []slCallable{
	{0, "abs", "i", slInt}, {0, "all", "I", slBool}, {0, "any", "I", slBool}, {0, "bool", "x", slBool},
	{0, "bytes", "s", slBytes}, {0, "chr", "n", slStr}, {0, "dict", "", slDict}, {0, "dir", "x", slList},
	{0, "enumerate", "I", slList}, {0, "float", "i", slFloat}, {0, "getattr", "xs", slAny}, {0, "hasattr", "xs", slBool},
	{0, "hash", "s", slInt}, {0, "int", "x", slInt}, {0, "len", "q", slInt}, {0, "list", "I", slList},
	{0, "max", "I", slAny}, {0, "min", "I", slAny}, {0, "ord", "s", slInt}, {0, "print", "x?", slNone},
	{0, "range", "i", slRange}, {0, "range", "ii", slRange}, {0, "range", "iii", slRange},
	{0, "repr", "x", slStr}, {0, "reversed", "I", slList}, {0, "set", "I", slSet}, {0, "sorted", "I", slList},
	{0, "str", "x", slStr}, {0, "tuple", "I", slTuple}, {0, "type", "x", slStr}, {0, "zip", "II", slList},
}

// slMethods are the methods of the built-in types (the specification's
// "Built-in methods").
var slMethods = []slCallable{
	{slStr, "capitalize", "", slStr}, {slStr, "count", "s", slInt}, {slStr, "endswith", "s", slBool},
	{slStr, "find", "s", slInt}, {slStr, "format", "x?", slStr}, {slStr, "index", "s", slInt},
	{slStr, "isalnum", "", slBool}, {slStr, "isalpha", "", slBool}, {slStr, "isdigit", "", slBool},
	{slStr, "islower", "", slBool}, {slStr, "isspace", "", slBool}, {slStr, "istitle", "", slBool},
	{slStr, "isupper", "", slBool}, {slStr, "join", "l", slStr}, {slStr, "lower", "", slStr},
	{slStr, "lstrip", "s?", slStr}, {slStr, "partition", "s", slTuple}, {slStr, "removeprefix", "s", slStr},
	{slStr, "removesuffix", "s", slStr}, {slStr, "replace", "ss", slStr}, {slStr, "rfind", "s", slInt},
	{slStr, "rindex", "s", slInt}, {slStr, "rpartition", "s", slTuple}, {slStr, "rsplit", "s?", slList},
	{slStr, "rstrip", "s?", slStr}, {slStr, "split", "s?", slList}, {slStr, "splitlines", "", slList},
	{slStr, "startswith", "s", slBool}, {slStr, "strip", "s?", slStr}, {slStr, "title", "", slStr},
	{slStr, "upper", "", slStr}, {slStr, "elems", "", slAny}, {slStr, "codepoints", "", slAny},
	{slBytes, "elems", "", slAny},
	{slList, "append", "x", slNone}, {slList, "clear", "", slNone}, {slList, "extend", "I", slNone},
	{slList, "index", "x", slInt}, {slList, "insert", "nx", slNone}, {slList, "pop", "n?", slAny},
	{slList, "remove", "x", slNone},
	{slDict, "clear", "", slNone}, {slDict, "get", "sx?", slAny}, {slDict, "items", "", slList},
	{slDict, "keys", "", slList}, {slDict, "pop", "sx?", slAny}, {slDict, "popitem", "", slTuple},
	{slDict, "setdefault", "sx", slAny}, {slDict, "update", "d", slNone}, {slDict, "values", "", slList},
	{slSet, "add", "x", slNone}, {slSet, "union", "I", slSet}, {slSet, "difference", "I", slSet},
	{slSet, "intersection", "I", slSet}, {slSet, "issubset", "I", slBool}, {slSet, "discard", "x", slNone},
}

// slModuleFuncs are the functions and constants of the lib modules (the
// packages' documentation); a constant has args "-".
var slModuleFuncs = []struct {
	mod string
	slCallable
}{
	{"json", slCallable{0, "encode", "x", slStr}}, {"json", slCallable{0, "decode", "s", slAny}},
	{"json", slCallable{0, "indent", "s", slStr}},
	{"math", slCallable{0, "sqrt", "f", slFloat}}, {"math", slCallable{0, "floor", "f", slInt}},
	{"math", slCallable{0, "ceil", "f", slInt}}, {"math", slCallable{0, "fabs", "f", slFloat}},
	{"math", slCallable{0, "pow", "ff", slFloat}}, {"math", slCallable{0, "log", "f", slFloat}},
	{"math", slCallable{0, "round", "f", slFloat}}, {"math", slCallable{0, "mod", "ff", slFloat}},
	{"math", slCallable{0, "pi", "-", slFloat}}, {"math", slCallable{0, "e", "-", slFloat}},
}

var (
	slNames   = gen.Tokens("a", "b", "c", "x", "y", "s", "t", "v2", "lst", "items", "res", "acc", "tmp", "val", "total", "count", "name", "data", "obj", "parts", "ok", "seq", "result", "key2")
	slFnNames = gen.Tokens("f", "g", "fn", "add", "helper", "check", "build", "apply", "fib", "sum_of")
	slParams  = []string{"p", "q", "r", "k", "v", "arg", "xs"}
	slKeys    = gen.Tokens(`"name"`, `"x"`, `"y"`, `"id"`, `"tags"`, `"n"`, `"value"`, `"ok"`, `"items"`, `"limit"`, `"a"`)
	// Integer literals: small ones mostly, the boundaries of the common
	// integer widths, and the other bases of the specification.
	slIntLit = gen.OneOfWeighted(
		gen.W(12, gen.Map(gen.IntRange(0, 20), itoa)),
		gen.W(2, gen.Tokens("100", "127", "128", "255", "256", "1000", "32767", "65535", "65536", "2147483647", "2147483648",
			"4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551616")),
		gen.W(1, gen.Tokens("0x1f", "0XFF", "0o17", "0O777", "0b101", "0B11", "0x7fffffff", "0")),
	)
	slFloatLit = gen.Tokens("0.5", "1.5", "3.14", "2.0", "0.0", "1e3", "2.5e-3", "100.25", "1e10", ".5", "1.", "1E-2")
	slStrChars = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcxyz ABC019,.-_:/", 0, 5)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\"`, `\x41`, `\u00e9`, `\U0001F600`, `\101`, "é", "水", "%s", "{}", "{0}")),
	)
	slArith   = gen.Tokens("+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>")
	slCompare = gen.Tokens("==", "!=", "<", "<=", ">", ">=")
	slAugment = gen.Tokens("+=", "-=", "*=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>=")
	slComment = gen.Tokens("# comment", "# TODO: more", "#")
)

// slVar is a name in scope: its kind and, for a function, its number of
// parameters; ro marks loop variables and the host's values, which the
// program never assigns.
type slVar struct {
	name   string
	kind   byte
	params []string // a function's parameters, for keyword arguments
	ro     bool
}

type slWriter struct {
	t      *gfz.T
	cfg    StarlarkConfig
	scopes [][]slVar // globals first, a function's locals last
	// fn: inside a def (return); loop: inside a loop (break, continue)
	fn, loop bool
	indent   int
	counters int // while-loop counters drawn so far, for unique names
}

func (w *slWriter) pick(n int) int { return gen.IntRange(0, n-1).Draw(w.t) }

func (w *slWriter) chance(in int) bool { return gen.IntRange(0, in-1).Draw(w.t) == 0 }

func (w *slWriter) pad() string { return strings.Repeat("    ", w.indent) }

// visible returns the names in scope, later definitions shadowing
// earlier ones.
func (w *slWriter) visible() []slVar {
	seen := map[string]bool{}
	var vs []slVar
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

// kindFits reports whether a value of kind have serves where kind want is
// wanted.
func slKindFits(want, have byte) bool {
	switch want {
	case slAny:
		return have != slFunc
	case slSeq:
		return have == slList || have == slTuple || have == slStr || have == slBytes || have == slRange
	case slIter:
		return have == slList || have == slTuple || have == slRange || have == slDict || have == slSet
	case slFloat:
		return have == slFloat || have == slInt
	case slCount:
		return false // counts are literals: a variable may hold anything
	}
	return want == have
}

// varOf draws a visible name whose value serves as kind k, assignable
// ones only when assignable is set.
func (w *slWriter) varOf(k byte, assignable bool) (slVar, bool) {
	var cands []slVar
	for _, v := range w.visible() {
		if slKindFits(k, v.kind) && (!assignable || !v.ro) {
			cands = append(cands, v)
		}
	}
	if len(cands) == 0 {
		return slVar{}, false
	}
	return cands[w.pick(len(cands))], true
}

func (w *slWriter) define(v slVar) {
	s := w.scopes[len(w.scopes)-1]
	for i := range s {
		if s[i].name == v.name {
			s[i] = v
			return
		}
	}
	w.scopes[len(w.scopes)-1] = append(s, v)
}

// str draws a string literal: single, double or triple quoted, sometimes
// raw.
func (w *slWriter) str() string {
	var b strings.Builder
	for range w.pick(3) {
		b.WriteString(slStrChars.Draw(w.t))
	}
	body := b.String()
	switch w.pick(8) {
	case 0:
		return `r"` + strings.TrimRight(strings.NewReplacer(`\"`, ``, `"`, ``).Replace(body), `\`) + `"`
	case 1:
		return `"""` + strings.ReplaceAll(body, `"`, ``) + "\n" + `"""`
	case 2, 3:
		return `'` + strings.NewReplacer(`\"`, `"`, `'`, ``).Replace(body) + `'`
	}
	return `"` + body + `"`
}

// literal draws a literal (or a simple constructor) of kind k.
func (w *slWriter) literal(k byte) string {
	switch k {
	case slInt:
		return slIntLit.Draw(w.t)
	case slFloat:
		if w.chance(2) {
			return slIntLit.Draw(w.t)
		}
		return slFloatLit.Draw(w.t)
	case slStr:
		return w.str()
	case slBool:
		return gen.Tokens("True", "False").Draw(w.t)
	case slCount:
		return itoa(w.pick(8))
	case slBytes:
		s := w.str()
		if s[0] == 'r' {
			return "rb" + s[1:]
		}
		return "b" + s
	case slNone:
		return "None"
	case slList:
		return "[]"
	case slDict:
		return "{}"
	case slTuple:
		return "()"
	case slSet:
		return "set()"
	case slRange:
		return "range(" + itoa(w.pick(10)) + ")"
	case slSeq:
		return w.literal(gen.Tokens("l", "t", "s", "r", "y").Draw(w.t)[0])
	case slIter:
		return w.literal(gen.Tokens("l", "t", "r", "d").Draw(w.t)[0])
	}
	switch w.pick(6) {
	case 0, 1:
		return slIntLit.Draw(w.t)
	case 2:
		return slFloatLit.Draw(w.t)
	case 3:
		return w.str()
	case 4:
		return gen.Tokens("True", "False").Draw(w.t)
	}
	return "None"
}

// expr draws an expression that yields a value of kind k most of the
// time (the language is dynamically typed: the run decides).
func (w *slWriter) expr(k byte, depth int) string {
	if depth <= 0 || w.chance(3) {
		return w.atom(k, depth)
	}
	d := depth - 1
	switch k {
	case slInt, slFloat:
		switch w.pick(8) {
		case 0, 1, 2:
			return w.operand(k, d) + " " + slArith.Draw(w.t) + " " + w.operand(k, d)
		case 3:
			return gen.Tokens("-", "+", "~").Draw(w.t) + w.operand(k, d)
		case 4:
			return "len(" + w.expr(slSeq, d) + ")"
		case 5:
			return w.cond(k, d)
		case 6:
			return w.index(k, d)
		default:
			return w.call(k, d)
		}
	case slStr:
		switch w.pick(7) {
		case 0, 1:
			return w.operand(slStr, d) + " + " + w.operand(slStr, d)
		case 2:
			return w.format(d)
		case 3:
			return w.sliced(slStr, d)
		case 4:
			return w.cond(k, d)
		default:
			return w.call(k, d)
		}
	case slBool:
		switch w.pick(7) {
		case 0, 1:
			ck := gen.Tokens("i", "f", "s", "x").Draw(w.t)[0]
			return w.operand(ck, d) + " " + slCompare.Draw(w.t) + " " + w.operand(ck, d)
		case 2:
			return w.operand(slBool, d) + " " + gen.Tokens("and", "or").Draw(w.t) + " " + w.operand(slBool, d)
		case 3:
			return "not " + w.operand(slAny, d)
		case 4:
			return w.operand(slAny, d) + gen.Tokens(" in ", " not in ").Draw(w.t) + w.operand(gen.Tokens("l", "d", "s", "t", "r").Draw(w.t)[0], d)
		default:
			return w.call(k, d)
		}
	case slList:
		switch w.pick(7) {
		case 0, 1:
			return w.listLit(d)
		case 2:
			return w.comprehension(d)
		case 3:
			return w.sliced(slList, d)
		case 4:
			return w.operand(slList, d) + " + " + w.operand(slList, d)
		case 5:
			return w.operand(slList, d) + " * " + w.literal(slCount)
		default:
			return w.call(k, d)
		}
	case slTuple:
		switch w.pick(3) {
		case 0:
			return w.sliced(slTuple, d)
		case 1:
			return w.call(k, d)
		}
		return w.tupleLit(d)
	case slDict:
		if w.chance(4) {
			return w.dictComprehension(d)
		}
		if w.chance(4) {
			return w.operand(slDict, d) + " | " + w.operand(slDict, d)
		}
		return w.dictLit(d)
	case slRange:
		if w.chance(2) {
			return w.sliced(slRange, d)
		}
		return w.call(k, d)
	case slSeq:
		return w.expr(gen.Tokens("l", "t", "s", "r", "y").Draw(w.t)[0], depth)
	case slIter:
		return w.expr(gen.Tokens("l", "t", "r", "d", "S").Draw(w.t)[0], depth)
	case slSet:
		if w.chance(3) {
			return w.operand(slSet, d) + " " + gen.Tokens("|", "&", "-", "^").Draw(w.t) + " " + w.operand(slSet, d)
		}
		return "set(" + w.expr(slList, d) + ")"
	case slFunc:
		return w.lambda(1, d)
	case slAny:
		switch w.pick(12) {
		case 0:
			return w.listLit(d)
		case 1:
			return w.dictLit(d)
		case 2:
			return w.lambda(w.pick(3), d)
		case 3:
			return w.cond(slAny, d)
		case 4, 5:
			return w.index(slAny, d)
		case 6, 7:
			return w.call(slAny, d)
		default:
			return w.expr(gen.Tokens("i", "f", "s", "b", "l", "t", "r").Draw(w.t)[0], depth)
		}
	}
	return w.atom(k, depth)
}

// operand draws an expression usable as an operand: an atom, a call, or
// a parenthesized expression.
func (w *slWriter) operand(k byte, depth int) string {
	if depth > 0 && w.chance(4) {
		return "(" + w.expr(k, depth) + ")"
	}
	if depth > 0 && w.chance(4) {
		return w.call(k, depth)
	}
	return w.atom(k, depth)
}

// atom draws a name or a literal of kind k, or a module's constant.
func (w *slWriter) atom(k byte, depth int) string {
	if w.chance(2) {
		if v, ok := w.varOf(k, false); ok {
			return v.name
		}
	}
	if (k == slFloat || k == slAny) && w.hasModule("math") && w.chance(8) {
		return "math." + gen.Tokens("pi", "e").Draw(w.t)
	}
	if k == slFunc {
		return w.lambda(1, depth-1)
	}
	return w.literal(k)
}

func (w *slWriter) hasModule(m string) bool {
	for _, x := range w.cfg.Modules {
		if x == m {
			return true
		}
	}
	return false
}

// slFormats are the format strings of the % operator, with the number of
// values each takes.
var slFormats = []struct {
	f string
	n int
}{{`"%s"`, 1}, {`"%d items"`, 1}, {`"%r"`, 1}, {`"x=%s, y=%s"`, 2}, {`"%x|%o"`, 2}, {`"%d%%"`, 1}, {`"(%s, %r, %d)"`, 3}}

// format draws a use of the % operator: a format string and a value, or a
// tuple of values.
func (w *slWriter) format(depth int) string {
	f := slFormats[w.pick(len(slFormats))]
	if f.n == 1 && w.chance(2) {
		return f.f + " % " + w.operand(slAny, depth)
	}
	vs := make([]string, f.n)
	for i := range vs {
		vs[i] = w.expr(gen.Tokens("i", "s", "x").Draw(w.t)[0], depth)
	}
	if f.n == 1 {
		return f.f + " % (" + vs[0] + ",)"
	}
	return f.f + " % (" + strings.Join(vs, ", ") + ")"
}

// cond draws a conditional expression.
func (w *slWriter) cond(k byte, depth int) string {
	return w.operand(k, depth) + " if " + w.operand(slBool, depth) + " else " + w.operand(k, depth)
}

// index draws an index expression of a list, tuple, string, range or
// dict, or a field of a module.
func (w *slWriter) index(k byte, depth int) string {
	if w.chance(3) {
		return w.operand(slDict, depth) + "[" + slKeys.Draw(w.t) + "]"
	}
	return w.operand(gen.Tokens("l", "t", "s", "r").Draw(w.t)[0], depth) + "[" + w.indexExpr(depth) + "]"
}

// indexExpr draws an index or a slice bound: an int expression, often a
// small or negative literal.
func (w *slWriter) indexExpr(depth int) string {
	if w.chance(2) {
		n := itoa(w.pick(5))
		if w.chance(3) {
			n = "-" + n
		}
		return n
	}
	return w.expr(slInt, depth-1)
}

// sliced draws a slice expression, x[lo:hi] or x[lo:hi:step] with each
// part optional, of a sequence of kind k.
func (w *slWriter) sliced(k byte, depth int) string {
	var lo, hi string
	if !w.chance(3) {
		lo = w.indexExpr(depth)
	}
	if !w.chance(3) {
		hi = w.indexExpr(depth)
	}
	s := w.operand(k, depth) + "[" + lo + ":" + hi
	if w.chance(3) {
		s += ":"
		if !w.chance(4) {
			s += w.indexExpr(depth)
		}
	}
	return s + "]"
}

// listLit draws a list literal.
func (w *slWriter) listLit(depth int) string {
	items := make([]string, w.pick(w.cfg.MaxStmts+1))
	for i := range items {
		items[i] = w.expr(gen.Tokens("i", "i", "s", "f", "b", "x").Draw(w.t)[0], depth-1)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// tupleLit draws a tuple literal (one element takes a trailing comma).
func (w *slWriter) tupleLit(depth int) string {
	items := make([]string, w.pick(w.cfg.MaxStmts+1))
	for i := range items {
		items[i] = w.expr(gen.Tokens("i", "s", "b", "x").Draw(w.t)[0], depth-1)
	}
	if len(items) == 1 {
		return "(" + items[0] + ",)"
	}
	return "(" + strings.Join(items, ", ") + ")"
}

// dictLit draws a dict literal with string and int keys.
func (w *slWriter) dictLit(depth int) string {
	items := make([]string, w.pick(w.cfg.MaxStmts+1))
	for i := range items {
		key := slKeys.Draw(w.t)
		if w.chance(4) {
			key = w.literal(slInt)
		}
		items[i] = key + ": " + w.expr(slAny, depth-1)
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// clauses draws the for and if clauses of a comprehension; its loop
// variable is in scope of the element (set by the caller's scope).
func (w *slWriter) clauses(depth int) string {
	s := ""
	for i := range 1 + w.pick(2) {
		if i > 0 && w.chance(2) {
			s += " if " + w.expr(slBool, depth)
			continue
		}
		v := gen.Tokens("e", "i", "item", "ch").Draw(w.t)
		s += " for " + v + " in " + w.expr(slIter, depth)
		w.define(slVar{name: v, kind: slAny, ro: true})
	}
	return s
}

// comprehension draws a list comprehension.
func (w *slWriter) comprehension(depth int) string {
	w.scopes = append(w.scopes, nil)
	cl := w.clauses(depth - 1)
	e := w.expr(slAny, depth-1)
	w.scopes = w.scopes[:len(w.scopes)-1]
	return "[" + e + cl + "]"
}

// dictComprehension draws a dict comprehension.
func (w *slWriter) dictComprehension(depth int) string {
	w.scopes = append(w.scopes, nil)
	cl := w.clauses(depth - 1)
	k := w.expr(gen.Tokens("s", "i").Draw(w.t)[0], depth-1)
	v := w.expr(slAny, depth-1)
	w.scopes = w.scopes[:len(w.scopes)-1]
	return "{" + k + ": " + v + cl + "}"
}

// lambda draws a lambda of n parameters.
func (w *slWriter) lambda(n, depth int) string {
	ps := make([]string, n)
	copy(ps, slParams[w.pick(len(slParams)-n+1):])
	w.scopes = append(w.scopes, nil)
	for _, p := range ps {
		w.define(slVar{name: p, kind: slAny})
	}
	body := w.expr(slAny, depth)
	w.scopes = w.scopes[:len(w.scopes)-1]
	if n == 0 {
		return "lambda: " + body
	}
	return "lambda " + strings.Join(ps, ", ") + ": " + body
}

// args draws the arguments of kinds spec (a trailing '?' makes the last
// one optional).
func (w *slWriter) args(spec string, depth int) string {
	if strings.HasSuffix(spec, "?") {
		spec = spec[:len(spec)-1]
		if w.chance(2) {
			spec = spec[:len(spec)-1]
		}
	}
	as := make([]string, len(spec))
	for i := range spec {
		as[i] = w.expr(spec[i], depth)
	}
	return strings.Join(as, ", ")
}

// call draws a call whose result is of kind k where possible: of a
// builtin, a method of a receiver of its type, a module's function, a
// defined function (with keyword or unpacked arguments sometimes), or a
// lambda on the spot.
func (w *slWriter) call(k byte, depth int) string {
	d := max(depth-1, 0)
	if w.chance(4) {
		if v, ok := w.varOf(slFunc, false); ok {
			as := make([]string, len(v.params))
			for i := range as {
				as[i] = w.expr(slAny, d)
			}
			switch {
			case len(as) > 0 && w.chance(4):
				return v.name + "(*" + w.tupleLit(d) + ")"
			case len(as) > 0 && w.chance(4):
				as[len(as)-1] = v.params[len(as)-1] + "=" + as[len(as)-1]
			}
			return v.name + "(" + strings.Join(as, ", ") + ")"
		}
	}
	fits := func(ret byte) bool { return slKindFits(k, ret) || k == slAny || (k == slList && ret == slAny) }
	var cands []string
	for _, f := range slBuiltins {
		if fits(f.ret) {
			cands = append(cands, f.name+"("+f.args)
		}
	}
	for _, f := range slModuleFuncs {
		if w.hasModule(f.mod) && fits(f.ret) {
			if f.args == "-" {
				cands = append(cands, f.mod+"."+f.name)
			} else {
				cands = append(cands, f.mod+"."+f.name+"("+f.args)
			}
		}
	}
	var methods []slCallable
	for _, m := range slMethods {
		if fits(m.ret) {
			methods = append(methods, m)
		}
	}
	if len(methods) > 0 && (len(cands) == 0 || w.chance(2)) {
		m := methods[w.pick(len(methods))]
		return w.operand(m.recv, d) + "." + m.name + "(" + w.args(m.args, d) + ")"
	}
	if len(cands) == 0 {
		return w.literal(k)
	}
	c := cands[w.pick(len(cands))]
	name, spec, isCall := strings.Cut(c, "(")
	if !isCall {
		return name
	}
	return name + "(" + w.args(spec, d) + ")"
}

// block draws an indented block of statements.
func (w *slWriter) block(depth int, prefix ...string) string {
	var b strings.Builder
	w.indent++
	for _, p := range prefix {
		b.WriteString(w.pad() + p + "\n")
	}
	for range w.pick(w.cfg.MaxStmts) + 1 {
		b.WriteString(w.pad() + w.stmt(depth-1) + "\n")
	}
	w.indent--
	return strings.TrimSuffix(b.String(), "\n")
}

// loopBody draws the block of a loop, where break and continue are
// allowed.
func (w *slWriter) loopBody(depth int, prefix ...string) string {
	saved := w.loop
	w.loop = true
	s := w.block(depth, prefix...)
	w.loop = saved
	return s
}

// def draws a function definition (at the top level: the generator puts
// lambdas, not nested defs, inside functions).
func (w *slWriter) def(depth int) string {
	name := slFnNames.Draw(w.t)
	n := w.pick(4)
	ps := make([]string, n)
	copy(ps, slParams[w.pick(len(slParams)-n+1):])
	names := append([]string(nil), ps...)
	for i := range ps {
		if i == n-1 && w.chance(4) {
			ps[i] += " = " + w.literal(slAny)
		}
	}
	if w.chance(8) {
		ps = append(ps, gen.Tokens("*args", "**kwargs").Draw(w.t))
	}
	savedFn, savedLoop := w.fn, w.loop
	w.fn, w.loop = true, false
	w.scopes = append(w.scopes, nil)
	for _, p := range ps {
		p, _, _ = strings.Cut(strings.TrimLeft(p, "*"), " ")
		kind := byte(slAny)
		if p == "args" {
			kind = slTuple
		} else if p == "kwargs" {
			kind = slDict
		}
		w.define(slVar{name: p, kind: kind})
	}
	var b strings.Builder
	b.WriteString("def " + name + "(" + strings.Join(ps, ", ") + "):\n")
	if w.chance(4) {
		b.WriteString(w.pad() + "    \"\"\"" + gen.Tokens("Docstring.", "Returns a value.", "Helper.").Draw(w.t) + "\"\"\"\n")
	}
	b.WriteString(w.block(depth))
	if w.chance(2) {
		w.indent++
		b.WriteString("\n" + w.pad() + "return " + w.expr(slAny, depth-1))
		w.indent--
	}
	w.scopes = w.scopes[:len(w.scopes)-1]
	w.fn, w.loop = savedFn, savedLoop
	w.define(slVar{name: name, kind: slFunc, params: names})
	return b.String()
}

// target draws an assignable expression: a name, an element of a list or
// dict name, or a pair of names to unpack into; the kind of what to
// assign, and the names it defines, which the caller defines once it has
// drawn the value (which must not read them).
func (w *slWriter) target(depth int) (string, byte, []slVar) {
	if w.chance(4) {
		if v, ok := w.varOf(gen.Tokens("l", "d").Draw(w.t)[0], false); ok {
			// An element gets a scalar: a container stored into an
			// element could make the value contain itself.
			k := gen.Tokens("i", "s", "b", "f").Draw(w.t)[0]
			if v.kind == slDict {
				return v.name + "[" + slKeys.Draw(w.t) + "]", k, nil
			}
			return v.name + "[" + w.indexExpr(depth) + "]", k, nil
		}
	}
	if w.chance(8) {
		a, b := slNames.Draw(w.t), slNames.Draw(w.t)
		if a != b {
			return a + ", " + b, slTuple, []slVar{{name: a, kind: slAny}, {name: b, kind: slAny}}
		}
	}
	k := gen.Tokens("i", "i", "f", "s", "s", "b", "l", "l", "d", "t", "r", "x", "S", "y").Draw(w.t)[0]
	name := slNames.Draw(w.t)
	return name, k, []slVar{{name: name, kind: k}}
}

// assign draws an assignment statement.
func (w *slWriter) assign(depth int) string {
	t, k, defs := w.target(depth)
	var value string
	if len(defs) == 2 {
		value = w.operand(slAny, depth) + ", " + w.operand(slAny, depth)
	} else {
		value = w.expr(k, depth)
	}
	for _, v := range defs {
		w.define(v)
	}
	return t + " = " + value
}

// counter returns a new while-loop counter's name.
func (w *slWriter) counter() string {
	w.counters++
	return "i" + itoa(w.counters)
}

// stmt draws a statement of any kind the context allows: assignments
// (with unpacking and the augmented operators), expression statements,
// if/elif/else, for loops over sequences, while loops (each bounded by a
// counter the program never assigns otherwise), pass, and return, break
// and continue where allowed.
func (w *slWriter) stmt(depth int) string {
	if depth <= 0 {
		return w.assign(0)
	}
	d := depth - 1
	switch w.pick(18) {
	case 0, 1, 2, 3, 4, 5:
		return w.assign(d)
	case 6:
		if v, ok := w.varOf(gen.Tokens("i", "s", "l").Draw(w.t)[0], true); ok {
			switch v.kind {
			case slInt:
				return v.name + " " + slAugment.Draw(w.t) + " " + w.expr(slInt, d)
			case slStr:
				return v.name + " += " + w.expr(slStr, d)
			default:
				return v.name + " += " + w.expr(slList, d)
			}
		}
		return w.call(slAny, depth)
	case 7, 8:
		return w.call(gen.Tokens("N", "x").Draw(w.t)[0], depth)
	case 9, 10:
		s := "if " + w.expr(slBool, d) + ":\n" + w.block(depth)
		for w.chance(4) {
			s += "\n" + w.pad() + "elif " + w.expr(slBool, d) + ":\n" + w.block(depth)
		}
		if w.chance(2) {
			s += "\n" + w.pad() + "else:\n" + w.block(depth)
		}
		return s
	case 11, 12:
		coll := w.expr(gen.Tokens("l", "l", "r", "t", "d", "I").Draw(w.t)[0], d)
		var head string
		if w.chance(3) {
			a, b := gen.Tokens("k", "idx", "key").Draw(w.t), gen.Tokens("v", "item", "e").Draw(w.t)
			head = a + ", " + b
			coll = gen.Tokens("enumerate(", "zip(").Draw(w.t) + coll + ")"
			if strings.HasPrefix(coll, "zip(") {
				coll = coll[:len(coll)-1] + ", " + w.expr(slIter, d) + ")"
			}
			w.define(slVar{name: a, kind: slAny, ro: true})
			w.define(slVar{name: b, kind: slAny, ro: true})
		} else {
			head = gen.Tokens("v", "item", "e", "x").Draw(w.t)
			w.define(slVar{name: head, kind: slAny, ro: true})
		}
		return "for " + head + " in " + coll + ":\n" + w.loopBody(depth)
	case 13:
		c := w.counter()
		w.define(slVar{name: c, kind: slInt, ro: true})
		return c + " = 0\n" + w.pad() + "while " + c + " < " + itoa(w.pick(6)) + ":\n" + w.loopBody(depth, c+" += 1")
	case 14:
		if w.fn {
			if w.chance(4) {
				return "return"
			}
			return "return " + w.expr(slAny, d)
		}
		return "pass"
	case 15:
		if w.loop {
			return gen.Tokens("break", "continue").Draw(w.t)
		}
		return "pass"
	case 16:
		return slComment.Draw(w.t) + "\n" + w.pad() + w.stmt(d)
	}
	return w.assign(d)
}

// Starlark generates Starlark programs (the language of go.starlark.net,
// as its specification, doc/spec.md, describes it, in the dialect with
// sets, while loops, top-level control statements and global
// reassignment): function definitions with default, *args and **kwargs
// parameters and docstrings, then statements of every kind (assignments
// with unpacking and augmented operators, expression statements,
// if/elif/else, for loops over lists, ranges, tuples, dicts, strings,
// enumerate and zip, while loops, pass, return, break and continue where
// allowed, comments) over expressions of every kind (int literals in the
// four bases, float, string, raw, triple-quoted and bytes literals, None
// and booleans, list, tuple and dict literals, list and dict
// comprehensions, lambdas, conditional expressions, unary and binary
// operators, membership tests, string formatting with %, indexes and
// slices with an optional step, calls of the builtins, of the built-in
// types' methods on receivers of their type, of the host's modules and of
// defined functions with keyword or unpacked arguments). A program's own
// work is bounded: while loops count to a small number, repetition counts
// are small, and an element of a list or dict is only assigned a scalar.
// MistakesPer per mille of programs go through Corrupt.
func Starlark(cfg StarlarkConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &slWriter{t: t, cfg: cfg, scopes: [][]slVar{nil}}
		for _, v := range cfg.Vars {
			k := byte(slAny)
			switch v.Kind {
			case "int":
				k = slInt
			case "float":
				k = slFloat
			case "string":
				k = slStr
			case "bool":
				k = slBool
			case "list":
				k = slList
			case "dict":
				k = slDict
			}
			w.define(slVar{name: v.Name, kind: k, ro: true})
		}
		var b strings.Builder
		for range w.pick(3) {
			b.WriteString(w.def(cfg.MaxDepth) + "\n\n")
		}
		for range w.pick(cfg.MaxStmts+1) + 1 {
			b.WriteString(w.stmt(cfg.MaxDepth) + "\n")
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
