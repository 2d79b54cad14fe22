package instrument_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
	"github.com/gfz-dev/gfz/cover"
)

const src = `package p

//go:noinline
func F(a, b bool, x any) int {
	if a && b {
		return 1
	}
	switch x.(type) {
	case int:
	}
	for {
		if a {
			break
		}
	}
	const c = true || false
	return 0
}
`

func rewrite(t testing.TB, src string) (*instrument.Package, string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/src/p/p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	p := instrument.NewPackage("example.com/p", "p", false, fset, info)
	if err := p.AddFile(f); err != nil {
		t.Fatal(err)
	}
	out, err := p.Render(16)
	if err != nil {
		t.Fatal(err)
	}
	return p, string(out[0].Src)
}

func TestRewrite(t *testing.T) {
	p, out := rewrite(t, src)
	kinds := map[instrument.Kind]int{}
	for _, pr := range p.Probes {
		kinds[pr.Kind]++
		if pr.Func != "F" || pr.File != "/src/p/p.go" {
			t.Errorf("probe %+v", pr)
		}
	}
	want := map[instrument.Kind]int{
		instrument.KindFunc: 1, instrument.KindThen: 2, instrument.KindImplicit: 2, instrument.KindCond: 1,
		instrument.KindCase: 1, instrument.KindDefault: 1, instrument.KindLoop: 1, instrument.KindLoopExit: 1,
	}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("probe kinds %v, want %v\n%s", kinds, want, out)
	}
	for _, s := range []string{
		"//go:noinline\n//line /src/p/p.go:4:1\nfunc F(",
		"if a && (_gfzHitE(",
		"const c = true || false",                                         // constant: untouched
		"/*line /src/p/p.go:16:1*/ const c = true || false\n\treturn 0\n", // return 0's directive would repeat const's
		"\tcase int: _gfzHit(",                                            // the probe on its clause's line
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	// The printed IDs are the probe IDs masked to the map size.
	if !strings.Contains(out, fmt.Sprintf("(0x%08x, &_gfzBlocks[0x000000])", p.Probes[0].ID&0xffff)) {
		t.Errorf("ID of probe 0 not printed masked:\n%s", out)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "out.go", out, parser.ParseComments); err != nil {
		t.Errorf("output does not parse: %v\n%s", err, out)
	}
}

func TestTableRoundTrip(t *testing.T) {
	p, _ := rewrite(t, src)
	blocks, err := cover.Decode("example.com/p", instrument.EncodeTable(p.Probes))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != len(p.Probes) {
		t.Fatalf("%d blocks for %d probes", len(blocks), len(p.Probes))
	}
	for i, b := range blocks {
		pr := p.Probes[i]
		if b.File != "example.com/p/p.go" || b.Func != pr.Func || b.StartLine != pr.StartLine || b.StartCol != pr.StartCol ||
			b.EndLine != pr.EndLine || b.EndCol != pr.EndCol || b.Stmts != pr.Stmts || b.Kind != uint8(pr.Kind) {
			t.Errorf("block %d = %+v, probe %+v", i, b, pr)
		}
	}
}

func TestProbeIDDeterministic(t *testing.T) {
	a := instrument.ProbeID("p", "f.go", 10, 2, instrument.KindThen)
	if a != instrument.ProbeID("p", "f.go", 10, 2, instrument.KindThen) {
		t.Fatal("not deterministic")
	}
	seen := map[uint32]bool{a: true}
	for _, id := range []uint32{
		instrument.ProbeID("q", "f.go", 10, 2, instrument.KindThen),
		instrument.ProbeID("p", "g.go", 10, 2, instrument.KindThen),
		instrument.ProbeID("p", "f.go", 11, 2, instrument.KindThen),
		instrument.ProbeID("p", "f.go", 10, 3, instrument.KindThen),
		instrument.ProbeID("p", "f.go", 10, 2, instrument.KindElse),
	} {
		if seen[id] {
			t.Errorf("ID collision %#x", id)
		}
		seen[id] = true
	}
}

func ExamplePackage_Render() {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "/m/p/abs.go", "package p\n\nfunc Abs(x int) int {\n\tif x < 0 {\n\t\treturn -x\n\t}\n\treturn x\n}\n", parser.ParseComments)
	p := instrument.NewPackage("example.com/p", "p", false, fset, nil)
	_ = p.AddFile(f)
	out, _ := p.Render(16)
	fmt.Print(string(out[0].Src))
	// Output:
	// package p
	//
	// //line /m/p/abs.go:3:1
	// func Abs(x int) int { _gfzHit(0x0000a250, &_gfzBlocks[0x000002])
	// 	if x < 0 { _gfzHit(0x0000ab96, &_gfzBlocks[0x000000])
	// 		return -x
	// 	} else { _gfzHit(0x0000a021, &_gfzBlocks[0x000001]) }
	// 	return x
	// }
}

// TestStatementLines: every original statement of the rewritten file is
// at its original line as the compiler sees it (line directives applied),
// also one preceded by comment lines, by a block comment on its own line,
// or by a block comment on its line, and the statements of a case.
func TestStatementLines(t *testing.T) {
	const src = `package p

func G(s string, r int) (x int) {
	x = 1
	// one
	// two
	x += len(s[r+1 : r+9])
	/* own line */
	x += 3
	/* inline */ x += 4
	switch r {
	case 1:
		// comment in a case
		x += 5

		// after a blank line
		x += 6
	}

	x += 7
	y := []int{
		x,
		len(s[r:]),
	}

	/* inline after a blank line */ x += 8
	return y[0]
}
`
	_, out := rewrite(t, src)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "out.go", out, parser.ParseComments)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := map[string]int{"x = 1": 4, "x += len(s[r+1 : r+9])": 7, "x += 3": 9, "x += 4": 10, "x += 5": 14, "x += 6": 17,
		"x += 7": 20, "len(s[r:])": 23, "x += 8": 26, "return y[0]": 27}
	got := map[string]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt, *ast.ReturnStmt, *ast.CallExpr:
			var b strings.Builder
			if err := printer.Fprint(&b, token.NewFileSet(), s); err == nil {
				got[b.String()] = fset.Position(s.Pos()).Line
			}
		}
		return true
	})
	for stmt, line := range want {
		if got[stmt] != line {
			t.Errorf("%q at line %d, want %d\n%s", stmt, got[stmt], line, out)
		}
	}
}

// TestOneLineEnds: the closing brace of a function or a closure written on
// one line with its statements keeps its line (deferred calls are reported
// there), and a statement on the line of its label keeps that line (gofmt's
// printer puts it on the next); found by a probing helper, stack lines one
// off before.
func TestOneLineEnds(t *testing.T) {
	const src = `package p

func check(b []byte) {}

func OneLine(b []byte) { defer check(b); _ = len(b) }

func Lit(b []byte) {
	func() { defer check(b); _ = len(b) }()
}

func Label(b []byte) {
	L: for i := 0; i < 1 && len(b) > 0; i++ { continue L }
}
`
	_, out := rewrite(t, src)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "out.go", out, parser.ParseComments)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var ends []int
	var forLine int
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			ends = append(ends, fset.Position(n.Body.Rbrace).Line)
		case *ast.FuncLit:
			ends = append(ends, fset.Position(n.Body.Rbrace).Line)
		case *ast.ForStmt:
			forLine = fset.Position(n.For).Line
		}
		return true
	})
	// check, OneLine, Lit, its closure, Label.
	if want := []int{3, 5, 9, 8, 13}; !slices.Equal(ends, want) || forLine != 12 {
		t.Errorf("closing braces at lines %v, want %v; for at line %d, want 12\n%s", ends, want, forLine, out)
	}
}

// TestLinesBeforeOwnDirective: a //line directive of the file does not
// change how dst lays out the code before it: a multi-line literal whose
// lines the directive's happen to match stays on its lines (it was printed
// on one, hcl's Ragel output among others; found by a probing helper).
func TestLinesBeforeOwnDirective(t *testing.T) {
	const src = `package p

func boom(b []byte) int { return 0 }

func Target(b []byte) []int {
	return []int{
		1,
		2,
		boom(b),
	}
}

//line gen.rl:6
func F() {
	/* a
	b
	c */
}
`
	_, out := rewrite(t, src)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "out.go", out, parser.ParseComments)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	line := 0
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "boom" {
				line = fset.Position(c.Pos()).Line
			}
		}
		return true
	})
	if line != 9 {
		t.Errorf("boom(b) at line %d, want 9\n%s", line, out)
	}
}

// TestNosplitDirective: a //go:nosplit function gets no probe, wherever
// its directive stands after the previous declaration: cmd/compile applies
// it to the next declaration across blank lines and other comments
// (checked: go build -gcflags=-S marks such a function NOSPLIT), so a
// probe added there could overflow the nosplit stack limit at link time.
func TestNosplitDirective(t *testing.T) {
	const src = `package p

var v int

//go:nosplit
func A(x int) int { if x > 0 { return 1 }; return 0 }

//go:nosplit

func B(x int) int { if x > 0 { return 1 }; return 0 }

//go:nosplit

// C does nothing much.
func C(x int) int { if x > 0 { return 1 }; return 0 }

func D(x int) int { if x > 0 { return 1 }; return 0 } //go:nosplit (not at a line's start: no directive)

func E(x int) int { if x > 0 { return 1 }; return 0 }

//line gen.go:100
//go:nosplit
func G(x int) int { if x > 0 { return 1 }; return 0 }
`
	p, out := rewrite(t, src)
	funcs := map[string]int{}
	for _, pr := range p.Probes {
		funcs[pr.Func]++
	}
	for _, f := range []string{"A", "B", "C", "G"} {
		if funcs[f] != 0 {
			t.Errorf("//go:nosplit %s got %d probes:\n%s", f, funcs[f], out)
		}
	}
	for _, f := range []string{"D", "E"} {
		if funcs[f] == 0 {
			t.Errorf("%s (not nosplit) got no probe:\n%s", f, out)
		}
	}
}

// TestGotoLabelledLoopExit: a loop whose label only goto targets gets its
// label probe and its loop-exit probe (the label's rewrite skipped the
// latter), and still builds.
func TestGotoLabelledLoopExit(t *testing.T) {
	const src = `package p

func F(n int) int {
	i := 0
	if n < 0 {
		goto L
	}
	n++
L:
	for i < n {
		i++
	}
	return i
}
`
	p, out := rewrite(t, src)
	kinds := map[instrument.Kind]int{}
	for _, pr := range p.Probes {
		kinds[pr.Kind]++
	}
	if kinds[instrument.KindLabel] != 1 || kinds[instrument.KindLoopExit] != 1 || kinds[instrument.KindLoop] != 1 {
		t.Errorf("probe kinds %v, want one label, one loop and one loop-exit probe:\n%s", kinds, out)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "out.go", out, parser.ParseComments); err != nil {
		t.Errorf("output does not parse: %v\n%s", err, out)
	}
}

// TestKindsMatchCover: package cover, which reads the probe tables in the
// fuzz binary (the library cannot import this package), numbers and names
// the probe kinds as Kind does.
func TestKindsMatchCover(t *testing.T) {
	for k := instrument.KindFunc; k <= instrument.KindLabel; k++ {
		if got := cover.KindName(uint8(k)); got != k.String() {
			t.Errorf("kind %d: cover names it %q, instrument %q", k, got, k)
		}
	}
}
