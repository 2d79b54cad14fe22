// Package apitest is the fixture the tests of package gfz build and run in
// the three modes (go test, go test -fuzz, fuzz binary). Its tests copy
// this module to a temporary directory first.
package apitest

// Sum adds xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// Pick returns xs[i] for the planted index bug of FuzzPanic.
func Pick(xs []int, i int) int { return xs[i] }
