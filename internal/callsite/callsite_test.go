package callsite

import (
	"runtime"
	"testing"
)

//go:noinline
func f() uintptr { return Caller() }

// want is what runtime.Callers reports as f's caller's PC.
//
//go:noinline
func g() (got, want uintptr) {
	var pc [1]uintptr
	got = fwant(&pc)
	return got, pc[0]
}

//go:noinline
func fwant(pc *[1]uintptr) uintptr {
	runtime.Callers(2, pc[:]) // 0 Callers, 1 fwant, 2 g
	return Caller()
}

func TestCaller(t *testing.T) {
	a := f()
	b := f()
	if a == 0 || a == b {
		t.Errorf("two call sites gave %#x and %#x, want distinct non-zero", a, b)
	}
	var seen []uintptr
	for range 3 {
		seen = append(seen, f())
	}
	if seen[0] != seen[1] || seen[1] != seen[2] {
		t.Errorf("one call site in a loop gave %#x", seen)
	}
	got, want := g()
	fn := runtime.FuncForPC(got)
	if fn == nil || fn.Name() != "github.com/gfz-dev/gfz/internal/callsite.g" {
		t.Errorf("Caller in fwant points into %v, want g", fn)
	}
	if got != want {
		t.Errorf("Caller = %#x, runtime.Callers reports %#x for the same frame", got, want)
	}
}

func BenchmarkCaller(b *testing.B) {
	var s uintptr
	for range b.N {
		s += f()
	}
	_ = s
}
