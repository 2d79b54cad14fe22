package gens

import (
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// JSConfig tunes JS.
type JSConfig struct {
	MaxDepth int // nesting of statements and of expressions; default 3
	MaxStmts int // statements per block, arguments, elements and properties; default 3
	// Names are the global variables and functions programs use (the
	// host's bindings); empty: a few generic names.
	Names []string
	// ES2015 adds the later syntax: let and const, arrow functions,
	// template literals, classes, spread, default parameters, shorthand
	// and computed properties, for-of, exponentiation. Off, programs are
	// ECMAScript 5.1.
	ES2015      bool
	MistakesPer int // per mille of programs passed through Corrupt; default 0
}

func (c JSConfig) withDefaults() JSConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 3
	}
	if len(c.Names) == 0 {
		c.Names = []string{"a", "b", "o", "f", "arr", "Math", "JSON", "Object", "String", "Array", "undefined", "NaN"}
	}
	return c
}

var (
	jsLocal  = gen.Tokens("x", "y", "i", "n", "s", "k", "v", "_t", "$e")
	jsMember = gen.Tokens("length", "x", "y", "push", "pop", "slice", "call", "apply", "toString", "valueOf", "prototype", "constructor", "keys", "max", "floor", "stringify", "parse", "indexOf", "join", "__proto__")
	jsNumber = gen.OneOfWeighted(
		gen.W(4, gen.Map(gen.IntRange(0, 100), itoa)),
		gen.W(2, gen.Tokens("0", "1", "-1", "0.5", ".5", "1e3", "1E-7", "0x1F", "0XfF", "017", "2147483647", "4294967296", "9007199254740993", "1.7976931348623157e308", "5e-324")),
	)
	jsStrChars = gen.OneOfWeighted(
		gen.W(8, gen.StringFrom("abcxyz 019.,:-_/", 0, 5)),
		gen.W(2, gen.Tokens(`\n`, `\t`, `\\`, `\'`, `\"`, `\x41`, `\u00e9`, `\ud83d\ude00`, `\0`, `\v`, "\\\n", "é")),
	)
	jsRegexp   = gen.Tokens("/a/", "/[a-z]+/g", "/^(\\d+)\\.(\\d*)$/", "/x|y/i", "/a*?b{1,3}/m", "/(?:a)(?=b)(?!c)/", "/[^\\/]/gim", "/\\u0041\\s\\w\\b/")
	jsUnary    = gen.Tokens("!", "-", "+", "~", "typeof ", "void ", "delete ")
	jsBinary   = gen.Tokens("+", "-", "*", "/", "%", "<<", ">>", ">>>", "<", ">", "<=", ">=", "==", "!=", "===", "!==", "&", "|", "^", "&&", "||", "in", "instanceof")
	jsAssignOp = gen.Tokens("=", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^=")
	jsComment  = gen.Tokens("// c", "/* c */", "/* a\n b */", "//")
)

type jsWriter struct {
	t   *gfz.T
	cfg JSConfig
	// context of the statement being drawn: inside a function (return),
	// a loop (break, continue), a switch (break); the labels in scope
	fn, loop, sw bool
	labels       []string
}

// str draws a string literal, single or double quoted.
func (w *jsWriter) str() string {
	q := gen.Tokens(`"`, `'`).Draw(w.t)
	var b strings.Builder
	b.WriteString(q)
	for range gen.IntRange(0, 2).Draw(w.t) {
		c := jsStrChars.Draw(w.t)
		if c == `\'` || c == `\"` || c == `\\` || !strings.Contains(c, q) {
			b.WriteString(c)
		}
	}
	b.WriteString(q)
	return b.String()
}

// name draws an identifier reference: a local name or one of Names.
func (w *jsWriter) name() string {
	if gen.IntRange(0, 1).Draw(w.t) == 0 {
		return jsLocal.Draw(w.t)
	}
	return gen.Tokens(w.cfg.Names...).Draw(w.t)
}

// primary draws a literal, a name, this, or (depth permitting) an array,
// object or function literal.
func (w *jsWriter) primary(depth int) string {
	k := gen.IntRange(0, 11).Draw(w.t)
	if depth <= 0 && k >= 7 {
		k = k % 7
	}
	switch k {
	case 0, 1:
		return jsNumber.Draw(w.t)
	case 2:
		return w.str()
	case 3:
		return gen.Tokens("true", "false", "null", "this").Draw(w.t)
	case 4, 5:
		return w.name()
	case 6:
		if w.cfg.ES2015 && gen.IntRange(0, 2).Draw(w.t) == 0 {
			return w.template(depth)
		}
		return jsRegexp.Draw(w.t)
	case 7:
		items := make([]string, gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t))
		for i := range items {
			switch {
			case gen.IntRange(0, 7).Draw(w.t) == 0:
				items[i] = "" // an elision
			case w.cfg.ES2015 && gen.IntRange(0, 5).Draw(w.t) == 0:
				items[i] = "..." + w.assign(depth-1)
			default:
				items[i] = w.assign(depth - 1)
			}
		}
		return "[" + strings.Join(items, ", ") + gen.Tokens("", "", ",").Draw(w.t) + "]"
	case 8:
		return w.object(depth)
	case 9:
		return "(" + w.expr(depth-1) + ")"
	case 10:
		if w.cfg.ES2015 && gen.IntRange(0, 1).Draw(w.t) == 0 {
			return w.arrow(depth)
		}
		return w.function(depth, gen.IntRange(0, 1).Draw(w.t) == 0)
	default:
		if w.cfg.ES2015 && gen.IntRange(0, 2).Draw(w.t) == 0 {
			return "(" + w.class(depth) + ")"
		}
		return "new " + w.name() + w.args(depth)
	}
}

// template draws a template literal with substitutions.
func (w *jsWriter) template(depth int) string {
	var b strings.Builder
	b.WriteString("`")
	for range gen.IntRange(0, 2).Draw(w.t) {
		if gen.IntRange(0, 1).Draw(w.t) == 0 {
			b.WriteString("${" + w.expr(depth-1) + "}")
		} else {
			b.WriteString(strings.ReplaceAll(jsStrChars.Draw(w.t), "`", ""))
		}
	}
	b.WriteString("`")
	return b.String()
}

// object draws an object literal: identifier, string and number keys,
// getters and setters (and in ES2015 shorthand, computed keys and
// methods).
func (w *jsWriter) object(depth int) string {
	props := make([]string, gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t))
	for i := range props {
		key := gen.OneOf(jsLocal, jsMember, gen.Map(gen.Just(0), func(int) string { return w.str() }), jsNumber).Draw(w.t)
		switch gen.IntRange(0, 7).Draw(w.t) {
		case 0:
			props[i] = "get " + key + "() " + w.body(depth-1)
		case 1:
			props[i] = "set " + key + "(" + jsLocal.Draw(w.t) + ") " + w.body(depth-1)
		case 2:
			if w.cfg.ES2015 {
				switch gen.IntRange(0, 2).Draw(w.t) {
				case 0:
					props[i] = jsLocal.Draw(w.t)
				case 1:
					props[i] = "[" + w.assign(depth-1) + "]: " + w.assign(depth-1)
				default:
					props[i] = key + "(" + w.params() + ") " + w.body(depth-1)
				}
				continue
			}
			fallthrough
		default:
			props[i] = key + ": " + w.assign(depth-1)
		}
	}
	return "{" + strings.Join(props, ", ") + "}"
}

// params draws a parameter list.
func (w *jsWriter) params() string {
	ps := make([]string, gen.IntRange(0, 3).Draw(w.t))
	for i := range ps {
		ps[i] = jsLocal.Draw(w.t)
		if w.cfg.ES2015 && gen.IntRange(0, 4).Draw(w.t) == 0 {
			ps[i] += " = " + w.primary(0)
		}
	}
	if w.cfg.ES2015 && gen.IntRange(0, 5).Draw(w.t) == 0 {
		ps = append(ps, "..."+jsLocal.Draw(w.t))
	}
	return strings.Join(ps, ", ")
}

// body draws a function body: a block in a new function context.
func (w *jsWriter) body(depth int) string {
	saved := *w
	w.fn, w.loop, w.sw, w.labels = true, false, false, nil
	var b strings.Builder
	b.WriteString("{")
	if gen.IntRange(0, 9).Draw(w.t) == 0 {
		b.WriteString(` "use strict";`)
	}
	for range gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t) {
		b.WriteString(" " + w.stmt(depth))
	}
	b.WriteString(" }")
	w.fn, w.loop, w.sw, w.labels = saved.fn, saved.loop, saved.sw, saved.labels
	return b.String()
}

// function draws a function expression, named or not.
func (w *jsWriter) function(depth int, named bool) string {
	s := "function"
	if named {
		s += " " + gen.Tokens("f", "g", "h", "F").Draw(w.t)
	}
	return s + "(" + w.params() + ") " + w.body(depth-1)
}

// arrow draws an arrow function (ES2015).
func (w *jsWriter) arrow(depth int) string {
	p := "(" + w.params() + ")"
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		p = jsLocal.Draw(w.t)
	}
	if gen.IntRange(0, 1).Draw(w.t) == 0 {
		return p + " => " + w.body(depth-1)
	}
	b := w.assign(depth - 1)
	if strings.HasPrefix(b, "{") {
		b = "(" + b + ")"
	}
	return p + " => " + b
}

// class draws a class (ES2015).
func (w *jsWriter) class(depth int) string {
	s := "class " + gen.Tokens("A", "B", "C").Draw(w.t)
	if gen.IntRange(0, 2).Draw(w.t) == 0 {
		s += " extends " + w.name()
	}
	s += " {"
	for range gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t) {
		s += " " + gen.Tokens("", "static ", "get ", "set ").Draw(w.t) + gen.Tokens("constructor", "m", "x", "toString").Draw(w.t) + "(" + w.params() + ") " + w.body(depth-1)
	}
	return s + " }"
}

// args draws a parenthesized argument list.
func (w *jsWriter) args(depth int) string {
	as := make([]string, gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t))
	for i := range as {
		as[i] = w.assign(depth - 1)
		if w.cfg.ES2015 && gen.IntRange(0, 7).Draw(w.t) == 0 {
			as[i] = "..." + as[i]
		}
	}
	return "(" + strings.Join(as, ", ") + ")"
}

// lhs draws a left-hand side expression: a primary with member
// accesses, calls and new.
func (w *jsWriter) lhs(depth int) string {
	s := w.primary(depth)
	if depth <= 0 {
		return s
	}
	if s[0] == '.' || s[0] >= '0' && s[0] <= '9' {
		s = "(" + s + ")" // not "1.x"
	}
	for range gen.IntRange(0, 2).Draw(w.t) {
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0:
			s += "." + jsMember.Draw(w.t)
		case 1:
			s += "[" + w.expr(depth-1) + "]"
		default:
			s += w.args(depth)
		}
	}
	if strings.HasPrefix(s, "function") || strings.HasPrefix(s, "{") || strings.HasPrefix(s, "class") {
		s = "(" + s + ")" // not a declaration or a block
	}
	return s
}

// target draws what can be assigned to: a name or a property.
func (w *jsWriter) target(depth int) string {
	if depth <= 0 || gen.IntRange(0, 1).Draw(w.t) == 0 {
		return w.name()
	}
	s := w.lhs(depth - 1)
	if s[0] == '.' || s[0] >= '0' && s[0] <= '9' {
		s = "(" + s + ")"
	}
	if gen.IntRange(0, 1).Draw(w.t) == 0 {
		return s + "." + jsMember.Draw(w.t)
	}
	return s + "[" + w.expr(depth-1) + "]"
}

// unary draws a unary, prefix or postfix expression.
func (w *jsWriter) unary(depth int) string {
	switch gen.IntRange(0, 6).Draw(w.t) {
	case 0:
		op := jsUnary.Draw(w.t)
		return op + w.unaryOperand(depth)
	case 1:
		return w.target(depth) + gen.Tokens("++", "--").Draw(w.t)
	case 2:
		return gen.Tokens("++", "--").Draw(w.t) + w.target(depth)
	default:
		return w.lhs(depth)
	}
}

func (w *jsWriter) unaryOperand(depth int) string {
	if depth <= 0 {
		return w.primary(0)
	}
	s := w.unary(depth - 1)
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

// binary draws binary expressions over unary operands.
func (w *jsWriter) binary(depth int) string {
	if depth <= 0 || gen.IntRange(0, 2).Draw(w.t) > 0 {
		return w.unary(depth)
	}
	op := jsBinary.Draw(w.t)
	if w.cfg.ES2015 && gen.IntRange(0, 15).Draw(w.t) == 0 {
		op = "**"
	}
	l, r := w.binary(depth-1), w.binary(depth-1)
	if op == "**" && !strings.HasPrefix(l, "(") {
		l = "(" + l + ")"
	}
	return l + " " + op + " " + r
}

// assign draws an assignment expression: a conditional or an
// assignment to a left-hand side.
func (w *jsWriter) assign(depth int) string {
	switch k := gen.IntRange(0, 5).Draw(w.t); {
	case depth > 0 && k == 0:
		return w.target(depth-1) + " " + jsAssignOp.Draw(w.t) + " " + w.assign(depth-1)
	case depth > 0 && k == 1:
		return w.binary(depth-1) + " ? " + w.assign(depth-1) + " : " + w.assign(depth-1)
	default:
		return w.binary(depth)
	}
}

// expr draws an expression, a comma expression one time in twelve.
func (w *jsWriter) expr(depth int) string {
	s := w.assign(depth)
	if depth > 0 && gen.IntRange(0, 11).Draw(w.t) == 0 {
		s += ", " + w.assign(depth-1)
	}
	return s
}

// exprStmt draws an expression statement, which cannot start with
// "{", "function" or "class".
func (w *jsWriter) exprStmt(depth int) string {
	s := w.expr(depth)
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "function") || strings.HasPrefix(s, "class") || strings.HasPrefix(s, "let [") {
		s = "(" + s + ")"
	}
	return s
}

// varDecl draws a variable declaration without its semicolon.
func (w *jsWriter) varDecl(depth int) string {
	kw := "var"
	if w.cfg.ES2015 {
		kw = gen.Tokens("var", "let", "const").Draw(w.t)
	}
	ds := make([]string, gen.IntRange(1, 2).Draw(w.t))
	for i := range ds {
		ds[i] = jsLocal.Draw(w.t)
		if kw == "const" || gen.IntRange(0, 2).Draw(w.t) > 0 {
			ds[i] += " = " + w.assign(depth)
		}
	}
	return kw + " " + strings.Join(ds, ", ")
}

// block draws a block of statements.
func (w *jsWriter) block(depth int) string {
	var b strings.Builder
	b.WriteString("{")
	for range gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t) {
		b.WriteString(" " + w.stmt(depth))
	}
	b.WriteString(" }")
	return b.String()
}

// sub draws the body of a compound statement: a block (two times in
// three) or a single statement.
func (w *jsWriter) sub(depth int) string {
	if gen.IntRange(0, 2).Draw(w.t) > 0 {
		return w.block(depth)
	}
	return w.stmt(depth)
}

// loopBody draws the body of a loop, where break and continue are
// allowed.
func (w *jsWriter) loopBody(depth int) string {
	saved := w.loop
	w.loop = true
	s := w.sub(depth)
	w.loop = saved
	return s
}

// stmt draws a statement of any kind the context allows: expression
// statements, declarations, if, the loops, switch, try, throw, labels,
// blocks, functions, and where allowed return, break and continue.
func (w *jsWriter) stmt(depth int) string {
	const semi = ";"
	if depth <= 0 {
		if gen.IntRange(0, 1).Draw(w.t) == 0 {
			return w.varDecl(0) + ";"
		}
		return w.exprStmt(0) + ";"
	}
	d := depth - 1
	switch gen.IntRange(0, 20).Draw(w.t) {
	case 0, 1, 2, 3:
		return w.exprStmt(depth) + semi
	case 4, 5:
		return w.varDecl(d) + semi
	case 6:
		s := "if (" + w.expr(d) + ") " + w.sub(d)
		if gen.IntRange(0, 1).Draw(w.t) == 0 {
			if !strings.HasSuffix(s, "}") && !strings.HasSuffix(s, ";") {
				s += ";"
			}
			s += " else " + w.sub(d)
		}
		return s
	case 7:
		init := ""
		switch gen.IntRange(0, 3).Draw(w.t) {
		case 0:
			init = w.varDecl(d)
		case 1:
			init = w.expr(d)
		}
		test, update := "", ""
		if gen.IntRange(0, 3).Draw(w.t) > 0 {
			test = w.expr(d)
		}
		if gen.IntRange(0, 3).Draw(w.t) > 0 {
			update = w.expr(d)
		}
		return "for (" + init + "; " + test + "; " + update + ") " + w.loopBody(d)
	case 8:
		kw := "in"
		if w.cfg.ES2015 && gen.IntRange(0, 1).Draw(w.t) == 0 {
			kw = "of"
		}
		v := jsLocal.Draw(w.t)
		if gen.IntRange(0, 1).Draw(w.t) == 0 {
			v = "var " + v
		}
		return "for (" + v + " " + kw + " " + w.expr(d) + ") " + w.loopBody(d)
	case 9:
		return "while (" + w.expr(d) + ") " + w.loopBody(d)
	case 10:
		return "do " + w.loopBody(d) + " while (" + w.expr(d) + ")" + semi
	case 11:
		var b strings.Builder
		b.WriteString("switch (" + w.expr(d) + ") {")
		saved := w.sw
		w.sw = true
		def := false
		for range gen.IntRange(0, w.cfg.MaxStmts).Draw(w.t) {
			if !def && gen.IntRange(0, 3).Draw(w.t) == 0 {
				b.WriteString(" default:")
				def = true
			} else {
				b.WriteString(" case " + w.expr(d) + ":")
			}
			for range gen.IntRange(0, 2).Draw(w.t) {
				b.WriteString(" " + w.stmt(d))
			}
		}
		w.sw = saved
		b.WriteString(" }")
		return b.String()
	case 12:
		s := "try " + w.block(d)
		k := gen.IntRange(0, 2).Draw(w.t)
		if k < 2 {
			s += " catch (" + gen.Tokens("e", "err").Draw(w.t) + ") " + w.block(d)
		}
		if k > 0 {
			s += " finally " + w.block(d)
		}
		return s
	case 13:
		return "throw " + w.expr(d) + semi
	case 14:
		l := gen.Tokens("L", "outer", "lbl").Draw(w.t)
		w.labels = append(w.labels, l)
		s := l + ": " + w.stmt(d)
		w.labels = w.labels[:len(w.labels)-1]
		return s
	case 15:
		return w.block(d)
	case 16:
		return "function " + gen.Tokens("f", "g", "h", "F").Draw(w.t) + "(" + w.params() + ") " + w.body(d)
	case 17:
		if w.fn {
			if gen.IntRange(0, 2).Draw(w.t) == 0 {
				return "return" + semi
			}
			return "return " + w.expr(d) + semi
		}
		return w.exprStmt(depth) + semi
	case 18:
		if w.loop || w.sw {
			kw := "break"
			if w.loop && gen.IntRange(0, 1).Draw(w.t) == 0 {
				kw = "continue"
			}
			if len(w.labels) > 0 && gen.IntRange(0, 2).Draw(w.t) == 0 {
				kw += " " + gen.Tokens(w.labels...).Draw(w.t)
			}
			return kw + semi
		}
		return ";"
	case 19:
		if w.cfg.ES2015 && gen.IntRange(0, 1).Draw(w.t) == 0 {
			return w.class(d)
		}
		return gen.Tokens(";", "debugger;", "with (o) "+w.sub(d)).Draw(w.t)
	default:
		return jsComment.Draw(w.t) + "\n" + w.stmt(d)
	}
}

// JS generates JavaScript programs (scripts): statements of every kind
// (expression statements, var declarations, if/else, for, for-in,
// while, do-while, switch with default, try/catch/finally, throw,
// labeled statements, blocks, function declarations, with, debugger,
// and return, break and continue, with labels, where the context
// allows them) over expressions of every kind (number, string, regular
// expression, boolean, null literals, names of Names and locals, this,
// array literals with elisions, object literals with getters and
// setters, function expressions, new, member access, calls, unary,
// postfix, binary, assignment, conditional and comma operators), with
// "use strict" directives and comments; ES2015 adds the later syntax.
// MistakesPer per mille of programs go through Corrupt.
func JS(cfg JSConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &jsWriter{t: t, cfg: cfg}
		var b strings.Builder
		if gen.IntRange(0, 9).Draw(t) == 0 {
			b.WriteString("'use strict';\n")
		}
		for range gen.IntRange(1, cfg.MaxStmts+1).Draw(t) {
			b.WriteString(w.stmt(cfg.MaxDepth) + "\n")
		}
		return Corrupt(t, b.String(), cfg.MistakesPer)
	})
}
