package goyamlflowmap

import (
	"strings"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the project's own target at this version
// (FuzzUnmarshalToMap in fuzz_test.go, with its seeds), calling the
// error's Error method as the same target does since the fix (#719): at
// v1.17.1 it dropped the error, so it could not see this bug.
func FuzzNative(f *testing.F) {
	const validYAML = `
id: 1
message: Hello, World
verified: true
`
	invalidYAML := []string{
		"0::", "{0", "*-0", ">\n>", "&{0", "0_", "0\n:", "0\n-", "0\n0", "0\n0\n",
		"0\n0\n0", "0\n0\n0\n", "0\n0\n0\n0", "0\n0\n0\n0\n", "0\n0\n0\n0\n0",
		"0\n0\n0\n0\n0\n", "0\n0\n0\n0\n0\n0", "0\n0\n0\n0\n0\n0\n", "",
	}
	f.Add([]byte(validYAML))
	for _, s := range invalidYAML {
		f.Add([]byte(s))
		f.Add([]byte(validYAML + s))
		f.Add([]byte(s + validYAML))
		f.Add([]byte(s + validYAML + s))
		f.Add([]byte(strings.Repeat(s, 3)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if msg, err := Decode(src); err != nil {
			t.Log(msg)
		}
	})
}

// FuzzGfz is the gfz target: YAML streams from the grammar generator, a
// fifth of them with near-miss edits; a stream that does not decode is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.YAML(gens.YAMLConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if msg, err := Decode([]byte(doc.Draw(t))); err != nil {
			t.Skip(msg)
		}
	})
}

// reproducer is the input the fix added to the project's fuzz seeds and
// parser tests.
const reproducer = `{"000":0000A,`

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode([]byte(reproducer)) }, "nil pointer dereference", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
