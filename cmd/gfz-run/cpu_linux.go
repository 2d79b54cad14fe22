package main

import (
	"bytes"
	"os"
	"strconv"
)

// clockTicks is the unit of the times in /proc/<pid>/stat (USER_HZ, 100
// on every Linux architecture Go supports).
const clockTicks = 100

// groupCPU returns the CPU seconds the process group pgid has used so
// far: the user and system time of each of its processes (a fuzz binary
// and its workers), and the time of the children its leader has reaped
// (its ended workers and -repro processes). ok is false when /proc cannot
// be read or the leader is gone.
func groupCPU(pgid int) (secs float64, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	var ticks int64
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // ended meanwhile
		}
		// The fields after the command (which may hold spaces and
		// parentheses): state ppid pgrp ... utime stime cutime cstime
		// are the 3rd, 4th, 5th, ... 14th to 17th of the line.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(data[i+1:])
		if len(f) < 15 {
			continue
		}
		if g, err := strconv.Atoi(string(f[2])); err != nil || g != pgid {
			continue
		}
		n := 2 // utime and stime
		if pid == pgid {
			n, ok = 4, true // and its reaped children's
		}
		for _, v := range f[11 : 11+n] {
			t, _ := strconv.ParseInt(string(v), 10, 64)
			ticks += t
		}
	}
	return float64(ticks) / clockTicks, ok
}
