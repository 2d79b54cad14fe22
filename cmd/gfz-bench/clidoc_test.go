package main

import (
	"io"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFlagsDocumented: every flag of gfz-bench is in docs/CLI.md.
func TestFlagsDocumented(t *testing.T) {
	testmod.FlagsDocumented(t, "## gfz-bench", func(stderr io.Writer) int {
		return run([]string{"-h"}, io.Discard, stderr)
	})
}
