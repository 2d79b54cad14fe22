package build

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// lineModule writes a module example.com/ld requiring gfz (this checkout)
// with files, and returns its directory.
func lineModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/ld\n\ngo 1.26.0\n\nrequire github.com/gfz-dev/gfz v0.0.0\n\nreplace github.com/gfz-dev/gfz => " + testmod.GfzRoot(t) + "\n"
	testmod.Write(t, dir, files)
	return dir
}

// runBuilt builds the main package in dir (instrumented if p is not nil),
// runs it and returns its output, stack traces reduced to function names
// and file:line (no arguments, offsets or addresses, which differ between
// the builds).
func runBuilt(t *testing.T, dir string, p *Prepared) string {
	t.Helper()
	return runProg(t, dir, buildProg(t, dir, p))
}

// buildProg builds the main package in dir (instrumented if p is not
// nil) and returns the executable's path.
func buildProg(t *testing.T, dir string, p *Prepared) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "prog")
	args := []string{"build", "-o", exe}
	if p != nil {
		args = append(args, p.GoFlags()...)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	if p != nil {
		cmd.Env = append(os.Environ(), p.Env...)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return exe
}

// runProg runs exe with args in dir and returns its output, reduced as
// runBuilt says.
func runProg(t *testing.T, dir, exe string, args ...string) string {
	t.Helper()
	run := exec.Command(exe, args...)
	run.Dir = dir
	out, _ := run.CombinedOutput() // it panics
	return stackRE.ReplaceAllString(string(out), "$1")
}

// stackRE matches what differs between two builds in a stack trace: a
// frame's arguments and pc offset, a goroutine's number.
var stackRE = regexp.MustCompile(`(?m)(^\S.*)\((?:0x|\{|\.\.\.)[^\n]*\)$|( \+0x[0-9a-f]+$)|goroutine \d+`)

// TestLineDirectivesStack builds and runs, plain and instrumented, a
// program that panics in code whose positions a line directive sets, for
// each form the compiler accepts (testmod.LineDirectives), and compares
// the stack traces: the instrumented build's frames must be at the file
// and line where the plain build's are. Each form is a package of one
// program (built twice in all, not twice a form), whose argument picks
// the form that panics.
func TestLineDirectivesStack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	forms := testmod.LineDirectives
	files := map[string]string{}
	var imports, calls strings.Builder
	for i, c := range forms {
		pkg := fmt.Sprintf("p%02d", i)
		// The form's file, in package pkg, with crash exported: the same
		// lines and the same directives.
		if !strings.Contains(c.Src, "package main\n") || !strings.Contains(c.Src, "func crash(") {
			t.Fatalf("%s: no package clause or crash function to rename", c.Name)
		}
		src := strings.Replace(c.Src, "package main\n", "package "+pkg+"\n", 1)
		src = strings.Replace(src, "func crash(", "func Crash(", 1)
		files[pkg+"/gen.go"] = src
		fmt.Fprintf(&imports, "\t%q\n", "example.com/ld/"+pkg)
		fmt.Fprintf(&calls, "\t%s.Crash,\n", pkg)
	}
	files["main.go"] = "package main\n\nimport (\n\t\"os\"\n\t\"strconv\"\n\n" + imports.String() + ")\n\n" +
		"var crashes = []func(int) int{\n" + calls.String() + "}\n\n" +
		"func main() {\n\ti, _ := strconv.Atoi(os.Args[1])\n\tprintln(crashes[i](1))\n\tprintln(crashes[i](3))\n}\n"
	dir := lineModule(t, files)
	p := prepare(t, Options{Dir: dir, Patterns: []string{"./..."}})
	probes := map[string]int{}
	for _, ip := range p.Packages {
		probes[ip.Path] = ip.Probes
	}
	plainExe, instExe := buildProg(t, dir, nil), buildProg(t, dir, p)
	for i, c := range forms {
		t.Run(c.Name, func(t *testing.T) {
			pkg := fmt.Sprintf("p%02d", i)
			if n := probes["example.com/ld/"+pkg]; n < 10 {
				t.Fatalf("%d probes", n)
			}
			want := strings.ReplaceAll(c.Want, "main.crash", pkg+".Crash")
			plain, inst := runProg(t, dir, plainExe, strconv.Itoa(i)), runProg(t, dir, instExe, strconv.Itoa(i))
			if !strings.Contains(plain, "panic: boom 2") || !strings.Contains(plain, want) {
				t.Fatalf("the plain build's trace lacks the panic or %q:\n%s", want, plain)
			}
			if inst != plain {
				t.Errorf("instrumented trace differs\nplain:\n%s\ninstrumented:\n%s", plain, inst)
			}
		})
	}
}

// TestLineDirectivesCompileErrors compares the go command's compile errors
// on a package whose files have line directives, plain and instrumented:
// same files, lines and columns (none where the directive gives none).
func TestLineDirectivesCompileErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package twice")
	}
	file := func(fn, top, stmt string) string {
		return top + "package broken\n\nfunc " + fn + "(n int) int {\n\tif n > 0 {\n\t\tn--\n\t}\n" + stmt + "\tvar s string = n\n\treturn len(s)\n}\n"
	}
	dir := lineModule(t, map[string]string{
		"a.go": file("F1", "", "//line lex.y:40\n"),
		"b.go": file("F2", "", "//line lex.y:50:7\n"),
		"c.go": file("F3", "//line gen.rl:1\n", ""),
		"d.go": file("F4", "", `//line C:\src\lex.y:12`+"\n"),
		"e.go": file("F5", "", "//line :60\n"),
		"f.go": file("F6", "", "\t/*line lex.y:70:3*/ n++\n"),
	})
	p := prepare(t, Options{Dir: dir})
	build := func(p *Prepared) string {
		args := []string{"build"}
		if p != nil {
			args = append(args, p.GoFlags()...)
		}
		cmd := exec.Command("go", append(args, ".")...)
		cmd.Dir = dir
		if p != nil {
			cmd.Env = append(os.Environ(), p.Env...)
		}
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("go %s succeeded", strings.Join(args, " "))
		}
		return string(out)
	}
	plain, inst := build(nil), build(p)
	for _, want := range []string{"\nlex.y:40: cannot use n", "\nlex.y:50:23: cannot use n", "\ngen.rl:7: cannot use n", "\n" + `C:\src\lex.y:12: cannot use n`, "\n:60: cannot use n", "\nlex.y:71:17: cannot use n"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the plain build's errors lack %q:\n%s", want, plain)
		}
	}
	if inst != plain {
		t.Errorf("instrumented build's errors differ\nplain:\n%s\ninstrumented:\n%s", plain, inst)
	}
}

// calcGrammar is a goyacc grammar whose actions and code run through the
// line directives goyacc writes (//line calc.y:N, //line yaccpar:1, with
// no column): dividing by zero panics in div, called from an action.
const calcGrammar = `%{
package main

import "fmt"
%}

%union {
	num int
}

%token <num> NUM
%type <num> expr term factor

%%

top:
	expr
	{
		yylex.(*lexer).result = $1
	}

expr:
	term
|	expr '+' term
	{
		$$ = $1 + $3
	}
|	expr '-' term
	{
		$$ = $1 - $3
	}

term:
	factor
|	term '*' factor
	{
		$$ = $1 * $3
	}
|	term '/' factor
	{
		$$ = div($1, $3)
	}

factor:
	NUM
|	'(' expr ')'
	{
		$$ = $2
	}

%%

type lexer struct {
	s      string
	result int
}

func (l *lexer) Lex(lval *yySymType) int {
	for len(l.s) > 0 && l.s[0] == ' ' {
		l.s = l.s[1:]
	}
	if len(l.s) == 0 {
		return 0
	}
	c := l.s[0]
	if c >= '0' && c <= '9' {
		n := 0
		for len(l.s) > 0 && l.s[0] >= '0' && l.s[0] <= '9' {
			n = n*10 + int(l.s[0]-'0')
			l.s = l.s[1:]
		}
		lval.num = n
		return NUM
	}
	l.s = l.s[1:]
	return int(c)
}

func (l *lexer) Error(s string) {
	panic(fmt.Sprintf("parse error: %s", s))
}

func div(a, b int) int {
	if b == 0 {
		panic("division by zero")
	}
	return a / b
}

func eval(s string) int {
	l := &lexer{s: s}
	yyParse(l)
	return l.result
}
`

// TestGoyaccParser generates a parser with goyacc (the version of
// golang.org/x/tools that gfz requires), instruments it, checks that
// every identifier of the generated file is at the file and line it was
// (directives applied), and that the program, plain and instrumented,
// computes the same and panics at the same positions.
func TestGoyaccParser(t *testing.T) {
	if testing.Short() {
		t.Skip("runs goyacc and builds a program twice")
	}
	dir := lineModule(t, map[string]string{
		"calc.y":  calcGrammar,
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(eval(\"2*(3+4) - 10/5\"))\n\tfmt.Println(eval(\"1/(2-2)\"))\n}\n",
	})
	// goyacc from the tools module's graph (x/tools is a dependency),
	// built in gfz's workspace: no version query, so no network.
	goyacc := filepath.Join(t.TempDir(), "goyacc")
	build := exec.Command("go", "build", "-o", goyacc, "golang.org/x/tools/cmd/goyacc")
	build.Dir = filepath.Join("..", "..")
	build.Env = append(os.Environ(), "GOWORK="+filepath.Join(testmod.GfzRoot(t), "go.work"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build goyacc: %v\n%s", err, out)
	}
	cmd := exec.Command(goyacc, "-o", "calc.go", "-v", "", "calc.y")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goyacc: %v\n%s", err, out)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "calc.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^//line calc\.y:\d+$`).Match(gen) || !strings.Contains(string(gen), "\n//line yaccpar:1\n") {
		t.Fatalf("goyacc wrote no column-less line directives:\n%s", gen)
	}
	p := prepare(t, Options{Dir: dir})
	if len(p.Packages) != 1 || p.Packages[0].Files != 2 || p.Packages[0].Probes < 50 {
		t.Fatalf("instrumented %+v", p.Packages)
	}

	// Every identifier at its file and line.
	b, err := os.ReadFile(p.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	var overlay struct{ Replace map[string]string }
	if err := json.Unmarshal(b, &overlay); err != nil {
		t.Fatal(err)
	}
	orig := filepath.Join(dir, "calc.go")
	rewritten, err := os.ReadFile(overlay.Replace[orig])
	if err != nil {
		t.Fatalf("overlay of %s: %v", orig, err)
	}
	want, got := identLines(t, orig, gen), identLines(t, orig, rewritten)
	if len(got) != len(want) {
		t.Fatalf("%d identifiers instrumented, %d before", len(got), len(want))
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
	if bad > 0 {
		t.Errorf("%d of %d identifiers at the wrong place", bad, len(want))
	}

	plain := runBuilt(t, dir, nil)
	inst := runBuilt(t, dir, p)
	if !strings.HasPrefix(plain, "12\n") || !strings.Contains(plain, "panic: division by zero") || !strings.Contains(plain, "\tcalc.y:") {
		t.Fatalf("plain build's output:\n%s", plain)
	}
	if inst != plain {
		t.Errorf("instrumented output differs\nplain:\n%s\ninstrumented:\n%s", plain, inst)
	}
}

// identLines lists the identifiers of the file name holding src that are
// not gfz's, with the file and line that go/parser gives them.
func identLines(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !strings.HasPrefix(id.Name, "_gfz") {
			p := fset.Position(id.Pos())
			out = append(out, fmt.Sprintf("%s %s:%d", id.Name, p.Filename, p.Line))
		}
		return true
	})
	return out
}
