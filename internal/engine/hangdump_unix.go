//go:build unix

package engine

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/gfz-dev/gfz/internal/signature"
)

// dumpOnQuit makes a worker answer the supervisor's SIGQUIT (sent when an
// execution runs past the timeout) with the stacks of all its goroutines
// and exit. The Go runtime's own SIGQUIT dump cannot show a goroutine that
// is running on another thread than the one handling the signal ("stack
// unavailable"), which is often the hung fuzz function itself, so the
// hang's signature would lose its frames; runtime.Stack stops the world
// and shows every goroutine. The dump starts with the runtime's own first
// line, which the supervisor looks for. If the process is too stuck to run
// this goroutine, the supervisor's SIGKILL follows. The returned function
// stops the handling.
func dumpOnQuit() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGQUIT)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			fmt.Fprintf(os.Stderr, "SIGQUIT: quit\n\n%s", signature.TrimInstrumentation(allStacks()))
			os.Exit(2)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
