//go:build race

package gfz_test

// raceEnabled: the race detector is on (sync.Pool then drops some of what
// is put back, on purpose, so allocation counts are not the program's).
const raceEnabled = true
