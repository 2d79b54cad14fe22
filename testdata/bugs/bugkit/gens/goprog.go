package gens

import (
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// GoProgramConfig tunes GoProgram.
type GoProgramConfig struct {
	MaxDepth    int // nesting of blocks and of expressions; default 3
	MaxStmts    int // statements per block; default 4
	MaxDecls    int // top-level declarations before main; default 7
	MistakesPer int // per mille of programs passed through Corrupt; default 0
}

func (c GoProgramConfig) withDefaults() GoProgramConfig {
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 4
	}
	if c.MaxDecls <= 0 {
		c.MaxDecls = 7
	}
	return c
}

// GoProgram returns a generator of Go programs (package main, the
// language of the Go specification up to Go 1.21: no generics, no range
// over integers or functions) as a host that runs Go scripts in an
// interpreter receives them, in the subset that needs no concurrency:
//
//   - package-level declarations in an order that needs no forward
//     reference: struct types (fields of the basic types, of earlier
//     named types, slices and arrays, sometimes an embedded struct),
//     defined types over a basic type, a named type, a slice or a map,
//     interfaces made of the value methods of a type, constants
//     (untyped or typed, iota enumerations), variables with initializers,
//     functions, and methods with value or pointer receivers on the
//     defined types;
//   - function bodies of every simple and compound statement: short and
//     long variable declarations, type declarations (a struct type, a
//     basic type, a type in scope, a slice or a map of one), assignments
//     (to variables, fields, map and array elements; tuple assignments and
//     swaps) and compound assignments, ++/--, calls of functions, methods,
//     method values and closures, println, if/else with an optional init
//     statement, the
//     three-clause for loop, for-range over slices, arrays, maps and
//     strings (blank and omitted variables), expression and tagless
//     switches with fallthrough, type switches and comma-ok type
//     assertions on interface values, comma-ok map reads, delete,
//     closures (assigned, called at once, deferred), break, continue and
//     return;
//   - expressions drawn for a wanted type from the variables, constants,
//     fields (promoted ones included), calls, map and array elements in
//     scope, literals and composite literals (keyed or positional), the
//     operators of each type, conversions, address-of and dereference,
//     new, make, append, len, and a few functions of fmt, strconv,
//     strings and math, imported when used.
//
// The generator tracks the names in scope and their types, so most
// programs type-check, and it avoids run-time panics (slices are indexed
// only by the index of a range loop over them, divisors are non-zero
// constants, pointers, maps, functions and interfaces are never nil;
// function and interface variables keep their first value, so no call
// can come back to its caller) and long runs (loops count to at most 4, a function calls only functions
// declared before it, and calls are skipped when their estimated work
// would pass a budget). The program ends by printing a few values.
func GoProgram(cfg GoProgramConfig) gen.Generator[string] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) string {
		w := &goWriter{t: t, cfg: cfg}
		return Corrupt(t, w.program(), cfg.MistakesPer)
	})
}

type goKind int

const (
	goInt goKind = iota
	goInt64
	goUint8
	goFloat
	goString
	goBool
	goSlice
	goArray
	goMap
	goStruct
	goPtr
	goFunc
	goIface
)

// goType is a type: a defined type when name is set (the other fields
// then describe its underlying type), else a type literal.
type goType struct {
	name    string
	kind    goKind
	elem    *goType // slice, array and map element, pointer base
	key     *goType // map key
	n       int     // array length
	fields  []goField
	params  []*goType // function parameters
	result  *goType   // function result, nil for none
	methods []*goMethod
}

type goField struct {
	name     string
	typ      *goType
	embedded bool
}

type goMethod struct {
	name string
	sig  *goType // a function type
	ptr  bool    // pointer receiver
	cost int
}

var (
	goTInt    = &goType{kind: goInt}
	goTInt64  = &goType{kind: goInt64}
	goTUint8  = &goType{kind: goUint8}
	goTFloat  = &goType{kind: goFloat}
	goTString = &goType{kind: goString}
	goTBool   = &goType{kind: goBool}
	goTAny    = &goType{kind: goIface}
	goBasics  = []*goType{goTInt, goTInt64, goTUint8, goTFloat, goTString, goTBool}
)

func (t *goType) String() string {
	if t.name != "" {
		return t.name
	}
	switch t.kind {
	case goInt:
		return "int"
	case goInt64:
		return "int64"
	case goUint8:
		return "uint8"
	case goFloat:
		return "float64"
	case goString:
		return "string"
	case goBool:
		return "bool"
	case goSlice:
		return "[]" + t.elem.String()
	case goArray:
		return "[" + strconv.Itoa(t.n) + "]" + t.elem.String()
	case goMap:
		return "map[" + t.key.String() + "]" + t.elem.String()
	case goPtr:
		return "*" + t.elem.String()
	case goFunc:
		ps := make([]string, len(t.params))
		for i, p := range t.params {
			ps[i] = p.String()
		}
		s := "func(" + strings.Join(ps, ", ") + ")"
		if t.result != nil {
			s += " " + t.result.String()
		}
		return s
	case goStruct:
		fs := make([]string, len(t.fields))
		for i, f := range t.fields {
			fs[i] = f.name + " " + f.typ.String()
			if f.embedded {
				fs[i] = f.typ.String()
			}
		}
		return "struct{ " + strings.Join(fs, "; ") + " }"
	default:
		if len(t.methods) == 0 {
			return "any"
		}
		ms := make([]string, len(t.methods))
		for i, m := range t.methods {
			ms[i] = m.name + strings.TrimPrefix(m.sig.String(), "func")
		}
		return "interface{ " + strings.Join(ms, "; ") + " }"
	}
}

func goSame(a, b *goType) bool { return a == b || a.String() == b.String() }

func (t *goType) isInteger() bool { return t.kind == goInt || t.kind == goInt64 || t.kind == goUint8 }
func (t *goType) isNumeric() bool { return t.isInteger() || t.kind == goFloat }
func (t *goType) isBasic() bool   { return t.kind <= goBool }
func (t *goType) ordered() bool   { return t.isNumeric() || t.kind == goString }

// defaultType reports whether an untyped constant of t's kind gets type t
// in a short variable declaration.
func (t *goType) defaultType() bool {
	return t.name == "" && (t.kind == goInt || t.kind == goFloat || t.kind == goString || t.kind == goBool)
}

// defined returns a new defined type named name over t: t's underlying
// type and, for an interface, its methods; no other methods.
func (t *goType) defined(name string) *goType {
	d := *t
	d.name = name
	if t.kind != goIface {
		d.methods = nil
	}
	return &d
}

// goVar is a name in scope: a variable, constant, parameter or function.
type goVar struct {
	name  string
	typ   *goType
	konst bool
	fn    bool // a declared function: not assignable
	fixed bool // a loop's counter or a ranged slice: not assigned in the loop
	used  bool
	cost  int // a function's (or a closure variable's) estimated work
}

type goScope struct {
	vars  []*goVar
	types []*goType
}

// goRange is an enclosing "for i := range s" over a slice variable: s[i]
// is in range in its body.
type goRange struct {
	slice, index string
	elem         *goType
}

// goFnCtx is the function being drawn.
type goFnCtx struct {
	result *goType // nil: no result
	loops  int     // enclosing for loops (continue)
	breaks int     // enclosing loops and switches (break)
	mult   int     // product of the enclosing loops' counts
	cost   int     // estimated work so far
	main   bool
}

type goWriter struct {
	t       *gfz.T
	cfg     GoProgramConfig
	scopes  []*goScope
	named   []*goType // package-level defined types, for methods and interfaces
	ranges  []goRange
	fn      *goFnCtx
	ids     int
	imports [4]bool // fmt, math, strconv, strings
}

var goImportNames = [4]string{"fmt", "math", "strconv", "strings"}

const (
	goImpFmt = iota
	goImpMath
	goImpStrconv
	goImpStrings
)

// goBudget bounds a function's estimated work (statements run, counting
// loops and calls); goFuncValueCost bounds the work of a function passed
// around as a value, whose calls are not tracked.
const (
	goBudget        = 3000
	goFuncValueCost = 60
)

var (
	goTypeWords   = []string{"Point", "Item", "Node", "Config", "Pair", "Box", "Entry", "Rec", "Span", "Vec"}
	goFieldWords  = []string{"X", "Y", "Name", "Count", "ID", "Val", "Items", "Tags", "Ok", "Size", "Label", "Score", "Min", "Max"}
	goMethodWords = []string{"Get", "Set", "Sum", "Len", "Norm", "Describe", "Scale", "Add", "Reset", "Key", "Valid", "Update"}
	goWords       = []string{"", "a", "go", "hello", "x y", "Zed", "42", "α", "tab\t", "line\n", `q"`, "abc", "k1", "k2"}
	goFloats      = []string{"0.5", "1.5", "2.25", "3.0", "0.1", "10.0", "1e3", "2.5e-1"}
)

var goPicks = func() []gen.Generator[int] {
	gs := make([]gen.Generator[int], 32)
	for n := 1; n < len(gs); n++ {
		gs[n] = gen.IntRange(0, n-1)
	}
	return gs
}()

func (w *goWriter) pick(n int) int {
	if n < len(goPicks) {
		return goPicks[n].Draw(w.t)
	}
	return gen.IntRange(0, n-1).Draw(w.t)
}

func (w *goWriter) chance(n int) bool        { return w.pick(n) == 0 }
func (w *goWriter) token(ws []string) string { return ws[w.pick(len(ws))] }

func (w *goWriter) id(prefix string) string {
	w.ids++
	return prefix + strconv.Itoa(w.ids)
}

func (w *goWriter) push()            { w.scopes = append(w.scopes, &goScope{}) }
func (w *goWriter) top() *goScope    { return w.scopes[len(w.scopes)-1] }
func (w *goWriter) declare(v *goVar) { w.top().vars = append(w.top().vars, v) }

// pop closes the innermost scope and returns "_ = v" for its variables
// that were never read (Go rejects unused local variables).
func (w *goWriter) pop() []string {
	s := w.top()
	w.scopes = w.scopes[:len(w.scopes)-1]
	if len(w.scopes) == 0 {
		return nil
	}
	var out []string
	for _, v := range s.vars {
		if !v.used && !v.konst && !v.fn {
			out = append(out, "_ = "+v.name)
		}
	}
	return out
}

func (w *goWriter) use(imp int) { w.imports[imp] = true }

// vars returns the variables in scope that satisfy ok, innermost last.
func (w *goWriter) vars(ok func(*goVar) bool) []*goVar {
	var out []*goVar
	for _, s := range w.scopes {
		for _, v := range s.vars {
			if ok(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

func (w *goWriter) ref(v *goVar) string {
	v.used = true
	return v.name
}

// types returns the named types in scope (package-level and local).
func (w *goWriter) types() []*goType {
	var out []*goType
	for _, s := range w.scopes {
		out = append(out, s.types...)
	}
	return out
}

func goIndent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			out[i] = l
		} else {
			out[i] = "\t" + l
		}
	}
	return out
}

// ---- types ----

// valueType draws a type for a variable, a parameter or a result:
// basic, a named type in scope, a slice, array or map, a pointer to a
// named struct, a small function type, or any.
func (w *goWriter) valueType(depth int) *goType {
	named := w.types()
	switch k := w.pick(12); {
	case k < 4:
		return goBasics[w.pick(len(goBasics))]
	case k < 7 && len(named) > 0:
		return named[w.pick(len(named))]
	case k == 7 && depth > 0:
		return &goType{kind: goSlice, elem: w.valueType(depth - 1)}
	case k == 8 && depth > 0:
		return &goType{kind: goMap, key: w.keyType(), elem: w.valueType(depth - 1)}
	case k == 9 && depth > 0:
		return &goType{kind: goArray, n: 1 + w.pick(4), elem: w.fieldType(depth - 1)}
	case k == 10:
		if s := w.structTypes(); len(s) > 0 {
			return &goType{kind: goPtr, elem: s[w.pick(len(s))]}
		}
		return goTAny
	case k == 11 && depth > 0:
		return w.funcType(depth - 1)
	default:
		return goBasics[w.pick(len(goBasics))]
	}
}

func (w *goWriter) keyType() *goType {
	var cands []*goType
	cands = append(cands, goTInt, goTString, goTString)
	for _, t := range w.types() {
		if t.kind == goInt || t.kind == goString {
			cands = append(cands, t)
		}
	}
	return cands[w.pick(len(cands))]
}

// fieldType draws the type of a struct field or an array element: values
// whose zero value is safe to use (no maps, pointers, functions or
// interfaces).
func (w *goWriter) fieldType(depth int) *goType {
	var named []*goType
	for _, t := range w.types() {
		if goZeroSafe(t) {
			named = append(named, t)
		}
	}
	switch k := w.pick(8); {
	case k < 4 || (k < 6 && len(named) == 0):
		return goBasics[w.pick(len(goBasics))]
	case k < 6:
		return named[w.pick(len(named))]
	case k == 6 && depth > 0:
		return &goType{kind: goSlice, elem: w.fieldType(depth - 1)}
	default:
		return &goType{kind: goArray, n: 1 + w.pick(3), elem: goBasics[w.pick(len(goBasics))]}
	}
}

func goZeroSafe(t *goType) bool {
	switch t.kind {
	case goMap, goPtr, goFunc, goIface:
		return false
	case goSlice, goArray:
		return goZeroSafe(t.elem)
	case goStruct:
		for _, f := range t.fields {
			if !goZeroSafe(f.typ) {
				return false
			}
		}
	}
	return true
}

func (w *goWriter) funcType(depth int) *goType {
	ft := &goType{kind: goFunc}
	for range w.pick(3) {
		ft.params = append(ft.params, w.simpleType())
	}
	if !w.chance(4) {
		ft.result = w.simpleType()
	}
	return ft
}

// simpleType is a basic type or a named basic type in scope.
func (w *goWriter) simpleType() *goType {
	cands := append([]*goType(nil), goBasics...)
	for _, t := range w.types() {
		if t.isBasic() {
			cands = append(cands, t)
		}
	}
	return cands[w.pick(len(cands))]
}

func (w *goWriter) structTypes() []*goType {
	var out []*goType
	for _, t := range w.types() {
		if t.kind == goStruct {
			out = append(out, t)
		}
	}
	return out
}

// structLit draws the fields of a struct type, one line each.
func (w *goWriter) structLit() (*goType, []string) {
	st := &goType{kind: goStruct}
	var lines []string
	used := map[string]bool{}
	if s := w.structTypes(); len(s) > 0 && w.chance(4) {
		e := s[w.pick(len(s))]
		st.fields = append(st.fields, goField{name: e.name, typ: e, embedded: true})
		used[e.name] = true
		lines = append(lines, e.name)
	}
	for range 1 + w.pick(4) {
		name := w.token(goFieldWords)
		if used[name] {
			continue
		}
		used[name] = true
		ft := w.fieldType(1)
		st.fields = append(st.fields, goField{name: name, typ: ft})
		lines = append(lines, name+" "+ft.String())
	}
	return st, lines
}

// typeSpec draws the type of a type declaration "type name T" and returns
// the defined type and the declaration's lines.
func (w *goWriter) typeSpec(name string) (*goType, []string) {
	named := w.types()
	switch k := w.pick(8); {
	case k < 3:
		st, fields := w.structLit()
		lines := []string{"type " + name + " struct {"}
		lines = append(lines, goIndent(fields)...)
		return st.defined(name), append(lines, "}")
	case k < 5 && len(named) > 0:
		u := named[w.pick(len(named))]
		return u.defined(name), []string{"type " + name + " " + u.String()}
	case k == 5:
		u := &goType{kind: goSlice, elem: w.valueType(0)}
		return u.defined(name), []string{"type " + name + " " + u.String()}
	case k == 6:
		u := &goType{kind: goMap, key: w.keyType(), elem: w.valueType(0)}
		return u.defined(name), []string{"type " + name + " " + u.String()}
	default:
		u := goBasics[w.pick(len(goBasics))]
		return u.defined(name), []string{"type " + name + " " + u.String()}
	}
}

// ---- fields and methods ----

// goSel is a field selector path of a struct type and its type.
type goSel struct {
	path string
	typ  *goType
}

// selectors returns the selectors of a struct type: its fields, the
// fields promoted from embedded structs (when not ambiguous), and the
// fields of struct-typed fields, down to depth levels.
func selectors(t *goType, depth int) []goSel {
	if t.kind != goStruct || depth <= 0 {
		return nil
	}
	var out []goSel
	direct := map[string]bool{}
	for _, f := range t.fields {
		direct[f.name] = true
	}
	promoted := map[string]int{}
	for _, f := range t.fields {
		if f.embedded {
			for _, g := range f.typ.fields {
				promoted[g.name]++
			}
		}
	}
	for _, f := range t.fields {
		out = append(out, goSel{"." + f.name, f.typ})
		for _, s := range selectors(f.typ, depth-1) {
			out = append(out, goSel{"." + f.name + s.path, s.typ})
		}
		if f.embedded {
			for _, g := range f.typ.fields {
				if !direct[g.name] && promoted[g.name] == 1 {
					out = append(out, goSel{"." + g.name, g.typ})
				}
			}
		}
	}
	return out
}

// methodSet returns the methods callable on a value of t (pointer
// methods when addressable), its own and those promoted from embedded
// structs.
func methodSet(t *goType, addressable bool) []*goMethod {
	base := t
	if t.kind == goPtr {
		base, addressable = t.elem, true
	}
	var out []*goMethod
	names := map[string]bool{}
	for _, m := range base.methods {
		if base.kind == goIface || !m.ptr || addressable {
			out = append(out, m)
		}
		names[m.name] = true
	}
	if base.kind == goStruct {
		for _, f := range base.fields {
			if !f.embedded {
				continue
			}
			for _, m := range f.typ.methods {
				if !names[m.name] && (!m.ptr || addressable) {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// implements reports whether a value of t can be assigned to the
// interface it.
func implements(t, it *goType) bool {
	if t.kind == goIface {
		return goSame(t, it) || len(it.methods) == 0
	}
	ms := methodSet(t, false)
	for _, im := range it.methods {
		ok := false
		for _, m := range ms {
			if m.name == im.name && goSame(m.sig, im.sig) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// ---- expressions ----

type goExpr struct {
	s     string
	konst bool
}

func (w *goWriter) expr(t *goType, d int) goExpr {
	if d <= 0 || w.chance(4) {
		return w.leaf(t, d)
	}
	// Drawn from what is in scope first: fields, elements, calls.
	switch w.pick(6) {
	case 0:
		if s, ok := w.fieldOf(t); ok {
			return goExpr{s: s}
		}
	case 1:
		if s, ok := w.elemOf(t, d); ok {
			return goExpr{s: s}
		}
	case 2:
		if s, ok := w.callOf(t, d); ok {
			return goExpr{s: s}
		}
	}
	switch t.kind {
	case goInt, goInt64, goUint8, goFloat:
		return w.numExpr(t, d)
	case goString:
		return w.stringExpr(t, d)
	case goBool:
		return w.boolExpr(t, d)
	case goSlice:
		return goExpr{s: w.sliceExpr(t, d)}
	case goStruct:
		if w.chance(3) {
			if p := w.vars(func(v *goVar) bool { return v.typ.kind == goPtr && goSame(v.typ.elem, t) }); len(p) > 0 {
				return goExpr{s: "*" + w.ref(p[w.pick(len(p))])}
			}
		}
		return goExpr{s: w.compositeLit(t, d)}
	case goPtr:
		return goExpr{s: w.ptrExpr(t, d)}
	case goFunc:
		return goExpr{s: w.funcValue(t, d)}
	case goIface:
		return goExpr{s: w.ifaceValue(t, d)}
	default:
		return goExpr{s: w.compositeLit(t, d)}
	}
}

// leaf is a variable or constant of type t, or a literal.
func (w *goWriter) leaf(t *goType, d int) goExpr {
	if !w.chance(3) {
		vs := w.vars(func(v *goVar) bool { return !v.fn && goSame(v.typ, t) })
		if len(vs) > 0 {
			v := vs[w.pick(len(vs))]
			return goExpr{s: w.ref(v), konst: v.konst}
		}
	}
	return w.literal(t, d)
}

func (w *goWriter) literal(t *goType, d int) goExpr {
	switch t.kind {
	case goInt, goInt64:
		return goExpr{s: strconv.Itoa(w.pick(101)), konst: true}
	case goUint8:
		return goExpr{s: strconv.Itoa(w.pick(10)), konst: true}
	case goFloat:
		return goExpr{s: w.token(goFloats), konst: true}
	case goString:
		return goExpr{s: strconv.Quote(w.token(goWords)), konst: true}
	case goBool:
		return goExpr{s: []string{"true", "false"}[w.pick(2)], konst: true}
	case goPtr:
		return goExpr{s: w.ptrExpr(t, 0)}
	case goFunc:
		return goExpr{s: w.funcLit(t, 0)}
	case goIface:
		return goExpr{s: w.ifaceValue(t, 0)}
	default:
		return goExpr{s: w.compositeLit(t, min(d, 1))}
	}
}

// nonConst is an expression of t that is not a constant (a conversion or a
// shift of a constant may overflow or truncate).
func (w *goWriter) nonConst(t *goType, d int) (string, bool) {
	e := w.expr(t, d)
	return e.s, !e.konst
}

func (w *goWriter) numExpr(t *goType, d int) goExpr {
	switch w.pick(8) {
	case 0, 1, 2:
		a, b := w.expr(t, d-1), w.expr(t, d-1)
		ops := []string{"+", "-", "*"}
		if t.isInteger() {
			ops = append(ops, "&", "|", "^")
		}
		op := ops[w.pick(len(ops))]
		switch {
		case a.konst && b.konst && t.kind == goUint8:
			return a // a constant sum may overflow
		case a.konst && b.konst && op == "*":
			op = "+" // a constant product may overflow
		}
		return goExpr{s: "(" + a.s + " " + op + " " + b.s + ")", konst: a.konst && b.konst}
	case 3:
		a := w.expr(t, d-1)
		if t.kind == goFloat {
			return goExpr{s: "(" + a.s + " / " + w.token([]string{"2", "4.0", "0.5", "3"}) + ")", konst: a.konst}
		}
		op := []string{"/", "%"}[w.pick(2)]
		return goExpr{s: "(" + a.s + " " + op + " " + strconv.Itoa(1+w.pick(9)) + ")", konst: a.konst}
	case 4:
		if t.kind != goUint8 {
			a := w.expr(t, d-1)
			return goExpr{s: "-(" + a.s + ")", konst: a.konst}
		}
	case 5:
		// a conversion from another numeric type
		from := []*goType{goTInt, goTInt64, goTUint8, goTFloat}[w.pick(4)]
		if s, ok := w.nonConst(from, d-1); ok {
			return goExpr{s: t.String() + "(" + s + ")"}
		}
	case 6:
		if t.isInteger() {
			if s, ok := w.nonConst(t, d-1); ok {
				return goExpr{s: "(" + s + " " + []string{"<<", ">>"}[w.pick(2)] + " " + strconv.Itoa(1+w.pick(3)) + ")"}
			}
		}
	case 7:
		if t.isInteger() {
			var e string
			konst := false
			switch w.pick(4) {
			case 0:
				x := w.expr(goTString, d-1)
				e, konst = "len("+x.s+")", x.konst
			case 1:
				w.use(goImpStrings)
				e = "strings.Index(" + w.expr(goTString, d-1).s + ", " + w.expr(goTString, d-1).s + ")"
			default:
				lt := []*goType{{kind: goSlice, elem: w.valueType(0)}, {kind: goMap, key: goTString, elem: goTInt}}[w.pick(2)]
				e = "len(" + w.expr(lt, d-1).s + ")"
			}
			if t.kind == goInt && t.name == "" {
				return goExpr{s: e, konst: konst}
			}
			return goExpr{s: t.String() + "(" + e + ")", konst: konst}
		}
		if t.kind == goFloat {
			w.use(goImpMath)
			f := []string{"math.Floor", "math.Abs", "math.Sqrt", "math.Max"}[w.pick(4)]
			if f == "math.Max" {
				return goExpr{s: t.String() + "(" + f + "(" + w.expr(goTFloat, d-1).s + ", " + w.expr(goTFloat, d-1).s + "))"}
			}
			return goExpr{s: t.String() + "(" + f + "(" + w.expr(goTFloat, d-1).s + "))"}
		}
	}
	return w.leaf(t, d)
}

func (w *goWriter) stringExpr(t *goType, d int) goExpr {
	conv := func(s string) goExpr {
		if t.name == "" {
			return goExpr{s: s}
		}
		return goExpr{s: t.String() + "(" + s + ")"}
	}
	switch w.pick(7) {
	case 0, 1:
		a, b := w.expr(t, d-1), w.expr(t, d-1)
		return goExpr{s: "(" + a.s + " + " + b.s + ")", konst: a.konst && b.konst}
	case 2:
		w.use(goImpStrconv)
		return conv("strconv.Itoa(" + w.expr(goTInt, d-1).s + ")")
	case 3:
		w.use(goImpFmt)
		n := 1 + w.pick(3)
		args := make([]string, n)
		for i := range args {
			args[i] = w.expr(w.valueType(0), d-1).s
		}
		if w.chance(2) {
			return conv("fmt.Sprint(" + strings.Join(args, ", ") + ")")
		}
		verbs := make([]string, n)
		for i := range verbs {
			verbs[i] = "%v"
		}
		return conv("fmt.Sprintf(" + strconv.Quote(strings.Join(verbs, "-")) + ", " + strings.Join(args, ", ") + ")")
	case 4:
		w.use(goImpStrings)
		s := w.expr(goTString, d-1).s
		switch w.pick(5) {
		case 0:
			return conv("strings.ToUpper(" + s + ")")
		case 1:
			return conv("strings.TrimSpace(" + s + ")")
		case 2:
			return conv("strings.Repeat(" + s + ", " + strconv.Itoa(w.pick(4)) + ")")
		case 3:
			return conv("strings.ReplaceAll(" + s + ", " + w.expr(goTString, d-1).s + ", " + w.expr(goTString, d-1).s + ")")
		default:
			return conv("strings.Join(" + w.expr(&goType{kind: goSlice, elem: goTString}, d-1).s + ", " + s + ")")
		}
	case 5:
		if t.name != "" {
			if s, ok := w.nonConst(goTString, d-1); ok {
				return goExpr{s: t.String() + "(" + s + ")"}
			}
		}
	}
	return w.leaf(t, d)
}

func (w *goWriter) boolExpr(t *goType, d int) goExpr {
	conv := func(e goExpr) goExpr {
		if t.name == "" {
			return e
		}
		return goExpr{s: t.String() + "(" + e.s + ")", konst: e.konst}
	}
	switch w.pick(6) {
	case 0, 1:
		var ct *goType
		if w.chance(3) {
			ct = w.simpleType()
		} else {
			ct = []*goType{goTInt, goTString, goTFloat, goTInt64, goTUint8}[w.pick(5)]
		}
		a, b := w.expr(ct, d-1), w.expr(ct, d-1)
		ops := []string{"==", "!="}
		if ct.ordered() {
			ops = append(ops, "<", "<=", ">", ">=")
		}
		return conv(goExpr{s: "(" + a.s + " " + ops[w.pick(len(ops))] + " " + b.s + ")", konst: a.konst && b.konst})
	case 2:
		a, b := w.expr(t, d-1), w.expr(t, d-1)
		return goExpr{s: "(" + a.s + " " + []string{"&&", "||"}[w.pick(2)] + " " + b.s + ")", konst: a.konst && b.konst}
	case 3:
		a := w.expr(t, d-1)
		return goExpr{s: "!" + a.s, konst: a.konst}
	case 4:
		w.use(goImpStrings)
		f := []string{"strings.Contains", "strings.HasPrefix", "strings.HasSuffix"}[w.pick(3)]
		return conv(goExpr{s: f + "(" + w.expr(goTString, d-1).s + ", " + w.expr(goTString, d-1).s + ")"})
	}
	return w.leaf(t, d)
}

func (w *goWriter) sliceExpr(t *goType, d int) string {
	switch w.pick(5) {
	case 0, 1:
		return w.compositeLit(t, d)
	case 2:
		s := w.expr(t, d-1).s
		n := 1 + w.pick(2)
		var els []string
		for range n {
			els = append(els, w.expr(t.elem, d-1).s)
		}
		return "append(" + s + ", " + strings.Join(els, ", ") + ")"
	case 3:
		n := 0
		if goZeroSafe(t.elem) {
			n = w.pick(4)
		}
		return "make(" + t.String() + ", " + strconv.Itoa(n) + ")"
	default:
		return w.leaf(t, d).s
	}
}

// compositeLit is a composite literal of a slice, array, map or struct
// type.
func (w *goWriter) compositeLit(t *goType, d int) string {
	n := 0
	if d > 0 {
		n = w.pick(4)
	}
	var els []string
	switch t.kind {
	case goSlice:
		for range n {
			els = append(els, w.elemLit(t.elem, d-1))
		}
	case goArray:
		for range min(n, t.n) {
			els = append(els, w.elemLit(t.elem, d-1))
		}
	case goMap:
		for i := range n {
			var k string
			if t.key.kind == goString {
				k = strconv.Quote("k" + strconv.Itoa(i))
			} else {
				k = strconv.Itoa(i * 3)
			}
			els = append(els, k+": "+w.elemLit(t.elem, d-1))
		}
	case goStruct:
		if d > 0 && len(t.fields) > 0 && w.chance(4) {
			// positional: every field
			for _, f := range t.fields {
				els = append(els, w.expr(f.typ, d-1).s)
			}
			break
		}
		for _, f := range t.fields {
			if d > 0 && w.chance(2) {
				els = append(els, f.name+": "+w.expr(f.typ, d-1).s)
			}
		}
	}
	return t.String() + "{" + strings.Join(els, ", ") + "}"
}

// elemLit is an element of a composite literal: its type may be elided
// for a composite element type.
func (w *goWriter) elemLit(t *goType, d int) string {
	switch t.kind {
	case goSlice, goArray, goMap, goStruct:
		if w.chance(2) {
			s := w.compositeLit(t, d)
			return s[len(t.String()):]
		}
	}
	return w.expr(t, d).s
}

func (w *goWriter) ptrExpr(t *goType, d int) string {
	switch w.pick(4) {
	case 0:
		return "new(" + t.elem.String() + ")"
	case 1:
		vs := w.vars(func(v *goVar) bool { return !v.fn && !v.konst && goSame(v.typ, t.elem) })
		if len(vs) > 0 {
			return "&" + w.ref(vs[w.pick(len(vs))])
		}
	case 2:
		if vs := w.vars(func(v *goVar) bool { return !v.fn && goSame(v.typ, t) }); len(vs) > 0 {
			return w.ref(vs[w.pick(len(vs))])
		}
	}
	return "&" + w.compositeLit(t.elem, d)
}

// funcValue is a value of a function type: a literal, a declared
// function or a method value of the same signature.
func (w *goWriter) funcValue(t *goType, d int) string {
	switch w.pick(4) {
	case 0:
		fs := w.vars(func(v *goVar) bool { return goSame(v.typ, t) && v.cost <= goFuncValueCost })
		if len(fs) > 0 {
			return w.ref(fs[w.pick(len(fs))])
		}
	case 1:
		type cand struct {
			recv string
			m    *goMethod
		}
		var cands []cand
		for _, v := range w.vars(func(v *goVar) bool { return !v.fn }) {
			for _, m := range methodSet(v.typ, !v.konst) {
				if goSame(m.sig, t) && m.cost <= goFuncValueCost {
					cands = append(cands, cand{v.name, m})
				}
			}
		}
		if len(cands) > 0 {
			c := cands[w.pick(len(cands))]
			w.markUsed(c.recv)
			return c.recv + "." + c.m.name
		}
	}
	return w.funcLit(t, d)
}

func (w *goWriter) markUsed(name string) {
	for _, v := range w.vars(func(v *goVar) bool { return v.name == name }) {
		v.used = true
	}
}

// funcLit is a function literal of type t; its body is a block of depth
// d. It returns the literal and records nothing: its cost must stay under
// goFuncValueCost (it is called untracked).
func (w *goWriter) funcLit(t *goType, d int) string {
	s, _ := w.closure(t, min(d, 1), goFuncValueCost)
	return s
}

// closure writes a function literal of type t with a body of depth d and
// a work budget; it returns the literal and its estimated cost.
func (w *goWriter) closure(t *goType, d, budget int) (string, int) {
	outer, outerRanges := w.fn, w.ranges
	w.fn = &goFnCtx{result: t.result, mult: 1}
	w.ranges = nil
	w.push()
	var ps []string
	for _, p := range t.params {
		name := w.id("p")
		w.declare(&goVar{name: name, typ: p, used: true})
		ps = append(ps, name+" "+p.String())
	}
	var body []string
	if d > 0 {
		body = w.stmts(d-1, budget)
	}
	var ret []string
	if t.result != nil {
		ret = []string{"return " + w.expr(t.result, 1).s}
	}
	body = append(append(body, w.pop()...), ret...)
	cost := w.fn.cost + 1
	w.fn, w.ranges = outer, outerRanges
	head := "func(" + strings.Join(ps, ", ") + ")"
	if t.result != nil {
		head += " " + t.result.String()
	}
	if len(body) == 0 {
		return head + " {}", cost
	}
	if len(body) == 1 && !strings.Contains(body[0], "\n") && w.chance(2) {
		return head + " { " + body[0] + " }", cost
	}
	return head + " {\n" + strings.Join(goIndent(body), "\n") + "\n}", cost
}

func (w *goWriter) ifaceValue(t *goType, d int) string {
	if len(t.methods) == 0 {
		return w.expr(w.valueType(0), max(d-1, 0)).s
	}
	var impl []*goType
	for _, n := range w.types() {
		if n.kind != goIface && implements(n, t) {
			impl = append(impl, n)
		}
		if n.kind == goStruct {
			if p := (&goType{kind: goPtr, elem: n}); implements(p, t) {
				impl = append(impl, p)
			}
		}
	}
	if vs := w.vars(func(v *goVar) bool { return !v.fn && goSame(v.typ, t) }); len(vs) > 0 && (len(impl) == 0 || w.chance(2)) {
		return w.ref(vs[w.pick(len(vs))])
	}
	if len(impl) == 0 {
		// cannot happen: an interface is declared from a type's methods
		return "nil"
	}
	it := impl[w.pick(len(impl))]
	e := w.expr(it, max(d-1, 0))
	if e.konst {
		// an untyped constant would get its default type
		return it.String() + "(" + e.s + ")"
	}
	return e.s
}

// fieldOf selects a field of type t of a variable in scope.
func (w *goWriter) fieldOf(t *goType) (string, bool) {
	type cand struct {
		v    *goVar
		path string
	}
	var cands []cand
	for _, v := range w.vars(func(v *goVar) bool { return !v.fn }) {
		st := v.typ
		if st.kind == goPtr {
			st = st.elem
		}
		for _, s := range selectors(st, 2) {
			if goSame(s.typ, t) {
				cands = append(cands, cand{v, s.path})
			}
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	c := cands[w.pick(len(cands))]
	return w.ref(c.v) + c.path, true
}

// elemOf reads an element of type t: of a map (any key), of an array (a
// constant index in range), or of a slice in a loop ranging over it.
func (w *goWriter) elemOf(t *goType, d int) (string, bool) {
	var cands []func() string
	for _, v := range w.vars(func(v *goVar) bool { return !v.fn && !v.konst }) {
		switch {
		case v.typ.kind == goMap && goSame(v.typ.elem, t) && goZeroSafe(t):
			cands = append(cands, func() string {
				return w.ref(v) + "[" + w.expr(v.typ.key, d-1).s + "]"
			})
		case v.typ.kind == goArray && goSame(v.typ.elem, t):
			cands = append(cands, func() string {
				return w.ref(v) + "[" + strconv.Itoa(w.pick(v.typ.n)) + "]"
			})
		}
	}
	for _, r := range w.ranges {
		if goSame(r.elem, t) {
			cands = append(cands, func() string {
				w.markUsed(r.slice)
				w.markUsed(r.index)
				return r.slice + "[" + r.index + "]"
			})
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	return cands[w.pick(len(cands))](), true
}

// callOf calls a function, a closure variable or a method returning t,
// when its work fits the budget.
func (w *goWriter) callOf(t *goType, d int) (string, bool) {
	var cands []func() string
	for _, v := range w.vars(func(v *goVar) bool { return v.typ.kind == goFunc && v.typ.result != nil && goSame(v.typ.result, t) }) {
		if w.affords(v.cost) {
			cands = append(cands, func() string {
				w.pay(v.cost)
				return w.ref(v) + w.args(v.typ, d)
			})
		}
	}
	for _, v := range w.vars(func(v *goVar) bool { return !v.fn }) {
		for _, m := range methodSet(v.typ, !v.konst) {
			if m.sig.result != nil && goSame(m.sig.result, t) && w.affords(m.cost) {
				cands = append(cands, func() string {
					w.pay(m.cost)
					return w.ref(v) + "." + m.name + w.args(m.sig, d)
				})
			}
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	return cands[w.pick(len(cands))](), true
}

func (w *goWriter) affords(cost int) bool {
	return w.fn != nil && w.fn.cost+w.fn.mult*cost <= goBudget
}

func (w *goWriter) pay(cost int) { w.fn.cost += w.fn.mult * cost }

func (w *goWriter) args(sig *goType, d int) string {
	as := make([]string, len(sig.params))
	for i, p := range sig.params {
		as[i] = w.expr(p, d-1).s
	}
	return "(" + strings.Join(as, ", ") + ")"
}

// ---- statements ----

// stmts draws a statement list of nesting depth d within a work budget.
func (w *goWriter) stmts(d, budget int) []string {
	var out []string
	for range w.pick(w.cfg.MaxStmts + 1) {
		if w.fn.cost > budget {
			break
		}
		out = append(out, w.stmt(d)...)
	}
	return out
}

// block writes a nested block's statements (in a new scope) with the
// unused-variable fixups at its end.
func (w *goWriter) block(d int) []string {
	w.push()
	body := w.stmts(d, goBudget)
	return append(body, w.pop()...)
}

func (w *goWriter) stmt(d int) []string {
	w.fn.cost += w.fn.mult
	k := w.pick(20)
	if d <= 0 && k >= 9 && k < 17 {
		k %= 9
	}
	switch k {
	case 0, 1, 2:
		return w.varDecl(d)
	case 3, 4:
		return w.assign(d)
	case 5:
		return w.callStmt(d)
	case 6:
		return w.localType()
	case 7:
		return w.mapStmt(d)
	case 8:
		if w.fn.breaks > 0 && w.chance(2) {
			if w.fn.loops > 0 && w.chance(2) {
				return []string{"continue"}
			}
			return []string{"break"}
		}
		return w.incDec(d)
	case 9, 10:
		return w.ifStmt(d)
	case 11:
		return w.forStmt(d)
	case 12:
		return w.rangeStmt(d)
	case 13:
		return w.switchStmt(d)
	case 14:
		return w.typeSwitch(d)
	case 15:
		return w.closureStmt(d)
	case 16:
		if w.chance(3) {
			return append(append([]string{"{"}, goIndent(w.block(d-1))...), "}")
		}
		return w.deferStmt(d)
	case 17:
		if w.fn.result != nil && w.chance(2) {
			c := w.expr(goTBool, 2).s
			return []string{"if " + c + " {", "\treturn " + w.expr(w.fn.result, 2).s, "}"}
		}
		return w.printStmt()
	default:
		return w.printStmt()
	}
}

func (w *goWriter) varDecl(d int) []string {
	t := w.valueType(1)
	if w.chance(6) && goZeroSafe(t) {
		name := w.id("z")
		w.declare(&goVar{name: name, typ: t})
		return []string{"var " + name + " " + t.String()}
	}
	e := w.expr(t, d+1)
	name := w.id("v")
	w.declare(&goVar{name: name, typ: t, cost: w.valueCost(t)})
	if e.konst && !t.defaultType() || t.kind == goIface || w.chance(4) {
		return []string{"var " + name + " " + t.String() + " = " + e.s}
	}
	return []string{name + " := " + e.s}
}

// valueCost is the cost assumed for calls of a variable of type t.
func (w *goWriter) valueCost(t *goType) int {
	if t.kind == goFunc {
		return goFuncValueCost
	}
	return 0
}

// target is an assignable operand of type t (or of any type when t is
// nil): a variable, a field of a variable, a map or array element, or the
// element of a slice being ranged over.
func (w *goWriter) target(t *goType, d int) (string, *goType, bool) {
	var cands []func() (string, *goType)
	for _, v := range w.vars(func(v *goVar) bool { return !v.fn && !v.konst }) {
		if !v.fixed && v.typ.kind != goFunc && v.typ.kind != goIface && (t == nil || goSame(v.typ, t)) {
			cands = append(cands, func() (string, *goType) { return v.name, v.typ })
		}
		st := v.typ
		if st.kind == goPtr {
			st = st.elem
		}
		for _, s := range selectors(st, 2) {
			if t == nil || goSame(s.typ, t) {
				cands = append(cands, func() (string, *goType) { return w.ref(v) + s.path, s.typ })
			}
		}
		if v.typ.kind == goMap && (t == nil || goSame(v.typ.elem, t)) {
			cands = append(cands, func() (string, *goType) {
				return w.ref(v) + "[" + w.expr(v.typ.key, d).s + "]", v.typ.elem
			})
		}
		if v.typ.kind == goArray && (t == nil || goSame(v.typ.elem, t)) {
			cands = append(cands, func() (string, *goType) {
				return w.ref(v) + "[" + strconv.Itoa(w.pick(v.typ.n)) + "]", v.typ.elem
			})
		}
	}
	for _, r := range w.ranges {
		if t == nil || goSame(r.elem, t) {
			cands = append(cands, func() (string, *goType) {
				w.markUsed(r.index)
				return r.slice + "[" + r.index + "]", r.elem
			})
		}
	}
	if len(cands) == 0 {
		return "", nil, false
	}
	s, tt := cands[w.pick(len(cands))]()
	return s, tt, true
}

func (w *goWriter) assign(d int) []string {
	lhs, t, ok := w.target(nil, d)
	if !ok {
		return w.varDecl(d)
	}
	if w.chance(6) {
		// a tuple assignment: two operands of a type, a swap sometimes
		lhs2, _, _ := w.target(t, d)
		if w.chance(2) {
			return []string{lhs + ", " + lhs2 + " = " + lhs2 + ", " + lhs}
		}
		return []string{lhs + ", " + lhs2 + " = " + w.expr(t, d+1).s + ", " + w.expr(t, d+1).s}
	}
	op := " = "
	switch {
	case t.isNumeric() && w.chance(3):
		op = " " + []string{"+", "-", "*"}[w.pick(3)] + "= "
	case t.kind == goString && w.chance(3):
		op = " += "
	}
	return []string{lhs + op + w.expr(t, d+1).s}
}

func (w *goWriter) incDec(d int) []string {
	var ints []*goType
	for _, t := range append(append([]*goType(nil), goBasics...), w.types()...) {
		if t.isInteger() {
			ints = append(ints, t)
		}
	}
	lhs, _, ok := w.target(ints[w.pick(len(ints))], d)
	if !ok {
		return w.printStmt()
	}
	return []string{lhs + []string{"++", "--"}[w.pick(2)]}
}

func (w *goWriter) printStmt() []string {
	n := 1 + w.pick(3)
	args := make([]string, n)
	for i := range args {
		args[i] = w.expr(w.simpleType(), 2).s
	}
	return []string{"println(" + strings.Join(args, ", ") + ")"}
}

func (w *goWriter) callStmt(d int) []string {
	var cands []func() string
	for _, v := range w.vars(func(v *goVar) bool { return v.typ.kind == goFunc }) {
		if w.affords(v.cost) {
			cands = append(cands, func() string {
				w.pay(v.cost)
				return w.ref(v) + w.args(v.typ, d)
			})
		}
	}
	for _, v := range w.vars(func(v *goVar) bool { return !v.fn }) {
		for _, m := range methodSet(v.typ, !v.konst) {
			if w.affords(m.cost) {
				cands = append(cands, func() string {
					w.pay(m.cost)
					return w.ref(v) + "." + m.name + w.args(m.sig, d)
				})
			}
		}
	}
	if len(cands) == 0 {
		return w.printStmt()
	}
	return []string{cands[w.pick(len(cands))]()}
}

func (w *goWriter) localType() []string {
	name := w.id(strings.ToLower(w.token(goTypeWords)))
	t, lines := w.typeSpec(name)
	w.top().types = append(w.top().types, t)
	return lines
}

func (w *goWriter) mapStmt(d int) []string {
	ms := w.vars(func(v *goVar) bool { return !v.fn && !v.konst && v.typ.kind == goMap })
	if len(ms) == 0 {
		return w.varDecl(d)
	}
	m := ms[w.pick(len(ms))]
	key := w.expr(m.typ.key, d).s
	if w.chance(2) {
		return []string{"delete(" + w.ref(m) + ", " + key + ")"}
	}
	w.push()
	val, ok := w.id("e"), w.id("ok")
	w.declare(&goVar{name: val, typ: m.typ.elem})
	w.declare(&goVar{name: ok, typ: goTBool, used: true})
	head := "if " + val + ", " + ok + " := " + w.ref(m) + "[" + key + "]; " + ok + " {"
	body := w.block(d - 1)
	body = append(body, w.pop()...)
	return append(append([]string{head}, goIndent(body)...), "}")
}

func (w *goWriter) ifStmt(d int) []string {
	w.push()
	var head string
	if w.chance(3) {
		t := []*goType{goTInt, goTString, goTFloat}[w.pick(3)]
		name := w.id("v")
		e := w.expr(t, d)
		w.declare(&goVar{name: name, typ: t, used: true})
		head = "if " + name + " := " + e.s + "; " + name + " " + []string{"==", "!=", "<", ">="}[w.pick(4)] + " " + w.expr(t, 1).s + " {"
	} else {
		head = "if " + w.expr(goTBool, d).s + " {"
	}
	out := []string{head}
	out = append(out, goIndent(w.block(d-1))...)
	for w.chance(3) {
		out = append(out, "} else if "+w.expr(goTBool, d).s+" {")
		out = append(out, goIndent(w.block(d-1))...)
	}
	if w.chance(2) {
		out = append(out, "} else {")
		out = append(out, goIndent(w.block(d-1))...)
	}
	out = append(out, w.pop()...)
	return append(out, "}")
}

// loop runs body in a loop of n iterations: the work multiplier and the
// break/continue context.
func (w *goWriter) loop(n int, body func() []string) []string {
	w.fn.loops++
	w.fn.breaks++
	w.fn.mult *= n
	out := body()
	w.fn.mult /= n
	w.fn.breaks--
	w.fn.loops--
	return out
}

func (w *goWriter) forStmt(d int) []string {
	n := 1 + w.pick(4)
	i := w.id("i")
	var head string
	if w.chance(3) {
		head = "for " + i + " := " + strconv.Itoa(n) + "; " + i + " > 0; " + i + "-- {"
	} else {
		head = "for " + i + " := 0; " + i + " < " + strconv.Itoa(n) + "; " + i + "++ {"
	}
	w.push()
	w.declare(&goVar{name: i, typ: goTInt, fixed: true, used: true})
	body := w.loop(n, func() []string { return w.block(d - 1) })
	w.pop()
	return append(append([]string{head}, goIndent(body)...), "}")
}

func (w *goWriter) rangeStmt(d int) []string {
	// the ranged expression: a variable, or a composite literal
	var coll string
	var ct *goType
	var v *goVar
	cs := w.vars(func(v *goVar) bool {
		k := v.typ.kind
		return !v.fn && !v.konst && (k == goSlice || k == goArray || k == goMap || k == goString)
	})
	if len(cs) > 0 && !w.chance(4) {
		v = cs[w.pick(len(cs))]
		coll, ct = w.ref(v), v.typ
	} else {
		ct = &goType{kind: goSlice, elem: w.valueType(0)}
		if w.chance(3) {
			ct = &goType{kind: goMap, key: w.keyType(), elem: w.valueType(0)}
		}
		coll = w.compositeLit(ct, 2)
	}
	w.push()
	var kt, et *goType
	switch ct.kind {
	case goMap:
		kt, et = ct.key, ct.elem
	case goString:
		kt = goTInt
	default:
		kt, et = goTInt, ct.elem
	}
	key, val := w.id("k"), w.id("e")
	var head string
	switch k := w.pick(4); {
	case et == nil || k == 0:
		head = "for " + key + " := range " + coll + " {"
		w.declare(&goVar{name: key, typ: kt, fixed: true})
		et = nil
	case k == 1:
		head = "for _, " + val + " := range " + coll + " {"
		w.declare(&goVar{name: val, typ: et})
		key = ""
	case k == 2 && ct.kind == goSlice:
		head = "for range " + coll + " {"
		key, et = "", nil
	default:
		head = "for " + key + ", " + val + " := range " + coll + " {"
		w.declare(&goVar{name: key, typ: kt, fixed: true})
		w.declare(&goVar{name: val, typ: et})
	}
	saved := w.ranges
	if v != nil && ct.kind == goSlice && key != "" {
		v.fixed = true
		w.ranges = append(w.ranges, goRange{slice: v.name, index: key, elem: ct.elem})
	}
	body := w.loop(4, func() []string { return w.block(d - 1) })
	if v != nil {
		v.fixed = false
	}
	w.ranges = saved
	body = append(body, w.pop()...)
	return append(append([]string{head}, goIndent(body)...), "}")
}

func (w *goWriter) switchStmt(d int) []string {
	var head string
	var tag *goType
	w.push()
	if w.chance(3) {
		head = "switch {"
	} else {
		tag = []*goType{goTInt, goTString, goTInt64, goTUint8}[w.pick(4)]
		if w.chance(3) {
			x := w.id("x")
			e := w.expr(tag, d)
			if e.konst && !tag.defaultType() {
				e.s = tag.String() + "(" + e.s + ")"
			}
			w.declare(&goVar{name: x, typ: tag, used: true})
			head = "switch " + x + " := " + e.s + "; " + x + " {"
		} else {
			head = "switch " + w.expr(tag, d).s + " {"
		}
	}
	out := []string{head}
	w.fn.breaks++
	n := w.pick(4)
	next := 0
	for c := range n {
		var label string
		if tag == nil {
			label = "case " + w.expr(goTBool, d).s + ":"
		} else {
			var vals []string
			for range 1 + w.pick(2) {
				if tag.kind == goString {
					vals = append(vals, strconv.Quote(w.token(goWords[1:])+strconv.Itoa(next)))
				} else {
					vals = append(vals, strconv.Itoa(next))
				}
				next += 1 + w.pick(3)
			}
			label = "case " + strings.Join(vals, ", ") + ":"
		}
		out = append(out, label)
		body := w.block(d - 1)
		if c < n-1 && w.chance(5) {
			body = append(body, "fallthrough")
		}
		out = append(out, goIndent(body)...)
	}
	if w.chance(2) {
		out = append(out, "default:")
		out = append(out, goIndent(w.block(d-1))...)
	}
	w.fn.breaks--
	out = append(out, w.pop()...)
	return append(out, "}")
}

// typeSwitch writes a type switch or a comma-ok type assertion on an
// interface value.
func (w *goWriter) typeSwitch(d int) []string {
	is := w.vars(func(v *goVar) bool { return !v.fn && v.typ.kind == goIface })
	if len(is) == 0 {
		return w.varDecl(d)
	}
	x := is[w.pick(len(is))]
	// candidate dynamic types
	var cands []*goType
	seen := map[string]bool{}
	add := func(t *goType) {
		if !seen[t.String()] && t.kind != goIface && implements(t, x.typ) {
			seen[t.String()] = true
			cands = append(cands, t)
		}
	}
	for _, t := range w.types() {
		add(t)
		if t.kind == goStruct {
			add(&goType{kind: goPtr, elem: t})
		}
	}
	if len(x.typ.methods) == 0 {
		for _, t := range goBasics {
			add(t)
		}
	}
	if len(cands) == 0 {
		return w.printStmt()
	}
	if w.chance(3) {
		t := cands[w.pick(len(cands))]
		w.push()
		v, ok := w.id("a"), w.id("ok")
		w.declare(&goVar{name: v, typ: t})
		w.declare(&goVar{name: ok, typ: goTBool, used: true})
		head := "if " + v + ", " + ok + " := " + w.ref(x) + ".(" + t.String() + "); " + ok + " {"
		body := w.block(d - 1)
		body = append(body, w.pop()...)
		return append(append([]string{head}, goIndent(body)...), "}")
	}
	bind := ""
	if w.chance(2) {
		bind = w.id("y")
	}
	head := "switch " + w.ref(x) + ".(type) {"
	if bind != "" {
		head = "switch " + bind + " := " + w.ref(x) + ".(type) {"
	}
	out := []string{head}
	w.fn.breaks++
	for c := range 1 + w.pick(3) {
		if len(cands) == 0 {
			break
		}
		i := w.pick(len(cands))
		t := cands[i]
		cands = append(cands[:i:i], cands[i+1:]...)
		out = append(out, "case "+t.String()+":")
		w.push()
		if bind != "" {
			w.declare(&goVar{name: bind, typ: t, used: c > 0})
		}
		out = append(out, goIndent(w.block(d-1))...)
		out = append(out, goIndent(w.pop())...)
	}
	if w.chance(2) {
		out = append(out, "default:")
		w.push()
		if bind != "" {
			w.declare(&goVar{name: bind, typ: x.typ, used: true})
		}
		out = append(out, goIndent(w.block(d-1))...)
		w.pop()
	}
	w.fn.breaks--
	return append(out, "}")
}

// left is the work a closure called here once may do within the budget.
func (w *goWriter) left(most int) int {
	return min(most, (goBudget-w.fn.cost)/w.fn.mult)
}

// closureStmt declares a closure variable, or calls a function literal
// at once.
func (w *goWriter) closureStmt(d int) []string {
	ft := w.funcType(0)
	if w.chance(3) {
		budget := w.left(goBudget / 4)
		if budget < 20 {
			return w.printStmt()
		}
		lit, cost := w.closure(&goType{kind: goFunc}, d, budget)
		w.pay(cost)
		return strings.Split(lit+"()", "\n")
	}
	lit, cost := w.closure(ft, d, goBudget/4)
	name := w.id("fn")
	w.declare(&goVar{name: name, typ: ft, cost: cost})
	return strings.Split(name+" := "+lit, "\n")
}

func (w *goWriter) deferStmt(d int) []string {
	if w.chance(2) {
		args := w.printStmt()[0]
		return []string{"defer " + args}
	}
	budget := w.left(goBudget / 8)
	if budget < 20 {
		return w.printStmt()
	}
	lit, cost := w.closure(&goType{kind: goFunc}, d, budget)
	w.pay(cost)
	return strings.Split("defer "+lit+"()", "\n")
}

// ---- declarations ----

func (w *goWriter) program() string {
	w.push()
	var decls []string
	for range 1 + w.pick(w.cfg.MaxDecls) {
		decls = append(decls, w.decl())
	}
	w.fn = &goFnCtx{mult: 1, main: true}
	w.push()
	body := w.stmts(w.cfg.MaxDepth, goBudget)
	body = append(body, w.printStmt()...)
	body = append(body, w.pop()...)
	decls = append(decls, "func main() {\n"+strings.Join(goIndent(body), "\n")+"\n}")
	var b strings.Builder
	b.WriteString("package main\n")
	var imps []string
	for i, used := range w.imports {
		if used {
			imps = append(imps, strconv.Quote(goImportNames[i]))
		}
	}
	switch {
	case len(imps) == 1:
		b.WriteString("\nimport " + imps[0] + "\n")
	case len(imps) > 1:
		b.WriteString("\nimport (\n\t" + strings.Join(imps, "\n\t") + "\n)\n")
	}
	for _, d := range decls {
		b.WriteString("\n" + d + "\n")
	}
	return b.String()
}

func (w *goWriter) decl() string {
	w.fn = &goFnCtx{mult: 1}
	switch k := w.pick(12); {
	case k < 3:
		name := w.id(w.token(goTypeWords))
		t, lines := w.typeSpec(name)
		w.top().types = append(w.top().types, t)
		if t.kind != goIface {
			w.named = append(w.named, t)
		}
		return strings.Join(lines, "\n")
	case k == 3:
		if s := w.ifaceDecl(); s != "" {
			return s
		}
		return w.funcDecl()
	case k == 4:
		return w.constDecl()
	case k == 5:
		return w.pkgVar()
	case k < 9:
		if s := w.methodDecl(); s != "" {
			return s
		}
		return w.funcDecl()
	default:
		return w.funcDecl()
	}
}

func (w *goWriter) constDecl() string {
	if w.chance(3) {
		// an enumeration: iota in a constant block
		var ints []*goType
		for _, t := range append([]*goType{goTInt}, w.types()...) {
			if t.isInteger() {
				ints = append(ints, t)
			}
		}
		t := ints[w.pick(len(ints))]
		lines := []string{"const ("}
		for i := range 2 + w.pick(3) {
			name := w.id("c")
			w.declare(&goVar{name: name, typ: t, konst: true})
			switch {
			case i > 0:
				lines = append(lines, "\t"+name)
			case t == goTInt && w.chance(2):
				lines = append(lines, "\t"+name+" = iota")
			default:
				lines = append(lines, "\t"+name+" "+t.String()+" = iota")
			}
		}
		return strings.Join(append(lines, ")"), "\n")
	}
	name := w.id("c")
	var t *goType
	var e goExpr
	for range 3 {
		t = w.simpleType()
		if t.kind == goBool {
			t = goTInt
		}
		w.fn = &goFnCtx{mult: 1}
		e = w.constExpr(t, 2)
		if e.konst {
			break
		}
	}
	if !e.konst {
		t, e = goTInt, goExpr{s: "7", konst: true}
	}
	w.declare(&goVar{name: name, typ: t, konst: true})
	if t.defaultType() && w.chance(2) {
		return "const " + name + " = " + e.s
	}
	return "const " + name + " " + t.String() + " = " + e.s
}

// constExpr is a constant expression of t: literals, constants and
// operators.
func (w *goWriter) constExpr(t *goType, d int) goExpr {
	if t.kind == goUint8 {
		return w.literal(t, 0)
	}
	if d <= 0 || w.chance(2) {
		if cs := w.vars(func(v *goVar) bool { return v.konst && goSame(v.typ, t) }); len(cs) > 0 && w.chance(2) {
			return goExpr{s: w.ref(cs[w.pick(len(cs))]), konst: true}
		}
		return w.literal(t, 0)
	}
	a, b := w.constExpr(t, d-1), w.constExpr(t, d-1)
	op := "+"
	if t.kind != goUint8 && t.kind != goString && w.chance(2) {
		op = "-"
	}
	return goExpr{s: "(" + a.s + " " + op + " " + b.s + ")", konst: true}
}

func (w *goWriter) pkgVar() string {
	t := w.valueType(1)
	name := w.id("g")
	e := w.expr(t, 2)
	w.declare(&goVar{name: name, typ: t, cost: w.valueCost(t)})
	if e.konst && !t.defaultType() || t.kind == goIface || w.chance(2) {
		return "var " + name + " " + t.String() + " = " + e.s
	}
	return "var " + name + " = " + e.s
}

// signature draws a function's parameters (declared in the current scope)
// and result.
func (w *goWriter) signature() (*goType, string) {
	ft := &goType{kind: goFunc}
	var ps []string
	for range w.pick(4) {
		pt := w.valueType(1)
		name := w.id("a")
		ft.params = append(ft.params, pt)
		w.declare(&goVar{name: name, typ: pt, used: true, cost: w.valueCost(pt)})
		ps = append(ps, name+" "+pt.String())
	}
	res := ""
	if !w.chance(4) {
		ft.result = w.valueType(1)
		res = " " + ft.result.String()
	}
	return ft, "(" + strings.Join(ps, ", ") + ")" + res
}

// body writes a function body: statements, then the final return.
func (w *goWriter) body(result *goType) []string {
	w.fn = &goFnCtx{result: result, mult: 1}
	w.push()
	out := w.stmts(w.cfg.MaxDepth, goBudget)
	var ret []string
	if result != nil {
		ret = []string{"return " + w.expr(result, 2).s}
	}
	return append(append(out, w.pop()...), ret...)
}

func (w *goWriter) funcDecl() string {
	name := w.id("f")
	w.push()
	sig, text := w.signature()
	body := w.body(sig.result)
	cost := w.fn.cost + 1
	w.pop()
	w.declare(&goVar{name: name, typ: sig, fn: true, cost: cost})
	return "func " + name + text + " {\n" + strings.Join(goIndent(body), "\n") + "\n}"
}

func (w *goWriter) methodDecl() string {
	var recvs []*goType
	for _, t := range w.named {
		if t.kind != goIface && t.kind != goPtr {
			recvs = append(recvs, t)
		}
	}
	if len(recvs) == 0 {
		return ""
	}
	rt := recvs[w.pick(len(recvs))]
	name := w.token(goMethodWords)
	for _, m := range rt.methods {
		if m.name == name {
			return ""
		}
	}
	ptr := rt.kind == goStruct && w.chance(2)
	w.push()
	recv := w.id("r")
	recvType := rt
	if ptr {
		recvType = &goType{kind: goPtr, elem: rt}
	}
	w.declare(&goVar{name: recv, typ: recvType, used: true})
	sig, text := w.signature()
	body := w.body(sig.result)
	cost := w.fn.cost + 1
	w.pop()
	rt.methods = append(rt.methods, &goMethod{name: name, sig: sig, ptr: ptr, cost: cost})
	return "func (" + recv + " " + recvType.String() + ") " + name + text + " {\n" + strings.Join(goIndent(body), "\n") + "\n}"
}

// ifaceDecl declares an interface of some of a type's value methods.
func (w *goWriter) ifaceDecl() string {
	var hosts []*goType
	for _, t := range w.named {
		for _, m := range t.methods {
			if !m.ptr {
				hosts = append(hosts, t)
				break
			}
		}
	}
	if len(hosts) == 0 {
		return ""
	}
	h := hosts[w.pick(len(hosts))]
	it := &goType{kind: goIface}
	var lines []string
	for _, m := range h.methods {
		if !m.ptr && (len(it.methods) == 0 || w.chance(2)) {
			it.methods = append(it.methods, &goMethod{name: m.name, sig: m.sig, cost: m.cost})
			lines = append(lines, "\t"+m.name+strings.TrimPrefix(m.sig.String(), "func"))
		}
	}
	name := w.id(w.token([]string{"Getter", "Shape", "Named", "Valuer", "Sizer"}))
	w.top().types = append(w.top().types, it.defined(name))
	return "type " + name + " interface {\n" + strings.Join(lines, "\n") + "\n}"
}
