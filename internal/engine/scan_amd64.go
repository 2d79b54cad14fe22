package engine

// scanLinesAVX2 writes the word index (8 × its number) of each non-zero
// 64-byte line of the n lines at m to out, in order, and returns how many
// it wrote; out must hold n entries. Branch-free like scanLinesGo, two
// 32-byte loads, an OR and a test per line (scan_amd64.s).
//
//go:noescape
func scanLinesAVX2(m *uint64, n int, out *int32) int

// cpuid executes CPUID with EAX=leaf and ECX=sub (scan_amd64.s).
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 returns the low word of extended control register 0, the state
// components the operating system saves (scan_amd64.s). Call it only when
// CPUID reports OSXSAVE.
func xgetbv0() uint32

// hasAVX2 selects scanLinesAVX2.
var hasAVX2 = detectAVX2()

// detectAVX2 reports whether the processor has AVX and AVX2 and the
// operating system saves the YMM registers (XCR0 bits 1 and 2), the check
// golang.org/x/sys/cpu makes, done here so that the engine needs only the
// standard library.
func detectAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xgetbv0()&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

// scanLines lists the non-zero cache lines of m into lines (which holds
// one entry per line) and returns the count.
func scanLines(m *[mapWords]uint64, lines []int32) int {
	if hasAVX2 && len(lines) >= mapWords/group {
		return scanLinesAVX2(&m[0], mapWords/group, &lines[0])
	}
	return scanLinesGo(m, lines)
}
