// Package gojafalsyloop pins github.com/dop251/goja at bf18fe8c88fa
// (2020-10-20), whose compiler panics (index out of range) on a loop or
// switch containing a break or continue that sits in code compiled for a
// constant falsy condition, as "while (false) { break; }" followed by
// another statement: the compiler compiles such a body into a throwaway
// program but records the jump's position in the enclosing block, and
// leaveBlock then patches that position in the real program, which may
// be shorter: https://github.com/dop251/goja/issues/220 (fixed the next
// day by bf9dcfbbe798, "Fixed compilation of falsy 'while' loops", which
// compiles such code in a "dummy mode" with a block of its own, also for
// "if (false)" branches). When the position falls inside the real
// program the jump silently overwrites an instruction instead.
//
// A semantic bug of the compiler: the program must parse, its condition
// must be a constant the compiler folds to false, and the break or
// continue must come late enough in the dead body.
package gojafalsyloop

import (
	"example.com/bugkit"
	"github.com/dop251/goja"
)

// Issue is the upstream report.
const Issue = "https://github.com/dop251/goja/issues/220"

// Site is the patching of a recorded break (line 89) or continue (93)
// in the compiler's leaveBlock, any caller (the while statement's in the
// report; a loop or switch around an "if (false)" branch too).
var Site = bugkit.Site{Func: "github.com/dop251/goja.(*compiler).leaveBlock", File: "compiler.go", Lines: []int{89, 93}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) }

// Names are the globals programs use, as a host that runs scripts
// defines them.
var Names = []string{"a", "b", "o", "f", "arr", "Math", "JSON", "Object", "String", "Array", "undefined", "NaN"}

// Compile compiles a script, as a host precompiling user scripts does
// (goja.Compile, what RunString calls first); it does not run it.
func Compile(src string) error {
	_, err := goja.Compile("script.js", src, false)
	return err
}
