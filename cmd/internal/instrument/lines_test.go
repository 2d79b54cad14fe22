package instrument_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
)

// TestLinesOfRealCode: in the instrumented source of real packages, every
// identifier of the original is at its original file and line once the
// line directives are applied (the positions stack traces, coverage
// profiles and compile errors show). Identifiers gfz adds (_gfz...) are
// skipped; the others appear in the same order in both.
func TestLinesOfRealCode(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and instruments standard-library packages")
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, strings.Fields(pkgList)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range pkgs {
		if len(pkg.Errors) > 0 {
			t.Fatalf("%s: %v", pkg.PkgPath, pkg.Errors)
		}
		p := instrument.NewPackage(pkg.PkgPath, pkg.Name, true, pkg.Fset, pkg.TypesInfo)
		for _, f := range pkg.Syntax {
			if err := p.AddFile(f); err != nil {
				t.Fatal(err)
			}
		}
		out, err := p.Render(16)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range pkg.Syntax {
			name := pkg.Fset.Position(f.Pos()).Filename
			want := identLines(pkg.Fset, f)
			ofset := token.NewFileSet()
			of, err := parser.ParseFile(ofset, name, out[i].Src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := identLines(ofset, of)
			if len(got) != len(want) {
				t.Errorf("%s: %d identifiers after instrumentation, %d before", name, len(got), len(want))
				continue
			}
			bad := 0
			for j := range want {
				if got[j] != want[j] {
					if bad < 5 {
						t.Errorf("%s: identifier %d: %s, want %s", filepath.Base(name), j, got[j], want[j])
					}
					bad++
				}
			}
			if bad > 0 && os.Getenv("GFZ_DUMP") != "" {
				os.WriteFile(filepath.Join(os.Getenv("GFZ_DUMP"), filepath.Base(name)), out[i].Src, 0o644)
			}
			if bad > 0 {
				t.Errorf("%s: %d of %d identifiers at the wrong place", filepath.Base(name), bad, len(want))
			}
		}
	}
}

// identLines lists the identifiers of f that are not gfz's, each as
// "name file:line" at its (directive-adjusted) position.
func identLines(fset *token.FileSet, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || strings.HasPrefix(id.Name, "_gfz") {
			return true
		}
		p := fset.Position(id.Pos())
		out = append(out, id.Name+" "+filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line))
		return true
	})
	return out
}

// pkgList is the packages TestLinesOfRealCode instruments: between them
// they have case clauses, labels that goto targets, conditions written
// over several lines, function literals on one line and in composite
// literals, blank and comment lines before statements (each of which put
// lines off before). $GFZ_LINES_PKGS replaces the list; with $GFZ_DUMP set
// to a directory, the instrumented source of a file with misplaced lines
// is written there.
var pkgList = func() string {
	if l := os.Getenv("GFZ_LINES_PKGS"); l != "" {
		return l
	}
	return "encoding/json text/template/parse go/scanner strconv go/types net/http"
}()
