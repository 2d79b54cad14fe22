// Package mixedcmp is the fixture of TestTestFilesMixedComparison: a
// native target whose test file compares concrete values with an
// interface holding them, as gojq v0.12.20's compiler_test.go does.
package mixedcmp

// Value returns the rest of b as a string when b starts with a quote,
// else the length of b.
func Value(b []byte) any {
	if len(b) > 0 && b[0] == '"' {
		return string(b[1:])
	}
	return len(b)
}
