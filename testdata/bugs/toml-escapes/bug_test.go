package tomlescapes

import (
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
)

// FuzzNative is the target as people write it today for go test -fuzz,
// seeded with documents like the project's own examples and tests.
func FuzzNative(f *testing.F) {
	for _, s := range []string{
		"title = \"TOML Example\"\n\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00Z # dates\n",
		"[database]\nports = [ 8001, 8001, 8002 ]\nconnection_max = 5000\nenabled = true\n",
		"[[fruit]]\n  name = \"apple\"\n  [[fruit.variety]]\n    name = \"red delicious\"\n",
		"str = \"\"\"\nRoses are red\nViolets are blue\"\"\"\nlit = 'C:\\Users'\n",
		"a = [ [ 1, 2 ], [\"a\", \"b\"] ]\nb = -3.5e+2\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
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
		if err := Decode(doc.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the shortest of the crashers linked from the upstream
// report (workdir/crashers/9c3c2c303d0eee61cbf7949d8e234c0623f0c26b).
const reproducer = "\"\"\"\\\\\nu\"\"\""

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _ = Decode(reproducer) }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another crash of the same
// version, also among the issue's crashers (the parser's "BUG: Expected
// key start" panic on an unclosed inline table), is not this bug.
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() { _ = Decode("0={#") })
}
