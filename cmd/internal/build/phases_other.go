//go:build !unix

package build

import "time"

// cpuTime is not measured here: the phases show wall time only.
func cpuTime() time.Duration { return 0 }
