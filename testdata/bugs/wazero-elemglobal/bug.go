// Package wazeroelemglobal pins github.com/tetratelabs/wazero v1.6.0, whose
// instantiation panics (index out of range) on a module with a passive
// element segment of funcref expressions one of which is a global.get: the
// decoder marks such an item as a global's index with bit 30 set, to be
// resolved at instantiation, but buildElementInstances, which makes the
// element instances of passive segments, takes every non-null item for a
// function index and hands it to the engine's FunctionInstanceReference,
// which indexes the module's functions with 1<<30 plus the global's index.
// Active segments resolve the marked items; passive ones did not. Found by
// wazero's differential fuzzer in CI (the pull request links the failing
// fuzzing job and adds the module as fuzz case 2140); fixed in v1.7.0 by
// https://github.com/wazero/wazero/pull/2141 ("Fixes element instance for
// imported global func ref"), which reads the item from the global.
//
// A valid module of a particular shape: it imports a global of type
// funcref (WebAssembly 2.0 lets constant expressions read imported globals
// only) and has an element segment that is passive, in the expression
// encoding (flags 5), with a global.get among its items. The engine does
// not matter; this target uses the interpreter.
package wazeroelemglobal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"example.com/bugkit"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// Issue is the upstream fix (a pull request with the fuzzer's case; no
// issue was filed).
const Issue = "https://github.com/wazero/wazero/pull/2141"

// Site is the interpreter's FunctionInstanceReference (interpreter.go:453,
// &e.functions[funcIndex]) called by buildElementInstances (store.go:184),
// the loop over a passive segment's items that the fix changed. Other
// callers (globals initialised by ref.func, active segments) pass real
// function indexes.
var Site = bugkit.Site{
	Func:    "github.com/tetratelabs/wazero/internal/engine/interpreter.(*moduleEngine).FunctionInstanceReference",
	File:    "interpreter.go",
	Lines:   []int{453},
	Callers: []string{"github.com/tetratelabs/wazero/internal/wasm.(*ModuleInstance).buildElementInstances"},
}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Budget bounds the work of one module: its start function and the calls
// of its exports run under this deadline (the interpreter then checks it
// at every loop and call, as WithCloseOnContextDone documents).
const Budget = 5 * time.Millisecond

// MemoryLimitPages caps every memory (64 KiB pages).
const MemoryLimitPages = 16

// MaxTableSize is the largest maximum size of a table Load accepts.
const MaxTableSize = 1000

// Load does with a module what wazero's differential fuzzer does with the
// modules it draws (internal/integration_test/fuzz/wazerolib/nodiff.go at
// v1.6.0, whose case 2140 is the fix's test), on the interpreter only: it
// compiles the module, satisfies its imports with one module per imported
// module name that exports a zero value of each imported kind and type (a
// function returning zeros, a global holding zero or null, a memory or a
// table of the imported limits), instantiates it and calls each exported
// function, in the order of their names, with zero arguments. The start
// function and the calls run under Budget. Like a host that runs modules
// it does not trust, it bounds their resources: memories by
// MemoryLimitPages, and tables, which wazero does not bound (table.grow
// allocates up to 2^32 entries), by refusing a table, defined or
// imported, without a maximum or with one above MaxTableSize. A module
// that does not compile or instantiate, or whose imports cannot be
// satisfied that way, is an error; a trap in a call is not.
func Load(bin []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), Budget)
	defer cancel()
	cfg := wazero.NewRuntimeConfigInterpreter().
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(MemoryLimitPages)
	r := wazero.NewRuntimeWithConfig(ctx, cfg)
	defer r.Close(context.Background())

	compiled, err := r.CompileModule(ctx, bin)
	if err != nil {
		return fmt.Errorf("compile: %w", err)
	}
	imports, tables, err := ReadModule(bin)
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	for i, l := range tables {
		if !l.HasMax || l.Max > MaxTableSize {
			return fmt.Errorf("table %d: no maximum of at most %d", i, MaxTableSize)
		}
	}
	for _, m := range imports {
		dummy, err := dummyModule(m)
		if err != nil {
			return err
		}
		if _, err := r.InstantiateWithConfig(ctx, dummy, wazero.NewModuleConfig().WithName(m.Name).WithStartFunctions()); err != nil {
			return fmt.Errorf("import module %q: %w", m.Name, err)
		}
	}
	mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return fmt.Errorf("instantiate: %w", err)
	}
	exports := compiled.ExportedFunctions()
	names := make([]string, 0, len(exports))
	for name := range exports {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		params := make([]uint64, len(exports[name].ParamTypes()))
		if _, err := mod.ExportedFunction(name).Call(ctx, params...); err != nil && ctx.Err() != nil {
			break // out of time: the module is closed
		}
	}
	return nil
}

// Kinds of imports and exports (external kinds of the binary format).
const (
	kindFunc   = 0x00
	kindTable  = 0x01
	kindMemory = 0x02
	kindGlobal = 0x03
)

// Import is one import of a module.
type Import struct {
	Field     string
	Kind      byte
	Params    []api.ValueType // a function's type
	Result    []api.ValueType
	Ref       byte   // a table's element type
	LimitsRaw []byte // a table's or memory's limits, as encoded
	Global    []byte // a global's value type and mutability, as encoded
}

// ImportModule is the imports of a module from one module name, in the
// order of the import section.
type ImportModule struct {
	Name    string
	Imports []Import
}

type reader struct {
	b   []byte
	err error
}

var errTruncated = errors.New("truncated")

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.err = errTruncated
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.err = errors.New("bad LEB128")
	return 0
}

func (r *reader) bytes(n uint32) []byte {
	if uint32(len(r.b)) < n {
		r.err = errTruncated
		r.b = nil
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// Limits are the limits of a table (or a memory).
type Limits struct {
	Min, Max uint32
	HasMax   bool
}

// limits reads limits and returns them with their encoding.
func (r *reader) limits() (Limits, []byte) {
	start := r.b
	var l Limits
	flag := r.byte()
	l.Min = r.u32()
	if flag&1 != 0 {
		l.HasMax, l.Max = true, r.u32()
	}
	if r.err != nil {
		return l, nil
	}
	return l, start[:len(start)-len(r.b)]
}

// ReadModule reads the imports of a module the runtime has compiled (so
// its sections are well formed), grouped by module name, and the limits of
// its tables, imported ones first.
func ReadModule(bin []byte) ([]ImportModule, []Limits, error) {
	r := &reader{b: bin}
	r.bytes(8) // magic and version
	var types [][2][]api.ValueType
	var mods []ImportModule
	var tables []Limits
	for len(r.b) > 0 && r.err == nil {
		id := r.byte()
		sec := &reader{b: r.bytes(r.u32())}
		switch id {
		case 1:
			for range sec.u32() {
				sec.byte() // 0x60
				var ft [2][]api.ValueType
				for k := range 2 {
					for range sec.u32() {
						ft[k] = append(ft[k], sec.byte())
					}
				}
				types = append(types, ft)
			}
		case 2:
			for range sec.u32() {
				mod := string(sec.bytes(sec.u32()))
				imp := Import{Field: string(sec.bytes(sec.u32())), Kind: sec.byte()}
				switch imp.Kind {
				case kindFunc:
					ti := sec.u32()
					if int(ti) >= len(types) {
						return nil, nil, fmt.Errorf("type %d out of range", ti)
					}
					imp.Params, imp.Result = types[ti][0], types[ti][1]
				case kindTable:
					imp.Ref = sec.byte()
					var l Limits
					l, imp.LimitsRaw = sec.limits()
					tables = append(tables, l)
				case kindMemory:
					_, imp.LimitsRaw = sec.limits()
				case kindGlobal:
					imp.Global = sec.bytes(2)
				default:
					return nil, nil, fmt.Errorf("import kind %#x", imp.Kind)
				}
				i := slices.IndexFunc(mods, func(m ImportModule) bool { return m.Name == mod })
				if i < 0 {
					mods = append(mods, ImportModule{Name: mod})
					i = len(mods) - 1
				}
				mods[i].Imports = append(mods[i].Imports, imp)
			}
		case 4:
			for range sec.u32() {
				sec.byte() // element type
				l, _ := sec.limits()
				tables = append(tables, l)
			}
		}
		if sec.err != nil {
			return nil, nil, sec.err
		}
	}
	return mods, tables, r.err
}

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendName(b []byte, s string) []byte { return append(appendU32(b, uint32(len(s))), s...) }

func appendSection(b []byte, id byte, n int, body []byte) []byte {
	if n == 0 {
		return b
	}
	content := appendU32(nil, uint32(n))
	content = append(content, body...)
	b = append(b, id)
	b = appendU32(b, uint32(len(content)))
	return append(b, content...)
}

// zero appends a constant instruction of value type t holding zero (or
// null).
func zero(b []byte, t byte) []byte {
	switch t {
	case api.ValueTypeI32:
		return append(b, 0x41, 0)
	case api.ValueTypeI64:
		return append(b, 0x42, 0)
	case api.ValueTypeF32:
		return append(b, 0x43, 0, 0, 0, 0)
	case api.ValueTypeF64:
		return append(b, 0x44, 0, 0, 0, 0, 0, 0, 0, 0)
	case 0x7b: // v128
		return append(append(b, 0xfd, 0x0c), make([]byte, 16)...)
	default: // funcref, externref
		return append(b, 0xd0, t)
	}
}

// dummyModule encodes the module that satisfies m's imports, as the
// differential fuzzer's ensureDummyImports builds it: each import becomes
// an export of the same name and kind. A name imported twice is refused,
// as there.
func dummyModule(m ImportModule) ([]byte, error) {
	var types, funcs, tables, mems, globals, exports, code []byte
	var nTypes, nTables, nMems, nGlobals int
	seen := map[string]bool{}
	for _, imp := range m.Imports {
		if seen[imp.Field] {
			return nil, fmt.Errorf("import %q %q twice", m.Name, imp.Field)
		}
		seen[imp.Field] = true
		var index int
		switch imp.Kind {
		case kindFunc:
			types = append(types, 0x60)
			types = appendU32(types, uint32(len(imp.Params)))
			types = append(types, imp.Params...)
			types = appendU32(types, uint32(len(imp.Result)))
			types = append(types, imp.Result...)
			funcs = appendU32(funcs, uint32(nTypes))
			var body []byte
			for _, t := range imp.Result {
				body = zero(body, t)
			}
			body = append(append([]byte{0}, body...), 0x0b) // no locals; end
			code = append(appendU32(code, uint32(len(body))), body...)
			index = nTypes
			nTypes++
		case kindTable:
			tables = append(append(tables, imp.Ref), imp.LimitsRaw...)
			index = nTables
			nTables++
		case kindMemory:
			mems = append(mems, imp.LimitsRaw...)
			index = nMems
			nMems++
		case kindGlobal:
			globals = append(globals, imp.Global...)
			globals = append(zero(globals, imp.Global[0]), 0x0b)
			index = nGlobals
			nGlobals++
		}
		exports = appendName(exports, imp.Field)
		exports = append(exports, imp.Kind)
		exports = appendU32(exports, uint32(index))
	}
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = appendSection(b, 1, nTypes, types)
	b = appendSection(b, 3, nTypes, funcs)
	b = appendSection(b, 4, nTables, tables)
	b = appendSection(b, 5, nMems, mems)
	b = appendSection(b, 6, nGlobals, globals)
	b = appendSection(b, 7, len(m.Imports), exports)
	b = appendSection(b, 10, nTypes, code)
	return b, nil
}
