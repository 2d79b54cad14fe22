package screen_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfz-dev/gfz/internal/build"
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
	var stderr bytes.Buffer
	if _, err := build.Build(context.Background(), build.Options{Patterns: []string{"./target"}, Dir: filepath.Join(root, "testdata", "instrument", "fixture"), Output: bin, Stderr: &stderr}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	// On a terminal: -time 4s gives the status line of 3s, drawn as the
	// screen, then erased for the final summary. -timeout 60s: this test
	// is about the screen, and on a loaded machine the calibrated timeout's
	// 1s floor once flagged a slow execution (exit status 1).
	typescript := filepath.Join(t.TempDir(), "typescript")
	cmd := exec.Command(script, "-qec", bin+" -time 4s -timeout 60s -workers 1 -workdir "+filepath.Join(t.TempDir(), "w")+" FuzzParse", typescript)
	cmd.Env = append(os.Environ(), "TERM=xterm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("script: %v\n%s", err, out)
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
	run := exec.Command(bin, "-time", "4s", "-timeout", "60s", "-workers", "1", "-workdir", filepath.Join(t.TempDir(), "w"), "FuzzParse")
	run.Env = append(os.Environ(), "TERM=xterm")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "\x1b[") || !strings.Contains(string(out), "gfz: elapsed ") {
		t.Errorf("not plain status lines on a pipe:\n%s", out)
	}
}
