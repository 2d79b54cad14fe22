//go:build !unix

package engine

// dumpOnQuit: SIGQUIT needs a Unix system (see the Unix version).
func dumpOnQuit() (stop func()) { return func() {} }
