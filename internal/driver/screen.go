package driver

import (
	"io"
	"os"

	"github.com/gfz-dev/gfz/internal/screen"
)

// outputs returns the writers of the supervisor's status and of the
// workers' standard output: when stderr is a terminal, streams of a live
// status screen (package screen), the workers' output included when it
// goes to the same terminal (so that it scrolls above the screen rather
// than through it); otherwise stderr and stdout as they are.
func (c *config) outputs() (status, stdout io.Writer) {
	f, ok := c.stderr.(*os.File)
	if !ok || !screen.IsTerminal(f) {
		return c.stderr, c.stdout
	}
	s := screen.New(f, c.run.Target, func() int { return screen.Width(f) })
	stdout = c.stdout
	if o, ok := c.stdout.(*os.File); ok && screen.IsTerminal(o) {
		stdout = s.Stream()
	}
	return s.Stream(), stdout
}
