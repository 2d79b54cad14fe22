package gfz

import (
	"fmt"
	"os"
	"reflect"
	"testing"
	"unsafe"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/engine"
	"github.com/gfz-dev/gfz/internal/native"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// FuzzNative runs fn, the function of a native fuzz target
// (f.Fuzz(func(t *testing.T, a A, b B, ...) {...})), with gfz's engine.
//
// It is not meant to be called by hand. gfz-build rewrites each f.Fuzz(fn)
// call of a native fuzz target into gfz.FuzzNative(f, fn) in the copy of
// the _test.go file it puts in the build overlay (the user's file is never
// written), so that an unmodified native target runs under gfz; it is
// exported only because that rewritten code, in the user's package, calls
// it. Outside a fuzz binary it is f.Fuzz(fn).
//
// In a fuzz binary it checks fn's type as the testing package does, collects
// the seeds (f.Add values and testdata/fuzz/FuzzX files, parsed by the
// testing package with fn's own types), encodes them into parameter
// sequences (see package internal/native) and runs the engine or -repro;
// every execution decodes the arguments from the parameter sequence and
// calls fn with a fresh *testing.T.
func FuzzNative(f *testing.F, fn any) {
	f.Helper()
	if !driver.Active() {
		f.Fuzz(fn)
		return
	}
	ts, err := nativeTypes(fn)
	if err == nil {
		err = driver.CheckNative(ts)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gfz: fuzz target %s: %v\n", f.Name(), err)
		driver.ExitChild(ExitUsage)
	}
	if p := testTFieldsProblem(); p != "" {
		fmt.Fprintf(os.Stderr, "gfz: warning: %s\n", p)
	}
	driver.Fuzz(f, &nativeTarget{name: f.Name(), fn: reflect.ValueOf(fn), types: ts, tstate: testStateOf(f)})
}

// nativeTypes checks the type of a native fuzz function as the testing
// package does (func(*testing.T, args...) with at least one argument, each
// of a type native fuzzing accepts, and no result) and returns its
// argument kinds.
func nativeTypes(fn any) (native.Types, error) {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return nil, fmt.Errorf("f.Fuzz needs a function, got %T", fn)
	}
	ft := v.Type()
	if ft.NumIn() < 2 || ft.In(0) != reflect.TypeFor[*testing.T]() {
		return nil, fmt.Errorf("the fuzz function %s must take a *testing.T and at least one argument", ft)
	}
	if ft.NumOut() != 0 {
		return nil, fmt.Errorf("the fuzz function %s must not return a value", ft)
	}
	if ft.IsVariadic() {
		return nil, fmt.Errorf("the fuzz function %s must not be variadic", ft)
	}
	ts := make(native.Types, ft.NumIn()-1)
	for i := range ts {
		k, ok := native.KindOf(ft.In(i + 1))
		if !ok {
			return nil, fmt.Errorf("argument %d of the fuzz function has type %s, which native fuzzing does not support (it accepts %s)", i+1, ft.In(i+1), native.Supported)
		}
		ts[i] = k
	}
	return ts, nil
}

// nativeTarget is a native fuzz target as the driver runs it.
type nativeTarget struct {
	name  string
	fn    reflect.Value
	types native.Types
	// tstate is the testing package's state of the F's tests (testStateOf),
	// which each execution's T shares so that t.Run and t.Deadline work;
	// nil if this Go release lacks the fields gfz needs.
	tstate unsafe.Pointer
}

// CollectSeeds implements driver.SeedCollector: it calls f.Fuzz with a
// function of fn's own type that records each seed's values, so that the
// testing package checks and parses the f.Add values and the files of
// testdata/fuzz/FuzzX with the target's types, and encodes each seed into
// its parameter sequence.
func (tg *nativeTarget) CollectSeeds(f *testing.F) ([][]byte, error) {
	var seeds [][]byte
	var err error
	rec := reflect.MakeFunc(tg.fn.Type(), func(in []reflect.Value) []reflect.Value {
		args := make([]native.Arg, len(tg.types))
		for i, k := range tg.types {
			args[i] = native.ArgOfValue(in[i+1], k)
		}
		data, e := tg.types.Encode(args)
		if e != nil && err == nil {
			err = fmt.Errorf("seed %d: %w", len(seeds)+1, e)
		}
		seeds = append(seeds, data)
		return nil
	})
	f.Fuzz(rec.Interface())
	return seeds, err
}

func (tg *nativeTarget) Codec() workdir.Codec { return native.Codec{Types: tg.types} }

func (tg *nativeTarget) Executor() engine.Executor { return newNativeExec(tg) }

func (tg *nativeTarget) Repro(onRead func(pos int), onValue func(label, text string)) driver.Repro {
	ex := newNativeExec(tg)
	ex.onValue = onValue
	if onRead != nil {
		ex.src.SetOnRead(onRead)
	}
	return nativeRepro{ex}
}

// nativeRepro runs -repro inputs of a native target.
type nativeRepro struct{ ex *nativeExec }

func (r nativeRepro) Exec(params []byte) engine.Outcome { return r.ex.Exec(params, 0) }
func (r nativeRepro) Values() string                    { return native.Describe(r.ex.args) }
func (r nativeRepro) Logs() []string                    { return r.ex.logs }
