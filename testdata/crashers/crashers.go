// Package crashers holds fuzz targets that kill the process that runs
// them in every way a Go program can die: a panic in a goroutine they
// start, a runtime fatal error (concurrent map writes, stack overflow), a
// call to os.Exit or runtime.Goexit, an endless loop, unbounded
// allocation. The supervisor tests of package gfz build them with
// gfz-build and check that each death is saved as a failure and that
// fuzzing goes on.
package crashers

import (
	"syscall"
	"time"
)

// Maze returns how many of the bytes match "gfz!" in order: a little
// coverage structure so that the corpus grows while the targets run.
func Maze(b []byte) int {
	want := "gfz!"
	n := 0
	for i := 0; i < len(b) && i < len(want); i++ {
		if b[i] != want[i] {
			break
		}
		n++
	}
	return n
}

// Recurse calls itself without end.
func Recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	return Recurse(n+1) + int(pad[0])
}

// Spin loops forever.
func Spin() int {
	x := 0
	for {
		x++
	}
}

// hog keeps what Hog allocates reachable.
var hog [][]byte

// Hog allocates and touches memory without bound.
func Hog() {
	for {
		b := make([]byte, 1<<20)
		for i := range b {
			if i%4096 == 0 {
				b[i] = 1
			}
		}
		hog = append(hog, b)
	}
}

// BurnCPU spins until the process has used d more CPU time (user and
// system, all threads): on a loaded machine it takes longer in wall time,
// never more CPU.
func BurnCPU(d time.Duration) int {
	start := cpuTime()
	x := 0
	for cpuTime()-start < d {
		for range 10000 {
			x++
		}
	}
	return x
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Deep recurses n levels with a kilobyte of stack each and returns: about
// 32 MiB of stack for n = 30000, past a 16 MiB -stack_limit_mb and within
// the 64 MiB default.
func Deep(n int) int {
	var buf [1024]byte
	buf[n%len(buf)] = byte(n)
	if n == 0 {
		return int(buf[0])
	}
	return Deep(n-1) + int(buf[n%len(buf)])
}
