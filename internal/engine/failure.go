package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// Recording failures: deduplication by signature, the claim of a new
// failure's files, and its report.

// failure records a failing execution, saving it if its signature is new.
func (f *fuzzer) failure(out Outcome) {
	info := FailureInfo{Kind: strings.ToLower(out.Result.String())}
	if out.Failure != nil {
		info = *out.Failure
	}
	sig := signatureOf(info)
	if _, ok := f.known[sig]; ok || f.flood.Capped(sig) {
		return
	}
	if f.shm != nil {
		// Another worker (or the supervisor) may have saved it already.
		if in, ok := f.wd.FailureSaved(sig); ok {
			f.known[sig] = in
			return
		}
	}
	if capped, note := f.flood.Check(sig, f.known); capped {
		if note != "" {
			f.printf("gfz: %s\n", note)
		}
		return
	}
	rep := &workdir.Report{
		Target: f.cfg.Target, Result: out.Result.String(), Info: info, Signature: sig,
		Input: append([]byte{}, out.Consumed...), Exec: f.execs,
	}
	f.stamp(rep)
	params, ext := f.cur, f.curExt
	path, claimed, err := f.recordFailure(rep)
	if f.shm != nil {
		f.shm.store(offFailing, uint64(f.failing))
	}
	if err != nil {
		// Printed, so that a failure found on a full disk is not lost.
		f.printf("gfz: new failure (%s), NOT SAVED: %v\n%s", oneLine(info.Kind), err, f.wd.Unsaved(rep))
		f.err = err
		return
	}
	if !claimed {
		return // another worker saved it first and announces it
	}
	if d, ok := f.ex.(ValueDescriber); ok && out.Result == Failure {
		// Saved first: the re-run that describes the values runs the
		// target again, which may hang (a target that failed holding a
		// lock), so it is watched as an execution and cannot lose the
		// failure. It writes the probe map; the next execution clears
		// all of it, as after every failure.
		var v string
		var described bool
		f.watched(params, ext, func() { v, described = d.DescribeValues(params, ext, sig) })
		if f.stopped {
			return // the re-run hung: the watchdog saved that; the failure is saved without its values
		}
		if described {
			rep.Info.Value = v
			rep.Info.Dictionary = describedDictionary(f.ex)
			if err := f.wd.RewriteReport(rep, path); err != nil {
				f.warnf("%v (the failure is saved, without its values)", err)
			}
		}
	}
	// Saved as found first: a candidate that crashes or hangs the process
	// while shrinking cannot lose it.
	f.shrinkFailure(rep, path)
	shrunk := rep.Shrink.Lines()
	headline := workdir.Headline(rep.Info.Message)
	if headline == "" {
		headline = "(no message: the target failed without logging one, as t.Fail does)"
	}
	f.printf("gfz: new failure (%s): %s\n\tinput: %s%s\n\treport: %s\n\treproduce: %s\n",
		oneLine(info.Kind), headline, path, shrunk, strings.TrimSuffix(path, ".input")+".txt", rep.Repro)
	if f.cfg.StopOnFailure {
		f.stopped = true
	}
}

// stamp fills in when and by whom a failure was found. A worker knows its
// own execution count exactly and the other workers' only as of the
// supervisor's last tick (one word, offOthers), so it reports the total
// (exact with one worker, an estimate with several) and names its own
// count.
func (f *fuzzer) stamp(rep *workdir.Report) {
	now := time.Now()
	rep.Found, rep.Into = now, now.Sub(f.start)
	if f.shm == nil {
		return
	}
	if t := f.shm.load(offRunStart); t != 0 {
		rep.Into = now.Sub(time.Unix(0, int64(t)))
	}
	// Execution numbers count from 0, as in the supervisor's messages;
	// the totals count executions (so the failing one is included).
	id, n := f.shm.load(offWorkerID), max(f.execs-1, 0)
	rep.FoundBy = fmt.Sprintf("worker %d, in its execution %d", id, n)
	total := int64(f.shm.load(offOthers)) + f.execs
	rep.Exec = total
	rep.ExecNote = fmt.Sprintf("%d (over all workers, as of the supervisor's last count; worker %d at its execution %d)", total, id, n)
}

// recordFailure saves a new unique failure and marks its signature known.
// claimed is false when another process saved it first.
func (f *fuzzer) recordFailure(rep *workdir.Report) (path string, claimed bool, err error) {
	rep.Repro = reproCommand(f.wd.Failures, workdir.FailureName(rep.Signature), f.cfg.Target,
		reproLimits(rep.Info.Kind, time.Duration(f.timeout.Load()), 0, f.cfg.StackLimitMB))
	path, claimed, err = f.wd.SaveFailure(rep)
	if err != nil {
		return "", false, err
	}
	f.known[rep.Signature] = path
	if claimed {
		f.newFailures = append(f.newFailures, path)
	}
	return path, claimed, nil
}

// signatureOf is the deduplication key of a failure.
func signatureOf(info FailureInfo) string {
	if info.Signature != "" {
		return info.Signature
	}
	return info.Kind + "\n" + info.Message
}

// reproCommand is the command that re-runs a saved failure, with absolute
// paths (dir is the work directory's, already absolute), and limits, the
// flags its kind of failure needs to repeat (reproLimits).
func reproCommand(dir, name, target string, limits []string) string {
	exe := os.Args[0]
	if p, err := os.Executable(); err == nil {
		exe = p
	} else if p, err := filepath.Abs(exe); err == nil && strings.ContainsRune(exe, os.PathSeparator) {
		exe = p
	}
	cmd := workdir.ShellQuote(exe)
	for _, l := range limits {
		cmd += " " + workdir.ShellQuote(l)
	}
	cmd += " -repro " + workdir.ShellQuote(filepath.Join(dir, name+".input"))
	if target != "" {
		cmd += " " + workdir.ShellQuote(target)
	}
	return cmd
}

// reproLimits are the flags with which -repro fails the way a failure of
// kind did: the per-input timeout it ran past (-repro's own default is 10
// s, or the -timeout given to it: a calibrated 200 ms hang replayed as
// VALID), the memory limit it passed, the stack limit it overflowed.
func reproLimits(kind string, timeout time.Duration, rssMB, stackMB int) []string {
	switch {
	case kind == signature.KindTimeout && timeout > 0:
		return []string{"-timeout", timeout.String()}
	case kind == signature.KindOutOfMemory && rssMB > 0:
		return []string{"-rss_limit_mb", strconv.Itoa(rssMB)}
	case kind == signature.KindStackOverflow && stackMB > 0:
		return []string{"-stack_limit_mb", strconv.Itoa(stackMB)}
	}
	return nil
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }
