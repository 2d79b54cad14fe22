package native

import (
	"bytes"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// docMix writes "doc" and four bytes drawn from the source as argument
// arg.
func docMix(arg int) *Mix {
	return &Mix{Arg: arg, Draw: func(src *param.Source) ([]byte, bool) { return append([]byte("doc:"), src.Bytes(4)...), true }}
}

// TestGenerateArgs: a generated child is its parent with the mix's
// argument replaced by the drawn document, every other argument kept, its
// encoding a native one; the same random source gives the same child.
func TestGenerateArgs(t *testing.T) {
	for _, arg := range []int{0, 2, 7} { // a length-prefixed string, a []byte, the last string
		parent := encode(t, mixed, mixedArgs())
		m := NewMutator(mixed, nil)
		if m.Generates() {
			t.Fatal("a mutator without a mix generates")
		}
		if _, ok := m.GenerateArgs(splitmix(1), nil, parent, 1<<10); ok {
			t.Fatal("a mutator without a mix made a generated child")
		}
		m.SetMix(docMix(arg))
		c1, ok := m.GenerateArgs(splitmix(5), nil, parent, 1<<10)
		if !ok {
			t.Fatalf("arg %d: no child", arg)
		}
		c2, _ := NewMutator(mixed, nil).withMix(docMix(arg)).GenerateArgs(splitmix(5), nil, parent, 1<<10)
		if !bytes.Equal(c1, c2) {
			t.Errorf("arg %d: the same random source gave two children", arg)
		}
		got, err := mixed.DecodeBytes(c1)
		if err != nil {
			t.Fatal(err)
		}
		want := mixedArgs()
		for i := range want {
			switch {
			case i == arg:
				if !bytes.HasPrefix(got[i].B, []byte("doc:")) || len(got[i].B) != 8 {
					t.Errorf("arg %d: generated %q", i, got[i].B)
				}
			case !bytes.Equal(got[i].B, want[i].B) || got[i].U != want[i].U:
				t.Errorf("generating arg %d changed arg %d: %v, want %v", arg, i, got[i].Value(), want[i].Value())
			}
		}
	}
}

// TestGenerateArgsFits: a document longer than the room left is cut so
// that the child fits maxSize.
func TestGenerateArgsFits(t *testing.T) {
	parent := encode(t, mixed, mixedArgs())
	m := NewMutator(mixed, nil).withMix(&Mix{Arg: 2, Draw: func(*param.Source) ([]byte, bool) { return bytes.Repeat([]byte("x"), 500), true }})
	room := 100
	c, ok := m.GenerateArgs(splitmix(1), nil, parent, len(parent)+room)
	if !ok || len(c) != len(parent)+room {
		t.Errorf("child of %d bytes (ok %v), want %d (the size limit)", len(c), ok, len(parent)+room)
	}
	m = NewMutator(mixed, nil).withMix(&Mix{Arg: 2, Draw: func(*param.Source) ([]byte, bool) { return nil, false }})
	if _, ok := m.GenerateArgs(splitmix(1), nil, parent, 1<<10); ok {
		t.Error("a failed draw made a child")
	}
}

func TestSetMixChecks(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a mix of an int argument was accepted")
		}
	}()
	NewMutator(mixed, nil).SetMix(docMix(1))
}

func (m *Mutator) withMix(mix *Mix) *Mutator { m.SetMix(mix); return m }
