// Package cliflag holds the flag types shared by gfz's command lines (the
// fuzz binary and gfz-run), so that both accept and refuse the same
// values with the same messages.
package cliflag

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Duration is the value of a -time or -timeout flag: a duration with a
// unit ("90s", "1m30s", "500ms") or 0, and "auto" when Auto is set. A bare
// number other than 0 is refused with a message that suggests the unit,
// instead of the flag package's "parse error".
type Duration struct {
	D      time.Duration
	Auto   bool // "auto" is accepted
	IsAuto bool // the value is "auto"
}

// String returns the value as it would be given on a command line.
func (f *Duration) String() string {
	if f == nil {
		return ""
	}
	if f.IsAuto {
		return "auto"
	}
	return f.D.String()
}

// Set parses s.
func (f *Duration) Set(s string) error {
	if f.Auto && s == "auto" {
		f.D, f.IsAuto = 0, true
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return fmt.Errorf("a duration needs a unit: write %ss (or %sms, %sm)", s, s, s)
		}
		return errors.New("not a duration: write a number with a unit, such as 10s, 500ms or 1m30s")
	}
	if d < 0 {
		return errors.New("must not be negative")
	}
	f.D, f.IsAuto = d, false
	return nil
}
