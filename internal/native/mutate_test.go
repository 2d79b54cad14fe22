package native

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// splitmix returns a deterministic random source seeded by seed (the
// engine hands the mutator its own PRNG's next).
func splitmix(seed uint64) func() uint64 {
	s := seed
	return func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
}

// mixed is a signature with every kind of argument handling: a string
// with a length prefix, fixed-size values between variable ones, and a
// last []byte.
var mixed = Types{String, Int16, Bytes, Bool, Float64, Uint8, Int, String}

func mixedArgs() []Arg {
	vals := []any{"key=value;", int16(-300), []byte("\x00\x01payload"), true, 2.5, uint8('x'), int(1 << 40), "tail text 42"}
	args := make([]Arg, len(vals))
	for i, v := range vals {
		args[i], _ = ArgOf(v)
	}
	return args
}

func encode(t *testing.T, ts Types, args []Arg) []byte {
	t.Helper()
	b, err := ts.Encode(args)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMutatorCodingIsNative: the mutator's own decoding and encoding are
// those of Decode and Encode, on whole inputs of random contents.
func TestMutatorCodingIsNative(t *testing.T) {
	m := NewMutator(mixed, nil)
	r := splitmix(1)
	for range 500 {
		data := make([]byte, int(r()%64))
		for i := range data {
			data[i] = byte(r())
		}
		want, err := mixed.DecodeBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]Arg, len(mixed))
		m.decodeInto(data, got)
		// Decoding reads PRNG bytes past the end where the mutator
		// reads zeros: compare inputs long enough for every argument.
		if len(data) >= 4+2+4+1+8+1+8 {
			for i := range got {
				if got[i].Kind != want[i].Kind || got[i].U != want[i].U || !bytes.Equal(got[i].B, want[i].B) {
					t.Fatalf("%q: argument %d: decodeInto %v, DecodeBytes %v", data, i, got[i], want[i])
				}
			}
		}
		if enc := m.appendEncoded(nil, want); !bytes.Equal(enc, encode(t, mixed, want)) {
			t.Fatalf("appendEncoded %q, Encode %q", enc, encode(t, mixed, want))
		}
	}
}

// TestMutateOneEditOneArgument: a child of one edit differs from its
// parent in at most one argument (exactly one unless a byte edit happened
// to rewrite the same bytes), decodes to the target's types, is the
// canonical encoding of its arguments (every length prefix right), and
// every argument gets edits.
func TestMutateOneEditOneArgument(t *testing.T) {
	parent := encode(t, mixed, mixedArgs())
	m := NewMutator(mixed, [][]byte{[]byte("key"), []byte("1234"), []byte("-7"), []byte("0.25")})
	r := splitmix(2)
	edited := make([]int, len(mixed))
	var child []byte
	other := func() []byte { return parent }
	for n := range 5000 {
		child = m.MutateArgs(r, child, parent, 1, 4096, other)
		args, err := mixed.DecodeBytes(child)
		if err != nil {
			t.Fatalf("child %d does not decode: %v", n, err)
		}
		if re := encode(t, mixed, args); !bytes.Equal(re, child) {
			t.Fatalf("child %d is not the encoding of its arguments: %q re-encodes to %q", n, child, re)
		}
		diff := 0
		for i, a := range args {
			if a.Kind != mixed[i] {
				t.Fatalf("child %d: argument %d has kind %v, want %v", n, i, a.Kind, mixed[i])
			}
			if p := mixedArgs()[i]; a.U != p.U || !bytes.Equal(a.B, p.B) {
				diff++
				edited[i]++
			}
			if s := a.Kind.Size(); s > 0 && s < 8 && a.U>>(8*s) != 0 {
				t.Fatalf("child %d: argument %d (%v) holds %#x, wider than its type", n, i, a.Kind, a.U)
			}
		}
		if diff > 1 {
			t.Fatalf("child %d of one edit changed %d arguments: %v", n, diff, args)
		}
	}
	for i, n := range edited {
		if n < 5000/len(mixed)/2 {
			t.Errorf("argument %d (%v) edited in %d of 5000 children, want about %d", i, mixed[i], n, 5000/len(mixed))
		}
	}
}

// TestMutateDeterministic: the same random source gives the same
// children; another seed gives others.
func TestMutateDeterministic(t *testing.T) {
	parent := encode(t, mixed, mixedArgs())
	run := func(seed uint64) [][]byte {
		m := NewMutator(mixed, [][]byte{[]byte("tok")})
		r := splitmix(seed)
		var out [][]byte
		for range 200 {
			out = append(out, m.MutateArgs(r, nil, parent, 1+int(r()%5), 4096, func() []byte { return parent }))
		}
		return out
	}
	a, b, c := run(7), run(7), run(8)
	if !reflect.DeepEqual(a, b) {
		t.Error("seed 7 twice: different children")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 7 and 8: the same children")
	}
}

// levenshtein is the edit distance between a and b.
func levenshtein(a, b []byte) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestMutateStaysNear: children of 1 to 5 edits stay near their parent
// (a 48-byte []byte argument, seed 3, 2000 children): measured median
// edit distance 12 bytes, 75% within 20 (a dictionary token here is 7 or
// 14 bytes, a cut tail removes half the input on average); pinned at 16
// and 24. A single edit changes at most 8 bytes (a chunk), a token's
// length, or cuts the tail, in nine children of ten (measured: all but
// 8 of 402).
func TestMutateStaysNear(t *testing.T) {
	ts := Types{Bytes}
	parent := []byte("GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n")
	m := NewMutator(ts, [][]byte{[]byte("Content-Length"), []byte("chunked")})
	r := splitmix(3)
	var dists []int
	singles, small := 0, 0
	for range 2000 {
		edits := 1 + int(r()%5)
		child := m.MutateArgs(r, nil, parent, edits, 4096, nil)
		d := levenshtein(parent, child)
		dists = append(dists, d)
		if edits == 1 {
			singles++
			if d <= 8 || d <= len("Content-Length") || bytes.HasPrefix(parent, child) {
				small++
			}
		}
	}
	slices.Sort(dists)
	med, q3 := dists[len(dists)/2], dists[len(dists)*3/4]
	t.Logf("edit distance: median %d, 75%% %d, 90%% %d; single edits within a chunk, a token or a cut: %d of %d",
		med, q3, dists[len(dists)*9/10], small, singles)
	if med > 16 || q3 > 24 {
		t.Errorf("children too far from their parent: median %d (want <= 16), 75%% %d (want <= 24)", med, q3)
	}
	if small*10 < singles*9 {
		t.Errorf("single edits: %d of %d within a chunk, a token or a cut, want 9 in 10", small, singles)
	}
}

// TestMutateNumbers: integer edits keep the width and reach the type's
// bounds and the dictionary's numbers; float edits reach infinities and
// NaN; text numbers are replaced by others.
func TestMutateNumbers(t *testing.T) {
	ts := Types{Int8, Uint16, Float32, String}
	start := []Arg{{Kind: Int8, U: 5}, {Kind: Uint16, U: 300}, {Kind: Float32, U: uint64(math.Float32bits(1.5))}, {Kind: String, B: []byte("n=17;")}}
	parent := encode(t, ts, start)
	m := NewMutator(ts, [][]byte{[]byte("4242"), []byte("-99"), []byte("word")})
	r := splitmix(4)
	seen := map[any]bool{}
	texts := map[string]bool{}
	for range 20000 {
		args, err := ts.DecodeBytes(m.MutateArgs(r, nil, parent, 1, 4096, nil))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range args[:3] {
			seen[a.Value()] = true
			if f, ok := a.Value().(float32); ok && f != f {
				seen["NaN"] = true
			}
		}
		texts[string(args[3].B)] = true
	}
	for _, want := range []any{int8(-128), int8(127), int8(-99), int8(6), int8(4), uint16(65535), uint16(4242), uint16(0), float32(math.Inf(1)), "NaN", float32(-1.5)} {
		if !seen[want] {
			t.Errorf("no edit made %T %v", want, want)
		}
	}
	var numbers int
	for s := range texts {
		if strings.HasPrefix(s, "n=") && strings.HasSuffix(s, ";") && s != "n=17;" {
			numbers++
		}
	}
	if numbers < 20 {
		t.Errorf("%d distinct numbers written in place of 17, want at least 20", numbers)
	}
}

// TestMutateSizeCap: children never exceed the size limit, whatever the
// edits.
func TestMutateSizeCap(t *testing.T) {
	ts := Types{String, Bytes}
	parent := encode(t, ts, []Arg{{Kind: String, B: []byte("abc")}, {Kind: Bytes, B: []byte("0123456789")}})
	m := NewMutator(ts, [][]byte{[]byte("a long dictionary token of many bytes")})
	r := splitmix(5)
	cur := parent
	for range 3000 {
		cur = m.MutateArgs(r, nil, cur, 5, 32, func() []byte { return parent })
		if len(cur) > 32 {
			t.Fatalf("child of %d bytes over the limit 32: %q", len(cur), cur)
		}
	}
}

// trimTo runs a Trimmer to its end, keeping candidates keep accepts; it
// returns the result and the number of candidates.
func trimTo(t *testing.T, ts Types, in []Arg, budget int, keep func([]Arg) bool) ([]Arg, int) {
	t.Helper()
	m := NewMutator(ts, nil)
	tr, _ := m.TrimArgs(encode(t, ts, in), budget).(*Trimmer)
	if tr == nil {
		return in, 0
	}
	n := 0
	for {
		cand, ok := tr.Next()
		if !ok {
			break
		}
		n++
		args, err := ts.DecodeBytes(cand)
		if err != nil {
			t.Fatal(err)
		}
		tr.Kept(keep(args))
	}
	out, err := ts.DecodeBytes(tr.Current())
	if err != nil {
		t.Fatal(err)
	}
	return out, n
}

// TestTrimKeepsWhatMatters: trimming cuts the tail and removes single
// bytes of each []byte and string argument while the input stays kept,
// leaves fixed-size arguments alone, and stops at its budget.
func TestTrimKeepsWhatMatters(t *testing.T) {
	ts := Types{String, Int32, Bytes}
	in := []Arg{{Kind: String, B: []byte("xx:key=1;yyyyyyyyyyyyyyyyyyyy")}, {Kind: Int32, U: 77}, {Kind: Bytes, B: []byte("zzzzzzzzzz!zz")}}
	keep := func(a []Arg) bool {
		return bytes.Contains(a[0].B, []byte("key=1")) && bytes.Contains(a[2].B, []byte("!"))
	}
	out, n := trimTo(t, ts, in, 1000, keep)
	if string(out[0].B) != "key=1" || string(out[2].B) != "!" || out[1].U != 77 {
		t.Errorf("trimmed to %q, %d, %q after %d candidates; want \"key=1\", 77, \"!\"", out[0].B, out[1].U, out[2].B, n)
	}
	// The cuts end the input at every place the tail passes through,
	// where end-of-input bugs are: a keep rule that fails only on the
	// input ending right after "=1" is proposed such an input.
	var proposed bool
	trimTo(t, Types{Bytes}, []Arg{{Kind: Bytes, B: []byte("a=1 b=22 c=333")}}, 1000, func(a []Arg) bool {
		proposed = proposed || string(a[0].B) == "a=1"
		return bytes.HasPrefix(a[0].B, []byte("a=1"))
	})
	if !proposed {
		t.Error("the tail cuts never proposed the input ending at \"a=1\"")
	}
	_, n = trimTo(t, ts, in, 5, func([]Arg) bool { return false })
	if n != 5 {
		t.Errorf("budget 5: %d candidates", n)
	}
	if m := NewMutator(Types{Int}, nil); m.TrimArgs(encode(t, Types{Int}, []Arg{{Kind: Int, U: 9}}), 10) != nil {
		t.Error("an input without []byte or string contents has a trimmer")
	}
}
