package engine

import (
	"bytes"
	"fmt"
	"strings"
	"time"

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

// shrinkNote is what a failure report says about the shrink of its input.
type shrinkNote struct {
	OrigLen, Len         int
	OrigChoices, Choices int // -1: unknown (no record)
	Execs                int64
	Took                 time.Duration
	Stopped              string // why it ended before its fixpoint
	NotReproducing       bool
	Original             string // path of the file keeping the original input ("" if not shrunk)
	OrigValue            string // the original input's values
	Where                string // "in -repro processes" for a death
}

func noteOf(r *shrinkResult) *shrinkNote {
	return &shrinkNote{OrigLen: r.OrigLen, Len: r.Len, OrigChoices: r.OrigChoices, Choices: r.Choices,
		Execs: r.Execs, Took: r.Took, Stopped: r.Stopped, NotReproducing: r.NotReproducing}
}

// summary is the one-line description of a shrink ("23 -> 5 bytes, ...").
func (n *shrinkNote) summary() string {
	if n.NotReproducing {
		if n.Stopped != "" {
			return "not shrunk: " + n.Stopped
		}
		return "not shrunk: the input did not fail the same way when run again (flaky?)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d -> %d bytes", n.OrigLen, n.Len)
	if n.OrigChoices >= 0 && n.Choices >= 0 {
		fmt.Fprintf(&b, ", %d -> %d choices", n.OrigChoices, n.Choices)
	}
	fmt.Fprintf(&b, ", %d executions%s in %v; ", n.Execs, n.Where, n.Took.Round(time.Millisecond))
	if n.Stopped != "" {
		b.WriteString("stopped early: " + n.Stopped)
	} else {
		b.WriteString("no smaller input fails the same way under the shrink passes")
	}
	return b.String()
}

// lines is what the "new failure" message adds about the shrink ("" for
// none).
func (n *shrinkNote) lines() string {
	if n == nil {
		return ""
	}
	s := "\n\tshrunk: " + n.summary()
	if n.Original != "" {
		s += "\n\toriginal: " + n.Original
	}
	return s
}

// write adds the shrink lines to a report.
func (n *shrinkNote) write(b *bytes.Buffer) {
	if n == nil {
		return
	}
	fmt.Fprintf(b, "shrunk: %s\n", n.summary())
	if n.Original != "" {
		fmt.Fprintf(b, "original input: %s\n", n.Original)
	}
}

// originalPath is where a shrunk failure keeps its original input: next
// to it, under a name that does not end in .input (so it is not taken for
// a failure of its own).
func originalPath(inputPath string) string {
	return strings.TrimSuffix(inputPath, ".input") + ".original"
}

// rewriteShrunk keeps rep's original input in originalPath, then replaces
// the saved input by the shrunk one and rewrites the report, each write
// atomic: at every moment the failure's files are a complete report and a
// failing input, and the original is never lost.
func (w *workdir) rewriteShrunk(rep *failureReport, path string, orig []byte) error {
	if rep.Shrink.Original != "" {
		if err := WriteFileAtomic(rep.Shrink.Original, w.encode(orig)); err != nil {
			return fmt.Errorf("engine: keep the original of a shrunk failure: %w", err)
		}
		if err := WriteFileAtomic(path, w.encode(rep.Input)); err != nil {
			return fmt.Errorf("engine: save shrunk failure: %w", err)
		}
	}
	if err := WriteFileAtomic(strings.TrimSuffix(path, ".input")+".txt", rep.format()); err != nil {
		return fmt.Errorf("engine: save shrunk failure report: %w", err)
	}
	return nil
}

// shrinkFailure shrinks a failure the loop has just saved (rep, at path)
// and, if it got smaller, rewrites its files. The candidate executions
// run like a recheck (published for the watchdog or the supervisor, not
// counted in Runs), with the record on and brief repeats off (a candidate
// failing another way must not mark that signature as reported). They
// leave nothing behind in the loop's state: the probe map is cleared
// whole before the next execution, as after every failure, and no
// coverage, queue or guide is touched.
func (f *fuzzer) shrinkFailure(rep *failureReport, path string) {
	b := shrinkBoundsOf(f.cfg.ShrinkRuns, f.cfg.ShrinkTime, DefaultShrinkRuns)
	if !b.enabled() || rep.Result != Failure {
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
	res := shrink(rep.Input, probe, b)
	rep.Shrink = noteOf(res)
	orig := rep.Input
	if res.Shrunk() {
		rep.Shrink.Original = originalPath(path)
		rep.Shrink.OrigValue = rep.Info.Value
		rep.Input = res.Input
		// The message and stack of the shrunk input's own failure.
		f.shrinkSeq++
		if out := f.execExt(res.Input, shrinkExt, false); out.Failure != nil && signatureOf(*out.Failure) == sig {
			fi := *out.Failure
			rep.Info.Message, rep.Info.Stack = fi.Message, fi.Stack
		}
		if d, ok := f.ex.(ValueDescriber); ok {
			if f.recorder != nil {
				f.recorder.SetRecording(false)
			}
			if v, ok := d.DescribeValues(res.Input, shrinkExt, sig); ok {
				rep.Info.Value = v
			}
		}
	}
	if err := f.wd.rewriteShrunk(rep, path, orig); err != nil {
		f.warnf("%v (the unshrunk failure is saved)", err)
	}
}
