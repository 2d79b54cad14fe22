// Package lfz holds the fuzz targets of the libFuzzer conformance test
// (libfuzzer_test.go at the repository root): a fuzz binary built from it
// is driven as ClusterFuzzLite's libFuzzer runner drives a fuzzer.
package lfz

// Classify returns a small number by which branch b takes: eight
// branches, so that a corpus of several inputs covers more than one.
func Classify(b byte) int {
	switch b % 8 {
	case 0:
		return 10
	case 1:
		return 11
	case 2:
		return 12
	case 3:
		return 13
	case 4:
		return 14
	case 5:
		return 15
	case 6:
		return 16
	}
	return 17
}

// Spin loops forever.
func Spin() int {
	x := 0
	for {
		x++
	}
}

// hog keeps what Hog allocates reachable.
var hog [][]byte

// Hog allocates without bound, touching every page.
func Hog() {
	for {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		hog = append(hog, b)
	}
}
