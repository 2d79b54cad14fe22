package instrument

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strings"
)

// Kind says which branch arm a probe marks.
type Kind uint8

// Probe kinds. The numeric values are part of the probe ID hash and of the
// encoded probe table; do not renumber them.
const (
	KindFunc     Kind = iota + 1 // function or closure entry
	KindThen                     // the body of an if
	KindElse                     // an explicit else block
	KindImplicit                 // an implicit else of an if (no else in the source)
	KindCase                     // a case or default clause of an expression or type switch
	KindDefault                  // the implicit default of a switch without one
	KindSelect                   // a select case
	KindLoop                     // loop body entry
	KindLoopExit                 // the statement after a loop
	KindCond                     // the right operand of && or ||
	KindLabel                    // a labelled statement that a goto jumps to
)

var kindNames = [...]string{"", "func", "then", "else", "implicit-else", "case", "implicit-default", "select", "loop", "loop-exit", "cond", "label", "cmp"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Probe describes one inserted probe. Its index in Package.Probes is its
// block index (the i of _gfzBlocks[i]).
type Probe struct {
	ID   uint32 // full 32-bit hash; the emitted ID is ID & (MapSize-1)
	Kind Kind
	File string // absolute file name as the compiler reports it
	Func string // enclosing function: "F", "T.M", "(*T).M", "F.func1", ...
	// Source range the probe stands for (1-based lines and columns).
	StartLine, StartCol, EndLine, EndCol int
	Stmts                                int // number of statements directly in the range's block
}

// ProbeID is the deterministic probe ID: an FNV-1a hash of the package path,
// the file's base name, the line, the column and the probe kind. Rebuilding
// unchanged code therefore gives the same IDs.
func ProbeID(pkgPath, fileBase string, line, col int, kind Kind) uint32 {
	h := fnv.New32a()
	h.Write([]byte(pkgPath))
	h.Write([]byte{0})
	h.Write([]byte(fileBase))
	h.Write([]byte{0})
	var b [9]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(line))
	binary.LittleEndian.PutUint32(b[4:], uint32(col))
	b[8] = byte(kind)
	h.Write(b[:])
	// Final avalanche (murmur3 fmix32) so that low bits, which are all the
	// map index keeps, depend on every input bit.
	x := h.Sum32()
	x ^= x >> 16
	x *= 0x85ebca6b
	x ^= x >> 13
	x *= 0xc2b2ae35
	x ^= x >> 16
	return x
}

// EncodeTable encodes the probe table of one package in the format decoded
// by package cover (see docs/INSTRUMENT.md, "Probe table"):
//
//	"gfzt1" magic
//	uvarint nfiles, then each file base name (uvarint length + bytes)
//	uvarint nfuncs, then each function name
//	uvarint nprobes, then per probe:
//	  uvarint file index, uvarint func index,
//	  varint  start line - previous probe's start line,
//	  uvarint start col, uvarint end line - start line, uvarint end col,
//	  uvarint statements, byte kind
//
// File names are base names: the cover profile names files
// import-path/base.go.
func EncodeTable(probes []Probe) string {
	var files, funcs []string
	fileIdx := map[string]int{}
	funcIdx := map[string]int{}
	intern := func(list *[]string, idx map[string]int, s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		idx[s] = len(*list)
		*list = append(*list, s)
		return idx[s]
	}
	type rec struct{ file, fn int }
	recs := make([]rec, len(probes))
	for i, p := range probes {
		recs[i] = rec{intern(&files, fileIdx, baseName(p.File)), intern(&funcs, funcIdx, p.Func)}
	}
	var b []byte
	b = append(b, "gfzt1"...)
	putStrings := func(list []string) {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, s := range list {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
	}
	putStrings(files)
	putStrings(funcs)
	b = binary.AppendUvarint(b, uint64(len(probes)))
	prevLine := 0
	for i, p := range probes {
		b = binary.AppendUvarint(b, uint64(recs[i].file))
		b = binary.AppendUvarint(b, uint64(recs[i].fn))
		b = binary.AppendVarint(b, int64(p.StartLine-prevLine))
		prevLine = p.StartLine
		b = binary.AppendUvarint(b, uint64(p.StartCol))
		el := p.EndLine - p.StartLine
		if el < 0 {
			el = 0
		}
		b = binary.AppendUvarint(b, uint64(el))
		b = binary.AppendUvarint(b, uint64(p.EndCol))
		b = binary.AppendUvarint(b, uint64(p.Stmts))
		b = append(b, byte(p.Kind))
	}
	return string(b)
}

func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}
