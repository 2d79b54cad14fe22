package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// ES5Config tunes ES5.
type ES5Config struct {
	MaxDepth    int // nesting of statements; default 3
	MaxExpr     int // nesting of expressions; default 2
	MaxStmts    int // statements of a script (at least one); blocks draw up to one less; default 4
	MistakesPer int // per mille of scripts passed through Corrupt; default 0
}

func (c ES5Config) withDefaults() ES5Config {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxExpr <= 0 {
		c.MaxExpr = 2
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 4
	}
	return c
}

// es5Kind is the type of value an expression is drawn to have, so that
// methods are called on receivers that have them and builtins get
// arguments of the types they take.
type es5Kind int

const (
	es5Num es5Kind = iota
	es5Str
	es5Bool
	es5Arr
	es5Obj
	es5Re
	es5Fn
	es5Date
	es5Any
	es5Kinds
)

// es5Prefix names a variable by its kind.
var es5Prefix = [es5Kinds]string{"n", "s", "b", "a", "o", "re", "fn", "d", "x"}

type es5Var struct {
	name  string
	kind  es5Kind
	fixed bool // a loop counter, a for-in key, a catch parameter: never assigned
	arity int  // functions: parameters
}

type es5Label struct {
	name string
	loop bool
}

// The characters of string literals, and the alphabet of regular
// expressions' literal characters: subjects and patterns share it, as a
// script's data and the patterns it applies do.
const es5Alphabet = "abcxyzAB019 -_.:/@,"

var (
	es5Numbers = gen.OneOfWeighted(
		gen.W(6, gen.Tokens("0", "1", "2", "3", "4", "5", "7", "8", "10", "16", "42", "100", "-1", "-2")),
		gen.W(3, gen.Tokens("0.5", "1.5", "3.14159", "-0.25", "255", "1000", "1e3", "0x1F", "0xff", "65", "97", "36", "12", "31", "60")),
		gen.W(1, gen.Tokens("NaN", "Infinity", "-Infinity", "-0", "1e21", "1e-7", "0.1", "2147483647", "4294967295", "9007199254740993", "5e-324", "1.7976931348623157e308")),
	)
	es5Small    = gen.Tokens("0", "1", "2", "3", "4", "5", "-1", "-2", "6", "10")
	es5StrChars = gen.OneOfWeighted(
		gen.W(12, gen.StringFrom(es5Alphabet, 1, 4)),
		gen.W(2, gen.Tokens("hello", "world", "foo", "bar", "a,b,c", "2020-01-02", "10", "3.5", "0x1f", "-7", "true", "null", " trim ", "AbC", "%41", "a=1&b=2", "{}", "[1,2]")),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\'`, `\"`, `\x41`, `\u00e9`, `\u2028`, `\0`, `é`, `€`, `水`, `\ud83d\ude00`)),
	)
	es5Keys     = []string{"a", "b", "id", "name", "value", "items", "x", "y", "key", "n", "0", "1", "toString", "length"}
	es5KeyGen   = gen.Tokens(es5Keys...)
	es5Flags    = gen.OneOfWeighted(gen.W(5, gen.Just("")), gen.W(3, gen.Tokens("g", "i", "m")), gen.W(2, gen.Tokens("gi", "gm", "im", "gim")))
	es5MathUn   = gen.Tokens("abs", "floor", "ceil", "round", "sqrt", "log", "exp", "sin", "cos", "tan", "atan", "acos", "asin")
	es5MathBin  = gen.Tokens("max", "min", "pow", "atan2")
	es5Arith    = gen.Tokens("+", "-", "*", "/", "%")
	es5Bitwise  = gen.Tokens("&", "|", "^", "<<", ">>", ">>>")
	es5Compare  = gen.Tokens("<", ">", "<=", ">=", "==", "!=", "===", "!==")
	es5DateGet  = gen.Tokens("getTime", "getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes", "getSeconds", "getMilliseconds", "getUTCFullYear", "getUTCMonth", "getUTCDate", "getUTCHours", "getTimezoneOffset", "valueOf")
	es5DateStr  = gen.Tokens("toISOString", "toString", "toUTCString", "toDateString", "toTimeString", "toLocaleDateString", "toJSON")
	es5DateSet  = gen.Tokens("setFullYear", "setMonth", "setDate", "setHours", "setMinutes", "setSeconds", "setMilliseconds", "setTime", "setUTCDate", "setUTCHours")
	es5DateText = gen.Tokens("2020-01-02", "2020-01-02T03:04:05Z", "2020-01-02T03:04:05.678Z", "1970-01-01", "Thu, 01 Jan 1970 00:00:00 GMT", "2012/12/21", "Dec 25, 1995", "garbage", "")
	es5Replace  = gen.Tokens("", "x", "-", "$&", "$1", "[$1]", "<$2>", "$$", "$`", "$'", "$1$1", "_")
	es5ErrCtor  = gen.Tokens("Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError")
	es5Comment  = gen.Tokens("// note", "/* c */", "/* multi\n line */", "//")
	es5CtorName = gen.Tokens("Array", "Object", "RegExp", "Error", "Date", "String", "Number", "Function")
	// regular expressions
	es5ReEscape      = gen.Tokens(`\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\t`, `\n`, `\r`, `\f`, `\v`, `\0`, `\x41`, `\u0061`, `\cJ`, `\.`, `\*`, `\+`, `\?`, `\(`, `\)`, `\[`, `\]`, `\{`, `\}`, `\|`, `\\`, `\/`, `\^`, `\$`, `\-`)
	es5ReClassEscape = gen.Tokens(`\d`, `\w`, `\s`, `\D`, `\W`, `\S`, `\-`, `\]`, `\\`, `\^`, `\n`, `\t`, `\x20`, `\u0041`, `\/`)
)

type es5Writer struct {
	t      *gfz.T
	cfg    ES5Config
	vars   []es5Var // visible variables, outer scopes first
	fn     bool     // inside a function body: return and this
	top    bool     // the statement is one of a script's or a function body's (a function declaration may be)
	loops  int      // loops around, in this function (break, continue)
	count  int      // counted loops around, in this function: the next counter is "i" + count
	sw     int      // switches around, in this function (break)
	labels []es5Label
	iters  int // product of the bounds of the loops around (textually)
	strict bool
	nvar   int
	nfn    int
	groups int // capturing groups of the pattern being drawn
}

func (w *es5Writer) n(lo, hi int) int { return gen.IntRange(lo, hi).Draw(w.t) }
func (w *es5Writer) one(k int) bool   { return w.n(0, k-1) == 0 }

// pick draws a visible variable of kind k; ok is false when none is.
func (w *es5Writer) pick(k es5Kind, assignable bool) (es5Var, bool) {
	var c []es5Var
	for _, v := range w.vars {
		if v.kind == k && (!assignable || !v.fixed) {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return es5Var{}, false
	}
	return c[w.n(0, len(c)-1)], true
}

func (w *es5Writer) newName(k es5Kind) string {
	w.nvar++
	return es5Prefix[k] + itoa(w.nvar)
}

// scope returns a mark to restore the visible variables to after a block
// or a function body.
func (w *es5Writer) scope() int    { return len(w.vars) }
func (w *es5Writer) restore(m int) { w.vars = w.vars[:m] }
func (w *es5Writer) add(v es5Var)  { w.vars = append(w.vars, v) }
func (w *es5Writer) kind() es5Kind { return es5Kind(w.n(0, int(es5Kinds)-1)) }
func (w *es5Writer) num0() string  { return es5Numbers.Draw(w.t) }
func (w *es5Writer) small() string { return es5Small.Draw(w.t) }
func es5Paren(s string) string     { return "(" + s + ")" }
func (w *es5Writer) key() string   { return es5KeyGen.Draw(w.t) }

// member draws a property access of a key: .key, or ["key"] (always for
// a key that is not an identifier).
func (w *es5Writer) member() string {
	k := w.key()
	if !es5IsIdent(k) || w.one(4) {
		return "[" + es5Quote(k) + "]"
	}
	return "." + k
}
func (w *es5Writer) flags() string            { return es5Flags.Draw(w.t) }
func (w *es5Writer) comma(xs []string) string { return strings.Join(xs, ", ") }

// str0 draws a string literal, single or double quoted.
func (w *es5Writer) str0() string {
	q := "'"
	if w.one(2) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString(q)
	for range w.n(0, 3) {
		c := es5StrChars.Draw(w.t)
		if c != `\'` && c != `\"` && strings.Contains(c, q) {
			continue
		}
		b.WriteString(c)
	}
	b.WriteString(q)
	return b.String()
}

// quote writes s (plain text without line breaks) as a string literal.
func es5Quote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

// index draws a small index or count: a literal or a loop counter.
func (w *es5Writer) index() string {
	if w.count > 0 && w.one(3) {
		return "i" + itoa(w.n(0, w.count-1))
	}
	return w.small()
}

// ---- regular expressions (ECMAScript 5.1, 15.10.1) ----

func (w *es5Writer) reChar() string {
	c := gen.StringFrom(es5Alphabet, 1, 1).Draw(w.t)
	if strings.ContainsAny(c, `\^$.|?*+()[]{}/`) {
		return `\` + c
	}
	return c
}

// reClassChar draws a literal character of a class, escaped where the
// class syntax needs it.
func (w *es5Writer) reClassChar() (string, byte) {
	c := gen.StringFrom(es5Alphabet, 1, 1).Draw(w.t)
	if strings.ContainsAny(c, `\]^-/`) {
		return `\` + c, c[0]
	}
	return c, c[0]
}

// reClass draws a character class: [abc], [^a-c], with escapes inside
// (rarely empty: [] matches nothing, [^] anything).
func (w *es5Writer) reClass() string {
	var b strings.Builder
	b.WriteByte('[')
	if w.one(4) {
		b.WriteByte('^')
	}
	n := w.n(1, 3)
	if w.one(32) {
		n = 0
	}
	for range n {
		switch w.n(0, 3) {
		case 0:
			b.WriteString(es5ReClassEscape.Draw(w.t))
		case 1:
			lo, l := w.reClassChar()
			hi, h := w.reClassChar()
			if l > h {
				lo, hi = hi, lo
			}
			b.WriteString(lo + "-" + hi)
		default:
			c, _ := w.reClassChar()
			b.WriteString(c)
		}
	}
	b.WriteByte(']')
	return b.String()
}

func (w *es5Writer) reQuant() string {
	var q string
	switch w.n(0, 5) {
	case 0, 1:
		q = "*"
	case 2:
		q = "+"
	case 3:
		q = "?"
	case 4:
		q = "{" + itoa(w.n(0, 3)) + "}"
	default:
		lo := w.n(0, 3)
		if w.one(2) {
			q = "{" + itoa(lo) + ",}"
		} else {
			q = "{" + itoa(lo) + "," + itoa(lo+w.n(0, 3)) + "}"
		}
	}
	if w.one(4) {
		q += "?"
	}
	return q
}

func (w *es5Writer) reAtom(d int) string {
	k := w.n(0, 11)
	if d <= 0 && k >= 8 {
		k %= 8
	}
	switch k {
	case 0, 1, 2, 3:
		return w.reChar()
	case 4:
		return "."
	case 5:
		return es5ReEscape.Draw(w.t)
	case 6:
		return w.reClass()
	case 7:
		if w.groups > 0 && w.one(4) {
			return `\` + itoa(w.n(1, w.groups))
		}
		return w.reChar()
	case 8, 9:
		w.groups++
		return "(" + w.reDisj(d-1) + ")"
	default:
		return "(?:" + w.reDisj(d-1) + ")"
	}
}

func (w *es5Writer) reTerm(d int) string {
	switch w.n(0, 15) {
	case 0:
		return gen.Tokens("^", "$", `\b`, `\B`).Draw(w.t)
	case 1:
		// lookaheads, which otto's documentation lists as unsupported
		// (RE2 has none), are rare
		if d > 0 && w.one(4) {
			return gen.Tokens("(?=", "(?!").Draw(w.t) + w.reDisj(d-1) + ")"
		}
	}
	a := w.reAtom(d)
	if w.one(3) {
		a += w.reQuant()
	}
	return a
}

func (w *es5Writer) reDisj(d int) string {
	alts := make([]string, 1)
	if d > 0 && w.one(4) {
		alts = make([]string, w.n(2, 3))
	}
	for i := range alts {
		var b strings.Builder
		for range w.n(1, 4) {
			b.WriteString(w.reTerm(d))
		}
		alts[i] = b.String()
	}
	return strings.Join(alts, "|")
}

// pattern draws the body of a regular expression.
func (w *es5Writer) pattern() string {
	saved := w.groups
	w.groups = 0
	p := w.reDisj(2)
	w.groups = saved
	if strings.HasPrefix(p, "*") {
		p = `\` + p
	}
	return p
}

// re draws a regular expression: a literal, a variable, or new RegExp.
func (w *es5Writer) re(d int) string {
	if v, ok := w.pick(es5Re, false); ok && w.one(2) {
		return v.name
	}
	if w.one(5) {
		args := es5Quote(w.pattern())
		if f := w.flags(); f != "" || w.one(2) {
			args += ", '" + f + "'"
		}
		return "new RegExp(" + args + ")"
	}
	return "/" + w.pattern() + "/" + w.flags()
}

// ---- expressions ----

// expr draws an expression of kind k.
func (w *es5Writer) expr(k es5Kind, d int) string {
	switch k {
	case es5Num:
		return w.num(d)
	case es5Str:
		return w.str(d)
	case es5Bool:
		return w.bool(d)
	case es5Arr:
		return w.arr(d)
	case es5Obj:
		return w.obj(d)
	case es5Re:
		return w.re(d)
	case es5Fn:
		return w.fnExpr(d, w.n(0, 2))
	case es5Date:
		return w.date(d)
	default:
		return w.anyv(d)
	}
}

// recv draws a receiver of kind k for a member access: a variable or a
// parenthesized expression.
func (w *es5Writer) recv(k es5Kind, d int) string {
	if v, ok := w.pick(k, false); ok && w.n(0, 2) > 0 {
		return v.name
	}
	s := w.expr(k, d-1)
	if strings.HasPrefix(s, "/") || es5IsIdent(s) || strings.HasPrefix(s, "[") || strings.HasPrefix(s, "'") || strings.HasPrefix(s, `"`) {
		return s
	}
	return es5Paren(s)
}

func es5IsIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func (w *es5Writer) num(d int) string {
	k := w.n(0, 15)
	if d <= 0 {
		k %= 3
	}
	switch k {
	case 0:
		return w.num0()
	case 1, 2:
		if w.count > 0 && w.one(2) {
			return "i" + itoa(w.n(0, w.count-1))
		}
		if v, ok := w.pick(es5Num, false); ok {
			return v.name
		}
		return w.num0()
	case 3:
		return es5Paren(w.num(d-1) + " " + es5Arith.Draw(w.t) + " " + w.num(d-1))
	case 4:
		return es5Paren(w.num(d-1) + " " + es5Bitwise.Draw(w.t) + " " + w.num(d-1))
	case 5:
		return gen.Tokens("-", "~", "+").Draw(w.t) + w.recv(es5Num, d)
	case 6:
		switch w.n(0, 2) {
		case 0:
			return "Math." + es5MathUn.Draw(w.t) + "(" + w.num(d-1) + ")"
		case 1:
			return "Math." + es5MathBin.Draw(w.t) + "(" + w.num(d-1) + ", " + w.num(d-1) + ")"
		default:
			return gen.Tokens("Math.random()", "Math.PI", "Math.E", "Math.LN2", "Math.SQRT2", "Number.MAX_VALUE", "Number.MIN_VALUE", "Number.NaN", "Number.POSITIVE_INFINITY").Draw(w.t)
		}
	case 7:
		return w.recv(gen.SampledFrom(es5Str, es5Arr).Draw(w.t), d) + ".length"
	case 8:
		r := w.recv(es5Str, d)
		switch w.n(0, 4) {
		case 0:
			return r + ".charCodeAt(" + w.index() + ")"
		case 1:
			a := w.str(d - 1)
			if w.one(2) {
				a += ", " + w.index()
			}
			return r + gen.Tokens(".indexOf(", ".lastIndexOf(").Draw(w.t) + a + ")"
		case 2:
			return r + ".search(" + w.re(d-1) + ")"
		case 3:
			return r + ".localeCompare(" + w.str(d-1) + ")"
		default:
			return r + ".length"
		}
	case 9:
		switch w.n(0, 3) {
		case 0:
			a := w.str(d - 1)
			if w.one(2) {
				a += ", " + gen.Tokens("10", "16", "2", "8", "36", "0", "1", "37").Draw(w.t)
			}
			return "parseInt(" + a + ")"
		case 1:
			return "parseFloat(" + w.str(d-1) + ")"
		case 2:
			return "Number(" + w.anyv(d-1) + ")"
		default:
			return "+" + w.recv(es5Str, d)
		}
	case 10:
		r := w.recv(es5Arr, d)
		switch w.n(0, 3) {
		case 0:
			return r + gen.Tokens(".indexOf(", ".lastIndexOf(").Draw(w.t) + w.anyv(d-1) + ")"
		case 1:
			return r + gen.Tokens(".push(", ".unshift(").Draw(w.t) + w.anyv(d-1) + ")"
		case 2:
			return r + gen.Tokens(".reduce(", ".reduceRight(").Draw(w.t) + w.fnExpr(d-1, 2) + ", " + w.num(d-1) + ")"
		default:
			return r + ".length"
		}
	case 11:
		switch w.n(0, 2) {
		case 0:
			return w.recv(es5Date, d) + "." + es5DateGet.Draw(w.t) + "()"
		case 1:
			return "Date.UTC(" + w.dateArgs(d) + ")"
		default:
			return "Date.parse(" + es5Quote(es5DateText.Draw(w.t)) + ")"
		}
	case 12:
		return es5Paren(w.bool(d-1) + " ? " + w.num(d-1) + " : " + w.num(d-1))
	case 13:
		if v, ok := w.pick(es5Num, true); ok {
			return gen.Tokens("++", "--").Draw(w.t) + v.name
		}
		return w.num0()
	case 14:
		return "Math.max.apply(Math, " + w.arr(d-1) + ")"
	default:
		return w.recv(es5Num, d) + ".valueOf()"
	}
}

func (w *es5Writer) str(d int) string {
	k := w.n(0, 15)
	if d <= 0 {
		k %= 3
	}
	switch k {
	case 0:
		return w.str0()
	case 1, 2:
		if v, ok := w.pick(es5Str, false); ok {
			return v.name
		}
		return w.str0()
	case 3:
		return es5Paren(w.str(d-1) + " + " + w.expr(gen.SampledFrom(es5Str, es5Num, es5Any).Draw(w.t), d-1))
	case 4:
		r := w.recv(es5Str, d)
		switch w.n(0, 7) {
		case 0:
			return r + ".charAt(" + w.index() + ")"
		case 1:
			a := w.index()
			if w.one(2) {
				a += ", " + w.index()
			}
			return r + gen.Tokens(".slice(", ".substring(", ".substr(").Draw(w.t) + a + ")"
		case 2:
			return r + gen.Tokens(".toUpperCase()", ".toLowerCase()", ".trim()", ".toLocaleUpperCase()", ".toLocaleLowerCase()", ".toString()", ".valueOf()").Draw(w.t)
		case 3:
			as := make([]string, w.n(0, 2))
			for i := range as {
				as[i] = w.expr(gen.SampledFrom(es5Str, es5Num).Draw(w.t), d-1)
			}
			return r + ".concat(" + w.comma(as) + ")"
		default:
			return r + ".replace(" + w.replaceArgs(d) + ")"
		}
	case 5:
		r := w.recv(es5Arr, d)
		if w.one(3) {
			return r + ".join()"
		}
		return r + ".join(" + w.str(d-1) + ")"
	case 6:
		r := w.recv(es5Num, d)
		switch w.n(0, 3) {
		case 0:
			if w.one(2) {
				return r + ".toString()"
			}
			return r + ".toString(" + gen.Tokens("2", "8", "10", "16", "36", "1", "37").Draw(w.t) + ")"
		case 1:
			return r + ".toFixed(" + gen.Tokens("", "0", "1", "2", "5", "20", "21", "-1").Draw(w.t) + ")"
		case 2:
			return r + ".toPrecision(" + gen.Tokens("", "1", "3", "10", "21", "0").Draw(w.t) + ")"
		default:
			return r + ".toExponential(" + gen.Tokens("", "0", "2", "20", "21").Draw(w.t) + ")"
		}
	case 7:
		a := w.anyv(d - 1)
		switch w.n(0, 3) {
		case 0:
			a += ", null, " + gen.Tokens("2", "'  '", "'\\t'", "0").Draw(w.t)
		case 1:
			a += ", " + w.fnExpr(d-1, 2)
		case 2:
			a += ", " + w.arr(d-1)
		}
		return "JSON.stringify(" + a + ")"
	case 8:
		switch w.n(0, 2) {
		case 0:
			return "String(" + w.anyv(d-1) + ")"
		case 1:
			return "typeof " + w.recv(w.kind(), d)
		default:
			return es5Paren(w.anyv(d-1) + " + ''")
		}
	case 9:
		switch w.n(0, 2) {
		case 0:
			as := make([]string, w.n(1, 3))
			for i := range as {
				as[i] = w.num(d - 1)
			}
			return "String.fromCharCode(" + w.comma(as) + ")"
		default:
			return gen.Tokens("encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI", "escape", "unescape").Draw(w.t) + "(" + w.str(d-1) + ")"
		}
	case 10:
		r := w.recv(es5Re, d)
		return r + gen.Tokens(".source", ".toString()", ".flags").Draw(w.t)
	case 11:
		return w.recv(es5Date, d) + "." + es5DateStr.Draw(w.t) + "()"
	case 12:
		return es5Paren(w.bool(d-1) + " ? " + w.str(d-1) + " : " + w.str(d-1))
	case 13:
		return w.recv(es5Arr, d) + gen.Tokens(".toString()", ".join('')", ".join(',')").Draw(w.t)
	case 14:
		return w.recv(es5Obj, d) + gen.Tokens(".toString()", ".constructor.name", ".toLocaleString()").Draw(w.t)
	default:
		if w.fn && w.one(2) {
			return "String(arguments.length)"
		}
		return w.str0()
	}
}

// replaceArgs draws the arguments of String.prototype.replace: a pattern
// (a regular expression or a string) and a replacement (a string with $
// patterns or a function).
func (w *es5Writer) replaceArgs(d int) string {
	var p string
	if w.one(3) {
		p = w.str(d - 1)
	} else {
		p = w.re(d - 1)
	}
	switch w.n(0, 3) {
	case 0:
		return p + ", " + w.fnExpr(d-1, w.n(1, 3))
	case 1:
		return p + ", " + w.str(d-1)
	default:
		return p + ", " + es5Quote(es5Replace.Draw(w.t))
	}
}

func (w *es5Writer) bool(d int) string {
	k := w.n(0, 11)
	if d <= 0 {
		k %= 2
	}
	switch k {
	case 0:
		if v, ok := w.pick(es5Bool, false); ok && w.one(2) {
			return v.name
		}
		return gen.Tokens("true", "false").Draw(w.t)
	case 1:
		if v, ok := w.pick(es5Bool, false); ok {
			return v.name
		}
		return gen.Tokens("true", "false", "!0", "!1").Draw(w.t)
	case 2, 3:
		kk := gen.SampledFrom(es5Num, es5Num, es5Str, es5Any).Draw(w.t)
		return w.expr(kk, d-1) + " " + es5Compare.Draw(w.t) + " " + w.expr(kk, d-1)
	case 4:
		switch w.n(0, 2) {
		case 0:
			return "!" + w.recv(es5Bool, d)
		case 1:
			return es5Paren(w.bool(d-1) + " && " + w.bool(d-1))
		default:
			return es5Paren(w.bool(d-1) + " || " + w.bool(d-1))
		}
	case 5:
		return w.recv(es5Re, d) + ".test(" + w.str(d-1) + ")"
	case 6:
		switch w.n(0, 2) {
		case 0:
			return gen.Tokens("isNaN(", "isFinite(").Draw(w.t) + w.num(d-1) + ")"
		case 1:
			return "Array.isArray(" + w.anyv(d-1) + ")"
		default:
			return "Object." + gen.Tokens("isFrozen", "isSealed", "isExtensible").Draw(w.t) + "(" + w.obj(d-1) + ")"
		}
	case 7:
		return w.recv(es5Arr, d) + gen.Tokens(".some(", ".every(").Draw(w.t) + w.fnExpr(d-1, w.n(1, 3)) + ")"
	case 8:
		switch w.n(0, 2) {
		case 0:
			return es5Quote(w.key()) + " in " + w.recv(es5Obj, d)
		case 1:
			return w.recv(es5Obj, d) + ".hasOwnProperty(" + es5Quote(w.key()) + ")"
		default:
			return w.recv(es5Obj, d) + ".propertyIsEnumerable(" + es5Quote(w.key()) + ")"
		}
	case 9:
		c := es5CtorName.Draw(w.t)
		if fv, ok := w.pick(es5Fn, false); ok && w.one(2) {
			c = fv.name
		}
		return w.recv(w.kind(), d) + " instanceof " + c
	case 10:
		return "Boolean(" + w.anyv(d-1) + ")"
	default:
		return es5Paren(w.bool(d-1) + " ? " + w.bool(d-1) + " : " + w.bool(d-1))
	}
}

func (w *es5Writer) arr(d int) string {
	k := w.n(0, 9)
	if d <= 0 {
		k %= 2
	}
	switch k {
	case 0:
		as := make([]string, w.n(0, 4))
		for i := range as {
			if d <= 0 {
				as[i] = gen.OneOf(es5Numbers, gen.Map(gen.Just(0), func(int) string { return w.str0() })).Draw(w.t)
			} else {
				as[i] = w.anyv(d - 1)
			}
		}
		return "[" + w.comma(as) + "]"
	case 1:
		if v, ok := w.pick(es5Arr, false); ok {
			return v.name
		}
		return "[" + w.num0() + ", " + w.str0() + "]"
	case 2:
		r := w.recv(es5Str, d)
		var sep string
		switch w.n(0, 2) {
		case 0:
			sep = w.re(d - 1)
		default:
			sep = w.str(d - 1)
		}
		if w.one(4) {
			sep += ", " + w.small()
		}
		return r + ".split(" + sep + ")"
	case 3:
		r := w.recv(es5Arr, d)
		switch w.n(0, 5) {
		case 0:
			a := w.index()
			if w.one(2) {
				a += ", " + w.index()
			}
			return r + ".slice(" + a + ")"
		case 1:
			return r + ".concat(" + w.expr(gen.SampledFrom(es5Arr, es5Any).Draw(w.t), d-1) + ")"
		case 2:
			return r + ".reverse()"
		case 3:
			if w.one(2) {
				return r + ".sort()"
			}
			return r + ".sort(" + w.fnExpr(d-1, 2) + ")"
		default:
			as := []string{w.index()}
			if w.n(0, 2) > 0 {
				as = append(as, w.small())
				for range w.n(0, 2) {
					as = append(as, w.anyv(d-1))
				}
			}
			return r + ".splice(" + w.comma(as) + ")"
		}
	case 4:
		return w.recv(es5Arr, d) + gen.Tokens(".map(", ".filter(").Draw(w.t) + w.fnExpr(d-1, w.n(1, 3)) + ")"
	case 5:
		return "Object." + gen.Tokens("keys", "getOwnPropertyNames").Draw(w.t) + "(" + w.obj(d-1) + ")"
	case 6:
		if w.one(2) {
			return w.recv(es5Str, d) + ".match(" + w.re(d-1) + ")"
		}
		return w.recv(es5Re, d) + ".exec(" + w.str(d-1) + ")"
	case 7:
		if w.one(2) {
			return "new Array(" + w.small() + ")"
		}
		as := make([]string, w.n(0, 3))
		for i := range as {
			as[i] = w.anyv(d - 1)
		}
		return gen.Tokens("new Array(", "Array(").Draw(w.t) + w.comma(as) + ")"
	case 8:
		if w.fn {
			return "Array.prototype.slice.call(arguments" + gen.Tokens(")", ", 1)").Draw(w.t)
		}
		return "Array.prototype.slice.call(" + w.str(d-1) + ")"
	default:
		return "Array.prototype.concat.call(" + w.arr(d-1) + ", " + w.anyv(d-1) + ")"
	}
}

// object draws an object literal with distinct keys: data properties,
// methods, getters and setters.
func (w *es5Writer) object(d int) string {
	keys := gen.Permutation(es5Keys).Draw(w.t)[:w.n(0, 4)]
	props := make([]string, len(keys))
	for i, k := range keys {
		name := k
		if !es5IsIdent(k) || w.one(5) {
			name = es5Quote(k)
		}
		switch {
		case d > 0 && w.one(8):
			props[i] = "get " + name + "() " + w.body(d-1, nil, true)
		case d > 0 && w.one(8):
			p := w.newName(es5Any)
			props[i] = "set " + name + "(" + p + ") " + w.body(d-1, []string{p}, false)
		case d > 0 && w.one(5):
			props[i] = name + ": " + w.fnExpr(d-1, w.n(0, 2))
		case d <= 0:
			props[i] = name + ": " + gen.OneOf(es5Numbers, gen.Map(gen.Just(0), func(int) string { return w.str0() })).Draw(w.t)
		default:
			props[i] = name + ": " + w.anyv(d-1)
		}
	}
	return "{" + w.comma(props) + "}"
}

func (w *es5Writer) obj(d int) string {
	k := w.n(0, 7)
	if d <= 0 {
		k %= 2
	}
	switch k {
	case 0:
		return w.object(d)
	case 1:
		if v, ok := w.pick(es5Obj, false); ok {
			return v.name
		}
		return w.object(d)
	case 2:
		return "JSON.parse(" + es5Quote(w.json(2)) + ")"
	case 3:
		switch w.n(0, 2) {
		case 0:
			return "Object.create(" + gen.Tokens("null", "Object.prototype", "Array.prototype").Draw(w.t) + ")"
		case 1:
			return "Object.create(" + w.obj(d-1) + ")"
		default:
			return "Object." + gen.Tokens("freeze", "seal", "preventExtensions").Draw(w.t) + "(" + w.obj(d-1) + ")"
		}
	case 4:
		if v, ok := w.pick(es5Fn, false); ok {
			as := make([]string, v.arity)
			for i := range as {
				as[i] = w.anyv(d - 1)
			}
			return "new " + v.name + "(" + w.comma(as) + ")"
		}
		return "new Object()"
	case 5:
		return "new " + es5ErrCtor.Draw(w.t) + "(" + w.str(d-1) + ")"
	case 6:
		o := w.obj(d - 1)
		p := "{" + w.key() + ": {value: " + w.anyv(d-1) + gen.Tokens("", ", writable: true", ", enumerable: true", ", configurable: false, enumerable: true").Draw(w.t) + "}}"
		if w.one(2) {
			return "Object.defineProperties(" + o + ", " + p + ")"
		}
		return "Object.defineProperty(" + o + ", " + es5Quote(w.key()) + ", {value: " + w.anyv(d-1) + gen.Tokens("", ", writable: true", ", enumerable: true").Draw(w.t) + "})"
	default:
		if w.fn {
			return "this"
		}
		return "Object(" + w.anyv(d-1) + ")"
	}
}

// json draws JSON text.
func (w *es5Writer) json(d int) string {
	switch k := w.n(0, 5); {
	case d > 0 && k == 0:
		as := make([]string, w.n(0, 3))
		for i := range as {
			as[i] = w.json(d - 1)
		}
		return "[" + strings.Join(as, ",") + "]"
	case d > 0 && k <= 2:
		keys := gen.Permutation(es5Keys).Draw(w.t)[:w.n(0, 3)]
		ms := make([]string, len(keys))
		for i, key := range keys {
			ms[i] = `"` + key + `":` + w.json(d-1)
		}
		return "{" + strings.Join(ms, ",") + "}"
	default:
		return gen.Tokens("0", "1", "-2.5", "1e3", "true", "false", "null", `""`, `"a"`, `"x y"`, `"\u00e9"`, `"2020-01-02"`).Draw(w.t)
	}
}

func (w *es5Writer) dateArgs(d int) string {
	as := []string{gen.Tokens("2020", "1970", "1999", "2000", "99", "0", "-1", "275760").Draw(w.t), gen.Tokens("0", "1", "11", "12", "-1").Draw(w.t)}
	for range w.n(0, 4) {
		as = append(as, w.index())
	}
	return w.comma(as)
}

func (w *es5Writer) date(d int) string {
	if v, ok := w.pick(es5Date, false); ok && w.one(2) {
		return v.name
	}
	switch w.n(0, 3) {
	case 0:
		return "new Date(" + w.dateArgs(d) + ")"
	case 1:
		return "new Date(" + gen.Tokens("0", "86400000", "1e12", "-1", "8.64e15", "8.64e15 + 1", "NaN").Draw(w.t) + ")"
	case 2:
		return "new Date(" + es5Quote(es5DateText.Draw(w.t)) + ")"
	default:
		return "new Date(Date.UTC(" + w.dateArgs(d) + "))"
	}
}

// anyv draws an expression of any kind: one of the typed kinds, or a
// value whose type the script does not fix (a property, an element, a
// call's result, a parameter).
func (w *es5Writer) anyv(d int) string {
	k := w.n(0, 13)
	if d <= 0 {
		k %= 4
	}
	switch k {
	case 0:
		if v, ok := w.pick(es5Any, false); ok {
			return v.name
		}
		return gen.Tokens("null", "undefined", "true", "0", "''").Draw(w.t)
	case 1:
		return w.num0()
	case 2:
		return w.str0()
	case 3:
		return gen.Tokens("null", "undefined", "true", "false", "NaN").Draw(w.t)
	case 4:
		if w.one(3) {
			return w.recv(es5Obj, d) + "[" + es5Quote(w.key()) + "]"
		}
		return w.recv(es5Obj, d) + w.member()
	case 5:
		return w.recv(gen.SampledFrom(es5Arr, es5Str).Draw(w.t), d) + "[" + w.index() + "]"
	case 6:
		if v, ok := w.pick(es5Fn, false); ok {
			return w.call(v, d)
		}
		return w.fnExpr(d-1, 0) + "()"
	case 7:
		switch w.n(0, 2) {
		case 0:
			return w.recv(es5Arr, d) + gen.Tokens(".pop()", ".shift()").Draw(w.t)
		case 1:
			return w.recv(es5Obj, d) + "." + gen.Tokens("valueOf()", "constructor", "__proto__").Draw(w.t)
		default:
			return w.recv(es5Fn, d) + gen.Tokens(".call(", ".apply(").Draw(w.t) + w.expr(gen.SampledFrom(es5Obj, es5Any).Draw(w.t), d-1) + ", " + w.arr(d-1) + ")"
		}
	case 8:
		if w.fn {
			return gen.Tokens("this", "arguments[0]", "arguments[1]", "arguments.length").Draw(w.t)
		}
		return "JSON.parse(" + es5Quote(w.json(2)) + ")"
	case 9:
		return es5Paren(w.bool(d-1) + " ? " + w.anyv(d-1) + " : " + w.anyv(d-1))
	case 10:
		return es5Paren(w.anyv(d-1) + gen.Tokens(" || ", " && ", ", ").Draw(w.t) + w.anyv(d-1))
	default:
		kk := w.kind()
		if kk == es5Any {
			kk = es5Obj
		}
		return w.expr(kk, d)
	}
}

// call draws a call of the function variable v with as many arguments as
// it takes (sometimes fewer or more).
func (w *es5Writer) call(v es5Var, d int) string {
	n := v.arity
	if w.one(5) {
		n = w.n(0, 3)
	}
	as := make([]string, n)
	for i := range as {
		as[i] = w.anyv(d - 1)
	}
	return v.name + "(" + w.comma(as) + ")"
}

// fnExpr draws a function expression of arity parameters (callbacks:
// element, index, array; accumulator, element; two elements to compare).
func (w *es5Writer) fnExpr(d, arity int) string {
	if v, ok := w.pick(es5Fn, false); ok && w.one(3) {
		return v.name
	}
	ps := make([]string, arity)
	for i := range ps {
		ps[i] = w.newName(es5Any)
	}
	head := "function"
	if w.one(6) {
		w.nfn++
		head += " g" + itoa(w.nfn)
	}
	return head + "(" + w.comma(ps) + ") " + w.body(d, ps, true)
}

// body draws a function body: a new function context (return, this;
// no loops, switches or labels around), the parameters visible, its own
// variables dropped at its end; ret asks for a final return.
func (w *es5Writer) body(d int, params []string, ret bool) string {
	mark := w.scope()
	saved := *w
	w.fn, w.loops, w.count, w.sw, w.labels, w.iters = true, 0, 0, 0, nil, 1
	for _, p := range params {
		w.add(es5Var{name: p, kind: es5Any})
	}
	var b strings.Builder
	b.WriteString("{")
	if !w.strict && w.one(12) {
		b.WriteString(" 'use strict';")
		w.strict = true
	}
	if d > 0 {
		for range w.n(0, 2) {
			w.top = true
			b.WriteString(" " + w.stmt(d-1))
		}
	}
	if ret || w.one(2) {
		b.WriteString(" return " + w.anyv(d) + ";")
	}
	b.WriteString(" }")
	w.fn, w.loops, w.count, w.sw, w.labels, w.iters = saved.fn, saved.loops, saved.count, saved.sw, saved.labels, saved.iters
	w.strict, w.top = saved.strict, saved.top
	w.restore(mark)
	return b.String()
}

// ---- statements ----

// block draws a block; variables declared in it are not used after it
// (they are function-scoped, but may not have been assigned).
func (w *es5Writer) block(d int) string {
	mark := w.scope()
	var b strings.Builder
	b.WriteString("{")
	for range w.n(0, w.cfg.MaxStmts-1) {
		b.WriteString(" " + w.stmt(d))
	}
	b.WriteString(" }")
	w.restore(mark)
	return b.String()
}

// loopBody draws the body of a loop with bound n (counted: the loop has
// the next counter); labels are set by the caller.
func (w *es5Writer) loopBody(d, n int, counted bool) string {
	saved, count := w.iters, w.count
	w.iters *= max(n, 1)
	w.loops++
	if counted {
		w.count++
	}
	s := w.block(d)
	w.loops--
	w.iters, w.count = saved, count
	return s
}

// bound draws a loop's iteration count; the loops around a statement
// run it at most 16 times (a script that doubles a string in a loop stays
// small).
func (w *es5Writer) bound() int {
	n := w.n(0, 4)
	for n > 0 && w.iters*n > 16 {
		n--
	}
	return n
}

// varDecl draws a var statement declaring one or two variables.
func (w *es5Writer) varDecl(d int) string {
	ds := make([]string, w.n(1, 2))
	var vs []es5Var
	for i := range ds {
		k := w.kind()
		if k == es5Fn {
			// function variables are named functions' business
			k = es5Any
		}
		v := es5Var{name: w.newName(k), kind: k}
		ds[i] = v.name + " = " + w.expr(k, d)
		vs = append(vs, v)
	}
	for _, v := range vs {
		w.add(v)
	}
	return "var " + w.comma(ds) + ";"
}

// assign draws an assignment to a variable of the same kind, a compound
// assignment, an update, or a property or element assignment.
func (w *es5Writer) assign(d int) string {
	switch w.n(0, 5) {
	case 0, 1:
		k := w.kind()
		if v, ok := w.pick(k, true); ok && k != es5Fn {
			return v.name + " = " + w.expr(k, d) + ";"
		}
	case 2:
		if v, ok := w.pick(es5Num, true); ok {
			switch w.n(0, 2) {
			case 0:
				return v.name + gen.Tokens("++", "--").Draw(w.t) + ";"
			default:
				return v.name + " " + gen.Tokens("+=", "-=", "*=", "/=", "%=", "|=", "&=", "<<=", ">>=").Draw(w.t) + " " + w.num(d) + ";"
			}
		}
		if v, ok := w.pick(es5Str, true); ok {
			return v.name + " += " + w.expr(gen.SampledFrom(es5Str, es5Num).Draw(w.t), d) + ";"
		}
	case 3:
		return w.recv(es5Obj, d) + w.member() + " = " + w.anyv(d) + ";"
	case 4:
		return w.recv(es5Obj, d) + "[" + w.str(d) + "] = " + w.anyv(d) + ";"
	default:
		if w.fn && w.one(2) {
			return "this" + w.member() + " = " + w.anyv(d) + ";"
		}
		return w.recv(es5Arr, d) + "[" + w.index() + "] = " + w.anyv(d) + ";"
	}
	return w.varDecl(d)
}

// exprStmt draws an expression statement: mostly calls with effects or
// results, as scripts write them.
func (w *es5Writer) exprStmt(d int) string {
	var s string
	switch w.n(0, 7) {
	case 0:
		if v, ok := w.pick(es5Fn, false); ok {
			s = w.call(v, d)
			break
		}
		fallthrough
	case 1:
		r := w.recv(es5Arr, d)
		switch w.n(0, 4) {
		case 0:
			s = r + gen.Tokens(".push(", ".unshift(").Draw(w.t) + w.anyv(d-1) + ")"
		case 1:
			s = r + gen.Tokens(".pop()", ".shift()", ".reverse()", ".sort()").Draw(w.t)
		case 2:
			s = r + ".forEach(" + w.fnExpr(d-1, w.n(1, 3)) + ")"
		case 3:
			s = r + ".sort(" + w.fnExpr(d-1, 2) + ")"
		default:
			s = r + ".splice(" + w.index() + ", " + w.small() + ")"
		}
	case 2:
		s = "delete " + w.recv(es5Obj, d) + w.member()
	case 3:
		r := w.recv(es5Date, d)
		s = r + "." + es5DateSet.Draw(w.t) + "(" + w.num(d-1) + ")"
	default:
		s = w.expr(w.kind(), d)
	}
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "function") {
		s = es5Paren(s)
	}
	return s + ";"
}

// loop draws a loop whose own counter bounds it: for with a counter,
// for-in, while and do-while counting down; label is "" or its label.
func (w *es5Writer) loop(d int, label string) string {
	if label != "" {
		w.labels = append(w.labels, es5Label{name: label, loop: true})
		defer func() { w.labels = w.labels[:len(w.labels)-1] }()
	}
	c := "i" + itoa(w.count)
	n := w.bound()
	switch w.n(0, 5) {
	case 0, 1:
		return "for (var " + c + " = 0; " + c + " < " + itoa(n) + "; " + c + gen.Tokens("++", " += 1", "++").Draw(w.t) + ") " + w.loopBody(d, n, true)
	case 2:
		return "for (var " + c + " = " + itoa(n) + "; " + c + " > 0; " + c + "--) " + w.loopBody(d, n, true)
	case 3:
		mark := w.scope()
		k := w.newName(es5Str)
		w.add(es5Var{name: k, kind: es5Str, fixed: true})
		src := w.expr(gen.SampledFrom(es5Obj, es5Arr, es5Str).Draw(w.t), min(d, w.cfg.MaxExpr))
		s := "for (var " + k + " in " + src + ") " + w.loopBody(d, 4, false)
		w.restore(mark)
		return s
	case 4:
		return "var " + c + " = " + itoa(n) + ";\n" + label + es5Pfx(label) + "while (" + c + "-- > 0) " + w.loopBody(d, n, true)
	default:
		return "var " + c + " = " + itoa(n) + ";\n" + label + es5Pfx(label) + "do " + w.loopBody(d, n+1, true) + " while (" + c + "-- > 0);"
	}
}

func es5Pfx(label string) string {
	if label == "" {
		return ""
	}
	return ": "
}

// stmt draws a statement the context allows.
func (w *es5Writer) stmt(d int) string {
	top := w.top
	w.top = false
	if d <= 0 {
		switch w.n(0, 2) {
		case 0:
			return w.varDecl(0)
		case 1:
			return w.assign(0)
		default:
			return w.exprStmt(0)
		}
	}
	e := min(d, w.cfg.MaxExpr) // the depth of the statement's expressions
	switch w.n(0, 21) {
	case 0, 1, 2, 3:
		return w.exprStmt(e)
	case 4, 5, 6:
		return w.varDecl(e)
	case 7, 8:
		return w.assign(e)
	case 9, 10:
		s := "if (" + w.bool(e-1) + ") " + w.block(d-1)
		if w.one(2) {
			if w.one(3) {
				s += " else " + w.stmt(d-1)
			} else {
				s += " else " + w.block(d-1)
			}
		}
		return s
	case 11, 12:
		return w.loop(d-1, "")
	case 13:
		l := "L" + itoa(len(w.labels))
		s := w.loop(d-1, l)
		if strings.HasPrefix(s, "var ") {
			return s // the label is written before the while or do
		}
		return l + ": " + s
	case 14:
		var b strings.Builder
		kk := gen.SampledFrom(es5Num, es5Str).Draw(w.t)
		b.WriteString("switch (" + w.expr(kk, e-1) + ") {")
		w.sw++
		def := false
		seen := map[string]bool{}
		for range w.n(1, 4) {
			if !def && w.one(4) {
				b.WriteString(" default:")
				def = true
			} else {
				c := w.num0()
				if kk == es5Str {
					c = w.str0()
				}
				if seen[c] {
					continue
				}
				seen[c] = true
				b.WriteString(" case " + c + ":")
			}
			for range w.n(0, 2) {
				b.WriteString(" " + w.stmt(d-1))
			}
			if w.n(0, 2) > 0 {
				b.WriteString(" break;")
			}
		}
		w.sw--
		b.WriteString(" }")
		return b.String()
	case 15, 16:
		s := "try " + w.block(d-1)
		k := w.n(0, 3)
		if k < 3 {
			mark := w.scope()
			x := w.newName(es5Any)
			w.add(es5Var{name: x, kind: es5Any, fixed: true})
			var b strings.Builder
			b.WriteString(" catch (" + x + ") {")
			if w.one(2) {
				b.WriteString(" " + x + gen.Tokens(".message", ".name", " instanceof TypeError", ".toString()").Draw(w.t) + ";")
			}
			for range w.n(0, 2) {
				b.WriteString(" " + w.stmt(d-1))
			}
			b.WriteString(" }")
			w.restore(mark)
			s += b.String()
		}
		if k > 1 {
			s += " finally " + w.block(d-1)
		}
		return s
	case 17:
		v := "new " + es5ErrCtor.Draw(w.t) + "(" + w.str(e-1) + ")"
		if w.one(3) {
			v = w.anyv(e - 1)
		}
		return "if (" + w.bool(e-1) + ") throw " + v + ";"
	case 18:
		if !top {
			return w.exprStmt(e)
		}
		w.nfn++
		name := "f" + itoa(w.nfn)
		ps := make([]string, w.n(0, 3))
		for i := range ps {
			ps[i] = w.newName(es5Any)
		}
		s := "function " + name + "(" + w.comma(ps) + ") " + w.body(d, ps, w.n(0, 2) > 0)
		w.add(es5Var{name: name, kind: es5Fn, fixed: true, arity: len(ps)})
		return s
	case 19:
		switch {
		case w.fn && w.one(2):
			if w.one(3) {
				return "return;"
			}
			return "return " + w.anyv(e-1) + ";"
		case w.loops > 0 || w.sw > 0:
			kw := "break"
			if w.loops > 0 && w.one(2) {
				kw = "continue"
			}
			var ls []string
			for _, l := range w.labels {
				if l.loop || kw == "break" {
					ls = append(ls, l.name)
				}
			}
			if len(ls) > 0 && w.one(2) {
				kw += " " + ls[w.n(0, len(ls)-1)]
			}
			return "if (" + w.bool(e-1) + ") " + kw + ";"
		}
		return w.block(d - 1)
	case 20:
		if !w.strict && w.one(3) {
			return "with (" + w.obj(e-1) + ") " + w.block(d-1)
		}
		return gen.Tokens(";", "debugger;").Draw(w.t)
	default:
		return es5Comment.Draw(w.t) + "\n" + w.stmt(d-1)
	}
}

// ES5 generates ECMAScript 5.1 scripts as scripts for an embedded
// interpreter are written: var declarations of numbers, strings,
// booleans, arrays, objects (literals with methods, getters and setters,
// JSON.parse, Object.create, new of the script's own constructors),
// regular expressions (literals over the ES5 pattern syntax: alternation,
// classes, escapes, groups, lookaheads, backreferences, greedy and lazy
// quantifiers; or new RegExp) and dates; function declarations and
// expressions as closures and callbacks; calls of the builtins' methods
// on receivers of their types with plausible arguments (String, Array,
// RegExp, Number, Math, JSON, Date, Object, the global functions);
// assignments, compound assignments, property and element writes, delete;
// if/else, for, for-in, while and do-while loops (each bounded by a
// counter the body never writes, the nested ones to 16 iterations in all),
// labels with break and continue, switch, try/catch/finally, throw, with,
// comments and "use strict". A function calls only functions declared
// before it, so a script does not recurse unless a getter, a toString or a
// callback leads it there. The last statement is often an expression whose
// value is the script's result. MistakesPer per mille of scripts go
// through Corrupt.
func ES5(cfg ES5Config) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &es5Writer{t: t, cfg: cfg, iters: 1}
		var b strings.Builder
		if w.one(15) {
			w.strict = true
			b.WriteString("'use strict';\n")
		}
		for range w.n(1, cfg.MaxStmts) {
			w.top = true
			b.WriteString(w.stmt(cfg.MaxDepth) + "\n")
		}
		if w.n(0, 3) > 0 {
			k := w.kind()
			if v, ok := w.pick(k, false); ok && w.one(2) {
				b.WriteString(v.name + ";\n")
			} else {
				s := w.expr(k, cfg.MaxExpr)
				if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "function") {
					s = es5Paren(s)
				}
				b.WriteString(s + ";\n")
			}
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
