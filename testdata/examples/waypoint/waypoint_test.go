package waypoint

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

var (
	lock  = New([Digits]byte{3, 1, 4, 1, 5, 9, 2, 6})
	guess = gen.SliceOf(gen.IntRange(0, 9), Digits, Digits)
)

// FuzzLock fails when a guess opens the lock; t.Maximize reports how many
// digits were right, which is feedback in every fuzz binary (no flag).
func FuzzLock(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		g := guess.Draw(t)
		b := make([]byte, len(g))
		for i, d := range g {
			b[i] = byte(d)
		}
		right := lock.Try(b)
		t.Maximize("digits right", int64(right))
		if right == Digits {
			t.Fatalf("opened the lock with %v", g)
		}
	})
}

func TestTry(t *testing.T) {
	if n := lock.Try([]byte{3, 1, 4, 0, 0, 0, 0, 6}); n != 4 {
		t.Fatalf("Try: %d right, want 4", n)
	}
}
