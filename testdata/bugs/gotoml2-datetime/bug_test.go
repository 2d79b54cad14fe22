package gotoml2datetime

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it today for go test -fuzz,
// seeded with documents like the project's own tests and benchmark file.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"title = \"TOML Example\"\n\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00-08:00\n",
		"[database]\nports = [ 8000, 8001, 8002 ]\nenabled = true\ntemp_targets = { cpu = 79.5, case = 72.0 }\n",
		"[[products]]\nname = \"Hammer\"\nsku = 738594937\n\n[[products]]\n",
		"str1 = \"\"\"\nRoses are red\nViolets are blue\"\"\"\nwinpath = 'C:\\Users\\nodejs'\n",
		"int = +99\nhex = 0xDEADBEEF\nflt = 6.626e-34\nld = 1979-05-27\nlt = 07:32:00\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		_ = Decode(doc)
	})
}

// FuzzGfz is the gfz target: TOML documents from the grammar generator,
// a third of them with near-miss edits; a document that does not decode
// is an invalid input. It has no seeds: under plain go test it runs
// nothing.
func FuzzGfz(f *testing.F) {
	doc := gens.TOML(gens.TOMLConfig{MistakesPer: 300})
	gfz.Fuzz(f, func(t *gfz.T) {
		if err := Decode([]byte(doc.Draw(t))); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the input of the upstream report (#585).
const reproducer = "a=1979-05127T 0"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Decode([]byte(reproducer)) }, "parser.go:906", IsBug)
}

// TestReproducerSpareCapacity: the same input in a slice with spare
// capacity panics at the second slice expression of the same statement
// (line 907), which is the same bug.
func TestReproducerSpareCapacity(t *testing.T) {
	doc := append(make([]byte, 0, len(reproducer)+16), reproducer...)
	bugkit.ReproducerPanics(t, func() { _ = Decode(doc) }, "parser.go:907", IsBug)
}

// TestOracleRejectsOtherPanics checks that another crash of the same
// version (#579: an unclosed table header, which panics in expect) is not
// this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _ = Decode([]byte("[a")) })
}
