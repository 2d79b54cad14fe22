//go:build linux || darwin

package screen

import (
	"os"
	"syscall"
	"unsafe"
)

// Width returns the number of columns of the terminal f (0 if unknown).
func Width(f *os.File) int {
	var ws struct{ row, col, x, y uint16 }
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws))); errno != 0 {
		return 0
	}
	return int(ws.col)
}
