package driver

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ReadDictionary reads a dictionary file in the AFL / libFuzzer format:
// one entry per line, `"value"` or `name="value"` (what precedes the first
// quote is ignored, as libFuzzer ignores it), blank lines and lines
// starting with '#' skipped. In the value, \\ is a backslash, \" a quote
// and \xHH the byte HH; other bytes, an unescaped quote included, stand for
// themselves. A bad line is an error naming file:line and the problem.
func ReadDictionary(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-dict: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		tok, err := parseDictLine(line)
		if err != nil {
			// libFuzzer's words too, which ClusterFuzz looks for to tell
			// a project its dictionary is broken.
			return nil, fmt.Errorf("-dict: %s:%d: ParseDictionaryFile: error in line %d: %v (want \"value\" or name=\"value\", with \\\\, \\\" and \\xHH escapes)", path, n, n, err)
		}
		out = append(out, tok)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("-dict: %s: %w", path, err)
	}
	return out, nil
}

// parseDictLine parses one entry as libFuzzer does: the value is what
// lies between the line's first '"' and its last character, which must be
// '"'; what comes before it (a name, "name =", "name@1=") is ignored, and
// a '"' inside the value stands for itself. OSS-Fuzz projects' dictionaries
// rely on that leniency, and a line libFuzzer accepts must not stop the
// binary.
func parseDictLine(line string) (string, error) {
	q := strings.IndexByte(line, '"')
	if q < 0 {
		return "", errors.New("no quoted value")
	}
	line = line[q:]
	if len(line) < 2 || line[len(line)-1] != '"' {
		return "", errors.New("the value is not enclosed in double quotes")
	}
	body := line[1 : len(line)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(body) {
			return "", errors.New("'\\' at the end of the value")
		}
		i++
		switch body[i] {
		case '\\', '"':
			b.WriteByte(body[i])
		case 'x':
			if i+2 >= len(body) {
				return "", errors.New("\\x needs two hex digits")
			}
			h, ok1 := unhex(body[i+1])
			l, ok2 := unhex(body[i+2])
			if !ok1 || !ok2 {
				return "", errors.New("\\x needs two hex digits")
			}
			b.WriteByte(h<<4 | l)
			i += 2
		default:
			return "", fmt.Errorf("unknown escape \\%c", body[i])
		}
	}
	return b.String(), nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// FormatDictionary writes tokens in the format ReadDictionary reads, one
// `"value"` line each, in order (ReadDictionary returns the same tokens):
// backslash and quote escaped, control characters, DEL and non-ASCII bytes
// as \xHH. header lines, if any, come first as # comments.
func FormatDictionary(tokens []string, header ...string) []byte {
	var b strings.Builder
	for _, h := range header {
		b.WriteString("# " + h + "\n")
	}
	const digits = "0123456789abcdef"
	for _, tok := range tokens {
		b.WriteByte('"')
		for i := 0; i < len(tok); i++ {
			switch c := tok[i]; {
			case c == '\\' || c == '"':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c < 0x20 || c >= 0x7f:
				b.WriteString(`\x`)
				b.WriteByte(digits[c>>4])
				b.WriteByte(digits[c&15])
			default:
				b.WriteByte(c)
			}
		}
		b.WriteString("\"\n")
	}
	return []byte(b.String())
}
