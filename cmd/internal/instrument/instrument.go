// Package instrument rewrites Go source files to insert gfz coverage probes.
//
// It works on type-checked syntax (as loaded by golang.org/x/tools/go/packages)
// and rewrites it with github.com/dave/dst, which keeps comments, //go:
// directives, build constraints and //line directives attached where the
// compiler needs them. A probe call
//
//	_gfzHit(0xID, &_gfzBlocks[i])
//
// is inserted at every branch arm: function and closure entry, both arms of
// every if (adding an implicit else), every case of expression and type
// switches (adding an implicit default), every select case, loop body entry
// and loop exit, labelled statements that a goto jumps to, and the right
// operand of && and || (as _gfzHitE(...) && rhs). Every original statement is
// preceded by a /*line file:line:col*/ directive so that compile errors and
// run-time stack traces of the instrumented build show the user's own file
// names and line numbers, also under the file's own line directives
// (/*line file:line*/ where those give no column; directives.go).
//
// The per-package helpers _gfzHit, _gfzHitE and _gfzBlocks, and the init code
// that registers the package's probe table with the probe runtime, live in
// one added file produced by Package.RegistrationSource. See
// docs/INSTRUMENT.md for the design.
package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/dave/dst/dstutil"
)

// RuntimePath is the import path of gfz's probe runtime.
const RuntimePath = "github.com/gfz-dev/gfz/runtime"

// Package accumulates the rewritten files and the probes of one package.
type Package struct {
	Path   string  // import path
	Name   string  // package name
	Std    bool    // standard-library package: reach the runtime via //go:linkname
	Probes []Probe // index i is the block index of the probe
	// Cmp turns on comparison probes (gfz-build -cmp; cmp.go); set it
	// before AddFile. CmpSites lists the sites inserted.
	Cmp      bool
	CmpSites []CmpSite
	// Prefix is the prefix of the helpers' names the rewritten files call
	// and the added file declares (_gfzHit, _gfzBlocks, ...): "" means
	// DefaultPrefix. A package's in-package _test.go files, which share its
	// scope with its own files, use TestPrefix. Set it before AddFile.
	Prefix string

	fset  *token.FileSet
	info  *types.Info
	files []*file
}

// DefaultPrefix is the prefix of the helpers of a package's own files.
const DefaultPrefix = "_gfz"

// TestPrefix is the prefix of the helpers of a package's in-package
// _test.go files (package p, compiled with p's own files in p's test
// binary): they have a probe table and an added file of their own, whose
// names must not collide with those of the package's added file. No name
// with DefaultPrefix starts with TestPrefix.
const TestPrefix = "_gfzT"

// helper returns the name of the helper with the given suffix ("Hit",
// "Blocks", "CmpOn", ...) under prefix ("" meaning DefaultPrefix).
func helper(prefix, suffix string) string {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return prefix + suffix
}

type file struct {
	name string // original file name
	dst  *dst.File
	ids  []idLit
	// directives holds the inline line directives the rewriter added in
	// front of nodes, after those it added after function literals
	// (placeDirectives puts them where they give the right positions).
	directives, after map[string]bool
	lines             *lineNames // the file names of the original's line directives
}

type idLit struct {
	lit   *dst.BasicLit
	probe int
}

// NewPackage starts instrumenting the package with the given import path and
// name. fset and info are those the files were parsed and type-checked with;
// info may be nil (constant && and || operands are then recognised only
// syntactically, and labels only by name).
func NewPackage(path, name string, std bool, fset *token.FileSet, info *types.Info) *Package {
	return &Package{Path: path, Name: name, Std: std, fset: fset, info: info}
}

// ImportsC reports whether f imports "C" (cgo); such files are built
// unchanged.
func ImportsC(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// rawFileSet returns a FileSet holding a copy of tf (same name, base, size
// and lines) without the positions its line directives give: dst lays the
// printed file out by the lines its FileSet reports, and with a file's own
// //line directives applied it merged lines before them that the
// directives' lines happened to match (a multi-line composite literal of
// hcl's Ragel output printed on one line, its elements' lines wrong).
func rawFileSet(tf *token.File) *token.FileSet {
	fset := token.NewFileSet()
	raw := fset.AddFile(tf.Name(), tf.Base(), tf.Size())
	raw.SetLines(tf.Lines())
	return fset
}

// AddFile rewrites f (which must have been parsed with comments, using the
// package's FileSet) and records its probes. The ast.File must not be used
// afterwards.
func (p *Package) AddFile(f *ast.File) error {
	name := p.fset.File(f.Pos()).Name()
	dec := decorator.NewDecorator(rawFileSet(p.fset.File(f.Pos())))
	df, err := dec.DecorateFile(f)
	if err != nil {
		return fmt.Errorf("instrument %s: %w", name, err)
	}
	fl := &file{name: name, dst: df, directives: map[string]bool{}, after: map[string]bool{}, lines: newLineNames(p.fset.File(f.Pos()), f)}
	r := &rewriter{pkg: p, dec: dec, file: fl, astFile: f, nosplit: nosplitFuncs(p.fset, f)}
	r.collectLabels(f)
	r.rewrite()
	p.files = append(p.files, fl)
	return nil
}

// Rendered is one rewritten file.
type Rendered struct {
	Name string // original file name
	Src  []byte // rewritten source
}

// Render prints the rewritten files with probe IDs masked to a map of
// 1<<mapBits entries (IDDigits hex digits each). It may be called more
// than once.
func (p *Package) Render(mapBits int) ([]Rendered, error) {
	t, err := p.Template()
	if err != nil {
		return nil, err
	}
	return t.Render(mapBits), nil
}

// Files returns the names of the files added so far.
func (p *Package) Files() []string {
	var names []string
	for _, f := range p.files {
		names = append(names, f.name)
	}
	return names
}

type labelUse struct{ gotoUse, branchUse bool }

type rewriter struct {
	pkg     *Package
	dec     *decorator.Decorator
	file    *file
	astFile *ast.File

	funcName string
	closures int
	names    []string // enclosing function names while inside closures
	noProbe  int      // > 0 inside //go:nosplit functions
	nosplit  map[*ast.FuncDecl]bool

	labels map[any]*labelUse // keyed by *types.Label or by label name

	// constCalls are the extents of the file's constant len and cap calls
	// (len of an array literal), in which no call may be added: the
	// expression would no longer be constant (constCallsDone: computed).
	constCalls     [][2]token.Pos
	constCallsDone bool
}

// inConstCall reports whether pos lies in a constant len or cap call
// (len([2]bool{v == 1, true}) as an array length): a probe there would
// make it a non-constant expression, which does not compile.
func (r *rewriter) inConstCall(pos token.Pos) bool {
	if !r.constCallsDone {
		r.constCallsDone = true
		if info := r.pkg.info; info != nil && r.astFile != nil {
			ast.Inspect(r.astFile, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
					if _, builtin := info.Uses[id].(*types.Builtin); builtin && info.Types[c].Value != nil {
						r.constCalls = append(r.constCalls, [2]token.Pos{c.Pos(), c.End()})
						return false
					}
				}
				return true
			})
		}
	}
	for _, c := range r.constCalls {
		if pos >= c[0] && pos < c[1] {
			return true
		}
	}
	return false
}

func (r *rewriter) astOf(n dst.Node) ast.Node { return r.dec.Ast.Nodes[n] }

func (r *rewriter) labelKey(id *ast.Ident) any {
	if r.pkg.info != nil {
		if obj := r.pkg.info.Defs[id]; obj != nil {
			return obj
		}
		if obj := r.pkg.info.Uses[id]; obj != nil {
			return obj
		}
	}
	return id.Name
}

func (r *rewriter) collectLabels(f *ast.File) {
	r.labels = map[any]*labelUse{}
	ast.Inspect(f, func(n ast.Node) bool {
		b, ok := n.(*ast.BranchStmt)
		if !ok || b.Label == nil {
			return true
		}
		k := r.labelKey(b.Label)
		u := r.labels[k]
		if u == nil {
			u = &labelUse{}
			r.labels[k] = u
		}
		if b.Tok == token.GOTO {
			u.gotoUse = true
		} else {
			u.branchUse = true
		}
		return true
	})
}

func (r *rewriter) position(pos token.Pos) token.Position { return r.pkg.fset.Position(pos) }

// origin returns the position the compiler gives pos in the original file:
// line directives applied, the file named as the compiler records it (see
// lineNames), column 0 where a directive left it unknown.
func (r *rewriter) origin(pos token.Pos) (token.Position, bool) {
	p := r.position(pos)
	if !p.IsValid() {
		return p, false
	}
	p.Filename = r.file.lines.name(pos, p.Filename)
	return p, true
}

// addProbe records a probe for the source range [from, to) and returns the
// statement that fires it.
func (r *rewriter) addProbe(kind Kind, from, to token.Pos, stmts int) *dst.CallExpr {
	s := r.position(from)
	e := r.position(to)
	if !e.IsValid() {
		e = s
	}
	pr := Probe{
		ID:        ProbeID(r.pkg.Path, baseName(s.Filename), s.Line, s.Column, kind),
		Kind:      kind,
		File:      s.Filename,
		Func:      r.funcName,
		StartLine: s.Line, StartCol: s.Column,
		EndLine: e.Line, EndCol: e.Column,
		Stmts: stmts,
	}
	idx := len(r.pkg.Probes)
	r.pkg.Probes = append(r.pkg.Probes, pr)
	lit := &dst.BasicLit{Kind: token.INT, Value: "0x0"}
	r.file.ids = append(r.file.ids, idLit{lit, idx})
	fn := helper(r.pkg.Prefix, "Hit")
	if kind == KindCond {
		fn = helper(r.pkg.Prefix, "HitE")
	}
	return &dst.CallExpr{
		Fun: dst.NewIdent(fn),
		Args: []dst.Expr{lit, &dst.UnaryExpr{Op: token.AND, X: &dst.IndexExpr{
			X: dst.NewIdent(helper(r.pkg.Prefix, "Blocks")), Index: &dst.BasicLit{Kind: token.INT, Value: fmt.Sprintf("0x%0*x", BlockDigits, idx)},
		}}},
	}
}

func (r *rewriter) probeStmt(kind Kind, from, to token.Pos, stmts int) dst.Stmt {
	s := &dst.ExprStmt{X: r.addProbe(kind, from, to, stmts)}
	s.Decs.Before = dst.NewLine
	s.Decs.After = dst.NewLine
	return s
}

func (r *rewriter) probing() bool { return r.noProbe == 0 }

// lineDirective returns a line directive giving the original position of
// pos to the token printed after it. Statements get an inline
// /*line file:line:col*/ naming the statement's own position, which
// Render puts right for where dst printed it (placeDirectives: one blank
// before the token, or the end of the line before it). Top-level
// declarations, which dst prints on the line after their directive, get
// a //line comment, which go/printer keeps at column 1 as the compiler
// requires. Where the original's own directives left the column unknown
// (//line file:line), the directive has no column either; the file is
// named as the compiler records it (origin).
func (r *rewriter) lineDirective(pos token.Pos, topLevel bool) string {
	p, ok := r.origin(pos)
	if !ok {
		return ""
	}
	if topLevel {
		return directive(false, p.Filename, p.Line, p.Column)
	}
	return r.inlineDirective(p.Filename, p.Line, p.Column)
}

// inlineDirective returns /*line file:line:col*/ (/*line file:line*/ for
// col 0), the position of the token it is for, and records it for
// placeDirectives.
func (r *rewriter) inlineDirective(file string, line, col int) string {
	d := directive(true, file, line, col)
	if d != "" {
		r.file.directives[d] = true
	}
	return d
}

// syncLine makes the printed n start at the original position of its ast node.
func (r *rewriter) syncLine(n dst.Node) { r.sync(n, false) }

func (r *rewriter) sync(n dst.Node, topLevel bool) {
	a := r.astOf(n)
	if a == nil {
		return
	}
	decs := n.Decorations()
	if d := r.lineDirective(a.Pos(), topLevel); d != "" {
		decs.Start = append(decs.Start, d)
	}
}

// syncAfter gives what follows a function literal its original position:
// a literal written on one line (func(x int) bool { return x > 0 }) is
// printed over several once it has a probe, which would move the rest of
// its line (the call's other arguments) and the lines after it down.
func (r *rewriter) syncAfter(lit *dst.FuncLit) {
	a, ok := r.astOf(lit).(*ast.FuncLit)
	if !ok || !r.probing() {
		return
	}
	p, ok := r.origin(a.End())
	if !ok {
		return
	}
	// The position right after the brace, for what follows it on its
	// line (placeDirectives counts the blank go/printer puts between the
	// directive and that); at the end of a printed line it goes to the
	// line break, and the next line is the original next line.
	if d := directive(true, p.Filename, p.Line, p.Column); d != "" {
		r.file.after[d] = true
		lit.Decs.End = append(lit.Decs.End, d)
	}
}

// syncEnd gives the closing brace of a function body, on the line after
// its last statement, its original position (deferred calls run there),
// also when the original has it on the line of its last statement (the
// probes spread the body over several lines: `func f() { defer g(); h() }`
// put its deferred calls on a later line); pruneDirectives removes the
// directive where the line is right anyway.
func (r *rewriter) syncEnd(body *dst.BlockStmt) {
	ab, ok := r.astOf(body).(*ast.BlockStmt)
	if !ok || len(body.List) == 0 || !ab.Rbrace.IsValid() {
		return
	}
	rb, ok := r.origin(ab.Rbrace)
	if !ok {
		return
	}
	last := body.List[len(body.List)-1]
	d := r.inlineDirective(rb.Filename, rb.Line, rb.Column)
	if d == "" {
		return
	}
	decs := last.Decorations()
	decs.End = append(decs.End, d)
	decs.After = dst.NewLine
}

// nosplitFuncs returns the functions of f that cmd/compile makes
// //go:nosplit: it applies a directive (a //go: comment at the start of a
// line) to the next declaration whatever comes between (blank lines,
// other comments), so a directive anywhere after the previous declaration
// counts, not only in the doc comment.
func nosplitFuncs(fset *token.FileSet, f *ast.File) map[*ast.FuncDecl]bool {
	var out map[*ast.FuncDecl]bool
	prev := f.Name.End()
	ci := 0
	for _, d := range f.Decls {
		for ; ci < len(f.Comments) && f.Comments[ci].End() <= d.Pos(); ci++ {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || f.Comments[ci].Pos() < prev {
				continue
			}
			for _, c := range f.Comments[ci].List {
				if (c.Text == "//go:nosplit" || strings.HasPrefix(c.Text, "//go:nosplit ")) && fset.PositionFor(c.Slash, false).Column == 1 {
					if out == nil {
						out = map[*ast.FuncDecl]bool{}
					}
					out[fd] = true
				}
			}
		}
		prev = d.End()
	}
	return out
}

func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	if star {
		return "(*" + name + ")." + fd.Name.Name
	}
	return name + "." + fd.Name.Name
}

func (r *rewriter) rewrite() {
	for _, d := range r.file.dst.Decls {
		r.sync(d, true)
		if gd, ok := d.(*dst.GenDecl); ok && gd.Lparen {
			for _, s := range gd.Specs {
				r.syncLine(s)
			}
		}
	}
	dstutil.Apply(r.file.dst, r.pre, r.post)
}

func (r *rewriter) pre(c *dstutil.Cursor) bool {
	switch n := c.Node().(type) {
	case *dst.FuncDecl:
		fd, _ := r.astOf(n).(*ast.FuncDecl)
		if fd == nil {
			return false
		}
		r.funcName = recvName(fd)
		r.closures = 0
		if r.nosplit[fd] {
			r.noProbe++
		}
	case *dst.FuncLit:
		r.closures++
		parent := r.funcName
		if parent == "" {
			parent = "glob"
		}
		r.names = append(r.names, r.funcName)
		r.funcName = fmt.Sprintf("%s.func%d", parent, r.closures)
	}
	return true
}

func (r *rewriter) post(c *dstutil.Cursor) bool {
	switch n := c.Node().(type) {
	case *dst.FuncDecl:
		if n.Body != nil {
			r.funcEntry(n.Body)
		}
		fd, _ := r.astOf(n).(*ast.FuncDecl)
		if fd != nil && r.nosplit[fd] {
			r.noProbe--
		}
		r.funcName = ""
	case *dst.FuncLit:
		r.funcEntry(n.Body)
		r.syncAfter(n)
		r.funcName = r.names[len(r.names)-1]
		r.names = r.names[:len(r.names)-1]
	case *dst.BlockStmt:
		n.List = r.stmtList(n.List)
	case *dst.CaseClause:
		n.Body = r.stmtList(n.Body) // the clause itself is synced by its switch's stmtList
	case *dst.CommClause:
		n.Body = r.stmtList(n.Body)
	case *dst.IfStmt:
		r.ifStmt(n)
	case *dst.SwitchStmt:
		r.switchBody(n.Body, n)
		r.cmpSwitch(c, n)
	case *dst.TypeSwitchStmt:
		r.switchBody(n.Body, n)
	case *dst.SelectStmt:
		for _, s := range n.Body.List {
			cc := s.(*dst.CommClause)
			if a, ok := r.astOf(cc).(*ast.CommClause); ok && r.probing() {
				cc.Body = prepend(r.probeStmt(KindSelect, a.Colon+1, a.End(), len(a.Body)), cc.Body)
			}
		}
	case *dst.ForStmt:
		r.loopBody(n.Body)
	case *dst.RangeStmt:
		r.loopBody(n.Body)
	case *dst.BinaryExpr:
		if r.cmpBinary(c, n) {
			return true
		}
		if (n.Op == token.LAND || n.Op == token.LOR) && r.probing() {
			r.condRHS(n)
		}
	}
	return true
}

func prepend(s dst.Stmt, list []dst.Stmt) []dst.Stmt {
	return append([]dst.Stmt{s}, list...)
}

func blockRange(b *ast.BlockStmt) (token.Pos, token.Pos) {
	return b.Lbrace, b.Rbrace + 1
}

func (r *rewriter) blockProbe(kind Kind, body *dst.BlockStmt) {
	ab, ok := r.astOf(body).(*ast.BlockStmt)
	if !ok || !r.probing() {
		return
	}
	from, to := blockRange(ab)
	body.List = prepend(r.probeStmt(kind, from, to, len(ab.List)), body.List)
}

func (r *rewriter) funcEntry(body *dst.BlockStmt) {
	r.blockProbe(KindFunc, body)
	r.syncEnd(body)
}

func (r *rewriter) loopBody(body *dst.BlockStmt) { r.blockProbe(KindLoop, body) }

func (r *rewriter) ifStmt(n *dst.IfStmt) {
	ai, ok := r.astOf(n).(*ast.IfStmt)
	if !ok {
		return
	}
	r.blockProbe(KindThen, n.Body)
	switch e := n.Else.(type) {
	case nil:
		if r.probing() {
			end := ai.End()
			n.Else = &dst.BlockStmt{List: []dst.Stmt{r.probeStmt(KindImplicit, end, end, 0)}}
		}
	case *dst.BlockStmt:
		r.blockProbe(KindElse, e)
	case *dst.IfStmt:
		r.syncLine(e)
	}
}

func (r *rewriter) switchBody(body *dst.BlockStmt, sw dst.Node) {
	if !r.probing() {
		return
	}
	hasDefault := false
	for _, s := range body.List {
		cc := s.(*dst.CaseClause)
		if cc.List == nil {
			hasDefault = true
		}
		ac, ok := r.astOf(cc).(*ast.CaseClause)
		if !ok {
			continue
		}
		cc.Body = prepend(r.probeStmt(KindCase, ac.Colon+1, ac.End(), len(ac.Body)), cc.Body)
	}
	if !hasDefault {
		var end token.Pos
		switch a := r.astOf(sw).(type) {
		case *ast.SwitchStmt:
			end = a.Body.Rbrace
		case *ast.TypeSwitchStmt:
			end = a.Body.Rbrace
		default:
			return
		}
		cc := &dst.CaseClause{Body: []dst.Stmt{r.probeStmt(KindDefault, end, end, 0)}}
		cc.Decs.Before = dst.NewLine
		cc.Decs.After = dst.NewLine
		body.List = append(body.List, cc)
	}
}

// condRHS replaces the right operand y of x && y or x || y with
// (_gfzHitE(...) && y), unless the expression is constant or its type is
// not the predeclared bool (a named boolean type would not mix with HitE's
// bool result).
func (r *rewriter) condRHS(n *dst.BinaryExpr) {
	ab, ok := r.astOf(n).(*ast.BinaryExpr)
	if !ok || r.inConstCall(ab.Pos()) {
		return
	}
	if info := r.pkg.info; info != nil {
		tv, ok := info.Types[ab]
		if !ok || tv.Value != nil {
			return
		}
		if b, ok := tv.Type.(*types.Basic); !ok || (b.Kind() != types.Bool && b.Kind() != types.UntypedBool) {
			return
		}
		if tvy, ok := info.Types[ab.Y]; ok && tvy.Value != nil {
			return // constant right operand: nothing to branch on
		}
	}
	y := n.Y
	// A line break before the operand (a condition written over several
	// lines) moves to the wrapper, so that the operand keeps its line.
	before := y.Decorations().Before
	y.Decorations().Before = dst.None
	if _, bin := y.(*dst.BinaryExpr); bin {
		y = &dst.ParenExpr{X: y}
	}
	wrap := &dst.ParenExpr{X: &dst.BinaryExpr{
		X:  r.addProbe(KindCond, ab.Y.Pos(), ab.Y.End(), 0),
		Op: token.LAND,
		Y:  y,
	}}
	wrap.Decs.Before = before
	n.Y = wrap
}

// stmtList adds line directives to the original statements of a list, the
// loop-exit probes after loops that can exit, and probes at labels that a
// goto targets.
func (r *rewriter) stmtList(list []dst.Stmt) []dst.Stmt {
	out := make([]dst.Stmt, 0, len(list))
	for _, s := range list {
		orig := r.astOf(s)
		if orig == nil { // inserted by us
			out = append(out, s)
			continue
		}
		r.syncLine(s)
		if ls, ok := s.(*dst.LabeledStmt); ok && r.probing() {
			als := orig.(*ast.LabeledStmt)
			if u := r.labels[r.labelKey(als.Label)]; u != nil && u.gotoUse && !u.branchUse {
				// L: stmt  =>  L: probe; stmt
				inner := ls.Stmt
				ls.Stmt = r.probeStmt(KindLabel, als.Pos(), als.Colon+1, 0)
				out = append(out, ls)
				if _, empty := inner.(*dst.EmptyStmt); !empty {
					inner.Decorations().Before = dst.NewLine
					r.syncLine(inner) // it follows the probe now, not its label
					out = append(out, inner)
				}
				out = r.loopExit(out, orig)
				continue
			}
		}
		if ls, ok := s.(*dst.LabeledStmt); ok {
			// gofmt's printer puts the statement on the line after its
			// label, also when the original has `L: for ...` on one.
			r.syncLine(ls.Stmt)
		}
		out = append(out, s)
		out = r.loopExit(out, orig)
	}
	return out
}

// loopExit appends the loop-exit probe of orig to out if orig is a loop
// that can exit.
func (r *rewriter) loopExit(out []dst.Stmt, orig ast.Node) []dst.Stmt {
	if r.probing() && r.loopCanExit(orig) {
		end := orig.End()
		out = append(out, r.probeStmt(KindLoopExit, end, end, 0))
	}
	return out
}

// loopCanExit reports whether s is a loop (possibly labelled) after which
// control can continue: a for with a condition, a range loop, or a for
// without condition that contains a break targeting it. Adding a statement
// after a terminating loop would break "missing return" analysis.
func (r *rewriter) loopCanExit(s ast.Node) bool {
	var label *ast.Ident
	if ls, ok := s.(*ast.LabeledStmt); ok {
		label, s = ls.Label, ls.Stmt
	}
	switch l := s.(type) {
	case *ast.RangeStmt:
		return true
	case *ast.ForStmt:
		if l.Cond != nil {
			return true
		}
		return r.hasBreak(l.Body, label)
	}
	return false
}

func (r *rewriter) hasBreak(body *ast.BlockStmt, label *ast.Ident) bool {
	var key any
	if label != nil {
		key = r.labelKey(label)
	}
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n && !nested {
					walk(m, true)
					return false
				}
			case *ast.BranchStmt:
				if x.Tok != token.BREAK {
					return true
				}
				if x.Label == nil {
					if !nested {
						found = true
					}
				} else if key != nil && r.labelKey(x.Label) == key {
					found = true
				}
			}
			return true
		})
	}
	walk(body, false)
	return found
}

// RegistrationFileName is the name of the file added to every instrumented
// package. It is chosen not to collide with user files (see
// build.registrationName for the collision check).
const RegistrationFileName = "zz_gfz_probes.go"

// RegistrationSource returns the added file of the package: _gfzBlocks, the
// probe helpers and the init function registering the probe table. For
// standard-library packages (which may not import gfz's runtime) the map,
// the previous-location register and the package registry are reached with
// //go:linkname on variables, and the probe helpers are local copies of
// runtime.Hit/HitE.
func (p *Package) RegistrationSource(mapBits int) []byte {
	t := Template{Path: p.Path, Name: p.Name, Std: p.Std, Prefix: p.Prefix, Probes: p.Probes, CmpSites: p.CmpSites}
	return t.RegistrationSource(mapBits)
}

// RegistrationSource returns the added file of the package, as
// Package.RegistrationSource does.
func (p *Template) RegistrationSource(mapBits int) []byte {
	var b bytes.Buffer
	n := len(p.Probes)
	table := strconv.Quote(EncodeTable(p.Probes))
	fmt.Fprintf(&b, "// Code generated by gfz-build. DO NOT EDIT.\n\npackage %s\n\n", p.Name)
	if !p.Std {
		blocks, hit := helper(p.Prefix, "Blocks"), helper(p.Prefix, "Hit")
		fmt.Fprintf(&b, `import _gfzrt %[1]q

var %[5]s [%[2]d]uint8

//go:norace
func %[6]s(id uint32, b *uint8) { _gfzrt.Hit(id, b) }

//go:norace
func %[6]sE(id uint32, b *uint8) bool { return _gfzrt.HitE(id, b) }

func init() { _gfzrt.Register(%[3]q, %[5]s[:], %[4]s) }
`, RuntimePath, n, p.Path, table, blocks, hit)
		b.Write(p.cmpSource())
		return b.Bytes()
	}
	fmt.Fprintf(&b, `import _ "unsafe"

// The runtime's variables, shared through the linker: both definitions are
// zero-initialised (BSS) symbols of equal size, which the linker merges.

//go:linkname _gfzMap %[1]s.Map
var _gfzMap [1 << %[2]d]uint8

//go:linkname _gfzPrev %[1]s.prev
var _gfzPrev uint32

type _gfzPackage struct {
	Path   string
	Blocks []uint8
	Table  string
}

//go:linkname _gfzPackages %[1]s.packages
var _gfzPackages []_gfzPackage

var _gfzBlocks [%[3]d]uint8

//go:norace
func _gfzHit(cur uint32, b *uint8) {
	_gfzMap[(cur^_gfzPrev)&(1<<%[2]d-1)]++
	_gfzPrev = cur >> 1
	*b = 1
}

//go:norace
func _gfzHitE(cur uint32, b *uint8) bool {
	_gfzMap[(cur^_gfzPrev)&(1<<%[2]d-1)]++
	_gfzPrev = cur >> 1
	*b = 1
	return true
}

func init() {
	_gfzPackages = append(_gfzPackages, _gfzPackage{%[4]q, _gfzBlocks[:], %[5]s})
}
`, RuntimePath, mapBits, n, p.Path, table)
	b.Write(p.cmpSource())
	return b.Bytes()
}
