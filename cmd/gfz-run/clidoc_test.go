package main

import (
	"context"
	"io"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFlagsDocumented: every flag of gfz-run is in docs/CLI.md.
func TestFlagsDocumented(t *testing.T) {
	testmod.FlagsDocumented(t, "## gfz-run", func(stderr io.Writer) int {
		return run(context.Background(), []string{"-h"}, io.Discard, stderr)
	})
}
