// Package runtime is gfz's probe runtime: the shared edge-coverage map that
// instrumented code writes and the engine reads, plus the registry of
// instrumented packages and their probe tables.
//
// It imports nothing, so that any package, including standard-library
// packages instrumented with gfz-build -cover, can depend on it without an
// import cycle. Import it as gfzrt:
//
//	import gfzrt "github.com/gfz-dev/gfz/runtime"
package runtime

// MapSize is the number of 8-bit counters in Map; a power of two.
const MapSize = 1 << MapBits

// Map holds the AFL-style edge hit counters of the current execution:
// a probe with ID cur increments Map[(cur^prev)&(MapSize-1)].
var Map [MapSize]uint8

// Laps extends Map's counters past 255 in binaries built with
// gfz-build -counts (CountLaps): a counter that would wrap from 255 to 0 is
// set back to lapBase (128) and its lap is counted here, so the execution's
// exact hit count of edge i is Count(i) = Map[i] + lapBase*Laps[i], and a
// count of 256 or more never reads as 0 in Map (its hit-count class stays
// the top one). Without CountLaps (the default) probes never write Laps,
// counters wrap, and Count is exact only below 256. The engine clears the
// entries it reads (the perf feedback, -feedback perf) and ClearLaps.
var Laps [MapSize]uint32

// lapBase is the value a counting probe's counter restarts from after 255.
const lapBase = 128

// Count returns the exact hit count of edge i in the current execution
// (see Laps).
//
//go:norace
func Count(i uint32) uint64 {
	return uint64(Map[i&(MapSize-1)]) + lapBase*uint64(Laps[i&(MapSize-1)])
}

// ClearLaps clears Laps.
//
//go:norace
func ClearLaps() { clear(Laps[:]) }

// prev is the shifted ID of the previous probe (AFL's prev_location).
//
// Map, prev, packages and the layout of Package are also defined, through
// //go:linkname, by the code gfz-build adds to instrumented standard-library
// packages (instrument.Template.RegistrationSource): change them together.
var prev uint32

// Hit records that the probe with compile-time ID cur fired and marks its
// block-coverage byte. Instrumented code calls it at every branch arm; it is
// small enough to be inlined.
//
//go:norace
func Hit(cur uint32, block *uint8) {
	Map[(cur^prev)&(MapSize-1)]++
	if CountLaps && Map[(cur^prev)&(MapSize-1)] == 0 {
		Map[(cur^prev)&(MapSize-1)] = lapBase
		Laps[(cur^prev)&(MapSize-1)]++
	}
	prev = cur >> 1
	*block = 1
}

// HitE is Hit for expression contexts (the right operand of && and ||).
// It always returns true.
//
//go:norace
func HitE(cur uint32, block *uint8) bool {
	Map[(cur^prev)&(MapSize-1)]++
	if CountLaps && Map[(cur^prev)&(MapSize-1)] == 0 {
		Map[(cur^prev)&(MapSize-1)] = lapBase
		Laps[(cur^prev)&(MapSize-1)]++
	}
	prev = cur >> 1
	*block = 1
	return true
}

// Reset clears Map and the previous-location register; the engine calls it
// before every execution.
//
//go:norace
func Reset() {
	clear(Map[:])
	prev = 0
}

// ResetPrev clears only the previous-location register. An engine that
// knows which parts of Map the last execution wrote (because it scanned
// them) clears those itself and calls ResetPrev instead of Reset, which
// avoids rewriting the whole map before every execution.
//
//go:norace
func ResetPrev() {
	prev = 0
}

// Package describes one instrumented package as registered by its generated
// init code.
type Package struct {
	Path   string  // import path
	Blocks []uint8 // Blocks[i] != 0 once probe i of the package has fired (cumulative)
	Table  string  // encoded probe table; decoded by package cover
}

var packages []Package

// Register is called from the init code gfz-build adds to every instrumented
// package.
func Register(path string, blocks []uint8, table string) {
	packages = append(packages, Package{Path: path, Blocks: blocks, Table: table})
}

// Packages returns the registered instrumented packages in registration
// (initialization) order. The slice must not be modified.
func Packages() []Package { return packages }
