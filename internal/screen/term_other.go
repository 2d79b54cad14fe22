//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package screen

// Elsewhere the screen is not drawn: the status lines are printed instead.
func isTerminal(fd uintptr) bool { return false }

func width(fd uintptr) int { return 0 }
