// Package gopherlualoadnil pins github.com/yuin/gopher-lua at ccacf662c9d2
// (v1.1.2-0.20241109074121-ccacf662c9d2, the master of November 2024),
// whose compiler merges a LOADNIL into the one before it even when the
// first ends a branch that a jump skips: "local v = c and f() or nil"
// ends in LOADNIL of v's register, the targets of the expression's jumps
// are the next instruction, and when the next statement or operand loads
// nil into the following register ("v ~= nil", "local w", "f(v, nil)"),
// codeStore.AddLoadNil widens the first LOADNIL to cover that register
// instead of emitting a second one. A path that jumps over the merged
// instruction leaves the register unset, a Go nil where the VM expects an
// LValue, and the first instruction or library function that reads it
// dereferences nil: https://github.com/yuin/gopher-lua/issues/522 (the
// merging had just been made to merge more often by the fix of #495,
// pull request #496, in that master). Fixed in v1.1.2 by pull request
// #523 (b3dcd3f, "disable LOADNIL code generation optimisation"), which
// removes the merging.
//
// A compiler bug that only a valid program with a particular combination
// of constructs reaches: an and/or expression whose last operand is nil,
// right before code that loads nil into the next register, on a path
// where that register was left unset (after a call, above the
// registry's top), and then a read of it.
package gopherlualoadnil

import (
	"context"
	"time"

	"example.com/bugkit"
	lua "github.com/yuin/gopher-lua"
)

// Issue is the upstream report.
const Issue = "https://github.com/yuin/gopher-lua/issues/522"

// Site is the report's panic: equals (the EQ instruction's comparison,
// and rawequal's) calling Type on the unset register, as the left operand
// (line 2406) or the right one (2407), any caller.
var Site = bugkit.Site{Func: "github.com/yuin/gopher-lua.equals", File: "vm.go", Lines: []int{2406, 2407}}

// Reads are the other places where the unset register is first
// dereferenced, depending on what the program does with it next: each is
// a method call on an LValue operand (Type or String) that panics on a Go
// nil. The metatable lookup is the common one: indexing, assigning a
// field, calling, arithmetic, concatenation, "#", unary minus,
// tostring, print, getmetatable all ask for the value's metatable first.
// (Assigning a field of a string after debug.setmetatable('string', {})
// panics there too, https://github.com/yuin/gopher-lua/issues/524, still
// open; Run does not open the debug library.)
var Reads = []bugkit.Site{
	// the LT instruction and table.sort's comparisons
	{Func: "github.com/yuin/gopher-lua.lessThan", File: "vm.go", Lines: []int{2389, 2391}},
	// the LE instruction (the closure of OP_LE in the jump table)
	{Func: "github.com/yuin/gopher-lua.init.3.func23", File: "vm.go", Lines: []int{1092, 1095}},
	{Func: "github.com/yuin/gopher-lua.(*LState).metatable", File: "state.go", Lines: []int{983}},
	// a library function's argument check (CheckString, CheckNumber,
	// CheckTable, CheckInt, CheckFunction...)
	{Func: "github.com/yuin/gopher-lua.(*LState).TypeError", File: "auxlib.go", Lines: []int{249}},
	{Func: "github.com/yuin/gopher-lua.(*LState).CheckType", File: "auxlib.go", Lines: []int{110}},
	{Func: "github.com/yuin/gopher-lua.(*LState).CheckTypes", File: "auxlib.go", Lines: []int{116}},
	// type(v)
	{Func: "github.com/yuin/gopher-lua.baseType", File: "baselib.go", Lines: []int{442}},
	// table.concat of a table holding the unset value
	{Func: "github.com/yuin/gopher-lua.tableConcat", File: "tablelib.go", Lines: []int{74}},
}

// IsBug reports whether a failure's stack trace is this bug: a panic at
// Site or at one of Reads.
//
// At this version another compiler bug also leaves registers unset,
// https://github.com/yuin/gopher-lua/issues/540 (open, not fixed by
// v1.1.2): the jump-to-jump pass follows a loop's jump back into a body
// that starts with a jump (a constant condition, a first "break") and
// reads a jump it has already rewritten as if it were unrewritten, so
// control goes astray. Most of its crashes are an instruction fetched
// out of range (mainLoop), which IsBug rejects; when the stray jump skips
// a local's initialization, the read of that local panics at one of the
// sites above, which IsBug cannot tell from this bug. The generator
// (gens.Lua) draws neither shape; see the module's notes.
func IsBug(stack string) bool {
	if Site.MatchPanic(stack) {
		return true
	}
	for _, s := range Reads {
		if s.MatchPanic(stack) {
			return true
		}
	}
	return false
}

// Timeout bounds a program's run: a script that loops forever ends with
// an error, not a hang.
const Timeout = 20 * time.Millisecond

// Run runs a Lua program as a host that embeds the interpreter to run
// users' scripts does: a fresh state (a registry of 1,024 slots that
// grows up to 65,536, 120 nested calls) with the safe standard libraries
// (base, table, string, math, coroutine; no io, os, debug, package, and
// no dofile or loadfile), print kept out of the process's output, a
// deadline on the run (SetContext), the chunk loaded and called, and the
// global "result" read back as a string. A syntax or runtime error of
// the script is returned as an error (*lua.ApiError). DoString would do
// the same but for one thing: its protected call recovers every Go
// panic of the interpreter into an error, so a crash of the interpreter
// would look like a script's error; Run calls the chunk unprotected and
// recovers the interpreter's own error values only, as a host that
// treats an interpreter crash as a crash does.
func Run(src string) (string, error) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 120, RegistrySize: 1024, RegistryMaxSize: 64 * 1024})
	defer L.Close()
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.CoroutineLibName, lua.OpenCoroutine},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	for _, name := range []string{"dofile", "loadfile", "require", "module", "_printregs"} {
		L.SetGlobal(name, lua.LNil)
	}
	L.SetGlobal("print", L.NewFunction(discardPrint))
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	L.SetContext(ctx)

	fn, err := L.LoadString(src)
	if err != nil {
		return "", err
	}
	if err := call(L, fn); err != nil {
		return "", err
	}
	return lua.LVAsString(L.GetGlobal("result")), nil
}

// call calls fn with no arguments, unprotected: a script's error is
// returned, any other panic goes on.
func call(L *lua.LState, fn *lua.LFunction) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*lua.ApiError); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	L.Push(fn)
	L.Call(0, 0)
	return nil
}

// discardPrint is print converting its arguments as the base library's
// does (tostring, with __tostring) and writing them nowhere.
func discardPrint(L *lua.LState) int {
	for i := 1; i <= L.GetTop(); i++ {
		_ = L.ToStringMeta(L.Get(i)).String()
	}
	return 0
}
