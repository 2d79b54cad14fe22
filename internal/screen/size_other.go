//go:build !(linux || darwin)

package screen

import "os"

// Width returns the number of columns of the terminal f (0: unknown).
func Width(f *os.File) int { return 0 }
