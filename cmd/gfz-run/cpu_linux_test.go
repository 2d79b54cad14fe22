package main

import (
	"os/exec"
	"testing"
	"time"
)

// TestGroupCPU: the CPU time of a process group is read from /proc: a
// child in a group of its own that burns CPU, then sleeps, shows some,
// never less at a later reading; a group whose leader is gone is not ok.
func TestGroupCPU(t *testing.T) {
	cmd := exec.Command("sh", "-c", `i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo spun; exec sleep 30`)
	ownGroup(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		kill(cmd)
		_ = cmd.Wait()
	}()
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "spun\n" {
		t.Fatalf("child: %q %v", buf, err)
	}
	a, ok := groupCPU(cmd.Process.Pid)
	if !ok || a <= 0 {
		t.Fatalf("groupCPU after spinning: %v %v", a, ok)
	}
	time.Sleep(50 * time.Millisecond)
	if b, ok := groupCPU(cmd.Process.Pid); !ok || b < a {
		t.Errorf("groupCPU later: %v %v, first %v", b, ok, a)
	}
	kill(cmd)
	_ = cmd.Wait()
	if _, ok := groupCPU(cmd.Process.Pid); ok {
		t.Errorf("groupCPU of an ended group is ok")
	}
}
