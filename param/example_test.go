package param_test

import (
	"fmt"

	"github.com/gfz-dev/gfz/param"
)

// guide replays the bytes of recorded draws by execution index, with one
// draw changed.
type guide map[uint64][]byte

func (g guide) Choice(idx uint64, w int) ([]byte, bool) {
	b, ok := g[idx]
	return b, ok
}

// list draws a length, then that many elements, each in its own
// generator call (the same call site, so elements are told apart by
// their ordinal).
func list(s *param.Source) []uint64 {
	n := s.Uintn(4, param.Structure)
	var out []uint64
	for range n {
		s.BeginCall("elem", 1, 100, nil)
		out = append(out, s.Uintn(100, param.Value))
		s.End()
	}
	return out
}

// A guided execution takes each draw's bytes by execution index: growing
// the list keeps the elements that were there and draws fresh bytes for
// the new one.
func ExampleSource_ResetGuided() {
	s := param.New([]byte{2, 10, 20}, 0)
	fmt.Println(list(s))
	g := guide{}
	for _, d := range s.Record().Draws {
		g[d.Index] = s.Consumed()[d.Offset : d.Offset+d.Width]
	}
	g[s.Record().Draws[0].Index] = []byte{3} // the length
	s.ResetGuided(g, 1)
	got := list(s)
	fmt.Println(len(got), got[0], got[1])
	// Output:
	// [10 20]
	// 3 10 20
}

// New decodes a sequence left to right, each draw taking a fixed number of bytes.
func ExampleNew() {
	s := param.New([]byte{0x34, 0x12, 7, 200}, 0)
	fmt.Println(s.Uint(2, param.Value))         // 0x1234, little-endian
	fmt.Println(s.Uintn(5, param.Structure))    // 7 mod 5
	fmt.Println(s.Range(-50, 49, param.Value))  // -50 + 200 mod 100
	fmt.Println(s.Pos(), len(s.Record().Draws)) // bytes consumed, draws recorded
	// Output:
	// 4660
	// 2
	// -50
	// 4 3
}

// Uint reads exactly w bytes as a little-endian number.
func ExampleSource_Uint() {
	s := param.New([]byte{0x01, 0x02, 0x03, 0xff}, 0)
	fmt.Printf("%#x\n", s.Uint(3, param.Value))
	fmt.Printf("%#x\n", s.Uint(1, param.Value))
	fmt.Println(s.Uint(0, param.Value), s.Pos()) // a zero-width draw reads nothing
	// Output:
	// 0x30201
	// 0xff
	// 0 4
}

// Uintn reduces its BytesFor(n) bytes modulo n.
func ExampleSource_Uintn() {
	s := param.New([]byte{10, 0x2c, 0x01}, 0)
	fmt.Println(s.Uintn(3, param.Structure), s.Pos()) // 10 mod 3, one byte
	fmt.Println(s.Uintn(1000, param.Value), s.Pos())  // 0x012c mod 1000, two bytes
	fmt.Println(s.Uintn(1, param.Structure), s.Pos()) // one choice: no byte
	// Output:
	// 1 1
	// 300 3
	// 0 3
}

// Range returns a value between lo and hi, both included.
func ExampleSource_Range() {
	s := param.New([]byte{0, 6, 255}, 0)
	for range 3 {
		fmt.Print(s.Range(-3, 3, param.Value), " ")
	}
	fmt.Println()
	// Output:
	// -3 3 0
}

// Bytes copies n bytes, recorded as one value draw.
func ExampleSource_Bytes() {
	s := param.New([]byte("gfz!"), 0)
	fmt.Printf("%q\n", s.Bytes(3))
	d := s.Record().Draws[0]
	fmt.Println(d.Offset, d.Width, d.Kind)
	// Output:
	// "gfz"
	// 0 3 value
}

// BytesFor gives the width of a draw from [0, n).
func ExampleBytesFor() {
	for _, n := range []uint64{1, 2, 256, 257, 1 << 16, 1<<16 + 1, 0} {
		fmt.Print(param.BytesFor(n), " ")
	}
	fmt.Println()
	// Output:
	// 0 1 1 2 2 3 8
}

// Consumed (data plus seeded PRNG extension) replays an execution under any seed.
func ExampleSource_Consumed() {
	s := param.New([]byte{1, 2}, 42)
	a := []uint64{s.Uint(1, param.Value), s.Uint(1, param.Value), s.Uint(2, param.Value)}
	saved := append([]byte(nil), s.Consumed()...)
	fmt.Println(len(saved), saved[:2])

	r := param.New(saved, 0) // the seed no longer matters
	b := []uint64{r.Uint(1, param.Value), r.Uint(1, param.Value), r.Uint(2, param.Value)}
	fmt.Println(a, b)
	// Output:
	// 4 [1 2]
	// [1 2 28309] [1 2 28309]
}

// A draw past the cap set by SetMax panics with Exhausted (an invalid input).
func ExampleSource_SetMax() {
	s := param.New(nil, 1)
	s.SetMax(4)
	defer func() {
		e := recover().(param.Exhausted)
		fmt.Println(e.Error(), s.Pos())
	}()
	s.Uint(3, param.Value)
	s.Uint(3, param.Value)
	// Output:
	// gfz: parameter sequence exceeded its cap of 4 bytes 3
}

// Record lists each span (generator call) and each draw made in it.
func ExampleSource_Record() {
	s := param.New([]byte{2, 'h', 'i', 9}, 0)
	s.Begin("word")
	n := s.Uintn(8, param.Structure)
	s.Bytes(int(n))
	s.End()
	s.Uint(1, param.Value) // outside any span
	r := s.Record()
	for _, sp := range r.Spans {
		fmt.Printf("span %s [%d, %d) depth %d\n", sp.Name, sp.Start, sp.End, sp.Depth)
	}
	for _, d := range r.Draws {
		fmt.Printf("draw at %d, %d bytes, %s, span %d\n", d.Offset, d.Width, d.Kind, d.Span)
	}
	// Output:
	// span word [0, 3) depth 0
	// draw at 0, 1 bytes, structure, span 0
	// draw at 1, 2 bytes, value, span 0
	// draw at 3, 1 bytes, value, span -1
}

// Decoded gives a draw's value in its domain, before Lo is added.
func ExampleDraw_Decoded() {
	s := param.New([]byte{13}, 0)
	v := s.Range(10, 14, param.Value)
	d := s.Record().Draws[0]
	fmt.Println(v, d.Raw(s.Consumed()), d.Decoded(s.Consumed()), d.N, d.Lo)
	// Output:
	// 13 13 3 5 10
}

// Mark forces a kind on every draw in the innermost open span.
func ExampleSource_Mark() {
	s := param.New([]byte{1, 2}, 0)
	s.Begin("tag")
	s.Mark(param.Structure) // this generator's values steer the target
	s.Uint(1, param.Value)
	s.End()
	s.Uint(1, param.Value)
	for _, d := range s.Record().Draws {
		fmt.Println(d.Kind, d.Forced)
	}
	// Output:
	// structure true
	// value false
}

// Execution indexes follow the call tree, not offsets: a later call's draw keeps its index.
func ExampleRecord() {
	run := func(data []byte) []param.Draw {
		s := param.New(data, 0)
		for range 2 {
			s.BeginCall("int", param.HashString("int"), 1, nil)
			s.Uint(int(s.Uintn(3, param.Structure)), param.Value)
			s.End()
		}
		return s.Record().Draws
	}
	a := run([]byte{0, 0, 0})    // widths 0 and 0
	b := run([]byte{2, 5, 5, 0}) // widths 2 and 0
	fmt.Println(a[2].Offset, b[2].Offset, a[2].Index == b[2].Index)
	fmt.Println(a[0].Index == a[2].Index, a[0].Site == a[2].Site)
	// Output:
	// 1 3 true
	// false true
}

// Mix derives a generator's identity from the identities of its parts.
func ExampleMix() {
	list := param.HashString("list")
	elem := param.HashString("int")
	id := param.Mix(list, elem)
	fmt.Println(id == param.Mix(list, elem), id == param.Mix(elem, list))
	// Output:
	// true false
}

// HashString is FNV-1a: the empty string hashes to its offset basis, and
// names that differ hash differently.
func ExampleHashString() {
	fmt.Printf("%#x\n", param.HashString(""))
	fmt.Println(param.HashString("int") != param.HashString("int8"))
	// Output:
	// 0xcbf29ce484222325
	// true
}
