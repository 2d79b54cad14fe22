// Package shallow holds two small parsers, each with a bug a few byte edits
// away from its fuzz target's seed: the reproductions of "a shallow bug
// near a seed" that docs/BENCHMARKS.md ("Native targets: executions to a
// shallow bug") measures gfz and go test -fuzz on.
package shallow

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// calls counts the calls of the fuzz functions in this process; Reached
// reports it when the bug is reached, so that executions to the bug can
// be measured the same way under gfz and go test -fuzz.
var calls atomic.Int64

// Count is called by the fuzz functions once per execution.
func Count() { calls.Add(1) }

// reached writes the number of calls so far to the file named by
// $SHALLOW_COUNT (appending one line) before the bug panics.
func reached(name string) {
	if p := os.Getenv("SHALLOW_COUNT"); p != "" {
		if f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%s %d\n", name, calls.Load())
			f.Close()
		}
	}
}

var errFormat = errors.New("bad record")

// ParseRecord parses a record "REC" version flags count ':' payload and
// returns the sum of the payload bytes its count selects. The bug: a
// version 2 or later record with the indexed flag (0x80) reads count
// payload pairs without checking that the payload holds them.
func ParseRecord(data []byte) (int, error) {
	if len(data) < 7 || !bytes.HasPrefix(data, []byte("REC")) {
		return 0, errFormat
	}
	version, flags, count := data[3], data[4], data[5]
	if data[6] != ':' {
		return 0, errFormat
	}
	payload := data[7:]
	if version < '2' {
		return len(payload), nil
	}
	if flags&0x80 == 0 {
		return int(flags), nil
	}
	n := int(count) - '0'
	if n < 0 || n > 9 {
		return 0, errFormat
	}
	if 2*n > len(payload) {
		reached("record")
	}
	sum := 0
	for i := 0; i < n; i++ {
		sum += int(payload[2*i])
	}
	return sum, nil
}

// Lookup resolves a dotted path at a depth: a path of three parts or
// more selects the part depth/50. The bug: a depth of 150 or more with
// three parts indexes past them.
func Lookup(path string, depth int) string {
	parts := strings.Split(path, ".")
	if len(parts) < 3 {
		return path
	}
	if depth < 0 || depth > 1000 {
		return ""
	}
	if depth <= 100 {
		return parts[0]
	}
	i := depth / 50
	if i >= len(parts) {
		reached("lookup")
	}
	return parts[i]
}

// upper reports whether c is an ASCII uppercase letter.
func upper(c byte) bool { return 'A' <= c && c <= 'Z' }

// Options reads a header "v1;opts=" and five option letters: an
// uppercase letter turns its option on, and each option is only read when
// the ones before it are on (each is a branch of its own). The bug: with
// all five on, the option table is indexed by the sixth byte unchecked.
func Options(data []byte) int {
	const head = "v1;opts="
	if len(data) < len(head)+6 || string(data[:len(head)]) != head {
		return 0
	}
	o := data[len(head):]
	n := 0
	if upper(o[0]) {
		n++
		if upper(o[1]) {
			n++
			if upper(o[2]) {
				n++
				if upper(o[3]) {
					n++
					if upper(o[4]) {
						n++
						reached("options")
						var table [5]int
						return table[o[5]] // o[5] is a letter, far past the table
					}
				}
			}
		}
	}
	return n
}

// Mode reads three option letters of name as Options does and, with all
// three on, a level: past 100 it selects one of the name's parts by
// level/50. The bug: a level of 150 or more indexes past them.
func Mode(name string, level int) string {
	if len(name) < 3 || !upper(name[0]) && name[0] != '_' {
		return ""
	}
	if upper(name[1]) {
		if upper(name[2]) {
			if level > 100 {
				parts := strings.Split(name, ".")
				i := level / 50
				if i >= len(parts)+2 {
					reached("mode")
				}
				if i < len(parts)+2 {
					return parts[i%len(parts)]
				}
				return parts[i]
			}
		}
	}
	return name
}

// Version parses "major.minor.patch" with strconv.Atoi. The bug: a minor
// version of 10000 or more with a patch of 100 or more overflows a table
// of the known minor versions.
func Version(s string) int {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return -1
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return -1
		}
		v[i] = n
	}
	if v[1] >= 10000 && v[2] >= 100 {
		reached("version")
		var known [4]int
		return known[v[1]%8+4]
	}
	return v[0]
}

// Query reads a record (as ParseRecord) from doc and selects its field
// named by path, which must start with "f.". The bug is ParseRecord's.
func Query(doc []byte, path string) int {
	if !strings.HasPrefix(path, "f.") {
		return 0
	}
	n, _ := ParseRecord(doc)
	return n + len(path)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Config parses lines "key = value" where a value is a quoted string, a
// boolean, a number or a date-time, and returns the number of values. The
// bug is in scanDate, as in a released TOML parser: a space followed by a
// digit skips two bytes, past the end when that digit is the last byte of
// the document.
func Config(doc []byte) (int, error) {
	n := 0
	for len(doc) > 0 {
		switch c := doc[0]; {
		case c == '\n' || c == ' ' || c == '\t':
			doc = doc[1:]
			continue
		case c == '#':
			i := bytes.IndexByte(doc, '\n')
			if i < 0 {
				return n, nil
			}
			doc = doc[i:]
			continue
		}
		i := 0
		for i < len(doc) && (doc[i] == '_' || isDigit(doc[i]) || doc[i] >= 'a' && doc[i] <= 'z') {
			i++
		}
		if i == 0 {
			return n, errFormat
		}
		doc = bytes.TrimLeft(doc[i:], " \t")
		if len(doc) == 0 || doc[0] != '=' {
			return n, errFormat
		}
		doc = bytes.TrimLeft(doc[1:], " \t")
		if len(doc) == 0 {
			return n, errFormat
		}
		var err error
		switch c := doc[0]; {
		case c == '"':
			j := bytes.IndexByte(doc[1:], '"')
			if j < 0 {
				return n, errFormat
			}
			doc = doc[j+2:]
		case bytes.HasPrefix(doc, []byte("true")):
			doc = doc[4:]
		case bytes.HasPrefix(doc, []byte("false")):
			doc = doc[5:]
		case len(doc) >= 5 && isDigit(doc[0]) && isDigit(doc[1]) && (doc[2] == ':' || isDigit(doc[3]) && doc[4] == '-'):
			doc, err = scanDate(doc)
		case isDigit(c) || c == '+' || c == '-':
			j := 1
			for j < len(doc) && (isDigit(doc[j]) || doc[j] == '_' || doc[j] == '.' || doc[j] == 'e' || doc[j] == '-') {
				j++
			}
			doc = doc[j:]
		default:
			return n, errFormat
		}
		if err != nil {
			return n, err
		}
		n++
		doc = bytes.TrimLeft(doc, " \t")
		if len(doc) > 0 && doc[0] != '\n' && doc[0] != '#' {
			return n, errFormat
		}
	}
	return n, nil
}

// scanDate scans a date, a time or both, with an offset, and returns the
// rest of b.
func scanDate(b []byte) ([]byte, error) {
	hasTime, hasZone, seenSpace := false, false, false
	i := 0
loop:
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case isDigit(c):
		case c == '-':
			if i >= 8 {
				hasZone = true
			}
		case c == 'T' || c == ':' || c == '.':
			hasTime = true
		case c == '+' || c == 'Z':
			hasZone = true
		case c == ' ':
			if !seenSpace && i+1 < len(b) && isDigit(b[i+1]) {
				i += 2
				seenSpace, hasTime = true, true
			} else {
				break loop
			}
		default:
			break loop
		}
	}
	if hasZone && !hasTime {
		return nil, errFormat
	}
	if i > len(b) {
		reached("config")
	}
	return b[i:], nil
}
