package engine

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// The per-input timeout: its calibration, the watchdog beside the fuzzing
// loop, and what a timeout saves.

// The calibrated per-input timeout (Timeout 0), see CalibratedTimeout.
const (
	calibrationFactor    = 20
	minCalibratedTimeout = time.Second
	maxCalibratedTimeout = 5 * time.Second
	// minDetectionTimeout is the floor of the supervisor's hang
	// detection (DetectionTimeout), which re-runs every new hang with
	// CalibratedTimeout before reporting it.
	minDetectionTimeout = 200 * time.Millisecond
)

// CalibratedTimeout is the per-input timeout used when none is given: 20
// times the slowest execution measured while the seeds and the corpus are
// replayed at start, at least 1s and at most 5s. Until that measurement
// is made, the cap applies. The factor leaves room for inputs slower than
// the seeds and for pauses that are not hangs (garbage collection, a
// loaded machine); the floor keeps such pauses of fast targets from being
// saved as hangs; the cap bounds what each recurrence of a known hang
// costs.
func CalibratedTimeout(slowest time.Duration) time.Duration {
	return min(max(calibrationFactor*slowest, minCalibratedTimeout), maxCalibratedTimeout)
}

// DetectionTimeout is the calibrated timeout after which a supervisor
// stops a worker's input as hung: CalibratedTimeout's rule with a floor of
// 200ms. Every stop costs a worker restart, and a target with a hang that
// its inputs hit often (a shallow infinite loop) spent most of a run
// waiting out recurrences of it: toml v0.2.0's FuzzGfz, zest, 60 s, ran
// 13,707 executions with the 1s floor, 69,741 with 200ms (26 and 109
// hangs; 2026-11-28). The floor can be lower than CalibratedTimeout's
// because a new hang is reported only when its input hangs again when
// re-run with CalibratedTimeout, and the watchdog counts the worker's CPU
// time, not a loaded machine's delays (proc.Watchdog): a slow input that
// finishes is an unconfirmed timeout, not a failure.
func DetectionTimeout(slowest time.Duration) time.Duration {
	return min(max(calibrationFactor*slowest, minDetectionTimeout), maxCalibratedTimeout)
}

// calibrationRule describes a calibrated timeout for stats and messages.
func calibrationRule(slowest time.Duration, execs int) string {
	return fmt.Sprintf("calibrated: %d x the slowest of %d start executions (%v), at least %v, at most %v",
		calibrationFactor, execs, slowest.Round(time.Microsecond), minCalibratedTimeout, maxCalibratedTimeout)
}

// exitProcess ends the process after a timeout; tests replace it.
var exitProcess = os.Exit

// setTimeout sets the per-input timeout (0: none) and its description.
func (f *fuzzer) setTimeout(d time.Duration, rule string) {
	f.timeout.Store(int64(d))
	f.timeoutRule.Store(&rule)
}

// calibrate ends the start measurements: in worker mode it publishes the
// slowest start execution for the supervisor; in a run with the
// calibrated timeout (Timeout 0) it sets the timeout from it.
func (f *fuzzer) calibrate() {
	if f.shm != nil {
		f.shm.store(offSlowest, uint64(max(f.slowest, 1)))
		return
	}
	if f.cfg.Timeout != 0 || f.calibrated == 0 {
		return
	}
	d := CalibratedTimeout(f.slowest)
	rule := calibrationRule(f.slowest, f.calibrated)
	f.setTimeout(d, rule)
	f.printf("gfz: per-input timeout %v (%s)\n", d, rule)
}

// watch runs beside the fuzzing loop: it turns ctx cancellation and the
// time budget into the stop flag, raises statusDue every status interval,
// and is the timeout watchdog.
func (f *fuzzer) watch(ctx context.Context, done <-chan struct{}) {
	period := min(50*time.Millisecond, f.cfg.StatusInterval)
	if f.cfg.Timeout > 0 {
		period = min(period, f.cfg.Timeout/8)
	}
	period = max(period, time.Millisecond)
	tick := time.NewTicker(period)
	defer tick.Stop()
	lastStatus, lastSync := f.start, f.start
	var seen uint64
	var seenAt time.Time
	ctxDone := ctx.Done()
	for {
		select {
		case <-done:
			return
		case <-ctxDone:
			f.stop.Store(true)
			ctxDone = nil
		case now := <-tick.C:
			if f.cfg.Time > 0 && now.Sub(f.start) >= f.cfg.Time {
				f.stop.Store(true)
			}
			if now.Sub(lastStatus) >= f.cfg.StatusInterval {
				lastStatus = now
				f.statusDue.Store(true)
			}
			if f.cfg.Sync && now.Sub(lastSync) >= syncEvery {
				lastSync = now
				f.syncDue.Store(true)
			}
			if f.shm != nil {
				// The supervisor watches for hung executions. If it died
				// (this process was re-parented), stop at once: everything
				// found is already on disk.
				if os.Getppid() != f.ppid {
					exitProcess(1)
				}
				continue
			}
			st := f.state.Load()
			if st&stInExec == 0 || st != seen {
				seen, seenAt = st, now
				continue
			}
			if to := time.Duration(f.timeout.Load()); to > 0 && now.Sub(seenAt) >= to && f.state.CompareAndSwap(st, st|stClaimed) {
				f.onTimeout(now.Sub(seenAt))
				close(f.wdDone)
				return
			}
		}
	}
}

// onTimeout handles a hung execution (the fuzzing goroutine is blocked in
// Exec and will not touch the fuzzer's state until wdDone is closed).
func (f *fuzzer) onTimeout(after time.Duration) {
	// Save the input the execution was given, extended with the same PRNG
	// bytes the executor appends, up to the cap: whatever prefix the hung
	// execution read, a replay of this input reads the same bytes.
	params := f.cur
	if g := f.curGuide.Load(); g != nil {
		params = g.snapshot() // a guided child: the bytes drawn so far
	}
	input := extendFor(f.wd.Codec, params, f.curExt, f.max)
	stacks := allStacks()
	info := FailureInfo{
		Kind:      signature.KindTimeout,
		Message:   fmt.Sprintf("execution %d ran for more than %v (timeout %v)", f.execs, after.Round(time.Millisecond), time.Duration(f.timeout.Load())),
		Stack:     signature.TrimInstrumentation(stacks),
		Signature: signature.Hang(stacks),
	}
	f.failing++
	rep := &workdir.Report{Target: f.cfg.Target, Result: Timeout.String(), Info: info, Signature: info.Signature, Input: input, Exec: f.execs}
	f.stamp(rep)
	path := ""
	if old, ok := f.known[info.Signature]; ok {
		path = old
		rep.Repro = reproCommand(f.wd.Failures, workdir.FailureName(rep.Signature), f.cfg.Target,
			reproLimits(info.Kind, time.Duration(f.timeout.Load()), 0, f.cfg.StackLimitMB))
	} else {
		var err error
		if path, _, err = f.recordFailure(rep); err != nil {
			f.warnf("%v", err)
		}
	}
	w := f.cfg.Status
	if w == nil {
		w = os.Stderr
	}
	f.outMu.Lock()
	fmt.Fprintf(w, "gfz: TIMEOUT: %s\n\tinput: %s\n", info.Message, path)
	w.Write(rep.Format())
	f.outMu.Unlock()
	if err := f.writeStats("timeout"); err != nil {
		f.warnf("%v", err)
	}
	f.printFinal()
	exitProcess(1)
}

// extendedInput is params extended with the PRNG bytes the executor
// appends for extension seed ext, up to max bytes: whatever prefix an
// execution of params read, a replay of the result reads the same bytes.
func extendedInput(params []byte, ext uint64, max int) []byte {
	src := param.New(params, ext)
	src.SetMax(max)
	src.SetRecording(false)
	return src.Bytes(max)
}

// allStacks returns the stacks of all goroutines.
func allStacks() string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}
