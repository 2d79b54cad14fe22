//go:build !amd64

package engine

// scanLines lists the non-zero cache lines of m into lines (which holds
// one entry per line) and returns the count.
func scanLines(m *[mapWords]uint64, lines []int32) int { return scanLinesGo(m, lines) }
