// Package cover reports the block coverage of gfz-instrumented packages.
//
// Every package instrumented by gfz-build registers, with the probe runtime,
// a byte per probe (set once the probe has fired) and an encoded probe table
// that maps each probe to its source range, statement count and enclosing
// function. This package decodes those tables and turns them into per
// package / file / function summaries and into `go tool cover` profiles
// (mode: set), which `go tool cover -html` and `go tool cover -func` accept.
package cover

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"

	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// Block is one probe of an instrumented package.
type Block struct {
	File      string // import-path/base.go, as go tool cover expects
	Func      string // enclosing function ("F", "T.M", "(*T).M", "F.func1")
	StartLine int
	StartCol  int
	EndLine   int
	EndCol    int
	Stmts     int   // statements directly in the block
	Kind      uint8 // probe kind (see instrument.Kind)
	Hit       bool  // the probe has fired since the process started
}

// Decode decodes the probe table of the package with import path pkgPath
// (the format written by instrument.EncodeTable). The returned blocks are in
// probe-index order and have Hit unset.
func Decode(pkgPath, table string) ([]Block, error) {
	d := decoder{s: table}
	if len(table) < 5 || table[:5] != "gfzt1" {
		return nil, fmt.Errorf("cover: probe table of %s: bad magic", pkgPath)
	}
	d.i = 5
	files := d.strings()
	funcs := d.strings()
	n := d.uvarint()
	if d.err != nil {
		return nil, fmt.Errorf("cover: probe table of %s: %w", pkgPath, d.err)
	}
	if n > uint64(len(table)) {
		return nil, fmt.Errorf("cover: probe table of %s: bad probe count %d", pkgPath, n)
	}
	blocks := make([]Block, 0, n)
	line := int64(0)
	for range n {
		fi := d.uvarint()
		fu := d.uvarint()
		line += d.varint()
		b := Block{StartLine: int(line), StartCol: int(d.uvarint())}
		b.EndLine = b.StartLine + int(d.uvarint())
		b.EndCol = int(d.uvarint())
		b.Stmts = int(d.uvarint())
		b.Kind = d.byte()
		if d.err != nil {
			return nil, fmt.Errorf("cover: probe table of %s: %w", pkgPath, d.err)
		}
		if fi >= uint64(len(files)) || fu >= uint64(len(funcs)) {
			return nil, fmt.Errorf("cover: probe table of %s: index out of range", pkgPath)
		}
		b.File = pkgPath + "/" + files[fi]
		b.Func = funcs[fu]
		blocks = append(blocks, b)
	}
	return blocks, nil
}

type decoder struct {
	s   string
	i   int
	err error
}

var errShort = errors.New("truncated")

// advance consumes a varint of n bytes (n <= 0: malformed or truncated).
func (d *decoder) advance(n int) bool {
	if d.err != nil {
		return false
	}
	if n <= 0 {
		d.err = errShort
		return false
	}
	d.i += n
	return true
}

func (d *decoder) window() []byte {
	return []byte(d.s[d.i:min(len(d.s), d.i+binary.MaxVarintLen64)])
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.window())
	if !d.advance(n) {
		return 0
	}
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.window())
	if !d.advance(n) {
		return 0
	}
	return v
}

func (d *decoder) byte() uint8 {
	if d.err != nil || d.i >= len(d.s) {
		d.err = errShort
		return 0
	}
	d.i++
	return d.s[d.i-1]
}

func (d *decoder) strings() []string {
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		d.err = errShort
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		l := d.uvarint()
		if d.err != nil || l > uint64(len(d.s)-d.i) {
			d.err = errShort
			return nil
		}
		out = append(out, d.s[d.i:d.i+int(l)])
		d.i += int(l)
	}
	return out
}

// PackageBlocks decodes the table of one registered package and marks the
// blocks whose probes have fired.
func PackageBlocks(p gfzrt.Package) ([]Block, error) {
	blocks, err := Decode(p.Path, p.Table)
	if err != nil {
		return nil, err
	}
	if len(blocks) != len(p.Blocks) {
		return nil, fmt.Errorf("cover: %s: table has %d probes, block array %d", p.Path, len(blocks), len(p.Blocks))
	}
	for i := range blocks {
		blocks[i].Hit = p.Blocks[i] != 0
	}
	return blocks, nil
}

// Counts are probe and statement counts; covered means "fired".
type Counts struct {
	Probes, ProbesHit int
	Stmts, StmtsHit   int
}

func (c *Counts) add(b Block) {
	c.Probes++
	c.Stmts += b.Stmts
	if b.Hit {
		c.ProbesHit++
		c.StmtsHit += b.Stmts
	}
}

// Percent is the statement coverage in percent (probe coverage when the
// unit has no statements).
func (c Counts) Percent() float64 {
	if c.Stmts > 0 {
		return 100 * float64(c.StmtsHit) / float64(c.Stmts)
	}
	if c.Probes > 0 {
		return 100 * float64(c.ProbesHit) / float64(c.Probes)
	}
	return 0
}

// FuncCoverage is the coverage of one function.
type FuncCoverage struct {
	File string // import-path/base.go
	Name string
	Line int // first line of the function's first probe
	Counts
}

// FileCoverage is the coverage of one file.
type FileCoverage struct {
	Name string // import-path/base.go
	Counts
	Funcs []FuncCoverage // by line
}

// PackageCoverage is the coverage of one instrumented package.
type PackageCoverage struct {
	Path string
	Counts
	Files []FileCoverage // by name
}

// Summary returns the coverage of every instrumented package registered in
// this process, in registration order. Packages whose tables do not decode
// are skipped.
func Summary() []PackageCoverage {
	var out []PackageCoverage
	for _, p := range gfzrt.Packages() {
		blocks, err := PackageBlocks(p)
		if err != nil {
			continue
		}
		out = append(out, Summarize(p.Path, blocks))
	}
	return out
}

// Summarize computes the coverage of one package from its blocks.
func Summarize(path string, blocks []Block) PackageCoverage {
	pc := PackageCoverage{Path: path}
	files := map[string]*FileCoverage{}
	funcs := map[[2]string]*FuncCoverage{}
	var fileOrder []string
	for _, b := range blocks {
		pc.add(b)
		fc := files[b.File]
		if fc == nil {
			fc = &FileCoverage{Name: b.File}
			files[b.File] = fc
			fileOrder = append(fileOrder, b.File)
		}
		fc.add(b)
		k := [2]string{b.File, b.Func}
		fn := funcs[k]
		if fn == nil {
			fn = &FuncCoverage{File: b.File, Name: b.Func, Line: b.StartLine}
			funcs[k] = fn
		}
		fn.Line = min(fn.Line, b.StartLine)
		fn.add(b)
	}
	sort.Strings(fileOrder)
	for _, name := range fileOrder {
		fc := files[name]
		for k, fn := range funcs {
			if k[0] == name {
				fc.Funcs = append(fc.Funcs, *fn)
			}
		}
		sort.Slice(fc.Funcs, func(i, j int) bool {
			if fc.Funcs[i].Line != fc.Funcs[j].Line {
				return fc.Funcs[i].Line < fc.Funcs[j].Line
			}
			return fc.Funcs[i].Name < fc.Funcs[j].Name
		})
		pc.Files = append(pc.Files, *fc)
	}
	return pc
}

// WriteProfile writes the coverage of every registered package as a
// `go tool cover` profile in set mode, in the form WriteBlocks describes.
func WriteProfile(w io.Writer) error {
	var all []Block
	for _, p := range gfzrt.Packages() {
		blocks, err := PackageBlocks(p)
		if err != nil {
			return err
		}
		all = append(all, blocks...)
	}
	return WriteBlocks(w, all)
}

// WriteBlocks writes blocks as a `go tool cover` profile in set mode: the
// blocks of ProfileBlocks, which do not overlap, sorted by file and
// position, as `go test -coverprofile` writes them.
func WriteBlocks(w io.Writer, blocks []Block) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "mode: set")
	for _, b := range ProfileBlocks(blocks) {
		hit := 0
		if b.Hit {
			hit = 1
		}
		fmt.Fprintf(bw, "%s:%d.%d,%d.%d %d %d\n", b.File, b.StartLine, b.StartCol, b.EndLine, b.EndCol, b.Stmts, hit)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("cover: write profile: %w", err)
	}
	return nil
}

// Probe kinds (the values of instrument.Kind).
const (
	kindFunc = iota + 1
	kindThen
	kindElse
	kindImplicit
	kindCase
	kindDefault
	kindSelect
	kindLoop
	kindLoopExit
	kindCond
	kindLabel
)

// ProfileBlocks returns the blocks of the `go tool cover` profile of
// blocks: blocks that do not overlap (`go tool cover -html` paints a file
// by walking its blocks in order and assumes they do not), sorted by file
// and position, none empty.
//
// A probe's range is its whole block (a function body, an if's then
// block, a case clause, ...) and its statement count is that of the
// statements directly in it, so the ranges of nested probes nest. Each
// block is split around the blocks nested in it: every non-empty piece
// (its source before, between and after its nested blocks) is a profile
// block, with the enclosing block's function and kind. The pieces share
// the enclosing block's statements, so that no statement is counted
// twice and every file and function keeps its statement total. The probe
// table does not say which statement is in which piece: a compound
// statement (if, switch, for, ...) is put in the piece before its first
// branch and the other statements are spread over the pieces by the
// lines they span, so the split of a block's statements over its pieces
// is an estimate (comment and blank lines make it err).
//
// A piece's hit says whether its statements ran. The first piece of a
// block: the block was entered. The piece after a goto label: the label
// was reached. The piece after a closure or after the right operand of
// && or ||: as the piece before it (they do not change where control
// goes). The piece after a branch (then, else, case, select clause, loop
// body): ran if a probe of the enclosing block at or after the piece's
// start, before the next label, has fired (an implicit else, a loop
// exit, a later branch or anything in it: control only goes forward in a
// block); else not run if a branch follows (its statement would have
// fired one of its probes), if an unreached label follows or if it
// follows a loop (that never exited); else run if a branch of the
// statement before it fired: the table does not say whether that branch
// returned, so it is assumed to fall through.
//
// Empty ranges (implicit else, implicit default, loop exit, empty
// clauses) are left out: they only serve as evidence of where control
// went. Blocks with the same range are merged into one (statements added,
// hit if either is). The ranges and statement counts depend on the
// blocks' ranges, kinds and statements only, not on what fired: those of
// the decoded table (Decode) are those of every profile written for it.
func ProfileBlocks(blocks []Block) []Block {
	byFile := map[string][]Block{}
	var files []string
	for _, b := range blocks {
		if _, ok := byFile[b.File]; !ok {
			files = append(files, b.File)
		}
		byFile[b.File] = append(byFile[b.File], b)
	}
	sort.Strings(files)
	var out []Block
	for _, f := range files {
		roots := blockTree(byFile[f])
		for _, n := range roots {
			out = append(out, n.pieces()...)
		}
	}
	return out
}

// pos is a source position: line and column.
type pos struct{ line, col int }

func (p pos) less(q pos) bool {
	return p.line < q.line || p.line == q.line && p.col < q.col
}

// node is a probe block with a non-empty range and what is nested in it.
type node struct {
	b          Block
	start, end pos
	kids       []*node // non-empty blocks directly nested in b, by position
	marks      []*node // empty ranges directly in b, by position
	fired      bool    // b or a block or mark nested in it has fired
}

// clause reports whether the block ends with its last statement (a case
// or select clause) rather than with a closing brace: a statement that
// ends there is still inside it.
func (n *node) clause() bool { return n.b.Kind == kindCase || n.b.Kind == kindSelect }

// blockTree returns the blocks of one file as trees of nested blocks, by
// position. Empty ranges become marks of the innermost block containing
// them; a block that overlaps the end of the block it starts in (which
// proper nesting rules out, but //line directives can produce) is cut
// there.
func blockTree(blocks []Block) []*node {
	var nodes, marks []*node
	for _, b := range blocks {
		n := &node{b: b, start: pos{b.StartLine, b.StartCol}, end: pos{b.EndLine, b.EndCol}}
		if n.start.less(n.end) {
			nodes = append(nodes, n)
		} else {
			n.end = n.start
			marks = append(marks, n)
		}
	}
	// By start, the longer first: a block comes before the blocks nested in it.
	sort.SliceStable(nodes, func(i, j int) bool {
		a, b := nodes[i], nodes[j]
		if a.start != b.start {
			return a.start.less(b.start)
		}
		return b.end.less(a.end)
	})
	var roots, stack []*node
	var last *node
	for _, n := range nodes {
		if last != nil && n.start == last.start && n.end == last.end {
			last.b.Stmts += n.b.Stmts
			last.b.Hit = last.b.Hit || n.b.Hit
			continue
		}
		for len(stack) > 0 && !n.start.less(stack[len(stack)-1].end) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, n)
		} else {
			top := stack[len(stack)-1]
			if top.end.less(n.end) {
				n.end = top.end
			}
			top.kids = append(top.kids, n)
		}
		stack = append(stack, n)
		last = n
	}
	sort.SliceStable(marks, func(i, j int) bool { return marks[i].start.less(marks[j].start) })
	for _, m := range marks {
		if n := innermost(roots, m.start); n != nil {
			n.marks = append(n.marks, m)
		}
	}
	for _, n := range roots {
		n.setFired()
	}
	return roots
}

// innermost returns the innermost block of list (and their nested blocks)
// containing p, nil if none does.
func innermost(list []*node, p pos) *node {
	var in *node
	for {
		i := sort.Search(len(list), func(i int) bool { return p.less(list[i].start) }) - 1
		if i < 0 {
			return in
		}
		n := list[i]
		if !p.less(n.end) && !(p == n.end && n.clause()) {
			return in
		}
		in, list = n, n.kids
	}
}

func (n *node) setFired() bool {
	n.fired = n.b.Hit
	for _, k := range n.kids {
		if k.setFired() {
			n.fired = true
		}
	}
	for _, m := range n.marks {
		if m.b.Hit {
			n.fired = true
		}
	}
	return n.fired
}

// flow says how control passes a nested block, for the pieces around it.
func flow(k *node) int {
	switch k.b.Kind {
	case kindThen, kindElse, kindCase, kindSelect, kindLoop:
		return flowBranch // a branch of a statement: one of them fires when the statement runs
	case kindLabel:
		return flowLabel // fires whenever control reaches the label, by goto or not
	}
	return flowThrough // a closure or a && / || operand: control goes on after it
}

const (
	flowThrough = iota
	flowBranch
	flowLabel
)

// segment is the source of a block between two of its nested blocks.
type segment struct {
	start, end pos
	before     *node // the nested block before it, nil for the first
	after      *node // the nested block after it, nil for the last
	run        int   // index of the first segment of its run
	stmts      int
	need       int          // compound statements that start here
	skip       map[int]bool // lines that hold no simple statement
	hit        bool
}

func (s *segment) skipLine(l int) {
	if s.skip == nil {
		s.skip = map[int]bool{}
	}
	s.skip[l] = true
}

// pieces returns the profile blocks of n and of the blocks nested in it,
// by position.
func (n *node) pieces() []Block {
	if len(n.kids) == 0 {
		b := n.b
		b.StartLine, b.StartCol, b.EndLine, b.EndCol = n.start.line, n.start.col, n.end.line, n.end.col
		return []Block{b}
	}
	segs := make([]segment, len(n.kids)+1)
	for j := range segs {
		s := &segs[j]
		s.start, s.end = n.start, n.end
		if j > 0 {
			s.before = n.kids[j-1]
			s.start = s.before.end
		}
		if j < len(n.kids) {
			s.after = n.kids[j]
			s.end = s.after.start
		}
		s.run = j
		if j > 0 && flow(s.before) == flowThrough {
			s.run = segs[j-1].run
		}
	}
	n.hits(segs)
	n.stmts(segs)
	var out []Block
	leftover := 0
	for j, s := range segs {
		if s.start.less(s.end) {
			b := n.b
			b.StartLine, b.StartCol, b.EndLine, b.EndCol = s.start.line, s.start.col, s.end.line, s.end.col
			b.Stmts, b.Hit = s.stmts, s.hit
			out = append(out, b)
		} else {
			leftover += s.stmts
		}
		if j < len(n.kids) {
			out = append(out, n.kids[j].pieces()...)
		}
	}
	if leftover > 0 && len(out) > 0 {
		// Only when nested blocks cover all of n (never in gofmt-ed
		// code): its statements go to the first block in its range.
		out[0].Stmts += leftover
	}
	return out
}

// marksIn returns the marks of n in s.
func (n *node) marksIn(s *segment) []*node {
	i := sort.Search(len(n.marks), func(i int) bool { return !n.marks[i].start.less(s.start) })
	j := i
	for j < len(n.marks) && (n.marks[j].start.less(s.end) || n.marks[j].start == s.end && s.after == nil) {
		j++
	}
	return n.marks[i:j]
}

// hits sets the hit of every segment of n (see ProfileBlocks).
func (n *node) hits(segs []segment) {
	// ahead[j]: a probe at or after the start of segment j, before the
	// next label, has fired.
	ahead := make([]bool, len(segs))
	for j := len(segs) - 1; j >= 0; j-- {
		for _, m := range n.marksIn(&segs[j]) {
			ahead[j] = ahead[j] || m.b.Hit
		}
		if k := segs[j].after; k != nil && flow(k) != flowLabel {
			ahead[j] = ahead[j] || k.fired || ahead[j+1]
		}
	}
	for j := range segs {
		s := &segs[j]
		if s.run != j {
			s.hit = segs[s.run].hit
			continue
		}
		switch {
		case !n.b.Hit:
		case s.before == nil:
			s.hit = true
		case flow(s.before) == flowLabel:
			s.hit = s.before.b.Hit
		case ahead[j]:
			s.hit = true
		default:
			// Nothing after the piece's start has fired: look at what
			// ends its run.
			e := j
			for e < len(n.kids) && flow(n.kids[e]) == flowThrough {
				e++
			}
			switch {
			case e < len(n.kids) && flow(n.kids[e]) == flowBranch:
				// A branching statement follows: it would have fired.
			case e < len(n.kids) && !n.kids[e].b.Hit:
				// A label follows that was never reached.
			case s.before.b.Kind == kindLoop:
				// The loop never exited (its exit probe, if it can exit,
				// would have fired).
			default:
				s.hit = n.groupFired(j - 1)
			}
		}
	}
}

// groupFired reports whether a branch of the statement whose last branch
// is n.kids[i] has fired.
func (n *node) groupFired(i int) bool {
	for {
		if n.kids[i].fired {
			return true
		}
		p := n.prevBranch(i)
		if p < 0 || !n.sameStatement(p, i) {
			return false
		}
		i = p
	}
}

// prevBranch returns the index of the branch before n.kids[i] with only
// closures and && / || operands between them, -1 if none.
func (n *node) prevBranch(i int) int {
	for p := i - 1; p >= 0; p-- {
		switch flow(n.kids[p]) {
		case flowBranch:
			return p
		case flowLabel:
			return -1
		}
	}
	return -1
}

// sameStatement reports whether the branches n.kids[p] and n.kids[i] (p
// the branch before i) belong to one statement: an if's then and else (or
// the then of an else if: `} else if c {`), or two clauses of one switch
// or select (with no implicit default between them and at most the blank
// lines of empty clauses in between; gofmt puts a switch's closing brace
// and the next statement on lines of their own).
func (n *node) sameStatement(p, i int) bool {
	a, b := n.kids[p], n.kids[i]
	between := &segment{start: a.end, end: b.start, after: b}
	ms := n.marksIn(between)
	switch {
	case a.b.Kind == kindThen && b.b.Kind == kindElse:
		return true
	case a.b.Kind == kindThen && b.b.Kind == kindThen:
		for _, m := range ms {
			if m.b.Kind == kindImplicit && m.start == a.end {
				return false
			}
		}
		return b.start.line == a.end.line
	case a.b.Kind == b.b.Kind && a.clause():
		empty := 0
		for _, m := range ms {
			switch m.b.Kind {
			case kindDefault:
				return false
			case kindCase, kindSelect:
				empty++
			}
		}
		return b.start.line-a.end.line <= 2+empty
	}
	return false
}

// stmts spreads the statements of n over its segments (see
// ProfileBlocks).
func (n *node) stmts(segs []segment) {
	// The compound statements: one for each branch that does not continue
	// the statement of the branch before it, in the piece before it.
	needs := 0
	for i, k := range n.kids {
		if flow(k) != flowBranch {
			continue
		}
		j := i // the segment before k
		if p := n.prevBranch(i); p >= 0 && n.sameStatement(p, i) {
			continue
		}
		first := k.start.line // the line of the statement's first branch
		if k.clause() {
			for _, m := range n.marksIn(&segs[j]) {
				if m.b.Kind == k.b.Kind {
					first = min(first, m.start.line)
				}
			}
			first-- // "switch x {" is on the line before its first case
		}
		h := segs[j].run
		for h < j && segs[h].end.line < first {
			h++
		}
		segs[h].need++
		needs++
		for l := first; l <= k.start.line; l++ {
			segs[h].skipLine(l)
		}
	}
	// A switch's or select's closing brace, after its last clause.
	for j := 1; j < len(segs); j++ {
		s := &segs[j]
		if !s.before.clause() {
			continue
		}
		if s.after != nil && flow(s.after) == flowBranch && n.sameStatement(j-1, j) {
			continue
		}
		brace := s.start.line + 1
		for _, m := range n.marksIn(s) {
			if m.b.Kind == kindDefault {
				brace = m.start.line
			}
		}
		s.skipLine(brace)
	}
	// Too many compound statements (a misjudged statement boundary):
	// drop the last ones.
	left := n.b.Stmts - needs
	for j := len(segs) - 1; j >= 0 && left < 0; j-- {
		d := min(segs[j].need, -left)
		segs[j].need -= d
		left += d
	}
	// The lines that may hold other statements: those between the piece's
	// first and last line, and its last line if a statement ends there (the
	// statement holding a closure or operand, the last one of a clause);
	// none between two branches of one statement. Comments, blank lines and
	// the lines of a statement written over several count too: nothing
	// tells them apart. A piece that ends with a statement (its block's
	// last piece, or one ending in a closure or operand) gets one first,
	// then every other piece with lines one, then the rest goes by lines.
	weight := make([]int, len(segs))
	total := 0
	for j := range segs {
		s := &segs[j]
		s.stmts = s.need
		lo, hi := s.start.line+1, s.end.line-1
		if s.after != nil && flow(s.after) == flowThrough || s.after == nil && n.clause() {
			hi = s.end.line
		}
		if j > 0 && s.after != nil && flow(s.before) == flowBranch && flow(s.after) == flowBranch && n.sameStatement(j-1, j) {
			continue // between two branches of one statement
		}
		for l := lo; l <= hi; l++ {
			if !s.skip[l] {
				weight[j]++
			}
		}
		if left > 0 && weight[j] > 0 && !s.skip[hi] && (s.after == nil || flow(s.after) == flowThrough) {
			s.stmts++
			left--
			weight[j]--
		}
	}
	for j := range segs {
		if left > 0 && weight[j] > 0 && segs[j].stmts == 0 {
			segs[j].stmts++
			left--
			weight[j]--
		}
		total += weight[j]
	}
	switch {
	case left <= 0:
	case total == 0:
		// All on the lines of braces and branches: a one-line block.
		segs[0].stmts += left
	default:
		// Largest remainder: shares proportional to the lines.
		rem := make([]int, len(segs))
		given := 0
		for j := range segs {
			share := left * weight[j] / total
			rem[j] = left * weight[j] % total
			segs[j].stmts += share
			given += share
		}
		order := make([]int, len(segs))
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
		for _, j := range order[:left-given] {
			segs[j].stmts++
		}
	}
	// An empty segment has no source for its statements: they go to a
	// non-empty one of its run, else of the block (pieces gives those of a
	// block without any to the first block nested in it).
	for j := range segs {
		s := &segs[j]
		if s.stmts == 0 || s.start.less(s.end) {
			continue
		}
		to := -1
		for i := range segs {
			if segs[i].start.less(segs[i].end) && (to < 0 || segs[i].run == s.run && segs[to].run != s.run) {
				to = i
			}
		}
		if to >= 0 {
			segs[to].stmts += s.stmts
			s.stmts = 0
		}
	}
}

var kindNames = [...]string{"", "func", "then", "else", "implicit-else", "case", "implicit-default", "select", "loop", "loop-exit", "cond", "label"}

// KindName names a probe kind: "func", "then", "else", "implicit-else",
// "case", "implicit-default", "select", "loop", "loop-exit", "cond" (right
// operand of && or ||) or "label".
func KindName(k uint8) string {
	if k != 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", k)
}
