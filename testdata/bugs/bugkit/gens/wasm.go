package gens

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

// WasmConfig tunes Wasm.
type WasmConfig struct {
	MaxTypes    int // function types; default 6
	MaxFuncs    int // functions defined by the module; default 4
	MaxDepth    int // nesting of expressions and blocks; default 3
	MaxStmts    int // instructions sequences per block; default 4
	MistakesPer int // per mille of modules passed through CorruptBytes; default 0
	SlipsPer    int // per mille of function bodies with one instruction-level slip; default 0
}

func (c WasmConfig) withDefaults() WasmConfig {
	if c.MaxTypes <= 0 {
		c.MaxTypes = 6
	}
	if c.MaxFuncs <= 0 {
		c.MaxFuncs = 4
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = 3
	}
	if c.MaxStmts <= 0 {
		c.MaxStmts = 4
	}
	return c
}

// Value types, reference types and external kinds of the binary format
// (WebAssembly Core Specification 2.0, section 5).
const (
	wasmI32       = 0x7f
	wasmI64       = 0x7e
	wasmF32       = 0x7d
	wasmF64       = 0x7c
	wasmV128      = 0x7b
	wasmFuncref   = 0x70
	wasmExternref = 0x6f

	wasmKindFunc   = 0x00
	wasmKindTable  = 0x01
	wasmKindMemory = 0x02
	wasmKindGlobal = 0x03

	wasmEnd = 0x0b
)

var (
	// wasmValTypes are the value types, numbers most often.
	wasmValTypes = gen.OneOfWeighted(
		gen.W(8, gen.Just[byte](wasmI32)),
		gen.W(4, gen.Just[byte](wasmI64)),
		gen.W(2, gen.SampledFrom[byte](wasmF32, wasmF64)),
		gen.W(1, gen.SampledFrom[byte](wasmFuncref, wasmExternref)),
		gen.W(1, gen.Just[byte](wasmV128)),
	)
	wasmRefTypes  = gen.OneOfWeighted(gen.W(3, gen.Just[byte](wasmFuncref)), gen.W(1, gen.Just[byte](wasmExternref)))
	wasmModNames  = gen.Tokens("env", "env", "spectest", "wasi_snapshot_preview1", "js", "m", "a", "\u00e9t\u00e9")
	wasmFieldName = gen.OneOfWeighted(
		gen.W(3, gen.Tokens("f", "g", "print", "print_i32", "log", "memory", "table", "global_i32", "global_i64", "global_f32", "global_f64", "abort", "now", "fd_write", "")),
		gen.W(1, gen.StringFrom("abcxyz_0129.-$", 1, 8)),
	)
	wasmExportName = gen.OneOfWeighted(
		gen.W(3, gen.Tokens("main", "_start", "run", "add", "memory", "table", "g", "f", "get", "set", "init", "")),
		gen.W(1, gen.StringFrom("abcxyz_0129.-$ ", 1, 8)),
	)
	wasmI32s = gen.OneOfWeighted(
		gen.W(6, gen.IntRange(-8, 100)),
		gen.W(2, gen.SampledFrom(0, 1, -1, 65535, 65536, math.MaxInt32, math.MinInt32, 0x7f, 0x80, 1<<16-4)),
		gen.W(1, gen.Map(gen.Int32(), func(n int32) int { return int(n) })),
	)
	wasmI64s = gen.OneOfWeighted(
		gen.W(6, gen.Map(gen.IntRange(-100, 1000), func(n int) int64 { return int64(n) })),
		gen.W(2, gen.SampledFrom[int64](0, 1, -1, math.MaxInt64, math.MinInt64, 1<<32, 1<<31)),
		gen.W(1, gen.Int64()),
	)
	wasmF64s = gen.OneOfWeighted(
		gen.W(3, gen.Map(gen.IntRange(-1000, 1000), func(n int) float64 { return float64(n) / 4 })),
		gen.W(2, gen.SampledFrom(0.0, math.Copysign(0, -1), 1.0, -1.5, 2147483648.0, 4294967296.0, 9.3e18, 1e300, 5e-324, math.Inf(1), math.Inf(-1), math.NaN())),
		gen.W(1, gen.Float64()),
	)
	wasmCustomBytes = gen.BytesRange(0, 12)
)

// wasmOps are the numeric instructions by their operand and result types
// (section 5.4.7): op is the opcode, or the 0xfc/0xfd prefix followed by
// the sub-opcode.
type wasmOp struct {
	code []byte
	args []byte
	res  byte
}

func wasmOpsOf(args []byte, res byte, codes ...byte) []wasmOp {
	ops := make([]wasmOp, len(codes))
	for i, c := range codes {
		ops[i] = wasmOp{code: []byte{c}, args: args, res: res}
	}
	return ops
}

var wasmNumericOps = slices.Concat(
	wasmOpsOf([]byte{wasmI32}, wasmI32, 0x45, 0x67, 0x68, 0x69, 0xc0, 0xc1),
	wasmOpsOf([]byte{wasmI32, wasmI32}, wasmI32, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f,
		0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78),
	wasmOpsOf([]byte{wasmI64}, wasmI32, 0x50, 0xa7),
	wasmOpsOf([]byte{wasmI64, wasmI64}, wasmI32, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a),
	wasmOpsOf([]byte{wasmF32, wasmF32}, wasmI32, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f, 0x60),
	wasmOpsOf([]byte{wasmF64, wasmF64}, wasmI32, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66),
	wasmOpsOf([]byte{wasmI64}, wasmI64, 0x79, 0x7a, 0x7b, 0xc2, 0xc3, 0xc4),
	wasmOpsOf([]byte{wasmI64, wasmI64}, wasmI64, 0x7c, 0x7d, 0x7e, 0x7f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a),
	wasmOpsOf([]byte{wasmF32}, wasmF32, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91),
	wasmOpsOf([]byte{wasmF32, wasmF32}, wasmF32, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98),
	wasmOpsOf([]byte{wasmF64}, wasmF64, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f),
	wasmOpsOf([]byte{wasmF64, wasmF64}, wasmF64, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6),
	wasmOpsOf([]byte{wasmF32}, wasmI32, 0xa8, 0xa9, 0xbc),
	wasmOpsOf([]byte{wasmF64}, wasmI32, 0xaa, 0xab),
	wasmOpsOf([]byte{wasmI32}, wasmI64, 0xac, 0xad),
	wasmOpsOf([]byte{wasmF32}, wasmI64, 0xae, 0xaf),
	wasmOpsOf([]byte{wasmF64}, wasmI64, 0xb0, 0xb1, 0xbd),
	wasmOpsOf([]byte{wasmI32}, wasmF32, 0xb2, 0xb3, 0xbe),
	wasmOpsOf([]byte{wasmI64}, wasmF32, 0xb4, 0xb5),
	wasmOpsOf([]byte{wasmF64}, wasmF32, 0xb6),
	wasmOpsOf([]byte{wasmI32}, wasmF64, 0xb7, 0xb8),
	wasmOpsOf([]byte{wasmI64}, wasmF64, 0xb9, 0xba, 0xbf),
	wasmOpsOf([]byte{wasmF32}, wasmF64, 0xbb),
	// non-trapping float-to-int conversions (0xfc 0-7)
	[]wasmOp{
		{[]byte{0xfc, 0}, []byte{wasmF32}, wasmI32}, {[]byte{0xfc, 1}, []byte{wasmF32}, wasmI32},
		{[]byte{0xfc, 2}, []byte{wasmF64}, wasmI32}, {[]byte{0xfc, 3}, []byte{wasmF64}, wasmI32},
		{[]byte{0xfc, 4}, []byte{wasmF32}, wasmI64}, {[]byte{0xfc, 5}, []byte{wasmF32}, wasmI64},
		{[]byte{0xfc, 6}, []byte{wasmF64}, wasmI64}, {[]byte{0xfc, 7}, []byte{wasmF64}, wasmI64},
	},
	// a few vector instructions (0xfd): splats, lane reads, bitwise and
	// lane-wise arithmetic, tests
	[]wasmOp{
		{[]byte{0xfd, 0x0f}, []byte{wasmI32}, wasmV128}, {[]byte{0xfd, 0x11}, []byte{wasmI32}, wasmV128},
		{[]byte{0xfd, 0x12}, []byte{wasmI64}, wasmV128}, {[]byte{0xfd, 0x13}, []byte{wasmF32}, wasmV128},
		{[]byte{0xfd, 0x14}, []byte{wasmF64}, wasmV128},
		{[]byte{0xfd, 0x4d}, []byte{wasmV128}, wasmV128},
		{[]byte{0xfd, 0x4e}, []byte{wasmV128, wasmV128}, wasmV128}, {[]byte{0xfd, 0x50}, []byte{wasmV128, wasmV128}, wasmV128},
		{[]byte{0xfd, 0x51}, []byte{wasmV128, wasmV128}, wasmV128}, {[]byte{0xfd, 0x23}, []byte{wasmV128, wasmV128}, wasmV128},
		{[]byte{0xfd, 0x6e}, []byte{wasmV128, wasmV128}, wasmV128}, {[]byte{0xfd, 0xae, 0x01}, []byte{wasmV128, wasmV128}, wasmV128},
		{[]byte{0xfd, 0xb5, 0x01}, []byte{wasmV128, wasmV128}, wasmV128}, {[]byte{0xfd, 0xe4, 0x01}, []byte{wasmV128, wasmV128}, wasmV128},
		{[]byte{0xfd, 0x53}, []byte{wasmV128}, wasmI32}, {[]byte{0xfd, 0xa3, 0x01}, []byte{wasmV128}, wasmI32},
		{[]byte{0xfd, 0xa4, 0x01}, []byte{wasmV128}, wasmI32},
	},
)

// wasmLoads and wasmStores are the memory instructions with their value
// type and natural alignment (log2 of the access size).
type wasmMemOp struct {
	code  []byte
	t     byte
	align int
}

var (
	wasmLoads = []wasmMemOp{
		{[]byte{0x28}, wasmI32, 2}, {[]byte{0x29}, wasmI64, 3}, {[]byte{0x2a}, wasmF32, 2}, {[]byte{0x2b}, wasmF64, 3},
		{[]byte{0x2c}, wasmI32, 0}, {[]byte{0x2d}, wasmI32, 0}, {[]byte{0x2e}, wasmI32, 1}, {[]byte{0x2f}, wasmI32, 1},
		{[]byte{0x30}, wasmI64, 0}, {[]byte{0x31}, wasmI64, 0}, {[]byte{0x32}, wasmI64, 1}, {[]byte{0x33}, wasmI64, 1},
		{[]byte{0x34}, wasmI64, 2}, {[]byte{0x35}, wasmI64, 2}, {[]byte{0xfd, 0x00}, wasmV128, 4},
	}
	wasmStores = []wasmMemOp{
		{[]byte{0x36}, wasmI32, 2}, {[]byte{0x37}, wasmI64, 3}, {[]byte{0x38}, wasmF32, 2}, {[]byte{0x39}, wasmF64, 3},
		{[]byte{0x3a}, wasmI32, 0}, {[]byte{0x3b}, wasmI32, 1}, {[]byte{0x3c}, wasmI64, 0}, {[]byte{0x3d}, wasmI64, 1},
		{[]byte{0x3e}, wasmI64, 2}, {[]byte{0xfd, 0x0b}, wasmV128, 4},
	}
)

func wasmU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func wasmS64(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func wasmName(b []byte, s string) []byte { return append(wasmU32(b, uint32(len(s))), s...) }

type wasmFuncType struct{ params, results []byte }

func (f wasmFuncType) equal(g wasmFuncType) bool {
	return slices.Equal(f.params, g.params) && slices.Equal(f.results, g.results)
}

type wasmLimits struct {
	min, max uint32
	hasMax   bool
}

type wasmTable struct {
	ref byte
	lim wasmLimits
}

type wasmGlobal struct {
	t        byte
	mut      bool
	imported bool
}

type wasmImport struct {
	mod, field string
	kind       byte
	typeIdx    int
	table      wasmTable
	mem        wasmLimits
	global     wasmGlobal
}

type wasmElem struct {
	ref     byte
	encoded []byte
}

type wasmLabel struct {
	types []byte // the values a branch to it carries
	loop  bool
}

// wasmGen draws one module.
type wasmGen struct {
	t   *gfz.T
	cfg WasmConfig

	types     []wasmFuncType
	imports   []wasmImport
	funcTypes []int // the type of every function, imported ones first
	nImpFuncs int
	tables    []wasmTable // imported ones first
	hasMem    bool
	mem       wasmLimits
	globals   []wasmGlobal // imported ones first
	declared  []int        // functions ref.func may name in code
	elems     []wasmElem
	nData     int
	dataCount bool

	// the function being drawn
	self    int // its index
	locals  []byte
	counter int // the local counting loop iterations
	labels  []wasmLabel
	code    [][]byte
}

func (g *wasmGen) intn(lo, hi int) int { return gen.IntRange(lo, hi).Draw(g.t) }
func (g *wasmGen) chance(perMille int) bool {
	return gen.IntRange(0, 999).Draw(g.t) < perMille
}

func (g *wasmGen) emit(b ...byte) { g.code = append(g.code, b) }

func (g *wasmGen) valType() byte { return wasmValTypes.Draw(g.t) }

func (g *wasmGen) limits(lo, hi int, maxPerMille int) wasmLimits {
	l := wasmLimits{min: uint32(g.intn(lo, hi))}
	if g.chance(maxPerMille) {
		l.hasMax = true
		l.max = l.min + uint32(g.intn(0, 4))
	}
	return l
}

func (g *wasmGen) encodeLimits(b []byte, l wasmLimits) []byte {
	if l.hasMax {
		return wasmU32(wasmU32(append(b, 1), l.min), l.max)
	}
	return wasmU32(append(b, 0), l.min)
}

func (g *wasmGen) funcType() wasmFuncType {
	var f wasmFuncType
	for range g.intn(0, 3) {
		f.params = append(f.params, g.valType())
	}
	n := gen.OneOfWeighted(gen.W(4, gen.Just(0)), gen.W(6, gen.Just(1)), gen.W(1, gen.IntRange(2, 3))).Draw(g.t)
	for range n {
		f.results = append(f.results, g.valType())
	}
	return f
}

// typeWith returns the index of a type equal to f, added when missing.
func (g *wasmGen) typeWith(f wasmFuncType) int {
	for i, ft := range g.types {
		if ft.equal(f) {
			return i
		}
	}
	g.types = append(g.types, f)
	return len(g.types) - 1
}

func (g *wasmGen) constOf(t byte) []byte {
	switch t {
	case wasmI32:
		return wasmS64([]byte{0x41}, int64(int32(wasmI32s.Draw(g.t))))
	case wasmI64:
		return wasmS64([]byte{0x42}, wasmI64s.Draw(g.t))
	case wasmF32:
		return binary.LittleEndian.AppendUint32([]byte{0x43}, math.Float32bits(float32(wasmF64s.Draw(g.t))))
	case wasmF64:
		return binary.LittleEndian.AppendUint64([]byte{0x44}, math.Float64bits(wasmF64s.Draw(g.t)))
	case wasmV128:
		b := []byte{0xfd, 0x0c}
		for range 4 {
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(wasmI32s.Draw(g.t))))
		}
		return b
	default:
		return []byte{0xd0, t}
	}
}

// constExpr draws a constant expression of type t (section 3.3.10): a
// constant, ref.null, ref.func, or global.get of an imported immutable
// global of that type; it appends end.
func (g *wasmGen) constExpr(t byte) []byte {
	var imported []int
	for i, gl := range g.globals {
		if gl.imported && !gl.mut && gl.t == t {
			imported = append(imported, i)
		}
	}
	if len(imported) > 0 && g.chance(300) {
		return append(wasmU32([]byte{0x23}, uint32(gen.SampledFrom(imported...).Draw(g.t))), wasmEnd)
	}
	if t == wasmFuncref && len(g.funcTypes) > 0 && gen.Bool().Draw(g.t) {
		f := g.intn(0, len(g.funcTypes)-1)
		g.declare(f)
		return append(wasmU32([]byte{0xd2}, uint32(f)), wasmEnd)
	}
	return append(g.constOf(t), wasmEnd)
}

func (g *wasmGen) declare(f int) {
	if !slices.Contains(g.declared, f) {
		g.declared = append(g.declared, f)
	}
}

func (g *wasmGen) drawImports() {
	for range gen.OneOfWeighted(gen.W(2, gen.Just(0)), gen.W(3, gen.IntRange(1, 3)), gen.W(1, gen.IntRange(4, 6))).Draw(g.t) {
		imp := wasmImport{mod: wasmModNames.Draw(g.t), field: wasmFieldName.Draw(g.t)}
		kinds := []gen.Weighted[byte]{gen.W(5, gen.Just[byte](wasmKindFunc)), gen.W(4, gen.Just[byte](wasmKindGlobal)), gen.W(1, gen.Just[byte](wasmKindTable))}
		if !g.hasMem {
			kinds = append(kinds, gen.W(1, gen.Just[byte](wasmKindMemory)))
		}
		imp.kind = gen.OneOfWeighted(kinds...).Draw(g.t)
		switch imp.kind {
		case wasmKindFunc:
			imp.typeIdx = g.intn(0, len(g.types)-1)
			g.funcTypes = append(g.funcTypes, imp.typeIdx)
			g.nImpFuncs++
		case wasmKindGlobal:
			imp.global = wasmGlobal{t: g.valType(), mut: g.chance(250), imported: true}
			g.globals = append(g.globals, imp.global)
		case wasmKindTable:
			imp.table = wasmTable{ref: wasmRefTypes.Draw(g.t), lim: g.limits(0, 8, 850)}
			g.tables = append(g.tables, imp.table)
		case wasmKindMemory:
			imp.mem = g.limits(0, 2, 500)
			g.hasMem, g.mem = true, imp.mem
		}
		g.imports = append(g.imports, imp)
	}
}

// elemSegment draws an element segment (section 5.5.12) in one of its
// eight encodings: active (on table 0 or any table), passive or
// declarative, its items as function indexes or as constant expressions.
func (g *wasmGen) elemSegment() wasmElem {
	mode := gen.OneOfWeighted(gen.W(3, gen.Just(0)), gen.W(2, gen.Just(1)), gen.W(1, gen.Just(2))).Draw(g.t) // active, passive, declarative
	exprs := gen.Bool().Draw(g.t)
	ref := byte(wasmFuncref)
	if exprs {
		ref = wasmRefTypes.Draw(g.t)
	}
	table := -1
	var tmin uint32 = 4
	if mode == 0 {
		var fitting []int
		for i, tb := range g.tables {
			if tb.ref == ref {
				fitting = append(fitting, i)
			}
		}
		if len(fitting) == 0 {
			mode = 1
		} else {
			table = gen.SampledFrom(fitting...).Draw(g.t)
			tmin = g.tables[table].lim.min
		}
	}
	n := g.intn(0, int(min(tmin, 5)))
	var b []byte
	switch {
	case mode == 0 && table == 0 && ref == wasmFuncref && gen.Bool().Draw(g.t):
		if exprs {
			b = append(b, 4)
		} else {
			b = append(b, 0)
		}
		b = append(b, g.offset(tmin, n)...)
	case mode == 0:
		if exprs {
			b = append(b, 6)
		} else {
			b = append(b, 2)
		}
		b = wasmU32(b, uint32(table))
		b = append(b, g.offset(tmin, n)...)
		if exprs {
			b = append(b, ref)
		} else {
			b = append(b, 0x00)
		}
	default:
		flags := byte(1) // passive
		if mode == 2 {
			flags = 3 // declarative
		}
		if exprs {
			b = append(b, flags|4, ref)
		} else {
			b = append(b, flags, 0x00)
		}
	}
	b = wasmU32(b, uint32(n))
	for range n {
		if exprs {
			b = append(b, g.constExpr(ref)...)
		} else {
			f := g.intn(0, len(g.funcTypes)-1)
			g.declare(f)
			b = wasmU32(b, uint32(f))
		}
	}
	return wasmElem{ref: ref, encoded: b}
}

// offset draws the offset expression of an active segment of n items in
// a table or memory of size size: mostly in bounds.
func (g *wasmGen) offset(size uint32, n int) []byte {
	var imported []int
	for i, gl := range g.globals {
		if gl.imported && !gl.mut && gl.t == wasmI32 {
			imported = append(imported, i)
		}
	}
	if len(imported) > 0 && g.chance(200) {
		return append(wasmU32([]byte{0x23}, uint32(gen.SampledFrom(imported...).Draw(g.t))), wasmEnd)
	}
	hi := int(size) - n
	if hi < 0 || g.chance(30) {
		hi = int(size) + 2
	}
	return append(wasmS64([]byte{0x41}, int64(int32(g.intn(0, max(hi, 0))))), wasmEnd)
}

// ---- function bodies ----

func (g *wasmGen) memarg(natural int) []byte {
	align := g.intn(0, natural)
	off := gen.OneOfWeighted(gen.W(6, gen.IntRange(0, 64)), gen.W(1, gen.SampledFrom(1024, 65535, 65536, 1<<31))).Draw(g.t)
	return wasmU32(wasmU32(nil, uint32(align)), uint32(off))
}

func (g *wasmGen) localsOf(t byte) []int {
	var is []int
	for i, l := range g.locals {
		if l == t {
			is = append(is, i)
		}
	}
	return is
}

func (g *wasmGen) globalsOf(t byte, mutable bool) []int {
	var is []int
	for i, gl := range g.globals {
		if gl.t == t && (!mutable || gl.mut) {
			is = append(is, i)
		}
	}
	return is
}

func (g *wasmGen) tablesOf(ref byte) []int {
	var is []int
	for i, tb := range g.tables {
		if ref == 0 || tb.ref == ref {
			is = append(is, i)
		}
	}
	return is
}

// callees returns the functions the function being drawn may call, those
// with the results res (any results when res is nil): the functions
// before it (imports first), so that the call graph has no cycle and
// programs end.
func (g *wasmGen) callees(res []byte) []int {
	var is []int
	for i, ti := range g.funcTypes[:g.self] {
		if res == nil || slices.Equal(g.types[ti].results, res) {
			is = append(is, i)
		}
	}
	return is
}

// exprs emits instructions that push values of the types ts, in order.
func (g *wasmGen) exprs(ts []byte, depth int) {
	for _, t := range ts {
		g.expr(t, depth)
	}
}

// leaf emits a constant or a read of a local or global of type t.
func (g *wasmGen) leaf(t byte) {
	ls, gs := g.localsOf(t), g.globalsOf(t, false)
	switch k := g.intn(0, 5); {
	case k <= 1 && len(ls) > 0:
		g.emit(wasmU32([]byte{0x20}, uint32(gen.SampledFrom(ls...).Draw(g.t)))...)
	case k == 2 && len(gs) > 0:
		g.emit(wasmU32([]byte{0x23}, uint32(gen.SampledFrom(gs...).Draw(g.t)))...)
	case t == wasmFuncref && len(g.declared) > 0 && k >= 4:
		g.emit(wasmU32([]byte{0xd2}, uint32(gen.SampledFrom(g.declared...).Draw(g.t)))...)
	default:
		g.emit(g.constOf(t)...)
	}
}

// expr emits instructions that push one value of type t, nested at most
// depth deep.
func (g *wasmGen) expr(t byte, depth int) {
	if depth <= 0 || g.chance(250) {
		g.leaf(t)
		return
	}
	d := depth - 1
	var alts []func()
	add := func(w int, f func()) {
		for range w {
			alts = append(alts, f)
		}
	}
	var ops []wasmOp
	for _, op := range wasmNumericOps {
		if op.res == t {
			ops = append(ops, op)
		}
	}
	if len(ops) > 0 {
		add(6, func() {
			op := gen.SampledFrom(ops...).Draw(g.t)
			g.exprs(op.args, d)
			g.emit(op.code...)
		})
	}
	if g.hasMem {
		var loads []wasmMemOp
		for _, op := range wasmLoads {
			if op.t == t {
				loads = append(loads, op)
			}
		}
		if len(loads) > 0 {
			add(2, func() {
				op := gen.SampledFrom(loads...).Draw(g.t)
				g.expr(wasmI32, d)
				g.emit(append(slices.Clone(op.code), g.memarg(op.align)...)...)
			})
		}
		if t == wasmI32 {
			add(1, func() { g.emit(0x3f, 0x00) })
			add(1, func() { g.expr(wasmI32, d); g.emit(0x40, 0x00) })
		}
	}
	if fs := g.callees([]byte{t}); len(fs) > 0 {
		add(2, func() {
			f := gen.SampledFrom(fs...).Draw(g.t)
			g.exprs(g.types[g.funcTypes[f]].params, d)
			g.emit(wasmU32([]byte{0x10}, uint32(f))...)
		})
	}
	if tbs := g.tablesOf(wasmFuncref); len(tbs) > 0 {
		var tis []int
		for i, ft := range g.types {
			if slices.Equal(ft.results, []byte{t}) {
				tis = append(tis, i)
			}
		}
		if len(tis) > 0 {
			add(1, func() {
				ti := gen.SampledFrom(tis...).Draw(g.t)
				g.exprs(g.types[ti].params, d)
				g.expr(wasmI32, d)
				g.emit(wasmU32(wasmU32([]byte{0x11}, uint32(ti)), uint32(gen.SampledFrom(tbs...).Draw(g.t)))...)
			})
		}
	}
	if ls := slices.DeleteFunc(g.localsOf(t), func(l int) bool { return l == g.counter }); len(ls) > 0 {
		add(1, func() {
			l := gen.SampledFrom(ls...).Draw(g.t)
			g.expr(t, d)
			g.emit(wasmU32([]byte{0x22}, uint32(l))...)
		})
	}
	add(1, func() { // select
		g.expr(t, d)
		g.expr(t, d)
		g.expr(wasmI32, d)
		if t == wasmFuncref || t == wasmExternref || gen.Bool().Draw(g.t) {
			g.emit(0x1c, 1, t)
		} else {
			g.emit(0x1b)
		}
	})
	add(2, func() { g.block(0x02, []byte{t}, d) })
	add(2, func() { g.ifElse([]byte{t}, d) })
	add(1, func() { g.block(0x03, []byte{t}, d) })
	add(1, func() { // a value, and a conditional branch out of the block carrying it
		g.labels = append(g.labels, wasmLabel{types: []byte{t}})
		g.emit(0x02, t)
		g.expr(t, d)
		g.expr(wasmI32, d)
		g.emit(0x0d, 0)
		g.labels = g.labels[:len(g.labels)-1]
		g.emit(wasmEnd)
	})
	switch t {
	case wasmI32:
		add(1, func() { // ref.is_null
			g.expr(wasmRefTypes.Draw(g.t), d)
			g.emit(0xd1)
		})
		if tbs := g.tablesOf(0); len(tbs) > 0 {
			add(1, func() { g.emit(wasmU32([]byte{0xfc, 0x10}, uint32(gen.SampledFrom(tbs...).Draw(g.t)))...) })
			add(1, func() {
				tb := gen.SampledFrom(tbs...).Draw(g.t)
				g.expr(g.tables[tb].ref, d)
				g.expr(wasmI32, d)
				g.emit(wasmU32([]byte{0xfc, 0x0f}, uint32(tb))...)
			})
		}
		add(1, func() { // lane read
			g.expr(wasmV128, d)
			g.emit(0xfd, 0x1b, byte(g.intn(0, 3)))
		})
	case wasmFuncref, wasmExternref:
		if tbs := g.tablesOf(t); len(tbs) > 0 {
			add(2, func() {
				tb := gen.SampledFrom(tbs...).Draw(g.t)
				g.expr(wasmI32, d)
				g.emit(wasmU32([]byte{0x25}, uint32(tb))...)
			})
		}
	}
	gen.SampledFrom(alts...).Draw(g.t)()
}

// blockType draws the type of a block that leaves results: the empty
// type or a single value type when it fits, else the index of a function
// type (added when missing); the block takes params from the stack.
func (g *wasmGen) blockType(params, results []byte) []byte {
	if len(params) == 0 && len(results) == 0 && g.chance(800) {
		return []byte{0x40}
	}
	if len(params) == 0 && len(results) == 1 && g.chance(800) {
		return []byte{results[0]}
	}
	return wasmS64(nil, int64(g.typeWith(wasmFuncType{params: params, results: results})))
}

// body emits the inside of a block whose params are on the stack and that
// must leave results: it drops the params, runs statements, then pushes
// the results or branches away.
func (g *wasmGen) body(params, results []byte, depth int) {
	for range params {
		g.emit(0x1a)
	}
	for range g.intn(0, g.cfg.MaxStmts) {
		g.stmt(depth)
	}
	if g.chance(150) {
		g.branchAway(depth)
		return
	}
	g.exprs(results, depth)
}

// exits returns the depths of the enclosing labels a branch may target:
// those of blocks, ifs and the function, not loops (a loop repeats only
// through its counted back edge, so that programs end); with the types
// want only, when typed.
func (g *wasmGen) exits(typed bool, want []byte) []int {
	var ls []int
	for i := range g.labels {
		lb := g.labels[len(g.labels)-1-i]
		if !lb.loop && (!typed || slices.Equal(lb.types, want)) {
			ls = append(ls, i)
		}
	}
	return ls
}

// branchAway emits an instruction after which the rest of the block is
// unreachable: br or br_table out to an enclosing label with its values,
// return with the function's results, or unreachable.
func (g *wasmGen) branchAway(depth int) {
	switch g.intn(0, 3) {
	case 0:
		l := gen.SampledFrom(g.exits(false, nil)...).Draw(g.t)
		g.exprs(g.labels[len(g.labels)-1-l].types, depth)
		g.emit(wasmU32([]byte{0x0c}, uint32(l))...)
	case 1:
		l := gen.SampledFrom(g.exits(false, nil)...).Draw(g.t)
		want := g.labels[len(g.labels)-1-l].types
		same := g.exits(true, want)
		g.exprs(want, depth)
		g.expr(wasmI32, depth)
		n := g.intn(0, 3)
		b := wasmU32([]byte{0x0e}, uint32(n))
		for range n {
			b = wasmU32(b, uint32(gen.SampledFrom(same...).Draw(g.t)))
		}
		g.emit(wasmU32(b, uint32(l))...)
	case 2:
		g.exprs(g.labels[0].types, depth)
		g.emit(0x0f)
	default:
		g.emit(0x00)
	}
}

// block emits block (op 0x02) or loop (0x03) leaving results.
func (g *wasmGen) block(op byte, results []byte, depth int) {
	var params []byte
	if g.chance(150) {
		params = g.funcType().params
	}
	g.exprs(params, depth)
	g.emit(append([]byte{op}, g.blockType(params, results)...)...)
	branch := results
	if op == 0x03 {
		branch = params
	}
	g.labels = append(g.labels, wasmLabel{types: branch, loop: op == 0x03})
	if op == 0x03 && g.chance(600) {
		// a counted loop: the body, then the back edge taken while the
		// function's loop counter is below a bound
		for range params {
			g.emit(0x1a)
		}
		for range g.intn(0, g.cfg.MaxStmts) {
			g.stmt(depth)
		}
		g.exprs(params, depth)
		c := wasmU32([]byte{0x20}, uint32(g.counter))
		g.emit(c...)
		g.emit(0x41, 1)
		g.emit(0x6a)
		g.emit(wasmU32([]byte{0x22}, uint32(g.counter))...)
		g.emit(wasmS64([]byte{0x41}, int64(g.intn(1, 16)))...)
		g.emit(0x49) // i32.lt_u
		g.emit(0x0d, 0)
		for range params {
			g.emit(0x1a)
		}
		g.exprs(results, depth)
	} else {
		g.body(params, results, depth)
	}
	g.labels = g.labels[:len(g.labels)-1]
	g.emit(wasmEnd)
}

// ifElse emits if ... else ... end leaving results (without else when
// there are none).
func (g *wasmGen) ifElse(results []byte, depth int) {
	g.expr(wasmI32, depth)
	g.emit(append([]byte{0x04}, g.blockType(nil, results)...)...)
	g.labels = append(g.labels, wasmLabel{types: results})
	g.body(nil, results, depth)
	if len(results) > 0 || gen.Bool().Draw(g.t) {
		g.emit(0x05)
		g.body(nil, results, depth)
	}
	g.labels = g.labels[:len(g.labels)-1]
	g.emit(wasmEnd)
}

// stmt emits instructions that leave the stack as they found it.
func (g *wasmGen) stmt(depth int) {
	d := depth - 1
	var alts []func()
	add := func(w int, f func()) {
		for range w {
			alts = append(alts, f)
		}
	}
	add(2, func() { g.expr(g.valType(), d); g.emit(0x1a) })
	add(1, func() { g.emit(0x01) })
	if g.counter > 0 {
		add(3, func() {
			l := g.intn(0, g.counter-1) // not the loop counter
			g.expr(g.locals[l], d)
			g.emit(wasmU32([]byte{0x21}, uint32(l))...)
		})
	}
	var mutable []int
	for i, gl := range g.globals {
		if gl.mut {
			mutable = append(mutable, i)
		}
	}
	if len(mutable) > 0 {
		add(1, func() {
			gi := gen.SampledFrom(mutable...).Draw(g.t)
			g.expr(g.globals[gi].t, d)
			g.emit(wasmU32([]byte{0x24}, uint32(gi))...)
		})
	}
	if g.hasMem {
		add(2, func() {
			op := gen.SampledFrom(wasmStores...).Draw(g.t)
			g.expr(wasmI32, d)
			g.expr(op.t, d)
			g.emit(append(slices.Clone(op.code), g.memarg(op.align)...)...)
		})
		add(1, func() { // memory.fill and memory.copy
			g.exprs([]byte{wasmI32, wasmI32, wasmI32}, d)
			if gen.Bool().Draw(g.t) {
				g.emit(0xfc, 0x0b, 0x00)
			} else {
				g.emit(0xfc, 0x0a, 0x00, 0x00)
			}
		})
		if g.dataCount && g.nData > 0 {
			add(1, func() {
				g.exprs([]byte{wasmI32, wasmI32, wasmI32}, d)
				g.emit(append(wasmU32([]byte{0xfc, 0x08}, uint32(g.intn(0, g.nData-1))), 0x00)...)
			})
		}
	}
	if g.dataCount && g.nData > 0 {
		add(1, func() { g.emit(wasmU32([]byte{0xfc, 0x09}, uint32(g.intn(0, g.nData-1)))...) })
	}
	if len(g.tables) > 0 {
		add(1, func() { // table.set or table.fill
			tb := g.intn(0, len(g.tables)-1)
			g.expr(wasmI32, d)
			g.expr(g.tables[tb].ref, d)
			if gen.Bool().Draw(g.t) {
				g.emit(wasmU32([]byte{0x26}, uint32(tb))...)
			} else {
				g.expr(wasmI32, d)
				g.emit(wasmU32([]byte{0xfc, 0x11}, uint32(tb))...)
			}
		})
		add(1, func() { // table.copy between tables of one type
			dst := g.intn(0, len(g.tables)-1)
			src := gen.SampledFrom(g.tablesOf(g.tables[dst].ref)...).Draw(g.t)
			g.exprs([]byte{wasmI32, wasmI32, wasmI32}, d)
			g.emit(wasmU32(wasmU32([]byte{0xfc, 0x0e}, uint32(dst)), uint32(src))...)
		})
		if len(g.elems) > 0 {
			add(1, func() { // table.init from a segment of the table's type
				e := g.intn(0, len(g.elems)-1)
				if tbs := g.tablesOf(g.elems[e].ref); len(tbs) > 0 {
					g.exprs([]byte{wasmI32, wasmI32, wasmI32}, d)
					g.emit(wasmU32(wasmU32([]byte{0xfc, 0x0c}, uint32(e)), uint32(gen.SampledFrom(tbs...).Draw(g.t)))...)
				}
			})
		}
	}
	if len(g.elems) > 0 {
		add(1, func() { g.emit(wasmU32([]byte{0xfc, 0x0d}, uint32(g.intn(0, len(g.elems)-1)))...) })
	}
	if fs := g.callees(nil); len(fs) > 0 {
		add(2, func() {
			f := gen.SampledFrom(fs...).Draw(g.t)
			ft := g.types[g.funcTypes[f]]
			g.exprs(ft.params, d)
			g.emit(wasmU32([]byte{0x10}, uint32(f))...)
			for range ft.results {
				g.emit(0x1a)
			}
		})
	}
	if depth > 0 {
		add(2, func() { g.block(0x02, nil, d) })
		add(1, func() { g.block(0x03, nil, d) })
		add(2, func() { g.ifElse(nil, d) })
		add(2, func() { // a conditional branch out to an enclosing label
			l := gen.SampledFrom(g.exits(false, nil)...).Draw(g.t)
			ts := g.labels[len(g.labels)-1-l].types
			g.exprs(ts, d)
			g.expr(wasmI32, d)
			g.emit(wasmU32([]byte{0x0d}, uint32(l))...)
			for range ts {
				g.emit(0x1a)
			}
		})
	}
	gen.SampledFrom(alts...).Draw(g.t)()
}

// slip applies one instruction-level near miss to the body's
// instructions: delete one, repeat one, insert a stray instruction (a
// structured-control opcode, a drop or select, a local or global access
// with an index one past the end, a call or branch depth off by one), or
// swap two neighbours.
func (g *wasmGen) slip() {
	if len(g.code) == 0 {
		return
	}
	i := g.intn(0, len(g.code)-1)
	switch g.intn(0, 3) {
	case 0:
		g.code = slices.Delete(g.code, i, i+1)
	case 1:
		g.code = slices.Insert(g.code, i, g.code[i])
	case 2:
		stray := gen.SampledFrom(
			[]byte{wasmEnd}, []byte{0x05}, []byte{0x02, 0x40}, []byte{0x03, 0x40}, []byte{0x1a}, []byte{0x1b},
			wasmU32([]byte{0x20}, uint32(len(g.locals))), wasmU32([]byte{0x23}, uint32(len(g.globals))),
			wasmU32([]byte{0x10}, uint32(len(g.funcTypes))), wasmU32([]byte{0x0c}, uint32(len(g.labels)+1)),
			[]byte{0x00}, []byte{0x0f},
		).Draw(g.t)
		g.code = slices.Insert(g.code, i, stray)
	default:
		if i+1 < len(g.code) {
			g.code[i], g.code[i+1] = g.code[i+1], g.code[i]
		}
	}
}

// funcBody draws the body of a function of type ft: local declarations
// and its instructions, with a slip SlipsPer times in a thousand.
func (g *wasmGen) funcBody(ft wasmFuncType) []byte {
	g.locals = slices.Clone(ft.params)
	var decl []byte
	groups := g.intn(0, 3)
	decl = wasmU32(decl, uint32(groups+1))
	for range groups {
		n, t := g.intn(1, 3), g.valType()
		decl = append(wasmU32(decl, uint32(n)), t)
		for range n {
			g.locals = append(g.locals, t)
		}
	}
	// the last local counts the iterations of the function's loops;
	// nothing else writes it
	g.counter = len(g.locals)
	g.locals = append(g.locals, wasmI32)
	decl = append(decl, 1, wasmI32)
	g.labels = []wasmLabel{{types: ft.results}}
	g.code = nil
	g.body(nil, ft.results, g.cfg.MaxDepth)
	if g.chance(g.cfg.SlipsPer) {
		g.slip()
	}
	b := decl
	for _, in := range g.code {
		b = append(b, in...)
	}
	b = append(b, wasmEnd)
	return append(wasmU32(nil, uint32(len(b))), b...)
}

// wasmSection appends a section: its id, size and content.
func wasmSection(b []byte, id byte, content []byte) []byte {
	return append(wasmU32(append(b, id), uint32(len(content))), content...)
}

// wasmVec appends a section holding a vector of n items, when n > 0.
func wasmVec(b []byte, id byte, n int, items []byte) []byte {
	if n == 0 {
		return b
	}
	return wasmSection(b, id, append(wasmU32(nil, uint32(n)), items...))
}

// Wasm draws WebAssembly modules in the binary format (WebAssembly Core
// Specification 2.0: the MVP plus sign extension, non-trapping
// conversions, multiple values, reference types, bulk memory and a few
// vector instructions): function types, imports of functions, globals,
// tables and a memory (module and field names from a list of common ones
// or drawn), functions, tables of funcref or externref, a memory,
// globals with constant initialisers (constants, ref.null, ref.func,
// global.get of an imported global), exports, a start function, element
// segments in their eight encodings (active, passive or declarative;
// function indexes or constant expressions), a data count, function
// bodies and data segments (active or passive), and custom sections (a
// name section, others). Function bodies are well typed: locals of every
// type, expressions nested to MaxDepth over the numeric, memory, table,
// reference, variable and call instructions, blocks, loops and ifs with
// single or multiple values (by type index, params included), branches
// with their values (br, br_if, br_table, return), unreachable. Programs
// mostly end: a loop repeats only through a back edge taken while a
// counter local, which nothing else writes, is below a small bound; other
// branches leave blocks; a function calls only the functions before it
// (call_indirect excepted). SlipsPer per mille of the bodies get one
// instruction-level near miss (see slip); MistakesPer per mille of the
// modules go through CorruptBytes.
func Wasm(cfg WasmConfig) gen.Generator[[]byte] {
	cfg = cfg.withDefaults()
	return gen.Custom(func(t *gfz.T) []byte {
		g := &wasmGen{t: t, cfg: cfg}
		return CorruptBytes(t, g.module(), cfg.MistakesPer)
	}).Named("wasm")
}

func (g *wasmGen) module() []byte {
	for range g.intn(1, g.cfg.MaxTypes) {
		g.types = append(g.types, g.funcType())
	}
	if g.chance(500) {
		g.typeWith(wasmFuncType{}) // () -> (), for a start function
	}
	g.drawImports()

	nFuncs := g.intn(0, g.cfg.MaxFuncs)
	if g.chance(900) {
		nFuncs = max(nFuncs, 1)
	}
	for range nFuncs {
		g.funcTypes = append(g.funcTypes, g.intn(0, len(g.types)-1))
	}

	var tableSec []byte
	nTables := gen.OneOfWeighted(gen.W(3, gen.Just(0)), gen.W(3, gen.Just(1)), gen.W(1, gen.Just(2))).Draw(g.t)
	for range nTables {
		tb := wasmTable{ref: wasmRefTypes.Draw(g.t), lim: g.limits(0, 10, 850)}
		g.tables = append(g.tables, tb)
		tableSec = g.encodeLimits(append(tableSec, tb.ref), tb.lim)
	}

	var memSec []byte
	definesMem := !g.hasMem && g.chance(600)
	if definesMem {
		g.hasMem, g.mem = true, g.limits(0, 2, 500)
		memSec = g.encodeLimits(nil, g.mem)
	}

	var globalSec []byte
	nGlobals := g.intn(0, 4)
	for range nGlobals {
		gl := wasmGlobal{t: g.valType(), mut: gen.Bool().Draw(g.t)}
		mut := byte(0)
		if gl.mut {
			mut = 1
		}
		globalSec = append(append(globalSec, gl.t, mut), g.constExpr(gl.t)...)
		g.globals = append(g.globals, gl)
	}

	// exports: most functions, now and then the memory, a table or a
	// global; a name used twice now and then (a near miss)
	var exportSec []byte
	var names []string
	nExports := 0
	export := func(kind byte, index int) {
		name := wasmExportName.Draw(g.t)
		if slices.Contains(names, name) && g.chance(900) {
			name += string(rune('0' + len(names)%10))
		}
		if slices.Contains(names, name) && g.chance(900) {
			return
		}
		names = append(names, name)
		exportSec = append(wasmU32(wasmName(exportSec, name), uint32(kind)), wasmU32(nil, uint32(index))...)
		nExports++
	}
	for f := range g.funcTypes {
		if f >= g.nImpFuncs && g.chance(700) {
			export(wasmKindFunc, f)
			g.declare(f)
		}
	}
	if g.hasMem && g.chance(500) {
		export(wasmKindMemory, 0)
	}
	if len(g.tables) > 0 && g.chance(300) {
		export(wasmKindTable, g.intn(0, len(g.tables)-1))
	}
	if len(g.globals) > 0 && g.chance(300) {
		export(wasmKindGlobal, g.intn(0, len(g.globals)-1))
	}

	var startSec []byte
	if g.chance(150) {
		var candidates []int
		for f, ti := range g.funcTypes {
			if g.types[ti].equal(wasmFuncType{}) {
				candidates = append(candidates, f)
			}
		}
		if len(candidates) > 0 {
			startSec = wasmU32(nil, uint32(gen.SampledFrom(candidates...).Draw(g.t)))
		}
	}

	var elemSec []byte
	if len(g.funcTypes) > 0 {
		for range gen.OneOfWeighted(gen.W(3, gen.Just(0)), gen.W(2, gen.IntRange(1, 3))).Draw(g.t) {
			e := g.elemSegment()
			g.elems = append(g.elems, e)
			elemSec = append(elemSec, e.encoded...)
		}
	}

	var dataSec []byte
	g.nData = gen.OneOfWeighted(gen.W(3, gen.Just(0)), gen.W(2, gen.IntRange(1, 2))).Draw(g.t)
	for range g.nData {
		bs := wasmCustomBytes.Draw(g.t)
		if g.hasMem && g.chance(600) {
			size := g.mem.min * 65536
			if gen.Bool().Draw(g.t) {
				dataSec = append(dataSec, 0)
			} else {
				dataSec = append(dataSec, 2, 0)
			}
			dataSec = append(dataSec, g.offset(size, len(bs))...)
		} else {
			dataSec = append(dataSec, 1)
		}
		dataSec = append(wasmU32(dataSec, uint32(len(bs))), bs...)
	}
	g.dataCount = g.nData > 0 && g.chance(700)

	var codeSec []byte
	for f := g.nImpFuncs; f < len(g.funcTypes); f++ {
		g.self = f
		codeSec = append(codeSec, g.funcBody(g.types[g.funcTypes[f]])...)
	}

	// the sections in their order (block types drawn in bodies may have
	// added function types, so the type section is encoded last)
	var typeSec []byte
	for _, ft := range g.types {
		typeSec = append(wasmU32(append(typeSec, 0x60), uint32(len(ft.params))), ft.params...)
		typeSec = append(wasmU32(typeSec, uint32(len(ft.results))), ft.results...)
	}
	var importSec []byte
	for _, imp := range g.imports {
		importSec = append(wasmName(wasmName(importSec, imp.mod), imp.field), imp.kind)
		switch imp.kind {
		case wasmKindFunc:
			importSec = wasmU32(importSec, uint32(imp.typeIdx))
		case wasmKindTable:
			importSec = g.encodeLimits(append(importSec, imp.table.ref), imp.table.lim)
		case wasmKindMemory:
			importSec = g.encodeLimits(importSec, imp.mem)
		case wasmKindGlobal:
			mut := byte(0)
			if imp.global.mut {
				mut = 1
			}
			importSec = append(importSec, imp.global.t, mut)
		}
	}
	var funcSec []byte
	for _, ti := range g.funcTypes[g.nImpFuncs:] {
		funcSec = wasmU32(funcSec, uint32(ti))
	}

	b := []byte("\x00asm\x01\x00\x00\x00")
	if g.chance(30) {
		b = wasmSection(b, 0, append(wasmName(nil, "producers"), wasmCustomBytes.Draw(g.t)...))
	}
	b = wasmVec(b, 1, len(g.types), typeSec)
	b = wasmVec(b, 2, len(g.imports), importSec)
	b = wasmVec(b, 3, len(g.funcTypes)-g.nImpFuncs, funcSec)
	b = wasmVec(b, 4, nTables, tableSec)
	if definesMem {
		b = wasmVec(b, 5, 1, memSec)
	}
	b = wasmVec(b, 6, nGlobals, globalSec)
	b = wasmVec(b, 7, nExports, exportSec)
	if startSec != nil {
		b = wasmSection(b, 8, startSec)
	}
	b = wasmVec(b, 9, len(g.elems), elemSec)
	if g.dataCount {
		b = wasmSection(b, 12, wasmU32(nil, uint32(g.nData)))
	}
	b = wasmVec(b, 10, len(g.funcTypes)-g.nImpFuncs, codeSec)
	b = wasmVec(b, 11, g.nData, dataSec)
	if g.chance(200) {
		b = wasmSection(b, 0, g.nameSection())
	}
	return b
}

// nameSection draws the content of a name section: the module's name and
// the names of some functions and locals.
func (g *wasmGen) nameSection() []byte {
	b := wasmName(nil, "name")
	if gen.Bool().Draw(g.t) {
		b = wasmSection(b, 0, wasmName(nil, wasmExportName.Draw(g.t)))
	}
	if len(g.funcTypes) > 0 {
		var fn []byte
		n := 0
		for f := range g.funcTypes {
			if gen.Bool().Draw(g.t) {
				fn = wasmName(wasmU32(fn, uint32(f)), wasmExportName.Draw(g.t))
				n++
			}
		}
		b = wasmSection(b, 1, append(wasmU32(nil, uint32(n)), fn...))
	}
	return b
}
