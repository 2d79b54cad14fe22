//go:build unix

package engine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/proc"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
	"github.com/gfz-dev/gfz/param"
)

// Tests of issue 9's integrity fixes at the engine level.

// TestOrphanInputRemoved: a claimed input without a report (its saver died
// in between) is removed by the next run, so the failure can be saved.
func TestOrphanInputRemoved(t *testing.T) {
	dir := t.TempDir()
	wd, err := workdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sig := "fatal\nf x.go:1\n"
	orphan := filepath.Join(wd.Failures, workdir.FailureName(sig)+".input")
	if err := os.WriteFile(orphan, workdir.EncodeInput([]byte{1}), 0o644); err != nil {
		t.Fatal(err)
	}
	ex := failAt{sig: sig}
	s := run(t, Config{Engine: "zest", Seed: 1, Runs: 10, Workdir: dir, NoRecheck: true}, ex)
	if s.NewFailures != 1 {
		t.Fatalf("new failures %d, want 1 (the orphan claim blocked it?)", s.NewFailures)
	}
	if _, err := os.Stat(strings.TrimSuffix(orphan, ".input") + ".txt"); err != nil {
		t.Error(err)
	}
}

// failAt fails every execution with one signature (or, with sigs, with
// the signature chosen by the first parameter byte).
type failAt struct {
	sig  string
	sigs []string
}

func (f failAt) Exec(params []byte, ext uint64) Outcome {
	src := param.New(params, ext)
	b := byte(src.Uint(1, param.Value))
	sig := f.sig
	if len(f.sigs) > 0 {
		sig = f.sigs[int(b)%len(f.sigs)]
	}
	kind, _, _ := strings.Cut(sig, "\n")
	return Outcome{Result: Failure, Consumed: src.Consumed(),
		Failure: &FailureInfo{Kind: kind, Message: "boom", Signature: sig, Value: fmt.Sprintf("b = %d", b)}}
}

// TestLockHelper is the helper process of TestWorkdirLock: it takes the
// lock of $GFZ_LOCK_HELPER, says so and waits to be killed.
func TestLockHelper(t *testing.T) {
	dir := os.Getenv("GFZ_LOCK_HELPER")
	if dir == "" {
		t.Skip("helper process")
	}
	if _, err := workdir.Lock(dir); err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println("locked")
	time.Sleep(time.Minute)
}

// TestWorkdirLock: a run on a work directory another run holds is refused
// with an error naming the directory and the holder; the lock dies with its
// holder (kill -9).
func TestWorkdirLock(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelper$")
	cmd.Env = append(os.Environ(), "GFZ_LOCK_HELPER="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("helper: %q", line)
	}
	_, err = Run(context.Background(), Config{Engine: "zest", Seed: 1, Runs: 10, Workdir: dir}, &trivialExec{src: param.New(nil, 0)})
	var busy *workdir.BusyError
	if !errors.As(err, &busy) || busy.PID != cmd.Process.Pid || !strings.Contains(err.Error(), dir) ||
		!strings.Contains(err.Error(), "process "+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("Run on a busy work directory: %v", err)
	}
	_, err = Supervise(context.Background(), SupervisorConfig{Config: Config{Engine: "zest", Runs: 10, Workdir: dir}})
	if !errors.As(err, &busy) {
		t.Fatalf("Supervise on a busy work directory: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := Run(context.Background(), Config{Engine: "zest", Seed: 1, Runs: 10, Workdir: dir}, &trivialExec{src: param.New(nil, 0)}); err != nil {
		t.Fatalf("Run after kill -9 of the holder: %v", err)
	}
	// Released at the end of a run: the next one gets it.
	if _, err := Run(context.Background(), Config{Engine: "zest", Seed: 1, Runs: 10, Workdir: dir}, &trivialExec{src: param.New(nil, 0)}); err != nil {
		t.Fatalf("second Run: %v", err)
	}
}

// TestCalibratedTimeout pins the calibration rule, and shows the timeout
// in the stats file and the status output.
func TestCalibratedTimeout(t *testing.T) {
	for _, c := range []struct{ slowest, want time.Duration }{
		{0, time.Second},
		{time.Microsecond, time.Second},
		{50 * time.Millisecond, time.Second},
		{60 * time.Millisecond, 1200 * time.Millisecond},
		{200 * time.Millisecond, 4 * time.Second},
		{time.Second, 5 * time.Second},
		{time.Hour, 5 * time.Second},
	} {
		if got := CalibratedTimeout(c.slowest); got != c.want {
			t.Errorf("CalibratedTimeout(%v) = %v, want %v", c.slowest, got, c.want)
		}
	}
	// The supervisor's detection: the same rule with a floor of 200ms.
	for _, c := range []struct{ slowest, want time.Duration }{
		{0, 200 * time.Millisecond},
		{5 * time.Millisecond, 200 * time.Millisecond},
		{20 * time.Millisecond, 400 * time.Millisecond},
		{60 * time.Millisecond, 1200 * time.Millisecond},
		{time.Hour, 5 * time.Second},
	} {
		if got := DetectionTimeout(c.slowest); got != c.want {
			t.Errorf("DetectionTimeout(%v) = %v, want %v", c.slowest, got, c.want)
		}
	}
	dir := t.TempDir()
	var status bytes.Buffer
	run(t, Config{Engine: "zest", Seed: 1, Runs: 100, Workdir: dir, Status: &status}, &trivialExec{src: param.New(nil, 0)})
	stats, _ := os.ReadFile(filepath.Join(dir, workdir.StatsFile))
	if !bytes.Contains(stats, []byte("\ntimeout_ms: 1000\n")) || !bytes.Contains(stats, []byte("\ntimeout_rule: calibrated: 20 x the slowest of ")) {
		t.Errorf("stats:\n%s", stats)
	}
	if !strings.Contains(status.String(), "gfz: per-input timeout 1s (calibrated") {
		t.Errorf("status:\n%s", status.String())
	}
	dir = t.TempDir()
	run(t, Config{Engine: "zest", Seed: 1, Runs: 100, Workdir: dir, Timeout: NoTimeout}, &trivialExec{src: param.New(nil, 0)})
	if stats, _ := os.ReadFile(filepath.Join(dir, workdir.StatsFile)); !bytes.Contains(stats, []byte("\ntimeout_ms: 0\ntimeout_rule: none\n")) {
		t.Errorf("stats with NoTimeout:\n%s", stats)
	}
}

// TestFailureSites: one bug reached from several callers (same kind, same
// innermost frame) is one site; the status line, the final summary, the
// stats and the reports count and name sites.
func TestFailureSites(t *testing.T) {
	sigs := []string{
		"panic: boom\nexample.com/t.bug t.go:10\nexample.com/t.callerA t.go:20\n",
		"panic: boom\nexample.com/t.bug t.go:10\nexample.com/t.callerB t.go:30\n",
		"panic: boom\nexample.com/t.bug t.go:10\nexample.com/t.callerC t.go:40\n",
		"fatal\nexample.com/t.check t.go:50\n",
	}
	dir := t.TempDir()
	var status bytes.Buffer
	s := run(t, Config{Engine: "zest", Seed: 1, Runs: 500, Workdir: dir, Status: &status, NoRecheck: true}, failAt{sigs: sigs})
	if s.NewFailures != 4 {
		t.Fatalf("new failures %d, want 4", s.NewFailures)
	}
	if !strings.Contains(status.String(), "failures 2 sites (4 signatures)") || !strings.Contains(status.String(), "(4 known in total, at 2 sites)") {
		t.Errorf("status output:\n%s", status.String())
	}
	stats, _ := os.ReadFile(filepath.Join(dir, workdir.StatsFile))
	if !bytes.Contains(stats, []byte("\nunique_failures: 4\n")) || !bytes.Contains(stats, []byte("\nfailure_sites: 2\n")) {
		t.Errorf("stats:\n%s", stats)
	}
	groups := map[string]int{}
	groupRe := regexp.MustCompile(`(?m)^group: .*$`)
	for _, sig := range sigs {
		rep, err := os.ReadFile(filepath.Join(dir, workdir.FailuresDir, workdir.FailureName(sig)+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		groups[groupRe.FindString(string(rep))]++
	}
	want := "group: " + signature.SiteName(signature.SiteOf(sigs[0])) + " (panic: boom at example.com/t.bug t.go:10)"
	if len(groups) != 2 || groups[want] != 3 {
		t.Errorf("groups %v, want 3 reports in %q", groups, want)
	}
}

// crashSupervisor is a supervisor with one slot whose worker died running
// input in execution 7.
func crashSupervisor(t *testing.T, describe func(context.Context, []byte, time.Duration) (Rerun, error)) (*supervisor, *slot, *strings.Builder) {
	t.Helper()
	dir := t.TempDir()
	wd, err := workdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := createShm(filepath.Join(dir, ".w.shm"), param.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.close)
	m.begin(7, 7, []byte{7, 8, 9}, 1234)
	out := &strings.Builder{}
	s := &supervisor{cfg: SupervisorConfig{Config: Config{Engine: "zest", Target: "FuzzX", Status: out}, Describe: describe}, wd: wd, known: map[string]string{},
		max: param.DefaultMaxSize, start: time.Now().Add(-time.Minute), timeout: time.Second, confirmTimeout: time.Second}
	sl := &slot{id: 1, shm: m, tail: &proc.Tail{Mu: &s.outMu, Max: tailSize}}
	sl.tail.Write([]byte(panicTrace))
	s.slots = []*slot{sl}
	return s, sl, out
}

// TestHangConfirmedLonger: with the calibrated timeout a supervisor stops
// an input as hung after DetectionTimeout and re-runs it with the longer
// CalibratedTimeout before reporting it (a slow input that finishes is not
// a hang); a fixed -timeout is used for both.
func TestHangConfirmedLonger(t *testing.T) {
	var got time.Duration
	s, sl, _ := crashSupervisor(t, func(_ context.Context, _ []byte, timeout time.Duration) (Rerun, error) {
		got = timeout
		return Rerun{Consumed: -1}, nil
	})
	s.timeout, s.confirmTimeout = maxCalibratedTimeout, maxCalibratedTimeout // as Supervise starts, calibrating
	sl.shm.store(offSlowest, uint64(2*time.Millisecond))
	s.calibrate()
	if s.timeout != 200*time.Millisecond || s.confirmTimeout != time.Second {
		t.Fatalf("calibrated: timeout %v, confirmation %v; want 200ms and 1s", s.timeout, s.confirmTimeout)
	}
	if !strings.Contains(s.timeoutRule, "at least 200ms") || !strings.Contains(s.timeoutRule, "confirmed by re-running its input with 1s") {
		t.Errorf("rule %q", s.timeoutRule)
	}
	sl.tail.Write([]byte("SIGQUIT: quit\n\ngoroutine 6 [running]:\nexample.com/t.spin(0x1)\n\t/src/t/t.go:3 +0x1\n"))
	sl.Kill = signature.KindTimeout
	s.crash(sl, exitState(t, "kill -QUIT $$"))
	if got != time.Second {
		t.Errorf("the hang's re-run got a timeout of %v, want 1s", got)
	}
}

// TestHangNotRerunUnconfirmed: a hang whose input could not be re-run to
// confirm it (the run stopping cancels the re-run) is kept in
// unconfirmed/, not reported as a failure (which -regress would copy into
// testdata, extended to the size cap); a crash whose re-run failed is still
// a failure (its trace is the evidence).
func TestHangNotRerunUnconfirmed(t *testing.T) {
	stopping := func(context.Context, []byte, time.Duration) (Rerun, error) {
		return Rerun{}, fmt.Errorf("describe: %w", context.Canceled)
	}
	s, sl, out := crashSupervisor(t, stopping)
	sl.tail.Write([]byte("SIGQUIT: quit\n\ngoroutine 6 [running]:\nexample.com/t.spin(0x1)\n\t/src/t/t.go:3 +0x1\n"))
	sl.Kill = signature.KindTimeout
	s.crash(sl, exitState(t, "kill -QUIT $$"))
	if len(s.newFiles) != 0 || s.unconfirmed != 1 {
		t.Fatalf("hang not re-run: new failures %v, unconfirmed %d; want none, 1\n%s", s.newFiles, s.unconfirmed, out)
	}
	if !strings.Contains(out.String(), "could not be re-run alone to confirm it (the run was stopping)") {
		t.Errorf("warning:\n%s", out)
	}
	kept, _ := filepath.Glob(filepath.Join(s.wd.Unconfirmed, "*.txt"))
	if len(kept) != 1 {
		t.Fatalf("kept in unconfirmed/: %v", kept)
	}
	if rep, _ := os.ReadFile(kept[0]); !strings.Contains(string(rep), "unconfirmed, not counted as a failure") {
		t.Errorf("report:\n%s", rep)
	}

	s, sl, out = crashSupervisor(t, stopping) // panicTrace: a crash
	s.crash(sl, exitState(t, "exit 2"))
	if len(s.newFiles) != 1 || s.unconfirmed != 0 {
		t.Errorf("crash not re-run: new failures %v, unconfirmed %d; want one, 0\n%s", s.newFiles, s.unconfirmed, out)
	}
}

// TestCrashDescribed: a crash input is re-run with Describe: the report
// shows its values and the input is saved trimmed to the bytes read; when
// Describe fails the input is kept whole and the report says why there are
// no values.
func TestCrashDescribed(t *testing.T) {
	var gotInput []byte
	var gotTimeout time.Duration
	s, sl, out := crashSupervisor(t, func(ctx context.Context, input []byte, timeout time.Duration) (Rerun, error) {
		gotInput, gotTimeout = input, timeout
		if _, ok := ctx.Deadline(); !ok {
			t.Error("Describe called without a deadline")
		}
		return Rerun{Values: "k = 7\nname = \"x\"\n", Consumed: 5}, nil
	})
	s.crash(sl, exitState(t, "exit 2"))
	if len(s.newFiles) != 1 {
		t.Fatalf("saved %v\n%s", s.newFiles, out.String())
	}
	extended := extendedInput([]byte{7, 8, 9}, 1234, param.DefaultMaxSize)
	if !bytes.Equal(gotInput, extended) || gotTimeout != time.Second {
		t.Errorf("Describe got %d bytes, timeout %v", len(gotInput), gotTimeout)
	}
	in, err := workdir.ReadInputFile(s.newFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, extended[:5]) {
		t.Errorf("saved input %x, want the 5 bytes read %x", in, extended[:5])
	}
	rep, _ := os.ReadFile(strings.TrimSuffix(s.newFiles[0], ".input") + ".txt")
	for _, want := range []string{"\nvalue:\n\tk = 7\n\tname = \"x\"\n", "\nfound by: worker 1, in its execution 7\n",
		"\nfound at: ", " into the run)\n", "\nparams (hex):\n\t" + fmt.Sprintf("%x", extended[:5]) + "\n", "\ngroup: "} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	if n := strings.Count(out.String(), "gfz: new failure"); n != 1 {
		t.Errorf("announced %d times", n)
	}

	s, sl, _ = crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
		return Rerun{Consumed: -1}, errors.New("the re-run did not start")
	})
	s.crash(sl, exitState(t, "exit 2"))
	in, err = workdir.ReadInputFile(s.newFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	rep, _ = os.ReadFile(strings.TrimSuffix(s.newFiles[0], ".input") + ".txt")
	if len(in) != param.DefaultMaxSize || !strings.Contains(string(rep), "could not be obtained: the re-run did not start") {
		t.Errorf("Describe failing: input %d bytes, report:\n%.600s", len(in), rep)
	}
}

// TestTimeoutConfirmedByRerun: a worker killed for running past the
// timeout is reported as a TIMEOUT only if re-running its input alone
// times out too; otherwise the timeout is unconfirmed: no failure, a
// warning, the input and report kept in unconfirmed/, counted in stats,
// and the same hang signature checked again when it recurs. Without
// Describe every timeout is reported.
func TestTimeoutConfirmedByRerun(t *testing.T) {
	hang := "SIGQUIT: quit\n\ngoroutine 6 [running]:\nexample.com/t.hangA(0x7)\n\t/src/t/t.go:12 +0x28\nexample.com/t.FuzzT.func1(0xc000124000)\n\t/src/t/t_test.go:35 +0x1c\ngithub.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)\n\t/gfz/exec.go:95 +0x6b\n"
	for _, c := range []struct {
		name     string
		describe bool
		timedOut bool
		report   bool
	}{
		{"repeated", true, true, true},
		{"not repeated", true, false, false},
		{"no describe", false, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			reruns := 0
			s, sl, out := crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
				reruns++
				return Rerun{Values: "k = 7\n", Consumed: 2, TimedOut: c.timedOut}, nil
			})
			if !c.describe {
				s.cfg.Describe = nil
			}
			sl.tail = &proc.Tail{Mu: &s.outMu, Max: tailSize}
			sl.tail.Write([]byte(hang))
			sl.Kill = signature.KindTimeout
			s.crash(sl, exitState(t, "kill -QUIT $$"))
			s.crash(sl, exitState(t, "kill -QUIT $$")) // the same hang again
			if s.timeouts != 2 {
				t.Errorf("timeouts %d, want 2", s.timeouts)
			}
			reported := len(s.newFiles) == 1 && len(s.known) == 1
			if reported != c.report || (!c.report && len(s.newFiles) != 0) {
				t.Fatalf("reported %v (new files %v, known %d), want %v\n%s", reported, s.newFiles, len(s.known), c.report, out)
			}
			kept, _ := filepath.Glob(filepath.Join(s.wd.Root, workdir.UnconfirmedDir, "*.input"))
			warnings := strings.Count(out.String(), "WARNING: worker 1: execution 7 ran for more than 1s, but its input ran to its end")
			if c.report {
				if s.unconfirmed != 0 || len(kept) != 0 || warnings != 0 {
					t.Errorf("confirmed timeout: unconfirmed %d, kept %v, %d warnings", s.unconfirmed, kept, warnings)
				}
				if c.describe && reruns != 1 {
					t.Errorf("re-ran %d times, want once (the second is a known failure)", reruns)
				}
				return
			}
			if s.unconfirmed != 2 || len(kept) != 1 || warnings != 2 || reruns != 2 {
				t.Fatalf("unconfirmed %d, kept %v, %d warnings, %d re-runs; want 2, one file, 2, 2\n%s", s.unconfirmed, kept, warnings, reruns, out)
			}
			in, err := workdir.ReadInputFile(kept[0])
			if err != nil {
				t.Fatal(err)
			}
			extended := extendedInput([]byte{7, 8, 9}, 1234, param.DefaultMaxSize)
			if !bytes.Equal(in, extended[:2]) {
				t.Errorf("kept input %x, want the 2 bytes read %x", in, extended[:2])
			}
			rep, _ := os.ReadFile(strings.TrimSuffix(kept[0], ".input") + ".txt")
			if !strings.Contains(string(rep), "unconfirmed, not counted as a failure") || !strings.Contains(string(rep), "\tk = 7\n") {
				t.Errorf("report of the unconfirmed timeout:\n%s", rep)
			}
			if err := s.writeStats("done"); err != nil {
				t.Fatal(err)
			}
			stats, _ := os.ReadFile(filepath.Join(s.wd.Root, workdir.StatsFile))
			if !regexp.MustCompile(`(?m)^unconfirmed_timeouts\s*:\s*2$`).Match(stats) {
				t.Errorf("stats lack unconfirmed_timeouts 2:\n%s", stats)
			}
			// Warnings stop after maxUnconfirmedWarnings, with one line
			// saying so.
			for range maxUnconfirmedWarnings + 2 {
				s.crash(sl, exitState(t, "kill -QUIT $$"))
			}
			warnings = strings.Count(out.String(), "WARNING: worker 1: execution 7 ran for more than 1s, but its input ran to its end")
			if more := strings.Count(out.String(), "WARNING: more unconfirmed timeouts"); more != 1 || warnings != maxUnconfirmedWarnings || s.unconfirmed != maxUnconfirmedWarnings+4 {
				t.Errorf("after %d unconfirmed timeouts: %d warnings, %d 'more' lines; want %d, 1", s.unconfirmed, warnings, more, maxUnconfirmedWarnings)
			}
		})
	}
}

// TestShrinkDeathStopsAtRunDeadline: shrinking a death does not outlast
// the run's time budget: past -time, no candidate runs and the report
// says why; within it, candidates run.
func TestShrinkDeathStopsAtRunDeadline(t *testing.T) {
	for _, past := range []bool{false, true} {
		s, sl, _ := crashSupervisor(t, nil)
		probes := 0
		sig := signature.CrashSignature(sl.tail.String(), exitState(t, "exit 2"))
		s.cfg.Probe = func(context.Context, []byte, time.Duration) (string, string, int, error) {
			probes++
			return sig, "", 3, nil
		}
		s.cfg.Time = time.Hour
		if past {
			s.start = time.Now().Add(-2 * time.Hour)
		}
		s.crash(sl, exitState(t, "exit 2"))
		if len(s.newFiles) != 1 {
			t.Fatalf("saved %v", s.newFiles)
		}
		rep, _ := os.ReadFile(strings.TrimSuffix(s.newFiles[0], ".input") + ".txt")
		if past && (probes != 0 || !strings.Contains(string(rep), "run stopped")) {
			t.Errorf("past the run's deadline: %d probes, report:\n%s", probes, rep)
		}
		if !past && probes < 2 {
			t.Errorf("within the run's budget: %d probes, want several", probes)
		}
	}
}

// TestShrinkDeathSkipsWhatTheRerunRuledOut: when describing the input
// showed that a re-run dies another way, shrinking is not started (no
// candidate runs: for a hang each would cost the timeout) and the report
// says the input did not fail the same way; when the re-run died the same
// way, shrinking runs.
func TestShrinkDeathSkipsWhatTheRerunRuledOut(t *testing.T) {
	for _, same := range []bool{true, false} {
		var sig string
		s, sl, _ := crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
			if same {
				return Rerun{Consumed: 3, Signature: sig}, nil
			}
			return Rerun{Consumed: 3, Signature: "timeout\nexample.com/t.elsewhere\n"}, nil
		})
		sig = signature.CrashSignature(sl.tail.String(), exitState(t, "exit 2"))
		probes := 0
		s.cfg.Probe = func(context.Context, []byte, time.Duration) (string, string, int, error) {
			probes++
			return sig, "", 3, nil
		}
		s.crash(sl, exitState(t, "exit 2"))
		if len(s.newFiles) != 1 {
			t.Fatalf("saved %v", s.newFiles)
		}
		rep, _ := os.ReadFile(strings.TrimSuffix(s.newFiles[0], ".input") + ".txt")
		notSame := strings.Contains(string(rep), "shrunk: not shrunk: the input did not fail the same way")
		if same && (probes < 2 || notSame) {
			t.Errorf("re-run died the same way: %d probes, report:\n%s", probes, rep)
		}
		if !same && (probes != 0 || !notSame) {
			t.Errorf("re-run died another way: %d probes, report:\n%s", probes, rep)
		}
	}
}

// TestCrashClaimedByWorker: when a worker saved the same failure while the
// supervisor was about to, the supervisor does not announce it again.
func TestCrashClaimedByWorker(t *testing.T) {
	s, sl, out := crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
		return Rerun{Consumed: 3}, nil
	})
	// The worker's save happens while the supervisor describes the input:
	// emulate it by claiming the input first.
	kind, stack, framed := signature.Classify(sl.tail.String(), exitState(t, "exit 2"), "")
	sig := signature.OfDeath(kind, stack, framed)
	in := filepath.Join(s.wd.Failures, workdir.FailureName(sig)+".input")
	if err := os.WriteFile(in, workdir.EncodeInput([]byte{1}), 0o644); err != nil {
		t.Fatal(err)
	}
	s.crash(sl, exitState(t, "exit 2"))
	if strings.Contains(out.String(), "new failure") || len(s.newFiles) != 0 {
		t.Errorf("announced a failure another process claimed:\n%s", out.String())
	}
	if got, _ := workdir.ReadInputFile(in); !bytes.Equal(got, []byte{1}) {
		t.Errorf("overwrote the claimed input: %x", got)
	}
}

// TestWorkerFailureStamp: a failure saved by a worker names the worker,
// its own execution number and the estimated total, the time, and an
// absolute reproduce command even with a relative work directory.
func TestWorkerFailureStamp(t *testing.T) {
	dir := t.TempDir()
	chdir(t, dir)
	m, err := createShm(filepath.Join(dir, ".w.shm"), param.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	m.store(offWorkerID, 3)
	m.store(offOthers, 1000)
	m.store(offRunStart, uint64(time.Now().Add(-time.Hour).UnixNano()))
	s, err := Run(context.Background(), Config{Engine: "zest", Target: "FuzzX", Seed: 1, Runs: 5, Workdir: "wd", SharedMem: filepath.Join(dir, ".w.shm"), NoRecheck: true},
		failAt{sig: "fatal\nf x.go:1\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.FailureFiles) != 1 || !filepath.IsAbs(s.FailureFiles[0]) {
		t.Fatalf("failure files %v", s.FailureFiles)
	}
	rep, _ := os.ReadFile(strings.TrimSuffix(s.FailureFiles[0], ".input") + ".txt")
	exe, _ := os.Executable()
	for _, want := range []string{"\nfound at execution: 1001 (over all workers, as of the supervisor's last count; worker 3 at its execution 0)\n",
		"\nfound by: worker 3, in its execution 0\n", "into the run)\n", "\nreproduce: " + exe + " -repro " + s.FailureFiles[0] + " FuzzX\n"} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("report lacks %q:\n%.700s", want, rep)
		}
	}
	if m := regexp.MustCompile(`\(1h0m0(\.\d+)?s into the run\)`).FindString(string(rep)); m == "" {
		t.Errorf("time into the run is not measured from the campaign's start:\n%.700s", rep)
	}
}

// TestOOMConfirmedByRerun: a worker killed over -rss_limit_mb is reported
// as an out-of-memory failure only if re-running its input alone exhausts
// memory again; otherwise (the worker's memory grew over many executions)
// it is unconfirmed: no failure, a warning, the input kept in unconfirmed/,
// counted in stats. Without Describe it is reported.
func TestOOMConfirmedByRerun(t *testing.T) {
	for _, c := range []struct {
		name     string
		describe bool
		rerunSig string // the death the re-run ended in
		report   bool
	}{
		{"repeated", true, signature.KindOutOfMemory, true},
		{"ran to its end", true, "", false},
		{"died otherwise", true, "panic: boom\nexample.com/t.f f.go:1\n", false},
		{"no describe", false, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, sl, out := crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
				return Rerun{Values: "k = 7\n", Consumed: 2, Signature: c.rerunSig}, nil
			})
			if !c.describe {
				s.cfg.Describe = nil
			}
			s.cfg.RSSLimitMB = 64
			sl.tail = &proc.Tail{Mu: &s.outMu, Max: tailSize}
			sl.Kill, sl.RSS = signature.KindOutOfMemory, 65<<20
			s.crash(sl, exitState(t, "kill -KILL $$"))
			if s.ooms != 1 {
				t.Errorf("ooms %d, want 1", s.ooms)
			}
			reported := len(s.newFiles) == 1 && len(s.known) == 1
			kept, _ := filepath.Glob(filepath.Join(s.wd.Root, workdir.UnconfirmedDir, "*.input"))
			warned := strings.Contains(out.String(), "WARNING: worker 1: execution 7 ended with the worker over -rss_limit_mb 64, but its input stayed within the limit when re-run alone")
			if reported != c.report || warned == c.report || (len(kept) == 1) == c.report || (s.unconfirmedOOM == 1) == c.report {
				t.Fatalf("reported %v, warned %v, kept %v, unconfirmed %d; want reported %v\n%s", reported, warned, kept, s.unconfirmedOOM, c.report, out)
			}
			if c.report {
				return
			}
			if s.unconfirmed != 0 {
				t.Errorf("an out-of-memory death counted as an unconfirmed timeout")
			}
			if err := s.writeStats("done"); err != nil {
				t.Fatal(err)
			}
			stats, _ := os.ReadFile(filepath.Join(s.wd.Root, workdir.StatsFile))
			if !regexp.MustCompile(`(?m)^unconfirmed_ooms\s*:\s*1$`).Match(stats) {
				t.Errorf("stats lack unconfirmed_ooms 1:\n%s", stats)
			}
		})
	}
}

// loopDump is a worker's SIGQUIT output for a hang in a parser loop that
// spans several functions, interrupted in inner (innermost first).
func loopDump(inner ...string) string {
	var b strings.Builder
	b.WriteString("SIGQUIT: quit\n\ngoroutine 6 [running]:\n")
	for _, f := range append(inner, "golang.org/x/net/html.(*parser).parseCurrentToken parse.go:2100", "golang.org/x/net/html.(*parser).parse parse.go:2150", "golang.org/x/net/html.Parse parse.go:2200", "example.com/t.FuzzHTML.func1 t_test.go:20") {
		fn, loc, _ := strings.Cut(f, " ")
		b.WriteString(fn + "(0x1)\n\t/src/html/" + loc + " +0x28\n")
	}
	b.WriteString("github.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)\n\t/gfz/exec.go:95 +0x6b\n")
	return b.String()
}

// hangSupervisor is a supervisor whose worker hang(worker, rerun) makes
// hang: the worker's output is worker, and the re-run confirming the hang
// prints rerun; reruns counts the re-runs.
func hangSupervisor(t *testing.T) (s *supervisor, out *strings.Builder, hang func(worker, rerun string), reruns *int) {
	var rerunTrace string
	reruns = new(int)
	var sl *slot
	s, sl, out = crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
		*reruns++
		return Rerun{Values: "doc = \"<svg><p>\"\n", Consumed: 2, TimedOut: true, Trace: rerunTrace, Signature: signature.Hang(rerunTrace)}, nil
	})
	hang = func(worker, rerun string) {
		t.Helper()
		rerunTrace = rerun
		sl.tail = &proc.Tail{Mu: &s.outMu, Max: tailSize}
		sl.tail.Write([]byte(worker))
		sl.Kill = signature.KindTimeout
		s.crash(sl, exitState(t, "kill -QUIT $$"))
	}
	return s, out, hang, reruns
}

// TestOneLoopOneHang: a hang whose loop spans several functions is
// interrupted in a different one by the worker's timeout and by the re-run
// that confirms it; the supervisor gives it the signature of the frames
// both stacks share, so later hangs of the same loop, wherever they are
// interrupted, are the same failure (and a point already seen needs no
// re-run).
func TestOneLoopOneHang(t *testing.T) {
	a := loopDump("golang.org/x/net/html.inForeignContent parse.go:1900")
	b := loopDump("golang.org/x/net/html.(*parser).indexOfElementInScope parse.go:120", "golang.org/x/net/html.inBodyIM parse.go:800")
	c := loopDump("golang.org/x/net/html.(*parser).parseImpliedToken parse.go:2050")
	s, out, hang, reruns := hangSupervisor(t)
	hang(a, b)
	hang(c, a)
	hang(b, c)
	if len(s.known) != 1 || len(s.newFiles) != 1 || strings.Count(out.String(), "gfz: new failure") != 1 {
		t.Fatalf("%d failures known, %d new files; want one hang\n%s", len(s.known), len(s.newFiles), out)
	}
	for sig := range s.known {
		if want := "timeout\ngolang.org/x/net/html.(*parser).parseCurrentToken\ngolang.org/x/net/html.(*parser).parse parse.go:2150\ngolang.org/x/net/html.Parse parse.go:2200\n"; sig != want {
			t.Errorf("signature %q, want the loop's %q", sig, want)
		}
	}
	if *reruns != 2 {
		t.Errorf("%d re-runs, want 2 (the third hang is interrupted at a point already seen)", *reruns)
	}
}

// TestTwoLoopsOneHelper: two loops that call one helper chain from
// different lines of a function, interrupted in the helper, have one
// single-dump signature; the second was taken for the first and never
// reported (gomarkdown's paragraph loops through list from two lines).
// Each is its own failure; the first loop reached from another context
// (a list item's nesting) is the first failure; a later hang on either
// path at a point seen before needs no re-run.
func TestTwoLoopsOneHelper(t *testing.T) {
	path := func(line, caller int, nested bool) string {
		var b strings.Builder
		b.WriteString("SIGQUIT: quit\n\ngoroutine 6 [running]:\n")
		frames := []string{"p.endsWithBlankLine block.go:" + strconv.Itoa(line), "p.finalizeList block.go:1344", "p.list block.go:1293", "p.paragraph block.go:" + strconv.Itoa(caller), "p.Block block.go:400"}
		if nested {
			frames = append(frames, "p.listItem block.go:900", "p.list block.go:1290", "p.Block block.go:410")
		}
		for _, f := range append(frames, "example.com/t.FuzzMD.func1 t_test.go:9") {
			fn, loc, _ := strings.Cut(f, " ")
			b.WriteString(fn + "(0x1)\n\t/src/p/" + loc + " +0x28\n")
		}
		b.WriteString("github.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)\n\t/gfz/exec.go:95 +0x6b\n")
		return b.String()
	}
	s, out, hang, reruns := hangSupervisor(t)
	hang(path(100, 1742, false), path(105, 1742, false))
	hang(path(100, 1654, false), path(107, 1654, false)) // the other loop, interrupted where the first was
	if len(s.known) != 2 || len(s.newFiles) != 2 {
		t.Fatalf("%d failures known, %d new files; want two hangs\n%s", len(s.known), len(s.newFiles), out)
	}
	if _, ok := s.known["timeout\np.endsWithBlankLine\np.finalizeList block.go:1344\np.list block.go:1293\np.paragraph block.go:1654\n"]; !ok {
		t.Errorf("the second loop's signature does not name the call entering the chain: %q", s.known)
	}
	hang(path(105, 1654, false), "")
	hang(path(107, 1742, false), "")
	if len(s.known) != 2 || *reruns != 2 {
		t.Errorf("%d failures known, %d re-runs; want 2 and 2 (later hangs at points seen before)", len(s.known), *reruns)
	}
	// Inside a list item, the worker interrupted one call deeper than any
	// dump before (a new point): re-run, and the same loop.
	deeper := strings.Replace(path(100, 1742, true), "goroutine 6 [running]:\n", "goroutine 6 [running]:\np.GetLastChild(0x1)\n\t/src/p/ast.go:5 +0x28\n", 1)
	hang(deeper, path(103, 1742, true))
	if len(s.known) != 2 || len(s.newFiles) != 2 || *reruns != 3 {
		t.Errorf("the first loop inside a list item: %d failures known, %d new files, %d re-runs; want 2, 2 and 3", len(s.known), len(s.newFiles), *reruns)
	}
}

// TestShrinkHangAcrossFunctions: a hang whose loop spans several functions
// shrinks although its re-run and its candidates are interrupted in other
// functions than the worker was (each dump has another single-dump
// signature): a candidate counts when its stacks run through the loop, and
// not when it hangs in another loop or dies another way. Before, the
// describing re-run's other signature left such a hang unshrunk, reported
// as "did not fail the same way".
func TestShrinkHangAcrossFunctions(t *testing.T) {
	a := loopDump("golang.org/x/net/html.inForeignContent parse.go:1900")
	b := loopDump("golang.org/x/net/html.(*parser).indexOfElementInScope parse.go:120", "golang.org/x/net/html.inBodyIM parse.go:800")
	c := loopDump("golang.org/x/net/html.(*parser).parseImpliedToken parse.go:2050")
	further := "SIGQUIT: quit\n\ngoroutine 6 [running]:\n" +
		"golang.org/x/net/html.Parse(0x1)\n\t/src/html/parse.go:2190 +0x28\n" +
		"example.com/t.FuzzHTML.func1(0x1)\n\t/src/html/t_test.go:20 +0x28\n" +
		"github.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)\n\t/gfz/exec.go:95 +0x6b\n"
	// Another loop: the tokenizer's, not through parseCurrentToken.
	other := "SIGQUIT: quit\n\ngoroutine 6 [running]:\n" +
		"golang.org/x/net/html.(*Tokenizer).readByte(0x1)\n\t/src/html/token.go:300 +0x28\n" +
		"golang.org/x/net/html.(*Tokenizer).Next(0x1)\n\t/src/html/token.go:900 +0x28\n" +
		"example.com/t.FuzzHTML.func1(0x1)\n\t/src/html/t_test.go:22 +0x28\n" +
		"github.com/gfz-dev/gfz.run(0xc000124000, 0xc000010000)\n\t/gfz/exec.go:95 +0x6b\n"
	for _, tc := range []struct {
		name   string
		trace  string // what every candidate's death prints
		sig    string
		shrunk bool
	}{
		{"the same loop elsewhere", c, signature.Hang(c), true},
		{"another loop", other, signature.Hang(other), false},
		// A hang further out than the loop (in Parse, at another call).
		{"further out", further, signature.Hang(further), false},
		// A crash inside the loop's functions is not the hang.
		{"a crash", strings.Replace(c, "SIGQUIT: quit", "panic: boom", 1), "panic: boom\ngolang.org/x/net/html.(*parser).parseImpliedToken parse.go:2050\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, hang, _ := hangSupervisor(t)
			probes := 0
			s.cfg.Probe = func(_ context.Context, in []byte, _ time.Duration) (string, string, int, error) {
				probes++
				return tc.sig, tc.trace, len(in), nil
			}
			hang(a, b)
			if len(s.newFiles) != 1 {
				t.Fatalf("%d new failures, want 1", len(s.newFiles))
			}
			rep, _ := os.ReadFile(strings.TrimSuffix(s.newFiles[0], ".input") + ".txt")
			if tc.shrunk && strings.Contains(string(rep), "did not fail the same way") {
				t.Fatalf("a hang confirmed by its re-run in the same loop was not shrunk:\n%s", rep)
			}
			if probes == 0 {
				t.Fatal("no candidate ran")
			}
			in, err := workdir.ReadInputFile(s.newFiles[0])
			if err != nil {
				t.Fatal(err)
			}
			if got := len(in) < 2; got != tc.shrunk {
				t.Errorf("input %x after %d candidates: shrunk %v, want %v\n%s", in, probes, got, tc.shrunk, rep)
			}
		})
	}
}

// TestHangWithoutDump: a worker killed before it printed its stacks still
// gets a report with stacks and the loop's signature, from the re-run that
// confirmed the hang; a bare "timeout" is not taken for a place in a loop.
func TestHangWithoutDump(t *testing.T) {
	b := loopDump("golang.org/x/net/html.(*parser).indexOfElementInScope parse.go:120", "golang.org/x/net/html.inBodyIM parse.go:800")
	s, sl, _ := crashSupervisor(t, func(context.Context, []byte, time.Duration) (Rerun, error) {
		return Rerun{Values: "doc = \"<p>\"\n", Consumed: 2, TimedOut: true, Trace: b, Signature: signature.Hang(b)}, nil
	})
	sl.tail = &proc.Tail{Mu: &s.outMu, Max: tailSize}
	sl.tail.Write([]byte("some output, then nothing: killed\n"))
	sl.Kill = signature.KindTimeout
	s.crash(sl, exitState(t, "kill -KILL $$"))
	if len(s.newFiles) != 1 {
		t.Fatalf("%d new failures, want 1", len(s.newFiles))
	}
	var sig string
	for k := range s.known {
		sig = k
	}
	if sig != signature.Hang(b) {
		t.Errorf("signature %q, want the re-run's %q", sig, signature.Hang(b))
	}
	rep, _ := os.ReadFile(strings.TrimSuffix(s.newFiles[0], ".input") + ".txt")
	if !strings.Contains(string(rep), "these are the re-run's") || !strings.Contains(string(rep), "golang.org/x/net/html.inBodyIM") {
		t.Errorf("report without the re-run's stacks:\n%s", rep)
	}
	if _, ok := s.hangPoints[signature.KindTimeout]; ok {
		t.Error("a bare \"timeout\" was remembered as a place in a loop")
	}
}

// chdir changes the working directory to dir for the rest of the test (the
// module's go version predates testing.T.Chdir).
func chdir(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.Chdir(old); err != nil {
			t.Errorf("chdir back: %v", err)
		}
	})
}

// TestDeathStreakSkipsKiller: a slot dying twice in a row on the same
// input at start puts it on the skip list whatever the execution number
// (with several workers the corpus grows and an entry's place in the
// replay moves); another input in between starts the count again; twice
// in the fuzzing loop (a child made again) is not a replayed input: no
// skip, no warning; five deaths in a row on one input at one execution
// give the slot up, at ever later executions they do not.
func TestDeathStreakSkipsKiller(t *testing.T) {
	s, sl, out := crashSupervisor(t, nil)
	killer, other, child := []byte("killer"), []byte("other"), []byte("child")
	sum := sha256.Sum256(killer)
	h := hex.EncodeToString(sum[:])
	if s.deathStreak(sl, child, 40, false) || s.deathStreak(sl, child, 41, false) || s.deathStreak(sl, child, 50, false) || len(s.skip) != 0 {
		t.Fatalf("three deaths in a row on a child made again in the loop: skip %q", s.skip)
	}
	if strings.Contains(out.String(), "twice in a row") {
		t.Fatalf("deaths in the loop warned of a replayed input:\n%s", out)
	}
	if s.deathStreak(sl, killer, 10, true) || len(s.skip) != 0 {
		t.Fatalf("one death: skip %q", s.skip)
	}
	if s.deathStreak(sl, other, 11, true) || s.deathStreak(sl, killer, 12, true) || len(s.skip) != 0 {
		t.Fatalf("deaths on other inputs in between: skip %q", s.skip)
	}
	if s.deathStreak(sl, killer, 14, true) || !slices.Equal(s.skip, []string{h}) {
		t.Fatalf("two deaths in a row on killer (executions 12, 14): skip %q, want [%s]", s.skip, h)
	}
	if !strings.Contains(out.String(), "died twice in a row on the same input") {
		t.Errorf("no warning for the killer input:\n%s", out)
	}
	// Deaths on killer at ever later executions (a child made again and
	// again) are progress: the slot goes on.
	for n := range 5 {
		if s.deathStreak(sl, killer, uint64(20+n), false) {
			t.Fatalf("death %d on killer at execution %d gave the slot up", n+1, 20+n)
		}
	}
	giveUp := false
	for range 5 {
		giveUp = s.deathStreak(sl, killer, 30, true)
	}
	if !giveUp || len(s.skip) != 1 {
		t.Errorf("five deaths in a row at the same execution: give up %v, skip %q", giveUp, s.skip)
	}
}

// TestNoInputRunWarns: a run that ended without running a single input
// (the target's setup before gfz.Fuzz took the whole -time) says so
// loudly in its final summary; one that ran inputs does not.
func TestNoInputRunWarns(t *testing.T) {
	s, sl, out := crashSupervisor(t, nil)
	s.printFinal()
	if !strings.Contains(out.String(), "gfz: warning: no input was run") {
		t.Errorf("no warning for a run of 0 executions:\n%s", out)
	}
	out.Reset()
	sl.dead.execs = 5
	s.printFinal()
	if strings.Contains(out.String(), "no input was run") {
		t.Errorf("warned for a run of 5 executions:\n%s", out)
	}
}

// TestKillersPassedOn: an input a worker died on with a saved failure is
// passed to the workers started after (WorkerSpec.Avoid), once.
func TestKillersPassedOn(t *testing.T) {
	s, sl, _ := crashSupervisor(t, nil)
	s.crash(sl, exitState(t, "exit 2")) // new failure: saved
	s.crash(sl, exitState(t, "exit 2")) // the same again: known
	if len(s.killers) != 1 || !bytes.Equal(s.killers[0], []byte{7, 8, 9}) {
		t.Fatalf("killers %q, want the input once", s.killers)
	}
	var spec WorkerSpec
	s.exits = make(chan *slot, 1)
	s.cfg.Command = func(w WorkerSpec) *exec.Cmd { spec = w; return exec.Command("true") }
	s.startWorker(sl)
	<-s.exits
	if len(spec.Avoid) != 1 || !bytes.Equal(spec.Avoid[0], []byte{7, 8, 9}) {
		t.Errorf("the next worker avoids %q", spec.Avoid)
	}
}
