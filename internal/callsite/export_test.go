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

// Lookup and Cached expose the table of infos: Cached reports whether pc
// has an entry in one of its two slots.
var Lookup = func(pc uintptr) { lookup(pc) }

func Cached(pc uintptr) bool {
	h := (uint64(pc) * 0x9e3779b97f4a7c15) >> (64 - infoBits)
	for _, s := range []uint64{h, h ^ 1} {
		if p := infos[s].Load(); p != nil && p.pc == pc {
			return true
		}
	}
	return false
}

// Slot is pc's first slot.
func Slot(pc uintptr) uint64 { return (uint64(pc) * 0x9e3779b97f4a7c15) >> (64 - infoBits) }
