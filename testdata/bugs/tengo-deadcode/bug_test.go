package tengodeadcode

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/d5/tengo/v2"
	"github.com/gfz-dev/gfz"
)

// FuzzNative runs a script through Run (the project has no fuzz target
// at this version), seeded with scripts in the style of the project's
// README, tutorial and tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"out = input + \"!\"",
		"fmt := import(\"fmt\")\nout = fmt.sprintf(\"%s has %d numbers\", input, len(nums))",
		"text := import(\"text\")\nparts := text.split(input, \",\")\nout = text.join(parts, \"|\")",
		"each := func(seq, fn) {\n\tfor x in seq { fn(x) }\n}\nsum := 0\nmul := 1\neach(nums, func(x) {\n\tsum += x\n\tmul *= x\n})\nout = [sum, mul]",
		"adder := func(base) {\n\treturn func(x) { return base + x }\n}\nadd5 := adder(5)\nout = add5(limit)",
		"variadic := func(a, b, ...c) {\n\treturn [a, b, c]\n}\nout = variadic(1, 2, 3, 4)",
		"m := {a: 1, b: [2, 3, 4], c: func() { return 10 }}\nm.x = 5\nout = m.b[1] + m.c() + m[\"a\"]",
		"a := [1, 2, 3, 4, 5][1:3]\nb := \"hello world\"[2:10]\nout = immutable({a: a, b: b, n: len(nums)})",
		"err := error(\"oops\")\nif is_error(err) {\n\tout = err.value\n} else if ratio > 1 {\n\tout = 0\n} else {\n\tout = undefined\n}",
		"total := 0\nfor i := 0; i < limit; i++ {\n\tif i % 2 == 0 { continue }\n\ttotal += i\n}\nc := 0\nfor c < 3 { c++ }\nout = total > 10 ? total : -1",
		"enum := import(\"enum\")\nout = enum.filter(enum.map(nums, func(i, v) { return v * 2 }), func(i, v) { return v > 4 })",
		"json := import(\"json\")\nout = json.decode(json.encode(opts))",
		"math := import(\"math\")\nout = math.sqrt(float(len(input))) * ratio + math.pi",
		"times := import(\"times\")\nt := times.date(2024, 3, 30, 22, 15, 30, 0)\nout = times.time_format(times.add(t, times.hour), times.format_rfc3339)",
		"s := 0\nfor k, v in opts { s += len(k) }\nfor v in range(0, 4) { s += v }\nout = string(s) + string('x') + `raw`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = Run(src)
	})
}

// FuzzGfz is the gfz target: Tengo scripts from the grammar generator
// over the host's variables and modules, one in twenty with near-miss
// edits; a script that does not compile or fails at run time (including
// the timeout and the allocation limit) is an invalid input. No seeds:
// under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	vars := make([]gens.TengoVar, len(Vars))
	for i, v := range Vars {
		vars[i] = gens.TengoVar{Name: v.Name, Kind: v.Kind}
	}
	script := gens.Tengo(gens.TengoConfig{Vars: vars, Modules: Modules, Out: Out, MistakesPer: 50})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Run(script.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the script of the report (issue #376).
const reproducer = `fmt := import("fmt")

fmt.println("Hello")

f := func(a, b) {
    if a > 0 {
        return
    }

    // This standalone return statement causes the deadcode optimization pass to break,
    // if you remove it, everything works as expected.
    return

    return 123
}

r := f(0, 2)

fmt.println("Bye")
fmt.println(r)
fmt.println(is_undefined(r))
`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Run(reproducer) }, "invalid jump position", IsBug)
	// The same with a for-in loop whose body returns, nothing after the
	// bare return.
	bugkit.ReproducerPanics(t, func() {
		_, _ = Run("first := func(xs) {\n\tfor x in xs {\n\t\treturn x\n\t}\n\treturn\n}\nout = first(nums)")
	}, "invalid jump position", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: the run-time nil dereference of a definition that
// reads the variable it defines, "a := a.foo" (issue #386, fixed in
// v2.12.1 by pull request #387), through Compiled.Run, which, unlike
// RunContext, does not turn the VM's panics into errors.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		c, err := tengo.NewScript([]byte("a := a.foo")).Compile()
		if err != nil {
			t.Fatal(err)
		}
		_ = c.Run()
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
