package tomlhang

import (
	"testing"
	"time"

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
// nothing (a seed drawing an unclosed """ string would hang go test).
func FuzzGfz(f *testing.F) {
	doc := gens.TOML(gens.TOMLConfig{MistakesPer: 300})
	gfz.Fuzz(f, func(t *gfz.T) {
		if err := Decode(doc.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the second input of the upstream report.
const reproducer = "h=0#\ne=\"\"\"#\nn=2#\no=\"\"#\ns=\"\"#\nns=0#\nen=6#\ny s"

// TestReproducer runs the reproducer in a goroutine: the bug is present
// when Decode has not returned after 5 seconds (it takes microseconds
// when the lexer reports the unclosed string). The looping goroutine
// keeps running until the test binary exits.
func TestReproducer(t *testing.T) {
	dump, hung := bugkit.CatchHang(func() { _ = Decode(reproducer) }, 5*time.Second)
	if !hung {
		t.Fatalf("Decode(%q) returned: the bug is not present at this version", reproducer)
	}
	if !IsBug(dump) {
		t.Errorf("IsBug does not recognise the hung goroutine (site %v):\n%s", Site, dump)
	}
}

func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, nil)
}
