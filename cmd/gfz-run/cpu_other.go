//go:build !linux

package main

// groupCPU is not available here: the runner counts worker processes x
// time instead.
func groupCPU(pgid int) (float64, bool) { return 0, false }
