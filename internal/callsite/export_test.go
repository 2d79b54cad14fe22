package callsite

// LibCall calls fn from a frame of gfz's library (this package), as
// generators' Draw calls the function of a Custom: the external tests
// (package callsite_test, user code) anchor their stacks with it.
//
//go:noinline
func LibCall(fn func()) { fn() }
