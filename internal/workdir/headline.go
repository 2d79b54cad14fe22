package workdir

import (
	"strings"
	"unicode/utf8"
)

// MaxHeadline bounds a headline, in characters (runes).
const MaxHeadline = 200

// Headline is a failure message in one line, where a failure is named in
// one line (the "new failure" status line, the HTML report's list; gfz-run
// -ci's table reads the report's first message line, which for the
// messages gfz writes is the same): the message's first non-empty line,
// trimmed, followed by " …" when more lines follow. A first line that is
// only a source location ("x_test.go:12:", as t.Errorf("\nwant ...")
// logs) is joined with the next non-empty line. It is cut to
// MaxHeadline characters, ending in "…".
func Headline(msg string) string {
	lines := strings.Split(msg, "\n")
	first, more := -1, false
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if first < 0 {
			first = i
			continue
		}
		more = true
		break
	}
	if first < 0 {
		return ""
	}
	h := strings.TrimSpace(lines[first])
	if isLocation(h) {
		// The message proper starts on the next non-empty line.
		for j := first + 1; j < len(lines); j++ {
			if l := strings.TrimSpace(lines[j]); l != "" {
				h += " " + l
				more = false
				for _, rest := range lines[j+1:] {
					if strings.TrimSpace(rest) != "" {
						more = true
						break
					}
				}
				break
			}
		}
	}
	if utf8.RuneCountInString(h) > MaxHeadline {
		return string([]rune(h)[:MaxHeadline]) + "…"
	}
	if more {
		h += " …"
	}
	return h
}

// isLocation reports whether s is only a "file.go:N:" source location.
func isLocation(s string) bool {
	s, ok := strings.CutSuffix(s, ":")
	if !ok {
		return false
	}
	file, line, ok := strings.Cut(s, ".go:")
	if !ok || file == "" || strings.ContainsAny(file, " \t") || line == "" {
		return false
	}
	for _, c := range line {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Printable replaces, in text a target wrote (failure messages, values),
// what a terminal or a page declared UTF-8 should not get as it is: each
// control character other than tab, newline and carriage return (a
// terminal's colour codes) and each byte that is not UTF-8, by U+FFFD.
func Printable(s string) string {
	bad := func(r rune, n int) bool {
		return r == utf8.RuneError && n == 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
	}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if bad(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if bad(r, n) {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
