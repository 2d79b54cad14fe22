package main

import (
	"context"
	"io"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFlagsDocumented: every flag of gfz-build is in docs/CLI.md.
func TestFlagsDocumented(t *testing.T) {
	testmod.FlagsDocumented(t, "## gfz-build", func(stderr io.Writer) int {
		return run(context.Background(), []string{"-h"}, io.Discard, stderr)
	})
}
