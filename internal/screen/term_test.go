package screen

import (
	"os"
	"testing"
)

// TestPseudoTerminal: the master side of a pseudo-terminal is a terminal
// (the ioctl check answers yes where there is no /dev/tty, as in CI).
func TestPseudoTerminal(t *testing.T) {
	t.Setenv("TERM", "xterm")
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer pty.Close()
	if !IsTerminal(pty) {
		t.Errorf("/dev/ptmx: IsTerminal = false")
	}
	t.Setenv("TERM", "dumb")
	if IsTerminal(pty) {
		t.Errorf("TERM=dumb: IsTerminal = true")
	}
}
