package gfz

import (
	"bytes"
	"fmt"

	"github.com/gfz-dev/gfz/cover"
	"github.com/gfz-dev/gfz/engine"
)

// writeProfile writes the coverage profile of the instrumented packages.
var writeProfile = cover.WriteProfile

// writeCoverProfile writes the go tool cover profile to path atomically.
func writeCoverProfile(path string) error {
	var buf bytes.Buffer
	if err := writeProfile(&buf); err != nil {
		return fmt.Errorf("-coverprofile %s: %w", path, err)
	}
	if err := engine.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("-coverprofile: %w", err)
	}
	return nil
}
