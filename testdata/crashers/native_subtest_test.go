package crashers

import (
	"bytes"
	"testing"
)

// FuzzNativeSubtest is a native f.Fuzz target whose function runs its
// checks in subtests, as goccy/go-json's FuzzResumableDecoder does. It
// panics in the second subtest on inputs that start with "pan" and whose
// length is 5 modulo 8: not its seed (36 bytes), but many of the inputs
// the fuzzer makes from it; the shrinker cuts them to 5 bytes.
func FuzzNativeSubtest(f *testing.F) {
	f.Add([]byte("pan and some padding to make it long"))
	f.Fuzz(func(t *testing.T, b []byte) {
		t.Run("fine", func(t *testing.T) {
			if len(b) > 1000 {
				t.Skip("long")
			}
		})
		t.Run("check", func(t *testing.T) {
			if len(b)%8 == 5 && bytes.HasPrefix(b, []byte("pan")) {
				subtestPanic(b)
			}
		})
	})
}

//go:noinline
func subtestPanic(b []byte) {
	var a []int
	_ = a[len(b)]
}
