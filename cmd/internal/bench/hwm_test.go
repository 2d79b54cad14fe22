package bench

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// hwmHelperEnv makes the test binary a helper process of
// TestGroupHWMDescendants: "parent" starts a "child" in a process group of
// its own (as gfz's supervisor starts its workers) and waits for it;
// "child" makes 64 MiB resident and sleeps.
const hwmHelperEnv = "GFZ_BENCH_HWM_HELPER"

func TestHWMHelper(t *testing.T) {
	switch os.Getenv(hwmHelperEnv) {
	case "parent":
		cmd := exec.Command(os.Args[0], "-test.run=^TestHWMHelper$")
		cmd.Env = append(os.Environ(), hwmHelperEnv+"=child")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Run(); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	case "child":
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = byte(i)
		}
		time.Sleep(20 * time.Second)
		runtime.KeepAlive(b)
		os.Exit(0)
	}
}

// TestGroupHWMDescendants: the peak resident set of a run counts the
// processes its command started in process groups of their own (gfz's
// workers), not only the command's group.
func TestGroupHWMDescendants(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHWMHelper$")
	cmd.Env = append(os.Environ(), hwmHelperEnv+"=parent")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		hwm := map[int]int64{}
		groupHWM(cmd.Process.Pid, hwm)
		for pid, kb := range hwm {
			if pid != cmd.Process.Pid && kb >= 60<<10 {
				syscall.Kill(pid, syscall.SIGKILL) // done with it
				return
			}
		}
	}
	t.Fatal("the 64 MiB of a process started in a group of its own were not counted")
}
