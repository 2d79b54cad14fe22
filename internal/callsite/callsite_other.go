//go:build !amd64

package callsite

import "runtime"

// Caller returns the return address of its caller's frame (see the
// package comment).
//
//go:noinline
func Caller() uintptr {
	// Frames: 0 runtime.Callers, 1 Caller, 2 F, 3 F's caller.
	var pc [1]uintptr
	runtime.Callers(3, pc[:])
	return pc[0]
}

// Walk stores in pcs the return addresses of the frames of the stack of
// its caller, innermost first, after skipping skip of them, and returns
// how many it stored (see the amd64 version). Here it asks
// runtime.Callers, which also reports a frame for each inlined call: on
// these architectures an inlined function counts as a frame.
//
//go:noinline
func Walk(skip int, pcs []uintptr) int {
	// Frames: 0 runtime.Callers, 1 Walk, 2 F, 3 F's caller.
	return runtime.Callers(skip+3, pcs)
}
