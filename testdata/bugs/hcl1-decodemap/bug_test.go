package hcl1decodemap

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people wrote it for this package (the
// go-fuzz target of hashicorp/hcl#126 decodes into an interface{}; the
// project had none), seeded with the project's test fixtures.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"foo = \"bar\"\nbar = \"${file(\"bing/bong.txt\")}\"\n",
		"key \"\" {\n\tpolicy = \"read\"\n}\n\nkey \"foo/\" {\n\tpolicy = \"write\"\n}\n",
		"// This is a test structure for the lexer\nfoo \"baz\" {\n\tkey = 7\n\tfoo = \"bar\"\n}\n",
		"foo \"baz\" {\n\tkey = 7\n}\n\nfoo \"bar\" {\n\tkey = 12\n}\n",
		"name = \"terraform-test-app\"\n\nconfig_vars {\n    FOO = \"bar\"\n}\n",
		"foo = <<EOF\nbar\nbaz\nEOF\n",
		"a = [1, 2.5, true, \"x\"]\nb = { c = 1 }\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = Decode(src)
	})
}

// FuzzGfz is the gfz target: HCL 1 configuration files from the grammar
// generator, a fifth of them with near-miss edits; a file that does not
// decode is an invalid input. No seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.HCL(gens.HCLConfig{V1: true, MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Decode(doc.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the report's document.
const reproducer = "section {\n        subsection {\n        }\n}\nsection \"subsection\" {\n}\n"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode(reproducer) }, "index out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that two other panics of this
// version are not this bug: "t=0t d{}" (in ObjectItem.Pos, from
// decodeInt) and "v=/\n[," (in the parser's listType), crashers of the
// go-fuzz run of hashicorp/hcl#126 fixed by #134 (their inputs are in
// its commits and tests).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Decode("t=0t d{}") })
	bugkit.RejectsPanic(t, IsBug, func() { _, _ = Decode("v=/\n[,") })
}
