//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package screen

import "syscall"

const ioctlGetTermios = syscall.TIOCGETA
