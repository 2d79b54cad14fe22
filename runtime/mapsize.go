package runtime

// MapBits is log2 of the coverage map size. gfz-build replaces this file in
// the build overlay with a value chosen from the probe count of the
// instrumented packages; the default below is used by uninstrumented builds
// (plain go test, go test -fuzz), where no probe ever fires.
const MapBits = 16
