package runtime

// MapBits is log2 of the coverage map size. gfz-build replaces this file in
// the build overlay with a value chosen from the probe count of the
// instrumented packages; the default below is used by uninstrumented builds
// (plain go test, go test -fuzz), where no probe ever fires.
const MapBits = 16

// CountLaps tells whether probes count the laps of their 8-bit counters in
// Laps (gfz-build -counts sets it in this file's overlay; see Laps). A
// constant, so that the default probe compiles without the test: its
// inlining cost is unchanged.
const CountLaps = false
