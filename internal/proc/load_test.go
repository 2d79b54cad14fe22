package proc

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestWatchdogUnderLoad pins the hang rule with scripted usage and clock:
// an input on a starved CPU (waiting to run, not running) is not stopped at
// Timeout of wall time, but once it has had Timeout of CPU; a blocked
// input (neither running nor waiting) is stopped at Timeout; without usage
// figures wall time decides.
func TestWatchdogUnderLoad(t *testing.T) {
	// A child stands for the watched process (a mistaken signal must not
	// reach the test itself); its usage is scripted.
	child := exec.Command("sleep", "60")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	self := child.Process
	t0 := time.Unix(1000, 0)
	ms := time.Millisecond
	cases := []struct {
		name  string
		usage []Usage // at each tick after the baseline, CPU and run-queue wait since the process started
		at    []time.Duration
		stop  int // the tick (index into at) at which it is stopped, -1: never
		noUse bool
	}{
		// A busy input on a machine that gives it a fifth of a CPU:
		// 0.2 s of CPU per second, the rest waiting.
		{"starved busy loop", []Usage{{CPU: 300 * ms, Wait: 1600 * ms}, {CPU: 700 * ms, Wait: 3200 * ms}, {CPU: 1100 * ms, Wait: 4800 * ms}},
			[]time.Duration{2 * time.Second, 4 * time.Second, 6 * time.Second}, 2, false},
		// An input that finishes after 0.6 s of CPU, 3 s of wall time.
		{"slow input under load", []Usage{{CPU: 300 * ms, Wait: 1600 * ms}, {CPU: 600 * ms, Wait: 2300 * ms}},
			[]time.Duration{2 * time.Second, 2900 * ms}, -1, false},
		// Blocked: neither running nor waiting since the baseline.
		{"blocked", []Usage{{CPU: 100 * ms}}, []time.Duration{time.Second}, 0, false},
		// A busy loop on an idle machine: stopped at Timeout, as before.
		{"busy loop, idle machine", []Usage{{CPU: 1000 * ms}}, []time.Duration{time.Second}, 0, false},
		{"no usage figures", nil, []time.Duration{time.Second}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i := -1 // the baseline read, at 100 ms: 0.1 s of CPU so far
			w := Watchdog{Timeout: time.Second, Usage: func(int) (Usage, bool) {
				if c.noUse {
					return Usage{}, false
				}
				if i < 0 {
					return Usage{CPU: 100 * ms}, true
				}
				return c.usage[i], true
			}}
			if w.Tick(self, t0.Add(100*ms), true, t0) || !w.baseOK && !c.noUse {
				t.Fatalf("the baseline tick: stopped %q, baseline read %v", w.Kill, w.baseOK)
			}
			for i = range c.at {
				stopping := w.Kill == "" && w.Timeout > 0 && w.hung(self.Pid, t0.Add(c.at[i]), t0)
				if want := i == c.stop; stopping != want {
					t.Fatalf("tick %d at %v: hung %v, want %v", i, c.at[i], stopping, want)
				}
				if stopping {
					return
				}
			}
		})
	}
	// A new input gets a new baseline.
	w := Watchdog{Timeout: time.Second, Usage: func(int) (Usage, bool) { return Usage{CPU: 5 * time.Second}, true }}
	w.Tick(self, t0.Add(200*ms), true, t0)
	w.Tick(self, t0.Add(2500*ms), true, t0.Add(2*time.Second))
	if !w.baseFor.Equal(t0.Add(2*time.Second)) || !w.baseAt.Equal(t0.Add(2500*ms)) || w.Kill != "" {
		t.Errorf("baseline for %v at %v, want the second input's", w.baseFor, w.baseAt)
	}
}

// TestReadUsage: this process's threads have run and the figures grow.
func TestReadUsage(t *testing.T) {
	a, ok := ReadUsage(os.Getpid())
	if !ok {
		t.Skip("no scheduler statistics here (/proc/PID/task/*/schedstat)")
	}
	x := 0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x++
	}
	b, _ := ReadUsage(os.Getpid())
	if a.CPU <= 0 || b.CPU <= a.CPU || x == 0 {
		t.Errorf("CPU %v then %v after a busy loop", a.CPU, b.CPU)
	}
}
