//go:build unix

package engine

import (
	"context"
	"strings"
	"time"

	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Shrinking the failures that kill a worker (exit, crash, hang, memory):
// the supervisor runs each candidate in a new -repro process
// (SupervisorConfig.Probe) and compares the signature of its death.

// A hang's signature is that of its loop (supervisor.mergeHang: the frames
// the worker's dump and the re-run's share), while one dump is interrupted
// wherever the loop happens to be: a candidate, or the describing re-run,
// that hangs in the same loop interrupted elsewhere has another
// single-dump signature. For a hang, a death is the same when it is a
// timeout whose stacks run through the run's loop of that signature
// (signature.Loop.Holds); other deaths compare by signature.

// shrinkDeath shrinks a failure that killed a worker, saved at path, and
// rewrites its files if it got smaller (the other workers are watched
// meanwhile: supervisor.attend).
// rerun is what describing the input found (nil: not described): when its
// re-run of the same input died another way (a hang in a loop spread over
// several functions is interrupted in another one), shrinking would start
// by running it once more to learn the same thing, which for a hang costs
// the timeout, so the failure is left as found at once.
func (s *supervisor) shrinkDeath(rep *workdir.Report, path string, rerun *Rerun) {
	b := shrinkBoundsOf(s.cfg.ShrinkRuns, s.cfg.ShrinkTime, DefaultDeathShrinkRuns)
	if !b.enabled() || s.cfg.Probe == nil {
		return
	}
	loop, isLoop := s.loopOf(rep.Signature)
	// same tells whether a death (its signature and output) is the failure.
	same := func(sig, trace string) bool {
		return sig == rep.Signature || isLoop && trace != "" && strings.HasPrefix(sig, signature.KindTimeout) && loop.Holds(trace)
	}
	if rerun != nil && rerun.Signature != "" && !same(rerun.Signature, rerun.Trace) {
		rep.Shrink = &workdir.ShrinkNote{NotReproducing: true, Where: " (each a -repro process)"}
		if err := s.wd.RewriteShrunk(rep, path, rep.Input); err != nil {
			s.errorf("%v (the unshrunk failure is saved)", err)
		}
		return
	}
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	// The run's time budget bounds shrinking too: a shrink started near
	// the end of a -time run must not extend it by up to ShrinkTime (the
	// failure is saved as found; what was shrunk so far is kept).
	b.stop = func() bool { return ctx.Err() != nil || s.cfg.Time > 0 && time.Since(s.start) >= s.cfg.Time }
	to := s.confirmTimeout
	if to <= 0 {
		to = maxCalibratedTimeout
	}
	probe := func(cand []byte) (bool, []byte, *param.Record) {
		c, cancel := context.WithTimeout(ctx, to+proc.QuitGrace+10*time.Second)
		sig, trace, consumed, err := s.cfg.Probe(c, cand, to)
		cancel()
		if err != nil || !same(sig, trace) {
			return false, nil, nil
		}
		switch {
		case consumed < 0:
			return true, cand, nil
		case consumed <= len(cand):
			return true, cand[:consumed], nil
		default:
			// It read PRNG extension bytes (-repro extends with seed 0).
			return true, extendedInput(cand, 0, consumed), nil
		}
	}
	res := shrinkWith(rep.Input, probe, b, argShrinkerOf(s.wd.Codec))
	rep.Shrink = noteOf(res)
	rep.Shrink.Where = " (each a -repro process)"
	orig := rep.Input
	if res.Shrunk() {
		rep.Shrink.Original = workdir.OriginalPath(path)
		rep.Shrink.OrigValue = rep.Info.Value
		rep.Input = res.Input
		rep.Info.Value = shrunkValueUnknown
		if s.cfg.Describe != nil {
			if d, err := s.describe(res.Input); err == nil {
				rep.Info.Value, rep.Info.Dictionary = d.Values, d.Dictionary
			}
		}
	}
	if err := s.wd.RewriteShrunk(rep, path, orig); err != nil {
		s.errorf("%v (the unshrunk failure is saved)", err)
	}
}
