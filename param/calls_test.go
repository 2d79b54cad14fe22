package param_test

import (
	"slices"
	"testing"

	"github.com/gfz-dev/gfz/param"
)

// TestCallsSpans: Calls opens a span per frame, keeps the frames that
// match the open implicit spans, closes the others, and nests everything
// inside the innermost generator call; End closes the implicit spans
// inside the call first; Record ends the implicit spans still open.
func TestCallsSpans(t *testing.T) {
	f := func(site uintptr) param.Frame { return param.Frame{Func: 100, Site: site, Name: "f"} }
	s := param.New([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 0)
	draw := func(frames ...param.Frame) { // outermost first, for reading
		slices.Reverse(frames)
		s.Calls(frames)
		s.BeginCall("g", 1, 50, nil)
		s.Uintn(256, param.Value)
		s.End()
	}
	draw(f(10))        // f called at 10 draws                    [0,1)
	draw(f(10), f(20)) // f calls f at 20, which draws           [1,2)
	draw(f(10), f(30)) // 20 returned; f calls f at 30           [2,3)
	draw(f(10), f(30)) // the same call draws again              [3,4)
	s.Calls([]param.Frame{f(10)})
	s.BeginCall("custom", 2, 60, nil) // f at 10 calls a generator [4,6)
	draw(f(10))                       // its function calls f      [4,5)
	draw()                            // and draws itself          [5,6)
	s.End()
	draw()      // the fuzz function draws: f at 10 returned  [6,7)
	draw(f(10)) // a second call of f at 10                   [7,8)
	if s.Depth() != 0 {
		t.Errorf("Depth %d after the last End, want 0: implicit spans do not count", s.Depth())
	}
	rec := s.Record()
	type want struct {
		name          string
		parent, depth int32
		start, end    int32
		site          uintptr
	}
	wants := []want{
		{"f", -1, 0, 0, 6, 10},
		{"g", 0, 1, 0, 1, 50},
		{"f", 0, 1, 1, 2, 20},
		{"g", 2, 2, 1, 2, 50},
		{"f", 0, 1, 2, 4, 30},
		{"g", 4, 2, 2, 3, 50},
		{"g", 4, 2, 3, 4, 50},
		{"custom", 0, 1, 4, 6, 60},
		{"f", 7, 2, 4, 5, 10},
		{"g", 8, 3, 4, 5, 50},
		{"g", 7, 2, 5, 6, 50},
		{"g", -1, 0, 6, 7, 50},
		{"f", -1, 0, 7, 8, 10}, // still open: Record ends it
		{"g", 12, 1, 7, 8, 50},
	}
	if len(rec.Spans) != len(wants) {
		for _, sp := range rec.Spans {
			t.Logf("%+v", sp)
		}
		t.Fatalf("%d spans, want %d", len(rec.Spans), len(wants))
	}
	for i, w := range wants {
		sp := rec.Spans[i]
		if sp.Name != w.name || sp.Parent != w.parent || sp.Depth != w.depth || sp.Start != w.start || sp.End != w.end || sp.CallSite != w.site {
			t.Errorf("span %d: %s parent %d depth %d [%d,%d) site %d, want %+v", i, sp.Name, sp.Parent, sp.Depth, sp.Start, sp.End, sp.CallSite, w)
		}
		if sp.Implicit != (w.name == "f") {
			t.Errorf("span %d: Implicit %v", i, sp.Implicit)
		}
	}
	// The calls at 20 and 30 have different indexes (their sites), and
	// so have the two top-level calls at 10 (the second counts as the
	// second call from that site).
	if rec.Spans[2].Index == rec.Spans[4].Index {
		t.Error("the calls at 20 and 30 have one execution index")
	}
	if rec.Spans[0].Index == rec.Spans[12].Index {
		t.Error("the first and second top-level calls at 10 have one execution index")
	}
	for i := range rec.Draws {
		if d := rec.Draws[i]; rec.Spans[d.Span].Name != "g" {
			t.Errorf("draw %d in span %d (%s), want in its generator call", i, d.Span, rec.Spans[d.Span].Name)
		}
	}
}

// TestCallsDrawsIndexes: a draw's execution index depends on the frames
// it was made through, and only on them: the right call's draws keep
// their index whether or not the left call drew before them.
func TestCallsDrawsIndexes(t *testing.T) {
	left, right := param.Frame{Func: 1, Site: 10}, param.Frame{Func: 1, Site: 11}
	run := func(withLeft bool) *param.Record {
		s := param.New(make([]byte, 8), 0)
		if withLeft {
			s.Calls([]param.Frame{left})
			s.BeginCall("g", 5, 50, nil)
			s.Uintn(256, param.Value)
			s.End()
		}
		s.Calls([]param.Frame{right})
		s.BeginCall("g", 5, 50, nil)
		s.Uintn(256, param.Value)
		s.End()
		return s.Record().Clone()
	}
	a, b := run(true), run(false)
	if a.Draws[1].Index != b.Draws[0].Index {
		t.Errorf("the right call's draw: index %#x after the left call, %#x without it", a.Draws[1].Index, b.Draws[0].Index)
	}
	if a.Draws[0].Index == a.Draws[1].Index {
		t.Error("the left and right calls' draws have one index")
	}
	// Without Calls the two draws are told apart only by their ordinal:
	// the right one's index moves when the left one goes.
	plain := func(withLeft bool) uint64 {
		s := param.New(make([]byte, 8), 0)
		n := 1
		if withLeft {
			n = 2
		}
		for range n {
			s.BeginCall("g", 5, 50, nil)
			s.Uintn(256, param.Value)
			s.End()
		}
		r := s.Record()
		return r.Draws[len(r.Draws)-1].Index
	}
	if plain(true) == plain(false) {
		t.Error("without Calls the ordinal should change the index (the test's premise)")
	}
}

// TestCallsNotRecording: Calls does nothing while the source does not
// record, and Depth counts generator calls only.
func TestCallsNotRecording(t *testing.T) {
	s := param.New([]byte{1, 2}, 0)
	s.SetRecording(false)
	s.Calls([]param.Frame{{Func: 1, Site: 2}})
	s.BeginCall("g", 1, 50, nil)
	if s.Depth() != 1 {
		t.Errorf("Depth %d, want 1", s.Depth())
	}
	s.Uintn(256, param.Value)
	s.End()
	if n := len(s.Record().Spans); n != 0 {
		t.Errorf("%d spans recorded while not recording", n)
	}
}
