package proc

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// Usage is what a process's threads have spent since they started: time
// running on a CPU, and time waiting, runnable, for one (the scheduler's
// run queue: the process wanted to run and the machine was busy).
type Usage struct {
	CPU, Wait time.Duration
}

// ReadUsage sums the scheduler statistics of every thread of process pid
// (/proc/PID/task/*/schedstat, Linux); ok is false where there are none.
func ReadUsage(pid int) (u Usage, ok bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return Usage{}, false
	}
	for _, e := range ents {
		b, err := os.ReadFile(dir + "/" + e.Name() + "/schedstat")
		if err != nil {
			continue // a thread that has just exited
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return Usage{}, false
		}
		run, err1 := strconv.ParseInt(f[0], 10, 64)
		wait, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			return Usage{}, false
		}
		u.CPU += time.Duration(run)
		u.Wait += time.Duration(wait)
		ok = true
	}
	return u, ok
}
