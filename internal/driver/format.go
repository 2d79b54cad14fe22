package driver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gfz-dev/gfz/internal/formatreg"
	gfzrt "github.com/gfz-dev/gfz/runtime"
)

// -format: the format generator a native target's run mixes children from
// (docs/ENGINE.md, "Native targets", "Children from a format generator").

// FormatAuto and FormatNone are -format's values besides the formats'
// names: auto (the default) chooses the format from the seeds, none turns
// the mix off.
const (
	FormatAuto = "auto"
	FormatNone = "none"
)

// FormatMixer is implemented by a native target: MixFormat chooses, from
// format (-format's value) and the run's seeds (parameter sequences),
// the format generator whose documents the engine mixes into the run, and
// returns the line to print about it ("" for none).
type FormatMixer interface {
	MixFormat(format string, seeds [][]byte) string
}

// checkFormat checks -format's value.
func checkFormat(f string) error {
	if f == FormatAuto || f == FormatNone || formatreg.Known(f) {
		return nil
	}
	return fmt.Errorf("-format %q: want auto, none or one of %s", f, strings.Join(formatreg.Names, ", "))
}

// mixFormat sets up the format mix of target t from the seeds and prints
// what it chose, in the first incarnation of worker 0 only (every worker
// chooses the same). A gfz target (generators) has no mix: -format given
// explicitly gets a note.
func (c *config) mixFormat(t Target, seeds [][]byte) {
	first := c.worker == nil || c.worker.ID == 0 && c.worker.Incarnation == 0
	fm, ok := t.(FormatMixer)
	if !ok {
		if first && c.format != FormatAuto {
			fmt.Fprintf(c.stderr, "gfz: %s: -format %s ignored: only native targets (f.Fuzz with a []byte or string argument) get children from a format generator\n", c.run.Target, c.format)
		}
		return
	}
	// The sniffers run the seeds through parsers (encoding/json,
	// go/parser, ...), which -cover may instrument: what they cover is not
	// the target's, and is taken back out of the cumulative block marks
	// that coverage reports read.
	restore := saveBlocks()
	msg := fm.MixFormat(c.format, seeds)
	restore()
	if msg != "" && first {
		fmt.Fprintf(c.stderr, "gfz: %s: %s\n", c.run.Target, msg)
	}
}

// saveBlocks copies the cumulative block marks of every instrumented
// package and returns the function that puts them back.
func saveBlocks() (restore func()) {
	pkgs := gfzrt.Packages()
	saved := make([][]uint8, len(pkgs))
	for i, p := range pkgs {
		saved[i] = slices.Clone(p.Blocks)
	}
	return func() {
		for i, p := range pkgs {
			copy(p.Blocks, saved[i])
		}
	}
}
