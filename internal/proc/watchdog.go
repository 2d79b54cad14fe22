package proc

import (
	"os"
	"syscall"
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
)

// A Watchdog stops a child that runs fuzz inputs when one input runs too
// long or the child takes too much memory. It is driven by its owner's
// clock: Tick, called every few milliseconds, looks at the child and sends
// the signals. An input running for Timeout gets SIGQUIT (the Go runtime
// then prints every goroutine's stack, kept for the report, and exits) and
// SIGKILL QuitGrace later if the child still lives; a child whose resident
// memory exceeds RSSLimit gets SIGKILL at once. The supervisor watches
// each worker with one, the -repro parent its child.
type Watchdog struct {
	Timeout  time.Duration // per input (0: none)
	RSSLimit int64         // bytes (0: none)

	// Kill is why the child is being stopped ("" while it is not):
	// signature.KindTimeout, signature.KindOutOfMemory, or a reason its owner set with Stop.
	Kill   string
	KillAt time.Time
	// RanFor is how long the input had run when the timeout stopped it.
	RanFor time.Duration
	// RSS is the child's resident memory at the last Tick (bytes; 0:
	// unknown, as where there is no /proc).
	RSS int64
}

// Tick looks at the child p at now: running tells whether it is executing
// an input, started at since. It returns whether it sent a signal.
func (w *Watchdog) Tick(p *os.Process, now time.Time, running bool, since time.Time) bool {
	if w.Kill == "" && w.Timeout > 0 && running && now.Sub(since) >= w.Timeout {
		w.Kill, w.KillAt, w.RanFor = signature.KindTimeout, now, now.Sub(since)
		_ = p.Signal(syscall.SIGQUIT)
		return true
	}
	if rss := RSS(p.Pid); rss > 0 {
		w.RSS = rss
		if w.Kill == "" && w.RSSLimit > 0 && rss > w.RSSLimit {
			w.Kill, w.KillAt = signature.KindOutOfMemory, now
			_ = p.Kill()
			return true
		}
	}
	if w.Kill != "" && now.Sub(w.KillAt) >= QuitGrace {
		_ = p.Kill()
		return true
	}
	return false
}

// Stop kills the child now for why (if nothing stopped it before, why
// becomes Kill).
func (w *Watchdog) Stop(p *os.Process, now time.Time, why string) {
	if w.Kill == "" {
		w.Kill, w.KillAt = why, now
	}
	_ = p.Kill()
}

// Reset forgets a stop, for the next child.
func (w *Watchdog) Reset() { w.Kill, w.KillAt, w.RanFor, w.RSS = "", time.Time{}, 0, 0 }
