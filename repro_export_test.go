package gfz

import (
	"context"
	"time"
)

// DescribeInput runs the Describe function that the fuzz binary bin gives
// its supervisor (engine.SupervisorConfig.Describe) for target.
func DescribeInput(ctx context.Context, bin, target string, rssLimitMB int, input []byte, timeout time.Duration) (string, int, error) {
	c := &binaryConfig{target: target, rssLimitMB: rssLimitMB}
	return c.describer(bin)(ctx, input, timeout)
}
