//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package screen

import (
	"os"
	"syscall"
	"unsafe"
)

// Size returns the columns and rows of the terminal f (0, 0 if unknown).
func Size(f *os.File) (cols, rows int) {
	var ws struct{ Row, Col, X, Y uint16 }
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws)))
	if errno != 0 {
		return 0, 0
	}
	return int(ws.Col), int(ws.Row)
}
