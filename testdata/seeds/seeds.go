// Package seeds holds fuzz targets whose seed corpus is the point: one
// with a testdata/fuzz file of the wrong type, one with a wrong-typed
// f.Add seed, and one with a saved failing input that plain go test
// replays. The tests of package gfz (repro_test.go) run them.
package seeds

// Check reports whether xs is sorted.
func Check(xs []int) bool {
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] {
			return false
		}
	}
	return true
}
