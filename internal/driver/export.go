package driver

import (
	"context"
	"time"
)

// Describe is the function a fuzz binary's supervisor uses as
// engine.SupervisorConfig.Describe, for the fuzz binary bin and its target
// with a -rss_limit_mb of rssLimitMB: it re-runs one input in a -repro
// child and returns the values it drew and the bytes it read.
func Describe(bin, target string, rssLimitMB int) func(ctx context.Context, input []byte, timeout time.Duration) (string, int, error) {
	c := &config{target: target, rssLimitMB: rssLimitMB}
	return c.describer(bin)
}
