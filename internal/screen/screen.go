// Package screen shows a fuzz binary's status as a compact live screen
// when it goes to a terminal: the latest status line is drawn as a small
// table that is redrawn in place every time a new one arrives, and every
// other line (new failures, warnings, worker output) is printed above it
// and stays in the scrollback. The final summary is printed as plain
// lines. Anything that is not a terminal gets the plain lines unchanged.
//
// Whether the output is a terminal and how wide it is come from
// golang.org/x/term; drawing uses only the cursor-up and clear-to-end ANSI
// sequences every terminal emulator supports.
package screen

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
)

// statusPrefix starts a status line; donePrefix the final summary's.
const (
	statusPrefix = "gfz: elapsed "
	donePrefix   = "gfz: done: "
)

// Screen draws status lines as a live screen on a terminal. Its streams
// (Stream) are the writers of what goes to that terminal: the status
// writer and, when the same terminal shows them, the targets' standard
// output; each stream waits for the end of its lines.
type Screen struct {
	mu     sync.Mutex
	w      io.Writer
	title  string
	width  func() int // the terminal's columns (0: unknown)
	drawn  int        // lines of the screen on the terminal below the output
	status string     // the latest status line, without its "gfz: "
}

// New returns a Screen drawing on w, a terminal whose width reports its
// columns (nil or 0: taken as 80), with the given title (e.g. the fuzz
// target's name).
func New(w io.Writer, title string, width func() int) *Screen {
	return &Screen{w: w, title: title, width: width}
}

// Stream returns a writer of lines to the terminal.
func (s *Screen) Stream() io.Writer { return &stream{s: s} }

type stream struct {
	s       *Screen
	partial []byte // an unfinished line
}

// Write handles the complete lines in p; an unfinished line waits for its
// end.
func (st *stream) Write(p []byte) (int, error) {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st.partial = append(st.partial, p...)
	var out bytes.Buffer
	for {
		i := bytes.IndexByte(st.partial, '\n')
		if i < 0 {
			break
		}
		line := string(st.partial[:i])
		st.partial = st.partial[i+1:]
		s.line(&out, line)
	}
	st.partial = bytes.Clone(st.partial)
	if out.Len() > 0 {
		if _, err := s.w.Write(out.Bytes()); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// line renders one line into out.
func (s *Screen) line(out *bytes.Buffer, line string) {
	s.erase(out)
	switch {
	case strings.HasPrefix(line, statusPrefix):
		s.status = strings.TrimPrefix(line, "gfz: ")
	case strings.HasPrefix(line, donePrefix):
		s.status = "" // the summary follows in plain lines
		out.WriteString(line + "\n")
	default:
		out.WriteString(line + "\n")
	}
	s.draw(out)
}

// erase moves the cursor to the first line of the screen drawn last and
// clears everything below it.
func (s *Screen) erase(out *bytes.Buffer) {
	if s.drawn > 0 {
		fmt.Fprintf(out, "\r\x1b[%dA\x1b[J", s.drawn)
		s.drawn = 0
	}
}

// draw draws the screen of the latest status.
func (s *Screen) draw(out *bytes.Buffer) {
	if s.status == "" {
		return
	}
	cols := 0
	if s.width != nil {
		cols = s.width()
	}
	if cols <= 0 {
		cols = 80
	}
	lines := render(s.title, s.status, cols)
	for _, l := range lines {
		out.WriteString(l + "\n")
	}
	s.drawn = len(lines)
}

// Column widths of the screen: a field's name and its value; two fields
// a row on a terminal of 80 columns or more, one otherwise.
const nameW, valueW = 10, 28

// render lays out a status text ("elapsed 3s, execs 981234 (327078/s),
// valid 24.9%, ...": comma-separated fields, each a name and a value) as
// the screen's lines, none wider than cols columns (lines that wrapped
// would break the redraw).
func render(title, status string, cols int) []string {
	perRow, width := 2, 2*(1+nameW+valueW)+1
	if cols < width+1 {
		perRow, width = 1, 1+nameW+valueW
	}
	vw := max(1, min(valueW, cols-2-nameW))
	bar := cut("── gfz · "+title+" · Ctrl-C stops ", min(width, cols-1))
	lines := []string{"\x1b[1m" + bar + strings.Repeat("─", max(0, min(width, cols-1)-runeLen(bar))) + "\x1b[0m"}
	var row strings.Builder
	n := 0
	for _, f := range strings.Split(status, ", ") {
		name, value, _ := strings.Cut(f, " ")
		row.WriteString(" \x1b[2m" + pad(cut(name, nameW), nameW) + "\x1b[0m" + pad(cut(groupDigits(value), vw), vw))
		n++
		if n%perRow == 0 {
			lines = append(lines, strings.TrimRight(row.String(), " "))
			row.Reset()
		} else {
			row.WriteString(" ")
		}
	}
	if row.Len() > 0 {
		lines = append(lines, strings.TrimRight(row.String(), " "))
	}
	return lines
}

// cut shortens s to at most w runes, marking the cut with "…".
func cut(s string, w int) string {
	r := []rune(s)
	if len(r) <= w {
		return s
	}
	if w < 1 {
		return ""
	}
	return string(r[:w-1]) + "…"
}

func runeLen(s string) int { return len([]rune(s)) }

// pad pads s with spaces to w columns (runes); a longer s is kept whole.
func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-runeLen(s)))
}

// groupDigits puts thousands separators into the leading integer of v:
// "981234 (327078/s)" becomes "981,234 (327078/s)".
func groupDigits(v string) string {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i < 4 {
		return v
	}
	var b strings.Builder
	for j := 0; j < i; j++ {
		if j > 0 && (i-j)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(v[j])
	}
	return b.String() + v[i:]
}
