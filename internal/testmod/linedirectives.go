package testmod

import "strings"

// LineDirective is one form of line directive, placed in a file of
// package main that the tests instrument, build and run.
type LineDirective struct {
	Name string
	// Src defines crash(n int) int, which for n == 3 panics (in boom, a
	// call from crash) at a position that the directive sets, and which
	// has branches (probes) before and after the directive. Its deferred
	// call prints where it runs.
	Src string
	// Want is what the un-instrumented build's stack trace shows for the
	// frames the directive places (file name as the compiler records it).
	Want string
}

// crashSrc is the body of the files of LineDirectives: top goes before
// the package clause, decl before crash, stmt on the line before a
// statement of crash, inline on the line of the call that panics.
func crashSrc(top, decl, stmt, inline string) string {
	r := strings.NewReplacer("{top}", top, "{decl}", decl, "{stmt}", stmt, "{inline}", inline)
	return r.Replace(`{top}package main

import (
	"fmt"
	"path/filepath"
	"runtime"
)

{decl}func crash(n int) int {
	defer where()
	s := 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			s += i
		}
	}
{stmt}	if s > 100 {
		return s
	}
	switch n {
	case 1:
		s++

	case 3:
		// the call that panics
		{inline}boom(s)
	}
	return s
}

// where prints the position where its deferred call runs.
func where() {
	_, file, line, _ := runtime.Caller(1)
	fmt.Printf("deferred call at %s:%d\n", filepath.Base(file), line)
}

//go:noinline
func boom(s int) {
	defer func() {
		if s > 1000 {
			fmt.Println("never")
		}
	}()
	panic(fmt.Sprint("boom ", s))
}
`)
}

// LineDirectives are the forms of line directive that the go command
// accepts (cmd/compile's doc, "Compiler Directives"), each in a file
// where instrumentation inserts code before and after it.
var LineDirectives = []LineDirective{
	{Name: "line file:line", Src: crashSrc("", "", "//line lex.y:40\n", ""), Want: "lex.y:"},
	{Name: "line file:line:col", Src: crashSrc("", "", "//line lex.y:40:2\n", ""), Want: "lex.y:"},
	{Name: "line file:line before a declaration", Src: crashSrc("", "//line lex.y:40\n", "", ""), Want: "lex.y:"},
	{Name: "line file:line:col before a declaration", Src: crashSrc("", "//line lex.y:40:1\n", "", ""), Want: "lex.y:"},
	{Name: "line :line", Src: crashSrc("", "", "//line :40\n", ""), Want: "??:"},
	{Name: "line :line:col", Src: crashSrc("", "", "//line :40:2\n", ""), Want: "gen.go:4"},
	{Name: "line :line:col after file:line", Src: crashSrc("", "//line lex.y:10\n", "//line :40:2\n", ""), Want: "lex.y:4"},
	{Name: "inline file:line", Src: crashSrc("", "", "", "/*line lex.y:70*/ "), Want: "lex.y:70"},
	{Name: "inline file:line:col", Src: crashSrc("", "", "", "/*line lex.y:70:9*/ "), Want: "lex.y:70"},
	{Name: "inline :line", Src: crashSrc("", "", "", "/*line :70*/ "), Want: "??:70"},
	{Name: "windows file:line", Src: crashSrc("", "", `//line C:\src\lex.y:12`+"\n", ""), Want: `C:\src\lex.y:`},
	{Name: "windows file:line:col", Src: crashSrc("", "", `//line C:\src\lex.y:12:2`+"\n", ""), Want: `C:\src\lex.y:`},
	{Name: "windows inline file:line", Src: crashSrc("", "", "", `/*line C:\src\lex.y:70*/ `), Want: `C:\src\lex.y:70`},
	{Name: "absolute file:line", Src: crashSrc("", "", "//line /gen/lex.rl:3\n", ""), Want: "/gen/lex.rl:"},
	{Name: "unclean relative file:line:col", Src: crashSrc("", "", "//line ../gen/./lex.rl:3:1\n", ""), Want: "../gen/./lex.rl:"},
	{Name: "file name with blanks", Src: crashSrc("", "", "//line my lex.y:40\n", ""), Want: "my lex.y:"},
	{Name: "before the package clause", Src: crashSrc("//line lex.y:1\n", "", "", ""), Want: "lex.y:"},
	{Name: "before the package clause, with a column", Src: crashSrc("//line lex.y:1:1\n", "", "", ""), Want: "lex.y:"},
	{Name: "build tag, then before the package clause", Src: crashSrc("//go:build !gfznotag\n\n//line lex.y:1\n", "", "", ""), Want: "lex.y:"},
	{Name: "generated code going back and forth", Src: crashSrc("//line gen.rl:1\n", "//line gen.go:6\n", "//line gen.rl:30\n", "/*line gen.go:23*/ "), Want: "main.crash\n\tgen.go:23\n"},
}
