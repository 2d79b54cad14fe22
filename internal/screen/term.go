package screen

import "os"

// IsTerminal reports whether f is a terminal that can show the screen: a
// terminal (not a pipe, a file or /dev/null: the terminal-attributes ioctl
// succeeds on it), with TERM set and not "dumb".
func IsTerminal(f *os.File) bool {
	if t := os.Getenv("TERM"); t == "" || t == "dumb" {
		return false
	}
	return isTerminal(f.Fd())
}

// Width returns the number of columns of the terminal f (0 if unknown).
func Width(f *os.File) int {
	return width(f.Fd())
}
