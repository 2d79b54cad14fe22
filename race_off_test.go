//go:build !race

package gfz_test

const raceEnabled = false
