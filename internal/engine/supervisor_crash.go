//go:build unix

package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// What a worker died of: classifying its death, its signature and the
// report the supervisor saves.

// crash records the failure of a worker that died while running the
// engine.
func (s *supervisor) crash(sl *slot, ps *os.ProcessState) {
	s.crashes++
	cur, ext, n, _ := sl.shm.current()
	kind, stack, framed := signature.Classify(sl.tail.String(), ps, sl.Kill)
	if s.cfg.StopOnFailure && s.foundFirst() {
		// A worker saved a failure (and stops) before this death: that
		// failure is the run's first, which libFuzzer's command line
		// reports; this death, often a hang that took the timeout to
		// detect, came after it.
		s.printf("gfz: worker %d died (%s) after the run's first failure: not reported (the run stops at its first failure)\n", sl.id, oneLine(kind))
		s.stop("failure")
		return
	}
	switch kind {
	case signature.KindTimeout:
		s.timeouts++
	case signature.KindOutOfMemory:
		s.ooms++
	}
	sig := signature.OfDeath(kind, stack, framed)
	unplaced := false // a hang at a point of no known loop whose signature a loop of the run has
	if kind == signature.KindTimeout {
		if l, ok := s.hangPoints[signature.HangPoint(stack)]; ok {
			sig = l.Sig // a hang already seen at this point of its loop
		} else {
			_, unplaced = s.loopOf(sig) // a hang at a new point with a loop's signature may be in another loop through the same helper chain (re-run to tell)
		}
	}
	if !unplaced && s.knownFailure(sig) {
		if kind != signature.KindOutOfMemory { // (a worker's memory may have grown over many inputs)
			s.rememberKiller(cur)
		}
		return
	}
	if capped, note := s.flood.Check(sig, s.known); capped {
		if note != "" {
			s.printf("gfz: %s\n", note)
		}
		return
	}
	res := Failure
	msg := fmt.Sprintf("worker %d died (%s) in its execution %d", sl.id, describeExit(ps, sl.Kill), n)
	if kind == signature.KindTimeout {
		res = Timeout
		msg = fmt.Sprintf("worker %d: execution %d ran for more than %v", sl.id, n, s.timeout)
	}
	if !framed && strings.HasPrefix(kind, "exit status ") {
		// os.Exit or log.Fatal: no stack; what the target printed last
		// says why (log.Fatal's message), which the report kept nowhere.
		if last := lastLines(sl.tail.String(), 5); last != "" {
			msg += "; the target's last lines on stderr:\n" + last
		}
	}
	if kind == signature.KindStackOverflow && s.cfg.StackLimitMB > 0 {
		msg += fmt.Sprintf("; goroutine stacks are limited to %d MiB in fuzz workers (-stack_limit_mb %d; raise it for a target that recurses this deep legitimately)", s.cfg.StackLimitMB, s.cfg.StackLimitMB)
	}
	if kind == signature.KindOutOfMemory && sl.Kill == signature.KindOutOfMemory {
		msg = fmt.Sprintf("worker %d: resident memory %d MiB exceeded -rss_limit_mb %d in execution %d", sl.id, sl.RSS>>20, s.cfg.RSSLimitMB, n)
	}
	input := extendFor(s.wd.Codec, cur, ext, s.max)
	info := FailureInfo{Kind: kind, Message: msg, Stack: signature.TrimInstrumentation(stack), Signature: sig}
	confirmed := true
	var rerunErr error // why the input could not be re-run (confirmed is then false)
	var rerun *Rerun   // what describing the input found, if it could
	if s.cfg.Describe != nil {
		d, err := s.describe(input)
		if err != nil {
			info.Value = fmt.Sprintf("(the generated values could not be obtained: %v; the input is saved extended to %d bytes)", err, len(input))
			if kind == signature.KindTimeout || kind == signature.KindOutOfMemory {
				// Only a re-run confirms these (a stop, a loaded machine, a
				// worker's grown memory): without one the input is kept
				// apart, not reported (nor copied by -regress).
				confirmed, rerunErr = false, err
			}
		} else {
			info.Value, info.Dictionary = d.Values, d.Dictionary
			if d.Consumed >= 0 && d.Consumed <= len(input) && (d.Signature == "" || d.Signature == sig || d.TimedOut) {
				// Trimmed to the bytes the re-run read when it ran the
				// input to its end, died as the worker did, or hung: the
				// rest was never read. A re-run that died otherwise (cut
				// short by a Ctrl-C, or failing another way) may have
				// stopped before the bytes the worker's death needed.
				input = input[:d.Consumed]
			}
			switch kind {
			case signature.KindTimeout:
				confirmed = d.TimedOut
				if !d.TimedOut && d.Kind != "" && d.Kind != signature.KindTimeout && d.Signature != "" {
					// Stopped as hung, but alone the input died otherwise:
					// a death slower than the timeout (a loaded machine, a
					// deep recursion growing its stack). That death is the
					// failure; reported as a hang it would have been lost.
					kind, sig, res, confirmed = d.Kind, d.Signature, Failure, true
					msg = fmt.Sprintf("worker %d: execution %d ran for more than %v; re-run alone, the input died (%s)", sl.id, n, s.timeout, oneLine(kind))
					info.Kind, info.Signature, info.Message, info.Stack = kind, sig, msg, signature.TrimInstrumentation(d.Stack)
					if s.knownFailure(sig) {
						return
					}
				}
				if merged, ok := s.mergeHang(stack, d); ok {
					sig, info.Signature = merged, merged
					if info.Stack == "" {
						// The worker was killed before it printed its
						// stacks (SIGKILL after the grace): the report
						// shows the re-run's, which hung on the same input.
						info.Stack = "(the worker printed no stacks before it was killed; these are the re-run's, which hung on the same input)\n" + signature.TrimInstrumentation(d.Trace)
					}
					if s.knownFailure(sig) {
						return // the same loop, interrupted elsewhere: reported
					}
				}
			case signature.KindOutOfMemory:
				// Confirmed when the input alone exhausts memory again:
				// otherwise the worker's memory had grown over many
				// executions, and this input only crossed the line.
				confirmed = d.Signature == sig
			}
			rerun = &d
		}
	}
	now := time.Now()
	rep := &workdir.Report{
		Target: s.cfg.Target, Result: res.String(), Signature: sig, Info: info, Input: input,
		Exec: s.totals().execs, FoundBy: fmt.Sprintf("worker %d, in its execution %d", sl.id, n),
		Found: now, Into: now.Sub(s.start),
	}
	if !confirmed {
		s.unconfirmedDeath(rep, kind, sl.id, n, rerun != nil && rerun.Failed, rerunErr)
		return
	}
	rep.Repro = reproCommand(s.wd.Failures, workdir.FailureName(sig), s.cfg.Target, s.reproLimits(rep.Info.Kind))
	path, claimed, err := s.wd.SaveFailure(rep)
	if err != nil {
		s.errorf("could not save the failure (%s) of worker %d: %v\n%s", oneLine(kind), sl.id, err, strings.TrimRight(s.wd.Unsaved(rep), "\n"))
		return
	}
	if !claimed {
		// A worker saved the same failure at the same time: announced
		// once it has shrunk it (refreshKnown skips what is known).
		s.workerFailure(sig, path)
		return
	}
	s.known[sig] = path
	if kind != signature.KindOutOfMemory {
		s.rememberKiller(cur)
	}
	s.shrinkDeath(rep, path, rerun) // saved as found first: nothing is lost if shrinking is cut short
	s.printf("gfz: new failure (%s): %s\n\tinput: %s%s\n\treport: %s\n\treproduce: %s\n",
		oneLine(kind), msg, path, rep.Shrink.Lines(), strings.TrimSuffix(path, ".input")+".txt", rep.Repro)
	s.newFailure(path)
}

// knownFailure reports whether a failure with this signature is known:
// reported by this run, or saved in failures/ by a worker or an earlier
// run (then remembered). One saved by a worker since the last status
// tick is new to the run: recorded as refreshKnown records it (which
// skips what is known; the failures of earlier runs were known from the
// start).
func (s *supervisor) knownFailure(sig string) bool {
	if _, ok := s.known[sig]; ok {
		return true
	}
	if in, ok := s.wd.FailureSaved(sig); ok {
		s.workerFailure(sig, in)
		return true
	}
	return false
}

// loopOf returns the loop of the run's hangs whose signature is sig, if
// any.
func (s *supervisor) loopOf(sig string) (signature.Loop, bool) {
	for _, l := range s.hangLoops {
		if l.Sig == sig {
			return l, true
		}
	}
	return signature.Loop{}, false
}

// mergeHang gives a hang the signature of its loop: the frames that the
// worker's stacks (dump) and the re-run's share (signature.HangLoop), so
// that a loop spanning several functions, interrupted in a different one
// each time, is one failure. A loop of the run's earlier hangs that is the
// same (signature.Loop.Same: the innermost shared frames and the call
// entering them) is this one; a new loop whose signature another loop of
// the run has (both loop through one helper chain, entered from different
// calls) gets one naming that call (signature.Loop.Apart), so that it is
// not taken for the other. It remembers the points (signature.HangPoint)
// of the two dumps, so that a later hang interrupted at one of them is
// known without a re-run. ok is false when the re-run did not time out or
// printed no stacks.
func (s *supervisor) mergeHang(dump string, d Rerun) (string, bool) {
	if !d.TimedOut || d.Trace == "" {
		return "", false
	}
	l := signature.HangLoop(dump, d.Trace)
	known := false
	for _, k := range s.hangLoops {
		if k.Same(l) {
			l, known = k, true
			break
		}
	}
	if !known {
		l = l.Apart(s.hangLoops)
		s.hangLoops = append(s.hangLoops, l)
	}
	if s.hangPoints == nil {
		s.hangPoints = map[string]signature.Loop{}
	}
	for _, p := range []string{signature.HangPoint(dump), signature.HangPoint(d.Trace)} {
		if p != signature.KindTimeout { // a bare "timeout" (no stacks) says nothing about where
			s.hangPoints[p] = l
		}
	}
	return l.Sig, true
}

// unconfirmedDeath handles a timeout or an out-of-memory death that
// re-running its input in a fresh process did not repeat: the input ran to
// its end within the timeout, or within the memory limit, when run alone.
// Such a death is most likely the machine's or the worker's history, not
// the input's: an overloaded machine descheduling the worker or a long
// pause; a worker whose memory had grown over many executions (a leak
// across executions, a cache, garbage not yet collected) until this input
// crossed the limit. It is not reported as a failure; its input and report
// are kept in unconfirmed/ and a warning says so (the first
// maxUnconfirmedWarnings of each kind, then once that more are not
// printed). The worker is restarted as after any death, so the input gets
// its next look in a fresh worker; a hang or a memory blow-up that only
// happens sometimes shows up as repeated warnings about one place.
//
// failed tells that the re-run, though it ended in time, failed: the
// input is a failure, not a hang, and the warning says so (the re-run's
// failure is not classified here: its -repro command shows it). rerunErr,
// if not nil, is why there was no re-run (the run was stopping, the
// re-run could not start): the death is kept unconfirmed too, saying so.
func (s *supervisor) unconfirmedDeath(rep *workdir.Report, kind string, worker int, n uint64, failed bool, rerunErr error) {
	count, what, key := &s.unconfirmed, "timeout", "unconfirmed_timeouts"
	detail := fmt.Sprintf("execution %d ran for more than %v, but its input ran to its end within %v when re-run alone: not reported as a timeout (a slow input near the timeout, an overloaded machine or a long pause)", n, s.timeout, s.confirmTimeout)
	note := "; re-run alone in a fresh process, the input ran to its end within the timeout: unconfirmed, not counted as a failure"
	hint := "raise -timeout if this recurs"
	if kind == signature.KindOutOfMemory {
		count, what, key = &s.unconfirmedOOM, "out-of-memory death", "unconfirmed_ooms"
		detail = fmt.Sprintf("execution %d ended with the worker over -rss_limit_mb %d, but its input stayed within the limit when re-run alone: not reported (the worker's memory had grown over many executions: a leak across executions, a cache, or garbage not yet collected)", n, s.cfg.RSSLimitMB)
		note = "; re-run alone in a fresh process, the input stayed within -rss_limit_mb: unconfirmed, not counted as a failure"
		hint = "if this recurs, look for memory kept from one execution to the next, or raise -rss_limit_mb"
	}
	if rerunErr != nil {
		why := rerunErr.Error()
		if errors.Is(rerunErr, context.Canceled) || errors.Is(rerunErr, context.DeadlineExceeded) {
			why = "the run was stopping"
		}
		head, _, _ := strings.Cut(detail, ", but ")
		detail = fmt.Sprintf("%s, and its input could not be re-run alone to confirm it (%s): not reported", head, why)
		note = fmt.Sprintf("; the input could not be re-run alone to confirm it (%s): unconfirmed, not counted as a failure", why)
		hint = "run its reproduce command to see whether it repeats"
	}
	rep.Info.Message += note
	if failed {
		rep.Info.Message += "; but re-run alone it failed"
		hint = "re-run alone, the input FAILED (not a " + what + "): see it with the reproduce command of its report"
	}
	*count++
	rep.Repro = reproCommand(s.wd.Unconfirmed, workdir.FailureName(rep.Signature), s.cfg.Target, s.reproLimits(rep.Info.Kind))
	path, err := s.wd.SaveUnconfirmed(rep)
	if err != nil {
		s.errorf("could not keep the input of an unconfirmed %s of worker %d: %v", what, worker, err)
		return
	}
	switch {
	case *count <= maxUnconfirmedWarnings:
		s.printf("gfz: WARNING: worker %d: %s; input kept in %s; %s\n", worker, detail, path, hint)
	case *count == maxUnconfirmedWarnings+1:
		s.printf("gfz: WARNING: more unconfirmed %ss: kept in %s and counted in stats (%s), no longer printed\n", what, s.wd.Unconfirmed, key)
	}
}

// maxUnconfirmedWarnings is how many unconfirmed timeouts a run prints.
const maxUnconfirmedWarnings = 5

// describe re-runs a crash input with cfg.Describe (values, bytes read,
// whether it timed out), bounded by the per-input timeout.
func (s *supervisor) describe(input []byte) (Rerun, error) {
	to := s.confirmTimeout
	if to <= 0 {
		to = maxCalibratedTimeout
	}
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, to+proc.QuitGrace+10*time.Second)
	defer cancel()
	return s.cfg.Describe(ctx, input, to)
}

func describeExit(ps *os.ProcessState, kill string) string {
	if kill != "" {
		return "killed: " + kill
	}
	return ps.String()
}

// Limits of the killers the workers avoid (WorkerSpec.Avoid): they travel
// in the workers' environment.
const (
	maxKillers     = 64
	maxKillerBytes = 4 << 10
	maxKillersSize = 32 << 10
)

// rememberKiller records input, on which a worker just died of a failure
// that is saved, for the workers started from now on to avoid
// (WorkerSpec.Avoid): a fuzzer that makes it again (a cmp token, a
// dictionary value) would otherwise pay a worker's restart, and its corpus
// replay, each time, for a failure already known.
func (s *supervisor) rememberKiller(input []byte) {
	if len(input) == 0 || len(input) > maxKillerBytes || len(s.killers) >= maxKillers || s.killersSize+len(input) > maxKillersSize {
		return
	}
	for _, k := range s.killers {
		if bytes.Equal(k, input) {
			return
		}
	}
	s.killers = append(s.killers, bytes.Clone(input))
	s.killersSize += len(input)
}

// reproLimits are the flags -repro needs to fail as a worker death of kind
// did (see the function of that name): the timeout in force, the run's
// memory and stack limits.
func (s *supervisor) reproLimits(kind string) []string {
	// A hang is confirmed (or not) by a re-run with confirmTimeout, above
	// the detection's: the command repeats that verdict (with the
	// detection's 200 ms, an input the run found finishing within 1 s
	// alone seemed to hang again).
	to := s.timeout
	if s.confirmTimeout > to {
		to = s.confirmTimeout
	}
	return reproLimits(kind, to, s.cfg.RSSLimitMB, s.cfg.StackLimitMB)
}

// lastLines returns the last n lines of a worker's stderr tail that are not
// gfz's own ("gfz: ..."), joined by newlines ("" if none).
func lastLines(tail string, n int) string {
	var keep []string
	lines := strings.Split(strings.TrimRight(tail, "\n"), "\n")
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimRight(lines[i], "\r"); l != "" && !strings.HasPrefix(l, "gfz:") {
			keep = append(keep, l)
		}
	}
	slices.Reverse(keep)
	return strings.Join(keep, "\n")
}
