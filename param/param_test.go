package param

import (
	"bytes"
	"errors"
	"testing"
)

func TestBytesFor(t *testing.T) {
	for n, want := range map[uint64]int{0: 8, 1: 0, 2: 1, 256: 1, 257: 2, 1 << 16: 2, 1<<16 + 1: 3, 1 << 63: 8} {
		if got := BytesFor(n); got != want {
			t.Errorf("BytesFor(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestDraws(t *testing.T) {
	s := New([]byte{0x34, 0x12, 7, 9, 200, 1, 2, 3}, 0)
	if v := s.Uint(2, Value); v != 0x1234 {
		t.Errorf("Uint(2) = %#x, want 0x1234 (little-endian)", v)
	}
	if v := s.Uintn(5, Structure); v != 2 {
		t.Errorf("Uintn(5) = %d, want 7 mod 5", v)
	}
	if v := s.Range(-4, 4, Value); v != -4 {
		t.Errorf("Range(-4, 4) = %d, want -4 + 9 mod 9", v)
	}
	if v := s.Range(3, 3, Value); v != 3 || s.Pos() != 4 {
		t.Errorf("Range(3, 3) = %d at %d, want 3 consuming nothing", v, s.Pos())
	}
	if v := s.Range(0, 99, Value); v != 0 {
		t.Errorf("Range(0, 99) = %d, want 200 mod 100", v)
	}
	if b := s.Bytes(3); !bytes.Equal(b, []byte{1, 2, 3}) {
		t.Errorf("Bytes(3) = %v", b)
	}
	type short struct {
		Offset, Width int32
		Kind          Kind
		Span          int32
		N             uint64
		Lo            int64
	}
	want := []short{{0, 2, Value, -1, 0, 0}, {2, 1, Structure, -1, 5, 0}, {3, 1, Value, -1, 9, -4}, {4, 0, Value, -1, 1, 3}, {4, 1, Value, -1, 100, 0}, {5, 3, Value, -1, 0, 0}}
	if got := s.Record().Draws; len(got) != len(want) {
		t.Fatalf("draws %+v", got)
	} else {
		for i := range want {
			d := got[i]
			if g := (short{d.Offset, d.Width, d.Kind, d.Span, d.N, d.Lo}); g != want[i] {
				t.Errorf("draw %d = %+v, want %+v", i, g, want[i])
			}
		}
	}
}

func TestExtensionAndReplay(t *testing.T) {
	a := New([]byte{1, 2}, 99)
	for range 10 {
		a.Uint(3, Value)
	}
	saved := bytes.Clone(a.Consumed())
	if len(saved) != 30 || !bytes.Equal(saved[:2], []byte{1, 2}) {
		t.Fatalf("consumed %x", saved)
	}
	// Replaying the consumed bytes with another seed decodes identically.
	c := New(saved, 7)
	for range 10 {
		c.Uint(3, Value)
	}
	if !bytes.Equal(c.Consumed(), saved) {
		t.Fatalf("replay consumed %x, want %x", c.Consumed(), saved)
	}
	// Same seed, same extension.
	d := New([]byte{1, 2}, 99)
	for range 10 {
		d.Uint(3, Value)
	}
	if !bytes.Equal(d.Consumed(), saved) {
		t.Fatal("same data and seed gave different bytes")
	}
}

// TestExtensionWidthFree: the extension is the PRNG's 8-byte outputs one
// after the other, whatever the widths of the draws that read it: reading
// it one byte at a time, in draws of 3, or in one Bytes call (what the
// supervisor does to rebuild a dead worker's input from its parameters and
// seed) gives the same bytes. Each draw used to start a new output and
// drop what it left of the last one, so a worker that died on an input
// past its parameters was saved with bytes that decoded to another input.
func TestExtensionWidthFree(t *testing.T) {
	for _, params := range [][]byte{nil, {1, 2, 3}} {
		whole := New(params, 42)
		whole.SetRecording(false)
		want := whole.Bytes(40)
		for _, w := range []int{1, 3, 5} {
			s := New(params, 42)
			for s.Pos()+w <= 40 {
				s.Uint(w, Value)
			}
			if got := s.Consumed(); !bytes.Equal(got, want[:len(got)]) {
				t.Errorf("params %x, draws of %d bytes: %x, want %x", params, w, got, want[:len(got)])
			}
		}
	}
}

func TestCap(t *testing.T) {
	s := New(nil, 1)
	s.SetMax(10)
	s.Uint(8, Value)
	defer func() {
		r := recover()
		var e Exhausted
		if err, ok := r.(error); !ok || !errors.As(err, &e) || e.Max != 10 {
			t.Fatalf("recovered %v, want Exhausted{10}", r)
		}
	}()
	s.Uint(8, Value)
	t.Fatal("no panic past the cap")
}

func TestSpans(t *testing.T) {
	s := New([]byte{1, 2, 3, 4}, 0)
	s.Begin("outer")
	s.Uint(1, Structure)
	s.Begin("inner")
	if s.Depth() != 2 {
		t.Errorf("depth %d", s.Depth())
	}
	s.Uint(2, Value)
	s.End()
	s.End()
	s.Begin("next")
	s.End()
	type short struct {
		Name                      string
		Parent, Depth, Start, End int32
		Gen                       uint64
	}
	want := []short{{"outer", -1, 0, 0, 3, HashString("outer")}, {"inner", 0, 1, 1, 3, HashString("inner")}, {"next", -1, 0, 3, 3, HashString("next")}}
	got := s.Record().Spans
	if len(got) != len(want) {
		t.Fatalf("spans %+v", got)
	}
	for i := range want {
		sp := got[i]
		if g := (short{sp.Name, sp.Parent, sp.Depth, sp.Start, sp.End, sp.Gen}); g != want[i] {
			t.Errorf("span %d = %+v, want %+v", i, g, want[i])
		}
	}
	if d := s.Record().Draws; d[1].Span != 1 || d[0].Span != 0 {
		t.Errorf("draw spans %+v", d)
	}
	rec := s.Record().Clone()
	s.Reset([]byte{9}, 0)
	if len(s.Record().Spans) != 0 || len(rec.Spans) != 3 || s.Depth() != 0 {
		t.Error("Reset did not clear the record, or Clone aliases it")
	}
}

// Depth counts open spans whether the source records them or not (nested
// generator calls must not look top-level when recording is off), and
// nothing is recorded when it is off.
func TestDepthWithoutRecording(t *testing.T) {
	s := New([]byte{1, 2, 3, 4}, 0)
	s.SetRecording(false)
	if s.Recording() {
		t.Fatal("Recording() after SetRecording(false)")
	}
	s.Begin("outer")
	s.Uint(1, Structure)
	s.Begin("inner")
	if d := s.Depth(); d != 2 {
		t.Errorf("depth %d inside two spans, want 2", d)
	}
	s.End()
	if d := s.Depth(); d != 1 {
		t.Errorf("depth %d after closing one, want 1", d)
	}
	s.End()
	s.End() // unbalanced: stays at 0
	if d := s.Depth(); d != 0 {
		t.Errorf("depth %d after closing all, want 0", d)
	}
	if r := s.Record(); len(r.Spans) != 0 || len(r.Draws) != 0 {
		t.Errorf("recorded %d spans, %d draws with recording off", len(r.Spans), len(r.Draws))
	}
	s.Begin("open")
	s.Reset(nil, 0)
	if s.Depth() != 0 {
		t.Error("Reset kept an open span")
	}
	// Switched on again, the spans carry their depth.
	s.SetRecording(true)
	s.Begin("a")
	s.Begin("b")
	s.End()
	s.End()
	if sp := s.Record().Spans; len(sp) != 2 || sp[1].Depth != 1 || sp[1].Parent != 0 {
		t.Errorf("spans %+v", sp)
	}
}

// Span names are copies: a name built in a buffer that is reused later
// stays intact in the record.
func TestSpanNameCopied(t *testing.T) {
	s := New(nil, 0)
	buf := []byte("first")
	s.Begin(string(buf)) // a fresh string
	s.End()
	copy(buf, "xxxxx")
	if got := s.Record().Spans[0].Name; got != "first" {
		t.Errorf("span name %q", got)
	}
}

// BenchmarkRecording measures the cost of the record on a tree of spans
// and draws like a generator's (one span and two draws per node, 31
// nodes): compare the on and off figures.
func BenchmarkRecording(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			s := New(nil, 0)
			s.SetRecording(on)
			var tree func(d int)
			tree = func(d int) {
				s.Begin("node")
				s.Uint(1, Structure)
				s.Uint(1, Value)
				if d > 0 {
					tree(d - 1)
					tree(d - 1)
				}
				s.End()
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.Reset(nil, uint64(i))
				tree(4)
			}
		})
	}
}
