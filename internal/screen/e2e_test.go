package screen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gfz-dev/gfz/internal/testmod"
)

// TestFuzzBinaryScreen runs a fuzz binary with its stderr on a terminal
// (a pseudo-terminal made by script(1)) and on a pipe: the first draws
// the live screen, the second prints plain status lines.
func TestFuzzBinaryScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a fuzz binary")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to make a terminal")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "t.gfz")
	if log, err := testmod.GfzBuild(filepath.Join(root, "testdata", "instrument", "fixture"), "-o", bin, "./target"); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	// On a terminal: the screen is drawn at the first status line (3 s
	// into the run) and erased for the final summary. The run is stopped
	// with Ctrl-C (SIGINT) once the screen is there, not after a fixed
	// time, so a loaded machine that delays the first status line only
	// makes the test slower. -timeout 60s: this test is about the screen.
	wdTTY := filepath.Join(t.TempDir(), "w-tty")
	typescript := filepath.Join(t.TempDir(), "typescript")
	cmd := exec.Command(script, "-qfec", bin+" -time 2m -timeout 60s -workers 1 -workdir "+wdTTY+" FuzzParse", typescript)
	cmd.Env = append(os.Environ(), "TERM=xterm")
	var scriptOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &scriptOut, &scriptOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		data, _ := os.ReadFile(typescript)
		return strings.Contains(string(data), "gfz · FuzzParse · Ctrl-C stops")
	})
	interrupt(t, wdTTY)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("script: %v\n%s", err, scriptOut.String())
	}
	data, err := os.ReadFile(typescript)
	if err != nil {
		t.Fatal(err)
	}
	tty := string(data)
	if !strings.Contains(tty, "gfz · FuzzParse · Ctrl-C stops") || !strings.Contains(tty, "\x1b[J") || !strings.Contains(tty, "gfz: done: ") {
		t.Errorf("no live screen on a terminal:\n%q", tty)
	}
	// On a pipe: plain lines, no escape sequence.
	wdPipe := filepath.Join(t.TempDir(), "w-pipe")
	run := exec.Command(bin, "-time", "2m", "-timeout", "60s", "-workers", "1", "-workdir", wdPipe, "FuzzParse")
	run.Env = append(os.Environ(), "TERM=xterm")
	var out syncBuffer
	run.Stdout, run.Stderr = &out, &out
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Contains(out.String(), "gfz: elapsed ") })
	_ = run.Process.Signal(os.Interrupt)
	if err := run.Wait(); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "\x1b[") || !strings.Contains(out.String(), "gfz: elapsed ") || !strings.Contains(out.String(), "gfz: done: ") {
		t.Errorf("not plain status lines on a pipe:\n%s", out.String())
	}
}

// waitFor polls cond until it holds (failing the test after two minutes:
// the run's -time).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the fuzz binary printed no status line in two minutes")
		}
	}
}

// interrupt sends SIGINT to the fuzz binary's supervisor, found by its
// work directory on its command line (script(1) runs it through a shell).
func interrupt(t *testing.T, workdir string) {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if len(args) > 1 && strings.HasSuffix(args[0], "t.gfz") && slices.Contains(args, workdir) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			env, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "environ"))
			if strings.Contains(string(env), "GFZ_CHILD=1") {
				continue // a worker: the supervisor stops it
			}
			if err := syscall.Kill(pid, syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatal("the fuzz binary's process was not found")
}

// syncBuffer is a bytes.Buffer safe for the writer goroutines of exec and
// the test's polling.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestMain(m *testing.M) { testmod.Main(m) }
