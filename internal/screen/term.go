package screen

import (
	"os"

	"golang.org/x/term"
)

// IsTerminal reports whether f is a terminal that can show the screen: a
// terminal (golang.org/x/term: not a pipe, a file or /dev/null), with TERM
// set and not "dumb".
func IsTerminal(f *os.File) bool {
	if t := os.Getenv("TERM"); t == "" || t == "dumb" {
		return false
	}
	return term.IsTerminal(int(f.Fd()))
}

// Width returns the number of columns of the terminal f (0 if unknown).
func Width(f *os.File) int {
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return w
}
