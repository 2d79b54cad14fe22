//go:build unix

package signature

import (
	"os"
	"strconv"
	"syscall"
)

// exitSignal names the signal that ended the process, if one did.
func exitSignal(ps *os.ProcessState) (string, bool) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return sigName(ws.Signal()), true
	}
	return "", false
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGSEGV: "SIGSEGV", syscall.SIGBUS: "SIGBUS", syscall.SIGABRT: "SIGABRT", syscall.SIGKILL: "SIGKILL",
	syscall.SIGILL: "SIGILL", syscall.SIGFPE: "SIGFPE", syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT",
	syscall.SIGQUIT: "SIGQUIT", syscall.SIGTRAP: "SIGTRAP", syscall.SIGPIPE: "SIGPIPE",
}

func sigName(sig syscall.Signal) string {
	if n, ok := signalNames[sig]; ok {
		return n
	}
	return "signal " + strconv.Itoa(int(sig))
}
