package hcl2nullexpand

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it for an evaluator: the
// project's go-fuzz targets at this version (hclsyntax/fuzz) only parse,
// so this one parses and evaluates, seeded with the project's fuzz
// corpus for configurations and a few attributes in the style of its
// tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"foo = upper(bar + baz[1])\n",
		"foo = \"bar\"\n",
		"block {\n  foo = true\n}\n",
		"block {\n  another_block {\n    foo = bar\n  }\n}\n",
		"foo = \"föo ${föo(\"föo\")}\"\n",
		"name = \"${local.prefix}${var.name}\"\nsize = max(var.ports...)\n",
		"upper_tags = [for t in var.tags : upper(t) if t != \"\"]\nall = concat(var.tags, [\"c\"])\n",
		"by_name = {for i in var.items : i.name => i.size}\nn = length(var.items[*].name)\n",
		"msg = var.enabled ? format(\"%s-%d\", var.name, var.count) : \"off\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _ = Eval(src)
	})
}

// FuzzGfz is the gfz target: HCL configuration files from the grammar
// generator, over the context's variables and functions, a fifth of them
// with near-miss edits; a file that does not parse or evaluate without
// errors is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.HCL(gens.HCLConfig{Vars: Vars, Funcs: Funcs, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Eval([]byte(doc.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the expression of the fix's test, as an attribute.
const reproducer = "x = concat([1, null]...)\n"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Eval([]byte(reproducer)) }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
