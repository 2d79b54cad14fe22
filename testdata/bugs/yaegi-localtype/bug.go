// Package yaegilocaltype pins github.com/traefik/yaegi v0.16.1 (the latest
// release), a Go interpreter whose compiler panics (index out of range
// [0] with length 0) on a valid program that declares, inside a function
// body, a type defined over a named struct type and then selects a field
// of a value of that type:
//
//	type S struct{ F string }
//
//	func main() {
//		type A S // or a chain: type A S; type B A
//		var a A
//		a.F = "x" // or a read of a.F, through a value or a pointer
//	}
//
// The local declaration gives A an itype that links to S (the "linkedT"
// category) and holds no field list of its own. The selector's field is
// found (lookupField follows the link), but its type is then computed by
// (*itype).fieldSeq, which steps through pointers only and indexes the
// link's empty field list. The same declarations at package level compile:
// the panic needs the local declaration, a named struct type as its type,
// and a field selection. The shape is old: every release I tried from
// v0.9.23 on (where Eval still turned the panic into an error) to v0.16.1
// panics on it.
//
// The same missing step has a second site, in the code generated for a
// composite literal with elements (doComposite), which follows one link
// only: a literal of a chain of two local types, B{F: 1} after type A S;
// type B A. The compiler generates that code for a function literal while
// it compiles it, so inside a closure the literal panics at compile time
// too; in a function body the code is generated when the program starts,
// under the recovery of Execute, and the run fails with an error instead.
//
// Reported and fixed by
// https://github.com/traefik/yaegi/pull/1679 ("fix: correctly resolve
// fields of aliased structs", commit f616581, January 2025, with the test
// _test/type34.go), which makes fieldSeq and the composite literal code
// resolve the base type. The fix is on the master branch after v0.16.1.
// No release has it, and the module proxy refuses the commit's
// pseudo-version (403).
package yaegilocaltype

import (
	"context"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"

	"example.com/bugkit"
	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Issue is the upstream report: the pull request that reports and fixes
// the bug (I found no issue for it).
const Issue = "https://github.com/traefik/yaegi/pull/1679"

// Site is the indexing of the field list in fieldSeq (type.go:1720),
// whatever the caller: the three branches of the compiler's selector
// expression (cfg.go:1861, 1865 for a pointer, 1873 for a value) and the
// type resolution of a selector (type.go:1010) all reach it through the
// same loop, which the fix changes.
var Site = bugkit.Site{Func: "github.com/traefik/yaegi/interp.(*itype).fieldSeq", File: "type.go", Lines: []int{1720}}

// CompositeSite is the indexing of the field list in doComposite
// (run.go:2738), for a keyed or positional literal (doCompositeLitKeyed,
// doCompositeLit), which the fix changes the same way.
var CompositeSite = bugkit.Site{Func: "github.com/traefik/yaegi/interp.doComposite", File: "run.go", Lines: []int{2738}}

// IsBug reports whether a failure's stack trace is this bug.
func IsBug(stack string) bool { return Site.MatchPanic(stack) || CompositeSite.MatchPanic(stack) }

// Packages are the standard library packages a script may import: text,
// numbers, sorting and errors. Nothing that reaches files, the network or
// processes.
var Packages = []string{"errors", "fmt", "math", "sort", "strconv", "strings", "unicode", "unicode/utf8"}

// Timeout bounds a script's run.
const Timeout = 100 * time.Millisecond

// exports are the symbols of Packages, without fmt's functions that
// write to the process's standard output (a script prints with println,
// which writes to the host's buffer).
var exports = func() interp.Exports {
	e := interp.Exports{".": stdlib.Symbols["."]}
	for _, p := range Packages {
		name := p[strings.LastIndexByte(p, '/')+1:]
		syms := map[string]reflect.Value{}
		for k, v := range stdlib.Symbols[p+"/"+name] {
			syms[k] = v
		}
		if p == "fmt" {
			delete(syms, "Print")
			delete(syms, "Printf")
			delete(syms, "Println")
		}
		e[p+"/"+name] = syms
	}
	return e
}()

// output collects what a script prints, up to 64 KiB; the run may still
// write to it after a timeout.
type output struct {
	mu sync.Mutex
	b  strings.Builder
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if room := 64<<10 - o.b.Len(); room > 0 {
		o.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// Run does what a Go program that runs users' Go scripts with yaegi does:
// a fresh interpreter with the allowed packages, the script compiled
// (interp.Compile), then run (the package's initializers and main) with a
// deadline (ExecuteWithContext). It returns what the script printed.
// Compiling happens in the caller's goroutine, so a compiler panic
// reaches the caller. The run happens in a goroutine of the interpreter
// that turns any panic, the script's or the interpreter's, into an
// interp.Panic error.
func Run(src string) (string, error) {
	out := &output{}
	i := interp.New(interp.Options{Stdin: strings.NewReader(""), Stdout: out, Stderr: io.Discard, Args: []string{"script"}})
	if err := i.Use(exports); err != nil {
		return "", err
	}
	prog, err := i.Compile(src)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if _, err := i.ExecuteWithContext(ctx, prog); err != nil {
		return out.String(), err
	}
	return out.String(), nil
}
