package nearmiss

import (
	"slices"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// TestEdits runs each edit at a chosen position on a fixed document.
func TestEdits(t *testing.T) {
	syn := Syntax{
		Delims:     []string{"]]"},
		Closers:    []string{"]", "}"},
		Quotes:     []string{`"`, "'"},
		Escapes:    []string{`\`},
		BadEscapes: []string{`\q`},
		Indent:     true,
	}.withDefaults()
	kinds := syn.kinds()
	const doc = "a = [1, \"x\\ny\"]\n  b = {c = 2}\nd = 'z'"
	// at returns the 2 position bytes that point at byte i of doc.
	at := func(i int) []byte {
		v := (i<<16 + len(doc)) / (len(doc) + 1)
		return []byte{byte(v), byte(v >> 8)}
	}
	cases := []struct {
		kind  int
		pos   int
		extra []byte
		want  string
	}{
		{editTruncate, 5, nil, "a = ["},
		{editTruncateToken, 9, nil, "a = [1, \"x"},                            // before the next boundary (the backslash)
		{editTruncateToken, 4, nil, "a = [1"},                                 // at a boundary: after the next token
		{editDelete, 4, []byte{2}, "a =  \"x\\ny\"]\n  b = {c = 2}\nd = 'z'"}, // 3 bytes
		{editDuplicate, 0, []byte{1}, "a a = [1, \"x\\ny\"]\n  b = {c = 2}\nd = 'z'"},
		{editInsert, 1, nil, "a]] = [1, \"x\\ny\"]\n  b = {c = 2}\nd = 'z'"},
		{editDropClose, 0, []byte{1}, "a = [1, \"x\\ny\"]\n  b = {c = 2\nd = 'z'"},  // the first }
		{editDropClose, 20, []byte{0}, "a = [1, \"x\\ny\"\n  b = {c = 2}\nd = 'z'"}, // none after: the first ]
		{editSwapQuote, 0, nil, "a = [1, 'x\\ny\"]\n  b = {c = 2}\nd = 'z'"},
		{editSwapQuote, 31, nil, "a = [1, \"x\\ny\"]\n  b = {c = 2}\nd = \"z'"},
		{editBreakEscape, 0, nil, "a = [1, \"x\\qy\"]\n  b = {c = 2}\nd = 'z'"},
		{editReindent, 3, []byte{2}, "a = [1, \"x\\ny\"]\n b = {c = 2}\nd = 'z'"},
		{editReindent, 3, []byte{4}, "a = [1, \"x\\ny\"]\nb = {c = 2}\nd = 'z'"},
		{editReindent, 20, []byte{4}, "a = [1, \"x\\ny\"]\n  b = {c = 2}\n  d = 'z'"},
		{editReindent, 0, []byte{3}, "\ta = [1, \"x\\ny\"]\n  b = {c = 2}\nd = 'z'"},
	}
	for _, c := range cases {
		k := slices.Index(kinds, c.kind)
		data := append(append([]byte{byte(k)}, at(c.pos)...), c.extra...)
		src := param.New(data, 0)
		if got := edit(src, doc, &syn, kinds); got != c.want {
			t.Errorf("edit %d at %d: got %q, want %q", c.kind, c.pos, got, c.want)
		}
		if src.Pos() != len(data) {
			t.Errorf("edit %d: consumed %d bytes, want %d", c.kind, src.Pos(), len(data))
		}
	}
}

// TestKinds checks which edits a syntax enables.
func TestKinds(t *testing.T) {
	if got := (&Syntax{}).kinds(); len(got) != 5 {
		t.Errorf("zero Syntax: kinds %v", got)
	}
	if got := (&Syntax{Quotes: []string{`"`}}).kinds(); len(got) != 5 {
		t.Errorf("one quote kind enables swapping: %v", got)
	}
	s := Syntax{Closers: []string{"]"}, Quotes: []string{`"`, "'"}, BadEscapes: []string{`\`}, Indent: true}
	if got := s.kinds(); len(got) != 9 {
		t.Errorf("full Syntax: kinds %v", got)
	}
}

func TestPosition(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 65535} {
		lo := position(param.New([]byte{0, 0}, 0), n)
		hi := position(param.New([]byte{0xff, 0xff}, 0), n)
		if lo != 0 || hi != n {
			t.Errorf("n=%d: positions %d..%d, want 0..%d", n, lo, hi, n)
		}
	}
}
