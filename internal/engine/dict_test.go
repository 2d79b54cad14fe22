package engine

import (
	"bytes"
	"testing"
)

// TestDictOp: a dictionary operator inserts or writes a token, never
// growing the child past max.
func TestDictOp(t *testing.T) {
	r := newPRNG(1)
	dict := [][]byte{[]byte("TOKEN")}
	inserted, overwritten := 0, 0
	for i := 0; i < 200; i++ {
		parent := []byte("0123456789")
		c := dictOp(r, append([]byte(nil), parent...), 12, dict)
		if !bytes.Contains(c, []byte("TOKEN")) && !bytes.HasSuffix(c, []byte("TOK")) && !bytes.HasSuffix(c, []byte("TO")) && !bytes.HasSuffix(c, []byte("T")) && !bytes.HasSuffix(c, []byte("TOKE")) {
			t.Fatalf("child %q has no token", c)
		}
		if len(c) > 15 {
			t.Fatalf("child %q longer than the parent plus the token", c)
		}
		switch len(c) {
		case len(parent):
			overwritten++
		default:
			inserted++
		}
	}
	// max 12 < 10+5: insertion never fits, so every child overwrites.
	if inserted != 0 || overwritten != 200 {
		t.Errorf("inserted %d, overwritten %d with max 12", inserted, overwritten)
	}
	for i := 0; i < 200; i++ {
		c := dictOp(r, []byte("0123456789"), 100, dict)
		if len(c) == 15 {
			inserted++
		}
	}
	if inserted == 0 {
		t.Errorf("no insertion with room for it")
	}
}
