package native

import (
	"bytes"
	"testing"
)

// TestRandomArgs: fresh random arguments decode back to themselves (the
// encoding is Decode's inverse), their []byte and string arguments are
// not all empty, their lengths spread over the three bounds, the total
// stays within maxSize, and the same random stream gives the same
// arguments.
func TestRandomArgs(t *testing.T) {
	ts := Types{String, Bytes, Int64, Bool, Float64}
	m := NewMutator(ts, nil)
	var x uint64 = 7
	rand := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
	var longest, empty, over8 int
	var dst []byte
	for range 2000 {
		dst = m.RandomArgs(rand, dst, 300)
		if len(dst) > 300 {
			t.Fatalf("%d bytes, want at most 300", len(dst))
		}
		args, err := ts.DecodeBytes(dst)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range args {
			if !bytes.Equal(a.B, m.args[i].B) || a.U != m.args[i].U {
				t.Fatalf("argument %d decodes to %+v, was made as %+v", i, a, m.args[i])
			}
		}
		if args[3].U > 1 {
			t.Fatalf("bool %d", args[3].U)
		}
		for _, a := range args[:2] {
			longest = max(longest, len(a.B))
			if len(a.B) == 0 {
				empty++
			}
			if len(a.B) > 8 {
				over8++
			}
		}
	}
	if empty > 2000 || over8 < 500 || longest < 100 {
		t.Errorf("lengths: %d of 4000 empty, %d over 8, longest %d: want few empty, many over 8, some over 100", empty, over8, longest)
	}
	x = 7
	a := append([]byte(nil), m.RandomArgs(rand, nil, 300)...)
	x = 7
	if b := m.RandomArgs(rand, nil, 300); !bytes.Equal(a, b) {
		t.Errorf("the same stream gave different arguments")
	}
}
