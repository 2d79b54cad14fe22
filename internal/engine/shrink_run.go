package engine

import (
	"time"

	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Shrinking in the fuzzing loop and recording what it did.

// NoShrink, as Config.ShrinkRuns or Config.ShrinkTime (or the supervisor's),
// turns shrinking off.
const NoShrink = -1

// DumpOnQuit makes the process answer SIGQUIT as a worker does: the stacks
// of all goroutines (runtime.Stack, which shows a hung goroutine the Go
// runtime's own dump may not), then exit status 2. A -repro child calls it
// so that a hang it is stopped for gets the same signature as in a worker:
// the supervisor shrinks hangs by comparing the two. The returned function
// stops the handling.
func DumpOnQuit() (stop func()) { return dumpOnQuit() }

// shrinkBoundsOf turns configured bounds (0: the default, negative: off)
// into shrinkBounds.
func shrinkBoundsOf(runs int64, d time.Duration, defRuns int64) shrinkBounds {
	b := shrinkBounds{Runs: runs, Time: d}
	if runs == 0 {
		b.Runs = defRuns
	}
	if d == 0 {
		b.Time = DefaultShrinkTime
	}
	if runs < 0 || d < 0 {
		b.Runs, b.Time = 0, 0
	}
	return b
}

func noteOf(r *shrinkResult) *workdir.ShrinkNote {
	return &workdir.ShrinkNote{OrigLen: r.OrigLen, Len: r.Len, OrigChoices: r.OrigChoices, Choices: r.Choices,
		Execs: r.Execs, Took: r.Took, Stopped: r.Stopped, NotReproducing: r.NotReproducing, Changed: r.Shrunk()}
}

// shrunkValueUnknown is a shrunk failure's value when running the shrunk
// input once more did not describe it (it did not fail the same way
// again, or describing it failed): never the original's values, which the
// report shows under their own heading.
const shrunkValueUnknown = "(the values of the shrunk input could not be obtained; it is in the .input file, the original's values are below)"

// shrinkFailure shrinks a failure the loop has just saved (rep, at path)
// and, if it got smaller, rewrites its files. The candidate executions
// run like a recheck (published for the watchdog or the supervisor, not
// counted in Runs), with the record on and brief repeats off (a candidate
// failing another way must not mark that signature as reported). They
// leave nothing behind in the loop's state: the probe map is cleared
// whole before the next execution, as after every failure, and no
// coverage, queue or guide is touched.
func (f *fuzzer) shrinkFailure(rep *workdir.Report, path string) {
	b := shrinkBoundsOf(f.cfg.ShrinkRuns, f.cfg.ShrinkTime, DefaultShrinkRuns)
	if !b.enabled() || rep.Result != Failure.String() {
		return
	}
	b.stop = func() bool { return f.stop.Load() || f.stopped }
	if br, ok := f.ex.(BriefRepeater); ok {
		br.SetBriefRepeats(false)
		defer br.SetBriefRepeats(true)
	}
	if f.recorder != nil {
		f.recorder.SetRecording(true)
		defer f.recorder.SetRecording(false)
	}
	cur, curExt := f.cur, f.curExt
	defer func() { f.cur, f.curExt = cur, curExt }()
	sig := rep.Signature
	defer func() { f.shrinkSeq = 0 }()
	probe := func(cand []byte) (bool, []byte, *param.Record) {
		f.shrinkSeq++
		out := f.execExt(cand, shrinkExt, false)
		same := out.Result == Failure && out.Failure != nil && signatureOf(*out.Failure) == sig
		return same, out.Consumed, out.Record
	}
	res := shrinkWith(rep.Input, probe, b, argShrinkerOf(f.wd.Codec))
	rep.Shrink = noteOf(res)
	orig := rep.Input
	if res.Shrunk() {
		rep.Shrink.Original = workdir.OriginalPath(path)
		rep.Shrink.OrigValue = rep.Info.Value
		rep.Input = res.Input
		// The message, stack and values of the shrunk input's own
		// failure: the report describes the input it holds, never the
		// original's values (those are the "original value" section).
		rep.Info.Value = shrunkValueUnknown
		f.shrinkSeq++
		if out := f.execExt(res.Input, shrinkExt, false); out.Failure != nil && signatureOf(*out.Failure) == sig {
			fi := *out.Failure
			rep.Info.Message, rep.Info.Stack = fi.Message, fi.Stack
			if fi.Value != "" {
				rep.Info.Value = fi.Value
			}
		}
		if d, ok := f.ex.(ValueDescriber); ok {
			if f.recorder != nil {
				f.recorder.SetRecording(false)
			}
			var v string
			var ok bool
			f.shrinkSeq++
			f.watched(res.Input, shrinkExt, func() { v, ok = d.DescribeValues(res.Input, shrinkExt, sig) })
			if ok {
				rep.Info.Value = v
				rep.Info.Dictionary = describedDictionary(f.ex)
			}
		}
	}
	if err := f.wd.RewriteShrunk(rep, path, orig); err != nil {
		f.warnf("%v (the unshrunk failure is saved)", err)
	}
}
