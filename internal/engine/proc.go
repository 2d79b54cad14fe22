//go:build unix

package engine

import (
	"os"
	"strconv"
	"strings"
)

// Resident memory readings from /proc (0 where there is none).

// ProcRSS returns the resident set size of process pid in bytes (0 if
// unknown: /proc is Linux-only).
func ProcRSS(pid int) int64 {
	return statmRSS("/proc/" + strconv.Itoa(pid) + "/statm")
}

func selfRSS() int64 { return statmRSS("/proc/self/statm") }

func statmRSS(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
