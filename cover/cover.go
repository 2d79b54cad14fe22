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
// `go tool cover` profile in set mode. Blocks are sorted by file and
// position; implicit arms (empty ranges) are omitted.
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

// WriteBlocks writes blocks as a `go tool cover` profile in set mode.
func WriteBlocks(w io.Writer, blocks []Block) error {
	var keep []Block
	for _, b := range blocks {
		if b.EndLine > b.StartLine || b.EndLine == b.StartLine && b.EndCol > b.StartCol {
			keep = append(keep, b)
		}
	}
	sort.SliceStable(keep, func(i, j int) bool {
		a, b := keep[i], keep[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.StartLine != b.StartLine {
			return a.StartLine < b.StartLine
		}
		return a.StartCol < b.StartCol
	})
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "mode: set")
	for _, b := range keep {
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
