//go:build !unix

package signature

import "os"

// exitSignal needs a Unix system's wait status: never.
func exitSignal(ps *os.ProcessState) (string, bool) { return "", false }
