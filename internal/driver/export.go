package driver

import (
	"context"
	"time"

	"github.com/gfz-dev/gfz/internal/engine"
)

// Describe is the function a fuzz binary's supervisor uses as
// engine.SupervisorConfig.Describe, for the fuzz binary bin and its target
// with a -rss_limit_mb of rssLimitMB: it re-runs one input in a -repro
// child and returns the values it drew, the bytes it read and whether it
// timed out.
func Describe(bin, target string, rssLimitMB int) func(ctx context.Context, input []byte, timeout time.Duration) (engine.Rerun, error) {
	c := &config{rssLimitMB: rssLimitMB}
	c.run.Target = target
	return c.describer(bin)
}
