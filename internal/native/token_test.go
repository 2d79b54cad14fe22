package native

import (
	"bytes"
	"testing"
)

// TestTokenArgs: a token replaces its from bytes inside the []byte or
// string argument that holds them, which changes length with it; the
// other arguments keep their values; with place, a token whose from is
// nowhere goes into a variable-length argument; no child when there is no
// such argument, no occurrence (without place) or no room.
func TestTokenArgs(t *testing.T) {
	ts := Types{String, Int32, Bytes}
	parent, err := ts.Encode([]Arg{{Kind: String, B: []byte("xhely")}, {Kind: Int32, U: 7}, {Kind: Bytes, B: []byte("zz")}})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMutator(ts, nil)
	r := uint64(1)
	rand := func() uint64 { r = r*6364136223846793005 + 1442695040888963407; return r }
	decode := func(c []byte) []Arg {
		t.Helper()
		got, err := ts.DecodeBytes(c)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for range 50 {
		c, ok := m.TokenArgs(rand, nil, parent, []byte("hel"), []byte("hello"), false, false, 1000)
		if !ok {
			t.Fatal("no child for a token whose from is in the string argument")
		}
		got := decode(c)
		if string(got[0].B) != "xhelloy" || got[1].U != 7 || string(got[2].B) != "zz" {
			t.Fatalf("child %q %d %q, want \"xhelloy\" 7 \"zz\"", got[0].B, got[1].U, got[2].B)
		}
		// A shorter to, in the last argument.
		c, ok = m.TokenArgs(rand, c, parent, []byte("zz"), []byte("a"), false, false, 1000)
		if got := decode(c); !ok || string(got[0].B) != "xhely" || string(got[2].B) != "a" {
			t.Fatalf("zz -> a: ok %v, child %q %q", ok, got[0].B, got[2].B)
		}
	}
	if _, ok := m.TokenArgs(rand, nil, parent, []byte("nope"), []byte("yes"), false, false, 1000); ok {
		t.Error("a child for a token found nowhere, without place")
	}
	if _, ok := m.TokenArgs(rand, nil, parent, []byte("hel"), bytes.Repeat([]byte("h"), 100), false, false, 50); ok {
		t.Error("a child above maxSize")
	}
	placed := 0
	for range 200 {
		c, ok := m.TokenArgs(rand, nil, parent, []byte("nope"), []byte("TOK"), true, false, 1000)
		if !ok {
			t.Fatal("no child with place")
		}
		got := decode(c)
		if got[1].U != 7 {
			t.Fatalf("placing a token changed the int argument: %d", got[1].U)
		}
		if bytes.Contains(got[0].B, []byte("TOK")) || bytes.Contains(got[2].B, []byte("TOK")) {
			placed++
		}
	}
	if placed != 200 {
		t.Errorf("the token is in a variable-length argument of %d of 200 placed children", placed)
	}
	// shift: the byte before the operand (a length in a binary format)
	// moves with the operand's length.
	tlv, _ := Types{Bytes}.Encode([]Arg{{Kind: Bytes, B: []byte("\x03abc")}})
	if c, ok := m2(Types{Bytes}).TokenArgs(rand, nil, tlv, []byte("abc"), []byte("abcde"), false, true, 1000); !ok || string(c) != "\x05abcde" {
		t.Errorf("shift: child %q, want \"\\x05abcde\"", c)
	}
	ints := NewMutator(Types{Int64}, nil)
	p8, _ := Types{Int64}.Encode([]Arg{{Kind: Int64, U: 5}})
	if _, ok := ints.TokenArgs(rand, nil, p8, []byte{5}, []byte{6}, true, false, 1000); ok {
		t.Error("a child for a target with no []byte or string argument")
	}
}

func m2(ts Types) *Mutator { return NewMutator(ts, nil) }
