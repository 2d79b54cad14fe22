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
//
// Time is the child's, not the machine's, where the scheduler's statistics
// say what the child did (Linux: ReadUsage). An input is hung when it has
// run for Timeout of wall time and either it has used Timeout of CPU time
// (a busy loop) or it has spent most of that time neither running nor
// waiting to run (blocked: a deadlock, a sleep, a read that never returns).
// On a loaded machine a slow but finishing input waits for a CPU instead:
// its wall time grows, its CPU time does not reach Timeout, and it is not
// killed. A busy loop on a machine that gives the child a fifth of a CPU is
// then stopped after about five times Timeout of wall time. Where there are
// no statistics, wall time alone decides.
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

	// Usage, if set, reads the child's usage (ReadUsage when nil; tests
	// script it).
	Usage func(pid int) (Usage, bool)
	// The usage of the input running since baseFor, read at baseAt (the
	// first Tick after it had run baseAfter): only long inputs cost a
	// read.
	baseFor, baseAt time.Time
	base            Usage
	baseOK          bool
}

// baseAfter is how long an input runs before its usage is first read; the
// CPU time before that is counted as if spent (at most a tenth of Timeout,
// toward stopping it).
func (w *Watchdog) baseAfter() time.Duration { return w.Timeout / 10 }

func (w *Watchdog) usage(pid int) (Usage, bool) {
	if w.Usage != nil {
		return w.Usage(pid)
	}
	return ReadUsage(pid)
}

// hung tells whether the input running since since, for Timeout or more of
// wall time, is hung.
func (w *Watchdog) hung(pid int, now, since time.Time) bool {
	if !w.baseOK || !w.baseFor.Equal(since) {
		return true // no reading of this input's usage: wall time decides
	}
	u, ok := w.usage(pid)
	if !ok {
		return true
	}
	cpu, wait := u.CPU-w.base.CPU, u.Wait-w.base.Wait
	window := now.Sub(w.baseAt)
	if w.baseAt.Sub(since)+cpu >= w.Timeout {
		return true // a busy loop: the input has had Timeout of CPU
	}
	return cpu+wait < window/2 // blocked most of the time
}

// Tick looks at the child p at now: running tells whether it is executing
// an input, started at since. It returns whether it sent a signal.
func (w *Watchdog) Tick(p *os.Process, now time.Time, running bool, since time.Time) bool {
	if w.Kill == "" && w.Timeout > 0 && running {
		ran := now.Sub(since)
		if ran >= w.baseAfter() && !w.baseFor.Equal(since) {
			w.baseFor, w.baseAt = since, now
			w.base, w.baseOK = w.usage(p.Pid)
		}
		if ran >= w.Timeout && w.hung(p.Pid, now, since) {
			w.Kill, w.KillAt, w.RanFor = signature.KindTimeout, now, ran
			_ = p.Signal(syscall.SIGQUIT)
			return true
		}
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
