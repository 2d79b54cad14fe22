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
	want := []Draw{{0, 2, Value, -1}, {2, 1, Structure, -1}, {3, 1, Value, -1}, {4, 0, Value, -1}, {4, 1, Value, -1}, {5, 3, Value, -1}}
	if got := s.Record().Draws; len(got) != len(want) {
		t.Fatalf("draws %+v", got)
	} else {
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("draw %d = %+v, want %+v", i, got[i], want[i])
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
	want := []Span{{"outer", -1, 0, 0, 3}, {"inner", 0, 1, 1, 3}, {"next", -1, 0, 3, 3}}
	got := s.Record().Spans
	if len(got) != len(want) {
		t.Fatalf("spans %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d = %+v, want %+v", i, got[i], want[i])
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
