package apitest

import (
	"os"
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

var xsGen = gen.SliceOf(gen.IntRange(0, 9), 0, 5).Named("xs")

// FuzzPass never fails; inputs with an empty slice are invalid.
func FuzzPass(f *testing.F) {
	f.Add([]byte{3, 1, 2, 3})
	f.Add([]byte{0}) // empty slice: invalid, not a failure
	gfz.Fuzz(f, func(t *gfz.T) {
		xs := xsGen.Draw(t)
		t.Assume(len(xs) > 0)
		t.Logf("sum=%d", Sum(xs))
		if Sum(xs) > 45 {
			t.Fatal("impossible sum")
		}
	})
}

// FuzzPanic indexes out of range when the first element is 7.
func FuzzPanic(f *testing.F) {
	f.Add([]byte{2, 1, 2})
	gfz.Fuzz(f, func(t *gfz.T) {
		xs := xsGen.Draw(t)
		t.Assume(len(xs) > 0)
		if xs[0] == 7 {
			_ = Pick(xs, xs[0])
		}
	})
}

// FuzzFatal fails with t.Fatalf when the flag is set and n is 2.
func FuzzFatal(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		flag := gen.Bool().Named("flag").Draw(t)
		n := gen.IntRange(0, 3).Named("n").Draw(t)
		if flag && n == 2 {
			check(t, n)
		}
	})
}

func check(t *gfz.T, n int) {
	t.Helper()
	t.Errorf("n is %d", n)
	t.Fatalf("flag set and n == %d", n)
}

// FuzzNoGfz never calls gfz.Fuzz; with APITEST_PREPANIC set it panics
// first, as a target whose setup fails before its gfz.Fuzz call; with
// APITEST_SKIP set it skips itself, as a target missing what it needs.
func FuzzNoGfz(f *testing.F) {
	if os.Getenv("APITEST_PREPANIC") != "" {
		panic("setup failed before gfz.Fuzz")
	}
	if os.Getenv("APITEST_SKIP") != "" {
		f.Skip("APITEST_SKIP is set")
	}
}

// FuzzGoPanic panics in a goroutine it starts when APITEST_GOPANIC is set.
func FuzzGoPanic(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		if gen.Bool().Draw(t) && os.Getenv("APITEST_GOPANIC") != "" {
			done := make(chan bool)
			go func() {
				defer close(done)
				panic("boom in a goroutine")
			}()
			<-done
		}
	})
}

// FuzzAnyChange fails on every input but its seed (eight zero bytes): any
// mutation of the seed's bytes, and any shorter input (extended with PRNG
// bytes), makes it panic, so go test -fuzz finds a failure on its first
// mutations whatever its random choices.
func FuzzAnyChange(f *testing.F) {
	f.Add(make([]byte, 8))
	gfz.Fuzz(f, func(t *gfz.T) {
		for i := 0; i < 8; i++ {
			if b := gen.Byte().Draw(t); b != 0 {
				_ = Pick(nil, int(b))
			}
		}
	})
}
