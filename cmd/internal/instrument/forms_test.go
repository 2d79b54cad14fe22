package instrument_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/cmd/internal/instrument"
	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestLineDirectiveForms instruments a file with each form of line
// directive the compiler accepts and checks that the output is valid Go
// whose identifiers are where the original's are: same file, line and
// column (0, unknown, where the original's directive has no column), with
// the directives naming files as the original's do (a relative name stays
// relative, as the compiler keeps it). internal/build's
// TestLineDirectivesStack builds and runs the same files.
func TestLineDirectiveForms(t *testing.T) {
	for _, c := range testmod.LineDirectives {
		t.Run(c.Name, func(t *testing.T) {
			checkDirectives(t, "/src/m/gen.go", c.Src)
		})
	}
}

// checkDirectives instruments the file name holding src and compares the
// positions of its identifiers before and after.
func checkDirectives(t *testing.T, name, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	want := identPositions(fset, f)
	written := map[string]bool{name: true} // the file names the original's directives give
	for _, g := range f.Comments {
		for _, c := range g.List {
			if file, ok := directiveFile(c.Text); ok {
				written[file] = true
			}
		}
	}
	p := instrument.NewPackage("example.com/m", f.Name.Name, false, fset, nil)
	if err := p.AddFile(f); err != nil {
		t.Fatal(err)
	}
	out, err := p.Render(16)
	if err != nil {
		t.Fatal(err)
	}
	res := string(out[0].Src)
	ofset := token.NewFileSet()
	of, err := parser.ParseFile(ofset, name, res, parser.ParseComments)
	if err != nil {
		t.Fatalf("instrumented file does not parse: %v\n%s", err, res)
	}
	got := identPositions(ofset, of)
	if len(got) != len(want) {
		t.Fatalf("%d identifiers after instrumentation, %d before\n%s", len(got), len(want), res)
	}
	bad := 0
	for i := range want {
		if got[i] != want[i] {
			if bad < 5 {
				t.Errorf("identifier %d: %s, want %s", i, got[i], want[i])
			}
			bad++
		}
	}
	for _, g := range of.Comments {
		for _, c := range g.List {
			if file, ok := directiveFile(c.Text); ok && !written[file] {
				t.Errorf("directive %s names %q, which the original does not", c.Text, file)
				bad++
			}
		}
	}
	if bad > 0 {
		t.Logf("instrumented:\n%s", res)
	}
	return res
}

// identPositions lists the identifiers of f that are not gfz's with their
// (directive-adjusted) positions.
func identPositions(fset *token.FileSet, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || strings.HasPrefix(id.Name, "_gfz") {
			return true
		}
		p := fset.Position(id.Pos())
		out = append(out, fmt.Sprintf("%s %s:%d:%d", id.Name, filepath.ToSlash(p.Filename), p.Line, p.Column))
		return true
	})
	return out
}

// directiveRE matches a line directive comment with a valid line and
// column (the file name may hold colons).
var directiveRE = regexp.MustCompile(`^(?://line (.*?):[1-9][0-9]*(?::[1-9][0-9]*)?$|/\*line (.*?):[1-9][0-9]*(?::[1-9][0-9]*)?\*/$)`)

// directiveFile returns the file name a line directive comment gives.
func directiveFile(text string) (string, bool) {
	m := directiveRE.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1] + m[2], true
}
