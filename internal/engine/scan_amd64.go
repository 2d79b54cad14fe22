package engine

import "golang.org/x/sys/cpu"

// scanLinesAVX2 writes the word index (8 × its number) of each non-zero
// 64-byte line of the n lines at m to out, in order, and returns how many
// it wrote; out must hold n entries. Branch-free like scanLinesGo, two
// 32-byte loads, an OR and a test per line (scan_amd64.s).
//
//go:noescape
func scanLinesAVX2(m *uint64, n int, out *int32) int

// hasAVX2 selects scanLinesAVX2.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasAVX

// scanLines lists the non-zero cache lines of m into lines (which holds
// one entry per line) and returns the count.
func scanLines(m *[mapWords]uint64, lines []int32) int {
	if hasAVX2 && len(lines) >= mapWords/group {
		return scanLinesAVX2(&m[0], mapWords/group, &lines[0])
	}
	return scanLinesGo(m, lines)
}
