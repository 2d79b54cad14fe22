package param_test

import (
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// drawGuide picks the largest value of every draw's domain and records
// what it was told.
type drawGuide struct {
	seen []param.Draw
	open []int // number of spans in the record at each call
}

func (g *drawGuide) Choice(uint64, int) ([]byte, bool) { panic("Choice called on a DrawGuide") }

func (g *drawGuide) ChooseDraw(d *param.Draw, rec *param.Record) ([]byte, bool) {
	g.seen = append(g.seen, *d)
	g.open = append(g.open, len(rec.Spans))
	if d.N == 0 {
		return nil, false
	}
	v := d.N - 1
	b := make([]byte, d.Width)
	for i := range b {
		b[i] = byte(v)
		v >>= 8
	}
	return b, true
}

// TestDrawGuide: a guided source hands a DrawGuide every draw's
// description (domain, site, index, span) before choosing, uses its bytes,
// and records the same draws as an ordinary replay of the consumed bytes.
func TestDrawGuide(t *testing.T) {
	gen := func(s *param.Source) []int64 {
		s.Begin("outer")
		a := int64(s.Uintn(5, param.Structure))
		b := s.Range(-3, 300, param.Value)
		s.End()
		//lint:ignore SA4016 the draw is what matters, not its value
		c := int64(s.Uint(2, param.Value) & 0) // a full-range draw: left to the PRNG
		return []int64{a, b, c}
	}
	g := &drawGuide{}
	s := param.New(nil, 0)
	s.ResetGuided(g, 42)
	got := gen(s)
	if got[0] != 4 || got[1] != 300 {
		t.Fatalf("values %v, want the domains' largest: 4, 300", got)
	}
	if len(g.seen) != 3 || g.seen[0].N != 5 || g.seen[1].N != 304 || g.seen[1].Lo != -3 || g.seen[2].N != 0 {
		t.Fatalf("draws seen: %+v", g.seen)
	}
	if g.seen[0].Span != 0 || g.open[0] != 1 || g.seen[2].Span != -1 {
		t.Fatalf("spans: %+v, open %v", g.seen, g.open)
	}
	rec := s.Record()
	for i, d := range rec.Draws {
		if d.Index != g.seen[i].Index || d.Site != g.seen[i].Site || d.Width != g.seen[i].Width {
			t.Fatalf("draw %d recorded %+v, guide saw %+v", i, d, g.seen[i])
		}
	}
	data := append([]byte(nil), s.Consumed()...)
	r := param.New(data, 0)
	if again := gen(r); again[0] != got[0] || again[1] != got[1] {
		t.Fatalf("replay gave %v, guided %v", again, got)
	}
}
