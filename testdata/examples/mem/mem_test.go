package mem

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

var input = gen.SliceOf(gen.Byte(), 0, 32)

// FuzzDecode decodes drawn bytes and fails when one input makes Decode
// allocate more than MaxAlloc bytes: run with -feedback mem to find one
// (docs/ENGINE.md, "Feedback domains").
func FuzzDecode(f *testing.F) {
	gfz.Fuzz(f, func(t *gfz.T) {
		_, n := Decode(input.Draw(t))
		if n > MaxAlloc {
			t.Fatalf("decoding allocated %d bytes (budget %d)", n, MaxAlloc)
		}
	})
}

func TestDecode(t *testing.T) {
	recs, n := Decode([]byte{0x01, 2, 2, 'a', 'b', 'c', 'd', 1, 'e'})
	if len(recs) != 2 || string(recs[0]) != "abcd" || string(recs[1]) != "e" || n != 6 {
		t.Fatalf("Decode: %q, %d", recs, n)
	}
}
