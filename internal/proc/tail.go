package proc

import (
	"io"
	"strings"
	"sync"
	"time"
)

// QuitGrace is how long a hung child gets, after SIGQUIT asked it to print
// every goroutine's stack, before SIGKILL.
const QuitGrace = 2 * time.Second

// Tail receives a child's stderr: it keeps the last Max bytes (what the
// child died of is at the end) and forwards to Fwd either everything (All)
// or only gfz's messages ("gfz:" lines with their tab-indented
// continuation lines) and race detector reports.
type Tail struct {
	Fwd io.Writer // nil: keep only
	All bool      // forward everything, not only gfz's messages
	Max int       // bytes kept
	// Mu, if set, is held while writing to Fwd and the buffer, to
	// serialise the forwarded lines with other output; nil: an own lock.
	Mu *sync.Mutex

	own     sync.Mutex
	buf     []byte
	partial []byte
	filter  lineFilter
}

// lineFilter tells, line by line, which lines of a child's stderr Tail
// forwards when not All: gfz's messages ("gfz:" lines with their
// tab-indented continuation lines) and race detector reports.
type lineFilter struct{ inGfz, inRace bool }

// forward reports whether line (with its newline) is forwarded.
func (f *lineFilter) forward(line string) bool {
	race := line == raceDelimiter
	switch {
	case race:
		f.inRace = !f.inRace
	case strings.HasPrefix(line, "gfz:"):
		f.inGfz = true
	case line == "" || line[0] != '\t':
		f.inGfz = false
	}
	return f.inGfz || f.inRace || race
}

// Unforwarded returns the lines of output, a child's stderr, that a Tail
// forwarding only gfz's messages does not forward (without their
// newlines).
func Unforwarded(output string) []string {
	var f lineFilter
	var out []string
	for _, l := range strings.SplitAfter(output, "\n") {
		if l != "" && !f.forward(l) {
			out = append(out, strings.TrimSuffix(l, "\n"))
		}
	}
	return out
}

// raceDelimiter opens and closes a race detector report (forwarded whole).
const raceDelimiter = "==================\n"

func (w *Tail) lock() *sync.Mutex {
	if w.Mu != nil {
		return w.Mu
	}
	return &w.own
}

// Write keeps p and forwards what it should; it never fails (a forward
// destination that went away does not stop the child).
func (w *Tail) Write(p []byte) (int, error) {
	mu := w.lock()
	mu.Lock()
	defer mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > 2*w.Max {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-w.Max:]...)
	}
	if w.Fwd == nil {
		return len(p), nil
	}
	if w.All {
		_, _ = w.Fwd.Write(p)
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := strings.IndexByte(string(w.partial), '\n')
		if i < 0 {
			break
		}
		line := w.partial[:i+1]
		if w.filter.forward(string(line)) {
			_, _ = w.Fwd.Write(line)
		}
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > w.Max {
		w.partial = w.partial[:0]
	}
	return len(p), nil
}

// String returns the kept tail: the last Max bytes written.
func (w *Tail) String() string {
	mu := w.lock()
	mu.Lock()
	defer mu.Unlock()
	if len(w.buf) > w.Max {
		return string(w.buf[len(w.buf)-w.Max:])
	}
	return string(w.buf)
}
