package gosrc_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"testing"

	"github.com/gfz-dev/gfz"
	"github.com/gfz-dev/gfz/generators/gentest"
	"github.com/gfz-dev/gfz/generators/gosrc"
	"github.com/gfz-dev/gfz/param"
)

// check parses and type-checks src.
func check(src string) (parsed bool, typeErr error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gen.go", src, parser.SkipObjectResolution)
	if err != nil {
		return false, nil
	}
	conf := types.Config{Importer: importer.Default()}
	_, err = conf.Check("p", fset, []*ast.File{f}, nil)
	return true, err
}

// TestParseAndTypeCheck draws programs from random bytes: all must parse,
// and with the default configuration (no mistakes) all must type-check.
func TestParseAndTypeCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	g := gosrc.File(gosrc.Config{})
	n := 1000
	if testing.Short() {
		n = 200
	}
	bad := 0
	for i := range n {
		src := g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 600), uint64(i))))
		ok, err := check(src)
		if !ok {
			t.Fatalf("program %d does not parse:\n%s", i, src)
		}
		if err != nil {
			bad++
			if bad <= 3 {
				t.Errorf("program %d: %v\n%s", i, err, src)
			}
		}
	}
	t.Logf("%d/%d programs type-check", n-bad, n)
}

// TestMistakes checks that Mistakes lowers the type-check rate but keeps
// every program parseable, and measures the rate.
func TestMistakes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := gosrc.File(gosrc.Config{Mistakes: 30})
	const n = 400
	valid := 0
	for i := range n {
		src := g.Draw(gfz.NewT(param.New(gentest.RandomBytes(r, 600), uint64(i))))
		ok, err := check(src)
		if !ok {
			t.Fatalf("program %d does not parse:\n%s", i, src)
		}
		if err == nil {
			valid++
		}
	}
	t.Logf("Mistakes=30: %d/%d type-check", valid, n)
	if valid < n*30/100 || valid == n {
		t.Errorf("Mistakes=30: %d/%d type-check, want 30%%..99%%", valid, n)
	}
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	g := gosrc.File(gosrc.Config{Mistakes: 10})
	for i := range 200 {
		rt := gentest.RoundTrip(g, gentest.RandomBytes(r, 400), uint64(i), 99)
		if rt.First != rt.Second || !rt.SameBytes {
			t.Fatalf("replay differs:\n%s\n---\n%s", rt.First, rt.Second)
		}
	}
}

// TestBadPackageName: a package name that is not an identifier (every
// file failed to parse) panics when the generator is built.
func TestBadPackageName(t *testing.T) {
	for _, name := range []string{"1bad", "a-b", "_", "func x"} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("Package %q: no panic", name)
				}
			}()
			gosrc.File(gosrc.Config{Package: name})
		}()
	}
	gosrc.File(gosrc.Config{Package: "ok_2"})
}
