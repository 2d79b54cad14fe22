// Package formatmix is a small configuration loader with a bug that only
// a document of several TOML constructs reaches: the end-to-end test of
// the format mix (gfz's TestFormatMix) runs its native target with and
// without children from the TOML generator.
package formatmix

import "strings"

// Load reads a TOML-like configuration line by line: [table] and
// [[array of tables]] headers, key = value pairs. It panics (the bug) on
// a pair whose value is an inline table holding an array, inside an
// element of an array of tables whose header has a dotted key with a
// quoted part.
func Load(doc string) int {
	pairs := 0
	dottedArray := false
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#':
		case strings.HasPrefix(line, "[["):
			end := strings.Index(line, "]]")
			if end < 0 {
				return -1
			}
			key := line[2:end]
			dottedArray = strings.Contains(key, ".") && strings.ContainsAny(key, `"'`)
		case line[0] == '[':
			if !strings.Contains(line, "]") {
				return -1
			}
			dottedArray = false
		default:
			key, val, ok := strings.Cut(line, "=")
			if !ok || strings.TrimSpace(key) == "" {
				return -1
			}
			pairs++
			val = strings.TrimSpace(val)
			if dottedArray && strings.HasPrefix(val, "{") {
				end := strings.LastIndex(val, "}")
				if end < 0 {
					return -1
				}
				if inner := val[1:end]; strings.Contains(inner, "[") {
					var fields []string
					_ = fields[len(inner)] // the bug
				}
			}
		}
	}
	return pairs
}
