package driver

import (
	"io"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFlagsDocumented: every flag of the fuzz binary is in docs/CLI.md.
func TestFlagsDocumented(t *testing.T) {
	testmod.FlagsDocumented(t, "## The fuzz binary", func(stderr io.Writer) int {
		_, code := parseArgs("v=1&mapbits=16&probes=10&targets=FuzzG", []string{"-h"}, io.Discard, stderr)
		return code
	})
}
