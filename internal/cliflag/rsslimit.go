package cliflag

// MinRSSLimitMB is the smallest -rss_limit_mb a fuzz binary accepts
// (besides 0, no limit): a worker of a small target takes about 10 MiB
// before running anything (measured: 10.3 MiB resident for
// testdata/crashers), so a lower limit would kill every worker with a
// spurious out-of-memory failure.
const MinRSSLimitMB = 32

// RSSFloorMB is the smallest -rss_limit_mb for a binary whose coverage map
// has 2^mapBits bytes: MinRSSLimitMB plus four times the map (the map and
// the engine's three copies of it are resident) when the map is larger
// than 1 MiB (mapBits above 20). The fuzz binary refuses less, and gfz-run
// before it builds.
func RSSFloorMB(mapBits int) int {
	floor := MinRSSLimitMB
	if mapBits > 20 && mapBits < 40 {
		floor += 4 << (mapBits - 20)
	}
	return floor
}
