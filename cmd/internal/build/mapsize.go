package build

import "math"

// Map size bounds, both measured trade-offs (docs/INSTRUMENT.md). The engine
// scans and clears the map after every execution, so small programs get small
// maps: with a 2 KiB map instead of 64 KiB the bst example runs about twice as
// fast and an 11-probe target five times. The cap is 128 KiB because probe
// writes land at random map offsets: on the overhead benchmark
// (docs/BENCHMARKS.md) a 512 KiB map made instrumented code 1.82x slower than
// plain, a 128 KiB map 1.38x and a 64 KiB map 1.10x. Larger programs
// therefore get more collisions by default; -mapbits trades them back.
const (
	MinMapBits = 10
	MaxMapBits = 17
	// TargetCollisionRate is the largest expected fraction of colliding
	// edges ChooseMapBits accepts before growing the map.
	TargetCollisionRate = 0.05
	// EdgesPerProbe estimates the number of distinct edges (prev, cur)
	// per probe: most blocks have one or two predecessors.
	EdgesPerProbe = 2
)

// CollisionRate is the expected fraction of edges that share their map slot
// with at least one other edge when edges distinct edges hash uniformly into
// a map of 1<<bits slots: 1 - (1 - 1/M)^(edges-1).
func CollisionRate(edges, bits int) float64 {
	if edges <= 1 {
		return 0
	}
	m := float64(uint64(1) << uint(bits))
	return 1 - math.Exp(float64(edges-1)*math.Log1p(-1/m))
}

// ChooseMapBits picks the smallest map size in [MinMapBits, MaxMapBits]
// whose expected collision rate for probes*EdgesPerProbe edges is at most
// TargetCollisionRate.
func ChooseMapBits(probes int) int {
	edges := probes * EdgesPerProbe
	for b := MinMapBits; b < MaxMapBits; b++ {
		if CollisionRate(edges, b) <= TargetCollisionRate {
			return b
		}
	}
	return MaxMapBits
}
