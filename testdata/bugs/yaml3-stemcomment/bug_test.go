package yaml3stemcomment

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it for go test -fuzz (the
// project had none at this version), seeded with documents like those of
// the package's tests and examples.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"a: Easy!\nb:\n  c: 2\n  d: [3, 4]\n",
		"- 1\n- two\n- {three: 3}\n- [4, \"five\"]\n",
		"anchors:\n  base: &base {x: 1}\n  derived:\n    <<: *base\n    y: 2\n",
		"text: |\n  literal\n  block\nfolded: >-\n  folded\n  text\n",
		"--- !!map\n? complex key\n: 'single' # comment\n...\n---\n- !!binary aGVsbG8=\n",
		"v: 0x1F\nw: 1.5e3\nx: .inf\ny: ~\nz: 2001-12-14t21:59:43.10-05:00\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		_ = Decode(doc)
	})
}

// FuzzGfz is the gfz target: YAML streams from the grammar generator, a
// fifth of them with near-miss edits; a stream that does not decode is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.YAML(gens.YAMLConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if err := Decode([]byte(doc.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the input of the upstream report.
const reproducer = "#\n-\n-\n0"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Decode([]byte(reproducer)) }, "nil pointer dereference", IsBug)
}

func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
