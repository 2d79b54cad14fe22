package cover_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cover"
)

// Probe kinds, as instrument.Kind numbers them.
const (
	kFunc = iota + 1
	kThen
	kElse
	kImplicit
	kCase
	kDefault
	kSelect
	kLoop
	kLoopExit
	kCond
	kLabel
)

// treeSrc is bst.go's Delete (without its comment), valid and Keys, and a
// type switch.
const treeSrc = `package p

type Node struct {
	Key         int
	Left, Right *Node
}

func Delete(n *Node, key int) *Node {
	if n == nil {
		return nil
	}
	switch {
	case key < n.Key:
		n.Left = Delete(n.Left, key)
		return n
	case key > n.Key:
		n.Right = Delete(n.Right, key)
		return n
	}
	if n.Left == nil {
		return n.Right
	}
	if n.Right == nil {
		return n.Left
	}
	if n.Right.Left == nil {
		n.Key = n.Right.Key
		n.Right = n.Right.Right
		return n
	}
	parent := n.Right
	succ := parent.Left
	for succ.Left != nil {
		parent, succ = succ, succ.Left
	}
	n.Key = succ.Key
	parent.Left = nil
	return n
}

func valid(n *Node, lo, hi *int) bool {
	if n == nil {
		return true
	}
	if lo != nil && n.Key <= *lo {
		return false
	}
	return valid(n.Left, lo, &n.Key) && valid(n.Right, &n.Key, hi)
}

func Keys(n *Node) []int {
	var out []int
	var walk func(*Node)
	walk = func(n *Node) {
		if n == nil {
			return
		}
		walk(n.Left)
		out = append(out, n.Key)
		walk(n.Right)
	}
	walk(n)
	return out
}

func Kind(v any) int {
	k := 0
	switch v.(type) {
	case int:
		k = 1
	case string:
		k = 2
	default:
		k = 3
	}
	for i := 0; i < k; i++ {
		k += i
	}
	return k
}
`

// treeGoTest is what `go test -coverprofile` writes for treeSrc (counts
// zeroed).
const treeGoTest = `mode: set
example.com/p/p.go:8.37,9.14 1 0
example.com/p/p.go:9.14,11.3 1 0
example.com/p/p.go:12.2,12.9 1 0
example.com/p/p.go:13.19,15.11 2 0
example.com/p/p.go:16.19,18.11 2 0
example.com/p/p.go:20.2,20.19 1 0
example.com/p/p.go:20.19,22.3 1 0
example.com/p/p.go:23.2,23.20 1 0
example.com/p/p.go:23.20,25.3 1 0
example.com/p/p.go:26.2,26.25 1 0
example.com/p/p.go:26.25,30.3 3 0
example.com/p/p.go:31.2,33.23 3 0
example.com/p/p.go:33.23,35.3 1 0
example.com/p/p.go:36.2,38.10 3 0
example.com/p/p.go:41.39,42.14 1 0
example.com/p/p.go:42.14,44.3 1 0
example.com/p/p.go:45.2,45.31 1 0
example.com/p/p.go:45.31,47.3 1 0
example.com/p/p.go:48.2,48.64 1 0
example.com/p/p.go:51.26,54.23 3 0
example.com/p/p.go:54.23,55.15 1 0
example.com/p/p.go:55.15,57.4 1 0
example.com/p/p.go:58.3,60.16 3 0
example.com/p/p.go:62.2,63.12 2 0
example.com/p/p.go:66.22,68.18 2 0
example.com/p/p.go:69.11,70.8 1 0
example.com/p/p.go:71.14,72.8 1 0
example.com/p/p.go:73.10,74.8 1 0
example.com/p/p.go:76.2,76.25 1 0
example.com/p/p.go:76.25,78.3 1 0
example.com/p/p.go:79.2,79.10 1 0
`

// signSrc has an else if chain.
const signSrc = `package p

func Sign(x int) string {
	s := ""
	if x < 0 {
		s = "-"
	} else if x > 0 {
		s = "+"
	} else {
		s = "0"
	}
	return s
}
`

// probes returns the probe blocks gfz-build's instrumenter gives src
// (file example.com/p/p.go), none hit: function bodies, then / else /
// implicit else, case clauses and the implicit default, loop bodies and
// loop exits, right operands of && and ||.
func probes(t *testing.T, src string) []cover.Block {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []cover.Block
	fn := ""
	add := func(kind uint8, from, to token.Pos, stmts int) {
		s, e := fset.Position(from), fset.Position(to)
		out = append(out, cover.Block{File: "example.com/p/p.go", Func: fn, StartLine: s.Line, StartCol: s.Column,
			EndLine: e.Line, EndCol: e.Column, Stmts: stmts, Kind: kind})
	}
	block := func(kind uint8, b *ast.BlockStmt) { add(kind, b.Lbrace, b.Rbrace+1, len(b.List)) }
	clauses := func(body *ast.BlockStmt) {
		def := false
		for _, s := range body.List {
			cc := s.(*ast.CaseClause)
			def = def || cc.List == nil
			add(kCase, cc.Colon+1, cc.End(), len(cc.Body))
		}
		if !def {
			add(kDefault, body.Rbrace, body.Rbrace, 0)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fn = n.Name.Name
			block(kFunc, n.Body)
		case *ast.FuncLit:
			block(kFunc, n.Body)
		case *ast.IfStmt:
			block(kThen, n.Body)
			switch e := n.Else.(type) {
			case nil:
				add(kImplicit, n.End(), n.End(), 0)
			case *ast.BlockStmt:
				block(kElse, e)
			}
		case *ast.SwitchStmt:
			clauses(n.Body)
		case *ast.TypeSwitchStmt:
			clauses(n.Body)
		case *ast.ForStmt:
			block(kLoop, n.Body)
			add(kLoopExit, n.End(), n.End(), 0)
		case *ast.RangeStmt:
			block(kLoop, n.Body)
			add(kLoopExit, n.End(), n.End(), 0)
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				add(kCond, n.Y.Pos(), n.Y.End(), 0)
			}
		}
		return true
	})
	return out
}

// fire sets the hit of every block for which hit is true.
func fire(blocks []cover.Block, hit func(b cover.Block) bool) []cover.Block {
	for i := range blocks {
		blocks[i].Hit = hit(blocks[i])
	}
	return blocks
}

// at reports whether b is the probe of kind at line.
func at(b cover.Block, kind uint8, line int) bool { return b.Kind == kind && b.StartLine == line }

type profBlock struct {
	file                                 string
	startLine, startCol, endLine, endCol int
	stmts, count                         int
}

func (b profBlock) String() string {
	return fmt.Sprintf("%s:%d.%d,%d.%d %d %d", b.file, b.startLine, b.startCol, b.endLine, b.endCol, b.stmts, b.count)
}

func (b profBlock) startsBefore(line, col int) bool {
	return b.startLine < line || b.startLine == line && b.startCol < col
}

// contains reports whether position line.col is in b.
func (b profBlock) contains(line, col int) bool {
	return !b.startsAfter(line, col) && (line < b.endLine || line == b.endLine && col < b.endCol)
}

func (b profBlock) startsAfter(line, col int) bool {
	return b.startLine > line || b.startLine == line && b.startCol > col
}

// writeProfile writes blocks with WriteBlocks and parses the profile as
// golang.org/x/tools/cover does (the format `name.go:l.c,l.c stmts
// count`).
func writeProfile(t *testing.T, blocks []cover.Block) []profBlock {
	t.Helper()
	var buf bytes.Buffer
	if err := cover.WriteBlocks(&buf, blocks); err != nil {
		t.Fatal(err)
	}
	return parseProfile(t, buf.String())
}

func parseProfile(t *testing.T, text string) []profBlock {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if lines[0] != "mode: set" {
		t.Fatalf("mode line %q", lines[0])
	}
	var out []profBlock
	for _, l := range lines[1:] {
		var b profBlock
		i := strings.LastIndexByte(l, ':')
		f := strings.FieldsFunc(l[i+1:], func(r rune) bool { return r == '.' || r == ',' || r == ' ' })
		if i <= 0 || len(f) != 6 {
			t.Fatalf("bad profile line %q", l)
		}
		b.file = l[:i]
		for j, p := range []*int{&b.startLine, &b.startCol, &b.endLine, &b.endCol, &b.stmts, &b.count} {
			v, err := strconv.Atoi(f[j])
			if err != nil || v < 0 {
				t.Fatalf("bad profile line %q", l)
			}
			*p = v
		}
		out = append(out, b)
	}
	return out
}

// checkDisjoint checks that the blocks of a profile are sorted by file and
// position, non-empty, and do not overlap.
func checkDisjoint(t *testing.T, prof []profBlock) {
	t.Helper()
	for i, b := range prof {
		if !b.startsBefore(b.endLine, b.endCol) {
			t.Errorf("empty block %v", b)
		}
		if i == 0 || prof[i-1].file != b.file {
			if i > 0 && prof[i-1].file > b.file {
				t.Errorf("files not sorted: %v after %v", b, prof[i-1])
			}
			continue
		}
		if a := prof[i-1]; b.startsBefore(a.endLine, a.endCol) {
			t.Errorf("blocks overlap: %v and %v", a, b)
		}
	}
}

// stmtsByFile sums the statements of blocks by file.
func stmtsByFile(blocks []cover.Block) map[string]int {
	m := map[string]int{}
	for _, b := range blocks {
		m[b.File] += b.Stmts
	}
	return m
}

func profStmtsByFile(prof []profBlock) map[string]int {
	m := map[string]int{}
	for _, b := range prof {
		m[b.file] += b.stmts
	}
	return m
}

// blockAt returns the blocks of prof that contain line.col.
func blockAt(prof []profBlock, line, col int) []profBlock {
	var out []profBlock
	for _, b := range prof {
		if b.contains(line, col) {
			out = append(out, b)
		}
	}
	return out
}

// TestProfileNested: a function whose guard `if n == nil { return nil }`
// never ran. The profile's blocks do not overlap, keep the statements of
// every file, the guard's block has count 0 and the function's other
// statements count 1.
func TestProfileNested(t *testing.T) {
	blocks := fire(probes(t, treeSrc), func(b cover.Block) bool { return !at(b, kThen, 9) })
	prof := writeProfile(t, blocks)
	checkDisjoint(t, prof)
	if got, want := profStmtsByFile(prof), stmtsByFile(blocks); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("statements by file %v, want %v", got, want)
	}
	guard := blockAt(prof, 10, 3) // return nil
	if len(guard) != 1 || guard[0].count != 0 || guard[0].stmts != 1 {
		t.Fatalf("guard's blocks %v, want one with count 0 and 1 statement; profile:\n%s", guard, profText(prof))
	}
	stmts := 0
	for _, b := range prof {
		if b.startLine >= 8 && b.endLine <= 39 && b != guard[0] {
			stmts += b.stmts
			if b.count != 1 {
				t.Errorf("block %v of Delete: count %d, want 1", b, b.count)
			}
		}
	}
	if stmts != 21 {
		t.Errorf("Delete's other blocks have %d statements, want 21", stmts)
	}
	if t.Failed() {
		t.Logf("profile:\n%s", profText(prof))
	}
}

func profText(prof []profBlock) string {
	var b strings.Builder
	for _, p := range prof {
		fmt.Fprintln(&b, p)
	}
	return b.String()
}

// htmlBoundaries walks src as golang.org/x/tools/cover's
// Profile.Boundaries does (which `go tool cover -html` uses to paint a
// file): blocks sorted by start, identical ones merged, then one pass over
// the source in which a block's start is seen only if the scan has not
// gone past it. It returns the boundaries in order, "s" (start of block
// i) and "e" (end), and the blocks whose start was never seen.
func htmlBoundaries(src string, blocks []profBlock) (bounds []string, missed []profBlock) {
	blocks = append([]profBlock(nil), blocks...)
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].startsBefore(blocks[j].startLine, blocks[j].startCol) })
	j := 0
	for i := range blocks {
		if i > 0 && blocks[i].startLine == blocks[j-1].startLine && blocks[i].startCol == blocks[j-1].startCol &&
			blocks[i].endLine == blocks[j-1].endLine && blocks[i].endCol == blocks[j-1].endCol {
			blocks[j-1].count |= blocks[i].count
			continue
		}
		blocks[j] = blocks[i]
		j++
	}
	blocks = blocks[:j]
	started := make([]bool, len(blocks))
	line, col := 1, 2 // as Boundaries
	for si, bi := 0, 0; si < len(src) && bi < len(blocks); {
		b := blocks[bi]
		if b.startLine == line && b.startCol == col {
			bounds = append(bounds, "s")
			started[bi] = true
		}
		if b.endLine == line && b.endCol == col || line > b.endLine {
			bounds = append(bounds, "e")
			bi++
			continue
		}
		if src[si] == '\n' {
			line++
			col = 0
		}
		col++
		si++
	}
	for i, ok := range started {
		if !ok {
			missed = append(missed, blocks[i])
		}
	}
	return bounds, missed
}

// TestProfileHTMLRules reads the profile of treeSrc as `go tool cover
// -html` does: every block opens a span and closes it before the next one
// opens (balanced, unnested span tags), and the uncovered guard is a span
// of its own.
func TestProfileHTMLRules(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		hit       func(cover.Block) bool
	}{
		{"tree", treeSrc, func(b cover.Block) bool { return !at(b, kThen, 9) }},
		{"tree-none", treeSrc, func(cover.Block) bool { return false }},
		{"sign", signSrc, func(b cover.Block) bool { return !at(b, kElse, 9) }},
	} {
		prof := writeProfile(t, fire(probes(t, tc.src), tc.hit))
		bounds, missed := htmlBoundaries(tc.src, prof)
		if len(missed) > 0 {
			t.Errorf("%s: the html scan never sees the start of %v", tc.name, missed)
		}
		if got, want := strings.Join(bounds, ""), strings.Repeat("se", len(prof)); got != want {
			t.Errorf("%s: boundaries %s, want %s", tc.name, got, want)
		}
		if t.Failed() {
			t.Logf("%s profile:\n%s", tc.name, profText(prof))
		}
	}
}

// TestProfileStmtsLikeGoTest: on gofmt-ed code without comments between
// statements, the statements of every block are those of the blocks `go
// test -coverprofile` writes there (which start at the statement, not at
// the brace before it).
func TestProfileStmtsLikeGoTest(t *testing.T) {
	prof := writeProfile(t, probes(t, treeSrc))
	checkDisjoint(t, prof)
	want := make([]int, len(prof))
	for _, g := range parseProfile(t, treeGoTest) {
		in := -1
		for i, b := range prof {
			if b.contains(g.startLine, g.startCol) {
				if in >= 0 {
					t.Fatalf("go test's block %v starts in %v and %v", g, prof[in], b)
				}
				in = i
			}
		}
		if in < 0 {
			t.Fatalf("go test's block %v starts in no block", g)
		}
		want[in] += g.stmts
	}
	for i, b := range prof {
		if b.stmts != want[i] {
			t.Errorf("block %v: %d statements, go test has %d there", b, b.stmts, want[i])
		}
	}
	if t.Failed() {
		t.Logf("profile:\n%s", profText(prof))
	}
}

// TestProfileHits: what the probes say about the pieces of a block.
func TestProfileHits(t *testing.T) {
	type want struct {
		line, col, count int // the block containing line.col
	}
	for _, tc := range []struct {
		name, src string
		hit       func(cover.Block) bool
		want      []want
	}{{
		// The guard always returned: nothing after it in Delete ran
		// (the switch, which would have fired a probe, was never reached).
		name: "guard returns", src: treeSrc,
		hit:  func(b cover.Block) bool { return b.Func != "Delete" || at(b, kFunc, 8) || at(b, kThen, 9) },
		want: []want{{9, 2, 1}, {10, 3, 1}, {12, 2, 0}, {13, 3, 0}, {17, 1, 0}, {20, 2, 0}, {31, 2, 0}, {36, 2, 0}},
	}, {
		// The loop never exited: the statements after it did not run.
		name: "loop never exits", src: treeSrc,
		hit:  func(b cover.Block) bool { return !at(b, kLoopExit, 35) },
		want: []want{{31, 2, 1}, {34, 3, 1}, {36, 2, 0}, {38, 2, 0}},
	}, {
		// The implicit else of the last if fired: the code after it ran
		// though the then never did.
		name: "implicit else", src: treeSrc,
		hit:  func(b cover.Block) bool { return !at(b, kThen, 26) && !at(b, kLoop, 33) },
		want: []want{{27, 3, 0}, {31, 2, 1}, {34, 3, 0}, {36, 2, 1}},
	}, {
		// A closure that never ran and a && operand never evaluated do not
		// change the statements around them.
		name: "closure and operand", src: treeSrc,
		hit:  func(b cover.Block) bool { return !(b.Func == "Keys" && b.StartLine > 52) && !at(b, kCond, 48) },
		want: []want{{52, 2, 1}, {55, 3, 0}, {58, 3, 0}, {62, 2, 1}, {48, 2, 1}, {48, 40, 0}, {48, 64, 1}},
	}, {
		// Else if: the text `} else if x > 0 ` ran when the second
		// condition was evaluated, `} else ` when the else ran; after the
		// chain, the branch that ran falls through.
		name: "else if", src: signSrc,
		hit:  func(b cover.Block) bool { return !at(b, kThen, 5) && !at(b, kElse, 9) },
		want: []want{{4, 2, 1}, {6, 3, 0}, {7, 5, 1}, {8, 3, 1}, {9, 5, 0}, {10, 3, 0}, {12, 2, 1}},
	}, {
		name: "function not called", src: signSrc,
		hit:  func(cover.Block) bool { return false },
		want: []want{{4, 2, 0}, {7, 5, 0}, {12, 2, 0}},
	}} {
		prof := writeProfile(t, fire(probes(t, tc.src), tc.hit))
		for _, w := range tc.want {
			in := blockAt(prof, w.line, w.col)
			if len(in) != 1 || in[0].count != w.count {
				t.Errorf("%s: at %d.%d blocks %v, want one with count %d", tc.name, w.line, w.col, in, w.count)
			}
		}
		if t.Failed() {
			t.Logf("%s profile:\n%s", tc.name, profText(prof))
		}
	}
}

// TestProfileRangesFixed: the blocks of a profile depend on the probe
// table only, not on which probes fired (a file that maps the blocks of
// the table to functions matches every profile written for it).
func TestProfileRangesFixed(t *testing.T) {
	ranges := func(prof []profBlock) string {
		var b strings.Builder
		for _, p := range prof {
			fmt.Fprintf(&b, "%s:%d.%d,%d.%d %d\n", p.file, p.startLine, p.startCol, p.endLine, p.endCol, p.stmts)
		}
		return b.String()
	}
	base := ranges(writeProfile(t, probes(t, treeSrc)))
	r := rand.New(rand.NewSource(1))
	for range 20 {
		if got := ranges(writeProfile(t, fire(probes(t, treeSrc), func(cover.Block) bool { return r.Intn(2) == 0 }))); got != base {
			t.Fatalf("ranges differ:\n%s\nwant:\n%s", got, base)
		}
	}
}

// TestProfileMalformed: blocks that do not nest (//line directives can
// make them), duplicates, inverted ranges and random trees still give a
// profile without overlaps that keeps every file's statements.
func TestProfileMalformed(t *testing.T) {
	b := func(file string, sl, sc, el, ec, stmts int, kind uint8, hit bool) cover.Block {
		return cover.Block{File: file, StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec, Stmts: stmts, Kind: kind, Hit: hit}
	}
	cases := [][]cover.Block{{
		b("p/a.go", 1, 10, 20, 2, 3, kFunc, true),
		b("p/a.go", 5, 1, 25, 1, 2, kThen, false), // overlaps the end of the function
		b("p/a.go", 5, 1, 25, 1, 1, kThen, true),  // the same range again
		b("p/a.go", 8, 4, 8, 2, 0, kImplicit, true),
		b("p/b.go", 3, 1, 3, 9, 2, kFunc, true),
		b("p/b.go", 3, 1, 3, 9, 4, kCond, false), // fully covers its parent
		b("p/a.go", 22, 1, 30, 1, 5, kFunc, true),
	}}
	r := rand.New(rand.NewSource(2))
	for range 300 {
		cases = append(cases, randomTree(r))
	}
	for i, blocks := range cases {
		prof := writeProfile(t, blocks)
		checkDisjoint(t, prof)
		if got, want := profStmtsByFile(prof), stmtsByFile(blocks); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("case %d: statements by file %v, want %v", i, got, want)
		}
		if i == 0 || t.Failed() {
			continue
		}
		// Properly nested blocks: the profile covers exactly their source.
		for line := 1; line <= 40; line++ {
			for col := 1; col <= 12; col++ {
				inBlocks := false
				for _, b := range blocks {
					pb := profBlock{startLine: b.StartLine, startCol: b.StartCol, endLine: b.EndLine, endCol: b.EndCol}
					inBlocks = inBlocks || pb.contains(line, col)
				}
				if n := len(blockAt(prof, line, col)); n != map[bool]int{false: 0, true: 1}[inBlocks] {
					t.Fatalf("case %d: %d.%d is in %d profile blocks (in the probes' ranges: %v)\nprobes %+v\nprofile:\n%s", i, line, col, n, inBlocks, blocks, profText(prof))
				}
			}
		}
	}
}

// randomTree returns random properly nested blocks in lines 1-40 of one
// file, with random kinds, statements and hits, and some empty ranges.
func randomTree(r *rand.Rand) []cover.Block {
	var out []cover.Block
	var gen func(sl, el, depth int)
	gen = func(sl, el, depth int) {
		// Children in lines [sl+1, el-1].
		line := sl + 1
		for line < el-1 && r.Intn(3) > 0 {
			s := line + r.Intn(max(1, (el-line)/2))
			e := s + r.Intn(max(1, el-s))
			if e >= el || s >= el {
				break
			}
			kind := uint8(1 + r.Intn(kLabel))
			if kind == kImplicit || kind == kDefault || kind == kLoopExit || r.Intn(8) == 0 {
				out = append(out, cover.Block{File: "p/r.go", StartLine: s, StartCol: 3, EndLine: s, EndCol: 3, Kind: kind, Hit: r.Intn(2) == 0})
				line = s + 1
				continue
			}
			sc, ec := 1+r.Intn(10), 1+r.Intn(10)
			if s == e && ec <= sc {
				ec = sc + 1
			}
			out = append(out, cover.Block{File: "p/r.go", StartLine: s, StartCol: sc, EndLine: e, EndCol: ec, Stmts: r.Intn(6), Kind: kind, Hit: r.Intn(2) == 0})
			if depth < 4 {
				gen(s, e, depth+1)
			}
			line = e + 1
		}
	}
	for line := 1; line < 40; {
		e := line + 1 + r.Intn(15)
		if e > 40 {
			break
		}
		out = append(out, cover.Block{File: "p/r.go", StartLine: line, StartCol: 5, EndLine: e, EndCol: 2, Stmts: r.Intn(10), Kind: kFunc, Hit: r.Intn(2) == 0})
		gen(line, e, 0)
		line = e + 1
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
