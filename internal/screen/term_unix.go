//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package screen

import (
	"syscall"
	"unsafe"
)

// isTerminal asks the kernel for the terminal attributes of fd, which only
// a terminal has.
func isTerminal(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlGetTermios, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

// width asks the kernel for the window size of the terminal fd.
func width(fd uintptr) int {
	var ws struct{ Row, Col, X, Y uint16 }
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws)))
	if errno != 0 {
		return 0
	}
	return int(ws.Col)
}
