package gopherlualoadnil

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative runs a program (the project has no fuzz target), seeded
// with small programs in the style of the project's script tests
// (_glua-tests: base.lua, strings.lua, table.lua, vm.lua).
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"local a, b = 1, 2\nresult = a + b * 3\n",
		"local function fib(n)\n  if n < 2 then return n end\n  return fib(n - 1) + fib(n - 2)\nend\nresult = fib(10)\n",
		"local t = {}\nfor i = 1, 5 do t[#t + 1] = i * i end\nresult = table.concat(t, \",\")\n",
		"local s = \"hello world\"\nlocal words = {}\nfor w in string.gmatch(s, \"%a+\") do table.insert(words, w:upper()) end\nresult = #words .. \" \" .. words[2]\n",
		"local p = setmetatable({x = 1}, {__index = function(t, k) return k .. \"!\" end})\nresult = p.x .. p.y\n",
		"local function sum(...)\n  local n = 0\n  for _, v in ipairs({...}) do n = n + v end\n  return n, select(\"#\", ...)\nend\nresult = tostring((sum(1, 2, 3)))\n",
		"local co = coroutine.wrap(function(a)\n  local b = coroutine.yield(a + 1)\n  return b * 2\nend)\nresult = co(1) + co(10)\n",
		"local ok, err = pcall(function() error(\"boom\") end)\nresult = tostring(ok) .. type(err)\n",
		"local i = 0\nrepeat i = i + 1 until i >= 3\nwhile true do if i > 5 then break end i = i + 1 end\nresult = string.format(\"%d:%5.2f:%s\", i, i / 4, \"x\")\n",
		"local t = {3, 1, 2}\ntable.sort(t, function(a, b) return a > b end)\nlocal r = string.gsub(\"a=1, b=2\", \"(%w+)=(%w+)\", \"%2=%1\")\nresult = t[1] .. r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = Run(src)
	})
}

// FuzzGfz is the gfz target: Lua 5.1 programs from the grammar
// generator, 5% of them with near-miss edits; a program that does not
// compile or fails at run time (or runs out of time) is an invalid
// input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	program := gens.Lua(gens.LuaConfig{MistakesPer: 50})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Run(program.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's program (and the fix's test,
// TestMergingLoadNilBug2).
const reproducer = `
id = "foo"

function get_def()
  return {}
end

function test()
  local def = id ~= nil and get_def() or nil
  if def ~= nil then
    print("def is not nil")
  end
end

test()
`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Run(reproducer) }, "nil pointer dereference", IsBug)
	// The same merge before "local w": w is unset after the call, and
	// the panic is where it is first read.
	for _, use := range []string{
		"result = w.x",       // (*LState).metatable, from the field lookup
		"result = type(w)",   // baseType
		"result = w < 1",     // lessThan
		"result = #w",        // (*LState).metatable, from the length
		"result = w .. \"\"", // (*LState).metatable, from the concatenation
	} {
		src := "local v = tostring(1) or nil\nlocal w\n" + use + "\n"
		bugkit.ReproducerPanics(t, func() { _, _ = Run(src) }, "nil pointer dereference", IsBug)
	}
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: a generic for whose body has an "if" of a constant
// false condition declaring a local, which makes the compiler emit a
// jump past the end of the code, and the VM fetches an instruction out
// of range (https://github.com/yuin/gopher-lua/issues/540, still open at
// v1.1.2).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		_, _ = Run("for k, v in pairs({1, 2}) do if false then local x end local y = k == 1 end\n")
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
