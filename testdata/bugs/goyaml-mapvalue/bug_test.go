package goyamlmapvalue

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it for go test -fuzz (the
// project's own FuzzUnmarshalToMap came later, in v1.15.1, with this
// bug's reproducer among its seeds), seeded with documents like those
// of the package's tests and README.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"id: 1\nmessage: Hello, World\nverified: true\n",
		"a: 1\nb: c\nd:\n  - e\n  - f: [1, 2]\n",
		"- 1\n- \"two\"\n- {three: 3}\n",
		"anchor: &x {a: 1}\nref: *x\nmerge:\n  <<: *x\n  b: 2\n",
		"text: |\n  literal\n  block\nfolded: >-\n  folded\n  text\n",
		"--- !!map\n? complex key\n: 'single' # comment\n...\n---\nv: 0x1F\nw: 1.5e3\nx: .inf\ny: ~\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _ = Decode(src)
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

// reproducer is the input of the report.
const reproducer = "0::"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Decode([]byte(reproducer)) }, "nil pointer dereference", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic is not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
