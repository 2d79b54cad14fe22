// Package trivial is gfz-bench's speed target: a few byte comparisons and
// nothing else, so that a fuzzer's own cost per execution dominates.
package trivial

// Hits counts the inputs that matched the whole pattern.
var Hits int

// Check compares b with the pattern "gfz!" one byte at a time.
func Check(b []byte) {
	if len(b) < 4 {
		return
	}
	if b[0] == 'g' {
		if b[1] == 'f' {
			if b[2] == 'z' {
				if b[3] == '!' {
					Hits++
				}
			}
		}
	}
}
