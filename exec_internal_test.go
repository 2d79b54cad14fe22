package gfz

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"runtime error: index out of range [5] with length 3": "runtime error: index out of range [N] with length N",
		"node 12 at depth 3\nmore":                            "node N at depth N",
		"x1y22z333":                                           "xNyNzN",
		strings.Repeat("a", 300):                              strings.Repeat("a", 120) + "...",
	} {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%.20q) = %q, want %q", in, got, want)
		}
	}
	if k := panicKind(struct{ X int }{7}); k != "struct { X int }: {N}" {
		t.Errorf("panicKind of a struct = %q", k)
	}
}

func TestTrimStack(t *testing.T) {
	in := `goroutine 8 [running]:
runtime/debug.Stack()
	/go/src/runtime/debug/stack.go:26 +0x5e
github.com/gfz-dev/gfz.run.func1()
	/work/main/exec.go:61 +0xaa
panic({0x621560?, 0x3454e391a0a8?})
	/go/src/runtime/panic.go:860 +0x13a
example.com/x.Pick(...)
	/x/apitest.go:16
github.com/gfz-dev/gfz.run(0x3454e391e180?, 0x30?)
	/work/main/exec.go:71 +0x68
github.com/gfz-dev/gfz.(*executor).Exec(0x3454e3912000)
	/work/main/exec.go:38 +0x1c6
`
	want := `goroutine 8 [running]:
panic({0x621560?, 0x3454e391a0a8?})
	/go/src/runtime/panic.go:860 +0x13a
example.com/x.Pick(...)
	/x/apitest.go:16
`
	if got := trimStack(in); got != want {
		t.Errorf("trimStack:\n%s\nwant:\n%s", got, want)
	}
}
