package driver

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
)

// prober returns the engine's SupervisorConfig.Probe: it runs one input in
// a -repro child and returns the signature of the death it ended in ("" if
// the child did not die running it), the end of its output when it died
// (a hang's stacks) and the bytes it had read. A child
// stopped for a timeout or for memory counts as dead even if it reported
// the end of the input afterwards (-repro turns SIGQUIT into a TIMEOUT
// result after printing the stacks).
func (c *config) prober(exe string) func(ctx context.Context, input []byte, timeout time.Duration) (string, string, int, error) {
	return func(ctx context.Context, input []byte, timeout time.Duration) (string, string, int, error) {
		f, err := os.CreateTemp("", "gfz-shrink-*.input")
		if err != nil {
			return "", "", -1, fmt.Errorf("shrink: %w", err)
		}
		defer os.Remove(f.Name())
		_, err = f.Write(c.encodeInput(input))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", "", -1, fmt.Errorf("shrink: %w", err)
		}
		if timeout <= 0 {
			timeout = reproDefaultTimeout
		}
		// In libFuzzer mode the child gets the run's -dict as the
		// describer's and the workers do: without it a death reached
		// through a dictionary token would not recur in any candidate.
		st, err := runChild(exe, childOptions{
			args: append(c.childArgsBase(), "-repro", f.Name(), c.run.Target), stdout: io.Discard,
			timeout: timeout, rssLimitMB: c.rssLimitMB, ctx: ctx,
		})
		if err != nil {
			return "", "", -1, fmt.Errorf("shrink: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return "", "", -1, fmt.Errorf("shrink: %w", err)
		}
		if st.input < 0 {
			return "", "", -1, fmt.Errorf("shrink: the process ended (%s) before running the input", st.ps)
		}
		if st.kill == "" && (st.doneSeen || !st.running) {
			return "", "", st.read, nil // it ran the input to its end: no death
		}
		return signature.DeathSignature(st.tail, st.ps, st.kill), st.tail, st.read, nil
	}
}
