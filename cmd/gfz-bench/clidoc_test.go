package main

import (
	"io"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFlagsDocumented: every flag of gfz-bench is in docs/CLI.md.
func TestFlagsDocumented(t *testing.T) {
	var errb strings.Builder
	if code := run([]string{"-h"}, io.Discard, &errb); code != 0 {
		t.Fatalf("-h: exit %d\n%s", code, errb.String())
	}
	testmod.FlagsDocumented(t, errb.String(), "## gfz-bench")
}
