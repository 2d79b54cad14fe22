package gojafalsyloop

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative compiles a script (the project has no fuzz target at this
// version), seeded with scripts in the style of the project's
// compiler_test.go.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"var a = 1;\nvar b = a + 2;\nb;",
		"function f(x, y) { return x * y; }\nf(2, 3);",
		"var o = {a: 1, get b() { return this.a; }};\no.b;",
		"var s = 0;\nfor (var i = 0; i < 10; i++) { if (i % 2) continue; s += i; }\ns;",
		"var r = [];\nfor (var k in {x: 1, y: 2}) r.push(k);\nr.join(',');",
		"try { throw new Error('x'); } catch (e) { e.message; } finally { 1; }",
		"switch (typeof a) { case 'number': break; default: a = 0; }",
		"var n = 3;\ndo { n--; } while (n > 0);\nouter: while (true) { break outer; }",
		"(function() { 'use strict'; return /a+b/g.test('aab'); })();",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_ = Compile(src)
	})
}

// FuzzGfz is the gfz target: ECMAScript 5.1 programs (the syntax goja
// parses at this version) from the grammar generator, a fifth of them
// with near-miss edits; a program that does not compile is an invalid
// input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	program := gens.JS(gens.JSConfig{Names: Names, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if err := Compile(program.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the script of the fix's regression test
// (TestFalsyLoopBreak): a "while (false)" loop with a break, then more
// statements. The report's "while(null) { break; }" alone does not
// panic through Compile: as the last statement its result is needed,
// the compiler emits one instruction first, and the break's position 0
// is inside the program.
const reproducer = `
	while(false) {
	  	break;
	}
	for(;false;) {
		break;
	}
	undefined;
	`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Compile(reproducer) }, "index out of range", IsBug)
	// The same through an "if (false)" branch inside a live loop, whose
	// continue is recorded at line 93.
	bugkit.ReproducerPanics(t, func() { _ = Compile("while (a) { if (0) { a(); b(); a(); b(); continue; } }") }, "index out of range", IsBug)
}

func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
