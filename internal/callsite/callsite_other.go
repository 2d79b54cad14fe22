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
