package driver

import (
	"io"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFlagsDocumented: every flag of the fuzz binary is in docs/CLI.md.
func TestFlagsDocumented(t *testing.T) {
	var errb strings.Builder
	if _, code := parseArgs("v=1&mapbits=16&probes=10&targets=FuzzG", []string{"-h"}, io.Discard, &errb); code != 0 {
		t.Fatalf("-h: exit %d\n%s", code, errb.String())
	}
	testmod.FlagsDocumented(t, errb.String(), "## The fuzz binary")
}
