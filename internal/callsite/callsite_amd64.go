package callsite

// Caller returns the return address of its caller's frame (see the
// package comment). Implemented in callsite_amd64.s.
func Caller() uintptr

// Walk stores in pcs the return addresses of the frames of the stack of
// its caller, innermost first, after skipping skip of them, and returns
// how many it stored: with skip 0, pcs[0] is what Caller returns (a PC in
// the caller's caller), pcs[1] the return address of the frame above, and
// so on. It follows the chain of frame pointers, so it sees the frames of
// functions that were not inlined; a function inlined into another has
// no frame of its own. Implemented in callsite_amd64.s.
//
//go:noescape
func Walk(skip int, pcs []uintptr) int
