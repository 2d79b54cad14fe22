package bugkit

import (
	"encoding/hex"
	"strings"
	"testing"
)

// Hex decodes s, a reproducer or seed written in hex in a test; it panics
// on a malformed s (a mistake in the test).
func Hex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// ReproducerPanics checks that reproduce (the reported reproducer) panics,
// with want in its stack unless want is "", and that isBug recognises the
// panic: the bug is present at the pinned version and the oracle knows it.
func ReproducerPanics(t testing.TB, reproduce func(), want string, isBug func(stack string) bool) {
	t.Helper()
	stack, panicked := CatchPanic(reproduce)
	if !panicked {
		t.Fatalf("the reproducer did not panic: the bug is not present at this version")
	}
	if want != "" && !strings.Contains(stack, want) {
		t.Errorf("panic is not the reported %q:\n%s", want, stack)
	}
	if !isBug(stack) {
		t.Errorf("IsBug does not recognise the reproducer's panic:\n%s", stack)
	}
}

// RejectsPanic checks that isBug does not match the panic of other, another
// crash (nil: an unrelated panic of the test itself); other must panic.
func RejectsPanic(t testing.TB, isBug func(stack string) bool, other func()) {
	t.Helper()
	if other == nil {
		other = func() { panic("some other crash") }
	}
	stack, panicked := CatchPanic(other)
	if !panicked {
		t.Fatalf("the other crash is gone at this version")
	}
	if isBug(stack) {
		t.Fatalf("IsBug matches another panic:\n%s", stack)
	}
}
