package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// LuaConfig tunes Lua.
type LuaConfig struct {
	MaxDepth    int // nesting of blocks, functions and expressions; default 3
	MaxStmts    int // statements per block, arguments, fields; default 3
	MistakesPer int // per mille of programs passed through Corrupt; default 0
}

func (c LuaConfig) withDefaults() LuaConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 3
	}
	return c
}

// luaType is the type a Lua expression is drawn for. The generator keeps
// every variable at the type of its first value, so that the programs
// mostly run without a runtime error (arithmetic on a string, a call of a
// number); luaAny is a value of any type, nil included, used where Lua
// accepts any value.
type luaType int

const (
	luaAny luaType = iota
	luaNum
	luaStr
	luaBool
	luaTable   // a record (named fields) or mixed table
	luaNumList // a sequence of numbers
	luaStrList // a sequence of strings
	luaFunc
	luaNumTypes
)

// luaSig is the signature of a function value: its parameters' types,
// whether it takes "...", and its result (luaAny for a function that may
// return nothing).
type luaSig struct {
	params []luaType
	vararg bool
	ret    luaType
}

// luaVar is a variable (local, global, parameter, or a table's field) and
// its type; sig is the signature of a function, fields the known fields
// of a record table (methods included).
type luaVar struct {
	name   string
	ty     luaType
	sig    *luaSig
	fields []*luaVar
	method bool // a field defined with "function t:name", called with ":"
	fixed  bool // a loop's counter, not assigned in the loop's body
}

// luaFn is the function being drawn: whether "..." is allowed, its
// result type, whether a loop encloses the statement (break), whether it
// runs as a coroutine (coroutine.yield), and the function itself, which
// its body does not call (no unbounded recursion).
type luaFn struct {
	top    bool // the main chunk
	vararg bool
	ret    luaType
	hasRet bool
	loop   bool
	co     bool
	self   *luaVar
}

type luaWriter struct {
	t      *gfz.T
	cfg    LuaConfig
	scopes [][]*luaVar // the blocks' locals, innermost last
	global []*luaVar   // globals assigned at the top level of the chunk
	fn     *luaFn
	indent int
}

var (
	luaLocalNames  = []string{"a", "b", "c", "i", "j", "k", "n", "s", "t", "v", "x", "y", "f", "g", "acc", "list", "str", "tmp", "ok", "res"}
	luaCounters    = []string{"cnt", "iter", "round"}
	luaGlobalNames = []string{"count", "name", "data", "total", "config", "M", "util", "items", "Counter", "last"}
	luaFieldNames  = []string{"x", "y", "n", "id", "name", "value", "items", "size", "kind", "left", "next_", "cb"}
	luaSmallInts   = []string{"0", "1", "2", "3", "4", "5", "7", "10", "-1", "100"}
	luaNumLits     = []string{"0.5", "1.5", "3.14", "1e3", "2e-2", "0x10", "0xff", ".25", "255", "1024", "65", "97", "12", "42", "1e308", "0.1"}
	luaStrChars    = []string{"a", "b", "c", "x", "y", "z", "A", "Z", "0", "1", "9", " ", ",", ".", "-", "_", "=", ":", "/", "%", "(", ")", "[", "é"}
	luaStrEscapes  = []string{`\n`, `\t`, `\\`, `\"`, `\'`, `\065`, `\0`, `\255`, `\r`, `\a`, `\b`, `\f`, `\v`, "\\\n"}
	luaPatterns    = []string{"%a+", "%d+", "%w+", "%s", "%S+", "(%w+)=(%w+)", "^%s*(.-)%s*$", "[%a_][%w_]*", "%%", ".", "x*", "[^,]+", "^(%d+)", "(%a)(%d)", "%p", "a-b", "[aeiou]", "%u%l*", "()a", "%.", "b?c", "[%d%.]+", "%bxy", "$"}
	luaFormats     = []string{"%d", "%5d", "%-3d", "%x", "%X", "%o", "%5.2f", "%g", "%e", "%s", "%10s", "%-4s", "%q", "%c", "%%"}
	luaComments    = []string{"-- note", "--", "--[[ block ]]", "--[==[ long\n comment ]==]", "-- TODO: x"}
	luaArith       = []string{"+", "-", "*", "/", "%", "^"}
	luaCompare     = []string{"<", "<=", ">", ">="}
)

// luaPicks[n] draws an int in [0, n).
var luaPicks = func() []gen.Generator[int] {
	gs := make([]gen.Generator[int], 64)
	for n := 1; n < len(gs); n++ {
		gs[n] = gen.IntRange(0, n-1)
	}
	return gs
}()

func (w *luaWriter) pick(n int) int {
	if n < len(luaPicks) {
		return luaPicks[n].Draw(w.t)
	}
	return gen.IntRange(0, n-1).Draw(w.t)
}

func (w *luaWriter) chance(n int) bool { return w.pick(n) == 0 }
func (w *luaWriter) token(ws []string) string {
	return ws[w.pick(len(ws))]
}

// Lua operator precedences (Lua 5.1 reference manual, 2.5.6), lowest
// first; luaPrimary is a prefix expression or a literal.
const (
	luaPrecOr = iota + 1
	luaPrecAnd
	luaPrecCmp
	luaPrecConcat
	luaPrecAdd
	luaPrecMul
	luaPrecUnary
	luaPrecPow
	luaPrimary
)

// luaExp is a drawn expression, its precedence, and whether it is a
// literal constant (nil, a boolean, a number or a string).
type luaExp struct {
	s     string
	prec  int
	konst bool
}

func luaPrim(s string) luaExp  { return luaExp{s: s, prec: luaPrimary} }
func luaKonst(s string) luaExp { return luaExp{s: s, prec: luaPrimary, konst: true} }

// paren writes e as an operand of an operator of precedence p.
func luaParen(e luaExp, p int) string {
	if e.prec < p {
		return "(" + e.s + ")"
	}
	return e.s
}

// binop writes l op r; the right-associative operators (.. and ^)
// parenthesize an equal left operand, the others an equal right one.
func luaBinop(l luaExp, op string, r luaExp, p int) luaExp {
	rightAssoc := op == ".." || op == "^"
	ls, rs := luaParen(l, p), luaParen(r, p)
	if rightAssoc && l.prec == p {
		ls = "(" + l.s + ")"
	}
	if !rightAssoc && r.prec == p {
		rs = "(" + r.s + ")"
	}
	return luaExp{s: ls + " " + op + " " + rs, prec: p}
}

// unop writes a unary operator; "- -x" keeps its space (not a comment).
func luaUnop(op string, e luaExp) luaExp {
	s := luaParen(e, luaPrecUnary)
	if op == "-" && strings.HasPrefix(s, "-") {
		s = "(" + s + ")"
	}
	return luaExp{s: op + s, prec: luaPrecUnary}
}

// --- scopes ---

func (w *luaWriter) push() { w.scopes = append(w.scopes, nil) }
func (w *luaWriter) pop()  { w.scopes = w.scopes[:len(w.scopes)-1] }
func (w *luaWriter) declare(v *luaVar) {
	w.scopes[len(w.scopes)-1] = append(w.scopes[len(w.scopes)-1], v)
}

// atChunkTop reports whether the statement being drawn is in the chunk's
// own block (not in a function, loop or nested block): what it assigns
// is set on every path that follows.
func (w *luaWriter) atChunkTop() bool { return len(w.scopes) == 1 && w.fn.top && !w.fn.loop }

// lookup finds the visible variable named n: the innermost local, else a
// global.
func (w *luaWriter) lookup(n string) *luaVar {
	for i := len(w.scopes) - 1; i >= 0; i-- {
		s := w.scopes[i]
		for j := len(s) - 1; j >= 0; j-- {
			if s[j].name == n {
				return s[j]
			}
		}
	}
	for j := len(w.global) - 1; j >= 0; j-- {
		if w.global[j].name == n {
			return w.global[j]
		}
	}
	return nil
}

// visible returns the variables in scope of type ty (luaAny: of any type),
// each name once (the innermost declaration), in declaration order.
func (w *luaWriter) visible(ty luaType) []*luaVar {
	var out []*luaVar
	seen := make(map[string]bool) // looked up, never iterated
	add := func(v *luaVar) {
		if seen[v.name] {
			return
		}
		seen[v.name] = true
		if (ty == luaAny || v.ty == ty) && v != w.fn.self {
			out = append(out, v)
		}
	}
	for i := len(w.scopes) - 1; i >= 0; i-- {
		s := w.scopes[i]
		for j := len(s) - 1; j >= 0; j-- {
			add(s[j])
		}
	}
	for j := len(w.global) - 1; j >= 0; j-- {
		add(w.global[j])
	}
	return out
}

func (w *luaWriter) varOf(ty luaType) *luaVar {
	vs := w.visible(ty)
	if len(vs) == 0 {
		return nil
	}
	return vs[w.pick(len(vs))]
}

// callables returns the visible functions (variables, and fields of
// visible tables) other than the one being drawn.
func (w *luaWriter) callables(ret luaType) []string {
	var out []string
	add := func(prefix string, v *luaVar, sep string) {
		if v.ty == luaFunc && v.sig != nil && v != w.fn.self && (ret == luaAny || v.sig.ret == ret) {
			out = append(out, prefix+sep+v.name)
		}
	}
	for _, v := range w.visible(luaAny) {
		add("", v, "")
		if v.ty == luaTable {
			for _, f := range v.fields {
				sep := "."
				if f.method {
					sep = ":"
				}
				add(v.name, f, sep)
			}
		}
	}
	return out
}

// sigOf finds the signature of a callable named by callables.
func (w *luaWriter) sigOf(name string) *luaSig {
	if i := strings.IndexAny(name, ".:"); i >= 0 {
		t := w.lookup(name[:i])
		for _, f := range t.fields {
			if f.name == name[i+1:] {
				return f.sig
			}
		}
		return nil
	}
	return w.lookup(name).sig
}

// --- literals ---

func (w *luaWriter) number() string {
	if w.chance(3) {
		return w.token(luaNumLits)
	}
	s := w.token(luaSmallInts)
	return s
}

func (w *luaWriter) str() string {
	if w.chance(8) {
		// a long string: [[...]] or [==[...]==], an initial newline skipped
		level := strings.Repeat("=", w.pick(3))
		var b strings.Builder
		for range w.pick(4) {
			b.WriteString(w.token(luaStrChars))
		}
		if w.chance(3) {
			b.WriteString("\n]]")
			if level == "" {
				level = "="
			}
		}
		nl := ""
		if w.chance(3) {
			nl = "\n"
		}
		return "[" + level + "[" + nl + b.String() + "]" + level + "]"
	}
	q := `"`
	if w.chance(3) {
		q = "'"
	}
	var b strings.Builder
	b.WriteString(q)
	for range w.pick(5) {
		if w.chance(6) {
			b.WriteString(w.token(luaStrEscapes))
			continue
		}
		b.WriteString(w.token(luaStrChars))
	}
	b.WriteString(q)
	return b.String()
}

func (w *luaWriter) pattern() string { return luaQuote(w.token(luaPatterns)) }

// luaQuote writes s as a double-quoted Lua string (s is ASCII).
func luaQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// --- expressions ---

// exp draws an expression of type ty.
func (w *luaWriter) exp(ty luaType, depth int) luaExp {
	switch ty {
	case luaNum:
		return w.numExp(depth)
	case luaStr:
		return w.strExp(depth)
	case luaBool:
		return w.boolExp(depth)
	case luaTable:
		return w.tableExp(depth)
	case luaNumList, luaStrList:
		return w.listExp(ty, depth)
	case luaFunc:
		e, _ := w.funcExp(depth)
		return e
	}
	return w.anyExp(depth)
}

// varExp reads a variable of type ty, or is ok=false.
func (w *luaWriter) varExp(ty luaType) (luaExp, bool) {
	if v := w.varOf(ty); v != nil {
		return luaPrim(v.name), true
	}
	return luaExp{}, false
}

// fieldExp reads a known field of type ty of a visible record table.
func (w *luaWriter) fieldExp(ty luaType) (luaExp, bool) {
	var cands []string
	for _, v := range w.visible(luaTable) {
		for _, f := range v.fields {
			if f.ty == ty && !f.method {
				cands = append(cands, v.name+"."+f.name)
			}
		}
	}
	if len(cands) == 0 {
		return luaExp{}, false
	}
	return luaPrim(cands[w.pick(len(cands))]), true
}

// callExp calls a visible user function returning ret (luaAny: any).
func (w *luaWriter) callExp(ret luaType, depth int) (luaExp, bool) {
	cs := w.callables(ret)
	if len(cs) == 0 {
		return luaExp{}, false
	}
	name := cs[w.pick(len(cs))]
	return luaPrim(name + w.args(w.sigOf(name), depth)), true
}

// args draws the argument list of a call of a function of signature sig.
func (w *luaWriter) args(sig *luaSig, depth int) string {
	return "(" + strings.Join(w.argVals(sig, depth), ", ") + ")"
}

// argVals draws the arguments of a call of a function of signature sig.
func (w *luaWriter) argVals(sig *luaSig, depth int) []string {
	var as []string
	for _, p := range sig.params {
		as = append(as, w.exp(p, depth-1).s)
	}
	if sig.vararg {
		for range w.pick(3) {
			as = append(as, w.anyExp(depth-1).s)
		}
	}
	return as
}

// tested returns e, or when e is a literal constant a comparison in its
// place: e is a tested operand (a condition, the left operand of "and" or
// "or"), and the compiler folds a constant there into a bare jump, which
// at this gopher-lua version miscompiles a loop whose body starts with it
// (https://github.com/yuin/gopher-lua/issues/540), a crash the oracle
// of another bug could not tell from its own. Programs test constants
// rarely; the generator does not.
func (w *luaWriter) tested(e luaExp, depth int) luaExp {
	if !e.konst {
		return e
	}
	return luaBinop(w.numExp(depth), w.token(luaCompare), w.numExp(depth), luaPrecCmp)
}

// logical writes l and r or l or r.
func (w *luaWriter) logical(l, r luaExp) luaExp {
	l = w.tested(l, 0)
	if w.chance(2) {
		return luaBinop(l, "and", r, luaPrecAnd)
	}
	return luaBinop(l, "or", r, luaPrecOr)
}

// ternary is Lua's "c and x or y".
func (w *luaWriter) ternary(ty luaType, depth int) luaExp {
	c := w.cond(depth - 1)
	a := luaBinop(c, "and", w.exp(ty, depth-1), luaPrecAnd)
	return luaBinop(a, "or", w.exp(ty, depth-1), luaPrecOr)
}

func (w *luaWriter) numExp(depth int) luaExp {
	if depth <= 0 {
		if e, ok := w.varExp(luaNum); ok && w.chance(2) {
			return e
		}
		return luaKonst(w.number())
	}
	d := depth - 1
	switch w.pick(16) {
	case 0, 1:
		return luaKonst(w.number())
	case 2, 3:
		if e, ok := w.varExp(luaNum); ok {
			return e
		}
		return luaKonst(w.number())
	case 4, 5:
		op := w.token(luaArith)
		p := luaPrecAdd
		switch op {
		case "*", "/", "%":
			p = luaPrecMul
		case "^":
			p = luaPrecPow
		}
		return luaBinop(w.numExp(d), op, w.numExp(d), p)
	case 6:
		return luaUnop("-", w.numExp(d))
	case 7:
		switch w.pick(3) {
		case 0:
			return luaUnop("#", w.strExp(d))
		case 1:
			return luaUnop("#", w.listExp(luaNumList+luaType(w.pick(2)), d))
		default:
			return luaUnop("#", w.tableExp(d))
		}
	case 8:
		switch w.pick(9) {
		case 0:
			return luaPrim("math.floor(" + w.numExp(d).s + ")")
		case 1:
			return luaPrim("math.abs(" + w.numExp(d).s + ")")
		case 2:
			return luaPrim("math.max(" + w.numExp(d).s + ", " + w.numExp(d).s + ")")
		case 3:
			return luaPrim("math.min(" + w.numExp(d).s + ", " + w.numExp(d).s + ", " + w.numExp(d).s + ")")
		case 4:
			return luaPrim("math.sqrt(" + w.numExp(d).s + ")")
		case 5:
			return luaPrim("math.fmod(" + w.numExp(d).s + ", " + w.numExp(d).s + ")")
		case 6:
			return luaPrim(w.token([]string{"math.pi", "math.huge", "-math.huge"}))
		case 7:
			return luaPrim("math.ceil(" + w.numExp(d).s + ")")
		default:
			return luaPrim(w.token([]string{"math.exp", "math.log", "math.sin", "math.cos", "math.tan", "math.deg", "math.rad", "math.log10"}) + "(" + w.numExp(d).s + ")")
		}
	case 9:
		switch w.pick(5) {
		case 0:
			return luaPrim("string.len(" + w.strExp(d).s + ")")
		case 1:
			return w.strCall("len", w.strExp(d))
		case 2:
			return luaPrim("tonumber(" + luaQuote(w.token(luaSmallInts)) + ")")
		case 3:
			return luaPrim("tonumber(" + w.numExp(d).s + ")")
		default:
			return luaPrim(luaCall("select", `"#"`, w.argList(d)))
		}
	case 10:
		if w.fn.vararg && w.chance(2) {
			return luaPrim("select(\"#\", ...)")
		}
		if e, ok := w.fieldExp(luaNum); ok {
			return e
		}
		return luaKonst(w.number())
	case 11, 12:
		if e, ok := w.callExp(luaNum, d); ok {
			return e
		}
		return w.numExp(d)
	case 13:
		return w.ternary(luaNum, depth)
	case 14:
		e := w.numExp(d)
		return luaExp{s: "(" + e.s + ")", prec: luaPrimary, konst: e.konst}
	default:
		if e, ok := w.varExp(luaNum); ok {
			return luaBinop(e, w.token([]string{"+", "-", "*"}), luaPrim(w.token(luaSmallInts[:8])), luaPrecAdd)
		}
		return luaKonst(w.number())
	}
}

// argList draws zero or more arguments of any type, joined.
func (w *luaWriter) argList(depth int) string {
	as := make([]string, w.pick(w.cfg.MaxStmts))
	for i := range as {
		as[i] = w.anyExp(depth).s
	}
	return strings.Join(as, ", ")
}

// call writes f(first, rest...) where rest is argList's text.
func luaCall(f, first, rest string) string {
	if rest == "" {
		return f + "(" + first + ")"
	}
	return f + "(" + first + ", " + rest + ")"
}

// strCall writes a call of a string library function, as string.f(s,
// ...) or as the method s:f(...).
func (w *luaWriter) strCall(f string, s luaExp, rest ...string) luaExp {
	if w.chance(3) {
		recv := luaParen(s, luaPrimary)
		if s.prec != luaPrimary || strings.HasPrefix(s.s, "\"") || strings.HasPrefix(s.s, "'") || strings.HasPrefix(s.s, "[") {
			recv = "(" + s.s + ")"
		}
		return luaPrim(recv + ":" + f + "(" + strings.Join(rest, ", ") + ")")
	}
	return luaPrim("string." + f + "(" + strings.Join(append([]string{s.s}, rest...), ", ") + ")")
}

func (w *luaWriter) strExp(depth int) luaExp {
	if depth <= 0 {
		if e, ok := w.varExp(luaStr); ok && w.chance(2) {
			return e
		}
		return luaKonst(w.str())
	}
	d := depth - 1
	switch w.pick(17) {
	case 0, 1:
		return luaKonst(w.str())
	case 2, 3:
		if e, ok := w.varExp(luaStr); ok {
			return e
		}
		return luaKonst(w.str())
	case 4, 5:
		l := w.strExp(d)
		if w.chance(3) {
			l = w.numExp(d)
		}
		return luaBinop(l, "..", w.strExp(d), luaPrecConcat)
	case 6:
		return luaPrim("tostring(" + w.anyExp(d).s + ")")
	case 7:
		return w.strCall(w.token([]string{"upper", "lower", "reverse"}), w.strExp(d))
	case 8:
		return w.strCall("rep", w.strExp(d), w.token(luaSmallInts[:6]))
	case 9:
		rest := []string{w.numExp(d).s}
		if w.chance(2) {
			rest = append(rest, w.numExp(d).s)
		}
		return w.strCall("sub", w.strExp(d), rest...)
	case 10:
		return w.format(d)
	case 11:
		// the first result of gsub, or string.char
		if w.chance(3) {
			cs := []string{w.token(luaNumLits[10:13])}
			for range w.pick(3) {
				cs = append(cs, w.token([]string{"65", "97", "122", "48", "32"}))
			}
			return luaPrim("string.char(" + strings.Join(cs, ", ") + ")")
		}
		var repl string
		switch w.pick(4) {
		case 0:
			repl = "function(m) return " + w.token([]string{"m:upper()", "m .. m", "nil", "false", "\"<\" .. m .. \">\""}) + " end"
		case 1:
			repl = w.tableExp(d).s
		default:
			repl = w.token([]string{`"%0%0"`, `"[%1]"`, `""`, `"x"`, `"%%"`})
		}
		rest := []string{w.pattern(), repl}
		if w.chance(4) {
			rest = append(rest, w.token(luaSmallInts[:5]))
		}
		return luaPrim("(" + w.strCall("gsub", w.strExp(d), rest...).s + ")")
	case 12:
		l := w.listExp(luaNumList+luaType(w.pick(2)), d)
		args := []string{l.s}
		if w.chance(2) {
			args = append(args, w.strExp(d).s)
			if w.chance(3) {
				args = append(args, w.token(luaSmallInts[:4]), w.token(luaSmallInts[:6]))
			}
		}
		return luaPrim("table.concat(" + strings.Join(args, ", ") + ")")
	case 13:
		return luaPrim("type(" + w.anyExp(d).s + ")")
	case 14:
		if e, ok := w.callExp(luaStr, d); ok {
			return e
		}
		if e, ok := w.fieldExp(luaStr); ok {
			return e
		}
		return luaKonst(w.str())
	case 15:
		return w.ternary(luaStr, depth)
	default:
		return luaPrim(w.token([]string{"_VERSION", `("x"):rep(3)`, `string.format("%5.1f", 1/3)`}))
	}
}

// format draws a string.format call whose arguments fit its format.
func (w *luaWriter) format(depth int) luaExp {
	var f strings.Builder
	var args []string
	for range w.pick(4) + 1 {
		if w.chance(3) {
			f.WriteString(w.token([]string{"x=", " ", "-", "(", ")", "[", "]", "ab", ": "}))
		}
		spec := w.token(luaFormats)
		f.WriteString(spec)
		switch spec[len(spec)-1] {
		case '%':
		case 's', 'q':
			if w.chance(4) {
				args = append(args, w.numExp(depth).s)
			} else {
				args = append(args, w.strExp(depth).s)
			}
		case 'c':
			args = append(args, w.token([]string{"65", "97", "48"}))
		default:
			args = append(args, w.numExp(depth).s)
		}
	}
	return luaPrim("string.format(" + strings.Join(append([]string{luaQuote(f.String())}, args...), ", ") + ")")
}

// cond draws a condition: a boolean or, one time in four, any value.
func (w *luaWriter) cond(depth int) luaExp {
	if w.chance(4) {
		return w.tested(w.anyExp(depth), depth)
	}
	return w.tested(w.boolExp(depth), depth)
}

func (w *luaWriter) boolExp(depth int) luaExp {
	if depth <= 0 {
		if e, ok := w.varExp(luaBool); ok && w.chance(2) {
			return e
		}
		return luaKonst(w.token([]string{"true", "false"}))
	}
	d := depth - 1
	switch w.pick(14) {
	case 0:
		return luaKonst(w.token([]string{"true", "false"}))
	case 1:
		if e, ok := w.varExp(luaBool); ok {
			return e
		}
		return luaKonst(w.token([]string{"true", "false"}))
	case 2:
		return luaUnop("not ", w.anyExp(d))
	case 3, 4:
		return luaBinop(w.numExp(d), w.token(luaCompare), w.numExp(d), luaPrecCmp)
	case 5:
		return luaBinop(w.strExp(d), w.token(luaCompare), w.strExp(d), luaPrecCmp)
	case 6, 7:
		op := w.token([]string{"==", "~="})
		ty := luaType(w.pick(int(luaNumTypes)))
		return luaBinop(w.exp(ty, d), op, w.exp(ty, d), luaPrecCmp)
	case 8:
		return w.logical(w.boolExp(d), w.boolExp(d))
	case 9:
		return luaBinop(w.strCall("find", w.strExp(d), w.pattern()), w.token([]string{"==", "~="}), luaPrim("nil"), luaPrecCmp)
	case 10:
		return luaPrim("rawequal(" + w.anyExp(d).s + ", " + w.anyExp(d).s + ")")
	case 11:
		if e, ok := w.callExp(luaBool, d); ok {
			return e
		}
		if e, ok := w.fieldExp(luaBool); ok {
			return e
		}
		return luaPrim("next(" + w.tableExp(d).s + ") == nil")
	case 12:
		return w.ternary(luaBool, depth)
	default:
		return luaBinop(w.anyExp(d), w.token([]string{"==", "~="}), w.anyExp(d), luaPrecCmp)
	}
}

// fieldName draws a record field's key.
func (w *luaWriter) fieldName() string { return w.token(luaFieldNames) }

// record draws a table constructor of named, keyed and positional fields,
// and the fields it is known to have.
func (w *luaWriter) record(depth int) (string, []*luaVar) {
	var parts []string
	var fields []*luaVar
	for range w.pick(w.cfg.MaxStmts + 1) {
		switch w.pick(6) {
		case 0, 1, 2:
			name := w.fieldName()
			ty := luaType(w.pick(int(luaNumTypes)))
			if ty == luaFunc {
				e, sig := w.funcExp(depth - 1)
				parts = append(parts, name+" = "+e.s)
				fields = luaSetField(fields, &luaVar{name: name, ty: luaFunc, sig: sig})
				continue
			}
			parts = append(parts, name+" = "+w.exp(ty, depth-1).s)
			if ty != luaAny {
				fields = luaSetField(fields, &luaVar{name: name, ty: ty})
			} else {
				fields = luaDelField(fields, name)
			}
		case 3:
			key := w.token([]string{w.str(), w.number(), "true"})
			if strings.HasPrefix(key, "[") {
				key = " " + key + " " // "[ [[s]] ]", not "[[[s]]]"
			}
			parts = append(parts, "["+key+"] = "+w.anyExp(depth-1).s)
		default:
			parts = append(parts, w.anyExp(depth-1).s)
		}
	}
	return "{" + luaJoinFields(w, parts) + "}", fields
}

func luaSetField(fs []*luaVar, f *luaVar) []*luaVar {
	fs = luaDelField(fs, f.name)
	return append(fs, f)
}

func luaDelField(fs []*luaVar, name string) []*luaVar {
	out := fs[:0:0]
	for _, f := range fs {
		if f.name != name {
			out = append(out, f)
		}
	}
	return out
}

// luaJoinFields joins a constructor's fields with "," or ";", sometimes
// with a trailing separator.
func luaJoinFields(w *luaWriter, parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	sep := ", "
	if w.chance(6) {
		sep = "; "
	}
	s := strings.Join(parts, sep)
	if w.chance(5) {
		s += strings.TrimSpace(sep)
	}
	return s
}

func (w *luaWriter) tableExp(depth int) luaExp {
	e, _ := w.tableExpFields(depth)
	return e
}

// tableExpFields draws a table value and its known fields.
func (w *luaWriter) tableExpFields(depth int) (luaExp, []*luaVar) {
	if depth <= 0 {
		if v := w.varOf(luaTable); v != nil && w.chance(2) {
			return luaPrim(v.name), v.fields
		}
		return luaPrim("{}"), nil
	}
	switch w.pick(8) {
	case 0, 1, 2:
		s, fs := w.record(depth)
		return luaPrim(s), fs
	case 3, 4:
		if v := w.varOf(luaTable); v != nil {
			return luaPrim(v.name), v.fields
		}
		return luaPrim("{}"), nil
	case 5:
		s, fs := w.record(depth)
		mt := "{__index = " + w.tableExp(depth-1).s + "}"
		switch w.pick(4) {
		case 0:
			mt = "{__index = function(t, k) return " + w.inFunc(func() string { return w.anyExp(depth - 1).s }) + " end}"
		case 1:
			mt = "{__tostring = function() return " + w.inFunc(func() string { return w.strExp(depth - 1).s }) + " end}"
		case 2:
			mt = "{__newindex = function(t, k, v) rawset(t, k, v) end, __len = function() return 0 end}"
		}
		return luaPrim("setmetatable(" + s + ", " + mt + ")"), fs
	case 6:
		if w.fn.vararg {
			return luaPrim("{...}"), nil
		}
		return luaPrim("{}"), nil
	default:
		if e, ok := w.callExp(luaTable, depth-1); ok {
			return e, nil
		}
		return luaPrim("{}"), nil
	}
}

func (w *luaWriter) listExp(ty luaType, depth int) luaExp {
	elem := luaNum
	if ty == luaStrList {
		elem = luaStr
	}
	if depth > 0 && w.chance(2) {
		if e, ok := w.varExp(ty); ok {
			return e
		}
	}
	if depth > 0 && ty == luaNumList && w.chance(6) {
		return luaPrim("{string.byte(" + w.strExp(depth-1).s + ", 1, -1)}")
	}
	var parts []string
	for range w.pick(w.cfg.MaxStmts + 1) {
		parts = append(parts, w.exp(elem, depth-1).s)
	}
	return luaPrim("{" + luaJoinFields(w, parts) + "}")
}

// inFunc draws with draw inside a function literal of no parameters
// and no "...", and returns what it drew.
func (w *luaWriter) inFunc(draw func() string) string {
	saved := w.fn
	w.fn = &luaFn{}
	s := draw()
	w.fn = saved
	return s
}

// params draws a parameter list: names, their types, maybe "...".
func (w *luaWriter) params() ([]string, *luaSig) {
	sig := &luaSig{ret: luaType(w.pick(int(luaNumTypes)))}
	var names []string
	for range w.pick(4) {
		n := w.token(luaLocalNames)
		dup := false
		for _, m := range names {
			dup = dup || m == n
		}
		if dup {
			continue
		}
		names = append(names, n)
		sig.params = append(sig.params, luaType(w.pick(int(luaNumTypes))))
	}
	sig.vararg = w.chance(4)
	return names, sig
}

// funcBody draws a function's parameter list and body, "(...) ... end".
// fn is the function's variable (nil for a function literal), which the
// body does not call; selfVar is a method's "self".
func (w *luaWriter) funcBody(names []string, sig *luaSig, fn *luaVar, selfVar *luaVar, depth int) string {
	savedFn, savedScopes := w.fn, w.scopes
	w.fn = &luaFn{vararg: sig.vararg, ret: sig.ret, hasRet: true, self: fn}
	w.scopes = append(w.scopes[:len(w.scopes):len(w.scopes)], nil)
	if selfVar != nil {
		w.declare(selfVar)
	}
	for i, n := range names {
		v := &luaVar{name: n, ty: sig.params[i]}
		if v.ty == luaFunc {
			v.ty = luaAny // a function argument of unknown signature
		}
		w.declare(v)
	}
	ps := append([]string(nil), names...)
	if sig.vararg {
		ps = append(ps, "...")
	}
	w.indent++
	body := w.blockText(depth, true)
	w.indent--
	w.fn, w.scopes = savedFn, savedScopes
	return "(" + strings.Join(ps, ", ") + ")\n" + body + w.pad() + "end"
}

// funcExp draws a function value and its signature: a function literal,
// a visible function, or a library function.
func (w *luaWriter) funcExp(depth int) (luaExp, *luaSig) {
	if v := w.varOf(luaFunc); v != nil && v.sig != nil && w.chance(3) {
		return luaPrim(v.name), v.sig
	}
	if depth <= 0 || w.chance(5) {
		lib := []struct {
			name string
			sig  luaSig
		}{
			{"string.upper", luaSig{params: []luaType{luaStr}, ret: luaStr}},
			{"string.len", luaSig{params: []luaType{luaStr}, ret: luaNum}},
			{"math.abs", luaSig{params: []luaType{luaNum}, ret: luaNum}},
			{"tostring", luaSig{params: []luaType{luaAny}, ret: luaStr}},
			{"type", luaSig{params: []luaType{luaAny}, ret: luaStr}},
			{"print", luaSig{vararg: true, ret: luaAny}},
		}
		l := lib[w.pick(len(lib))]
		sig := l.sig
		return luaPrim(l.name), &sig
	}
	names, sig := w.params()
	return luaPrim("function" + w.funcBody(names, sig, nil, nil, depth-1)), sig
}

func (w *luaWriter) anyExp(depth int) luaExp {
	if depth <= 0 {
		switch w.pick(4) {
		case 0:
			return luaKonst("nil")
		case 1:
			if e, ok := w.varExp(luaAny); ok {
				return e
			}
		}
		return w.exp(luaType(1+w.pick(3)), 0)
	}
	d := depth - 1
	switch w.pick(22) {
	case 0, 1:
		return luaKonst("nil")
	case 2, 3, 4:
		if e, ok := w.varExp(luaAny); ok {
			return e
		}
		return luaKonst("nil")
	case 5, 6, 7, 8, 9:
		return w.exp(luaType(1+w.pick(int(luaNumTypes)-1)), d)
	case 10:
		// a field or an element, present or not
		if v := w.varOf(luaTable); v != nil {
			if w.chance(2) {
				return luaPrim(v.name + "." + w.fieldName())
			}
			k := w.exp(luaType(1+w.pick(2)), d).s
			if strings.HasPrefix(k, "[") {
				k = " " + k + " "
			}
			return luaPrim(v.name + "[" + k + "]")
		}
		if v := w.varOf(luaNumList + luaType(w.pick(2))); v != nil {
			return luaPrim(v.name + "[" + w.numExp(d).s + "]")
		}
		return luaKonst("nil")
	case 11:
		if w.fn.vararg {
			if w.chance(2) {
				return luaPrim("...")
			}
			return luaPrim("select(" + w.token(luaSmallInts[1:4]) + ", ...)")
		}
		return luaPrim(luaCall("select", w.token(luaSmallInts[1:4]), w.argList(d)))
	case 12:
		f := w.token([]string{"match", "find", "match"})
		rest := []string{w.pattern()}
		if w.chance(4) {
			rest = append(rest, w.token(luaSmallInts[:4]))
		}
		return w.strCall(f, w.strExp(d), rest...)
	case 13:
		switch w.pick(4) {
		case 0:
			return luaPrim("rawget(" + w.tableExp(d).s + ", " + w.anyExp(d).s + ")")
		case 1:
			return luaPrim("next(" + w.tableExp(d).s + ")")
		case 2:
			return luaPrim("unpack(" + w.listExp(luaNumList+luaType(w.pick(2)), d).s + ")")
		default:
			return luaPrim("getmetatable(" + w.tableExp(d).s + ")")
		}
	case 14:
		f, sig := w.funcExp(d)
		return luaPrim("pcall(" + strings.Join(append([]string{f.s}, w.argVals(sig, d)...), ", ") + ")")
	case 15, 16:
		if e, ok := w.callExp(luaAny, d); ok {
			return e
		}
		return luaKonst("nil")
	case 17:
		return luaPrim("tonumber(" + w.strExp(d).s + ")")
	case 18:
		return luaPrim("table.remove(" + w.listExp(luaNumList+luaType(w.pick(2)), d).s + ")")
	case 19:
		return w.logical(w.anyExp(d), w.anyExp(d))
	case 20:
		return w.ternary(luaAny, depth)
	default:
		if e, ok := w.varExp(luaAny); ok {
			return luaBinop(e, "or", w.exp(luaType(1+w.pick(3)), d), luaPrecOr)
		}
		return luaKonst("nil")
	}
}

// --- statements ---

func (w *luaWriter) pad() string { return strings.Repeat("  ", w.indent) }

// blockText draws a block's statements (in a new scope), one a line, and
// in a function body or loop sometimes a final return or break.
func (w *luaWriter) blockText(depth int, fnBody bool) string {
	w.push()
	s := w.stmts(depth, fnBody)
	w.pop()
	return s
}

// stmts draws the statements of the current scope.
func (w *luaWriter) stmts(depth int, fnBody bool) string {
	var b strings.Builder
	n := w.pick(w.cfg.MaxStmts + 1)
	codeFirst := false // the block's first statement starts with an instruction other than a jump
	for i := range n {
		st := w.stmt(depth)
		if i == 0 {
			codeFirst = !strings.HasPrefix(luaSkipComments(st), "do\n")
		}
		b.WriteString(w.pad() + st)
		if w.chance(8) {
			b.WriteString(";")
		}
		if w.chance(12) {
			b.WriteString(" " + strings.ReplaceAll(w.token(luaComments), "\n", " "))
		}
		b.WriteString("\n")
	}
	switch {
	case fnBody && w.fn.hasRet && (w.fn.ret != luaAny || !w.chance(3)):
		b.WriteString(w.pad() + w.returnStmt(depth) + "\n")
	case w.fn.loop && codeFirst && w.chance(6):
		// not as the first instruction of a loop's body, where the
		// compiler's jump-to-jump pass mistakes an offset it has already
		// rewritten for a label (gopher-lua#540, see tested)
		b.WriteString(w.pad() + "break\n")
	case !fnBody && w.fn.hasRet && w.chance(8):
		b.WriteString(w.pad() + w.returnStmt(depth) + "\n")
	}
	return b.String()
}

// luaSkipComments drops the comment lines a statement may start with.
func luaSkipComments(st string) string {
	for strings.HasPrefix(st, "--") {
		end := "\n"
		for _, open := range []string{"--[[", "--[==["} {
			if strings.HasPrefix(st, open) {
				end = strings.NewReplacer("--", "", "[", "]").Replace(open)
			}
		}
		i := strings.Index(st, end)
		if i < 0 {
			return ""
		}
		st = strings.TrimLeft(st[i+len(end):], " \n")
	}
	return st
}

// returnStmt returns a value of the function's result type (and maybe
// more values).
func (w *luaWriter) returnStmt(depth int) string {
	s := "return " + w.exp(w.fn.ret, depth-1).s
	if w.fn.ret == luaAny && w.chance(4) {
		s += ", " + w.anyExp(depth-1).s
	}
	return s
}

// localStmt declares locals, with or without values.
func (w *luaWriter) localStmt(depth int) string {
	n := 1 + w.pick(2)
	if w.chance(5) {
		n++
	}
	var names []string
	var vars []*luaVar
	for range n {
		name := w.token(luaLocalNames)
		names = append(names, name)
		vars = append(vars, &luaVar{name: name, ty: luaAny})
	}
	nv := n
	switch w.pick(6) {
	case 0:
		nv = 0
	case 1:
		nv = w.pick(n + 2)
	}
	var vals []string
	for i := range nv {
		ty := luaType(w.pick(int(luaNumTypes)))
		switch ty {
		case luaFunc:
			e, sig := w.funcExp(depth)
			vals = append(vals, e.s)
			if i < n {
				vars[i].ty, vars[i].sig = luaFunc, sig
			}
		case luaTable:
			e, fs := w.tableExpFields(depth)
			vals = append(vals, e.s)
			if i < n {
				vars[i].ty, vars[i].fields = luaTable, append([]*luaVar(nil), fs...)
			}
		default:
			vals = append(vals, w.exp(ty, depth).s)
			if i < n {
				vars[i].ty = ty
			}
		}
	}
	// the last value may be a call of several results: the names past the
	// values are nil or those results
	for _, v := range vars {
		w.declare(v)
	}
	s := "local " + strings.Join(names, ", ")
	if nv > 0 {
		s += " = " + strings.Join(vals, ", ")
	}
	return s
}

// assignTarget draws something to assign a value of its type to: a
// visible variable or a known field, or a new global or field.
func (w *luaWriter) assignStmt(depth int) string {
	switch w.pick(5) {
	case 0, 1:
		if v := w.varOf(luaAny); v != nil && v.ty != luaFunc && !v.fixed {
			if w.chance(6) {
				if u := w.varOf(v.ty); u != nil && u.name != v.name && !u.fixed {
					return v.name + ", " + u.name + " = " + u.name + ", " + v.name
				}
			}
			return v.name + " = " + w.exp(v.ty, depth).s
		}
	case 2:
		// a field of a record table
		if v := w.varOf(luaTable); v != nil {
			name := w.fieldName()
			ty := luaType(w.pick(int(luaNumTypes)))
			for _, f := range v.fields {
				if f.name == name {
					ty = f.ty
				}
			}
			if ty == luaFunc {
				e, sig := w.funcExp(depth - 1)
				if w.sameBlock(v) {
					v.fields = luaSetField(v.fields, &luaVar{name: name, ty: luaFunc, sig: sig})
				}
				return v.name + "." + name + " = " + e.s
			}
			val := w.exp(ty, depth-1).s
			if w.sameBlock(v) && ty != luaAny {
				v.fields = luaSetField(v.fields, &luaVar{name: name, ty: ty})
			}
			if w.chance(3) {
				return v.name + "[" + luaQuote(name) + "] = " + val
			}
			return v.name + "." + name + " = " + val
		}
	case 3:
		// an element of a list
		if v := w.varOf(luaNumList + luaType(w.pick(2))); v != nil {
			elem := luaNum
			if v.ty == luaStrList {
				elem = luaStr
			}
			idx := "#" + v.name + " + 1"
			if w.chance(2) {
				idx = w.numExp(depth - 1).s
			}
			return v.name + "[" + idx + "] = " + w.exp(elem, depth-1).s
		}
	}
	// a global: a known one keeps its type; a new one is known from here
	// when assigned at the top of the chunk
	name := w.token(luaGlobalNames)
	if v := w.lookup(name); v != nil {
		if v.ty == luaFunc {
			return v.name + " = " + v.name
		}
		return name + " = " + w.exp(v.ty, depth).s
	}
	ty := luaType(w.pick(int(luaNumTypes)))
	v := &luaVar{name: name, ty: ty}
	var val string
	switch ty {
	case luaFunc:
		e, sig := w.funcExp(depth)
		val, v.sig = e.s, sig
	case luaTable:
		e, fs := w.tableExpFields(depth)
		val, v.fields = e.s, append([]*luaVar(nil), fs...)
	default:
		val = w.exp(ty, depth).s
	}
	if w.atChunkTop() {
		w.global = append(w.global, v)
	}
	return name + " = " + val
}

// sameBlock reports whether v was declared in the current block (or is a
// global at the chunk's top), so a field assigned now is there on every
// path that follows.
func (w *luaWriter) sameBlock(v *luaVar) bool {
	for _, u := range w.scopes[len(w.scopes)-1] {
		if u == v {
			return true
		}
	}
	for _, u := range w.global {
		if u == v {
			return w.atChunkTop()
		}
	}
	return false
}

// callStmt draws a call statement. One that would start with "(" is
// made a declaration: on a new line after an expression, Lua 5.1 reads it
// as a call of that expression ("ambiguous syntax").
func (w *luaWriter) callStmt(depth int) string {
	s := w.callStmtText(depth)
	if strings.HasPrefix(s, "(") {
		return "local _ = " + s
	}
	return s
}

func (w *luaWriter) callStmtText(depth int) string {
	d := depth - 1
	switch w.pick(9) {
	case 8:
		if w.chance(3) {
			// a coroutine that yields values in a loop
			return "for " + w.token(luaLocalNames) + " in coroutine.wrap(" + w.coroutineFn(d) + ") do end"
		}
		return "print(" + w.argList(d) + ")"
	case 0, 1, 2:
		if e, ok := w.callExp(luaAny, depth); ok {
			return e.s
		}
		return "print(" + w.argList(d) + ")"
	case 3:
		return "print(" + w.argList(d) + ")"
	case 4:
		v := w.varOf(luaNumList + luaType(w.pick(2)))
		if v == nil {
			return "table.insert({}, " + w.numExp(d).s + ")"
		}
		elem := luaNum
		if v.ty == luaStrList {
			elem = luaStr
		}
		switch w.pick(4) {
		case 0:
			return "table.insert(" + v.name + ", 1, " + w.exp(elem, d).s + ")"
		case 1:
			return "table.remove(" + v.name + ")"
		case 2:
			if w.chance(2) {
				return "table.sort(" + v.name + ")"
			}
			op := w.token([]string{"<", ">"})
			return "table.sort(" + v.name + ", function(p, q) return p " + op + " q end)"
		default:
			return "table.insert(" + v.name + ", " + w.exp(elem, d).s + ")"
		}
	case 5:
		f, sig := w.funcExp(d)
		return "pcall(" + strings.Join(append([]string{f.s}, w.argVals(sig, d)...), ", ") + ")"
	case 6:
		if w.fn.co {
			return "coroutine.yield(" + w.argList(d) + ")"
		}
		return "assert(" + w.boolExp(d).s + ", " + w.strExp(d).s + ")"
	case 7:
		if w.chance(3) {
			return "local _ = " + w.strCall(w.token([]string{"find", "match"}), w.strExp(d), w.pattern()).s
		}
		return w.strCall("gsub", w.strExp(d), w.pattern(), w.token([]string{`"x"`, `"%1"`, `""`})).s
	default:
		if e, ok := w.callExp(luaAny, depth); ok {
			return e.s
		}
		return w.format(d).s
	}
}

// coroutineFn draws a function that runs as a coroutine (it may yield).
func (w *luaWriter) coroutineFn(depth int) string {
	savedFn, savedScopes := w.fn, w.scopes
	w.fn = &luaFn{co: true}
	w.scopes = append(w.scopes[:len(w.scopes):len(w.scopes)], nil)
	w.indent++
	var b strings.Builder
	b.WriteString(w.stmts(depth, false))
	b.WriteString(w.pad() + "coroutine.yield(" + w.anyExp(depth).s + ")\n")
	w.indent--
	w.fn, w.scopes = savedFn, savedScopes
	return "function()\n" + b.String() + w.pad() + "end"
}

// counter draws the name of a loop's counter, one no enclosing loop
// uses (else a repeat loop's "until" would see the inner one).
func (w *luaWriter) counter() string {
	var free []string
	for _, c := range luaCounters {
		if w.lookup(c) == nil {
			free = append(free, c)
		}
	}
	if len(free) == 0 {
		return w.token(luaCounters) + "_" + strconv.Itoa(len(w.scopes))
	}
	return w.token(free)
}

// loopBlock draws a loop's body (break allowed), declaring vars first.
func (w *luaWriter) loopBlock(depth int, vars ...*luaVar) string {
	saved := *w.fn
	w.fn.loop = true
	w.push()
	for _, v := range vars {
		w.declare(v)
	}
	w.indent++
	s := w.stmts(depth, false)
	w.indent--
	w.pop()
	*w.fn = saved
	return s
}

func (w *luaWriter) nested(depth int) string {
	w.indent++
	s := w.blockText(depth, false)
	w.indent--
	return s
}

// stmt draws one statement.
func (w *luaWriter) stmt(depth int) string {
	if depth <= 0 {
		switch w.pick(3) {
		case 0:
			return w.localStmt(0)
		case 1:
			return w.assignStmt(0)
		default:
			return w.callStmt(0)
		}
	}
	d := depth - 1
	p := w.pad()
	switch w.pick(20) {
	case 0, 1, 2, 3:
		return w.localStmt(d)
	case 4, 5, 6:
		return w.assignStmt(d)
	case 7, 8:
		return w.callStmt(depth)
	case 9:
		return "do\n" + w.nested(d) + p + "end"
	case 10, 11:
		s := "if " + w.cond(d).s + " then\n" + w.nested(d)
		for range w.pick(3) {
			if w.chance(2) {
				s += p + "elseif " + w.cond(d).s + " then\n" + w.nested(d)
			}
		}
		if w.chance(2) {
			s += p + "else\n" + w.nested(d)
		}
		return s + p + "end"
	case 12:
		// a loop on a counter, or on any condition
		if w.chance(6) {
			return "while " + w.cond(d).s + " do\n" + w.loopBlock(d) + p + "end"
		}
		c := w.counter()
		w.declare(&luaVar{name: c, ty: luaNum, fixed: true})
		lim := w.token(luaSmallInts[1:7])
		body := w.loopBlock(d)
		return "local " + c + " = 0\n" + p + "while " + c + " < " + lim + " do\n" + p + "  " + c + " = " + c + " + 1\n" + body + p + "end"
	case 13:
		if w.chance(6) {
			saved := *w.fn
			w.fn.loop = true
			w.push()
			w.indent++
			body := w.stmts(d, false)
			w.indent--
			c := w.cond(d).s // the condition sees the block's locals
			w.pop()
			*w.fn = saved
			return "repeat\n" + body + p + "until " + c
		}
		c := w.counter()
		w.declare(&luaVar{name: c, ty: luaNum, fixed: true})
		body := w.loopBlock(d)
		return "local " + c + " = 0\n" + p + "repeat\n" + p + "  " + c + " = " + c + " + 1\n" + body + p + "until " + c + " >= " + w.token(luaSmallInts[1:7])
	case 14, 15:
		i := w.token(luaLocalNames)
		var from, to string
		switch w.pick(4) {
		case 0:
			from, to = w.numExp(0).s, w.token(luaSmallInts[:8])
		case 1:
			if v := w.varOf(luaNumList + luaType(w.pick(2))); v != nil {
				from, to = "1", "#"+v.name
				break
			}
			fallthrough
		default:
			from, to = w.token(luaSmallInts[:4]), w.token(luaSmallInts[1:8])
		}
		s := "for " + i + " = " + from + ", " + to
		if w.chance(4) {
			s += ", " + w.token([]string{"1", "2", "-1", "0.5", "3"})
		}
		return s + " do\n" + w.loopBlock(d, &luaVar{name: i, ty: luaNum}) + p + "end"
	case 16, 17:
		k, v := w.token(luaLocalNames), w.token(luaLocalNames)
		switch w.pick(5) {
		case 0, 1:
			lt := luaNumList + luaType(w.pick(2))
			l := w.listExp(lt, d)
			elem := luaNum
			if lt == luaStrList {
				elem = luaStr
			}
			return "for " + k + ", " + v + " in ipairs(" + l.s + ") do\n" + w.loopBlock(d, &luaVar{name: k, ty: luaNum}, &luaVar{name: v, ty: elem}) + p + "end"
		case 2:
			return "for " + k + ", " + v + " in pairs(" + w.tableExp(d).s + ") do\n" + w.loopBlock(d, &luaVar{name: k, ty: luaAny}, &luaVar{name: v, ty: luaAny}) + p + "end"
		case 3:
			pat := w.pattern()
			vars := []*luaVar{{name: k, ty: luaStr}}
			if strings.Contains(pat, "()") {
				vars[0].ty = luaAny // a position capture is a number
			}
			names := k
			if strings.Count(pat, "(") >= 2 && !strings.Contains(pat, "()") {
				vars = append(vars, &luaVar{name: v, ty: luaStr})
				names += ", " + v
			}
			return "for " + names + " in string.gmatch(" + w.strExp(d).s + ", " + pat + ") do\n" + w.loopBlock(d, vars...) + p + "end"
		default:
			return "for " + k + ", " + v + " in next, " + w.tableExp(d).s + " do\n" + w.loopBlock(d, &luaVar{name: k, ty: luaAny}, &luaVar{name: v, ty: luaAny}) + p + "end"
		}
	case 18:
		return w.functionStmt(d)
	default:
		if w.chance(2) {
			return w.token(luaComments) + "\n" + p + w.stmt(d)
		}
		return w.functionStmt(d)
	}
}

// functionStmt draws a function declaration: local, global, or a field
// or method of a visible record table.
func (w *luaWriter) functionStmt(depth int) string {
	switch w.pick(4) {
	case 0, 1:
		names, sig := w.params()
		name := w.token(luaLocalNames)
		v := &luaVar{name: name, ty: luaFunc, sig: sig}
		w.declare(v) // in scope in its own body (not called there)
		return "local function " + name + w.funcBody(names, sig, v, nil, depth)
	case 2:
		if t := w.varOf(luaTable); t != nil {
			method := w.chance(2)
			names, sig := w.params()
			f := &luaVar{name: w.fieldName(), ty: luaFunc, sig: sig, method: method}
			var self *luaVar
			sep := "."
			if method {
				sep = ":"
				self = &luaVar{name: "self", ty: luaTable, fields: t.fields}
			}
			text := "function " + t.name + sep + f.name + w.funcBody(names, sig, f, self, depth)
			if w.sameBlock(t) {
				t.fields = luaSetField(t.fields, f)
			}
			return text
		}
		fallthrough
	default:
		names, sig := w.params()
		name := w.token(luaGlobalNames)
		if v := w.lookup(name); v != nil && v.ty != luaFunc {
			name += "_f" // a name of its own, so the global keeps its type
		}
		v := &luaVar{name: name, ty: luaFunc, sig: sig}
		text := "function " + name + w.funcBody(names, sig, v, nil, depth)
		if w.atChunkTop() {
			w.global = append(w.global, v)
		}
		return text
	}
}

// Lua generates Lua 5.1 programs (chunks), written from the reference
// manual's grammar: local declarations (several names, fewer or more
// values), assignments to locals, globals, fields and elements (several
// targets), call statements, do blocks, if/elseif/else, while and repeat
// loops (on a counter or any condition), numeric for loops (with a
// step), generic for loops over ipairs, pairs, next and string.gmatch
// and over a coroutine, local and global function declarations, fields
// and methods (":"), with parameters and "...", return and break; over
// expressions of every kind: nil, booleans, numbers (decimal, float,
// exponent, hexadecimal), strings (quoted with escapes, long brackets),
// "...", function literals (closures over the enclosing locals), table
// constructors (named, keyed and positional fields, "," or ";"),
// metatables, variables, fields, indexing, calls and method calls, and
// every unary and binary operator at its precedence; with calls of the
// standard library (string, table, math, pcall, select, unpack, next,
// rawget, rawequal, setmetatable, tostring, tonumber, type, coroutine)
// on plausible arguments, optional semicolons and comments. Variables
// keep the type of their first value, so most programs run without a
// runtime error; the chunk often ends by setting the global result.
// MistakesPer per mille of programs go through Corrupt.
func Lua(cfg LuaConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &luaWriter{t: t, cfg: cfg, fn: &luaFn{top: true, vararg: true}}
		w.push()
		var b strings.Builder
		for range 1 + w.pick(cfg.MaxStmts+1) {
			b.WriteString(w.stmt(cfg.MaxDepth) + "\n")
		}
		if !w.chance(5) {
			b.WriteString("result = " + w.anyExp(cfg.MaxDepth-1).s + "\n")
		}
		if w.chance(8) {
			b.WriteString("return " + w.anyExp(1).s + "\n")
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
