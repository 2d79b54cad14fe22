package starlarkrangestep

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"go.starlark.net/starlark"
)

// FuzzNative runs a program through Run (the project has no fuzz target),
// seeded with programs in the style of the project's tests
// (starlark/testdata/*.star) and of its examples.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"out = input.split(\",\")\n",
		"def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nx = fib(limit)\n",
		"squares = [x * x for x in nums if x % 2 == 1]\nd = {k: len(k) for k in opts}\n",
		"s = \"hello, world\"\nt = (s.upper(), s[1:4], s[::2], s.find(\"o\"), s.replace(\"l\", \"L\", 2))\n",
		"l = list(nums)\nl.append(9)\nl.extend([2, 6])\nl.insert(0, -1)\nx = sorted(l, reverse=True)[:3]\n",
		"greeting = \"%s has %d items\" % (opts[\"name\"], len(opts[\"tags\"]))\nm = \"{} and {}\".format(1, \"two\")\n",
		"i = 0\ntotal = 0\nwhile i < limit:\n    i += 1\n    if i % 3 == 0:\n        continue\n    total += i\n",
		"r = range(10, 0, -2)\nx = (list(r), r[1], len(r), 3 in r)\n",
		"f = lambda x, y=2: x * y\nz = [f(n) for n in nums] + [f(1, y=5)]\n",
		"s = set([1, 2, 3])\ns.add(4)\nu = s | set([5])\nv = sorted(u - set([2]))\n",
		"enc = json.encode({\"a\": [1, 2.5, None, True], \"b\": \"x\"})\ndec = json.decode(enc)\ny = math.sqrt(2.0) * ratio + math.floor(1.5)\n",
		"b = b\"bytes\\x00\"\nc = (len(b), b[1], list(b.elems()), 0x1f + 0o17 + 0b11, 1 << 10, -7 // 2, 7 % -3)\n",
		"def f(*args, **kwargs):\n    return len(args), sorted(kwargs.items())\n\nx = f(1, 2, *[3], a=1, **{\"b\": 2})\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = Run(src)
	})
}

// FuzzGfz is the gfz target: Starlark programs from the grammar generator
// over the host's predeclared values and modules, one in twenty with
// near-miss edits; a program that does not parse, resolve or run to its
// end (including the step limit) is an invalid input. No seeds: under
// plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	vars := make([]gens.StarlarkVar, len(Vars))
	for i, v := range Vars {
		vars[i] = gens.StarlarkVar{Name: v.Name, Kind: v.Kind}
	}
	prog := gens.Starlark(gens.StarlarkConfig{Vars: vars, Modules: Modules, MistakesPer: 50})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Run(prog.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the program of the report (issue #168).
const reproducer = "range(1)[::8192][::8192][::8192][::8192][::8192]"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Run(reproducer) }, "rangeLen: zero step", IsBug)
	// The same with a range built with a large step, sliced once, inside
	// a function.
	bugkit.ReproducerPanics(t, func() {
		_, _ = Run("def f(r):\n    return r[::4]\n\nx = f(range(0, 10, 1 << 62))\n")
	}, "rangeLen: zero step", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug:
// a host builtin that panics while the program runs (the situation of
// issue #419, where the panic passes through the interpreter), and an
// unrelated panic.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		thread := &starlark.Thread{}
		boom := starlark.NewBuiltin("boom", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			var r []int
			return starlark.MakeInt(r[1]), nil
		})
		_, _ = starlark.ExecFileOptions(Options, thread, "main.star", "x = range(4)[::2]\nboom()\n", starlark.StringDict{"boom": boom})
	})
	bugkit.RejectsPanic(t, IsBug, nil)
}
