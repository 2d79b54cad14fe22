package workdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Reading the stats format: a work directory's "stats" file, which the
// engine rewrites at every status interval (internal/engine, workdir.go,
// writeRunStats), one "key: value" line per figure, in a fixed order. The
// same format serves the supervisor's workers' .feedback-<slot> files and
// the figures of gfz-bench's limit binary.
//
// The reader is tolerant: a reader of a truncated or hand-edited file gets
// every line that can be read, and a note for each line it skips. Its
// rules:
//
//   - Lines end at "\n"; the last line needs none. White space around a
//     line, its key and its value is dropped, so a "\r" before the "\n"
//     (CRLF) is too. A UTF-8 byte order mark opening the file is ignored.
//   - A blank line (nothing but white space) is skipped without a note.
//   - Any other line must hold ": ": the key is the text before the first
//     ": ", the value the text after it (it may be empty, and may hold ": "
//     itself). A line without ": " is skipped with the note
//     `line N skipped: not "key: value"`; a line with an empty key with
//     `line N skipped: empty key`.
//   - A key on more than one line (the engine never writes one twice) keeps
//     all its lines in Lines, and the lookups (Get, Int, Float) return the
//     value of the last one, with the note
//     `line N: key "k" repeats line M; the last value counts`.
//
// Line numbers count from 1 and include blank lines.

// Stat is one line of a stats file: its key, its value and its line number
// (from 1).
type Stat struct {
	Key, Value string
	Line       int
}

// Stats is a stats file as read: its "key: value" lines in the order of
// the file. A nil *Stats is an empty one.
type Stats struct {
	lines []Stat
	last  map[string]int // key -> index in lines of its last line
	keys  []string       // distinct keys, in the order of their first line
}

// bom is the UTF-8 byte order mark an editor may put in front of a file.
const bom = "\ufeff"

// ParseStats parses the content of a stats file. It never fails: notes
// says what it skipped or found doubtful, one note per line, each starting
// with "line N" (see the rules above).
func ParseStats(data []byte) (st *Stats, notes []string) {
	st = &Stats{last: map[string]int{}}
	data = bytes.TrimPrefix(data, []byte(bom))
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			notes = append(notes, fmt.Sprintf("line %d skipped: not \"key: value\"", n))
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "" {
			notes = append(notes, fmt.Sprintf("line %d skipped: empty key", n))
			continue
		}
		if j, dup := st.last[k]; dup {
			notes = append(notes, fmt.Sprintf("line %d: key %q repeats line %d; the last value counts", n, k, st.lines[j].Line))
		} else {
			st.keys = append(st.keys, k)
		}
		st.last[k] = len(st.lines)
		st.lines = append(st.lines, Stat{Key: k, Value: v, Line: n})
	}
	return st, notes
}

// ReadStats reads and parses the stats file at path (ParseStats). When the
// file cannot be read, st is nil and err names the file and wraps the
// cause (errors.Is(err, fs.ErrNotExist) tells a missing file).
func ReadStats(path string) (st *Stats, notes []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		// The *fs.PathError names the file too: keep only its cause.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, fmt.Errorf("stats file %s: %w", path, err)
	}
	st, notes = ParseStats(data)
	return st, notes, nil
}

// Get returns the value of key (that of its last line if it has several);
// ok is false when no line has the key.
func (s *Stats) Get(key string) (value string, ok bool) {
	if s == nil {
		return "", false
	}
	i, ok := s.last[key]
	if !ok {
		return "", false
	}
	return s.lines[i].Value, true
}

// Int returns the value of key as a base-10 integer (strconv.ParseInt); ok
// is false when the key is absent or its value is not such an integer.
func (s *Stats) Int(key string) (n int64, ok bool) {
	v, ok := s.Get(key)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// Float returns the value of key as a number (strconv.ParseFloat, so
// integers, "NaN" and "Inf" too); ok is false when the key is absent or
// its value is not a number.
func (s *Stats) Float(key string) (x float64, ok bool) {
	v, ok := s.Get(key)
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseFloat(v, 64)
	return x, err == nil
}

// Keys returns the distinct keys in the order of their first line.
func (s *Stats) Keys() []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s.keys...)
}

// Lines returns every line read, in the order of the file, a repeated key
// on each of its lines.
func (s *Stats) Lines() []Stat {
	if s == nil {
		return nil
	}
	return append([]Stat(nil), s.lines...)
}

// Len returns the number of distinct keys.
func (s *Stats) Len() int {
	if s == nil {
		return 0
	}
	return len(s.keys)
}
