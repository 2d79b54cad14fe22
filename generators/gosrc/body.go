package gosrc

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz/param"
)

// varDecl declares a variable at package level (depth 0) or in a block.
func (g *generator) varDecl(depth int, pkg bool) {
	name := g.id("v")
	typ := g.anyType()
	tn := g.types[typ].name
	switch {
	case pkg && g.choice(4) == 0:
		g.line(depth, "var "+name+" "+tn)
	case pkg:
		e, _ := g.expr(typ, g.cfg.MaxExpr)
		g.line(depth, "var "+name+" "+tn+" = "+e)
	default:
		e, _ := g.expr(typ, g.cfg.MaxExpr)
		if g.choice(2) == 0 {
			g.line(depth, "var "+name+" "+tn+" = "+e)
		} else {
			g.line(depth, name+" := "+e)
		}
		g.line(depth, "_ = "+name)
	}
	g.vars = append(g.vars, variable{name: name, typ: typ})
}

func (g *generator) signature() ([]ty, ty, string) {
	n := g.count(0, g.cfg.MaxParams)
	params := make([]ty, n)
	var ps []string
	for i := range params {
		params[i] = g.anyType()
		ps = append(ps, "a"+strconv.Itoa(i)+" "+g.types[params[i]].name)
	}
	result := ty(-1)
	res := ""
	if g.choice(4) != 0 {
		result = g.anyType()
		res = " " + g.types[result].name
	}
	return params, result, "(" + strings.Join(ps, ", ") + ")" + res
}

func (g *generator) funcDecl() {
	name := g.id("f")
	params, result, sig := g.signature()
	g.line(0, "func "+name+sig+" {")
	g.body(params, result, ty(-1))
	g.line(0, "}")
	g.funcs = append(g.funcs, function{name: name, params: params, result: result, recv: -1})
}

func (g *generator) methodDecl() {
	recv := nBasic + ty(g.choice(len(g.types)-int(nBasic)))
	name := g.id("m")
	params, result, sig := g.signature()
	g.line(0, "func (r "+g.types[recv].name+") "+name+sig+" {")
	g.body(params, result, recv)
	g.line(0, "}")
	g.funcs = append(g.funcs, function{name: name, params: params, result: result, recv: recv})
}

func (g *generator) body(params []ty, result ty, recv ty) {
	mark := len(g.vars)
	if recv >= 0 {
		g.vars = append(g.vars, variable{name: "r", typ: recv})
	}
	for i, p := range params {
		g.vars = append(g.vars, variable{name: "a" + strconv.Itoa(i), typ: p})
	}
	g.block(1, g.cfg.MaxBlock, result)
	if result >= 0 {
		e, _ := g.expr(result, g.cfg.MaxExpr)
		g.line(1, "return "+e)
	}
	g.vars = g.vars[:mark]
}

// block writes statements at indentation depth; nest bounds nested blocks.
func (g *generator) block(depth, nest int, result ty) {
	mark := len(g.vars)
	n := g.count(0, g.cfg.MaxStmts)
	for range n {
		g.stmt(depth, nest, result)
	}
	g.vars = g.vars[:mark]
}

func (g *generator) stmt(depth, nest int, result ty) {
	k := g.choice(12)
	if nest == 0 && k >= 6 {
		k %= 6
	}
	switch k {
	case 0, 1:
		g.varDecl(depth, false)
	case 2:
		g.assign(depth)
	case 3:
		g.callStmt(depth)
	case 4:
		g.appendStmt(depth)
	case 5:
		if g.loops > 0 && g.choice(2) == 0 {
			g.line(depth, []string{"break", "continue"}[g.choice(2)])
			return
		}
		g.incDec(depth)
	case 6, 7:
		c, _ := g.expr(tBool, g.cfg.MaxExpr)
		g.line(depth, "if "+c+" {")
		g.block(depth+1, nest-1, result)
		if g.choice(2) == 0 {
			g.line(depth, "} else {")
			g.block(depth+1, nest-1, result)
		}
		g.line(depth, "}")
	case 8:
		i := g.id("i")
		lim, _ := g.expr(tInt, g.cfg.MaxExpr-1)
		g.line(depth, "for "+i+" := 0; "+i+" < "+lim+"; "+i+"++ {")
		g.vars = append(g.vars, variable{name: i, typ: tInt})
		g.loopBody(depth, nest, result)
	case 9:
		sl := g.expr1(tIntSlice, tStringSlice)
		e := g.id("e")
		g.line(depth, "for _, "+e+" := range "+sl.text+" {")
		g.vars = append(g.vars, variable{name: e, typ: g.types[sl.typ].elem})
		g.line(depth+1, "_ = "+e)
		g.loopBody(depth, nest, result)
	case 10:
		x, _ := g.expr(tInt, g.cfg.MaxExpr)
		g.line(depth, "switch "+x+" {")
		cases := g.count(0, 3)
		for i := range cases {
			g.line(depth, "case "+strconv.Itoa(i*7)+":")
			g.block(depth+1, nest-1, result)
		}
		if g.choice(2) == 0 {
			g.line(depth, "default:")
			g.block(depth+1, nest-1, result)
		}
		g.line(depth, "}")
	default:
		if result < 0 {
			g.line(depth, "return")
			return
		}
		c, _ := g.expr(tBool, g.cfg.MaxExpr)
		e, _ := g.expr(result, g.cfg.MaxExpr)
		g.line(depth, "if "+c+" {")
		g.line(depth+1, "return "+e)
		g.line(depth, "}")
	}
}

func (g *generator) loopBody(depth, nest int, result ty) {
	mark := len(g.vars) - 1 // the loop variable
	g.loops++
	g.block(depth+1, nest-1, result)
	g.loops--
	g.vars = g.vars[:mark]
	g.line(depth, "}")
}

// typed is an expression with its type.
type typed struct {
	text  string
	typ   ty
	konst bool
}

// expr1 generates an expression of one of the given types.
func (g *generator) expr1(types ...ty) typed {
	typ := types[g.choice(len(types))]
	e, k := g.expr(typ, g.cfg.MaxExpr-1)
	return typed{e, typ, k}
}

func (g *generator) assign(depth int) {
	v, ok := g.pickVar(-1, true)
	if !ok {
		g.varDecl(depth, false)
		return
	}
	target := v.name
	typ := v.typ
	if g.types[typ].kind == kStruct && g.choice(2) == 0 {
		f := g.types[typ].fields[g.choice(len(g.types[typ].fields))]
		target += "." + f.name
		typ = f.typ
	}
	e, _ := g.expr(typ, g.cfg.MaxExpr)
	op := " = "
	switch g.types[typ].kind {
	case kInt, kFloat, kString:
		if g.choice(3) == 0 {
			op = " += "
		}
	}
	g.line(depth, target+op+e)
}

func (g *generator) incDec(depth int) {
	v, ok := g.pickVar(tInt, true)
	if !ok {
		g.callStmt(depth)
		return
	}
	g.line(depth, v.name+[]string{"++", "--"}[g.choice(2)])
}

func (g *generator) appendStmt(depth int) {
	st := []ty{tIntSlice, tStringSlice}[g.choice(2)]
	v, ok := g.pickVar(st, true)
	if !ok {
		g.assign(depth)
		return
	}
	e, _ := g.expr(g.types[v.typ].elem, g.cfg.MaxExpr)
	g.line(depth, v.name+" = append("+v.name+", "+e+")")
}

func (g *generator) callStmt(depth int) {
	if len(g.funcs) == 0 {
		g.line(depth, "_ = "+g.expr1(tInt, tString).text)
		return
	}
	f := g.funcs[g.choice(len(g.funcs))]
	call, ok := g.call(f, g.cfg.MaxExpr-1)
	if !ok {
		g.line(depth, "_ = "+g.expr1(tBool).text)
		return
	}
	g.line(depth, call)
}

// call writes a call of f; for a method it needs a receiver of the type in
// scope.
func (g *generator) call(f function, depth int) (string, bool) {
	var head string
	if f.recv >= 0 {
		r, ok := g.pickVar(f.recv, false)
		if !ok {
			return "", false
		}
		head = r.name + "." + f.name
	} else {
		head = f.name
	}
	args := make([]string, len(f.params))
	for i, p := range f.params {
		args[i], _ = g.expr(p, depth)
	}
	return head + "(" + strings.Join(args, ", ") + ")", true
}

// pickVar picks a variable of type typ in scope (any type when typ < 0);
// assignable excludes constants. With Config.Mistakes per mille it picks
// any variable regardless of typ.
func (g *generator) pickVar(typ ty, assignable bool) (variable, bool) {
	if g.cfg.Mistakes > 0 && g.s.Uintn(1000, param.Structure) < uint64(g.cfg.Mistakes) {
		typ = -1
	}
	var cands []int
	for i, v := range g.vars {
		if (typ < 0 || v.typ == typ) && !(assignable && v.konst) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return variable{}, false
	}
	return g.vars[cands[g.choice(len(cands))]], true
}
