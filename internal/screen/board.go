package screen

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Board draws a table that is redrawn in place on a terminal, with every
// other line printed above it (gfz-run's view of all the targets of a
// run: one row per target). Like Screen, it uses only the cursor-up and
// clear-to-end sequences; it never draws more lines than the terminal
// has, nor lines wider than it.
type Board struct {
	mu    sync.Mutex
	w     io.Writer
	size  func() (cols, rows int) // the terminal's size (0: unknown)
	drawn int                     // lines of the board on the terminal below the output
	lines []string                // the board as last laid out
}

// NewBoard returns a Board drawing on w, a terminal whose size reports
// its columns and rows (nil, or 0 for either: 80 columns, 24 rows).
func NewBoard(w io.Writer, size func() (cols, rows int)) *Board {
	return &Board{w: w, size: size}
}

// Stream returns a writer of lines printed above the board; an unfinished
// line waits for its end.
func (b *Board) Stream() io.Writer { return &boardStream{b: b} }

type boardStream struct {
	b       *Board
	partial []byte
}

func (st *boardStream) Write(p []byte) (int, error) {
	b := st.b
	b.mu.Lock()
	defer b.mu.Unlock()
	st.partial = append(st.partial, p...)
	var out bytes.Buffer
	wrote := false
	for {
		i := bytes.IndexByte(st.partial, '\n')
		if i < 0 {
			break
		}
		if !wrote {
			b.erase(&out)
			wrote = true
		}
		out.Write(st.partial[:i+1])
		st.partial = st.partial[i+1:]
	}
	st.partial = bytes.Clone(st.partial)
	if wrote {
		b.put(&out)
		if _, err := b.w.Write(out.Bytes()); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Table is what the board shows: a title line, then a header and rows of
// cells, columns aligned (Right[i]: column i is right-aligned), and a
// last line (a note; "" for none).
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Right  []bool
	Note   string
}

// Draw lays out t and redraws the board.
func (b *Board) Draw(t Table) {
	b.mu.Lock()
	defer b.mu.Unlock()
	cols, rows := 0, 0
	if b.size != nil {
		cols, rows = b.size()
	}
	if cols <= 0 {
		cols = 80
	}
	if rows <= 0 {
		rows = 24
	}
	var out bytes.Buffer
	b.erase(&out)
	b.lines = layout(t, cols, rows)
	b.put(&out)
	_, _ = b.w.Write(out.Bytes())
}

// Close erases the board: what follows (a final summary) is printed as
// plain lines.
func (b *Board) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out bytes.Buffer
	b.erase(&out)
	b.lines = nil
	_, _ = b.w.Write(out.Bytes())
}

func (b *Board) erase(out *bytes.Buffer) {
	if b.drawn > 0 {
		fmt.Fprintf(out, "\r\x1b[%dA\x1b[J", b.drawn)
		b.drawn = 0
	}
}

func (b *Board) put(out *bytes.Buffer) {
	for _, l := range b.lines {
		out.WriteString(l + "\n")
	}
	b.drawn = len(b.lines)
}

// layout renders t in at most cols-1 columns and rows-1 lines (a line
// that wrapped, or a board taller than the terminal, would break the
// redraw): rows that do not fit are left out and counted on the last
// line; the widest column is cut first.
func layout(t Table, cols, rows int) []string {
	maxW := max(cols-1, 10)
	bar := cut("── "+t.Title+" ", maxW)
	lines := []string{"\x1b[1m" + bar + strings.Repeat("─", max(0, maxW-runeLen(bar))) + "\x1b[0m"}
	// Column widths from the header and every row, then narrowed to fit.
	n := len(t.Header)
	w := make([]int, n)
	for i, h := range t.Header {
		w[i] = runeLen(h)
	}
	for _, r := range t.Rows {
		for i := 0; i < n && i < len(r); i++ {
			w[i] = max(w[i], runeLen(r[i]))
		}
	}
	total := func() int {
		s := 0
		for _, x := range w {
			s += x + 2
		}
		return s
	}
	for total() > maxW {
		widest := 0
		for i := range w {
			if w[i] > w[widest] {
				widest = i
			}
		}
		if w[widest] <= 4 {
			break
		}
		w[widest]--
	}
	row := func(cells []string, dim bool) string {
		var s strings.Builder
		for i := 0; i < n; i++ {
			c := ""
			if i < len(cells) {
				c = cut(cells[i], w[i])
			}
			if i < len(t.Right) && t.Right[i] {
				c = strings.Repeat(" ", max(0, w[i]-runeLen(c))) + c
			} else {
				c = pad(c, w[i])
			}
			s.WriteString(c + "  ")
		}
		line := strings.TrimRight(s.String(), " ")
		if runeLen(line) > maxW {
			line = cut(line, maxW)
		}
		if dim {
			return "\x1b[2m" + line + "\x1b[0m"
		}
		return line
	}
	lines = append(lines, row(t.Header, true))
	room := max(rows-1-len(lines)-1, 1) // keep a line for the note
	shown := t.Rows
	more := 0
	if len(shown) > room {
		shown, more = shown[:room], len(shown)-room
	}
	for _, r := range shown {
		lines = append(lines, row(r, false))
	}
	note := t.Note
	if more > 0 {
		note = strings.TrimSpace(fmt.Sprintf("… and %d more; %s", more, note))
		note = strings.TrimSuffix(note, ";")
	}
	if note != "" {
		lines = append(lines, "\x1b[2m"+cut(note, maxW)+"\x1b[0m")
	}
	return lines
}
