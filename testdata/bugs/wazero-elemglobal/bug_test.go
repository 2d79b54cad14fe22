package wazeroelemglobal

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// section encodes a section of the binary format holding a vector of the
// given items.
func section(id byte, items ...[]byte) []byte {
	body := appendU32(nil, uint32(len(items)))
	for _, it := range items {
		body = append(body, it...)
	}
	return append(appendU32([]byte{id}, uint32(len(body))), body...)
}

// body encodes a function body: no locals, the code and end.
func body(code ...byte) []byte {
	b := append([]byte{0}, code...)
	b = append(b, 0x0b)
	return append(appendU32(nil, uint32(len(b))), b...)
}

func module(sections ...[]byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		b = append(b, s...)
	}
	return b
}

// seeds are modules like those of the project's tests and examples (an
// add function, a factorial, memory with data, a host import and a start
// function, a table with an active segment and call_indirect, a mutable
// global); none has a passive element segment.
func seeds() [][]byte {
	const i32, i64 = 0x7f, 0x7e
	return [][]byte{
		module(),
		// (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add)
		module(
			section(1, []byte{0x60, 2, i32, i32, 1, i32}),
			section(3, []byte{0}),
			section(7, []byte{3, 'a', 'd', 'd', 0, 0}),
			section(10, body(0x20, 0, 0x20, 1, 0x6a)),
		),
		// recursive factorial on i64
		module(
			section(1, []byte{0x60, 1, i64, 1, i64}),
			section(3, []byte{0}),
			section(7, []byte{3, 'f', 'a', 'c', 0, 0}),
			section(10, body(0x20, 0, 0x50, 0x04, i64, 0x42, 1, 0x05, 0x20, 0, 0x20, 0, 0x42, 1, 0x7d, 0x10, 0, 0x7e, 0x0b)),
		),
		// (memory (export "memory") 1) (data (i32.const 8) "hello") and a load
		module(
			section(1, []byte{0x60, 0, 1, i32}),
			section(3, []byte{0}),
			section(5, []byte{0, 1}),
			section(7, []byte{6, 'm', 'e', 'm', 'o', 'r', 'y', 2, 0}, []byte{4, 'p', 'e', 'e', 'k', 0, 0}),
			section(10, body(0x41, 8, 0x28, 2, 0)),
			section(11, []byte{0, 0x41, 8, 0x0b, 5, 'h', 'e', 'l', 'l', 'o'}),
		),
		// (import "env" "log" (func (param i32))) and a start function calling it
		module(
			section(1, []byte{0x60, 1, i32, 0}, []byte{0x60, 0, 0}),
			section(2, []byte{3, 'e', 'n', 'v', 3, 'l', 'o', 'g', 0, 0}),
			section(3, []byte{1}),
			[]byte{8, 1, 1}, // (start 1)
			section(10, body(0x41, 42, 0x10, 0)),
		),
		// (table 2 2 funcref) (elem (i32.const 0) 0 1) and call_indirect
		module(
			section(1, []byte{0x60, 0, 1, i32}, []byte{0x60, 1, i32, 1, i32}),
			section(3, []byte{0}, []byte{0}, []byte{1}),
			section(4, []byte{0x70, 1, 2, 2}),
			section(7, []byte{4, 'c', 'a', 'l', 'l', 0, 2}),
			section(9, []byte{0, 0x41, 0, 0x0b, 2, 0, 1}),
			section(10, body(0x41, 1), body(0x41, 2), body(0x20, 0, 0x11, 0, 0)),
		),
		// (global (export "count") (mut i64) (i64.const 0)) and an increment
		module(
			section(1, []byte{0x60, 0, 0}),
			section(3, []byte{0}),
			section(6, []byte{i64, 1, 0x42, 0, 0x0b}),
			section(7, []byte{5, 'c', 'o', 'u', 'n', 't', 3, 0}, []byte{3, 'i', 'n', 'c', 0, 0}),
			section(10, body(0x23, 0, 0x42, 1, 0x7c, 0x24, 0)),
		),
	}
}

// FuzzNative is a plain target over Load: at v1.6.0 the project fuzzes
// with cargo-fuzz and wasm-smith (internal/integration_test/fuzz), which
// calls into Go through cgo; it has no Go fuzz target.
func FuzzNative(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, bin []byte) {
		_ = Load(bin)
	})
}

// FuzzGfz is the gfz target: WebAssembly modules from the grammar
// generator, 3% of the function bodies with an instruction-level slip and
// a tenth of the modules with byte-level near-miss edits; a module Load
// rejects is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	mod := gens.Wasm(gens.WasmConfig{MistakesPer: 100, SlipsPer: 30})
	gfz.Fuzz(f, func(t *gfz.T) {
		if err := Load(mod.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the fix's fuzz case 2140.wasm (Test2140):
//
//	(module
//	  (import "hh" "" (global (;0;) funcref))
//	  (elem (;0;) funcref (ref.null func) (ref.null func) (ref.null func) (global.get 0) (ref.null func)))
var reproducer = bugkit.Hex("0061736d01000000020801026868000370000913010570" +
	"05d0700bd0700bd0700b23000bd0700b")

// reproducerFuncs is the same shape in a module with functions, a table
// and an active segment: the passive segment mixes ref.func items with the
// global.get, which reads an import of another module name.
var reproducerFuncs = module(
	section(1, []byte{0x60, 0, 1, 0x7f}),
	section(2, []byte{3, 'e', 'n', 'v', 1, 'f', 3, 0x70, 0}),
	section(3, []byte{0}, []byte{0}),
	section(4, []byte{0x70, 1, 2, 2}),
	section(9,
		[]byte{0, 0x41, 0, 0x0b, 2, 0, 1},
		[]byte{5, 0x70, 3, 0xd2, 1, 0x0b, 0x23, 0, 0x0b, 0xd2, 0, 0x0b}),
	section(10, body(0x41, 1), body(0x41, 2)),
)

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Load(reproducer) }, "index out of range", IsBug)
	bugkit.ReproducerPanics(t, func() { _ = Load(reproducerFuncs) }, "index out of range", IsBug)
}

// TestSeedsLoad checks that the seeds are valid modules.
func TestSeedsLoad(t *testing.T) {
	for i, s := range seeds() {
		if err := Load(s); err != nil {
			t.Errorf("seed %d: %v", i, err)
		}
	}
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug
// (no other panic of v1.6.0's interpreter or instantiation is reported:
// the validator panics that the fuzzer found in the same months, #2097
// and #2148, come out as errors with the interpreter at v1.6.0).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
