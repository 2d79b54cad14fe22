package signature

import (
	_ "embed"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

//go:generate go run gen_std.go

// Standard-library helper frames.
//
// A failure's site is the innermost frame of the user's code or of a
// dependency's, never a standard-library function it called: a short read
// that panics in encoding/binary.bigEndian.Uint16 (inlined into its
// caller) is a bug of the caller, and were Uint16 the site, every short
// read of a module would share one site. So the frames of a signature
// start at the innermost user frame that is not a standard-library helper
// (stdHelper), when the stack has one below the helpers (before gfz's
// boundary); when it has none (a target in a standard-library package's
// own tests: the std frames are the only frames of the code under test)
// the std frames are kept. Std frames further out (sort's frames below a
// panicking less function, say) are kept too: only the innermost frame,
// the site, must be the user's.
//
// Which package is standard is decided by its import path, taken from the
// function name, not by the absence of a dot in it alone (a module named
// "m" or "example" has no dot either): the path is in the list of go list
// std (std.txt, embedded, generated from the Go release gfz is developed
// with), or, for packages of a newer release, the frame's file is in that
// package's directory under GOROOT/src (the GOROOT the binary was built
// from, as the runtime's own frames name it; under -trimpath file names
// have no GOROOT and only the list applies: a std file is then
// "encoding/binary/binary.go" and a file of module m "m/m.go").
//
// A standard-library package that the binary instruments (gfz-build -cover
// encoding/json, see SetStdUnderTest) is code under test, not a helper:
// its frames are user frames, the user asked for its coverage (gfz-build
// suggests -cover for the std packages a target with few probes of its
// own imports: the std package is what it fuzzes).

//go:embed std.txt
var stdList string

// stdSet is the set of std.txt's import paths.
var stdSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(stdList, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			m[l] = true
		}
	}
	return m
})

// gorootSrc returns the source directory of the GOROOT the binary was
// built from, with a trailing slash ("/usr/local/go/src/"), from the file
// of a runtime function; "" when file names have no GOROOT (-trimpath).
// Tests replace it.
var gorootSrc = sync.OnceValue(func() string {
	var pc [1]uintptr
	if runtime.Callers(0, pc[:]) == 0 { // runtime.Callers itself
		return ""
	}
	fr, _ := runtime.CallersFrames(pc[:]).Next()
	if i := strings.LastIndex(fr.File, "/src/runtime/"); i >= 0 {
		return fr.File[:i+len("/src/")]
	}
	return ""
})

// stdUnderTest holds the standard-library packages that are code under
// test (see SetStdUnderTest); nil for none.
var stdUnderTest atomic.Pointer[map[string]bool]

// SetStdUnderTest records the standard-library packages the binary
// instruments (gfz-build -cover encoding/json): they are code under test,
// not helpers. The fuzz binary's driver calls it at start, in the
// supervisor and in every child alike, from the build information
// gfz-build links in. (The probe runtime's registry of instrumented
// packages would not do: the supervisor runs from package gfz's init,
// before the init functions of the packages that import gfz, and of std
// packages initialised after it, have registered them; the supervisor and
// the workers would disagree.)
func SetStdUnderTest(pkgs []string) {
	m := make(map[string]bool, len(pkgs))
	for _, p := range pkgs {
		if p != "" {
			m[p] = true
		}
	}
	stdUnderTest.Store(&m)
}

// underTest reports whether the package with import path pkg is a std
// package under test.
func underTest(pkg string) bool {
	m := stdUnderTest.Load()
	return m != nil && (*m)[pkg]
}

// funcPackage returns the import path of the package of the function
// named fn as runtime frames and Go tracebacks name it
// ("encoding/binary.bigEndian.Uint16" -> "encoding/binary",
// "sort.Slice.func1" -> "sort", "slices.SortFunc[...]" -> "slices"), or
// "" for a name without a package ("panic" in a traceback).
func funcPackage(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i] // type arguments, which may hold paths and dots
	}
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// isStdPackage reports whether the package with import path pkg, one of
// whose functions is in file, is a standard-library package: pkg is in
// go list std (std.txt), or its first path element has no dot and file is
// in pkg's directory under the binary's GOROOT/src (a package newer than
// std.txt). A module named without a dot ("m") is not standard.
func isStdPackage(pkg, file string) bool {
	if pkg == "" {
		return false
	}
	if stdSet()[pkg] {
		return true
	}
	first, _, _ := strings.Cut(pkg, "/")
	if strings.Contains(first, ".") || first == "cmd" { // go list std leaves out cmd
		return false
	}
	src := gorootSrc()
	if src == "" {
		return false
	}
	rest, ok := strings.CutPrefix(file, src+pkg+"/")
	return ok && !strings.Contains(rest, "/")
}

// stdHelper reports whether the frame of function fn, in file, is a
// standard-library helper: a function of a standard-library package that
// the binary does not instrument (see above). Such frames are not a
// failure's site when the user's code called them.
func stdHelper(fn, file string) bool {
	pkg := funcPackage(fn)
	return isStdPackage(pkg, file) && !underTest(pkg)
}
