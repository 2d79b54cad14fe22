package screen

import "syscall"

const ioctlGetTermios = syscall.TCGETS
