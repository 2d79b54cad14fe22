package callsite_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/callsite"
)

func TestIsLibrary(t *testing.T) {
	for name, want := range map[string]bool{
		"github.com/gfz-dev/gfz.(*T).Repeat":                            true,
		"github.com/gfz-dev/gfz.Fuzz.func1":                             true,
		"github.com/gfz-dev/gfz/generators.Generator[...].Draw":         true,
		"github.com/gfz-dev/gfz/generators.Custom[...].func1":           true,
		"github.com/gfz-dev/gfz/generators/gojson.value":                true,
		"github.com/gfz-dev/gfz/internal/engine.(*fuzzer).loop":         true,
		"github.com/gfz-dev/gfz/param.(*Source).BeginCall":              true,
		"github.com/gfz-dev/gfz_test.genTree":                           false,
		"github.com/gfz-dev/gfz/generators_test.TestX.func1":            false,
		"github.com/gfz-dev/gfz/testdata/examples/bst.genTree":          false,
		"github.com/gfz-dev/gfz/testdata/examples/bst.FuzzDelete.func1": false,
		"github.com/gfz-dev/gfzfork.f":                                  false,
		"example.com/m.genTree":                                         false,
		"main.main":                                                     false,
		"runtime.goexit":                                                false,
	} {
		if got := callsite.IsLibrary(name); got != want {
			t.Errorf("IsLibrary(%q) = %v, want %v", name, got, want)
		}
	}
}

// probe is a function like a generator's Draw: it asks User for the user
// frames above its caller.
//
//go:noinline
func probe() ([]callsite.Frame, bool) {
	var buf [4]callsite.Frame // small: deeper stacks grow the slice
	return callsite.User(0, callsite.Caller(), buf[:])
}

// rec recurses n times from two call sites (left for odd n, right for
// even n) and then probes.
//
//go:noinline
func rec(n int, out *[]callsite.Frame, ok *bool) {
	if n == 0 {
		*out, *ok = probe()
		return
	}
	if n%2 == 1 {
		rec(n-1, out, ok) // left
		return
	}
	rec(n-1, out, ok) // right
}

//go:noinline
func outer(n int, out *[]callsite.Frame, ok *bool) { rec(n, out, ok) }

// TestUser: the frames between probe's caller and the library frame, less
// the outermost (the function the library called), innermost first, each
// with the function's identity and the return address of its call.
func TestUser(t *testing.T) {
	var frames []callsite.Frame
	var ok bool
	callsite.LibCall(func() { outer(6, &frames, &ok) })
	if !ok {
		t.Fatal("no library frame found")
	}
	slices.Reverse(frames) // outermost first, for reading
	// The closure called outer (outer is a frame); outer called rec(6),
	// rec(6) ... rec(1) called rec(n-1): 1 + 6 frames; rec(0) called probe
	// and is a frame too: outer, rec(6), ..., rec(0) = 8 frames.
	var names []string
	for _, f := range frames {
		names = append(names, f.Name[strings.LastIndexByte(f.Name, '.')+1:])
	}
	if len(frames) != 8 || names[0] != "outer" || names[1] != "rec" || names[7] != "rec" {
		t.Fatalf("frames %v, want outer and 7 calls of rec", names)
	}
	if frames[1].Func == frames[0].Func || frames[2].Func != frames[1].Func {
		t.Errorf("Func: outer %#x, rec %#x and %#x: want rec's calls to share one, outer another", frames[0].Func, frames[1].Func, frames[2].Func)
	}
	// rec(6) is called from outer, rec(5) from rec(6)'s right site (6 is
	// even), rec(4) from rec(5)'s left site, and so on.
	right, left := frames[2].Site, frames[3].Site
	if right == left || frames[1].Site == right || frames[1].Site == left {
		t.Errorf("sites: from outer %#x, right %#x, left %#x: want three", frames[1].Site, right, left)
	}
	for k := 2; k < 8; k++ {
		want := right
		if k%2 == 1 {
			want = left
		}
		if frames[k].Site != want {
			t.Errorf("frame %d (rec(%d)) site %#x, want %#x", k, 8-k, frames[k].Site, want)
		}
	}
	// The sites are the return addresses runtime.Callers reports.
	for _, f := range frames {
		fn := runtime.FuncForPC(f.Site - 1)
		if fn == nil || !strings.HasPrefix(fn.Name(), "github.com/gfz-dev/gfz/internal/callsite_test.") {
			t.Errorf("site %#x is in %v", f.Site, fn)
		}
	}
}

// TestUserNoAnchor: a stack with no library frame (a goroutine of the
// user's) gives no frames.
func TestUserNoAnchor(t *testing.T) {
	var frames []callsite.Frame
	ok := true
	done := make(chan bool)
	go func() {
		outer(2, &frames, &ok)
		done <- true
	}()
	<-done
	if ok || len(frames) != 0 {
		t.Errorf("frames %v, ok %v, want none", frames, ok)
	}
}

// TestUserOutermost: called from the function the library called, no
// frames (that function stands for the library's span), ok; called from
// the library itself, not ok (nothing to tell).
func TestUserOutermost(t *testing.T) {
	var frames []callsite.Frame
	var ok bool
	callsite.LibCall(func() { frames, ok = probe() })
	if !ok || len(frames) != 0 {
		t.Errorf("frames %v (ok %v) for a probe called by the function the library called, want none, ok", frames, ok)
	}
	ok = true
	callsite.LibCall(func() { callsite.LibCall2(func() { frames, ok = probe() }) })
	if !ok || len(frames) != 0 {
		t.Errorf("frames %v (ok %v) for a probe called by the function the library called, want none, ok", frames, ok)
	}
	frames, ok = callsite.LibProbe()
	if ok || len(frames) != 0 {
		t.Errorf("frames %v (ok %v) for a probe called by the library, want none, not ok", frames, ok)
	}
}

// walker calls Walk and runtime.Callers for the same frames.
//
//go:noinline
func walker(pcs, want []uintptr) (int, int) {
	n := callsite.Walk(0, pcs)
	m := runtime.Callers(2, want) // 0 Callers, 1 walker, 2 walker's caller
	return n, m
}

//go:noinline
func walkVia(pcs, want []uintptr) (int, int) { return walker(pcs, want) }

// TestWalk: the return addresses Walk finds are those runtime.Callers
// reports (the functions here are not inlined).
func TestWalk(t *testing.T) {
	pcs, want := make([]uintptr, 3), make([]uintptr, 3)
	n, m := walkVia(pcs, want)
	if n != 3 || m != 3 {
		t.Fatalf("Walk found %d, runtime.Callers %d", n, m)
	}
	// want[0] is in walker's caller (walkVia), as pcs[0].
	for i := range pcs {
		if pcs[i] != want[i] {
			t.Errorf("frame %d: Walk %#x, runtime.Callers %#x", i, pcs[i], want[i])
		}
	}
	if got := callsite.Walk(1, pcs[:1]); got != 1 {
		t.Errorf("Walk with skip 1 found %d frames", got)
	}
}

func BenchmarkUser(b *testing.B) {
	var frames []callsite.Frame
	var ok bool
	callsite.LibCall(func() {
		for range b.N {
			outer(4, &frames, &ok)
		}
	})
}

func TestIsLibraryCode(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	root := strings.TrimSuffix(self, "internal/callsite/user_test.go")
	for _, c := range []struct {
		name, file string
		want       bool
	}{
		{"github.com/gfz-dev/gfz/generators.Generator[...].Draw", root + "generators/generators.go", true},
		// A closure of SliceOf copied into the user's package.
		{"example.com/m.init.SliceOf[...].func3", root + "generators/collections.go", true},
		{"github.com/gfz-dev/gfz_test.init.SliceOf[...].func3", root + "generators/collections.go", true},
		{"github.com/gfz-dev/gfz_test.genTree", root + "bench_test.go", false},
		{"github.com/gfz-dev/gfz.TestX", root + "t_test.go", true},
		{"github.com/gfz-dev/gfz/testdata/examples/bst.genTree", root + "testdata/examples/bst/bst_test.go", false},
		{"github.com/gfz-dev/gfz/testdata/examples/bst.Delete", root + "testdata/examples/bst/bst.go", false},
		{"example.com/m.genTree", "/home/u/m/m_test.go", false},
		{"github.com/gfz-dev/gfz/generators.Generator[...].Draw-fm", "<autogenerated>", true},
		{"example.com/m.T.M-fm", "<autogenerated>", false},
	} {
		if got := callsite.IsLibraryCode(c.name, c.file); got != c.want {
			t.Errorf("IsLibraryCode(%q, %q) = %v, want %v", c.name, c.file, got, c.want)
		}
	}
}

// TestInfoCacheTwoWay: two return addresses with one slot in the table
// both stay cached when looked up in turn (a direct-mapped table evicted
// one with the other at every lookup: a resolve, with its allocations, for
// every draw of a generator whose two call sites collided).
func TestInfoCacheTwoWay(t *testing.T) {
	a := uintptr(0x7f0000001000)
	b := a + 16
	for callsite.Slot(b) != callsite.Slot(a) {
		b += 16
	}
	callsite.Lookup(a)
	callsite.Lookup(b)
	callsite.Lookup(a)
	if !callsite.Cached(a) || !callsite.Cached(b) {
		t.Errorf("cached after alternate lookups: %#x %v, %#x %v", a, callsite.Cached(a), b, callsite.Cached(b))
	}
}
