package main

import (
	"testing"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestMain runs the tests with GOWORK=off: the modules they build under
// testdata/ are their own main modules, not members of gfz's workspace.
func TestMain(m *testing.M) { testmod.Main(m) }
