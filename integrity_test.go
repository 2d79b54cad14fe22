package gfz_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz"
	gen "github.com/gfz-dev/gfz/generators"
	"github.com/gfz-dev/gfz/internal/signature"
	"github.com/gfz-dev/gfz/internal/workdir"
)

// Integrity of what gfz writes to the work directory (issue 9).

// reportSection returns the lines of a failure report's section, without
// their indentation.
func reportSection(rep, name string) []string {
	_, rest, ok := strings.Cut(rep, "\n"+name+":\n")
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "\t") {
			break
		}
		out = append(out, strings.TrimPrefix(l, "\t"))
	}
	return out
}

// TestIntegrityFailureIsOneUnit: every worker finds the same failure at
// once (on the seed they all replay first), each with its own input. The
// failure is saved once, its report describes exactly its input, and it is
// announced once.
func TestIntegrityFailureIsOneUnit(t *testing.T) {
	bin := crashersBinary(t)
	for run := 1; run <= 3; run++ {
		wd := filepath.Join(t.TempDir(), "wd")
		out, code := runBin(t, bin, "-workers", "8", "-seed", strconv.Itoa(run), "-runs", "800", "-workdir", wd, "FuzzIntegrityPanic")
		if code != 1 {
			t.Fatalf("run %d: exit %d, want 1\n%s", run, code, out)
		}
		if n := strings.Count(out, "gfz: new failure"); n != 1 {
			t.Errorf("run %d: the failure was announced %d times, want once:\n%s", run, n, out)
		}
		reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*.txt"))
		if len(reports) != 1 {
			t.Fatalf("run %d: %d failure reports, want 1", run, len(reports))
		}
		rep, err := os.ReadFile(reports[0])
		if err != nil {
			t.Fatal(err)
		}
		input, err := workdir.ReadInputFile(strings.TrimSuffix(reports[0], ".txt") + ".input")
		if err != nil {
			t.Fatal(err)
		}
		params, err := hex.DecodeString(strings.Join(reportSection(string(rep), "params (hex)"), ""))
		if err != nil {
			t.Fatalf("run %d: params section: %v\n%s", run, err, rep)
		}
		if !bytes.Equal(params, input) {
			t.Errorf("run %d: the report's params %x are not its input %x", run, params, input)
		}
		// The values reported are those the input generates.
		msg := strings.Join(reportSection(string(rep), "message"), "\n")
		vals := strings.Join(reportSection(string(rep), "value"), "\n")
		var a, b int
		if _, err := fmt.Sscanf(msg[strings.Index(msg, "integrity failure"):], "integrity failure (%d, %d)", &a, &b); err != nil {
			t.Fatalf("run %d: message %q: %v", run, msg, err)
		}
		if !strings.Contains(vals, fmt.Sprintf("a = %d", a)) || !strings.Contains(vals, fmt.Sprintf("b = %d", b)) {
			t.Errorf("run %d: values %q do not match the message %q", run, vals, msg)
		}
	}
}

// TestIntegrityHangSites: two hangs at different places are two failures,
// each with a signature naming where it hung, and no stack or signature
// shows gfz's instrumentation frames.
func TestIntegrityHangSites(t *testing.T) {
	bin := crashersBinary(t)
	out, reports := failingRun(t, bin, filepath.Join(t.TempDir(), "wd"), "-workers", "1", "-seed", "5", "-runs", "60", "-shrinkruns", "0", "-timeout", "500ms", "FuzzIntegrityHangs")
	sites := map[string]int{}
	for _, r := range reports {
		rep, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(rep, []byte("_gfz")) {
			t.Errorf("%s shows instrumentation frames:\n%s", r, rep)
		}
		sig := string(rep[bytes.Index(rep, []byte("signature: ")):])
		sig, _, _ = strings.Cut(sig, "\n")
		for _, fn := range []string{"hangA", "hangB"} {
			if strings.Contains(sig, "timeout\\ngithub.com/gfz-dev/gfz/testdata/crashers."+fn+"\\n") {
				sites[fn]++
			}
		}
	}
	if sites["hangA"] != 1 || sites["hangB"] != 1 {
		t.Errorf("hang failures by site %v, want one at hangA and one at hangB\n%s", sites, out)
	}
}

// TestIntegrityWorkdirLock: a second run on a busy work directory is
// refused (exit 2, naming the directory and the other process); after a
// kill -9 of the first run, a new one proceeds.
func TestIntegrityWorkdirLock(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	cmd := exec.Command(bin, "-workers", "1", "-workdir", wd, "FuzzFine")
	cmd.Dir = t.TempDir()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	pollUntil(t, 60*time.Second, func() bool {
		b, err := os.ReadFile(filepath.Join(wd, "stats"))
		return err == nil && bytes.Contains(b, []byte("state: running"))
	})
	out, code := runBin(t, bin, "-workers", "1", "-runs", "100", "-workdir", wd, "FuzzFine")
	wantOutput(t, "second run", out, code, 2, wd, "in use by another gfz run", "process "+strconv.Itoa(cmd.Process.Pid))
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	out, code = runBin(t, bin, "-workers", "1", "-runs", "100", "-workdir", wd, "FuzzFine")
	wantOutput(t, "run after kill -9", out, code, 0, "execs 100")
}

// TestIntegrityRSSLimitBelowFootprint: a limit below what a worker needs
// to start is a setup error, not an out-of-memory failure.
func TestIntegrityRSSLimitBelowFootprint(t *testing.T) {
	bin := crashersBinary(t)
	wd := filepath.Join(t.TempDir(), "wd")
	out, code := runBin(t, bin, "-workers", "1", "-runs", "100", "-rss_limit_mb", "1", "-workdir", wd, "FuzzFine")
	wantOutput(t, "-rss_limit_mb 1", out, code, 2, "rss_limit_mb")
	if reports, _ := filepath.Glob(filepath.Join(wd, "failures", "*")); len(reports) != 0 {
		t.Errorf("failures saved: %v\n%s", reports, out)
	}
}

// integrityPanic* panic through three frames: a panic the executor
// recovers and the same panic crashing a goroutine must get one signature.
func integrityPanicC(n int) { panic(fmt.Errorf("integrity bad value %d at %#x", n, n)) }

func integrityPanicB(n int) { integrityPanicC(n + 1) }

func integrityPanicA(n int) { integrityPanicB(n * 2) }

// TestIntegrityHelperPanic is the helper process of
// TestIntegritySameSignature: it crashes with integrityPanicA in a
// goroutine.
func TestIntegrityHelperPanic(t *testing.T) {
	if os.Getenv("GFZ_INTEGRITY_HELPER") != "panic" {
		t.Skip("helper process")
	}
	done := make(chan bool)
	go func() {
		integrityPanicA(21)
		done <- true
	}()
	<-done
}

// TestIntegritySameSignature: the same panic, recovered in-process by the
// executor or crashing the process and classified by the supervisor from
// the runtime's output, has the same signature.
func TestIntegritySameSignature(t *testing.T) {
	ex := gfz.NewExecutor(func(t *gfz.T) { integrityPanicA(int(gen.Byte().Draw(t))) })
	out := ex.Exec([]byte{5}, 0)
	if out.Failure == nil {
		t.Fatalf("no failure: %+v", out)
	}
	inProcess := out.Failure.Signature

	cmd := exec.Command(os.Args[0], "-test.run=^TestIntegrityHelperPanic$")
	cmd.Env = append(os.Environ(), "GFZ_INTEGRITY_HELPER=panic")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("the helper process did not crash")
	}
	crashed := signature.CrashSignature(stderr.String(), cmd.ProcessState)
	if crashed != inProcess {
		t.Errorf("in-process signature\n%s\nsupervisor signature\n%s\ncrash output:\n%.3000s", inProcess, crashed, stderr.String())
	}
	if !strings.HasPrefix(inProcess, "panic: integrity bad value N at N\n") || strings.Count(inProcess, "integrityPanic") != 3 {
		t.Errorf("signature %q", inProcess)
	}
}
