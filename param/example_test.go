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
