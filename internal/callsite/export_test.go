package callsite

// LibCall calls fn from a frame of gfz's library (this package), as
// generators' Draw calls the function of a Custom: the external tests
// (package callsite_test, user code) anchor their stacks with it.
//
//go:noinline
func LibCall(fn func()) { fn() }

// LibCall2 is LibCall.
//
//go:noinline
func LibCall2(fn func()) { fn() }

// LibProbe asks User for the frames above it, as a generator's Draw
// called by the library would.
//
//go:noinline
func LibProbe() ([]Frame, bool) { return libProbe() }

//go:noinline
func libProbe() ([]Frame, bool) { return User(0, Caller(), nil) }
