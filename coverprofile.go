package gfz

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/gfz-dev/gfz/engine"
)

// writeProfile writes the coverage profile of the instrumented packages.
//
// TODO(cover): set to cover.WriteProfile once package cover lands.
var writeProfile = func(io.Writer) error {
	return errors.New("coverage profiles are not available in this build of gfz yet")
}

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
