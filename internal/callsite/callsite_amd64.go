package callsite

// Caller returns the return address of its caller's frame (see the
// package comment). Implemented in callsite_amd64.s.
func Caller() uintptr
