package gosrc

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz/param"
)

// expr generates an expression of type typ with at most depth levels of
// nesting. It reports whether the expression is a constant (the type
// checker evaluates constant expressions and rejects some of them).
func (g *generator) expr(typ ty, depth int) (string, bool) {
	if depth <= 0 {
		return g.leaf(typ)
	}
	switch g.types[typ].kind {
	case kInt:
		return g.intExpr(depth)
	case kFloat:
		return g.floatExpr(depth)
	case kString:
		return g.stringExpr(depth)
	case kBool:
		return g.boolExpr(depth)
	case kSlice:
		return g.sliceExpr(typ, depth)
	default:
		return g.structExpr(typ, depth)
	}
}

// leaf is a variable of the type or a literal.
func (g *generator) leaf(typ ty) (string, bool) {
	if g.choice(2) == 0 {
		if v, ok := g.pickVar(typ, false); ok {
			return v.name, v.konst
		}
	}
	return g.literal(typ)
}

func (g *generator) literal(typ ty) (string, bool) {
	info := g.types[typ]
	switch info.kind {
	case kInt:
		return strconv.Itoa(int(g.s.Uint(1, param.Value) % 101)), true
	case kFloat:
		v := g.s.Uint(2, param.Value)
		return strconv.Itoa(int(v%1000)) + "." + strconv.Itoa(int(v/1000%10)), true
	case kString:
		return strconv.Quote(g.word()), true
	case kBool:
		return []string{"false", "true"}[g.s.Uint(1, param.Value)&1], true
	case kSlice:
		return info.name + "{}", false
	default:
		return info.name + "{}", false
	}
}

// word is a short string: a dictionary token or letters.
func (g *generator) word() string {
	if len(g.words) > 0 && g.choice(4) == 0 {
		return g.words[g.s.Uintn(uint64(len(g.words)), param.Value)]
	}
	n := int(g.s.Range(0, 6, param.Structure))
	b := make([]byte, n)
	for i := range b {
		b[i] = "abcdefgh xyz_0"[g.s.Uintn(14, param.Value)]
	}
	return string(b)
}

func paren(s string) string { return "(" + s + ")" }

// operand is a divisor or index: a non-constant expression or a positive
// literal. It reports whether it is a constant (a literal).
func (g *generator) operand(typ ty, depth int) (string, bool) {
	e, konst := g.expr(typ, depth)
	if !konst {
		return e, false
	}
	if typ == tFloat {
		return strconv.Itoa(int(g.s.Uint(1, param.Value)%9)+1) + ".5", true
	}
	return strconv.Itoa(int(g.s.Uint(1, param.Value)%9) + 1), true
}

// nonConstOperand is operand without the constness.
func (g *generator) nonConstOperand(typ ty, depth int) string {
	e, _ := g.operand(typ, depth)
	return e
}

func (g *generator) intExpr(depth int) (string, bool) {
	switch g.choice(10) {
	case 0, 1:
		return g.leaf(tInt)
	case 2, 3:
		a, ka := g.expr(tInt, depth-1)
		b, kb := g.expr(tInt, depth-1)
		op := []string{"+", "-", "*"}[g.choice(3)]
		if op == "*" && ka && kb {
			op = "+" // constant products could overflow
		}
		return paren(a + " " + op + " " + b), ka && kb
	case 4:
		a, ka := g.expr(tInt, depth-1)
		b, kb := g.operand(tInt, depth-1)
		return paren(a + " " + []string{"/", "%"}[g.choice(2)] + " " + b), ka && kb
	case 5:
		x := g.expr1(tString, tIntSlice, tStringSlice)
		return "len(" + x.text + ")", x.konst
	case 6:
		if s, ok := g.fieldOf(tInt); ok {
			return s, false
		}
		return g.leaf(tInt)
	case 7:
		if s, ok := g.callOf(tInt, depth-1); ok {
			return s, false
		}
		a, k := g.expr(tInt, depth-1)
		return "-" + paren(a), k
	case 8:
		if v, ok := g.pickVar(tIntSlice, false); ok && g.choice(2) == 0 {
			return v.name + "[" + g.nonConstOperand(tInt, depth-1) + "]", false
		}
		f, _ := g.expr(tFloat, depth-1)
		x, k := g.nonConstFloat(f)
		return "int(" + x + ")", k
	default:
		a, ka := g.expr(tInt, depth-1)
		return "-" + paren(a), ka
	}
}

// nonConstFloat returns f plus a float variable, so that int() of it is
// not a constant conversion (which rejects fractions), or, without float
// variables, float64 of an int (integral even when constant). It reports
// whether the result is constant.
func (g *generator) nonConstFloat(f string) (string, bool) {
	if v, ok := g.pickVar(tFloat, false); ok && !v.konst {
		return paren(f + " + " + v.name), false
	}
	if v, ok := g.pickVar(tInt, false); ok {
		return "float64(" + v.name + ")", v.konst
	}
	return "float64(" + strconv.Itoa(int(g.s.Uint(1, param.Value)%101)) + ")", true
}

func (g *generator) floatExpr(depth int) (string, bool) {
	switch g.choice(6) {
	case 0, 1:
		return g.leaf(tFloat)
	case 2:
		a, ka := g.expr(tFloat, depth-1)
		b, kb := g.expr(tFloat, depth-1)
		op := []string{"+", "-", "*"}[g.choice(3)]
		if op == "*" && ka && kb {
			op = "-"
		}
		return paren(a + " " + op + " " + b), ka && kb
	case 3:
		a, ka := g.expr(tFloat, depth-1)
		b, kb := g.operand(tFloat, depth-1)
		return paren(a + " / " + b), ka && kb
	case 4:
		a, k := g.expr(tInt, depth-1)
		return "float64(" + a + ")", k
	default:
		if s, ok := g.callOf(tFloat, depth-1); ok {
			return s, false
		}
		if s, ok := g.fieldOf(tFloat); ok {
			return s, false
		}
		return g.leaf(tFloat)
	}
}

func (g *generator) stringExpr(depth int) (string, bool) {
	switch g.choice(6) {
	case 0, 1:
		return g.leaf(tString)
	case 2:
		a, ka := g.expr(tString, depth-1)
		b, kb := g.expr(tString, depth-1)
		return paren(a + " + " + b), ka && kb
	case 3:
		if v, ok := g.pickVar(tStringSlice, false); ok {
			return v.name + "[" + g.nonConstOperand(tInt, depth-1) + "]", false
		}
		return g.literal(tString)
	case 4:
		if s, ok := g.fieldOf(tString); ok {
			return s, false
		}
		return g.leaf(tString)
	default:
		if s, ok := g.callOf(tString, depth-1); ok {
			return s, false
		}
		return g.leaf(tString)
	}
}

func (g *generator) boolExpr(depth int) (string, bool) {
	switch g.choice(7) {
	case 0:
		return g.leaf(tBool)
	case 1, 2:
		typ := []ty{tInt, tFloat, tString}[g.choice(3)]
		a, ka := g.expr(typ, depth-1)
		b, kb := g.expr(typ, depth-1)
		op := []string{"<", "<=", ">", ">=", "==", "!="}[g.choice(6)]
		return paren(a + " " + op + " " + b), ka && kb
	case 3:
		a, ka := g.expr(tBool, depth-1)
		b, kb := g.expr(tBool, depth-1)
		return paren(a + " " + []string{"&&", "||"}[g.choice(2)] + " " + b), ka && kb
	case 4:
		a, k := g.expr(tBool, depth-1)
		return "!" + paren(a), k
	case 5:
		if s, ok := g.fieldOf(tBool); ok {
			return s, false
		}
		return g.leaf(tBool)
	default:
		if s, ok := g.callOf(tBool, depth-1); ok {
			return s, false
		}
		return g.leaf(tBool)
	}
}

func (g *generator) sliceExpr(typ ty, depth int) (string, bool) {
	elem := g.types[typ].elem
	switch g.choice(5) {
	case 0, 1:
		return g.leaf(typ)
	case 2:
		n := g.count(0, 3)
		els := make([]string, n)
		for i := range els {
			els[i], _ = g.expr(elem, depth-1)
		}
		return g.types[typ].name + "{" + strings.Join(els, ", ") + "}", false
	case 3:
		s, _ := g.expr(typ, depth-1)
		e, _ := g.expr(elem, depth-1)
		return "append(" + s + ", " + e + ")", false
	default:
		if s, ok := g.callOf(typ, depth-1); ok {
			return s, false
		}
		if s, ok := g.fieldOf(typ); ok {
			return s, false
		}
		return g.leaf(typ)
	}
}

func (g *generator) structExpr(typ ty, depth int) (string, bool) {
	switch g.choice(4) {
	case 0:
		return g.leaf(typ)
	case 1, 2:
		info := g.types[typ]
		var els []string
		for _, f := range info.fields {
			if g.choice(3) == 0 {
				continue
			}
			e, _ := g.expr(f.typ, depth-1)
			els = append(els, f.name+": "+e)
		}
		return info.name + "{" + strings.Join(els, ", ") + "}", false
	default:
		if s, ok := g.callOf(typ, depth-1); ok {
			return s, false
		}
		return g.leaf(typ)
	}
}

// fieldOf selects a field of type typ of a struct variable in scope.
func (g *generator) fieldOf(typ ty) (string, bool) {
	type cand struct{ v, f string }
	var cands []cand
	for _, v := range g.vars {
		info := g.types[v.typ]
		if info.kind != kStruct {
			continue
		}
		for _, f := range info.fields {
			if f.typ == typ {
				cands = append(cands, cand{v.name, f.name})
			}
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	c := cands[g.choice(len(cands))]
	return c.v + "." + c.f, true
}

// callOf calls a declared function returning typ.
func (g *generator) callOf(typ ty, depth int) (string, bool) {
	var cands []function
	for _, f := range g.funcs {
		if f.result == typ {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	return g.call(cands[g.choice(len(cands))], depth)
}

// constInt is a small constant integer expression.
func (g *generator) constInt(depth int) string {
	if depth == 0 || g.choice(2) == 0 {
		return strconv.Itoa(int(g.s.Uint(1, param.Value) % 101))
	}
	return paren(g.constInt(depth-1) + []string{" + ", " - "}[g.choice(2)] + g.constInt(depth-1))
}
