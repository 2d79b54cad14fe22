package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// XPathConfig tunes XPath.
type XPathConfig struct {
	MaxDepth int // nesting of expressions; default 3
	// Elements and Attributes are the names of the document the
	// expressions run on; empty: a few generic names.
	Elements, Attributes []string
	// Strings are values of the document, drawn as string literals
	// beside drawn text; may be empty.
	Strings []string
	// MistakesPer is the per mille of expressions passed through
	// Corrupt; default 0.
	MistakesPer int
}

func (c XPathConfig) withDefaults() XPathConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if len(c.Elements) == 0 {
		c.Elements = []string{"a", "b", "item"}
	}
	if len(c.Attributes) == 0 {
		c.Attributes = []string{"id", "name"}
	}
	return c
}

// The types of XPath 1.0 values (REC section 1: node-set, boolean,
// number, string) an expression is drawn for.
type xpKind int

const (
	xpAny xpKind = iota
	xpNodes
	xpNum
	xpStr
	xpBool
)

// The precedence of a drawn expression's outermost operator, lowest
// first, as the REC's grammar (section 3.4, 3.5) orders them: an operand
// that binds no tighter than its operator is parenthesized.
const (
	xpPrecOr = iota + 1
	xpPrecAnd
	xpPrecEq
	xpPrecRel
	xpPrecAdd
	xpPrecMul
	xpPrecUnary
	xpPrecUnion
	xpPrecPath
)

type xpExpr struct {
	s    string
	prec int
}

// xpathChars draws the characters of string literals: mostly ASCII of
// the document's values, some punctuation and whitespace, a few
// non-ASCII letters, and now and then any rune.
var xpathChars = gen.OneOfWeighted(
	gen.W(12, gen.StringFrom("abcefgoxyzABCFGX0123459 ._-/:", 1, 1)),
	gen.W(2, gen.Tokens("\t", "\n", "  ", "*", "(", "[", "\\", "$", "|")),
	gen.W(2, gen.Tokens("é", "ü", "ß", "水", "€", "😀")),
	gen.W(1, gen.Map(gen.Rune(), func(r rune) string { return string(r) })),
)

// The axes of the REC (section 2.2).
var xpAxes = []string{
	"ancestor", "ancestor-or-self", "attribute", "child", "descendant", "descendant-or-self",
	"following", "following-sibling", "namespace", "parent", "preceding", "preceding-sibling", "self",
}

type xpWriter struct {
	t   *gfz.T
	cfg XPathConfig
}

func (w xpWriter) intn(lo, hi int) int { return gen.IntRange(lo, hi).Draw(w.t) }

func (w xpWriter) pick(xs ...string) string { return gen.Tokens(xs...).Draw(w.t) }

func xpAtom(s string) xpExpr { return xpExpr{s, xpPrecPath} }

// xpParen wraps e when its operator binds no tighter than prec.
func xpParen(e xpExpr, prec int) string {
	if e.prec <= prec {
		return "(" + e.s + ")"
	}
	return e.s
}

func (w xpWriter) call(name string, args ...string) xpExpr {
	return xpAtom(name + "(" + strings.Join(args, ", ") + ")")
}

// number is a Number token (REC [30]: digits, digits with a fraction, a
// fraction alone); small counts and positions mostly.
func (w xpWriter) number() string {
	switch w.intn(0, 5) {
	case 0:
		return strconv.Itoa(w.intn(0, 3)) + "." + strconv.Itoa(w.intn(0, 99))
	case 1:
		return "." + strconv.Itoa(w.intn(0, 9))
	case 2:
		return w.pick("10", "12", "42", "100", "1999", "2005", "0")
	default:
		return strconv.Itoa(w.intn(0, 6))
	}
}

// literal is a Literal token (REC [29]): text in double or single
// quotes, which it cannot contain; a value of the document half of the
// time.
func (w xpWriter) literal() string {
	var s string
	if len(w.cfg.Strings) > 0 && w.intn(0, 1) == 0 {
		s = w.pick(w.cfg.Strings...)
	} else {
		var b strings.Builder
		for range w.intn(0, 8) {
			b.WriteString(xpathChars.Draw(w.t))
		}
		s = b.String()
	}
	if w.intn(0, 1) == 0 {
		return `"` + strings.ReplaceAll(s, `"`, "") + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", "") + "'"
}

// nodeTest is a name test or a node type test (REC [7], [37], [38]).
func (w xpWriter) nodeTest(attr bool) string {
	switch w.intn(0, 9) {
	case 0:
		return "*"
	case 1:
		return w.pick("node()", "text()", "comment()", "processing-instruction()", "processing-instruction('x')")
	case 2:
		return w.pick("x", "ns:*", "ns:"+w.pick(w.cfg.Elements...))
	}
	if attr {
		return w.pick(w.cfg.Attributes...)
	}
	return w.pick(w.cfg.Elements...)
}

// predicate is [expr]: a position, or a boolean or any expression.
func (w xpWriter) predicate(depth int) string {
	switch w.intn(0, 4) {
	case 0:
		return "[" + w.pick("1", "2", "3", "last()", "last() - 1", "position() > 1", "position() mod 2 = 0") + "]"
	case 1:
		return "[" + w.expr(xpNum, depth).s + "]"
	case 2:
		return "[" + w.expr(xpAny, depth).s + "]"
	default:
		return "[" + w.expr(xpBool, depth).s + "]"
	}
}

// step is a location step (REC [4], [12], [13]): an abbreviated step, or
// an axis (by name, '@' or the default child axis), a node test and
// predicates.
func (w xpWriter) step(depth int) string {
	switch w.intn(0, 11) {
	case 0:
		return w.pick(".", "..")
	case 1, 2:
		s := "@" + w.nodeTest(true)
		if w.intn(0, 5) == 0 {
			s += w.predicate(depth - 1)
		}
		return s
	case 3, 4:
		axis := w.pick(xpAxes...)
		s := axis + "::" + w.nodeTest(axis == "attribute")
		for range w.intn(0, 1) {
			s += w.predicate(depth - 1)
		}
		return s
	}
	s := w.nodeTest(false)
	switch w.intn(0, 5) {
	case 0, 1:
		s += w.predicate(depth - 1)
	case 2:
		s += w.predicate(depth-1) + w.predicate(depth-1)
	}
	return s
}

// relPath is a relative location path: steps joined by '/' or '//'.
func (w xpWriter) relPath(depth int) string {
	s := w.step(depth)
	for range w.intn(0, 2) {
		s += w.pick("/", "/", "//") + w.step(depth)
	}
	return s
}

// path is a location path, absolute or relative, or a filter expression
// (a parenthesized node set with predicates, then more steps).
func (w xpWriter) path(depth int) xpExpr {
	switch w.intn(0, 9) {
	case 0, 1, 2:
		return xpAtom("//" + w.relPath(depth))
	case 3, 4:
		return xpAtom("/" + w.relPath(depth))
	case 5:
		return xpAtom("/")
	case 6:
		if depth > 0 {
			s := "(" + w.expr(xpNodes, depth-1).s + ")"
			if w.intn(0, 1) == 0 {
				s += w.predicate(depth - 1)
			}
			if w.intn(0, 1) == 0 {
				s += w.pick("/", "//") + w.relPath(depth-1)
			}
			return xpAtom(s)
		}
	case 7:
		if w.intn(0, 5) == 0 {
			// A variable reference: the library binds none.
			return xpAtom("$" + w.pick("x", "var", w.pick(w.cfg.Elements...)))
		}
	}
	return xpAtom(w.relPath(depth))
}

// opt is the argument list of a function whose argument is optional
// (the context node when left out).
func (w xpWriter) opt(k xpKind, depth int) []string {
	if w.intn(0, 2) == 0 {
		return nil
	}
	return []string{w.expr(k, depth).s}
}

// expr draws an expression meant to evaluate to a value of kind k
// (xpAny: any expression of the grammar).
func (w xpWriter) expr(k xpKind, depth int) xpExpr {
	if k == xpAny {
		k = []xpKind{xpNodes, xpNodes, xpNum, xpStr, xpBool}[w.intn(0, 4)]
	}
	d := depth - 1
	if depth <= 0 {
		switch k {
		case xpNum:
			return xpAtom(w.number())
		case xpStr:
			return xpAtom(w.literal())
		case xpBool:
			return w.call(w.pick("true", "false"))
		default:
			return xpAtom("//" + w.nodeTest(false))
		}
	}
	switch k {
	case xpNodes:
		if w.intn(0, 4) == 0 {
			return xpExpr{xpParen(w.expr(xpNodes, d), xpPrecUnion-1) + " | " + xpParen(w.path(d), xpPrecUnion), xpPrecUnion}
		}
		return w.path(d)
	case xpNum:
		switch w.intn(0, 11) {
		case 0, 1:
			return xpAtom(w.number())
		case 2:
			return w.call(w.pick("count", "sum"), w.expr(xpNodes, d).s)
		case 3:
			return w.call("string-length", w.opt(xpStr, d)...)
		case 4:
			return w.call("number", w.opt(xpAny, d)...)
		case 5:
			return w.call(w.pick("floor", "ceiling", "round"), w.expr(xpNum, d).s)
		case 6:
			return w.call(w.pick("position", "last"))
		case 7, 8:
			op := w.pick("+", "-", "*", "div", "mod")
			prec := xpPrecAdd
			if op != "+" && op != "-" {
				prec = xpPrecMul
			}
			return xpExpr{xpParen(w.expr(xpNum, d), prec-1) + " " + op + " " + xpParen(w.expr(xpNum, d), prec), prec}
		case 9:
			return xpExpr{"-" + xpParen(w.expr(xpNum, d), xpPrecUnary-1), xpPrecUnary}
		case 10:
			return xpAtom("(" + w.expr(xpNum, d).s + ")")
		default:
			return w.path(d)
		}
	case xpStr:
		switch w.intn(0, 12) {
		case 0, 1:
			return xpAtom(w.literal())
		case 2:
			return w.call("string", w.opt(xpAny, d)...)
		case 3:
			args := []string{w.expr(xpStr, d).s, w.expr(w.strOrNum(), d).s}
			for range w.intn(0, 2) {
				args = append(args, w.expr(w.strOrNum(), d).s)
			}
			return w.call("concat", args...)
		case 4:
			args := []string{w.expr(xpStr, d).s, w.expr(xpNum, d).s}
			if w.intn(0, 1) == 0 {
				args = append(args, w.expr(xpNum, d).s)
			}
			return w.call("substring", args...)
		case 5:
			return w.call(w.pick("substring-before", "substring-after"), w.expr(xpStr, d).s, w.expr(xpStr, d).s)
		case 6:
			return w.call("normalize-space", w.opt(xpStr, d)...)
		case 7:
			return w.call("translate", w.expr(xpStr, d).s, w.expr(xpStr, d).s, w.expr(xpStr, d).s)
		case 8:
			return w.call(w.pick("name", "local-name", "namespace-uri"), w.opt(xpNodes, d)...)
		case 9:
			// The library's functions beyond XPath 1.0 (its README).
			switch w.intn(0, 2) {
			case 0:
				return w.call(w.pick("lower-case", "upper-case"), w.expr(xpStr, d).s)
			case 1:
				return w.call("replace", w.expr(xpStr, d).s, w.pick("'o'", "'[a-e]+'", "'^.'", "'(\\w)(\\w)'", "'\\s+'"), w.pick("'X'", "''", "'$2$1'", "' '"))
			default:
				return w.call("string-join", w.expr(xpNodes, d).s, w.pick("', '", "'/'", "''"))
			}
		default:
			return w.path(d)
		}
	default: // xpBool
		switch w.intn(0, 10) {
		case 0:
			return w.call(w.pick("true", "false"))
		case 1:
			return w.call("not", w.expr(xpBool, d).s)
		case 2:
			return w.call("boolean", w.expr(xpAny, d).s)
		case 3:
			return w.call(w.pick("contains", "starts-with", "ends-with"), w.expr(xpStr, d).s, w.expr(xpStr, d).s)
		case 4:
			return w.call("matches", w.expr(xpStr, d).s, w.pick("'^F'", "'[0-9]+'", "'o.'", "'(?i)go'", "'e$'"))
		case 5, 6:
			kk := []xpKind{xpNum, xpNum, xpStr, xpNodes, xpAny}[w.intn(0, 4)]
			op, prec := w.pick("=", "!="), xpPrecEq
			if kk == xpNum && w.intn(0, 1) == 0 {
				op, prec = w.pick("<", "<=", ">", ">="), xpPrecRel
			}
			return xpExpr{xpParen(w.expr(kk, d), prec) + " " + op + " " + xpParen(w.expr(w.pick2(kk, xpAny), d), prec), prec}
		case 7:
			if w.intn(0, 1) == 0 {
				return xpExpr{xpParen(w.expr(xpBool, d), xpPrecAnd-1) + " and " + xpParen(w.expr(xpBool, d), xpPrecAnd), xpPrecAnd}
			}
			return xpExpr{xpParen(w.expr(xpBool, d), xpPrecOr-1) + " or " + xpParen(w.expr(xpBool, d), xpPrecOr), xpPrecOr}
		case 8:
			return xpAtom("(" + w.expr(xpBool, d).s + ")")
		default:
			return w.path(d)
		}
	}
}

func (w xpWriter) strOrNum() xpKind {
	if w.intn(0, 3) == 0 {
		return xpNum
	}
	return xpStr
}

// pick2 is a, or b a quarter of the time.
func (w xpWriter) pick2(a, b xpKind) xpKind {
	if w.intn(0, 3) == 0 {
		return b
	}
	return a
}

// XPath generates XPath 1.0 expressions (W3C REC 1999-11-16) over a
// document's names, drawn by the type of value they evaluate to, so that
// functions get arguments of the types they take: location paths
// (absolute, relative, '//', every axis, name and node type tests,
// abbreviated steps, nested predicates), filter expressions and unions,
// every operator at its precedence, number and string literals, the core
// function library with its optional arguments sometimes left out, and
// the library's documented extensions (lower-case, upper-case, ends-with,
// matches, replace, string-join); now and then a variable reference. A
// node set is drawn half of the time at the top, as queries are written.
func XPath(cfg XPathConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := xpWriter{t: t, cfg: cfg}
		k := xpAny
		if w.intn(0, 1) == 0 {
			k = xpNodes
		}
		return Corrupt(t, w.expr(k, cfg.MaxDepth).s, cfg.MistakesPer)
	}).Named("xpath")
}
