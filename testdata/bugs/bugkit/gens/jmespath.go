package gens

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// JMESPathConfig tunes JMESPath.
type JMESPathConfig struct {
	MaxDepth int // nesting of expressions; default 3
	// Keys are the member names of the data the expressions run on (at
	// any level); empty: a few generic names.
	Keys []string
	// Expressions that evaluate, on the data, to a number, a string, an
	// array of numbers, an array of strings, an array of objects, an
	// object: function arguments of the type a function takes are drawn
	// from them, beside literals and calls that return that type. Empty:
	// literals and calls only.
	Numbers, Strings, NumArrays, StrArrays, ObjArrays, Objects []string
	// MistakesPer is the per mille of expressions passed through
	// Corrupt; default 0.
	MistakesPer int
}

func (c JMESPathConfig) withDefaults() JMESPathConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if len(c.Keys) == 0 {
		c.Keys = []string{"foo", "bar", "baz"}
	}
	return c
}

// The types of JMESPath values an expression is drawn for.
type jpKind int

const (
	jpAny jpKind = iota
	jpNum
	jpStr
	jpBool
	jpNumArr
	jpStrArr
	jpObjArr
	jpObj
)

// The precedence of a drawn expression's outermost operator, as the
// specification's grammar orders them: an operand of lower or equal
// precedence than its operator is parenthesized (comparisons do not
// chain).
const (
	jpPrecPipe = iota + 1
	jpPrecOr
	jpPrecAnd
	jpPrecCmp
	jpPrecNot
	jpPrecAtom
)

type jpExpr struct {
	s    string
	prec int
}

// jmesChars draws the characters of quoted identifiers, raw strings and
// JSON string literals: mostly ASCII, some escapes' sources (quotes,
// backslash, control characters), a few non-ASCII letters, and now and
// then any rune.
var jmesChars = gen.OneOfWeighted(
	gen.W(12, gen.StringFrom("abcxyzABC019 _-.:/*@", 1, 1)),
	gen.W(2, gen.Tokens("\"", "'", "\\", "`", "\n", "\t")),
	gen.W(2, gen.Tokens("é", "ü", "ß", "水", "€", "😀")),
	gen.W(1, gen.Map(gen.Rune(), func(r rune) string { return string(r) })),
)

type jpWriter struct {
	t   *gfz.T
	cfg JMESPathConfig
}

func (w jpWriter) intn(lo, hi int) int { return gen.IntRange(lo, hi).Draw(w.t) }

func (w jpWriter) pick(xs ...string) string { return gen.Tokens(xs...).Draw(w.t) }

func (w jpWriter) text(max int) string {
	n := w.intn(0, max)
	var b strings.Builder
	for range n {
		b.WriteString(jmesChars.Draw(w.t))
	}
	return b.String()
}

// jsonString quotes s as a JSON string (a quoted identifier is one).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// identifier is an unquoted identifier ([A-Za-z_][A-Za-z0-9_]*) or, a
// fifth of the time, a quoted one; mostly a key of the data.
func (w jpWriter) identifier() string {
	var name string
	if w.intn(0, 3) > 0 {
		name = w.pick(w.cfg.Keys...)
	} else {
		name = gen.StringFrom("abcxyzABC_", 1, 1).Draw(w.t) + gen.StringFrom("abcxyz_019", 0, 5).Draw(w.t)
	}
	if w.intn(0, 4) == 0 {
		if w.intn(0, 2) == 0 {
			name = w.text(6)
		}
		return jsonString(name)
	}
	return name
}

func (w jpWriter) number() string {
	if w.intn(0, 3) == 0 {
		return w.pick("-1", "-2", "10", "-10", "100")
	}
	return strconv.Itoa(w.intn(0, 4))
}

// rawString is a raw string literal, '...' with \' for a quote (other
// backslashes stand for themselves).
func (w jpWriter) rawString() string {
	// A backslash before the closing quote would escape it.
	s := strings.TrimRight(w.text(8), `\`)
	return "'" + strings.ReplaceAll(s, `'`, `\'`) + "'"
}

// literal is a JSON literal of the kind, `...` with \` for a backtick.
func (w jpWriter) literal(k jpKind, depth int) string {
	return "`" + strings.ReplaceAll(w.jsonValue(k, depth), "`", "\\`") + "`"
}

func (w jpWriter) jsonValue(k jpKind, depth int) string {
	if k == jpAny {
		k = []jpKind{jpNum, jpStr, jpBool, jpNumArr, jpStrArr, jpObj, jpAny}[w.intn(0, 6)]
		if k == jpAny {
			return "null"
		}
	}
	if depth <= 0 && (k == jpObjArr || k == jpObj) {
		k = jpNum
	}
	switch k {
	case jpNum:
		switch w.intn(0, 3) {
		case 0:
			return w.pick("1.5", "-0.25", "1e3", "2.5E-1", "0")
		default:
			return strconv.Itoa(w.intn(-5, 50))
		}
	case jpStr:
		return jsonString(w.text(6))
	case jpBool:
		return w.pick("true", "false")
	case jpNumArr, jpStrArr, jpObjArr:
		el := jpNum
		switch k {
		case jpStrArr:
			el = jpStr
		case jpObjArr:
			el = jpObj
		}
		items := make([]string, w.intn(0, 3))
		for i := range items {
			items[i] = w.jsonValue(el, depth-1)
		}
		return "[" + strings.Join(items, ", ") + "]"
	default: // object
		items := make([]string, w.intn(0, 3))
		for i := range items {
			items[i] = jsonString(w.pick(w.cfg.Keys...)) + ": " + w.jsonValue(jpAny, depth-1)
		}
		return "{" + strings.Join(items, ", ") + "}"
	}
}

// typedPaths are the configured expressions of a kind.
func (w jpWriter) typedPaths(k jpKind) []string {
	switch k {
	case jpNum:
		return w.cfg.Numbers
	case jpStr:
		return w.cfg.Strings
	case jpNumArr:
		return w.cfg.NumArrays
	case jpStrArr:
		return w.cfg.StrArrays
	case jpObjArr:
		return w.cfg.ObjArrays
	case jpObj:
		return w.cfg.Objects
	}
	return nil
}

func atom(s string) jpExpr { return jpExpr{s, jpPrecAtom} }

// leaf is an expression of the kind without nesting: a path of the data
// or a literal.
func (w jpWriter) leaf(k jpKind) jpExpr {
	if ps := w.typedPaths(k); len(ps) > 0 && w.intn(0, 2) > 0 {
		return atom(w.pick(ps...))
	}
	switch k {
	case jpAny:
		switch w.intn(0, 5) {
		case 0:
			return atom("@")
		case 1:
			return atom(w.literal(jpAny, 1))
		case 2:
			return atom(w.rawString())
		}
		return atom(w.identifier())
	case jpStr:
		if w.intn(0, 1) == 0 {
			return atom(w.rawString())
		}
	case jpBool:
		return atom(w.pick("`true`", "`false`"))
	}
	return atom(w.literal(k, 1))
}

// paren wraps e when its operator binds no tighter than prec.
func paren(e jpExpr, prec int) string {
	if e.prec <= prec {
		return "(" + e.s + ")"
	}
	return e.s
}

func (w jpWriter) call(name string, args ...string) jpExpr {
	return atom(name + "(" + strings.Join(args, ", ") + ")")
}

func (w jpWriter) str(k jpKind, depth int) string { return w.expr(k, depth).s }

// exprRef is an expression reference (&expr) for map, sort_by, max_by
// and min_by: mostly a key of the elements.
func (w jpWriter) exprRef(depth int) string {
	if w.intn(0, 2) > 0 {
		return "&" + w.identifier()
	}
	return "&" + paren(w.expr(jpAny, depth-1), jpPrecNot)
}

// bracket is an index, a slice, a wildcard, a flatten or a filter.
func (w jpWriter) bracket(depth int) string {
	switch w.intn(0, 5) {
	case 0:
		return "[" + w.number() + "]"
	case 1:
		s := "["
		if w.intn(0, 1) == 0 {
			s += w.number()
		}
		s += ":"
		if w.intn(0, 1) == 0 {
			s += w.number()
		}
		if w.intn(0, 2) == 0 {
			s += ":"
			if w.intn(0, 1) == 0 {
				s += w.pick("1", "2", "-1", "3")
			}
		}
		return s + "]"
	case 2:
		return "[*]"
	case 3:
		return "[]"
	default:
		return "[?" + w.str(jpBool, depth-1) + "]"
	}
}

// multiHash is a multi-select hash {key: expr, ...}.
func (w jpWriter) multiHash(depth int) string {
	items := make([]string, w.intn(1, 3))
	for i := range items {
		items[i] = w.identifier() + ": " + w.str(jpAny, depth-1)
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// multiList is a multi-select list [expr, ...] of elements of kind el.
func (w jpWriter) multiList(el jpKind, depth int) string {
	items := make([]string, w.intn(1, 3))
	for i := range items {
		items[i] = w.str(el, depth-1)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// expr draws an expression meant to evaluate to a value of kind k on the
// data (jpAny: any expression of the grammar).
func (w jpWriter) expr(k jpKind, depth int) jpExpr {
	if depth <= 0 || w.intn(0, 3) == 0 {
		return w.leaf(k)
	}
	d := depth - 1
	switch k {
	case jpNum:
		switch w.intn(0, 8) {
		case 0:
			return w.call(w.pick("abs", "ceil", "floor"), w.str(jpNum, d))
		case 1:
			return w.call("length", w.str([]jpKind{jpStr, jpNumArr, jpStrArr, jpObjArr, jpObj}[w.intn(0, 4)], d))
		case 2:
			return w.call(w.pick("sum", "avg", "max", "min"), w.str(jpNumArr, d))
		case 3:
			return w.call("to_number", w.str(w.pick2(jpStr, jpNum), d))
		case 4:
			return atom(paren(w.expr(jpNumArr, d), jpPrecNot) + "[" + w.number() + "]")
		case 5:
			return w.call(w.pick("max_by", "min_by"), w.str(jpObjArr, d), w.exprRef(d))
		case 6:
			return atom(paren(w.expr(jpObj, d), jpPrecNot) + "." + w.identifier())
		default:
			return w.leaf(k)
		}
	case jpStr:
		switch w.intn(0, 7) {
		case 0:
			return w.call("join", w.str(jpStr, d), w.str(jpStrArr, d))
		case 1:
			return w.call(w.pick("to_string", "type"), w.str(jpAny, d))
		case 2:
			return w.call("reverse", w.str(jpStr, d))
		case 3:
			return w.call(w.pick("max", "min"), w.str(jpStrArr, d))
		case 4:
			return atom(paren(w.expr(jpStrArr, d), jpPrecNot) + "[" + w.number() + "]")
		case 5:
			return w.call("not_null", w.str(jpAny, d), w.str(jpStr, d))
		default:
			return w.leaf(k)
		}
	case jpBool:
		switch w.intn(0, 7) {
		case 0, 1:
			kk := []jpKind{jpNum, jpNum, jpStr, jpAny}[w.intn(0, 3)]
			op := w.pick("<", "<=", ">", ">=", "==", "!=")
			if kk != jpNum {
				op = w.pick("==", "!=")
			}
			return jpExpr{paren(w.expr(kk, d), jpPrecCmp) + " " + op + " " + paren(w.expr(kk, d), jpPrecCmp), jpPrecCmp}
		case 2:
			if w.intn(0, 1) == 0 {
				return w.call("contains", w.str(w.pick2(jpStrArr, jpNumArr), d), w.str(jpAny, d))
			}
			return w.call("contains", w.str(jpStr, d), w.str(jpStr, d))
		case 3:
			return w.call(w.pick("starts_with", "ends_with"), w.str(jpStr, d), w.str(jpStr, d))
		case 4:
			return jpExpr{"!" + paren(w.expr(w.pick2(jpBool, jpAny), d), jpPrecNot-1), jpPrecNot}
		case 5:
			if w.intn(0, 1) == 0 {
				return jpExpr{paren(w.expr(jpBool, d), jpPrecAnd-1) + " && " + paren(w.expr(jpBool, d), jpPrecAnd), jpPrecAnd}
			}
			return jpExpr{paren(w.expr(jpBool, d), jpPrecOr-1) + " || " + paren(w.expr(jpBool, d), jpPrecOr), jpPrecOr}
		case 6:
			return atom("(" + w.str(jpBool, d) + ")")
		default:
			return w.leaf(k)
		}
	case jpNumArr, jpStrArr:
		el := jpNum
		if k == jpStrArr {
			el = jpStr
		}
		switch w.intn(0, 7) {
		case 0:
			return w.call(w.pick("sort", "reverse"), w.str(k, d))
		case 1:
			return atom(paren(w.expr(k, d), jpPrecNot) + w.pick("[1:]", "[:2]", "[::-1]", "[::2]", "[-2:]"))
		case 2:
			return atom(w.multiList(el, depth))
		case 3:
			return atom(paren(w.expr(jpObjArr, d), jpPrecNot) + "[*]." + w.identifier())
		case 4:
			if k == jpStrArr {
				return w.call("keys", w.str(jpObj, d))
			}
			return w.call("map", w.exprRef(d), w.str(jpObjArr, d))
		case 5:
			return atom(paren(w.expr(k, d), jpPrecNot) + "[?@ " + w.pick("==", "!=", ">", "<") + " " + paren(w.expr(el, d), jpPrecCmp) + "]")
		default:
			return w.leaf(k)
		}
	case jpObjArr:
		switch w.intn(0, 6) {
		case 0:
			return atom(paren(w.expr(jpObjArr, d), jpPrecNot) + "[?" + w.str(jpBool, d) + "]")
		case 1:
			return w.call("sort_by", w.str(jpObjArr, d), w.exprRef(d))
		case 2:
			return w.call("reverse", w.str(jpObjArr, d))
		case 3:
			return atom(paren(w.expr(jpObjArr, d), jpPrecNot) + "[*]." + w.multiHash(d))
		case 4:
			return w.call("to_array", w.str(jpObj, d))
		case 5:
			return atom(w.multiList(jpObj, depth))
		default:
			return w.leaf(k)
		}
	case jpObj:
		switch w.intn(0, 4) {
		case 0:
			args := make([]string, w.intn(1, 3))
			for i := range args {
				args[i] = w.str(jpObj, d)
			}
			return w.call("merge", args...)
		case 1:
			return atom(w.multiHash(depth))
		case 2:
			return atom(paren(w.expr(jpObjArr, d), jpPrecNot) + "[" + w.number() + "]")
		default:
			return w.leaf(k)
		}
	}
	return w.anyExpr(depth)
}

func (w jpWriter) pick2(a, b jpKind) jpKind {
	if w.intn(0, 1) == 0 {
		return a
	}
	return b
}

// anyExpr draws from the whole grammar: sub-expressions, index
// expressions and projections, wildcards, pipes, or, and, not,
// comparisons, multi-selects, functions, literals.
func (w jpWriter) anyExpr(depth int) jpExpr {
	d := depth - 1
	switch w.intn(0, 13) {
	case 0, 1:
		lhs := paren(w.expr(jpAny, d), jpPrecNot)
		switch w.intn(0, 4) {
		case 0:
			return atom(lhs + ".*")
		case 1:
			return atom(lhs + "." + w.multiHash(d))
		case 2:
			return atom(lhs + "." + w.multiList(jpAny, d))
		}
		return atom(lhs + "." + w.identifier())
	case 2, 3:
		return atom(paren(w.expr(jpAny, d), jpPrecNot) + w.bracket(depth))
	case 4:
		return atom(w.bracket(depth))
	case 5:
		return atom("*." + w.identifier())
	case 6:
		return jpExpr{paren(w.expr(jpAny, d), jpPrecPipe-1) + " | " + paren(w.expr(jpAny, d), jpPrecPipe), jpPrecPipe}
	case 7:
		return jpExpr{paren(w.expr(jpAny, d), jpPrecOr-1) + " || " + paren(w.expr(jpAny, d), jpPrecOr), jpPrecOr}
	case 8:
		return w.expr(jpBool, depth)
	case 9:
		if w.intn(0, 1) == 0 {
			return atom(w.multiHash(depth))
		}
		return atom(w.multiList(jpAny, depth))
	case 10:
		return w.call(w.pick("to_array", "not_null", "values", "keys", "to_string"), w.str(jpAny, d))
	case 11:
		return atom("(" + w.str(jpAny, d) + ")")
	case 12:
		return w.expr([]jpKind{jpNum, jpStr, jpNumArr, jpStrArr, jpObjArr, jpObj}[w.intn(0, 5)], depth)
	default:
		return w.leaf(jpAny)
	}
}

// JMESPath draws JMESPath expressions (the specification at
// jmespath.org, the functions of its built-in library) meant to run on
// the data the config describes: identifiers (mostly of Keys; unquoted,
// or quoted with JSON escapes and any characters), sub-expressions, index
// and slice expressions, list, object and flatten projections, filters,
// multi-select lists and hashes, pipes, or, and, not and comparisons,
// current node, raw strings and JSON literals, and calls of every
// built-in function with arguments mostly of the types it takes
// (expressions of the config's typed lists, literals, calls returning
// that type; expression references for map and the _by functions).
// MistakesPer per mille go through Corrupt.
func JMESPath(cfg JMESPathConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := jpWriter{t: t, cfg: cfg}
		return Corrupt(t, w.expr(jpAny, cfg.MaxDepth).s, cfg.MistakesPer)
	}).Named("jmespath")
}
