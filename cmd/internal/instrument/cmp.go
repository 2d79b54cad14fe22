package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// KindCmp is the kind hashed into the ID of a comparison site (gfz-build
// -cmp). Comparison sites are not coverage probes: they have no block and
// are not in the probe table.
const KindCmp Kind = KindLabel + 1

// CmpSite describes one comparison site.
type CmpSite struct {
	ID        uint32 // full hash; the runtime masks it to runtime.CmpBits
	File      string
	Line, Col int
	Op        string // "==", "!=", "<", "<=", ">", ">=" or "case"
	Operand   string // "int" (signed), "uint" (unsigned) or "string"
	Width     int    // integer width in bits (64 for int, uint and uintptr)
}

// cmpKind is the kind of the operands of a probed comparison.
type cmpKind struct {
	letter string // helper suffix: I (signed), U (unsigned), S (string)
	alias  string // conversion type alias of the added file, after the prefix
	width  int    // bits; 0 for strings
}

var cmpOpNames = map[token.Token]string{
	token.EQL: "Eq", token.NEQ: "Ne", token.LSS: "Lt", token.LEQ: "Le", token.GTR: "Gt", token.GEQ: "Ge",
}

// cmpOperand classifies the operand type t: integers and strings are
// probed; everything else (floats, complex, booleans, pointers, type
// parameters, ...) is not.
func cmpOperand(t types.Type) (cmpKind, bool) {
	if t == nil {
		return cmpKind{}, false
	}
	if _, ok := t.(*types.TypeParam); ok {
		return cmpKind{}, false
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsUntyped != 0 {
		return cmpKind{}, false
	}
	switch b.Kind() {
	case types.Int8:
		return cmpKind{"I", "I64", 8}, true
	case types.Int16:
		return cmpKind{"I", "I64", 16}, true
	case types.Int32:
		return cmpKind{"I", "I64", 32}, true
	case types.Int, types.Int64:
		return cmpKind{"I", "I64", 64}, true
	case types.Uint8:
		return cmpKind{"U", "U64", 8}, true
	case types.Uint16:
		return cmpKind{"U", "U64", 16}, true
	case types.Uint32:
		return cmpKind{"U", "U64", 32}, true
	case types.Uint, types.Uint64, types.Uintptr:
		return cmpKind{"U", "U64", 64}, true
	case types.String:
		return cmpKind{"S", "Str", 0}, true
	}
	return cmpKind{}, false
}

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// constShifted reports whether e holds a non-constant shift of a constant
// (1<<s), alone or in arithmetic: go/types records such an operand with
// the type the comparison's other operand gives it (x == 1<<s, x a uint8:
// the 1 is a uint8 and 1<<8 is 0), which a conversion to the helper's
// 64-bit type would change (1 a uint64, 1<<8 is 256): the comparison's
// result would change with it. Left alone, as untyped operands are
// (typed constants shifted, uint8(1)<<s, are left alone too: the recorded
// types do not tell them apart).
func constShifted(info *types.Info, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return constShifted(info, e.X)
	case *ast.UnaryExpr:
		return constShifted(info, e.X)
	case *ast.BinaryExpr:
		if e.Op == token.SHL || e.Op == token.SHR {
			return info.Types[e].Value == nil && info.Types[e.X].Value != nil
		}
		return constShifted(info, e.X) || constShifted(info, e.Y)
	}
	return false
}

// addCmpSite records a comparison site at pos and returns its ID literal.
func (r *rewriter) addCmpSite(pos token.Pos, op string, k cmpKind) *dst.BasicLit {
	p := r.position(pos)
	id := ProbeID(r.pkg.Path, baseName(p.Filename), p.Line, p.Column, KindCmp)
	operand := map[string]string{"I": "int", "U": "uint", "S": "string"}[k.letter]
	r.pkg.CmpSites = append(r.pkg.CmpSites, CmpSite{ID: id, File: p.Filename, Line: p.Line, Col: p.Column, Op: op, Operand: operand, Width: k.width})
	return &dst.BasicLit{Kind: token.INT, Value: fmt.Sprintf("%#x", id)}
}

func conv(alias string, x dst.Expr) dst.Expr {
	return &dst.CallExpr{Fun: dst.NewIdent(alias), Args: []dst.Expr{x}}
}

// cmpBinary replaces the comparison n, if it compares integers or strings,
// with a call of the package's comparison helper, which records the
// operands (when the probes are on) and returns the comparison's result:
//
//	x < y   =>   _gfzCmpLtI(0xID, 32, _gfzI64(x), _gfzI64(y))
//
// Each operand is still evaluated once, in the same order. Left alone:
// constant comparisons, comparisons whose result has a named boolean type,
// operands of other types (floats, pointers, interfaces, type parameters;
// also an integer or string compared with an interface)
// and untyped non-constant operands (shifts of untyped constants, whose
// type comes from the context).
func (r *rewriter) cmpBinary(c *dstutil.Cursor, n *dst.BinaryExpr) bool {
	opName, ok := cmpOpNames[n.Op]
	info := r.pkg.info
	if !ok || info == nil || !r.pkg.Cmp || !r.probing() {
		return false
	}
	ab, ok := r.astOf(n).(*ast.BinaryExpr)
	if !ok || r.inConstCall(ab.Pos()) {
		return false
	}
	tv, ok := info.Types[ab]
	if !ok || tv.Value != nil {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); !ok || (b.Kind() != types.Bool && b.Kind() != types.UntypedBool) {
		return false
	}
	tx, okx := info.Types[ab.X]
	ty, oky := info.Types[ab.Y]
	if !okx || !oky {
		return false
	}
	if (isUntyped(tx.Type) && tx.Value == nil) || (isUntyped(ty.Type) && ty.Value == nil) {
		return false
	}
	if constShifted(info, ab.X) || constShifted(info, ab.Y) {
		return false
	}
	t, other := tx.Type, ty.Type
	if isUntyped(t) {
		t, other = other, t
	}
	k, ok := cmpOperand(t)
	if !ok {
		return false
	}
	// Go also compares a concrete operand with an interface (x == v, v of
	// type any), which the helper type cannot convert: the other operand,
	// when typed, must be of the same kind.
	if ko, ok := cmpOperand(other); !isUntyped(other) && (!ok || ko != k) {
		return false
	}
	args := []dst.Expr{r.addCmpSite(ab.OpPos, n.Op.String(), k)}
	if k.width > 0 {
		args = append(args, &dst.BasicLit{Kind: token.INT, Value: strconv.Itoa(k.width)})
	}
	alias := helper(r.pkg.Prefix, k.alias)
	args = append(args, conv(alias, n.X), conv(alias, n.Y))
	call := &dst.CallExpr{Fun: dst.NewIdent(helper(r.pkg.Prefix, "Cmp"+opName+k.letter)), Args: args}
	call.Decs.NodeDecs = n.Decs.NodeDecs
	c.Replace(call)
	return true
}

// cmpSwitch probes the constant cases of an expression switch on an
// integer or string tag. The switch is replaced by a block that evaluates
// the tag once into a temporary, records the tag against every constant
// case value when the probes are on, and switches on the temporary:
//
//	switch init; tag { case 1, 2: ... }
//	=>
//	{ init; _gfzSw := tag; if _gfzCmpOn() { _gfzCmpEqI(id1, 64, _gfzI64(_gfzSw), _gfzI64(1)); ... }
//	  switch _gfzSw { case 1, 2: ... } }
//
// The init statement's variables end their scope with the block, which
// ends with the switch. Switches without a tag, with a constant tag, with
// no constant case of the tag's kind, or that are labelled (a label must
// stay on the switch for break and goto) are left alone.
func (r *rewriter) cmpSwitch(c *dstutil.Cursor, n *dst.SwitchStmt) {
	info := r.pkg.info
	if info == nil || !r.pkg.Cmp || !r.probing() || n.Tag == nil {
		return
	}
	if _, labelled := c.Parent().(*dst.LabeledStmt); labelled || c.Index() < 0 {
		return
	}
	as, ok := r.astOf(n).(*ast.SwitchStmt)
	if !ok || as.Tag == nil {
		return
	}
	tv, ok := info.Types[as.Tag]
	if !ok || tv.Value != nil {
		return
	}
	k, ok := cmpOperand(tv.Type)
	if !ok {
		return
	}
	tmp := fmt.Sprintf("_gfzSw%d", len(r.pkg.CmpSites))
	var calls []dst.Stmt
	for _, s := range as.Body.List {
		cc, ok := s.(*ast.CaseClause)
		if !ok {
			continue
		}
		for _, v := range cc.List {
			cv, ok := info.Types[v]
			if !ok || cv.Value == nil {
				continue
			}
			args := []dst.Expr{r.addCmpSite(v.Pos(), "case", k)}
			if k.width > 0 {
				args = append(args, &dst.BasicLit{Kind: token.INT, Value: strconv.Itoa(k.width)})
			}
			alias := helper(r.pkg.Prefix, k.alias)
			args = append(args, conv(alias, dst.NewIdent(tmp)), conv(alias, constExpr(cv)))
			st := &dst.ExprStmt{X: &dst.CallExpr{Fun: dst.NewIdent(helper(r.pkg.Prefix, "CmpEq"+k.letter)), Args: args}}
			st.Decs.Before, st.Decs.After = dst.NewLine, dst.NewLine
			calls = append(calls, st)
		}
	}
	if len(calls) == 0 {
		return
	}
	var list []dst.Stmt
	if n.Init != nil {
		r.syncLine(n.Init)
		n.Init.Decorations().Before = dst.NewLine
		list = append(list, n.Init)
		n.Init = nil
	}
	def := &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(tmp)}, Tok: token.DEFINE, Rhs: []dst.Expr{n.Tag}}
	def.Decs.Before = dst.NewLine
	if d := r.lineDirective(as.Tag.Pos(), false); d != "" {
		def.Decs.Start = append(def.Decs.Start, d) // the tag keeps its line
	}
	guard := &dst.IfStmt{
		Cond: &dst.CallExpr{Fun: dst.NewIdent(helper(r.pkg.Prefix, "CmpOn"))},
		Body: &dst.BlockStmt{List: calls},
	}
	guard.Decs.Before, guard.Decs.After = dst.NewLine, dst.NewLine
	n.Tag = dst.NewIdent(tmp)
	n.Decs.Before, n.Decs.After = dst.NewLine, dst.NewLine
	r.syncLine(n)
	list = append(list, def, guard, n)
	blk := &dst.BlockStmt{List: list}
	blk.Decs.Before, blk.Decs.After = dst.NewLine, dst.NewLine
	c.Replace(blk)
}

// constExpr prints a constant case value from its value, so the recorded
// operand is the constant itself (the original expression stays in the
// case clause, where it may name constants of other packages).
func constExpr(tv types.TypeAndValue) dst.Expr {
	return &dst.BasicLit{Kind: token.STRING, Value: tv.Value.ExactString()}
}

// cmpSource returns the comparison helpers of the added file (empty when
// the package has no comparison site). Non-std packages call the
// runtime's CmpInt and CmpStr; std packages get local copies working on
// the runtime's variables through //go:linkname.
func (p *Template) cmpSource() []byte {
	if len(p.CmpSites) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("\n// Comparison probes (gfz-build -cmp).\n\n")
	pre := helper(p.Prefix, "")
	// Defined types, not aliases: a package of a module whose go.mod says
	// go 1.8 or older (github.com/google/go-cmp v0.5.5, a dependency of
	// google.golang.org/protobuf) may not declare aliases.
	fmt.Fprintf(&b, "type %[1]sI64 int64\ntype %[1]sU64 uint64\ntype %[1]sStr string\n\n", pre)
	on, recI, recS := "_gfzrt.CmpOn", "_gfzrt.CmpInt", "_gfzrt.CmpStr"
	if p.Std {
		on, recI, recS = "_gfzCmpOnVar", "_gfzCmpInt", "_gfzCmpStr"
		fmt.Fprintf(&b, cmpStdSource, RuntimePath)
		fmt.Fprintf(&b, "func init() { _gfzCmpSites += %d }\n\n", len(p.CmpSites))
	} else {
		fmt.Fprintf(&b, "func init() { _gfzrt.RegisterCmp(%d) }\n\n", len(p.CmpSites))
	}
	fmt.Fprintf(&b, "//go:norace\nfunc %sCmpOn() bool { return %s }\n\n", pre, on)
	ops := []struct{ name, op string }{{"Eq", "=="}, {"Ne", "!="}, {"Lt", "<"}, {"Le", "<="}, {"Gt", ">"}, {"Ge", ">="}}
	for _, o := range ops {
		fmt.Fprintf(&b, "//go:norace\nfunc %[1]sCmp%[2]sI(id uint32, w uint8, a, b %[1]sI64) bool {\n\tif %[3]s {\n\t\t%[4]s(id, w, uint64(a), uint64(b))\n\t}\n\treturn a %[5]s b\n}\n\n", pre, o.name, on, recI, o.op)
		fmt.Fprintf(&b, "//go:norace\nfunc %[1]sCmp%[2]sU(id uint32, w uint8, a, b %[1]sU64) bool {\n\tif %[3]s {\n\t\t%[4]s(id, w, uint64(a), uint64(b))\n\t}\n\treturn a %[5]s b\n}\n\n", pre, o.name, on, recI, o.op)
		fmt.Fprintf(&b, "//go:norace\nfunc %[1]sCmp%[2]sS(id uint32, a, b %[1]sStr) bool {\n\tif %[3]s {\n\t\t%[4]s(id, string(a), string(b))\n\t}\n\treturn a %[5]s b\n}\n\n", pre, o.name, on, recS, o.op)
	}
	return b.Bytes()
}

// cmpStdSource is the std-package copy of runtime/cmp.go's recording
// code, on the runtime's variables reached through //go:linkname (same
// names, types and layouts; zero-initialised, merged by the linker).
// Keep it in step with runtime/cmp.go.
const cmpStdSource = `//go:linkname _gfzCmpOnVar %[1]s.CmpOn
var _gfzCmpOnVar bool

//go:linkname _gfzCmpMap %[1]s.CmpMap
var _gfzCmpMap [1 << 12]uint8

type _gfzCmpIntOp struct {
	A, B  uint64
	Width uint8
}

type _gfzCmpStrOp struct {
	A, B       [32]byte
	LenA, LenB uint8
}

//go:linkname _gfzCmpInts %[1]s.CmpInts
var _gfzCmpInts [64]_gfzCmpIntOp

//go:linkname _gfzCmpStrs %[1]s.CmpStrs
var _gfzCmpStrs [64]_gfzCmpStrOp

//go:linkname _gfzCmpIntN %[1]s.cmpIntN
var _gfzCmpIntN uint32

//go:linkname _gfzCmpStrN %[1]s.cmpStrN
var _gfzCmpStrN uint32

//go:linkname _gfzCmpSites %[1]s.cmpSites
var _gfzCmpSites int

//go:norace
func _gfzCmpInt(id uint32, w uint8, a, b uint64) {
	p := &_gfzCmpMap[id&(1<<12-1)]
	if *p > w {
		return
	}
	x := a ^ b
	if w < 64 {
		x &= 1<<w - 1
	}
	x -= (x >> 1) & 0x5555555555555555
	x = x&0x3333333333333333 + (x>>2)&0x3333333333333333
	x = (x + x>>4) & 0x0f0f0f0f0f0f0f0f
	s := w - uint8(x*0x0101010101010101>>56) + 1
	if s <= *p {
		return
	}
	*p = s
	if n := _gfzCmpIntN; n < 64 {
		_gfzCmpInts[n] = _gfzCmpIntOp{A: a, B: b, Width: w}
		_gfzCmpIntN = n + 1
	}
}

//go:norace
func _gfzCmpStr(id uint32, a, b string) {
	// Not min: a package may declare its own (math does), and this
	// file is compiled into instrumented standard-library packages.
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	if n > 253 {
		n = 253
	}
	p := &_gfzCmpMap[id&(1<<12-1)]
	if int(*p) > n {
		return
	}
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	s := uint8(i + 1)
	if s <= *p {
		return
	}
	*p = s
	if n := _gfzCmpStrN; n < 64 {
		e := &_gfzCmpStrs[n]
		e.LenA = uint8(copy(e.A[:], a))
		e.LenB = uint8(copy(e.B[:], b))
		_gfzCmpStrN = n + 1
	}
}

`
