//go:build unix

package engine

import (
	"io"
	"strings"
	"sync"
)

// tailWriter receives a worker's stderr: it keeps the last tailSize bytes
// (to classify a crash) and forwards the worker's "gfz:" messages (with
// their indented continuation lines) and race detector reports, or
// everything when all is set.
type tailWriter struct {
	fwd     io.Writer
	mu      *sync.Mutex
	all     bool
	buf     []byte
	partial []byte
	inGfz   bool
	inRace  bool
}

// raceDelimiter opens and closes a race detector report (forwarded whole).
const raceDelimiter = "==================\n"

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > 2*tailSize {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-tailSize:]...)
	}
	if w.fwd == nil {
		return len(p), nil
	}
	if w.all {
		_, _ = w.fwd.Write(p)
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := strings.IndexByte(string(w.partial), '\n')
		if i < 0 {
			break
		}
		line := w.partial[:i+1]
		race := string(line) == raceDelimiter
		switch {
		case race:
			w.inRace = !w.inRace
		case strings.HasPrefix(string(line), "gfz:"):
			w.inGfz = true
		case line[0] != '\t':
			w.inGfz = false
		}
		if w.inGfz || w.inRace || race {
			_, _ = w.fwd.Write(line)
		}
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > tailSize {
		w.partial = w.partial[:0]
	}
	return len(p), nil
}

// String returns the kept tail.
func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > tailSize {
		return string(w.buf[len(w.buf)-tailSize:])
	}
	return string(w.buf)
}
