package mem

import (
	"testing"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
)

var input = gen.SliceOf(gen.Byte(), 0, 12)

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
	recs, n := Decode([]byte{0, 1, 0x17, 9})
	if len(recs) != 4 || n != 16+32+2048+32 {
		t.Fatalf("Decode: %d records, %d bytes", len(recs), n)
	}
}
