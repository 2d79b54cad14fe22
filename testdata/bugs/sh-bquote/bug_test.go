package shbquote

import (
	"io"
	"strings"
	"testing"

	"example.com/bugkit"
	"example.com/bugkit/gens"
	"github.com/gfz-dev/gfz"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// FuzzNative is the project's fuzz target at this version
// (syntax/fuzz_test.go, FuzzParsePrint: parse with the drawn language
// variant and options, simplify, print with the drawn printer options),
// seeded as the project seeds it (KeepComments, default printer options)
// with ordinary scripts like those of its parser and printer tests.
func FuzzNative(f *testing.F) {
	add := func(src string, variant syntax.LangVariant) {
		f.Add(src, uint8(variant), true, false,
			uint8(0), false, false, false, false, false, false, false)
	}
	for _, s := range []string{
		"echo foo bar",
		"foo=bar; echo \"$foo\" ${foo:-baz}",
		"if a; then b; elif c; then d; else e; fi",
		"for i in 1 2 3; do\n\techo $i\ndone",
		"while read -r line; do echo \"$line\"; done <input.txt",
		"case $x in\na|b) foo ;;\n*) bar ;;\nesac",
		"foo() {\n\t# comment\n\tlocal a=$(date) b=`pwd`\n}",
		"cat <<EOF\nhello $name\nEOF",
		"a | b && c || d &",
		"[[ -n $a && $b == *.txt ]] && echo $((1 + 2))",
		"arr=(one 'two' \"three\")\necho ${arr[@]} ${#arr[@]}",
	} {
		add(s, syntax.LangBash)
	}
	add("echo $(foo) `bar` 'baz'", syntax.LangPOSIX)
	f.Fuzz(func(t *testing.T,
		src string,
		langVariant uint8, // 0-3
		keepComments bool,
		simplify bool,
		indent uint8,
		binaryNextLine bool,
		switchCaseIndent bool,
		spaceRedirects bool,
		keepPadding bool,
		minify bool,
		singleLine bool,
		functionNextLine bool,
	) {
		if langVariant > 3 {
			t.Skip() // lang variants are 0-3
		}
		if indent > 16 {
			t.Skip() // more indentation won't really be interesting
		}
		parser := syntax.NewParser()
		syntax.Variant(syntax.LangVariant(langVariant))(parser)
		syntax.KeepComments(keepComments)(parser)
		prog, err := parser.Parse(strings.NewReader(src), "")
		if err != nil {
			t.Skip() // not valid shell syntax
		}
		if simplify {
			syntax.Simplify(prog)
		}
		printer := syntax.NewPrinter()
		syntax.Indent(uint(indent))(printer)
		syntax.BinaryNextLine(binaryNextLine)(printer)
		syntax.SwitchCaseIndent(switchCaseIndent)(printer)
		syntax.SpaceRedirects(spaceRedirects)(printer)
		syntax.KeepPadding(keepPadding)(printer)
		syntax.Minify(minify)(printer)
		syntax.SingleLine(singleLine)(printer)
		syntax.FunctionNextLine(functionNextLine)(printer)
		if err := printer.Print(io.Discard, prog); err != nil {
			t.Skip() // e.g. invalid option
		}
	})
}

// FuzzGfz is the gfz target: Bash scripts from the grammar generator, a
// fifth of them with near-miss edits; a script that does not parse is an
// invalid input. No seeds: under plain go test it runs nothing.
func FuzzGfz(f *testing.F) {
	script := gens.Shell(gens.ShellConfig{MistakesPer: 200})
	gfz.Fuzz(f, func(t *gfz.T) {
		if _, err := Format(script.Draw(t)); err != nil {
			t.Skip(err)
		}
	})
}

// reproducer is the fix's fuzz crasher
// (syntax/testdata/fuzz/FuzzParsePrint/6d0dc226922dc40c), whose backquote
// is not closed; the panic comes before the end of the input is seen.
const reproducer = "`\\$\\\\000"

func TestReproducer(t *testing.T) {
	bugkit.ReproducerPanics(t, func() { _, _ = Format(reproducer) }, "slice bounds out of range [:-1]", IsBug)
	// The same with the backquote closed, inside a valid script.
	bugkit.ReproducerPanics(t, func() { _, _ = Format("x=`echo \\$\\\\000`\n") }, "slice bounds out of range [:-1]", IsBug)
	// The shortened literal as an assignment: the panic is getAssign's.
	bugkit.ReproducerPanics(t, func() { _, _ = Format("`a=\\$\\\\0`") }, "slice bounds out of range", IsBug)
}

// TestOracleRejectsOtherPanics checks that another panic of v3.9.0 is not
// this bug: the expander's "unexpected @U param expansion" on "${a@U}"
// (the parser accepts the operator; fixed by 01c9984b in 2026).
func TestOracleRejectsOtherPanics(t *testing.T) {
	bugkit.RejectsPanic(t, IsBug, func() {
		f, err := syntax.NewParser().Parse(strings.NewReader(`echo "${a@U}"`), "")
		if err != nil {
			t.Fatal(err)
		}
		word := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		_, _ = expand.Literal(&expand.Config{Env: expand.ListEnviron("a=Hello")}, word)
	})
}
