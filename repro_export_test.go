package gfz

import (
	"context"
	"time"

	"github.com/gfz-dev/gfz/internal/driver"
	"github.com/gfz-dev/gfz/internal/engine"
)

// DescribeInput runs the Describe function that the fuzz binary bin gives
// its supervisor (engine.SupervisorConfig.Describe) for target.
func DescribeInput(ctx context.Context, bin, target string, rssLimitMB int, input []byte, timeout time.Duration) (engine.Rerun, error) {
	return driver.Describe(bin, target, rssLimitMB)(ctx, input, timeout)
}
