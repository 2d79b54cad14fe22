package gojqifelse

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the project's fuzz target (FuzzQueryRun, added in v0.12.12:
// parse, compile, run for at most 100 ms) on this module's document and
// without its 16-byte limit on programs, seeded with programs like those
// of the project's tests (cli/test.yaml).
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		".foo",
		".bar[1:3]",
		"[.bar[] | numbers] | add",
		".a.list | map(select(.n > 0) | .name)",
		"to_entries | map(\"\\(.key)=\\(.value | tojson)\") | join(\",\")",
		"reduce .bar[] as $x (0; . + ($x | numbers))",
		"if .foo == 1 then \"one\" elif .foo == 2 then \"two\" else \"many\" end",
		"def inc(f): f + 1; [.bar[] | numbers | inc(.)]",
		".s | test(\"w.r\") and (ascii_upcase | startswith(\"HE\"))",
		"[paths(type == \"number\")]",
		"try error(\"x\") catch . | length",
		".a as {b: {c: $c}} | $c",
		"label $out | foreach .bar[] as $x (0; . + 1; if . > 2 then ., break $out else empty end)",
		".t | fromdate | todate",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = Run(src)
	})
}

// FuzzGfz is the gfz target: jq programs from the grammar generator over
// the document's keys, a fifth of them with near-miss edits; a program
// that does not parse or compile, or stops on an error, is an invalid
// input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	prog := gens.JQ(gens.JQConfig{Keys: Keys, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Run(prog.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is derived from the fix (the report's program is not in the
// fix's commit): the identity as the then branch, a negated constant (two
// instructions) as the else branch.
const reproducer = "if . then . else -1 end"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Run(reproducer) }, "nil pointer dereference", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of this version
// is not this bug: the interpreter's crash on backtracking after an
// iterator error ("null | .[]" iterates over null; an index out of range [-1]
// popping the empty stack in (*env).Next, fixed in v0.12.8 by 64141c13ac42,
// "fix crash on backtracking after iterator error").
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Run("null | .[]") })
	bugkit.RejectsPanic(t, IsBug, nil)
}
