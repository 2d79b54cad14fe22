package screen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func boardTable(n int) Table {
	t := Table{
		Title:  "gfz-run · 1m2s of 5m0s · 40 targets on 2 cores",
		Header: []string{"PACKAGE", "TARGET", "STATE", "SHARE", "COVERAGE"},
		Right:  []bool{false, false, false, true, true},
		Note:   "share: of the core-seconds so far",
	}
	for i := range n {
		t.Rows = append(t.Rows, []string{"./some/rather/long/package/path", fmt.Sprintf("FuzzTarget%02d", i), "waiting", "2.5%", fmt.Sprint(100 + i)})
	}
	return t
}

// TestBoardLayout: the board never draws more lines than the terminal has
// rows (less one), nor lines wider than its columns (less one); the rows
// left out are counted on the last line; numbers are right-aligned.
func TestBoardLayout(t *testing.T) {
	for _, c := range []struct{ n, cols, rows int }{{3, 100, 24}, {40, 100, 24}, {40, 50, 12}, {1, 20, 5}} {
		lines := layout(boardTable(c.n), c.cols, c.rows)
		if len(lines) > c.rows-1 {
			t.Errorf("%+v: %d lines", c, len(lines))
		}
		for _, l := range lines {
			if w := len([]rune(visible(l))); w > c.cols-1 {
				t.Errorf("%+v: a line of %d columns: %q", c, w, visible(l))
			}
		}
		shown := len(lines) - 3 // less the title, the header and the last line
		last := visible(lines[len(lines)-1])
		if shown < c.n && !strings.Contains(last, fmt.Sprintf("and %d more", c.n-shown)) {
			t.Errorf("%+v: %d rows of %d shown, the last line says %q", c, shown, c.n, last)
		}
		if shown == c.n && !strings.HasPrefix("share: of the core-seconds so far", strings.TrimSuffix(last, "…")) {
			t.Errorf("%+v: every row shown, last line %q", c, last)
		}
	}
	lines := layout(boardTable(3), 120, 24)
	if l := visible(lines[2]); !strings.HasSuffix(l, "2.5%       100") {
		t.Errorf("right-aligned columns: %q", l)
	}
}

// TestBoardRedraw: a line written to the stream erases the board, is
// printed, and the board is drawn again below it; Close erases it.
func TestBoardRedraw(t *testing.T) {
	var term bytes.Buffer
	b := NewBoard(&term, func() (int, int) { return 100, 24 })
	b.Draw(boardTable(2))
	drawn := strings.Count(term.String(), "\n")
	if drawn != 5 { // title, header, two rows, note
		t.Fatalf("drew %d lines:\n%s", drawn, visible(term.String()))
	}
	term.Reset()
	s := b.Stream()
	fmt.Fprint(s, "a line from a tar")
	if term.Len() != 0 {
		t.Fatalf("a partial line was printed: %q", term.String())
	}
	fmt.Fprint(s, "get\n")
	want := fmt.Sprintf("\r\x1b[%dA\x1b[Ja line from a target\n", drawn)
	if got := term.String(); !strings.HasPrefix(got, want) || strings.Count(got, "FuzzTarget00") != 1 {
		t.Fatalf("after a line: %q", got)
	}
	term.Reset()
	b.Close()
	if got := term.String(); got != fmt.Sprintf("\r\x1b[%dA\x1b[J", drawn) {
		t.Fatalf("close: %q", got)
	}
}
